"""How long a table's final counts take to enter on the phone page, a player at a time on the
per-player sheets and on the grid of every player, for each game, on the same table.

Serves the app with gunicorn (as the browser tests do) and drives Debian's Chromium with Playwright
at 360×740, entering the same end-of-game table of each game in each view the way a player with a
thumb would, with as few actions as the view allows:

- sheets: tap a count's field and type its digits on the phone's keyboard (a count of 0 is left
  alone); a folded dinosaur is tapped open, a position held once or twice takes its + button;
  a mission is chosen from its list (2 taps); DIG's bowls are put in order with their lists.
- grid: tap a cell unless the pad is already on it, then the pad's digits (the pad moves on by
  itself once a count can take no more digits); a dinosaur's cell opens its tiles on the pad, where
  "One of each" adds a complete set and a tap adds a tile; DIG's bowls are tapped in order.

Counted: taps on the page, keys pressed on a keypad (the phone's keyboard on the sheets, the pad on
the grid: the thumb is on it already), their sum (touches), and swipes (before a tap, the scroll
that brings its target into the part of the screen nothing covers, one swipe for each 60% of the
screen's height or part of it). Timed: the seconds Playwright took to enter each player's counts
(driven s: what the page costs, not a thumb), and an estimate of a thumb's time from the counts:
0.5 s a tap, 0.35 s a key, 0.8 s a swipe (a keystroke-level model's operators, rounded; the
phone's keyboard opening and covering half the page on the sheets is not counted).
What is set once for the table (DIG's bowls; choosing the grid, which the phone then keeps) is
counted apart from the players. At the end every total shown must be the calculator's answer
(POST /api/v1/games/{game}/score) to the same table, else the script exits 1.

    .venv/bin/python bench/scorer_taps.py [--views sheets grid] [--root CHECKOUT]

`--root` serves another checkout of the project (an earlier commit unpacked beside this one, its
.venv linked): the same table entered on the page as it was.
"""

import argparse
import json
import math
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Locator, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server import serve  # noqa: E402  (the repository root is put on the path above)
from tests.web.phone import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

PHONE = {"width": 360, "height": 740}
TAP_S, KEY_S, SWIPE_S = 0.5, 0.35, 0.8
SWIPE = 0.6  # of the screen's height, one swipe

# The end of a 5-player game of Dig It Up on the standard board: no more of a tile than the board
# holds, 60 tiles (each site's last left in play), a mission each (Closing Shop is declared), the
# orange cards kept that score.
DIG_IT_UP = {"variant": "standard", "players": [
    {"name": "Ann", "tiles": {"gold": 4, "incense_burner": 1, "statue": 1, "knife": 1, "scroll": 2,
                              "crystal": 2, "ruby": 1, "diamond": 2, "stone": 1},
     "tokens": 6, "cards": {"gold_nugget": 1}, "mission": {"id": "gold_digger"}},
    {"name": "Bob", "tiles": {"gold": 3, "statue": 2, "scroll": 2, "crystal": 2, "ruby": 2,
                              "diamond": 1, "stone": 1},
     "tokens": 4, "cards": {"appraisal": 1}, "mission": {"id": "scholar"}},
    {"name": "Cy", "tiles": {"gold": 2, "incense_burner": 2, "knife": 1, "crystal": 2, "ruby": 2,
                             "diamond": 2, "stone": 1},
     "tokens": 10, "mission": {"id": "closing_shop", "achieved": True}},
    {"name": "Dee", "tiles": {"gold": 3, "incense_burner": 1, "statue": 1, "knife": 2, "scroll": 1,
                              "crystal": 1, "ruby": 1, "stone": 2},
     "tokens": -1, "cards": {"insurance": 1}, "mission": {"id": "bronze_age"}},
    {"name": "Eve", "tiles": {"gold": 1, "scroll": 2, "crystal": 1, "ruby": 1, "diamond": 2,
                              "stone": 1},
     "tokens": 2, "cards": {"pink_diamond": 1}, "mission": {"id": "crystal_clear"}},
]}
# A 4-player game of DIG: 18 of the 20 bones dropped, the bowls far from where they started.
DIG = {"bowls": ["purple", "red", "green", "blue", "yellow"], "players": [
    {"name": "Ann", "dropped": {"green": 2, "yellow": 1, "purple": 1, "red": 1}},
    {"name": "Bob", "dropped": {"yellow": 2, "purple": 2, "blue": 1}},
    {"name": "Cy", "dropped": {"green": 1, "blue": 2, "red": 1}},
    {"name": "Dee", "dropped": {"green": 1, "purple": 1, "red": 2}},
]}
# A 4-player game of Digging for Dinos: 62 tiles collected, four dinosaurs completed.
DINOS = {"players": [
    {"name": "Matteo", "tiles": {"stegosaurus": [1, 2, 3, 4, 5], "velociraptor": [1, 2],
                                 "pterodactyl": [1, 2, 3], "triceratops": [1, 2, 3, 4, 5, 6],
                                 "brontosaurus": [2, 5]}},
    {"name": "Emmy", "tiles": {"pterodactyl": [1, 2, 3, 4, 4], "tyrannosaurus": [1, 2, 3, 4, 5, 6],
                               "deinosuchus": [1], "stegosaurus": [3, 4]}},
    {"name": "Luca", "tiles": {"brontosaurus": [1, 2, 3, 4, 5, 6, 7, 8], "velociraptor": [1, 2, 1],
                               "triceratops": [2, 2, 5]}},
    {"name": "Otto", "tiles": {"deinosuchus": [1, 2], "stegosaurus": [1, 2, 5],
                               "tyrannosaurus": [1, 6, 6], "pterodactyl": [2, 3]}},
]}
GAMES = {"dig-it-up": ("Dig It Up", DIG_IT_UP), "dig": ("DIG", DIG),
         "digging-for-dinos": ("Digging for Dinos", DINOS)}

# The part of the screen nothing covers: below a grid's header row once it sticks to the top,
# above the bar or the pad at the bottom.
CLEAR_BAND = """() => {
  const head = document.querySelector('.grid thead');
  const stuck = head && head.getBoundingClientRect().top <= 1;
  const below = [...document.querySelectorAll('#bar:not([hidden]), .pad')]
    .map((el) => el.getBoundingClientRect().top);
  return [stuck ? head.getBoundingClientRect().bottom : 0, Math.min(innerHeight, ...below)];
}"""


@dataclass
class Effort:
    taps: int = 0
    keys: int = 0
    swipes: int = 0
    seconds: float = 0.0

    @property
    def thumb(self) -> float:
        return self.taps * TAP_S + self.keys * KEY_S + self.swipes * SWIPE_S


@dataclass
class Thumb:
    """Every action on the page goes through here, counted."""

    page: Page
    now: Effort = field(default_factory=Effort)

    def reach(self, target: Locator) -> bool:
        """Scrolls `target` into the part of the screen nothing covers; whether it is a key of the
        grid's pad (always under the thumb, wherever the page is)."""
        target.wait_for()
        if target.evaluate("(el) => Boolean(el.closest('.pad'))"):
            return True
        box = target.bounding_box()
        top, bottom = self.page.evaluate(CLEAR_BAND)
        if box["y"] >= top and box["y"] + box["height"] <= bottom:
            return False
        delta = box["y"] + box["height"] / 2 - (top + bottom) / 2
        self.page.evaluate("(dy) => scrollBy({ top: dy, behavior: 'instant' })", delta)
        self.now.swipes += math.ceil(abs(delta) / (SWIPE * PHONE["height"]))
        return False

    def tap(self, target: Locator) -> None:
        """A tap on the page, or a key of the pad."""
        key = self.reach(target)
        target.click()
        if key:
            self.now.keys += 1
        else:
            self.now.taps += 1

    def choose(self, select: Locator, value: str) -> None:
        """A list opened and one of its entries tapped."""
        self.reach(select)
        select.select_option(value)
        self.now.taps += 2

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.now.keys += len(text)


def label(page: Page, text: str) -> Locator:
    return page.get_by_label(text, exact=True)


def counts_of(game: str, player: dict) -> list[tuple[str, int]]:
    """A player's counts as the page labels them (the labels' words are the box's), in the
    order the sheet asks for them."""
    if game == "dig-it-up":
        tiles = ["gold", "incense_burner", "statue", "knife", "scroll", "crystal", "ruby",
                 "diamond", "stone"]
        words = {"incense_burner": "incense burner", "gold_nugget": "gold card",
                 "pink_diamond": "pink diamond"}
        out = [(words.get(t, t), player["tiles"].get(t, 0)) for t in tiles]
        out.append(("money tokens, ₩ value", player["tokens"]))
        for card in ("pink_diamond", "gold_nugget", "appraisal", "insurance"):
            out.append((words.get(card, card), player.get("cards", {}).get(card, 0)))
        return out
    return [(colour, player["dropped"].get(colour, 0)) for colour in DIG["bowls"]]


def sheets_player(thumb: Thumb, game: str, player: dict) -> None:
    page, name = thumb.page, player["name"]
    if game == "digging-for-dinos":
        sheet = page.get_by_role("region", name=name, exact=True)
        for dinosaur, positions in player["tiles"].items():
            thumb.tap(sheet.locator("summary", has_text=dinosaur.capitalize()))
            for position in sorted(set(positions)):
                n = positions.count(position)
                count = label(page, f"{name} {dinosaur} {position}")
                if n <= 2:
                    for _ in range(n):
                        thumb.tap(count.locator("xpath=..").get_by_role("button", name="One more"))
                else:
                    thumb.tap(count)
                    thumb.type(str(n))
        return
    for word, n in counts_of(game, player):
        if n:
            thumb.tap(label(page, f"{name} {word}"))
            thumb.type(str(n))
    if "mission" in player:
        thumb.choose(label(page, f"{name} mission"), player["mission"]["id"])
        if player["mission"].get("achieved"):
            thumb.tap(label(page, f"{name} mission achieved"))


def at(page: Page) -> str | None:
    """The id of the cell the grid's pad writes to."""
    return page.evaluate("document.querySelector('.grid td.at > *')?.id ?? null")


def grid_player(thumb: Thumb, game: str, player: dict) -> None:
    page, name = thumb.page, player["name"]
    pad = page.get_by_role("group", name="Number pad")
    if game == "digging-for-dinos":
        for dinosaur, positions in player["tiles"].items():
            cell = page.get_by_role("button", name=f"{name} {dinosaur.capitalize()}:")
            if at(page) != cell.get_attribute("id"):
                thumb.tap(cell)
            tiles = pad.get_by_role("group", name=f"{name} {dinosaur.capitalize()}")
            size = tiles.get_by_role("button").count()
            sets = min(positions.count(p) for p in range(1, size + 1))
            for _ in range(sets):
                thumb.tap(pad.get_by_role("button", name="One of each"))
            for position in sorted(set(positions)):
                for _ in range(positions.count(position) - sets):
                    thumb.tap(tiles.get_by_role("button", name=f" {position} ("))
        return
    for word, n in counts_of(game, player):
        if not n:
            continue
        cell = label(page, f"{name} {word}")
        if at(page) != cell.get_attribute("id"):
            thumb.tap(cell)
        if n < 0:
            thumb.tap(pad.get_by_role("button", name="Minus"))
        for digit in str(abs(n)):
            thumb.tap(pad.get_by_role("button", name=digit, exact=True))
    if "mission" in player:
        thumb.choose(label(page, f"{name} mission"), player["mission"]["id"])
        if player["mission"].get("achieved"):
            thumb.tap(label(page, f"{name} mission achieved"))


def bowls_by_lists(thumb: Thumb, order: list[str]) -> None:
    """Each bowl's list, where it does not already hold its colour (a colour chosen swaps)."""
    for place, colour in enumerate(order, start=1):
        select = label(thumb.page, f"Bowl {place}")
        if select.input_value() != colour:
            thumb.choose(select, colour)


def bowls_by_taps(thumb: Thumb, order: list[str]) -> None:
    for colour in order[:-1]:  # the last is the one left
        thumb.tap(thumb.page.get_by_role("button", name=colour, exact=True))


def calculator(url: str, game: str, table: dict) -> dict:
    request = urllib.request.Request(f"{url}/api/v1/games/{game}/score",
                                     data=json.dumps(table).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def enter(browser, url: str, game: str, view: str) -> tuple[Effort, list[Effort]]:
    """One table entered on a fresh phone: what was done for the table, and for each player."""
    title, table = GAMES[game]
    context = browser.new_context(viewport=PHONE, base_url=url, service_workers="block")
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto("/")
    page.get_by_role("button", name=title, exact=True).click()
    for player in table["players"]:
        page.get_by_label("Player name").fill(player["name"])
        page.get_by_role("button", name="Add player").click()
    expect(page.get_by_label(f"{table['players'][-1]['name']} total", exact=True)).to_have_count(1)
    page.evaluate("scrollTo(0, 0)")
    thumb = Thumb(page)
    started = time.perf_counter()
    if game == "dig":
        (bowls_by_taps if view == "grid" else bowls_by_lists)(thumb, table["bowls"])
    if view == "grid":
        thumb.tap(page.get_by_role("button", name="Grid: every player"))
        expect(page.get_by_role("group", name="Number pad")).to_be_visible()
    thumb.now.seconds = time.perf_counter() - started
    setup, players = thumb.now, []
    for player in table["players"]:
        thumb.now = Effort()
        started = time.perf_counter()
        (grid_player if view == "grid" else sheets_player)(thumb, game, player)
        thumb.now.seconds = time.perf_counter() - started
        players.append(thumb.now)
    answer = calculator(url, game, table)
    for scored in answer["players"]:
        total = f"−{-scored['total']}" if scored["total"] < 0 else str(scored["total"])
        expect(page.get_by_label(f"{scored['name']} total", exact=True)).to_have_text(total)
    context.close()
    return setup, players


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--views", nargs="+", default=["sheets", "grid"],
                        choices=["sheets", "grid"])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder, \
            serve({"DATABASE_URL": f"sqlite:///{folder}/digsite.db"},
                  root=args.root.resolve()) as server, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for game in args.games:
            for view in args.views:
                try:
                    setup, players = enter(browser, server.url, game, view)
                except AssertionError as error:
                    print(f"{game} on the {view}: the totals shown are not the calculator's:"
                          f" {error}")
                    return 1
                rows.append((GAMES[game][0], view, setup, players))
        browser.close()
    print(f"{PHONE['width']}×{PHONE['height']} px, counts of the same table in each view; "
          f"a player's figures are the mean over the table's players")
    head = ("game", "view", "players", "taps", "keys", "touches", "swipes", "driven s", "thumb s",
            "table: touches", "swipes")
    print("{:<18}{:<7}{:>8}{:>6}{:>6}{:>8}{:>7}{:>9}{:>8}{:>15}{:>7}".format(*head))
    for title, view, setup, players in rows:
        n = len(players)

        def mean(attribute: str, players: list[Effort] = players) -> float:
            return sum(getattr(p, attribute) for p in players) / len(players)

        print(f"{title:<18}{view:<7}{n:>8}{mean('taps'):>6.1f}{mean('keys'):>6.1f}"
              f"{mean('taps') + mean('keys'):>8.1f}{mean('swipes'):>7.1f}{mean('seconds'):>9.2f}"
              f"{mean('thumb'):>8.1f}{setup.taps + setup.keys:>15}{setup.swipes:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

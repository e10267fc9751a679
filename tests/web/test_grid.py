"""The grid (issue "The phone scorer a table trusts"): players across, the game's counts down, the
totals live in the header row and a number pad that moves on to the next cell; Dinos entered as
each dinosaur's printed tiles, DIG's bowls tapped in order from the Doghouse. At 360 px (how it
fits at 390 too: test_grid_fit.py);
every total, place and winner shown is the calculator's own answer (POST
/api/v1/games/{game}/score) to the same table."""

import json
import re

import pytest
from playwright.sync_api import Locator, Page, expect

from .phone import BOWLS, field, run_axe, screenshot, start, tap_bowls, total, words_cut
from .test_trusted_totals import WIDTHS, amount, calculator, minus

GRID = "Grid: every player"
SHEETS = "One player at a time"
MONEY = "money tokens, ₩ value"
# The page's words for the box's ids, as the cells are labelled ("Ann incense burner").
WORDS = {"incense_burner": "incense burner", "gold_nugget": "gold card",
         "pink_diamond": "pink diamond", "tokens": MONEY}

# The end of a 5-player game on the standard board: a mission each (Closing Shop is declared),
# money below zero, the orange cards kept that score; 58 tiles, the most a game gives (the last
# tile of each site abandoned left play, and the two sites still dug keep two each).
FIVE = {"variant": "standard", "players": [
    {"name": "Ann", "tiles": {"gold": 4, "incense_burner": 1, "statue": 1, "knife": 1, "scroll": 2,
                              "crystal": 2, "ruby": 1, "diamond": 2, "stone": 0},
     "tokens": 6, "cards": {"gold_nugget": 1}, "mission": {"id": "gold_digger"}},
    {"name": "Bob", "tiles": {"gold": 3, "statue": 2, "scroll": 2, "crystal": 2, "ruby": 2,
                              "diamond": 1, "stone": 1},
     "tokens": 14, "cards": {"appraisal": 1}, "mission": {"id": "scholar"}},
    {"name": "Cy", "tiles": {"gold": 2, "incense_burner": 2, "knife": 1, "crystal": 2, "ruby": 2,
                             "diamond": 2, "stone": 1},
     "tokens": 10, "mission": {"id": "closing_shop", "achieved": True}},
    {"name": "Dee", "tiles": {"gold": 3, "incense_burner": 1, "statue": 1, "knife": 2, "scroll": 1,
                              "crystal": 1, "ruby": 1, "stone": 2},
     "tokens": -11, "cards": {"insurance": 1}, "mission": {"id": "bronze_age"}},
    {"name": "Eve", "tiles": {"gold": 1, "scroll": 2, "crystal": 1, "ruby": 1, "diamond": 2,
                              "stone": 0},
     "tokens": 2, "cards": {"pink_diamond": 1}, "mission": {"id": "crystal_clear"}},
]}


def pad(page: Page) -> Locator:
    return page.get_by_role("group", name="Number pad")


def press(page: Page, *keys: str) -> None:
    for key in keys:
        pad(page).get_by_role("button", name=key, exact=True).click()


def at(cell: Locator) -> bool:
    """Whether the pad writes to `cell`."""
    return cell.evaluate("(el) => el.closest('td').classList.contains('at')")


def waits(page: Page, cell: Locator, typed: str | None) -> None:
    """Whether the pad says that it waits on `cell`, typed `typed` so far, for another digit or
    Next: on its label, its Next key and the cell (None: waits on nothing)."""
    label = pad(page).locator(".at")
    next_key = pad(page).get_by_role("button", name="Next cell")
    td = cell.locator("xpath=ancestor::td")
    if typed is None:
        expect(label.locator(".typed")).to_have_count(0)
        expect(label).not_to_contain_text("another digit")
        expect(next_key).not_to_have_class(re.compile("waiting"))
        expect(td).not_to_have_class(re.compile("typing"))
    else:
        expect(label.locator(".typed")).to_have_text(f" {typed}")
        if typed.endswith("…"):  # one more digit would still be a count the cell holds
            expect(label).to_contain_text("another digit, or Next")
        else:
            expect(label).not_to_contain_text("another digit")
            expect(label).to_contain_text(f"{typed} Next")
        expect(next_key).to_have_class(re.compile("waiting"))
        expect(td).to_have_class(re.compile("typing"))
        assert cell.evaluate("(el) => getComputedStyle(el).borderTopStyle") == "dashed"


def grid_start(page: Page, game: str, *players: str, bowls: bool = True) -> None:
    """As phone.start, on the grid: DIG's bowls entered in the box's order unless `bowls` is
    False."""
    page.get_by_role("button", name=game, exact=True).click()
    for name in players:
        page.get_by_label("Player name").fill(name)
        page.get_by_role("button", name="Add player").click()
    if game == "DIG" and bowls:
        tap_bowls(page, BOWLS)
    page.get_by_role("button", name=GRID).click()
    for name in players:
        expect(page.get_by_role("columnheader", name=re.compile(f"^{name} "))).to_be_visible()


def count_on_pad(page: Page, label: str, n: int) -> None:
    """`n` into the cell labelled `label`: tapped first unless the pad is on it already."""
    cell = field(page, label)
    expect(cell.locator("xpath=ancestor::td")).to_have_count(1)  # the grid's cell, once drawn
    if not at(cell):
        cell.click()
    if n < 0:
        press(page, "Minus")
    press(page, *str(abs(n)))


def enter_dig_it_up(page: Page, table: dict) -> None:
    for player in table["players"]:
        name = player["name"]
        counts = {**player["tiles"], "tokens": player["tokens"], **player.get("cards", {})}
        for key, n in counts.items():
            if n:
                count_on_pad(page, f"{name} {WORDS.get(key, key)}", n)
        field(page, f"{name} mission").select_option(player["mission"]["id"])
        if player["mission"].get("achieved"):
            field(page, f"{name} mission achieved").check()


def grid_shows(page: Page, answer: dict, unit: str) -> None:
    """Every total, place and winner on the grid's header row and in the standings is `answer`'s."""
    ordinal = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th"}
    shared = len(answer["winners"]) > 1
    for player in answer["players"]:
        expect(total(page, player["name"])).to_have_text(minus(player["total"]))
        won = (f" · {'shared win' if shared else 'winner'}"
               if player["name"] in answer["winners"] else "")
        head = page.get_by_role("columnheader", name=re.compile(f"^{player['name']} "))
        expect(head.locator(".rank")).to_have_text(f"{ordinal[player['rank']]}{won}")
    expect(page.locator("thead th.won .who")).to_have_text(answer["winners"])
    ranked = sorted(answer["players"], key=lambda p: p["rank"])
    standings = page.get_by_role("region", name="Standings")
    expect(standings.locator("li .who")).to_have_text([p["name"] for p in ranked])
    expect(standings.locator("li .pts")).to_have_text(
        [amount(p["total"], unit) for p in ranked])
    expect(standings.locator("li.won .who")).to_have_text(answer["winners"])
    expect(page.get_by_role("button", name="Share result")).to_be_visible()


def grid_shows_not_yet(page: Page, players: list[str]) -> None:
    for name in players:
        expect(total(page, name)).to_have_text("–")
    expect(page.locator("thead th.won")).to_have_count(0)
    standings = page.get_by_role("region", name="Standings")
    expect(standings.get_by_text("Not worked out yet")).to_be_visible()
    expect(page.get_by_role("button", name="Share result")).to_be_hidden()


# --- Dig It Up: a table of five -------------------------------------------------------------------

@pytest.mark.parametrize("width", WIDTHS)
def test_a_5_player_dig_it_up_table_entered_on_the_grid_totals_as_the_calculator(open_phone, width):
    page = open_phone(width=width)
    names = [p["name"] for p in FIVE["players"]]
    grid_start(page, "Dig It Up", *names)
    expect(page.get_by_label("Variant")).to_have_value("standard")
    enter_dig_it_up(page, FIVE)
    answer = calculator(page, "dig-it-up", FIVE)
    assert len({p["total"] for p in answer["players"]}) == 5, answer  # a place each
    grid_shows(page, answer, "₩")
    expect(page.get_by_role("region", name="Standings").locator(".badge")).to_have_text(["Winner"])
    screenshot(page, f"grid-dig-it-up-{width}")

    # Each player's breakdown is the calculator's too.
    ann = answer["players"][0]["breakdown"]
    page.get_by_text("Ann: Breakdown").click()
    verdict = "achieved" if ann["mission"] else "not achieved"
    expect(page.locator("details", has_text="Ann: Breakdown").locator("dl")).to_contain_text(
        f"Mission: Gold Digger ({verdict}){ann['mission']}")

    # Reloaded, and on the per-player sheets: the same counts and the same totals.
    page.reload()
    expect(field(page, f"Dee {MONEY}")).to_have_value("-11")
    grid_shows(page, answer, "₩")
    page.get_by_role("button", name=SHEETS).click()
    for player in FIVE["players"]:
        for tile, n in player["tiles"].items():
            expect(field(page, f"{player['name']} {WORDS.get(tile, tile)}")).to_have_value(str(n))
        expect(field(page, f"{player['name']} mission")).to_have_value(player["mission"]["id"])
        expect(total(page, player["name"])).to_have_text(minus(
            next(p["total"] for p in answer["players"] if p["name"] == player["name"])))
    expect(field(page, "Cy mission achieved")).to_be_checked()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_pad_moves_on_once_a_count_can_take_no_more_digits(open_phone, width):
    page = open_phone(width=width)
    grid_start(page, "Dig It Up", "Ann", "Bob", "Cy", "Dee")
    gold = field(page, "Ann gold")
    gold.click()
    expect(pad(page).locator(".at")).to_have_text("Ann · gold")
    # read as one: the name drawn beside the count's word, not each at an edge of the pad
    gap = pad(page).locator(".at").evaluate("""(at) => {
      const drawn = (el) => { const r = document.createRange(); r.selectNodeContents(el);
                              return r.getBoundingClientRect(); };
      return drawn(at.querySelector('.what')).left - drawn(at.querySelector('.who')).right; }""")
    assert abs(gap) < 2, gap
    press(page, "1")  # the standard board's 14 gold: 1 may become 10 to 14
    expect(gold).to_have_value("1")
    assert at(gold)
    # ... and the pad says it waits there: "1" typed for gold, then the incense burners' "3",
    # made 13 gold, unseen.
    waits(page, gold, "= 1…")
    screenshot(page, f"grid-pad-waiting-{width}")
    press(page, "2")
    expect(gold).to_have_value("12")
    # Two digits wait for Next, though 12 takes no third: "1" then "0" meant for the next count
    # made gold 10 and moved on. No "another digit" said, for none would do.
    waits(page, gold, "= 12")
    press(page, "Next cell")
    assert at(field(page, "Ann incense burner"))
    waits(page, field(page, "Ann incense burner"), None)
    press(page, "3")  # 4 incense burners at most: 3 is complete
    expect(field(page, "Ann incense burner")).to_have_value("3")
    assert at(field(page, "Ann statue"))
    # Next pressed just after the pad moved on by itself is the move it made, not one more
    press(page, "Next cell")
    assert at(field(page, "Ann statue"))
    press(page, "Next cell")  # a second leaves the statues empty
    assert at(field(page, "Ann knife"))
    expect(page.locator("[aria-invalid=true]")).to_have_count(0)

    # A count past its limit is marked, and nothing is totalled until it is put right.
    field(page, "Ann crystal").click()
    press(page, "1", "1")  # the board holds 10 crystals
    expect(field(page, "Ann crystal")).to_have_attribute("aria-invalid", "true")
    expect(field(page, "Ann crystal")).to_have_accessible_description(re.compile("from 0 to 10"))
    expect(page.locator(".says").get_by_text("Enter a whole number from 0 to 10.")).to_be_visible()
    grid_shows_not_yet(page, ["Ann", "Bob", "Cy", "Dee"])
    press(page, "Delete a digit")
    expect(field(page, "Ann crystal")).to_have_value("1")
    expect(field(page, "Ann crystal")).not_to_have_attribute("aria-invalid", "true")

    # Money below zero: − first, then the digits; the pad stays on it, as any count of two
    # digits does (−150 is past the least money a player can hold: no "another digit" said).
    money = field(page, f"Bob {MONEY}")
    money.click()
    press(page, "Minus", "1", "5")
    expect(money).to_have_value("-15")
    assert at(money)
    waits(page, money, "= −15")
    press(page, "Next cell")
    waits(page, field(page, "Bob incense burner"), None)
    money.click()
    press(page, "Minus", "1", "5")
    press(page, "Minus")
    expect(money).to_have_value("15")

    # Across the table: Next goes to the next player's same count.
    field(page, "Ann stone").click()
    pad(page).get_by_role("button", name="Next goes across, to the next player").click()
    press(page, "2", "3", "0")  # 10 stones on the board: 2 and 3 are complete, and 0
    for name, n in (("Ann", "2"), ("Bob", "3"), ("Cy", "0")):
        expect(field(page, f"{name} stone")).to_have_value(n)
    assert at(field(page, "Dee stone"))
    table = {"variant": "standard", "players": [
        {"name": "Ann", "tiles": {"gold": 12, "incense_burner": 3, "crystal": 1, "stone": 2}},
        {"name": "Bob", "tiles": {"stone": 3}, "tokens": 15}, {"name": "Cy"}, {"name": "Dee"}]}
    # a mission each, judged from the counts (the box has one card of each)
    for player, mission in zip(table["players"], ("clean_hands", "rock_collector",
                                                  "gold_digger", "scholar"), strict=True):
        field(page, f"{player['name']} mission").select_option(mission)
        player["mission"] = {"id": mission}
    grid_shows(page, calculator(page, "dig-it-up", table), "₩")
    # The way Next goes is kept on the phone.
    page.reload()
    field(page, "Ann gold").click()
    press(page, "Next cell")
    assert at(field(page, "Bob gold"))


# --- DIG: the bowls tapped in order ---------------------------------------------------------------

# Whether each character of the element's text from `start` to `end` (as slice() takes them),
# leaving out what is there only for a screen reader, is drawn, not cut off by the element or by
# any part of it between (an ellipsis cuts what it hides).
DRAWN = """(el, [start, end]) => {
  const chars = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest(".vh")) continue;
    for (let i = 0; i < node.length; i++) chars.push([node, i]);
  }
  const some = chars.slice(start, end ?? chars.length);
  return some.length > 0 && some.every(([node, i]) => {
    const range = document.createRange();
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    const drawn = range.getBoundingClientRect();
    for (let box = node.parentElement; ; box = box.parentElement) {
      const edge = box.getBoundingClientRect();
      if (drawn.left < edge.left - 0.5 || drawn.right > edge.right + 0.5) return false;
      if (box === el) return true;
    }
  });
}"""


def test_a_count_tapped_again_is_typed_afresh(open_phone):
    """Ann's gold typed 1, her gold tapped again to put it right, and 3 typed read 13, a wrong
    total nothing marked: the cell kept the focus the pad's keys never take, so the tap that
    should start the count afresh was not heard."""
    page = open_phone()
    grid_start(page, "Dig It Up", "Ann", "Bob")
    gold = field(page, "Ann gold")
    gold.click()
    press(page, "1")
    waits(page, gold, "= 1…")
    gold.click()
    waits(page, gold, None)
    press(page, "3")
    expect(gold).to_have_value("3")
    money = field(page, f"Bob {MONEY}")
    money.click()
    press(page, "Minus", "1", "2")
    money.click()
    press(page, "7")
    expect(money).to_have_value("7")


def test_a_digit_then_next_fills_the_counts_one_after_another(open_phone):
    # A count no further digit could keep within its limit moves the pad on by itself; a player
    # who pressed Next after each count, as after "12", skipped a row each time: 5, Next, 1, Next,
    # 1, Next wrote gold 5, statue 1, scroll 1, with the incense burners and knives left empty.
    page = open_phone(width=320)
    grid_start(page, "Dig It Up", "Ann", "Bob", "Cy", "Dee")
    field(page, "Ann gold").click()
    press(page, "5", "Next cell", "1", "Next cell", "1", "Next cell", "2")
    for count, n in (("gold", "5"), ("incense burner", "1"), ("statue", "1"), ("knife", "2")):
        expect(field(page, f"Ann {count}")).to_have_value(n)
    assert at(field(page, "Ann scroll"))
    # Typed in full, a count that could take more waits for Next as before.
    field(page, "Ann gold").click()
    press(page, "1", "Next cell", "1", "Next cell")
    expect(field(page, "Ann gold")).to_have_value("1")
    expect(field(page, "Ann incense burner")).to_have_value("1")
    assert at(field(page, "Ann statue"))
    grid_shows(page, calculator(page, "dig-it-up", {"variant": "standard", "players": [
        {"name": "Ann", "tiles": {"gold": 1, "incense_burner": 1, "statue": 1, "knife": 2}},
        {"name": "Bob"}, {"name": "Cy"}, {"name": "Dee"}]}), "₩")


def test_counts_typed_one_after_another_without_next_are_never_run_together_unseen(open_phone):
    # Gold takes up to 14: "1" waits for another digit. Ann's column typed digit after digit as
    # DIG's and most of Dig It Up's counts move on by themselves (gold 1, incense burners 0,
    # statues 2, ...) made gold 10, moved on, and wrote every count after it a row down: 206 ₩
    # where the table holds 5, and nothing refused.
    page = open_phone()
    grid_start(page, "Dig It Up", "Ann", "Bob", "Cy", "Dee")
    gold = field(page, "Ann gold")
    gold.click()
    press(page, "1", "0")
    waits(page, gold, "= 10")  # still on gold, saying so
    press(page, "2", "0", "1", "1")
    expect(gold).to_have_attribute("aria-invalid", "true")  # 10201…: refused where it was typed
    assert at(gold)
    for count in ("incense burner", "statue", "knife", "scroll", "crystal"):
        expect(field(page, f"Ann {count}")).to_have_value("")  # nothing written a row down
    grid_shows_not_yet(page, ["Ann", "Bob", "Cy", "Dee"])
    # Put right, and typed as the pad asks, the column totals as the calculator does.
    field(page, "Ann gold").click()
    press(page, "1", "Next cell", "0", "2", "0", "1", "Next cell", "1")
    for count, n in (("gold", "1"), ("incense burner", "0"), ("statue", "2"), ("knife", "0"),
                     ("scroll", "1"), ("crystal", "1")):
        expect(field(page, f"Ann {count}")).to_have_value(n)
    grid_shows(page, calculator(page, "dig-it-up", {"variant": "standard", "players": [
        {"name": "Ann", "tiles": {"gold": 1, "statue": 2, "scroll": 1, "crystal": 1}},
        {"name": "Bob"}, {"name": "Cy"}, {"name": "Dee"}]}), "₩")


def test_delete_just_after_the_pad_moved_on_puts_right_the_count_just_typed(open_phone):
    # Green 3 typed by mistake moves the pad on to yellow; ⌫ then emptied yellow's 2 and the 1
    # meant for green went to yellow: green 3, yellow 1, and a total 10 points off.
    page = open_phone()
    grid_start(page, "DIG", "Jo", "Pat")
    for colour, n in (("green", 2), ("yellow", 2), ("purple", 0), ("blue", 1), ("red", 2)):
        count_on_pad(page, f"Jo {colour}", n)
    field(page, "Jo green").click()
    press(page, "3")
    assert at(field(page, "Jo yellow"))
    press(page, "Delete a digit")
    assert at(field(page, "Jo green"))
    expect(field(page, "Jo green")).to_have_value("")
    press(page, "1")
    for colour, n in (("green", "1"), ("yellow", "2"), ("purple", "0"), ("blue", "1")):
        expect(field(page, f"Jo {colour}")).to_have_value(n)
    assert at(field(page, "Jo yellow"))
    # ⌫ anywhere else deletes the digit of the count the pad is on, as ever (the first Next is
    # the move the pad made by itself).
    press(page, "Next cell", "Next cell", "Next cell", "Next cell", "Delete a digit")
    expect(field(page, "Jo red")).to_have_value("")
    expect(field(page, "Jo blue")).to_have_value("1")
    press(page, "2")
    grid_shows(page, calculator(page, "dig", {"bowls": BOWLS, "players": [
        {"name": "Jo", "dropped": {"green": 1, "yellow": 2, "blue": 1, "red": 2}},
        {"name": "Pat", "dropped": {}}]}), "points")


def test_what_the_table_refuses_is_said_on_the_pad_in_view(open_phone):
    # At 320 px with the pad open, a refusal was said above the grid and under it, both off
    # screen: the counts went red and the totals to "–", and nothing in view said why.
    page = open_phone(width=320)
    grid_start(page, "Dig It Up", "Ann", "Bob", "Cy", "Dee")
    say = pad(page).locator(".pad-say")
    expect(say).to_be_hidden()
    count_on_pad(page, "Ann gold", 9)
    count_on_pad(page, "Bob gold", 9)  # 18 where the standard board has 14
    problem = calculator(page, "dig-it-up", {"variant": "standard", "players": [
        {"name": "Ann", "tiles": {"gold": 9}}, {"name": "Bob", "tiles": {"gold": 9}},
        {"name": "Cy"}, {"name": "Dee"}]}, status=422)
    words = next(m[0] for key, m in problem["errors"].items() if key.startswith("players.0."))
    # a limit of the whole table, said as such: the pad has moved on to Bob's incense burners,
    # and it was led "Ann · gold", whose 9 were not the count at fault
    expect(say).to_have_text(words)
    assert words.startswith("Together the players hold 18 gold tiles")
    expect(say).to_be_in_viewport(ratio=1)
    screenshot(page, "grid-pad-says-320")
    # the grid's lines stay clear of the pad, however tall it grew
    assert page.evaluate("""() => parseFloat(getComputedStyle(document.documentElement)
        .getPropertyValue('--pad')) >= document.querySelector('.pad').offsetHeight""")
    # A count past its own limit: the cell the pad is on says it first.
    count_on_pad(page, "Cy crystal", 11)
    expect(say).to_have_text("Cy · crystal: Enter a whole number from 0 to 10.")
    press(page, "Delete a digit")
    expect(say).to_have_text(words)
    # on a count the limit is said of, it is that count's
    count_on_pad(page, "Bob gold", 9)
    field(page, "Bob gold").click()
    expect(say).to_have_text(f"Bob · gold: {words}")
    count_on_pad(page, "Bob gold", 5)
    expect(say).to_be_hidden()


def test_the_key_a_half_typed_count_waits_on_pulses_a_few_times_then_keeps_still(open_phone):
    """A phone laid down with a count half typed drew the pulse on every frame for as long as it
    lay there; it pulses for a few seconds, and the ring around Next stays."""
    page = open_phone(motion="no-preference")
    grid_start(page, "Dig It Up", "Ann", "Bob")
    gold = field(page, "Ann gold")
    gold.click()
    press(page, "1")
    waits(page, gold, "= 1…")
    next_key = pad(page).get_by_role("button", name="Next cell")
    ends = next_key.evaluate(
        "(el) => el.getAnimations().map((a) => a.effect.getComputedTiming().endTime)")
    assert len(ends) == 1 and ends[0] <= 8000, ends  # ms
    next_key.evaluate("(el) => el.getAnimations().forEach((a) => a.finish())")
    assert next_key.evaluate("(el) => el.getAnimations().length") == 0
    ring = next_key.evaluate("(el) => getComputedStyle(el).boxShadow")
    assert ring.count("px") >= 8 and "transparent" not in ring and "0, 0, 0, 0" not in ring, ring


def test_the_pad_names_the_count_it_writes_to_however_long_the_player_s_name(open_phone):
    """A name of the most letters a name may have is shortened on the pad, not the count."""
    page = open_phone(width=360)
    name = "Maximiliana Wolkenstein-Hohenberg Ortega"  # 40: the most a name may have
    grid_start(page, "Dig It Up", name, "Bob")
    field(page, f"{name} incense burner").click()
    where = pad(page).locator(".at")
    expect(where.locator(".vh")).to_have_text(name)  # what a screen reader hears: the name whole
    expect(where).to_contain_text(" · incense burner")
    assert where.evaluate(DRAWN, [-len(" · incense burner"), None])
    # The name gives way in its middle: its start is still there to tell the players apart.
    assert where.evaluate(DRAWN, [0, len("Maximili")])
    box = where.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360


@pytest.mark.parametrize("width", [320, 360])
def test_the_pad_names_a_short_name_whole_beside_a_long_count(open_phone, width):
    """Typing Ann's money tokens the pad read "A… · money tokens, ₩ value = 12…": a name of a
    few letters cut to one, so Anna's count and Anton's looked alike."""
    page = open_phone(width=width)
    grid_start(page, "Dig It Up", "Anna", "Anton", "Cy", "Di")
    for name in ("Anna", "Anton"):
        field(page, f"{name} {MONEY}").click()
        press(page, "1", "2")
        where = pad(page).locator(".at")
        expect(where).to_contain_text(" = 12…")
        shown = where.locator(".who").evaluate(
            "(who) => [...who.childNodes].filter((n) => !n.classList?.contains('vh'))"
            ".map((n) => n.textContent).join('')")
        assert shown == name or (len(shown) >= 5 and shown.startswith(name[:2])), shown
        press(page, "Next cell")


def test_each_player_s_mission_is_named_in_the_grid_however_narrow_its_column(open_phone):
    """Five players' columns at 360 px are too narrow for a mission's list to show more than its
    bonus, and four of the five missions below are worth 15 ₩: the name chosen is drawn, whole,
    under each list, so the table can check whose mission is which."""
    page = open_phone(width=360)
    names = [p["name"] for p in FIVE["players"]]
    grid_start(page, "Dig It Up", *names)
    chosen = {"Ann": ("jack_of_all_trades", "Jack of All Trades"),
              "Bob": ("closing_shop", "Closing Shop"), "Cy": ("gold_digger", "Gold Digger"),
              "Dee": ("bronze_age", "Bronze Age"), "Eve": ("scholar", "Scholar")}
    for name, (mission, _) in chosen.items():
        field(page, f"{name} mission").select_option(mission)
    for name, (_, words) in chosen.items():
        cell = field(page, f"{name} mission").locator("xpath=ancestor::td")
        named = cell.locator(".named")
        expect(named).to_have_text(words)
        expect(named).to_be_visible()
        assert named.evaluate(DRAWN, [0, None]), f"{name}'s mission is cut: {words}"
        # inside its own column, not over the next one
        box, column = named.bounding_box(), cell.bounding_box()
        assert column["x"] - 0.5 <= box["x"] and box["x"] + box["width"] <= \
            column["x"] + column["width"] + 0.5, (name, box, column)
    # A screen reader hears the mission once, from the list itself.
    expect(field(page, "Ann mission")).to_have_value("jack_of_all_trades")
    # None chosen reads "–", as the grid's other empty cells, not "No r" cut from "No mission"
    none = field(page, "Eve mission")
    none.select_option("")
    assert none.evaluate("""(list) => {
      const style = getComputedStyle(list);
      const pen = document.createElement('canvas').getContext('2d');
      pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = list.clientWidth - parseFloat(style.paddingLeft)
        - parseFloat(style.paddingRight) - 12;  // the list's arrow
      return pen.measureText(list.selectedOptions[0].text).width <= room; }""")
    expect(none.locator("option").first).to_have_accessible_name("No mission")
    assert page.locator(".grid .named").evaluate_all(
        "(els) => els.every((el) => el.getAttribute('aria-hidden') === 'true')")

    # Another mission chosen, or none: the name follows at once, and survives a reload.
    field(page, "Ann mission").select_option("scholar")
    ann = field(page, "Ann mission").locator("xpath=ancestor::td").locator(".named")
    expect(ann).to_have_text("Scholar")
    page.reload()
    expect(field(page, "Cy mission").locator("xpath=ancestor::td").locator(".named")) \
        .to_have_text("Gold Digger")
    field(page, "Cy mission").select_option("")
    expect(field(page, "Cy mission").locator("xpath=ancestor::td").locator(".named")) \
        .to_have_text("")


@pytest.mark.parametrize("width", WIDTHS)
def test_dig_bowls_are_tapped_in_order_from_the_doghouse(open_phone, width):
    page = open_phone(width=width)
    grid_start(page, "DIG", "Ann", "Bob", "Cy", bowls=False)
    for colour in ("purple", "red", "green"):
        page.get_by_role("button", name=colour, exact=True).click()
    expect(page.get_by_text("Now tap bowl 4:")).to_be_visible()
    # A mistake: tapping the 2nd bowl again takes it back, with the bowls after it.
    page.get_by_role("button", name="red, 2nd from the Doghouse").click()
    expect(page.get_by_text("Now tap bowl 2:")).to_be_visible()
    for colour in ("red", "green", "blue"):
        page.get_by_role("button", name=colour, exact=True).click()
    order = ["purple", "red", "green", "blue", "yellow"]  # the last one left is the last bowl
    for place, colour in enumerate(order, start=1):
        expect(page.get_by_label(f"Bowl {place}")).to_have_value(colour)
        nth = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th"}[place]
        expect(page.get_by_role("button", name=f"{colour}, {nth} from the Doghouse")) \
            .to_be_visible()
    # The grid asks bowl by bowl, nearest the Doghouse first, each with what a bone is worth.
    expect(page.get_by_role("rowheader")).to_have_text(
        [f"{colour}{points} pt" for colour, points in zip(order, [5, 4, 3, 2, 1], strict=True)],
        ignore_case=True)

    # DIG has 4 bones a colour: every digit is a whole count, and the pad moves on at once.
    field(page, "Ann purple").click()
    press(page, "1", "2", "0", "1", "2", "3")
    assert at(field(page, "Bob red"))
    dropped = {"Ann": dict(zip(order, [1, 2, 0, 1, 2], strict=True)), "Bob": {"purple": 3}}
    answer = calculator(page, "dig", {"bowls": order, "players": [
        {"name": name, "dropped": dropped.get(name, {})} for name in ("Ann", "Bob", "Cy")]})
    grid_shows(page, answer, "points")
    screenshot(page, f"grid-dig-{width}")

    # Bowls chosen again, from a list this time: the totals follow at once.
    page.get_by_label("Bowl 1").select_option("yellow")
    order = ["yellow", "red", "green", "blue", "purple"]
    answer = calculator(page, "dig", {"bowls": order, "players": [
        {"name": name, "dropped": dropped.get(name, {})} for name in ("Ann", "Bob", "Cy")]})
    grid_shows(page, answer, "points")
    expect(page.get_by_role("rowheader").first).to_have_text("yellow5 pt", ignore_case=True)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_refused_dig_table_is_marked_on_the_grid_and_nothing_is_totalled(open_phone, width):
    page = open_phone(width=width)
    grid_start(page, "DIG", "Ann", "Bob")
    count_on_pad(page, "Ann green", 3)
    count_on_pad(page, "Bob green", 3)
    refused = calculator(page, "dig", {"bowls": ["green", "yellow", "purple", "blue", "red"],
                                       "players": [{"name": "Ann", "dropped": {"green": 3}},
                                                   {"name": "Bob", "dropped": {"green": 3}}]},
                         status=422)
    for key in ("players.0.dropped.green", "players.1.dropped.green"):
        name = ["Ann", "Bob"][int(key.split(".")[1])]
        cell = field(page, f"{name} green")
        expect(cell).to_have_attribute("aria-invalid", "true")
        expect(cell).to_have_accessible_description(re.compile(re.escape(refused["errors"][key][0])))
    grid_shows_not_yet(page, ["Ann", "Bob"])
    screenshot(page, f"grid-dig-refused-{width}")
    count_on_pad(page, "Bob green", 1)
    expect(page.locator("[aria-invalid=true]")).to_have_count(0)
    grid_shows(page, calculator(page, "dig", {
        "bowls": ["green", "yellow", "purple", "blue", "red"],
        "players": [{"name": "Ann", "dropped": {"green": 3}},
                    {"name": "Bob", "dropped": {"green": 1}}]}), "points")


def test_a_count_typed_as_no_whole_number_is_refused_on_the_grid_and_the_sheets(open_phone):
    # "3.", "+3" and "0x3" typed into a cell counted 3 bones, where the player's sheet showed the
    # field empty (a number field cannot show such text): pressing + there made it 1. On the
    # sheets "1e1" counted 10.
    page = open_phone()
    grid_start(page, "DIG", "Ann", "Bob")
    cell = field(page, "Ann green")
    for typed in ("3.", "+3", "0x3", "1e1", "３"):
        cell.fill(typed)
        expect(cell).to_have_attribute("aria-invalid", "true")
        expect(cell).to_have_accessible_description(re.compile("whole number"))
        grid_shows_not_yet(page, ["Ann", "Bob"])
    cell.fill("3")
    expect(page.locator("[aria-invalid=true]")).to_have_count(0)
    expect(total(page, "Ann")).to_have_text("15")
    page.get_by_role("button", name="One player at a time").click()
    sheet = field(page, "Ann green")
    sheet.fill("1e1")
    expect(sheet).to_have_attribute("aria-invalid", "true")
    expect(total(page, "Ann")).to_have_text("–")
    sheet.fill("2")
    expect(total(page, "Ann")).to_have_text("10")


# --- Digging for Dinos: the printed tiles ---------------------------------------------------------

def tile(page: Page, dinosaur: str, position: int) -> Locator:
    return pad(page).get_by_role("button", name=re.compile(rf"^{dinosaur} {position} \("))


@pytest.mark.parametrize("width", WIDTHS)
def test_dinos_tiles_are_entered_as_printed_and_total_as_the_calculator(open_phone, width):
    page = open_phone(width=width)
    grid_start(page, "Digging for Dinos", "Matteo", "Emmy", "Luca", "Otto")
    page.get_by_role("button", name="Matteo Stegosaurus").click()
    expect(pad(page).locator(".at")).to_have_text("Matteo · Stegosaurus")
    # Each tile as printed: its position, its own value and the set's (Stegosaurus 3 is worth 3).
    expect(tile(page, "Stegosaurus", 3)).to_contain_text("3 | 17")
    expect(tile(page, "Stegosaurus", 1)).to_contain_text("2 | 17")
    for position in (1, 2, 3, 4):
        tile(page, "Stegosaurus", position).click()
    expect(total(page, "Matteo")).to_have_text("9")  # the rulebook's Matteo: 4 of 5 tiles
    tile(page, "Stegosaurus", 5).click()
    expect(total(page, "Matteo")).to_have_text("17")  # all five
    expect(page.get_by_role("button", name="Matteo Stegosaurus")).to_contain_text("5✓")
    screenshot(page, f"grid-dinos-{width}")

    # One of each: a whole set in one tap; a tile from each of the box's 3 eras at the most.
    press(page, "Next cell")  # down Matteo's dinosaurs
    assert at(page.get_by_role("button", name="Matteo Triceratops"))
    page.get_by_role("button", name="Matteo Tyrannosaurus").click()
    press(page, "One of each")
    for _ in range(2):
        tile(page, "Tyrannosaurus", 6).click()
    expect(tile(page, "Tyrannosaurus", 6)).to_have_accessible_name(re.compile("3 held$"))
    # No fourth era: a tap too many (a double tap) takes nothing away; it emptied the tile, and
    # Matteo's 60 points of two whole sets went with it.
    full = tile(page, "Tyrannosaurus", 6)
    expect(full).to_have_attribute("aria-disabled", "true")  # said full, and tapped all the same
    full.click(force=True)
    expect(tile(page, "Tyrannosaurus", 6)).to_have_accessible_name(re.compile("3 held$"))
    # One of each adds one to every position that can take one: with one position held from
    # every era it was off for the whole dinosaur, and the five others were tapped one by one.
    press(page, "One of each")
    expect(tile(page, "Tyrannosaurus", 1)).to_have_accessible_name(re.compile("2 held$"))
    expect(tile(page, "Tyrannosaurus", 6)).to_have_accessible_name(re.compile("3 held$"))
    press(page, "Undo the last tap")  # one tap, taken back as one
    expect(tile(page, "Tyrannosaurus", 1)).to_have_accessible_name(re.compile("1 held$"))
    # Undo takes the last tap back, one at a time; Clear is taken back as a whole.
    press(page, "Undo the last tap")
    expect(tile(page, "Tyrannosaurus", 6)).to_have_accessible_name(re.compile("2 held$"))
    press(page, "Clear")
    expect(tile(page, "Tyrannosaurus", 1)).to_have_accessible_name(re.compile("0 held$"))
    press(page, "Undo the last tap")
    expect(tile(page, "Tyrannosaurus", 1)).to_have_accessible_name(re.compile("1 held$"))
    expect(tile(page, "Tyrannosaurus", 6)).to_have_accessible_name(re.compile("2 held$"))
    page.get_by_role("button", name="Emmy Brontosaurus").click()
    press(page, "One of each")
    page.get_by_role("button", name="Luca Velociraptor").click()
    tile(page, "Velociraptor", 1).click()
    table = {"players": [
        {"name": "Matteo", "tiles": {"stegosaurus": [1, 2, 3, 4, 5],
                                     "tyrannosaurus": [1, 2, 3, 4, 5, 6, 6]}},
        {"name": "Emmy", "tiles": {"brontosaurus": [1, 2, 3, 4, 5, 6, 7, 8]}},
        {"name": "Luca", "tiles": {"velociraptor": [1]}}, {"name": "Otto", "tiles": {}}]}
    grid_shows(page, calculator(page, "digging-for-dinos", table), "points")

    # The per-player sheet holds the same tiles.
    page.get_by_role("button", name=SHEETS).click()
    expect(field(page, "Matteo tyrannosaurus 6")).to_have_value("2")
    expect(field(page, "Emmy brontosaurus 8")).to_have_value("1")
    expect(total(page, "Matteo")).to_have_text(minus(
        calculator(page, "digging-for-dinos", table)["players"][0]["total"]))


def test_a_dinos_tile_held_by_too_many_players_marks_its_dinosaur(open_phone):
    page = open_phone()
    grid_start(page, "Digging for Dinos", "Ann", "Bob", "Cy")
    page.get_by_role("button", name="Ann Pterodactyl").click()
    for _ in range(2):
        tile(page, "Pterodactyl", 2).click()
    # The box holds one of each tile an era (RULINGS, 3 eras): on Bob's pad, Ann's two are
    # drawn and said, where his pad offered all three as free as his own.
    page.get_by_role("button", name="Bob Pterodactyl").click()
    expect(tile(page, "Pterodactyl", 2)).to_have_accessible_name(
        re.compile("0 held, 2 held by the other players$"))
    expect(tile(page, "Pterodactyl", 2).locator(".eras")).to_have_text("××○")
    expect(tile(page, "Pterodactyl", 1)).to_have_accessible_name(re.compile("0 held$"))
    tile(page, "Pterodactyl", 2).click()
    expect(tile(page, "Pterodactyl", 2).locator(".eras")).to_have_text("●××")
    expect(tile(page, "Pterodactyl", 2)).to_have_class(re.compile(r"\btaken\b"))
    page.get_by_role("button", name="Cy Pterodactyl").click()
    expect(tile(page, "Pterodactyl", 2)).to_have_accessible_name(
        re.compile("0 held, 3 held by the other players$"))
    expect(tile(page, "Pterodactyl", 2).locator(".eras")).to_have_text("×××")
    # A tap is still taken: the counts entered before may be the wrong ones; the dinosaur is
    # marked as held too often, as below; the pad draws every tile the table holds, four where
    # the box has three.
    page.get_by_role("button", name="Bob Pterodactyl").click()
    tile(page, "Pterodactyl", 2).click()
    expect(tile(page, "Pterodactyl", 2).locator(".eras")).to_have_text("●●××")
    expect(tile(page, "Pterodactyl", 2)).to_have_class(re.compile(r"\bover\b"))
    expect(tile(page, "Pterodactyl", 1)).not_to_have_class(re.compile(r"\bover\b"))
    problem = calculator(page, "digging-for-dinos", {"players": [
        {"name": "Ann", "tiles": {"pterodactyl": [2, 2]}},
        {"name": "Bob", "tiles": {"pterodactyl": [2, 2]}}, {"name": "Cy", "tiles": {}}]},
        status=422)
    message = next(m[0] for key, m in problem["errors"].items() if key.startswith("players.0."))
    for name in ("Ann", "Bob"):
        cell = page.get_by_role("button", name=f"{name} Pterodactyl")
        expect(cell).to_have_attribute("aria-invalid", "true")
        expect(cell).to_have_accessible_description(re.compile(re.escape(message)))
    # Ann's, the cell the pad is not on, is marked to be seen as a refused count is: it was
    # marked for screen readers alone
    ann = page.get_by_role("button", name="Ann Pterodactyl")
    assert ann.evaluate("""(cell) => {
      const probe = document.createElement('i');
      probe.style.color = 'var(--err)';
      document.body.append(probe);
      const err = getComputedStyle(probe).color;
      probe.remove();
      const drawn = getComputedStyle(cell);
      return drawn.borderTopColor === err && parseFloat(drawn.borderTopWidth) >= 2; }""")
    grid_shows_not_yet(page, ["Ann", "Bob", "Cy"])
    press(page, "Clear")  # Bob's taken off
    expect(page.locator("[aria-invalid=true]")).to_have_count(0)
    grid_shows(page, calculator(page, "digging-for-dinos", {"players": [
        {"name": "Ann", "tiles": {"pterodactyl": [2, 2]}}, {"name": "Bob", "tiles": {}},
        {"name": "Cy", "tiles": {}}]}), "points")


def test_a_dinos_tile_too_many_is_taken_off_on_the_pad_and_said_there(open_phone):
    # The table's refusal was said under the grid, off screen at 320 px while the pad is open,
    # and a single tile could not be taken off: Clear took the whole dinosaur, Undo only the taps
    # since the cell was chosen.
    page = open_phone(width=320)
    grid_start(page, "Digging for Dinos", "Ann", "Bob", "Cy")
    page.get_by_role("button", name="Ann Velociraptor").click()
    for _ in range(2):
        tile(page, "Velociraptor", 1).click()
    page.get_by_role("button", name="Bob Velociraptor").click()
    for _ in range(2):
        tile(page, "Velociraptor", 1).click()
    # Four tiles where the box has three: said on the pad, in view above the keys.
    over = pad(page).locator(".pad-say")
    expect(over).to_have_text("Tile 1: more at the table than the box has. −1 takes one off.")
    expect(over).to_be_in_viewport(ratio=1)
    expect(pad(page).locator(".at")).to_have_text("Bob · Velociraptor")
    expect(tile(page, "Velociraptor", 1)).to_have_accessible_name(
        re.compile("2 held, 2 held by the other players, more than the box holds$"))
    off = pad(page).get_by_role("button", name="−1, take one tile off")
    expect(off).to_have_attribute("aria-pressed", "false")
    off.click()
    expect(off).to_have_attribute("aria-pressed", "true")
    # Only a position with a tile held can give one back.
    expect(tile(page, "Velociraptor", 2)).to_have_attribute("aria-disabled", "true")
    expect(tile(page, "Velociraptor", 1)).to_have_attribute("aria-disabled", "false")
    tile(page, "Velociraptor", 1).click()
    expect(tile(page, "Velociraptor", 1).locator(".eras")).to_have_text("●××")
    expect(off).to_have_attribute("aria-pressed", "false")  # one tile a press, as − is one sign
    expect(over).to_be_hidden()
    expect(page.locator("[aria-invalid=true]")).to_have_count(0)
    press(page, "Undo the last tap")
    expect(tile(page, "Velociraptor", 1).locator(".eras")).to_have_text("●●××")
    off.click()
    tile(page, "Velociraptor", 1).click()
    # A position held from every era gives one back too.
    page.get_by_role("button", name="Cy Tyrannosaurus").click()
    for _ in range(3):
        tile(page, "Tyrannosaurus", 6).click()
    expect(tile(page, "Tyrannosaurus", 6)).to_have_attribute("aria-disabled", "true")
    off.click()
    tile(page, "Tyrannosaurus", 6).click()
    expect(tile(page, "Tyrannosaurus", 6).locator(".eras")).to_have_text("●●○")
    # Choosing another cell leaves the key as it was, not pressed.
    off.click()
    page.get_by_role("button", name="Ann Velociraptor").click()
    expect(off).to_have_attribute("aria-pressed", "false")
    tile(page, "Velociraptor", 2).click()  # a tap adds again
    expect(tile(page, "Velociraptor", 2).locator(".eras")).to_have_text("●○○")
    grid_shows(page, calculator(page, "digging-for-dinos", {"players": [
        {"name": "Ann", "tiles": {"velociraptor": [1, 1, 2]}},
        {"name": "Bob", "tiles": {"velociraptor": [1]}},
        {"name": "Cy", "tiles": {"tyrannosaurus": [6, 6]}}]}),
        "points")
    # Every key of the pad still takes a thumb at 320 px, and the pad fits the phone.
    for key in pad(page).get_by_role("button").all():
        box = key.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, (key.text_content(), box)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


# --- a phone at the table -------------------------------------------------------------------------

@pytest.mark.parametrize("width", [320, 360])  # 320: the narrowest phones in use
def test_every_grid_target_is_big_enough_for_a_thumb_with_5_players(open_phone, width):
    page = open_phone(width=width)
    grid_start(page, "Dig It Up", *[p["name"] for p in FIVE["players"]])
    field(page, "Cy mission").select_option("closing_shop")
    field(page, "Ann gold").click()
    # Every target drawn, measured at once (one by one, a hundred round trips took 10 s).
    small = page.evaluate("""() => {
      const drawn = [...document.querySelectorAll(
        ".grid input, .grid select, .grid button, .pad button")].filter((el) => {
          const box = el.getBoundingClientRect();
          return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden";
        });
      return [drawn.length, drawn.map((el) => [el.outerHTML, el.getBoundingClientRect().toJSON()])
        .filter(([, box]) => box.width < 44 || box.height < 44)];
    }""")
    assert small[0] > 5 * 15 and small[1] == [], small
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], width
    # The counts' names give way as a whole word at a time ("Insurance", not "Insuranc/e").
    assert page.evaluate(WORDS_CUT, ".grid tbody th .w") == []


# The words of the elements `selector` finds that are drawn across two lines.
WORDS_CUT = """(selector) => [...document.querySelectorAll(selector)].flatMap((el) => {
  const text = el.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE) return [];
  return [...text.data.matchAll(/\\S+/g)].filter((word) => {
    const range = document.createRange();
    range.setStart(text, word.index);
    range.setEnd(text, word.index + word[0].length);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0)
      .map((r) => Math.round(r.top))).size > 1;
  }).map((word) => word[0]);
})"""


@pytest.mark.parametrize(("width", "text"), [(320, 100), (360, 100), (320, 130)])
def test_no_count_s_name_is_broken_within_a_word_on_a_narrow_phone(open_phone, width, text):
    # At 320 px the grid read "Tyrannosaur/us" and "Stegosaur/us" (at 360 too), and Dig It Up's
    # per-player sheet "Insuranc/e"; with the phone's text at 130%, "Apprais/al", "Diamo/nd",
    # "gree/n" too.
    page = open_phone(width=width)
    if text != 100:  # the phone's own text size, as a page's root font size
        page.add_style_tag(content=f"html {{ font-size: {text}% }}")
    for game in ("Dig It Up", "DIG", "Digging for Dinos"):
        start(page, game, "Ann", "Bob", "Cy", "Dee", bowls=False)
        for view in (GRID, SHEETS):
            page.get_by_role("button", name=view).click()
            expect(page.get_by_role("button", name=view)).to_have_attribute("aria-pressed", "true")
            names = "main th .w, main label .w, main .row .w, main .tap .w"
            assert page.evaluate(WORDS_CUT, names) == [], (game, view)
        page.get_by_role("button", name="New tally").click()
        page.get_by_role("dialog").get_by_role("button", name="Start new tally").click()


def test_a_dinos_pad_and_the_bowls_are_big_enough_for_a_thumb(open_phone):
    page = open_phone(width=360)
    grid_start(page, "Digging for Dinos", "Ann", "Bob", "Cy", "Dee")
    page.get_by_role("button", name="Dee Brontosaurus").click()
    keys = pad(page).get_by_role("button")
    assert keys.count() == 8 + 6
    for key in keys.all():
        box = key.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
    page.get_by_role("button", name="New tally").click()
    page.get_by_role("dialog").get_by_role("button", name="Start new tally").click()
    grid_start(page, "DIG", "Ann", "Bob", "Cy", "Dee", bowls=False)
    for colour in ("green", "yellow", "purple", "blue", "red"):
        box = page.get_by_role("button", name=colour, exact=True).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box


def test_a_name_typed_while_the_grid_is_on_its_way_stays_in_its_field(open_phone):
    # A player taps the grid, then types the next name before the grid is drawn: the screen is
    # drawn again under their thumb, and the name they were typing stays, their cursor in it.
    page = open_phone()
    start(page, "DIG", "Ann")
    held = []
    page.route("**/grid.js", lambda route: held.append(route))  # answered when the test says
    page.get_by_role("button", name=GRID).click()
    name = page.get_by_label("Player name")
    name.click()
    page.keyboard.type("Bo")
    while not held:
        page.wait_for_timeout(20)
    held[0].continue_()
    expect(page.get_by_role("columnheader", name=re.compile("^Ann "))).to_be_visible()
    expect(name).to_have_value("Bo")
    expect(name).to_be_focused()
    page.keyboard.type("b")
    page.keyboard.press("Enter")
    expect(page.get_by_role("columnheader", name=re.compile("^Bob "))).to_be_visible()
    expect(name).to_have_value("")


@pytest.mark.service_worker
def test_the_grid_is_kept_on_the_phone_and_works_with_no_network(open_phone):
    page = open_phone(allow_network_errors=True)
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # under the service worker, as a phone is after its first visit
    grid_start(page, "DIG", "Ann", "Bob")
    page.context.set_offline(True)
    page.reload()  # the grid's own file comes from the phone
    count_on_pad(page, "Ann green", 2)
    count_on_pad(page, "Bob red", 1)
    expect(total(page, "Ann")).to_have_text("10")
    expect(total(page, "Bob")).to_have_text("1")
    page.context.set_offline(False)
    grid_shows(page, calculator(page, "dig", {
        "bowls": ["green", "yellow", "purple", "blue", "red"],
        "players": [{"name": "Ann", "dropped": {"green": 2}},
                    {"name": "Bob", "dropped": {"red": 1}}]}), "points")


def test_the_service_worker_keeps_the_grid(client):
    source = client.get("/sw.js").get_data(as_text=True)
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", source).group(1))
    assert "/web/grid.js" in shell


def test_a_korean_phone_counts_on_the_grid_in_korean(open_phone):
    page = open_phone(locale="ko-KR")
    page.get_by_role("button", name="DIG", exact=True).click()
    for name in ("지민", "서연"):
        page.get_by_label("플레이어 이름").fill(name)
        page.get_by_role("button", name="플레이어 추가").click()
    page.get_by_role("button", name="표: 모든 플레이어").click()
    for colour in ("보라", "초록", "노랑", "파랑"):  # the last bowl is the one left
        page.get_by_role("button", name=colour, exact=True).click()
    field(page, "지민 보라").click()
    korean_pad = page.get_by_role("group", name="숫자 패드")
    korean_pad.get_by_role("button", name="2", exact=True).click()
    expect(page.get_by_label("지민 합계", exact=True)).to_have_text("10")
    expect(korean_pad.get_by_role("button", name="다음 칸", exact=True)).to_be_visible()
    assert run_axe(page) == []
    english = page.evaluate("""import('/web/lang/en.js').then(({ default: en }) =>
        Object.values(en).filter((text) => typeof text === 'string' && !text.includes('{')))""")
    shown = page.locator("body").inner_text()
    assert not [text for text in english if text in shown]


def test_a_korean_word_of_the_scorer_is_never_cut_on_the_narrowest_phone(open_phone):
    # Korean breaks between words, as English does: at 320 px the scorer read "점수 계산/기",
    # "새 기/록", "플레이/어", the pad's "되돌/리기" and "지우/기" (the play page already kept
    # its words whole).
    page = open_phone(locale="ko-KR", width=320)
    page.get_by_role("button", name="Digging for Dinos", exact=True).click()
    for name in ("Ann", "Bob", "Cy", "Dee"):
        page.get_by_label("플레이어 이름").fill(name)
        page.get_by_role("button", name="플레이어 추가").click()
    page.get_by_role("button", name="표: 모든 플레이어").click()
    page.get_by_role("button", name=re.compile("^Ann ")).first.click()
    expect(page.locator(".pad .tiles")).to_be_visible()
    assert words_cut(page, "body", r"[\uac00-\ud7a3]+") == []  # Hangul
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violations_on_the_grid(open_phone, scheme):
    page = open_phone(color_scheme=scheme)
    found = {}
    grid_start(page, "Dig It Up", "Ann", "Bob", "Cy")
    count_on_pad(page, "Ann gold", 4)
    field(page, "Bob mission").select_option("closing_shop")
    expect(field(page, "Bob mission achieved")).to_be_visible()
    found["dig-it-up"] = run_axe(page)
    screenshot(page, f"axe-grid-dig-it-up-{scheme}")
    page.get_by_role("button", name="New tally").click()
    page.get_by_role("dialog").get_by_role("button", name="Start new tally").click()
    grid_start(page, "DIG", "Ann", "Bob")
    count_on_pad(page, "Ann green", 3)
    count_on_pad(page, "Bob green", 3)
    expect(field(page, "Bob green")).to_have_attribute("aria-invalid", "true")
    found["dig-refused"] = run_axe(page)
    page.get_by_role("button", name="New tally").click()
    page.get_by_role("dialog").get_by_role("button", name="Start new tally").click()
    grid_start(page, "Digging for Dinos", "Matteo", "Emmy")
    page.get_by_role("button", name="Matteo Triceratops").click()
    press(page, "One of each")
    found["dinos"] = run_axe(page)
    screenshot(page, f"axe-grid-dinos-{scheme}")
    # Four of a tile at the table where the box has three: said on the pad, −1 pressed.
    tile(page, "Triceratops", 1).click()
    page.get_by_role("button", name="Emmy Triceratops").click()
    for _ in range(2):
        tile(page, "Triceratops", 1).click()
    press(page, "−1, take one tile off")
    expect(pad(page).locator(".pad-say")).to_be_visible()
    found["dinos-too-many"] = run_axe(page)
    screenshot(page, f"axe-grid-dinos-too-many-{scheme}")
    assert not any(found.values()), json.dumps(found, indent=1)

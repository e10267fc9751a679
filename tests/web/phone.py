"""What the browser tests of the phone page share: where Chromium and axe-core are, the phone's
size, a server of their own, where screenshots go (test-artifacts/, not committed), and the page
used as a player would: by the labels on the screen."""

import json
import re
import sqlite3
import urllib.error
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.server import Server, call, serve

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
# Each new context (a fresh phone) opens a browser window whose address bar loads its pop-ups,
# WebUI pages each in a renderer of its own, though a headless browser never shows them: they
# took half of the CPU a fresh phone cost (0.9 s of it, with a page loaded). Chromium reads one
# --disable-features, the last given, so these are added to the list Playwright gives it
# (tests/web/test_browser.py checks that every feature it turns off stays off).
# Chromium also starts a spare renderer after each navigation, for the next one in the same
# profile: every test's phone is a profile of its own, which never uses the last one's, so each
# spare was started for nothing (an eighth of a fresh phone's CPU).
UNSHOWN_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "SpareRendererForSitePerProcess"]
PLAYWRIGHT_DISABLED_FEATURES = [
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
    "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion"]
BASE_CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                      "--no-first-run", "--disable-background-networking",
                      "--disable-component-update", "--disable-sync"]
CHROMIUM_ARGS = [*BASE_CHROMIUM_ARGS,
                 "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + UNSHOWN_FEATURES)]
PHONE = {"width": 390, "height": 844}
ARTIFACTS = ROOT / "test-artifacts" / "web"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def start_server(tmp_path_factory: pytest.TempPathFactory):
    """gunicorn serving the app with a SQLite file of its own."""
    database = tmp_path_factory.mktemp("web") / "digsite.db"
    return serve({"DATABASE_URL": f"sqlite:///{database}"})


def screenshot(page: Page, name: str, full_page: bool = False) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"{name}.png", full_page=full_page)


# The rulebooks' scoring examples, as the labels on the page name each count.
JOSEPH = {"gold": 3, "incense burner": 1, "statue": 2, "knife": 1, "scroll": 1, "crystal": 1,
          "ruby": 1, "stone": 3, "money tokens, ₩ value": 8, "pink diamond": 1}
ANN = {"green": 2, "yellow": 1, "purple": 3, "blue": 2, "red": 2}
BOWLS = ["green", "yellow", "purple", "blue", "red"]


def field(page: Page, label: str) -> Locator:
    return page.get_by_label(label, exact=True)


def total(page: Page, player: str) -> Locator:
    return page.get_by_label(f"{player} total", exact=True)


def start(page: Page, game: str, *players: str, bowls: bool = True) -> None:
    """A new tally of `game` with `players`; DIG's with its bowls' order entered as the box
    prints it (tapped from the Doghouse out), unless `bowls` is False: no total stands before
    the table's order is entered."""
    page.get_by_role("button", name=game, exact=True).click()
    for name in players:
        page.get_by_label("Player name").fill(name)
        page.get_by_role("button", name="Add player").click()
    for name in players:
        expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()
    if game == "DIG" and bowls:
        tap_bowls(page, BOWLS)


def tap_bowls(page: Page, order: list[str]) -> None:
    """Taps DIG's bowls from the Doghouse out (the last is the one left), in any language. Each
    tap draws the sheets again: the next waits until it is drawn, so that no tap lands on what a
    redraw put under it (a count's + button, say)."""
    for colour in order[:-1]:
        page.locator(f"#tap-{colour}").click()
        expect(page.locator(f"#tap-{colour}")).to_have_class(re.compile(r"\bset\b"))
    expect(page.locator(f"#tap-{order[-1]}")).to_have_class(re.compile(r"\bset\b"))


def enter(page: Page, player: str, counts: dict[str, int]) -> None:
    for item, n in counts.items():
        field(page, f"{player} {item}").fill(str(n))


def tally_joseph(page: Page) -> None:
    """Joseph's 50 ₩: his Jack of All Trades is judged from his counts, not ticked."""
    start(page, "Dig It Up", "Joseph")
    enter(page, "Joseph", JOSEPH)
    field(page, "Joseph mission").select_option(label="Jack of All Trades (20 ₩)")
    expect(page.get_by_text("✓ Achieved with these counts.")).to_be_visible()


def tally_ann(page: Page) -> None:
    start(page, "DIG", "Ann")
    for place, colour in enumerate(BOWLS, start=1):
        page.get_by_label(f"Bowl {place}").select_option(colour)
    enter(page, "Ann", ANN)


def new_tally(page: Page) -> None:
    page.get_by_role("button", name="New tally").click()
    page.get_by_role("dialog").get_by_role("button", name="Start new tally").click()
    expect(page.get_by_role("heading", name="Choose a game")).to_be_visible()


def run_axe(page: Page) -> list[dict]:
    """What axe-core finds serious or critical on the page as it stands."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [{"id": v["id"], "impact": v["impact"], "nodes": [n["html"] for n in v["nodes"]]}
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


def words_cut(page: Page, root: str, word: str = r"[^\s/·,]+") -> list[str]:
    """The words (matches of the JavaScript pattern `word`) of the text under `root` that are
    drawn on more than one line, leaving out what only a screen reader reads."""
    return page.evaluate("""([root, word]) => {
      const cut = [];
      const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
      for (let node; (node = walker.nextNode());) {
        const parent = node.parentElement;
        if (parent.closest('.vh, [hidden]')) continue;
        if (getComputedStyle(parent).clipPath !== 'none') continue;
        for (const found of node.data.matchAll(new RegExp(word, 'gu'))) {
          const range = document.createRange();
          range.setStart(node, found.index);
          range.setEnd(node, found.index + found[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
            .map((r) => Math.round(r.bottom)));
          if (lines.size > 1) cut.push(found[0]);
        }
      }
      return cut;
    }""", [root, word])


# What the phone's disk holds of a key, as localStorage keeps it, with the times of the keys'
# copies in IndexedDB (web/static/store.js); and the same put back, as a browser killed before it
# wrote out its last changes leaves it.
ON_DISK = "(key) => [localStorage.getItem(key), localStorage.getItem('digsite:at')]"
LOST_SINCE = """([key, text, at]) => {
  if (text == null) localStorage.removeItem(key);
  else localStorage.setItem(key, text);
  localStorage.setItem('digsite:at', at ?? '{}');
}"""
COPY = """(key) => new Promise((done) => {
  const asked = indexedDB.open('digsite');
  asked.onerror = () => done(undefined);
  asked.onsuccess = () => {
    try {
      const got = asked.result.transaction('kept').objectStore('kept').get(key);
      got.onsuccess = () => {
        done(got.result ? got.result.text : undefined);
        asked.result.close();
      };
    } catch {
      done(undefined); // no copies kept at all
      asked.result.close();
    }
  };
})"""


def on_disk(page: Page, key: str) -> list[str | None]:
    return page.evaluate(ON_DISK, key)


def lose_since(page: Page, key: str, written_out: list[str | None]) -> None:
    """localStorage as it was when `written_out` was read, for `key` (and the copies' times)."""
    page.evaluate(LOST_SINCE, [key, *written_out])


def copied(page: Page, key: str) -> None:
    """Waits until IndexedDB's copy of `key` is the key as localStorage holds it."""
    for _ in range(50):
        if page.evaluate(COPY, key) == on_disk(page, key)[0]:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{key} was not copied")


def away(server: Server, match_id: str, seat: int) -> None:
    """The seat's player last seen a minute and more ago, their phone put away: the host may
    give the seat a new link now, which it may not while they are at the table."""
    database = server.env["DATABASE_URL"].removeprefix("sqlite:///")
    with sqlite3.connect(database) as db:
        players = json.loads(db.execute("SELECT players FROM matches WHERE id = ?",
                                        (match_id,)).fetchone()[0])
        players[seat]["last_seen"] = (datetime.now(UTC) - timedelta(seconds=61)).isoformat(
            timespec="seconds")
        db.execute("UPDATE matches SET players = ? WHERE id = ?",
                   (json.dumps(players), match_id))
    db.close()


# A page of a seat's, left open, keeps its player at the table: its event stream stores them seen
# every 30 s (service/matches.py PRESENCE_SECONDS), and such a store may land between away() and
# the host's request. The host is then told the player is at the table, as they would be.
TRIES = 3


def new_link(server: Server, match_id: str, seat: int, host_token: str) -> str:
    """The host's new token for `seat`, its player made away first (again, should their open
    page's stream have said they were there meanwhile)."""
    for _ in range(TRIES):
        away(server, match_id, seat)
        try:
            return call(server, f"/api/v1/matches/{match_id}/seats/{seat}/token", {},
                        token=host_token)["token"]
        except urllib.error.HTTPError as error:
            if error.code != 409 or not json.loads(error.read())["type"].endswith("seat-in-use"):
                raise
    raise AssertionError(f"seat {seat} stayed at the table after {TRIES} tries")

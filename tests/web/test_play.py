"""Playing a whole match on the play page (issue 20), as people at a table would: two people on
two phones (browser contexts) and a bot, every move a tap on what the page offers, which is the
seat's `legal_actions` and nothing else. One phone reloads in the middle and carries on; one
seat's page never holds another seat's secret, in what it shows or in any answer it received;
undo is offered until something is revealed; a finished match replays move by move."""

import itertools
import json
import re
import subprocess
import time
import urllib.error

import pytest
from playwright.sync_api import Page, expect

from scoring.engine import FINISHED, Rng, random_bot
from scoring.games import GAMES
from tests.server import call

from .phone import ARTIFACTS, ROOT, run_axe, screenshot, words_cut

# Every answer a match's page receives from the match API, event streams included, kept in the
# page as it arrives: what the phone was told, to compare with what its seat may know.
RECORD_ANSWERS = """
(() => {
  window.__answers = [];
  const original = window.fetch;
  window.fetch = async (...args) => {
    const response = await original(...args);
    const url = String(args[0]?.url || args[0]);
    if (url.includes("/api/v1/matches/")) {
      const copy = response.clone();
      (async () => {
        if (!copy.body) return;
        const reader = copy.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          window.__answers.push(value);
        }
      })().catch(() => {});
    }
    return response;
  };
})();
"""

TAPS_MAX = 400
# Deals whose matches take these phones a usual number of taps, the same in every run.
DIG_SEED = 4
DINOS_SEED = 3
# The match's version the page shows.
SHOWN = "Number(document.querySelector('[data-match-version]')?.dataset.matchVersion)"


def version(page: Page) -> int:
    return int(page.locator("[data-match-version]").last.get_attribute("data-match-version"))


def status(page: Page) -> str:
    return page.locator("[data-status]").get_attribute("data-status")


def held(page: Page) -> dict:
    """The seats this phone keeps (localStorage), by match id."""
    return page.evaluate("JSON.parse(localStorage.getItem('digsite.play.seats') || '{}')")


def match_id(page: Page) -> str:
    return re.search(r"/play/([0-9a-f]+)", page.url).group(1)


def set_up(page: Page, game: str, seats: list[str], variant: str | None = None,
           listed: bool = False, clock: str | None = None, stand_in: str | None = None) -> str:
    """Creates a match from the setup screen: `seats` are "me:Name", "open" or "bot:kind"."""
    page.goto("/play")
    page.get_by_role("button", name=game, exact=True).click()
    expect(page.get_by_role("button", name=game, exact=True)).to_have_attribute(
        "aria-pressed", "true")
    if variant:
        page.get_by_label("Variant").select_option(variant)
    while page.get_by_role("button", name=re.compile("^Remove seat")).count() > 0 and \
            page.locator(".seat-row").count() > len(seats):
        page.get_by_role("button", name=re.compile("^Remove seat")).last.click()
    while page.locator(".seat-row").count() < len(seats):
        page.get_by_role("button", name="Add a seat").click()
    for i, seat in enumerate(seats, start=1):
        kind, _, name = seat.partition(":")
        page.get_by_label(f"Seat {i}", exact=True).select_option(kind if kind != "bot" else seat)
        if kind == "me":
            page.get_by_label(f"Seat {i} name").fill(name)
    if listed:
        page.get_by_label("List it in the lobby, so anyone can join").check()
    if clock:
        page.get_by_label("Clock").select_option(label=clock)
    if stand_in:
        page.get_by_label("Who plays for a player who leaves or runs out of time").select_option(
            label=stand_in)
    page.get_by_role("button", name="Create the match").click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f]+$"))
    return match_id(page)


def join_by_link(page: Page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name=re.compile("^Join seat")).click()
    expect(page.get_by_text("you", exact=True)).to_be_visible()


def offered(page: Page) -> list[dict]:
    """The actions the page offers right now, as tappable buttons: their type and name."""
    return page.evaluate("""[...document.querySelectorAll('button[data-act]:not(:disabled)')]
      .map((b) => ({ index: Number(b.dataset.act), type: b.dataset.type,
                     name: b.getAttribute('aria-label') || b.textContent }))""")


def tap(page: Page, index: int) -> None:
    """Taps the button of legal action `index` and waits for the page's answer to be drawn."""
    before = version(page)
    page.locator(f'button[data-act="{index}"]').click()
    page.wait_for_function(f"v => !document.querySelector('main.busy') && {SHOWN} > v", arg=before)


def choose(actions: list[dict], prefer: list[str]) -> dict:
    playable = [a for a in actions if a["type"] != "undo"]
    rank = {kind: i for i, kind in enumerate(prefer)}
    return min(playable, key=lambda a: rank.get(a["type"], len(prefer)))


def to_play(pages: list[Page]) -> Page:
    """The phone whose seat has something to play, once its page shows it."""
    for _ in range(300):
        for page in pages:
            if [a for a in offered(page) if a["type"] != "undo"]:
                return page
        pages[0].wait_for_timeout(50)
    raise AssertionError("no phone has anything to play")


def play_to_end(pages: list[Page], prefer: list[str], reload_at: int | None = None,
                watch=None) -> int:
    """Taps, on whichever phone has something to play, the first action of the kinds preferred
    (any offered one otherwise, never undo), until the match is over. The phone `pages[-1]`
    reloads after `reload_at` taps. `watch(phone)` runs before each tap, on the phone about to
    tap. How many taps it took."""
    taps = 0
    deadline = time.monotonic() + 120
    while status(pages[0]) != "finished":
        assert time.monotonic() < deadline and taps < TAPS_MAX, f"still playing after {taps} taps"
        moved = False
        for page in pages:
            actions = [a for a in offered(page) if a["type"] != "undo"]
            if not actions:
                continue
            if watch:
                watch(page)
            tap(page, choose(actions, prefer)["index"])
            taps += 1
            moved = True
            if taps == reload_at:
                pages[-1].reload()
                expect(pages[-1].locator("[data-status]")).to_be_visible()
            break
        if not moved:
            pages[0].wait_for_timeout(30)  # a move heard on the stream is being drawn
    for page in pages:
        expect(page.locator("[data-status]")).to_have_attribute("data-status", "finished")
    return taps


def dealt_from(page: Page, seed: int) -> None:
    """The matches `page` creates are dealt from `seed` (the setup screen sends none)."""
    page.route("**/api/v1/games/*/matches", lambda route: route.continue_(
        post_data=json.dumps({**route.request.post_data_json, "seed": seed}))
        if route.request.method == "POST" else route.continue_())


def table(open_phone, game: str, seats: list[str], variant: str | None = None,
          seed: int | None = None) -> tuple[Page, Page, str]:
    """Ann sets up the match on her phone; Bob joins the open seat from its link on his. With
    `seed`, the match is dealt from it (the setup screen sends none): the same deal, the same
    match for the same taps, and a test whose length does not change from run to run."""
    ann = open_phone(go=False)
    ann.context.add_init_script(RECORD_ANSWERS)
    if seed is not None:
        dealt_from(ann, seed)
    match = set_up(ann, game, seats, variant)
    link = ann.locator(".seat-link").first.get_attribute("href")
    expect(ann.get_by_role("img", name=re.compile("^QR code for seat"))).to_be_visible()
    ann.wait_for_function("document.querySelector('img.qr')?.naturalWidth > 0")  # drawn, not broken
    bob = open_phone(go=False)
    bob.context.add_init_script(RECORD_ANSWERS)
    join_by_link(bob, link, "Bob")
    return ann, bob, match


def answers(page: Page) -> list:
    """Every JSON value the page received from the match API, stream events split out."""
    text = "".join(page.evaluate("window.__answers"))
    found = []
    decoder = json.JSONDecoder()
    at = 0
    while (at := text.find("{", at)) >= 0:
        try:
            value, end = decoder.raw_decode(text, at)
        except ValueError:
            at += 1
            continue
        found.append(value)
        at = end
    return found


def walk(value):
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from walk(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from walk(inner)


def bones_told(values) -> set[tuple[tuple[str, ...], str]]:
    """Every bone (its scent and colour) that answers tell."""
    return {(tuple(d["scent"]), d.get("bone") or d.get("known_bone")) for value in values
            for d in walk(value) if "scent" in d and (d.get("bone") or d.get("known_bone"))}


def test_dig_two_phones_and_a_bot_play_to_the_end_with_undo_and_no_secret_seen(open_phone, server):
    ann, bob, match = table(open_phone, "DIG", ["me:Ann", "open", "bot:greedy"],
                            seed=DIG_SEED)
    tokens = {name: held(page)[match]["token"] for name, page in (("Ann", ann), ("Bob", bob))}
    # A turn at a time, the phone whose seat is to play: a dog's move is a tap on the yard.
    first = to_play([ann, bob])
    second = bob if first is ann else ann
    expect(first.get_by_role("heading", name="Your move")).to_be_visible()
    expect(first.get_by_role("button", name="Undo")).to_have_count(0)
    bone = first.locator("ol.yard button.offered", has_text=re.compile("/")).first
    position = bone.locator(".pos").text_content()
    # A double tap plays once: the second tap finds the board waiting for the first's answer.
    before = version(first)
    bone.dblclick()
    first.wait_for_function(f"v => !document.querySelector('main.busy') && {SHOWN} > v", arg=before)
    log = call(server, f"/api/v1/matches/{match}/log?after={before - 1}")["log"]
    assert [entry["action"]["type"] for entry in log] == ["move"]
    # Moving reveals nothing: it can be taken back, and is.
    expect(first.get_by_role("button", name="↶ Undo")).to_be_visible()
    tap(first, int(first.get_by_role("button", name="↶ Undo").get_attribute("data-act")))
    expect(first.get_by_role("button", name="↶ Undo")).to_have_count(0)
    again = first.locator(f'ol.yard button.offered:has(.pos:text-is("{position}"))')
    expect(again).to_have_count(1)
    # Digging turns a bone up: from then on nothing before it can be taken back.
    tap(first, int(again.get_attribute("data-act")))
    tap(first, int(first.get_by_role("button", name="Dig", exact=True).get_attribute("data-act")))
    expect(first.get_by_role("button", name="↶ Undo")).to_have_count(0)
    digger = "Ann" if first is ann else "Bob"
    seen = call(server, f"/api/v1/matches/{match}", token=tokens[digger])
    assert {"type": "undo"} not in seen["legal_actions"]
    with pytest.raises(urllib.error.HTTPError) as refused:
        call(server, f"/api/v1/matches/{match}/actions",
             {"action": {"type": "undo"}, "version": seen["version"]}, token=tokens[digger])
    assert refused.value.code == 422
    tap(first, int(first.get_by_role("button", name="Keep the bone").get_attribute("data-act")))
    # The bone kept is its holder's: the other phone shows its scent, never its colour, and
    # no answer that phone received names it, unless that seat may know it too.
    hand = call(server, f"/api/v1/matches/{match}", token=tokens[digger])["state"]["hand"]
    assert hand
    other = "Bob" if digger == "Ann" else "Ann"
    others_view = call(server, f"/api/v1/matches/{match}", token=tokens[other])
    secret = {(tuple(card["scent"]), card["bone"]) for card in hand} - bones_told([others_view])
    assert secret
    expect(first.locator("ul.hand").first).to_contain_text(f"→ {hand[0]['bone']} bone")
    second.wait_for_function(f"v => {SHOWN} >= v", arg=version(first))
    shown = second.locator("main").inner_text()
    for _, colour in secret:
        assert f"→ {colour} bone" not in shown
    told = bones_told(answers(second))
    assert not told & secret, f"{other}'s phone was told {digger}'s bones {told & secret}"
    # Then to the end: a turn is ended as soon as it can be; the bot plays between.
    taps = play_to_end([ann, bob], ["drop", "keep", "put_back", "end_turn"], reload_at=8)
    told = bones_told(answers(second))
    own = bones_told([call(server, f"/api/v1/matches/{match}", token=tokens[other])])
    assert not (told - own) & secret
    for page in (ann, bob):
        expect(page.get_by_role("heading", name="Result")).to_be_visible()
        expect(page.locator("details.breakdown")).to_have_count(3)
    assert taps > 0


@pytest.mark.service_worker
def test_dinos_from_the_lobby_to_the_end_with_a_reload_and_a_stale_tap(open_phone, server):
    ann = open_phone(go=False, allow_network_errors=True)
    dealt_from(ann, DINOS_SEED)
    match = set_up(ann, "Digging for Dinos", ["me:Ann", "open", "bot:greedy"], listed=True)
    bob = open_phone(go=False, allow_network_errors=True)
    bob.goto("/play")
    listed = re.compile("^Join: Digging for Dinos · no clock · Ann, open seat, Greedy bot")
    bob.get_by_role("link", name=listed).click()
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Join seat 2").click()
    expect(bob.locator("[data-status]")).not_to_have_attribute("data-status", "waiting")
    assert match_id(bob) == match
    # A tap on a table that moved on meanwhile (here, a move posted with the seat's own token
    # while the phone heard nothing) is refused 409: the page reads the table again in place.
    # Whose placement it is: the bot's is played at once, so one of the two people's.
    phone = to_play([ann, bob])
    token = held(phone)[match]["token"]
    phone.route("**/events*", lambda route: route.abort())
    phone.reload()
    expect(phone.locator("button.offered").first).to_be_visible()
    stale = version(phone)
    view = call(server, f"/api/v1/matches/{match}", token=token)
    call(server, f"/api/v1/matches/{match}/actions",
         {"action": view["legal_actions"][-1], "version": view["version"]}, token=token)
    phone.locator("button[data-act]").first.click()
    expect(phone.get_by_text("The table moved on; here it is as it stands.")).to_be_visible()
    phone.wait_for_function(f"v => {SHOWN} > v", arg=stale)
    phone.unroute("**/events*")
    phone.reload()
    expect(phone.locator("#play-link")).to_have_text("Live")
    # A dropped network: the other phone plays on meanwhile; back online, the stream is taken
    # up from its last id, and every move is heard once.
    at_table = to_play([ann, bob])
    away = bob if at_table is ann else ann
    assert run_axe(at_table) == []  # the grid, its places to tap
    away.context.set_offline(True)
    expect(away.locator("#play-link")).to_have_text("Connection lost — reconnecting…")
    tap(at_table, choose(offered(at_table), ["move", "place"])["index"])
    away.wait_for_timeout(300)
    away.context.set_offline(False)
    now = version(at_table)
    # the view (read again) and the moves (the stream's) may come in either order
    recent = "[...document.querySelectorAll('#play-recent li')].map((li) => li.value)"
    away.wait_for_function(f"v => {SHOWN} >= v && Math.max(...{recent}) >= v - 1", arg=now)
    heard = away.evaluate(recent)
    assert len(heard) == len(set(heard)) and max(heard) == now - 1 == version(at_table) - 1
    # what the moves heard changed on the board flashes briefly
    assert away.locator("table.dinogrid .changed").count() > 0
    compass = []

    def check_the_compass(page: Page) -> None:
        """Once, a paleontologist's ways to go: a compass of taps, accessible."""
        ways = page.get_by_role("group", name=re.compile("paleontologist$"))
        if not compass and ways.count() and page.locator(".compass button.offered").count():
            compass.append(page.locator(".compass button.offered").count())
            assert run_axe(page) == []

    taps = play_to_end([ann, bob], ["place", "move", "flip", "skip_flip"], reload_at=10,
                       watch=check_the_compass)
    assert compass
    # the grid is the view's: 5 × 5 for three players
    expect(ann.locator("table.dinogrid tr")).to_have_count(5)
    for page in (ann, bob):
        expect(page.get_by_role("heading", name="Result")).to_be_visible()
    assert taps > 0


def test_dig_it_up_plays_to_the_end_keeps_each_mission_secret_and_replays(open_phone, server):
    ann, bob, match = table(open_phone, "Dig It Up", ["me:Ann", "open", "bot:greedy"], "small")
    tokens = {name: held(page)[match]["token"] for name, page in (("Ann", ann), ("Bob", bob))}
    views = {name: call(server, f"/api/v1/matches/{match}", token=token)
             for name, token in tokens.items()}
    offers = {name: {m["id"]: m["name"] for m in view["state"]["offered_missions"]}
              for name, view in views.items()}
    bobs = {mission: name for mission, name in offers["Bob"].items()
            if mission not in offers["Ann"]}
    assert bobs
    # Each phone shows its own three missions to keep, as targets to tap, and never the others'.
    for mission in offers["Bob"].values():
        expect(bob.get_by_role("button", name=f"Keep {mission}")).to_be_visible()
    assert run_axe(bob) == []
    for page, own in ((ann, offers["Ann"]), (bob, offers["Bob"])):
        keep = page.get_by_role("button", name=f"Keep {next(iter(own.values()))}")
        tap(page, int(keep.get_attribute("data-act")))
    bobs_view = call(server, f"/api/v1/matches/{match}", token=tokens["Bob"])
    kept = bobs_view["state"]["players"][1]["mission"]["id"]
    shown = ann.locator("main").inner_text()
    for own in offers["Ann"].values():  # "Rock Collector" is not "Collector"
        shown = shown.replace(own, "")
    assert not [name for name in bobs.values() if name in shown]
    told = "".join(ann.evaluate("window.__answers"))
    assert not [mission for mission in bobs if f'"{mission}"' in told]
    expect(ann.get_by_text("a mission, kept secret")).to_have_count(2)
    # Each site says where its pickax stands: it read "0 pickaxes", then "5 pickaxes" for a
    # pickax on space 5.
    expect(ann.locator(".site-head").first).to_contain_text("Amazon (A) · pickax at the start")
    taps = play_to_end([ann, bob], ["dig", "keep_roll", "place_token", "steal", "landslide"],
                       reload_at=5)
    sites = call(server, f"/api/v1/matches/{match}")["state"]["sites"]
    expect(ann.locator(".site-head")).to_contain_text([
        f"{site['name']} ({site['id']}) · "
        + (f"pickax on space {site['pickax']}" if site["pickax"] else "pickax at the start")
        for site in sites])
    told = "".join(ann.evaluate("window.__answers"))
    # at the end a mission achieved is shown to all; the two discarded never are
    assert not [mission for mission in bobs if mission != kept and f'"{mission}"' in told]
    for page in (ann, bob):
        expect(page.get_by_role("heading", name="Result")).to_be_visible()
    screenshot(ann, "play-dig-it-up-result", full_page=True)
    # The replay, from the page's own link: move by move, then the result.
    log = call(server, f"/api/v1/matches/{match}/log?limit=500")["log"]
    ann.get_by_role("link", name="Replay", exact=True).click()
    expect(ann.get_by_text(f"Move 0 of {len(log)}")).to_be_visible()
    ann.get_by_role("button", name="Next ▶").click()
    expect(ann.get_by_text(f"Move 1 of {len(log)}")).to_be_visible()
    expect(ann.locator("#replay-entry")).to_contain_text("Bob joined")
    ann.get_by_role("button", name="Next ▶").click()
    expect(ann.get_by_text(f"Move 2 of {len(log)}")).to_be_visible()
    ann.get_by_role("button", name="◀ Back").click()
    expect(ann.get_by_text(f"Move 1 of {len(log)}")).to_be_visible()
    # Drawn as the board was, as Ann's seat saw it: her own mission named, the others' hidden;
    # as a spectator, every one hidden. Each step draws that version's board.
    board = ann.locator("section.board")
    drawn = board.inner_html()
    for at in range(2, 7):
        ann.get_by_role("button", name="Next ▶").click()
        expect(board).to_have_attribute("data-replay-version", str(at + 1))
    assert board.inner_html() != drawn
    expect(board.get_by_text("a mission, kept secret")).to_have_count(2)
    ann.get_by_label("As a spectator sees it").check()
    expect(board.get_by_text("a mission, kept secret")).to_have_count(3)
    assert "as=spectator" in ann.url
    ann.get_by_label("As a spectator sees it").uncheck()
    expect(board.get_by_text("a mission, kept secret")).to_have_count(2)
    for at in (5, 4):
        ann.get_by_role("button", name="◀ Back").click()
        expect(board).to_have_attribute("data-replay-version", str(at + 1))
    # Bob's missions, offered or kept, are in none of Ann's replay's pages or answers.
    shown = ann.locator("main").inner_text()
    for own in offers["Ann"].values():
        shown = shown.replace(own, "")
    assert not [name for name in bobs.values() if name in shown]
    told = "".join(ann.evaluate("window.__answers"))
    assert not [mission for mission in bobs if mission != kept and f'"{mission}"' in told]
    ann.get_by_role("button", name="End ⏭").click()
    expect(ann.get_by_text(f"Move {len(log)} of {len(log)}")).to_be_visible()
    expect(ann.get_by_role("heading", name="Result")).to_be_visible()
    assert run_axe(ann) == []
    # The replay link opens the same on another phone, that held no seat.
    stranger = open_phone(go=False)
    stranger.goto(f"/play/{match}/replay?move=3")
    expect(stranger.get_by_text(f"Move 3 of {len(log)}")).to_be_visible()
    # A rematch: same players, a new match, each phone on its own seat of it.
    bob.get_by_role("button", name="Rematch").click()
    bob.wait_for_url(lambda url: re.search(r"/play/[0-9a-f]+$", url) and match not in url)
    rematch = match_id(bob)
    assert rematch != match
    ann.goto(f"/play/{match}")
    ann.get_by_role("button", name="Join the rematch").click()
    ann.wait_for_url(f"**/play/{rematch}")
    expect(ann.get_by_text("you", exact=True)).to_be_visible()
    assert held(ann)[rematch]["token"] != held(bob)[rematch]["token"]
    assert taps > 0


def test_a_seat_that_leaves_is_played_by_a_bot_to_the_end(open_phone):
    page = open_phone(go=False)
    set_up(page, "Digging for Dinos", ["me:Ann", "bot:random"], stand_in="Bot: random")
    expect(page.get_by_role("heading", name="Your move")).to_be_visible()
    leave = page.get_by_role("button", name="Leave (a bot takes over)")
    # Cancelled, nothing happens; confirmed, a bot plays Ann's seat, here to the end at once.
    leave.click()
    page.get_by_role("dialog").get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("heading", name="Your move")).to_be_visible()
    leave.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("The random bot plays your seat until the end.")
    dialog.get_by_role("button", name="Leave (a bot takes over)").click()
    expect(page.locator("[data-status]")).to_have_attribute("data-status", "finished")
    ann = page.get_by_role("list", name="Seats").get_by_role("listitem").first
    expect(ann).to_contain_text("Ann")
    expect(ann).to_contain_text("random bot")
    expect(ann).not_to_contain_text("away")  # the match is over: nobody plays any more
    # Ann had not moved before she left: every move of her seat is the bot's.
    expect(page.locator("#play-recent")).to_contain_text("Ann moved")
    expect(page.get_by_role("heading", name="Result")).to_be_visible()


def test_the_setup_and_a_table_are_accessible_at_360_px(open_phone):
    page = open_phone(go=False, width=360)
    page.goto("/play")
    expect(page.get_by_role("heading", name="New match")).to_be_visible()
    assert run_axe(page) == []
    set_up(page, "Digging for Dinos", ["me:Ann", "open"], stand_in="Bot: random")
    expect(page.get_by_role("heading", name="Invite players")).to_be_visible()
    assert run_axe(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # each open seat's buttons say whose they are to a screen reader: several open seats read
    # "Copy link", "Copy link"…
    expect(page.get_by_role("button", name=re.compile(r"^(Share|Copy link): Seat 2$"))) \
        .to_be_visible()
    # The host may hand a seat nobody took to a bot, the match's stand-in: the match starts.
    page.get_by_role("button", name="Give it to a bot: Seat 2", exact=True).click()
    expect(page.locator("[data-status]")).not_to_have_attribute("data-status", "waiting")
    expect(page.get_by_role("list", name="Seats")).to_contain_text("Random bot")
    # The host may call off a match still waiting: its page says it is gone.
    set_up(page, "DIG", ["me:Ann", "open"])
    called_off = page.url
    page.get_by_role("button", name="Call off this match").click()
    page.get_by_role("dialog").get_by_role("button", name="Call off this match").click()
    page.wait_for_url(re.compile(r"/play$"))
    friend = open_phone(go=False, allow_network_errors=True)  # its link answers 410 now
    friend.goto(called_off)
    expect(friend.get_by_role("heading", name="This match is gone")).to_be_visible()
    # A table with a clock: the seat to play sees its time run down; a bot seat says so.
    set_up(page, "DIG", ["me:Ann", "bot:greedy"], clock="1 minute a move")
    expect(page.get_by_role("heading", name="Your move")).to_be_visible()
    # (named as its kind, "Greedy bot", it is not tagged with its kind again)
    seats = page.get_by_role("list", name="Seats")
    expect(seats).to_contain_text("Greedy bot")
    expect(seats.get_by_text("greedy bot", exact=True)).to_have_count(0)
    # a timer named so: a screen reader said no name of a bare span's label, only "0:57"
    clock = page.get_by_role("timer", name="Time left")
    expect(clock).to_have_text(re.compile(r"^0:[0-5]\d$"))
    before = clock.text_content()
    expect(clock).not_to_have_text(before, timeout=3000)
    assert clock.text_content() < before
    assert run_axe(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "play-dig-360", full_page=True)


def loaded(page: Page, url: str, ready: str) -> dict[str, int]:
    """What opening `url` on a phone new to the page fetches (the page, its scripts, styles,
    images and the API's answers), each as sent: gzipped where the browser takes it."""
    responses = []

    def heard(response) -> None:
        responses.append(response)

    page.on("response", heard)
    page.goto(url)
    expect(page.get_by_role("heading", name=ready)).to_be_visible()
    page.evaluate("0")  # every response the drawing needed was heard before this answer
    page.remove_listener("response", heard)
    kinds = ("document", "script", "stylesheet", "image", "fetch")
    sent = {response.url.split("/", 3)[-1]: response.request.sizes()["responseBodySize"]
            for response in responses
            if response.request.resource_type in kinds and "/events" not in response.url}
    return {"bytes": sum(sent.values()), **sent}


def test_the_first_load_of_the_setup_and_of_a_table_is_under_60_kb_as_sent(open_phone, server):
    setup = loaded(open_phone(go=False, service_workers="block"), "/play", "Waiting for players")
    assert {"play", "web/play.js", "web/play-setup.js", "web/play-words/en.js"} <= set(setup)
    assert "web/play-words/ko.js" not in setup  # only the phone's own language
    created = call(server, "/api/v1/games/digging-for-dinos/matches",
                   {"players": ["Ann", {"name": "Rex", "bot": "greedy"}]})
    phone = open_phone(go=False, service_workers="block")
    seat = {"seat": 0, "token": created["seats"][0]["token"], "name": "Ann",
            "game": "digging-for-dinos"}
    kept = json.dumps(json.dumps({created["id"]: seat}))
    phone.context.add_init_script(f"localStorage.setItem('digsite.play.seats', {kept})")
    table = loaded(phone, f"/play/{created['id']}", "Your move")
    assert {"web/play-match.js", "web/play-boards.js", "web/boards/digging-for-dinos.js"} <= \
        set(table)
    assert "web/boards/dig.js" not in table  # only the game's own board
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "play-first-load.json").write_text(json.dumps({"setup": setup, "table": table},
                                                              indent=1))
    assert setup["bytes"] <= 60 * 1024, setup
    assert table["bytes"] <= 60 * 1024, table


def test_the_play_page_is_one_page_at_each_of_its_addresses_and_loads_only_its_own_files(client):
    pages = [client.get(url) for url in ("/play", "/play/0123abcd", "/play/0123abcd/replay")]
    assert {page.status_code for page in pages} == {200}
    assert len({page.data for page in pages}) == 1
    policy = pages[0].headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    html = pages[0].get_data(as_text=True)
    assert "<script>" not in html and re.findall(r'(?:src|href)="(https?:)?//', html) == []
    for url in re.findall(r'(?:src|href)="([^"#]+)"', html):
        assert client.get(url).status_code == 200, url
    worker = client.get("/sw.js").get_data(as_text=True)
    assert '"/play"' in worker and "/web/play-match.js" in worker


def test_the_play_words_are_the_same_in_english_and_korean():
    script = ("const keys = {};"
              "for (const code of ['en', 'ko']) keys[code] = Object.keys("
              "(await import(`./web/static/play-words/${code}.js`)).default).sort();"
              "console.log(JSON.stringify(keys));")
    keys = json.loads(subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT,
                                     capture_output=True, text=True, check=True).stdout)
    assert keys["en"] == keys["ko"] and len(keys["en"]) > 100


def test_a_korean_phone_sets_up_in_korean(open_phone):
    page = open_phone(go=False, locale="ko-KR")
    page.goto("/play")
    expect(page.get_by_role("heading", name="새 게임")).to_be_visible()
    expect(page.get_by_role("button", name="게임 만들기")).to_be_visible()
    expect(page).to_have_title("Digsite · 게임하기")  # the tab's title too, not the page's English
    page.get_by_label("언어").select_option("en")
    expect(page.get_by_role("heading", name="New match")).to_be_visible()
    expect(page).to_have_title("Digsite · Play")


def test_the_scorer_s_first_screen_leads_to_the_play_page(open_phone):
    page = open_phone()
    page.get_by_role("link", name="Play a whole match on phones, with friends or bots").click()
    expect(page).to_have_url(re.compile(r"/play$"))
    expect(page.get_by_role("heading", name="New match")).to_be_visible()



# --- the table as a player meets it: its words, its focus, its boards at 360 px --------------


def dealt(open_phone, server, game: str, players: list, seat: int | str | None = "first",
          variant: str | None = None, **phone) -> tuple[dict, Page]:
    """A match made through the API (of `variant`, else the game's default), and a phone holding
    `seat` of it: the first seat to act, a seat by its number, or none (watching)."""
    from .test_play_table import create, seated  # that module builds on this one

    created = create(server, game, players, **({"variant": variant} if variant else {}))
    if seat == "first":
        seat = created["view"]["to_act"][0]
    return created, seated(open_phone, created, seat, game, **phone)


def end_the_turn(page: Page) -> None:
    """Plays the seat's DIG turn on its page until it may end it, and ends it."""
    while not [a for a in offered(page) if a["type"] == "end_turn"]:
        tap(page, choose(offered(page), ["move", "dig", "keep", "drop", "put_back"])["index"])
    tap(page, choose(offered(page), ["end_turn"])["index"])


def test_the_turn_line_stays_one_live_region_and_changes_only_when_the_turn_does(open_phone,
                                                                                 server):
    # The turn line was drawn anew with every view: a screen reader was never told whose turn it
    # was. It is one element now, its words changed in place, and only when they change.
    created, page = dealt(open_phone, server, "dig", ["Ann", "Bob"])
    turn = page.locator("#play-turn")
    expect(turn).to_have_text("Your turn")
    expect(turn).to_have_attribute("role", "status")
    page.evaluate("""() => {
      const line = document.getElementById('play-turn');
      line.kept = true;
      window.turnWords = [];
      new MutationObserver(() => window.turnWords.push(line.textContent))
        .observe(line, { childList: true, characterData: true, subtree: true });
    }""")
    kept = "document.getElementById('play-turn').kept === true"
    tap(page, choose(offered(page), ["move"])["index"])
    assert page.evaluate(kept)
    expect(turn).to_have_text("Your turn")
    assert page.evaluate("window.turnWords") == []  # the same words: not said again
    end_the_turn(page)
    other = created["view"]["players"][created["view"]["to_act"][0] ^ 1]["name"]
    expect(turn).to_have_text(f"{other} to play")
    assert page.evaluate(kept)
    assert page.evaluate("window.turnWords").count(f"{other} to play") == 1


def focused(page: Page) -> str:
    """Where the keyboard's focus is: the element's id, or its tag if it has none."""
    return page.evaluate("document.activeElement.id || document.activeElement.tagName")


def test_after_a_move_made_with_the_keyboard_the_focus_stays_on_the_table(open_phone, server):
    # The button pressed was drawn anew, or was gone: the focus fell to the page's body, and the
    # next Tab started from the top of the page.
    _, page = dealt(open_phone, server, "dig", ["Ann", "Bob"])
    page.locator("button[data-type='move']").first.press("Enter")
    page.wait_for_function(f"() => !document.querySelector('main.busy') && {SHOWN} > 1")
    # Still this seat's turn: the turn line, not a move. The focus went to the first move
    # offered, which after a dog's step sends it back to the Doghouse: a second Enter sent it.
    expect(page.locator("#play-turn")).to_be_focused()
    before = version(page)
    page.keyboard.press("Enter")
    page.wait_for_timeout(500)
    assert version(page) == before
    for _ in range(6):  # on to the moves, past the seats' and the board's first controls
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('main button.offered')"):
            break
    else:
        raise AssertionError(f"no move offered within 6 Tabs of the turn line: {focused(page)}")
    while not [a for a in offered(page) if a["type"] == "end_turn"]:
        tap(page, choose(offered(page), ["dig", "keep", "drop", "put_back"])["index"])
    before = version(page)
    page.get_by_role("button", name="End turn").press("Enter")
    page.wait_for_function(f"v => !document.querySelector('main.busy') && {SHOWN} > v", arg=before)
    # The turn passed: the turn line, which says whose it is.
    assert focused(page) == "play-turn"
    expect(page.locator("#play-turn")).to_be_focused()


def test_a_move_the_board_has_no_place_for_is_under_the_thumb_not_below_the_board(open_phone,
                                                                                 server):
    # DIG's End turn came after the 25 cards of the yard, some 1,300 px down a 740 px phone:
    # every turn ended with a scroll to the foot of the page and back up for the next.
    _, page = dealt(open_phone, server, "dig", ["Ann", "Bob"], width=320)
    page.locator("button[data-type='move']").first.press("Enter")  # a dog steps: it may end
    # the step played and the table drawn from its answer (End turn was offered before it too)
    page.wait_for_function(f"() => !document.querySelector('main.busy') && {SHOWN} > 1")
    end = page.get_by_role("button", name="End turn")
    expect(end).to_be_visible()
    assert page.evaluate("scrollY") == 0
    box, height = end.bounding_box(), page.viewport_size["height"]
    assert height / 2 < box["y"] and box["y"] + box["height"] <= height, box
    assert box["height"] >= 44
    # nothing of the page is left under it: scrolled to the foot, the last link shows above
    # it, in large text too (where End turn takes two lines)
    for size in (16, 40):
        page.context.new_cdp_session(page).send("Page.setFontSizes",
                                                {"fontSizes": {"standard": size}})
        page.evaluate("dispatchEvent(new Event('resize'))")
        page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
        back = page.get_by_role("link", name="All matches").bounding_box()
        dock = page.locator(".acts.dock").bounding_box()
        assert back["y"] + back["height"] <= dock["y"], (size, back, dock)
    end.click()
    expect(end).to_have_count(0)  # Bob's turn: nothing docked at the foot
    assert page.evaluate("document.body.classList.contains('docked')") is False


def test_a_seat_left_only_its_undo_is_told_it_waits_for_the_others(open_phone, server):
    # After End turn, with a person to play next, the panel said "Your move" above a lone Undo.
    _, page = dealt(open_phone, server, "dig", ["Ann", "Bob"])
    end_the_turn(page)
    panel = page.locator(".moves-panel")
    expect(panel.get_by_role("button", name="↶ Undo")).to_be_visible()
    expect(panel.get_by_role("heading", name="Waiting for the others")).to_be_visible()
    expect(panel).to_contain_text("You may still take back your last move.")
    expect(panel.get_by_role("heading", name="Your move")).to_have_count(0)


def test_a_paleontologist_s_compass_fits_its_squares_at_360_px(open_phone, server):
    # Its middle square held "orthogonal paleontologist · row 4, column 2": taller than the
    # square, the words ran over the arrows.
    created = call(server, "/api/v1/games/digging-for-dinos/matches",
                   {"players": ["Ann", {"name": "Rex", "bot": "greedy"}], "seed": 3})
    match, token = created["id"], created["seats"][0]["token"]
    view = call(server, f"/api/v1/matches/{match}", token=token)
    for _ in range(20):
        if any(a["type"] == "move" for a in view["legal_actions"]):
            break
        kinds = [a["type"] for a in view["legal_actions"]]
        action = view["legal_actions"][kinds.index("place") if "place" in kinds else 0]
        view = call(server, f"/api/v1/matches/{match}/actions",
                    {"action": action, "version": view["version"]}, token=token)
    else:
        raise AssertionError("Ann's paleontologists had no way to go")
    from .test_play_table import seated

    page = seated(open_phone, created, 0, "digging-for-dinos", width=360)
    compass = page.get_by_role("group", name="orthogonal paleontologist")
    expect(compass.locator("button.offered").first).to_be_visible()
    expect(compass).to_contain_text(re.compile(r"orthogonal paleontologist · row \d, column \d"))
    squares = page.evaluate("""[...document.querySelectorAll('.compass > *')].map((el) => {
      const box = el.getBoundingClientRect();
      const overrun = el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
      return { text: el.textContent, height: box.height, width: box.width, overrun };
    })""")
    assert squares and len(squares) % 9 == 0
    for square in squares:
        assert not square["overrun"] and square["height"] <= 48.5, square
        assert min(square["width"], square["height"]) >= 44, square
    # A square a paleontologist stands on says whose and which, not its short name and mark
    # ("Ann ✚" was said).
    grid = page.locator("main .board table")
    for side in ("orthogonal", "diagonal"):
        expect(grid.get_by_role("cell", name=re.compile(rf"Ann \({side} paleontologist\)"))
               ).to_have_count(1)
    snapshot = grid.aria_snapshot()
    assert "✚" not in snapshot and "✕" not in snapshot, snapshot
    assert run_axe(page) == []


# Each word of the board's labels, where it is laid out on more than one line: split inside the
# word. (Its parts are the text's between spaces, slashes, commas and middle dots.)
OVERFLOWING = """() => [...document.querySelectorAll('main .board *')].filter((el) => {
  const style = getComputedStyle(el);
  return el.getClientRects().length && !el.closest('.vh') && style.clipPath === 'none'
    && el.scrollWidth > el.clientWidth + 1;
}).map((el) => `overflow: ${el.className} ${el.textContent}`)"""


def test_no_word_of_a_board_is_broken_across_lines_at_360_px(open_phone, server):
    # The boards let a word break anywhere, to be hyphenated where the phone had the
    # dictionaries: Debian's Chromium has none, and showed "Tyrannos|aurus", "statu|e" and
    # "Doghous|e" at 360 px, broken with no hyphen.
    games = {"dig": ["Ann", "Bob", "Carl", "Dora"],
             "digging-for-dinos": ["Ann", "Bob", "Carl", "Dora"],
             "dig-it-up": ["Ann", "Bob", "Carl", "Dora"]}
    for (game, players), locale in itertools.product(games.items(), ("en-GB", "ko-KR")):
        _, page = dealt(open_phone, server, game, players, None, width=360, locale=locale)
        expect(page.locator("main .board")).to_be_visible()
        assert words_cut(page, "main .board") + page.evaluate(OVERFLOWING) == [], (game, locale)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        screenshot(page, f"play-{game}-board-360-{locale}", full_page=True)
        if game == "digging-for-dinos" and locale == "en-GB":
            # A fossil's name shortened to fit its square is still said whole.
            name = page.locator("table.dinogrid .dino").first
            short = name.locator(".short").inner_text()
            assert re.fullmatch(r"\w{5}\.", short) and short[:5] in name.text_content()
            assert len(name.locator(".whole").text_content()) > 6
            assert run_axe(page) == []


def test_the_dinos_grid_breaks_no_word_on_the_narrowest_phone_with_large_text(open_phone, server):
    # At 320 px with the phone's text at 130% a square read "Bront" over "." and "5 · era" over
    # "1", and the squares of a row grew unlike.
    _, page = dealt(open_phone, server, "digging-for-dinos", ["Ann", "Bob", "Carl", "Dora"], None,
                    width=320)
    expect(page.locator("main .board")).to_be_visible()
    page.evaluate("document.documentElement.style.fontSize = '130%'")
    assert words_cut(page, "main .board") + page.evaluate(OVERFLOWING) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    # an era stays with its number, and the letters stay big enough to read
    assert page.evaluate("""() => [...document.querySelectorAll('.dinogrid .era')].every((era) => {
      const range = document.createRange();
      range.selectNodeContents(era);
      const lines = [...range.getClientRects()].map((r) => Math.round(r.bottom));
      return new Set(lines).size === 1; })""")
    sizes = page.evaluate("""() => [...document.querySelectorAll('.dinogrid .dino > [aria-hidden]')]
      .filter((s) => s.getClientRects().length)
      .map((s) => parseFloat(getComputedStyle(s).fontSize))""")
    assert sizes and min(sizes) >= 11, sizes
    screenshot(page, "play-digging-for-dinos-board-320-large-text", full_page=True)


def test_no_dinos_square_that_cannot_be_tapped_is_filled_as_one_that_can(open_phone, server):
    # The era-2 squares were filled with the colour of a square offered to tap: watching, or
    # waiting for a turn, a player saw a board of squares that looked tappable and did nothing.
    from .test_play_table import create, seated

    created = create(server, "digging-for-dinos", ["Ann", "Bob"], seed=3)
    tokens = [seat["token"] for seat in created["seats"]]
    path = f"/api/v1/matches/{created['id']}"
    view = created["view"]
    while not any(tile and tile.get("era") == 2 for row in view["state"]["grid"]["rows"]
                  for tile in row):  # played on, each seat's first move, until era 2 is dealt
        seat = view["to_act"][0]
        mine = call(server, path, token=tokens[seat])
        view = call(server, f"{path}/actions", {"action": mine["legal_actions"][0],
                                                "version": mine["version"]},
                    token=tokens[seat])
    page = seated(open_phone, created, None, "digging-for-dinos")
    expect(page.locator("table.dinogrid .era2 .cell").first).to_be_visible()
    alike = page.evaluate("""() => {
      const probe = document.createElement('button');
      probe.className = 'cell offered';
      document.querySelector('.dinogrid .era2').append(probe);
      const drawn = getComputedStyle(probe);
      const offered = [drawn.backgroundColor, drawn.backgroundImage];
      probe.remove();
      return [...document.querySelectorAll('.dinogrid .cell:not(.offered)')]
        .map((cell) => getComputedStyle(cell))
        .filter((s) => s.backgroundColor === offered[0] && s.backgroundImage === offered[1])
        .map((s) => s.backgroundColor); }""")
    assert alike == []
    assert page.locator("table.dinogrid .era2 .cell").count() > 0


def test_bots_are_named_alike_whether_chosen_at_the_setup_or_given_a_seat_later(open_phone):
    # A bot chosen at the setup was "greedy bot 1", one the host gave an open seat "Greedy bot".
    page = open_phone(go=False)
    set_up(page, "DIG", ["me:Ann", "bot:greedy", "bot:greedy", "open"])
    page.get_by_role("button", name="Give it to a bot").click()
    expect(page.locator("[data-status]")).not_to_have_attribute("data-status", "waiting")
    names = page.get_by_role("list", name="Seats").locator("li > b")
    expect(names).to_have_text(["Ann", "Greedy bot", "Greedy bot 2", "Greedy bot 3"])


def test_a_korean_table_names_its_bots_in_korean(open_phone):
    # The setup named them "Greedy bot 2" in every language: a name is the table's, and a
    # Korean host's table read English names on every phone.
    page = open_phone(go=False, locale="ko-KR")
    page.goto("/play")
    page.get_by_role("button", name="DIG", exact=True).click()
    expect(page.locator(".seat-row")).to_have_count(2)
    for count in (3, 4):
        page.get_by_role("button", name="자리 추가").click()  # a new seat is a greedy bot
        expect(page.locator(".seat-row")).to_have_count(count)
    expect(page.get_by_label("2번 자리", exact=True)).to_have_value("open")
    page.get_by_label("1번 자리 이름").fill("Ann")
    page.get_by_role("button", name="게임 만들기").click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f]+$"))
    page.get_by_role("button", name="봇에게 맡기기").click()  # the open seat
    expect(page.locator("[data-status]")).not_to_have_attribute("data-status", "waiting")
    names = page.get_by_role("list", name="자리").locator("li > b")
    expect(names).to_have_text(["Ann", "욕심쟁이 봇 3", "욕심쟁이 봇", "욕심쟁이 봇 2"])


def test_a_table_with_no_move_yet_says_so_beside_an_empty_list(open_phone, server):
    # The list of moves read "1. No moves yet.": a numbered list holding its placeholder.
    _, page = dealt(open_phone, server, "dig", ["Ann", {"open": True}], 0)
    moves = page.get_by_role("region", name="Moves")
    expect(moves.get_by_text("No moves yet.")).to_be_visible()
    expect(moves.locator("#play-recent li")).to_have_count(0)
    expect(moves.locator("#play-recent")).to_be_hidden()
    expect(moves.get_by_role("listitem")).to_have_count(0)


def test_a_seat_the_variant_adds_is_the_same_bot_as_every_other_new_seat(open_phone):
    # Back to a variant of more players, the seats it added were random bots; the seats of a
    # game first chosen and those added by hand are greedy ones.
    page = open_phone(go=False)
    page.goto("/play")
    page.get_by_role("button", name="Dig It Up", exact=True).click()
    variant = page.get_by_label("Variant")
    standard = variant.input_value()
    kinds = "[...document.querySelectorAll('.seat-row select')].map((s) => s.value)"
    first = page.evaluate(kinds)
    variant.select_option("small")
    variant.select_option(standard)
    expect(page.locator(".seat-row")).to_have_count(len(first))
    page.get_by_role("button", name="Add a seat").click()
    again = page.evaluate(kinds)
    assert again[:len(first)] == first and set(again[2:]) == {"bot:greedy"}, again


def test_the_setup_keeps_the_keyboard_s_place_as_it_is_drawn_again(open_phone):
    # Each choice draws the form again, and the focus fell to the page: one arrow key on a seat's
    # select changed it once and left the select, so "random → greedy → mcts" could not be
    # stepped through; adding or removing a seat, or choosing a game, lost the place too.
    page = open_phone(go=False)
    page.goto("/play")
    focused = "document.activeElement.id"
    seat = page.get_by_label("Seat 2", exact=True)
    seat.focus()
    before = seat.input_value()
    page.keyboard.press("ArrowDown")
    expect(seat).not_to_have_value(before)
    expect(seat).to_be_focused()
    stepped = seat.input_value()
    page.keyboard.press("ArrowDown")
    expect(seat).not_to_have_value(stepped)
    expect(seat).to_be_focused()
    seats = page.locator(".seat-row").count()
    page.get_by_role("button", name="Add a seat").focus()
    page.keyboard.press("Enter")
    assert page.evaluate(focused) == f"seat-{seats + 1}-kind"  # on to the seat added
    page.get_by_role("button", name="Remove seat 3").focus()
    page.keyboard.press("Enter")
    assert page.evaluate(focused) not in ("", None), "the focus fell to the page"
    page.get_by_role("button", name="DIG", exact=True).focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="DIG", exact=True)).to_have_attribute(
        "aria-pressed", "true")
    expect(page.get_by_role("button", name="DIG", exact=True)).to_be_focused()
    # a name left out is said by its field, each time it is visited, not only once by the page
    name = page.get_by_label("Seat 1 name")
    name.fill("")
    page.get_by_role("button", name="Create the match").click()
    expect(name).to_be_focused()
    expect(name).to_have_attribute("aria-invalid", "true")
    expect(name).to_have_accessible_description("Write your name for your seat.")


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_what_flashes_as_it_is_heard_keeps_still_when_the_phone_asks_for_less_motion(open_phone,
                                                                                    motion):
    # A seat's state flashed as it changed under reduced motion: its own rule outweighed the one
    # that stops every flash.
    page = open_phone(go=False)
    page.emulate_media(reduced_motion=motion)
    page.goto("/play")
    expect(page.get_by_role("heading", name="New match")).to_be_visible()
    names = page.evaluate("""() => {
      const made = ['seat-state changed', 'changed', 'recent:fresh'].map((kind) => {
        const [outer, inner] = kind.split(':');
        const el = document.createElement('div');
        el.className = outer;
        if (inner) el.append(Object.assign(document.createElement('p'), { className: inner }));
        document.body.append(el);
        return inner ? el.firstChild : el;
      });
      return made.map((el) => getComputedStyle(el).animationName);
    }""")
    assert names == (["none"] * 3 if motion == "reduce" else ["heard"] * 3), names


def test_the_die_line_counts_a_deck_only_where_the_variant_has_one_and_a_roll_s_choice_is_beside_it(
        open_phone, server):
    # The Simplified variant, played without chance cards, read "0 cards in the deck"; a roll
    # kept for the turn read twice: "die: Ann rolled 5 at Siberia · roll 5".
    _, page = dealt(open_phone, server, "dig-it-up", ["Ann", {"name": "Robo", "bot": "random"}],
                    variant="simplified")
    die = page.locator(".die")
    expect(die).to_contain_text("sites closed")
    expect(die).not_to_contain_text("deck")
    # Ann holds a Lucky Charm and has rolled: she keeps the roll or rolls again
    from .test_play_table import seated

    created = brought_to(server, "keep_roll")
    page = seated(open_phone, created, 0, "dig-it-up")
    keep = page.get_by_role("button", name=re.compile("Keep the roll"))
    expect(keep).to_be_visible()
    # the choice is beside the roll, on the first screen, not under all the sites
    again = page.get_by_role("button", name=re.compile("Lucky Charm"))
    for button in (keep, again):
        box = button.bounding_box()
        assert box["y"] + box["height"] <= page.viewport_size["height"], box
    screenshot(page, "play-dig-it-up-lucky-charm")
    die = page.locator(".die")
    expect(die).to_contain_text(re.compile(r"Ann rolled \d at "))
    expect(die).not_to_contain_text("· roll")
    # and what keeping the roll takes, as the view says (the engine's count of the steps)
    lands = call(server, f"/api/v1/matches/{created['id']}",
                 token=created["seats"][0]["token"])["state"]["turn"]["lands_on"]
    expect(die).to_contain_text(
        f"kept, it takes the {lands['tile'].replace('_', ' ')} on space {lands['space']}")
    expect(die).to_contain_text("cards in the deck")


def brought_to(server, kind: str, test=lambda action: True) -> dict:
    """A two-player Dig It Up (its 2–3 players variant) of Ann and Bob, created and played by
    random bots' moves through the API until Ann may play an action of `kind` passing `test`
    (keep_roll: she holds a Lucky Charm and has rolled); as created, with its seats' tokens."""
    from .test_play_table import create

    game = GAMES["dig-it-up"]
    for seed in range(200):
        state = game.setup(["Ann", "Bob"], seed, "small")
        bot, moves = random_bot(Rng.from_seed(seed, "bot")), []
        while state["status"] != FINISHED and len(moves) < 200:
            seat = state["to_act"][0]
            if seat == 0 and any(a["type"] == kind and test(a)
                                 for a in game.legal_actions(state, seat)):
                break
            action = bot(game, state, seat)
            moves.append([seat, dict(action)])
            game.act(state, seat, action)
        else:
            continue
        created = create(server, "dig-it-up", ["Ann", "Bob"], variant="small", seed=seed)
        version = created["view"]["version"]
        for seat, action in moves:
            version = call(server, f"/api/v1/matches/{created['id']}/actions",
                           {"action": action, "version": version},
                           token=created["seats"][seat]["token"])["version"]
        return created
    raise AssertionError(f"no deal brings Ann a {kind} to play")


def test_an_ancient_map_s_numbers_are_offered_under_each_site(open_phone, server):
    # Ann's Ancient Map offered its digs as 36 buttons in the list under the board
    from .test_play_table import seated

    page = seated(open_phone, brought_to(server, "dig", lambda a: a.get("ancient_map")), 0,
                  "dig-it-up")
    sites = page.get_by_role("list", name="Dig sites").locator(":scope > li")
    expect(sites.first.locator(".maps")).to_contain_text("With an Ancient Map:")
    first = sites.first.locator(".map")
    expect(first.locator("b")).to_have_text(["1", "2", "3", "4", "5", "6"])
    # each number says where it digs (tests/web/test_play_log_words.py checks the steps)
    expect(first.first).to_have_accessible_name(
        re.compile(r"^Dig at .+ with an Ancient Map: 1 [a-z ]+, space [1-7]$"))
    lands = first.nth(2).locator("small").inner_text()
    panel = page.locator(".moves-panel .acts")
    expect(panel.get_by_role("button", name=re.compile("Ancient Map"))).to_have_count(0)
    for button in first.all():
        box = button.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
    assert run_axe(page) == []
    screenshot(page, "play-dig-it-up-ancient-map")
    tap(page, int(first.nth(2).get_attribute("data-act")))
    # the number chosen is no roll (RULINGS §1): said as the map's, as the moves say it too
    expect(page.locator(".die")).to_contain_text("Ancient Map: Ann chose 3 at")
    expect(page.locator("#play-recent li").first).to_contain_text("Ann played an Ancient Map: 3")
    expect(page.locator("#play-recent li").first).to_contain_text(f"took {lands.split(',')[0]}")


def test_a_seat_s_link_opened_once_the_seat_is_taken_says_so(open_phone, server):
    # A third phone opening the link of a seat another had joined was shown the running table
    # with no button and no word of why: as if it could play, and nothing offered.
    ann, bob, match = table(open_phone, "DIG", ["me:Ann", "open"])
    cy = open_phone(go=False)
    cy.goto(f"/play/{match}?seat=1")
    expect(cy.locator("#play-seat-taken")).to_have_text(
        "Seat 2, which this link offers, is already taken: you are watching. If it was yours, "
        "ask the host for its new link.")  # this phone's site data cleared, say
    expect(cy.get_by_role("button", name=re.compile("^Join"))).to_have_count(0)
    expect(bob.locator("#play-seat-taken")).to_have_count(0)  # the phone that holds it
    expect(ann.locator("#play-seat-taken")).to_have_count(0)
    # while other seats are open, the phone is told to take one of them
    from .test_play_table import create

    waiting = create(server, "dig", ["Ann", {"open": True}, {"open": True}])["id"]
    call(server, f"/api/v1/matches/{waiting}/join", {"name": "Bob", "seat": 1})
    dee = open_phone(go=False)
    dee.goto(f"/play/{waiting}?seat=1")
    expect(dee.locator("#play-seat-taken")).to_have_text(
        "Seat 2, which this link offers, is already taken: join another open seat.")
    expect(dee.get_by_role("button", name="Join", exact=True)).to_be_visible()


def test_a_player_s_own_paleontologists_are_not_ringed_as_the_focus_is(open_phone, server):
    # Ringed in the focus ring's own solid blue: a keyboard user saw two or three focus rings.
    from .test_play_table import create, seated

    created = create(server, "digging-for-dinos", ["Ann", "Bob"], seed=3)
    tokens = [seat["token"] for seat in created["seats"]]
    path = f"/api/v1/matches/{created['id']}"
    view = created["view"]
    for _ in range(4):  # each seat places its two paleontologists
        seat = view["to_act"][0]
        mine = call(server, path, token=tokens[seat])
        view = call(server, f"{path}/actions", {"action": mine["legal_actions"][0],
                                                "version": mine["version"]},
                    token=tokens[seat])
    page = seated(open_phone, created, 0, "digging-for-dinos")
    expect(page.locator("table.dinogrid .mine .cell")).to_have_count(2)
    rings = page.evaluate("""() => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--focus)';
      document.body.append(probe);
      const focus = getComputedStyle(probe).color;
      probe.remove();
      return [...document.querySelectorAll('.dinogrid .mine .cell')].map((cell) => {
        const s = getComputedStyle(cell);
        return [s.outlineStyle, s.outlineColor === focus]; }); }""")
    assert rings and all(style != "none" for style, _ in rings), rings  # still ringed
    assert not any(style == "solid" and blue for style, blue in rings), rings


def test_a_choice_the_board_has_no_place_for_comes_before_the_board(open_phone, server):
    # "You drew Thief: choose whom to rob" sat above a Dig It Up board 2,286 px tall, its Rob
    # buttons under every site. A move on the board keeps the board first.
    import json

    from .test_play_table import create, seated

    created = create(server, "dig-it-up", ["Ann", "Bob"], variant="small", seed=5)
    path = f"/api/v1/matches/{created['id']}"
    for seat in (0, 1):  # each keeps a mission: a dig is next, on the board
        token = created["seats"][seat]["token"]
        mine = call(server, path, token=token)
        call(server, f"{path}/actions", {"action": mine["legal_actions"][0],
                                          "version": mine["version"]}, token=token)
    to_dig = call(server, path)["to_act"][0]
    page = seated(open_phone, created, to_dig, "dig-it-up")
    order = """() => [...document.querySelectorAll('#play-body > section')]
      .map((s) => s.classList.contains('board') ? 'board' : s.classList.contains('moves-panel')
        ? 'moves' : null).filter(Boolean)"""
    expect(page.locator(".board button.offered").first).to_be_visible()
    assert page.evaluate(order) == ["board", "moves"]
    # the same table with a Thief to play: whom to rob is asked before the board (the view as
    # the server would send it, its moves the robberies alone)
    def robbing(route) -> None:
        view = route.fetch().json()
        view["legal_actions"] = [{"type": "steal", "victim": 1 - to_dig}]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(view))

    page.route(f"**{path}", robbing)
    page.reload()
    expect(page.locator(".moves-panel button.offered")).to_have_count(1)
    assert page.evaluate(order) == ["moves", "board"]


def test_every_refusal_a_table_may_meet_has_korean_words(tmp_path):
    # A Korean phone says a refusal in the page's words for its kind, else the server's English:
    # a lost race to leave (stale-version), a new link for a seat a bot plays
    # (seat-has-no-token) and a match whose log is full were said in English.
    from app import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}"})
    document = app.test_client().get("/api/openapi.json").get_json()
    door = {"invalid-body", "invalid-header", "malformed-request", "body-too-large",
            "body-too-slow", "unsupported-media-type", "idempotency-key-in-use",
            "idempotency-key-reused", "database-unavailable", "internal-error"}
    met = {uri.removeprefix("/problems/") for path, item in document["paths"].items()
           if path.startswith("/api/v1/matches/") for operation in item.values()
           if isinstance(operation, dict)
           for uri in operation.get("x-problem-types", [])} - door
    script = ("const { default: ko } = await import('./web/static/play-words/ko.js');"
              "console.log(JSON.stringify(Object.keys(ko)));")
    korean = set(json.loads(subprocess.run(["node", "--input-type=module", "-e", script],
                                           cwd=ROOT, capture_output=True, text=True,
                                           check=True).stdout))
    assert len(met) > 10
    assert sorted(kind for kind in met if f"problem.{kind}" not in korean) == []

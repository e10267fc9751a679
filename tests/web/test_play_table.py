"""The play page at a table over a whole evening, where the matches are made through the API and
each phone is handed its seat as the page keeps it: a clock that runs in the set-up, a match the
host calls off, a seat given a new link, a move tapped with the network gone, the rematch offered
to whoever holds a seat of the match (and to nobody else), and every link as tall as a thumb
needs."""

import json
import re
import time
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from tests.server import Server, call

from .phone import copied, lose_since, new_link, on_disk, start_server
from .test_grid import WORDS_CUT
from .test_play import SHOWN, held, match_id, offered, status, tap, to_play

DINOS = "/api/v1/games/digging-for-dinos/matches"


def create(server: Server, game: str, players: list, **creation) -> dict:
    return call(server, f"/api/v1/games/{game}/matches", {"players": players, **creation})


def seated(open_phone, created: dict, seat: int | None, game: str, host: bool = False,
           clock_ahead: float | None = None, **phone) -> Page:
    """A phone holding `seat` of the created match (None: no seat), and the host's token if
    `host`, as the page keeps them once it made or joined the match, on the match's page; its
    clock `clock_ahead` seconds ahead of the right time (its clock then Playwright's, to move on
    at will)."""
    kept: dict = {"game": game}
    if seat is not None:
        kept.update(seat=seat, token=created["seats"][seat]["token"],
                    name=created["seats"][seat]["name"])
    if host:
        kept["host"] = created["host_token"]
    page = open_phone(go=False, **phone)
    if clock_ahead is not None:
        page.clock.install(time=time.time() + clock_ahead)
        page.clock.resume()
    seats = json.dumps(json.dumps({created["id"]: kept}))
    page.context.add_init_script(
        f"if (!localStorage.getItem('digsite.play.seats')) "
        f"localStorage.setItem('digsite.play.seats', {seats})")
    page.goto(f"/play/{created['id']}")
    expect(page.locator("[data-status]")).to_be_visible()
    return page


def test_the_clock_runs_on_the_page_while_dig_it_up_s_missions_are_chosen(open_phone, server):
    # The server plays a mission for a seat whose time runs out in the set-up: the page showed
    # no clock until the set-up was over.
    created = create(server, "dig-it-up", ["Ann", "Bob"], variant="small",
                     clock={"move_seconds": 90})
    ann = seated(open_phone, created, 0, "dig-it-up")
    assert status(ann) == "setup"
    expect(ann.get_by_role("heading", name="Your move")).to_be_visible()
    clocks = ann.get_by_role("list", name="Seats").locator(".clock")
    expect(clocks).to_have_count(2)  # both seats choose at once
    # 90 s less the time the page took to open: under 1:30, whatever a loaded machine took
    expect(clocks.first).to_have_text(re.compile(r"^(1:[0-2]\d|1:30|0:[0-5]\d)$"))


def test_a_day_s_clock_counts_hours_minutes_and_seconds(open_phone, server):
    created = create(server, "dig", ["Ann", "Bob"], clock={"turn_days": 1})
    ann = seated(open_phone, created, 0, "dig")
    bob = seated(open_phone, created, 1, "dig")
    first = to_play([ann, bob])
    # 23:59:59, not 1439:59 (minutes) as it was below a whole day.
    expect(first.locator(".seats .clock[data-deadline]")).to_have_text(
        re.compile(r"^23:59:[0-5]\d$"))


def test_an_emptied_square_under_a_paleontologist_shows_no_fossil(open_phone, server):
    created = call(server, DINOS, {"players": [{"name": "Rex", "bot": "greedy"},
                                               {"name": "Max", "bot": "random"}], "seed": 1})
    rows = created["view"]["state"]["grid"]["rows"]
    emptied = [(r, c) for r, row in enumerate(rows) for c, tile in enumerate(row)
               if tile and tile["dinosaur"] is None and tile.get("token")]
    assert emptied  # a dug square a paleontologist stands on: a tile of nulls with a token
    page = seated(open_phone, created, None, "digging-for-dinos")
    board = page.locator(".board")
    expect(board).to_be_visible()
    assert "null" not in board.inner_text()
    r, c = emptied[0]
    square = page.locator(f'[data-spot="grid-{r}-{c}"]')
    assert "null" not in (square.get_attribute("title") or "")
    expect(square.locator(".dog")).to_have_count(1)
    expect(square.locator(".dino")).to_have_count(0)


def test_paleontologists_of_seats_whose_names_begin_alike_are_told_apart(open_phone, server):
    # A paleontologist showed the first three letters of its seat's name: "Pla ✚" for
    # "Player 1" and for "Player 2" alike.
    created = call(server, DINOS, {"players": [{"name": "Player 1", "bot": "greedy"},
                                               {"name": "Player 2", "bot": "random"}],
                                   "seed": 1})
    page = seated(open_phone, created, None, "digging-for-dinos")
    board = page.locator(".board")
    expect(board).to_be_visible()
    shown = {seat: {text.split(" ")[0] for text in board.locator(f".dog.s{seat}").all_inner_texts()}
             for seat in (0, 1)}
    assert shown == {0: {"P1"}, 1: {"P2"}}


def test_a_match_called_off_is_gone_on_every_phone_and_forgotten(open_phone, server):
    created = create(server, "dig", ["Ann", {"open": True}, {"open": True}])
    ann = seated(open_phone, created, 0, "dig", host=True, allow_network_errors=True)
    carl = open_phone(go=False, allow_network_errors=True)
    carl.goto(f"/play/{created['id']}?seat=2")
    carl.get_by_label("Your name").fill("Carl")
    carl.get_by_role("button", name="Join seat 3").click()
    expect(carl.get_by_text("you", exact=True)).to_be_visible()
    bob = open_phone(go=False, allow_network_errors=True)
    bob.goto(f"/play/{created['id']}?seat=1")
    expect(bob.get_by_role("button", name="Join seat 2")).to_be_visible()

    ann.get_by_role("button", name="Call off this match").click()
    ann.get_by_role("dialog").get_by_role("button", name="Call off this match").click()
    ann.wait_for_url(re.compile(r"/play$"))
    # The host is told it was done (the page went to /play and said nothing).
    expect(ann.get_by_text("The match was called off: its links no longer open it.")) \
        .to_be_visible()
    # The phones that were waiting say so, and offer nothing of it any more.
    for phone in (bob, carl):
        expect(phone.get_by_role("heading", name="This match is gone")).to_be_visible()
        expect(phone.get_by_text("This match was cancelled by its host before it began.")) \
            .to_be_visible()
        expect(phone.get_by_role("button", name=re.compile("^Join"))).to_have_count(0)
        expect(phone.get_by_text("Waiting for")).to_have_count(0)
    # A friend whose phone speaks Korean opens the link later: told why, not "called off, or
    # removed after a long while".
    dee = open_phone(go=False, locale="ko-KR", allow_network_errors=True)
    dee.goto(f"/play/{created['id']}?seat=1")
    expect(dee.get_by_role("heading", name="이 게임은 없어졌습니다")).to_be_visible()
    expect(dee.get_by_text("호스트가 시작 전에 이 게임을 취소했습니다.")).to_be_visible()
    for phone in (ann, carl):
        assert created["id"] not in held(phone)
    expect(ann.get_by_role("heading", name="Your matches on this phone")).to_have_count(0)


def test_a_seat_given_a_new_link_is_told_and_watches(open_phone, server):
    created = create(server, "dig", ["Ann", "Bob"])
    bob = seated(open_phone, created, 1, "dig", allow_network_errors=True)
    expect(bob.get_by_text("you", exact=True)).to_be_visible()
    new_link(server, created["id"], 1, created["host_token"])  # Bob away a minute, page open
    expect(bob.get_by_text("This phone no longer holds a seat here")).to_be_visible()
    expect(bob.get_by_text("you", exact=True)).to_have_count(0)
    assert created["id"] not in held(bob)
    # and it keeps saying why once the status line has moved on: the words went after 4 s,
    # leaving a spectator's table with nothing to say why
    expect(bob.locator("#status")).to_be_empty(timeout=15_000)
    expect(bob.locator("main")).to_contain_text(
        "You are watching: this phone's seat got a new link")
    bob.reload()  # nothing kept to try again: watched at once, still saying why
    expect(bob.locator("[data-status]")).to_be_visible()
    expect(bob.get_by_text("you", exact=True)).to_have_count(0)
    expect(bob.locator("main")).to_contain_text(
        "You are watching: this phone's seat got a new link")


def test_a_move_tapped_offline_says_it_was_not_sent(open_phone, server):
    created = create(server, "dig", ["Ann", "Bob"])
    ann = seated(open_phone, created, 0, "dig", allow_network_errors=True)
    bob = seated(open_phone, created, 1, "dig", allow_network_errors=True)
    first = to_play([ann, bob])
    before = call(server, f"/api/v1/matches/{created['id']}")["version"]
    first.context.set_offline(True)
    # the lowest move there is, scrolled to: the words went to the status line at the page's
    # top, out of sight where the player was looking, and were gone when scrolled back up
    first.locator("button[data-act]:not(:disabled)").last.click()
    expect(first.get_by_text("nothing was sent")).to_be_visible()
    expect(first.locator("#status")).to_be_in_viewport()
    first.context.set_offline(False)
    assert call(server, f"/api/v1/matches/{created['id']}")["version"] == before
    expect(first.locator("button[data-act]:not(:disabled)").first).to_be_visible()


@pytest.mark.service_worker
def test_a_table_opened_again_with_no_network_shows_it_as_last_seen(open_phone, server):
    """A reload at a table whose Wi-Fi dropped said "This match cannot be opened", with no board,
    seats or moves, until the network came back: the page now draws the table as this phone last
    saw it, its moves too, says the connection is lost, and goes live again by itself."""
    created = create(server, "dig", ["Ann", {"name": "Rex", "bot": "greedy"}])
    view = call(server, f"/api/v1/matches/{created['id']}", token=created["seats"][0]["token"])
    while view["to_act"] == [0] and view["version"] < 4:  # a few moves to be listed
        moves = [a for a in view["legal_actions"] if a["type"] != "undo"]
        view = call(server, f"/api/v1/matches/{created['id']}/actions",
                    {"action": moves[0], "version": view["version"]},
                    token=created["seats"][0]["token"])
    ann = seated(open_phone, created, 0, "dig", allow_network_errors=True)
    assert ann.evaluate("navigator.serviceWorker.ready.then(() => true)")
    ann.reload()  # now under the service worker, as a phone is after its first visit
    expect(ann.locator("#play-link")).to_have_text("Live")
    expect(ann.locator("#play-recent li").first).to_be_visible()
    version = ann.locator("[data-match-version]").get_attribute("data-match-version")
    board, moves = ann.locator(".board").inner_text(), ann.locator("#play-recent").inner_text()
    ann.context.set_offline(True)
    ann.reload()
    expect(ann.locator("#play-link")).to_have_text("Connection lost — reconnecting…")
    expect(ann.locator("[data-match-version]")).to_have_attribute("data-match-version", version)
    assert ann.locator(".board").inner_text() == board
    assert ann.locator("#play-recent").inner_text() == moves
    expect(ann.get_by_text("This match cannot be opened")).to_have_count(0)
    ann.locator("button[data-act]:not(:disabled)").first.click()
    expect(ann.get_by_text("nothing was sent")).to_be_visible()
    ann.context.set_offline(False)
    expect(ann.locator("#play-link")).to_have_text("Live")
    assert call(server, f"/api/v1/matches/{created['id']}")["version"] == int(version)
    # The server not answering while the Wi-Fi is up gives the phone no "online": the page
    # said "reconnecting…" and never tried again.
    ann.route("**/api/v1/**", lambda route: route.abort())
    ann.reload()
    expect(ann.locator("#play-link")).to_have_text("Connection lost — reconnecting…")
    ann.unroute("**/api/v1/**")
    expect(ann.locator("#play-link")).to_have_text("Live", timeout=15_000)


def test_the_rematch_is_offered_to_whoever_holds_a_seat_of_the_match(open_phone, server):
    # A host with no seat was offered it, and told of a missing token when tapping it.
    bots = create(server, "digging-for-dinos", [{"name": "Rex", "bot": "greedy"},
                                                {"name": "Max", "bot": "random"}])
    host = seated(open_phone, bots, None, "digging-for-dinos", host=True)
    expect(host.get_by_role("heading", name="Result")).to_be_visible()
    expect(host.locator("#play-rematch")).to_have_count(0)
    # A player who left, and whose seat a bot played to the end, still holds the seat.
    created = create(server, "digging-for-dinos", ["Ann", {"name": "Rex", "bot": "random"}])
    call(server, f"/api/v1/matches/{created['id']}/leave", {},
         token=created["seats"][0]["token"])
    ann = seated(open_phone, created, 0, "digging-for-dinos")
    expect(ann.get_by_role("heading", name="Result")).to_be_visible()
    ann.locator("#play-rematch").click()
    ann.wait_for_url(re.compile(rf"/play/(?!{created['id']})[0-9a-f]+$"))
    expect(ann.get_by_text("you", exact=True)).to_be_visible()


def test_every_link_of_a_table_and_its_replay_is_as_tall_as_a_thumb_needs(open_phone, server):
    playing = call(server, DINOS, {"players": ["Ann", {"name": "Rex", "bot": "greedy"}]})
    over = call(server, DINOS, {"players": [{"name": "Rex", "bot": "greedy"},
                                            {"name": "Random bot", "bot": "random"}]})
    pages = [(playing, 0, f"/play/{playing['id']}", "Your move"),
             (over, None, f"/play/{over['id']}", "Result"),
             (over, None, f"/play/{over['id']}/replay", "Digging for Dinos · Replay")]
    for width in (320, 360):
        for created, seat, url, heading in pages:
            phone = seated(open_phone, created, seat, "digging-for-dinos", width=width)
            phone.goto(url)
            expect(phone.get_by_role("heading", name=heading)).to_be_visible()
            expect(phone.get_by_role("link", name="New match")).to_be_visible()
            short = phone.evaluate("""[...document.querySelectorAll('a, button')]
              .filter((el) => el.getClientRects().length && !el.closest('.vh'))
              .map((el) => [el.textContent.trim(), el.getBoundingClientRect().height])
              .filter(([, height]) => height < 44)""")
            assert short == [], (width, url, short)
            # the replay shows the board once the match is over: offered then, not before
            expect(phone.get_by_role("link", name="Replay this match")).to_have_count(
                1 if url == f"/play/{over['id']}" else 0)
    # a bot named as its kind is not tagged with its kind again ("Random bot [random bot]")
    tags = {seat.locator("b").inner_text(): seat.locator(".tag.bot").all_inner_texts()
            for seat in phone.locator(".seats li").all()}
    assert tags == {"Rex": ["greedy bot"], "Random bot": []}, tags


def test_a_mission_failed_and_kept_face_down_is_said_so_in_the_result(open_phone, server):
    # RULINGS: a failed mission stays face down at the end. Its line read "by its bonus", the
    # words of a scoresheet's mission given by its bonus alone.
    for seed in range(1, 40):
        created = create(server, "dig-it-up", [{"name": "Rex", "bot": "greedy"},
                                               {"name": "Max", "bot": "random"}],
                         variant="small", seed=seed)
        view = created["view"]
        hidden = [p["name"] for p in view["state"]["players"]
                  if p.get("mission_kept") and not p.get("mission")]
        if hidden:
            break
    else:
        raise AssertionError("no seed gave a failed mission kept face down")
    page = seated(open_phone, created, None, "dig-it-up")
    expect(page.get_by_role("heading", name="Result")).to_be_visible()
    breakdown = page.locator("details.breakdown", has_text=hidden[0])
    expect(breakdown).to_contain_text("Mission: kept face down (not achieved)")
    assert "by its bonus" not in page.locator("main").inner_text()


def test_a_refusal_is_said_in_the_phone_s_language(open_phone, server):
    # The server words its refusals in English: a Korean phone showed them as they came. A
    # player who lost her seat's link and joins again under her name hears how to get it back.
    created = create(server, "dig", ["Ann", {"open": True}])
    for locale, label, button, said in (
            ("ko-KR", "내 이름", "2번 자리로 참가", "호스트가 새 링크를 줄 수 있습니다"),
            ("en-GB", "Your name", "Join seat 2",
             "If that seat is yours and its link is lost, the host can give you a new one.")):
        phone = open_phone(go=False, locale=locale, allow_network_errors=True)
        phone.goto(f"/play/{created['id']}?seat=1")
        phone.get_by_label(label).fill("Ann")
        phone.get_by_role("button", name=button).click()
        expect(phone.locator("#play-join-msg")).to_contain_text(said)


def test_a_refused_join_keeps_its_reason_beside_the_name_with_the_focus_there(open_phone,
                                                                              server):
    # The reason showed only in the line at the top, gone after 4 s; the name field was not
    # marked, and the focus fell to the page (on a phone the keyboard closed).
    created = create(server, "dig", ["Ann", {"open": True}])
    bob = open_phone(go=False, allow_network_errors=True)
    bob.goto(f"/play/{created['id']}?seat=1")
    name = bob.get_by_label("Your name")
    name.fill("Ann")
    name.press("Enter")
    reason = bob.locator("#play-join-msg")
    expect(reason).to_contain_text("Ann is already at this table")
    expect(name).to_be_focused()
    expect(name).to_have_attribute("aria-invalid", "true")
    assert name.get_attribute("aria-describedby") == "play-join-msg"
    bob.clock.fast_forward(10_000)  # the line at the top has gone by now: this one stays
    expect(bob.locator("#status")).not_to_contain_text("already at this table")
    expect(reason).to_contain_text("Ann is already at this table")
    name.press_sequentially("ie")  # mended: the reason is for the name no more
    expect(reason).to_be_empty()
    expect(name).not_to_have_attribute("aria-invalid", "true")
    bob.get_by_role("button", name="Join seat 2").click()
    expect(bob.get_by_text("you", exact=True)).to_be_visible()


def test_each_phone_shows_who_is_at_the_table_as_they_come_and_go(open_phone, server):
    # Every view said whether each seat's player was there, and the page showed none of it: a
    # table waiting on Bob could not tell whether Bob was even looking.
    created = create(server, "dig", ["Ann", "Bob", {"name": "Rex", "bot": "greedy"}])
    ann = seated(open_phone, created, 0, "dig", clock_ahead=0)
    seats = ann.get_by_role("list", name="Seats").get_by_role("listitem")
    expect(seats.nth(1)).to_contain_text("offline")  # Bob never looked
    expect(seats.nth(0)).not_to_contain_text("online")  # Ann's own seat: she is here
    expect(seats.nth(2)).not_to_contain_text("online")  # a bot is always there
    bob = seated(open_phone, created, 1, "dig")
    expect(bob.get_by_role("list", name="Seats").get_by_role("listitem").nth(0)) \
        .to_contain_text("online")
    ann.evaluate("document.querySelector('.seats').kept = true")
    ann.clock.fast_forward(31_000)  # the page looks again, as each half minute
    expect(seats.nth(1)).to_contain_text("online")
    # Said in place, with no move made: the table is not drawn anew.
    assert ann.evaluate("document.querySelector('.seats').kept === true")


def test_a_seat_whose_time_ran_out_is_still_its_player_s_and_may_leave(open_phone, server):
    # A bot played the late turn, and plays again only if the time runs out again: the seat
    # read "away: a bot plays", and its phone lost the Leave button the server still grants.
    created = create(server, "dig", ["Ann", "Bob"], clock={"move_seconds": 5})
    late = created["view"]["to_act"][0]
    phone = seated(open_phone, created, late, "dig")
    mine = phone.get_by_role("list", name="Seats").locator("li.me")
    expect(mine.get_by_text("away: a bot plays when the time runs out")).to_be_visible(
        timeout=30_000)
    # Its phone says what became of the turn, and how the seat is its player's again: the moves
    # read "Ann moved to card 1" as if Ann had played them, and nothing else told her.
    name = created["seats"][late]["name"]
    expect(phone.locator("#play-you-away")).to_have_text(
        "Your time ran out, and the greedy bot played your turn. Play your next move yourself "
        "and the seat is yours again.")
    expect(phone.locator("#play-recent")).to_contain_text(
        f"{name} ran out of time: the greedy bot played the turn")
    leave = phone.get_by_role("button", name="Leave (a bot takes over)")
    leave.click()
    phone.get_by_role("dialog").get_by_role("button", name="Leave (a bot takes over)").click()
    # Left: the bot plays the seat from now on.
    expect(mine.get_by_text("away: a bot plays", exact=True)).to_be_visible()
    expect(leave).to_have_count(0)


def test_a_phone_whose_clock_is_wrong_counts_the_time_left_as_the_server_does(open_phone,
                                                                               server):
    # A phone 45 s fast showed "0:12" left of a minute a move where the server gave 56 s: two
    # phones of one table showed two times, and a player hurried or ran out unwarned.
    created = create(server, "dig", ["Ann", "Bob"], clock={"move_seconds": 600})
    seat = created["view"]["to_act"][0]
    for ahead in (300, -300):  # five minutes either way
        phone = seated(open_phone, created, seat, "dig", clock_ahead=ahead)
        left = phone.locator("li.me .clock")
        expect(left).to_have_text(re.compile(r"^9:[0-5]\d$"))
    # Days are counted down, never rounded up: two days less a moment read "2 days".
    created = create(server, "dig", ["Ann", "Bob"], clock={"turn_days": 2})
    phone = seated(open_phone, created, created["view"]["to_act"][0], "dig")
    expect(phone.locator("li.me .clock")).to_have_text("1 day 23 h")


def test_a_finished_match_does_not_say_a_bot_plays_a_seat_that_left(open_phone, server):
    # "greedy bot · away: a bot plays" stayed on a seat of a match over.
    created = create(server, "dig", ["Ann", "Bob"], seed=3)
    path = f"/api/v1/matches/{created['id']}"
    call(server, f"{path}/leave", {}, token=created["seats"][0]["token"])
    bob = created["seats"][1]["token"]
    while (view := call(server, path, token=bob))["status"] != "finished":
        move = next(a for a in view["legal_actions"] if a["type"] != "undo")
        call(server, f"{path}/actions", {"action": move, "version": view["version"]}, token=bob)
    phone = seated(open_phone, created, 1, "dig")
    ann = phone.get_by_role("list", name="Seats").get_by_role("listitem").nth(0)
    expect(ann).to_contain_text("greedy bot")
    expect(ann).not_to_contain_text("away")


def one_move_from_the_end(server: Server, game: str, players: list, **creation) -> tuple[dict, int]:
    """A match whose first seat has one move left, the move that ends it: played through the API
    as a match with the same seed was played to its end (each time the first move offered). The
    match, and the index of that move in the seat's legal actions."""
    def play(stop: int | None) -> tuple[dict, int]:
        created = create(server, game, players, seed=7, **creation)
        path, token = f"/api/v1/matches/{created['id']}", created["seats"][0]["token"]
        played = 0
        while (view := call(server, path, token=token))["status"] != "finished":
            index = next(i for i, a in enumerate(view["legal_actions"]) if a["type"] != "undo")
            if played == stop:
                return created, index
            call(server, f"{path}/actions",
                 {"action": view["legal_actions"][index], "version": view["version"]}, token=token)
            played += 1
        return created, played

    _, moves = play(None)
    return play(moves - 1)


def test_the_phone_whose_move_ends_the_match_words_the_breakdowns_as_after_a_reload(open_phone,
                                                                                    server):
    # The finished view a move was answered with was drawn without the game's scoresheet: the
    # parts as the server names them ("tyrannosaurus 24", English in Korean), until a reload.
    for locale in ("en-GB", "ko-KR"):
        created, last = one_move_from_the_end(server, "digging-for-dinos",
                                              ["Ann", {"name": "Rex", "bot": "greedy"}])
        ann = seated(open_phone, created, 0, "digging-for-dinos", locale=locale,
                     allow_network_errors=True)
        ann.route("**/events*", lambda route: route.abort())  # the move's answer alone tells it
        ann.reload()
        tap(ann, last)
        expect(ann.locator("[data-status]")).to_have_attribute("data-status", "finished")
        drawn = ann.locator("details.breakdown").all_text_contents()
        ann.unroute("**/events*")
        ann.reload()
        expect(ann.locator("details.breakdown")).to_have_count(len(drawn))
        assert ann.locator("details.breakdown").all_text_contents() == drawn, locale


def test_a_tie_broken_at_the_end_is_explained_under_the_ranking(open_phone, server):
    # Two players on the same total were shown 2nd and 3rd, or one of them "Winner", and the
    # ranking never said why.
    bots = [{"name": name, "bot": "greedy" if i % 2 else "random"}
            for i, name in enumerate(["Ann", "Bob", "Cleo", "Dan"])]
    for seed in range(1, 200):
        created = create(server, "digging-for-dinos", bots, seed=seed)
        result = created["view"]["result"]
        if result["tie_break"]:
            break
    else:
        raise AssertionError("no seed gave a tie the tie-break decided")
    totals = [p["total"] for p in result["players"]]
    tied = sorted((p for p in result["players"] if totals.count(p["total"]) > 1),
                  key=lambda p: p["rank"])
    page = seated(open_phone, created, None, "digging-for-dinos")
    ending = page.get_by_role("region", name="Result")
    tie = ending.locator(".tie")
    expect(tie).to_contain_text("Tie-break: The largest completed dinosaur wins")
    expect(tie).to_contain_text(f"tied on {tied[0]['total']}.")
    expect(tie).to_contain_text(f"Ahead: {tied[0]['name']}.")
    expect(tie).to_contain_text(f"{tied[-1]['name']}: Completed: ")
    # the words of the scorer's page, which a Korean phone says in Korean
    korean = seated(open_phone, created, None, "digging-for-dinos", locale="ko-KR")
    expect(korean.locator(".ending .tie")).to_contain_text("동점 규칙: 가장 큰 완성 공룡이 이기고")


def test_a_name_half_typed_to_join_stays_when_another_player_joins(open_phone, server):
    # Each event drew the table again and the form with it: the field held the last name saved
    # again, what was typed gone, and the focus with it.
    created = create(server, "dig", ["Ann", {"open": True}, {"open": True}])
    cleo = open_phone(go=False)
    cleo.goto(f"/play/{created['id']}?seat=2")
    field = cleo.get_by_label("Your name")
    field.press_sequentially("Cleoa")
    field.press("ArrowLeft")
    call(server, f"/api/v1/matches/{created['id']}/join", {"name": "Bob", "seat": 1})
    expect(cleo.get_by_role("list", name="Seats")).to_contain_text("Bob")
    expect(field).to_have_value("Cleoa")
    expect(field).to_be_focused()
    cleo.keyboard.type("patr")  # where the caret was: before the last letter
    expect(field).to_have_value("Cleopatra")
    cleo.keyboard.press("Tab")
    expect(cleo.get_by_role("button", name="Join seat 3")).to_be_focused()
    cleo.keyboard.press("Enter")
    expect(cleo.get_by_role("list", name="Seats")).to_contain_text("Cleopatra")
    # the form gone, the focus is on the turn line (Ann's turn), not fallen to the page's top
    expect(cleo.locator("#play-turn")).to_be_focused()


def test_a_breakdown_folded_at_the_end_stays_folded_while_the_page_waits_for_a_rematch(
        open_phone, server):
    # The page reads a finished match again every 5 s, to offer a rematch another seat asked
    # for, and drew it all anew each time: every breakdown folded opened again.
    created = create(server, "digging-for-dinos", ["Ann", {"name": "Rex", "bot": "random"}])
    call(server, f"/api/v1/matches/{created['id']}/leave", {}, token=created["seats"][0]["token"])
    ann = seated(open_phone, created, 0, "digging-for-dinos")
    breakdowns = ann.locator("details.breakdown")
    expect(breakdowns).to_have_count(2)
    breakdowns.first.locator("summary").click()
    expect(breakdowns.first).not_to_have_attribute("open", "")
    ann.evaluate("document.querySelector('.ending').kept = true")
    read = f"/api/v1/matches/{created['id']}"
    with ann.expect_response(lambda response: response.url.endswith(read), timeout=15_000):
        pass
    ann.wait_for_timeout(500)  # what was read, drawn if anything changed
    assert ann.evaluate("document.querySelector('.ending').kept === true"), "drawn anew unchanged"
    assert ann.evaluate("[...document.querySelectorAll('details.breakdown')].map((d) => d.open)") \
        == [False, True]
    # A rematch asked for on another phone changes the table: drawn anew, as folded as it was.
    call(server, f"/api/v1/matches/{created['id']}/rematch", {},
         token=created["seats"][0]["token"])
    expect(ann.get_by_role("button", name="Join the rematch")).to_be_visible(timeout=15_000)
    assert ann.evaluate("[...document.querySelectorAll('details.breakdown')].map((d) => d.open)") \
        == [False, True]



def test_a_page_left_open_on_a_finished_match_still_finds_the_rematch_later(open_phone, server):
    # The page read the finished match every 5 s for ten minutes (hidden or not), then never:
    # a phone left on the result, or one whose network dropped once, never heard of a rematch
    # asked for later. Now each minute after the first ten, and at once when back in sight.
    created = create(server, "digging-for-dinos", ["Ann", {"name": "Rex", "bot": "random"}])
    call(server, f"/api/v1/matches/{created['id']}/leave", {}, token=created["seats"][0]["token"])
    ann = seated(open_phone, created, 0, "digging-for-dinos", clock_ahead=0,
                 allow_network_errors=True)
    expect(ann.get_by_role("heading", name="Result")).to_be_visible()
    read = f"/api/v1/matches/{created['id']}"
    looks: list[str] = []

    def look(route):  # the first look the network loses: the next is made all the same
        looks.append(route.request.headers.get("authorization"))
        return route.abort() if len(looks) == 1 else route.continue_()

    answered: list[str] = []  # the looks whose answer (or loss) reached the page
    for heard in ("requestfinished", "requestfailed"):
        ann.on(heard, lambda request: request.url.endswith(read) and answered.append(request.url))

    def settled(n: int) -> None:
        """The clock is moved on only once look `n`'s answer is in: the next look is set from
        there, and a busy machine may take its time."""
        for _ in range(500):
            if len(answered) >= n:
                break
            ann.wait_for_timeout(20)
        ann.evaluate("0")

    def looked(n: int, within_ms: int) -> None:
        # The next look is set once the last one's answer is drawn, which a busy machine may do
        # after the clock was moved on: the clock goes on a second at a time until it is made.
        for _ in range(within_ms // 1000):
            ann.clock.fast_forward(1_000)
            for _ in range(15):
                if len(looks) >= n:
                    return
                ann.wait_for_timeout(20)
        raise AssertionError(f"{len(looks)} looks, not {n}, within {within_ms} ms")

    ann.route(f"**{read}", look)
    for n in range(1, 121):  # ten minutes of looks every 5 s, the first lost
        settled(n - 1)
        ann.clock.fast_forward(4_000)
        looked(n, 6_000)
    settled(120)
    ann.clock.fast_forward(30_000)
    ann.wait_for_timeout(200)
    assert len(looks) == 120  # then each minute
    looked(121, 100_000)  # a minute after the last look's answer, however late it came
    settled(121)  # (a look under way is not made twice)
    ann.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # back in sight
    for _ in range(250):  # at once (the next look it had set is a minute on)
        if len(looks) >= 122:
            break
        ann.wait_for_timeout(20)
    assert len(looks) == 122
    # as a spectator: a look neither shows the player at the table nor stores their presence
    assert looks == [None] * 122
    call(server, f"/api/v1/matches/{created['id']}/rematch", {},
         token=created["seats"][0]["token"])
    join = ann.get_by_role("button", name="Join the rematch")
    for _ in range(10):  # found at the next look, within the minute
        ann.clock.fast_forward(10_000)
        ann.wait_for_timeout(300)
        if join.is_visible():
            break
    expect(join).to_be_visible(timeout=15_000)


# Whether the page is drawn and ready for a tap.
READY = "!document.querySelector('main.busy') && document.querySelector('button.offered')"


def moves_at_one_place(open_phone, server) -> tuple[Page, dict]:
    """A DIG table for Ann (a touchscreen) and a bot, every move drawn at one place, so that a
    second tap lands on the move drawn after the first; each click kept in `window.taps` as
    [its count, the button it reached, if one that may be tapped]."""
    created = create(server, "dig", ["Ann", {"name": "Rex", "bot": "random"}], seed=7)
    ann = seated(open_phone, created, 0, "dig", touch=True)
    ann.add_style_tag(content="button.offered { position: fixed; left: 0; top: 200px;"
                              " width: 300px; height: 80px; z-index: 10; }")
    ann.evaluate("""window.taps = []; document.addEventListener('click', (e) => {
        const b = e.target.closest('button'); window.taps.push([e.detail, b && !b.disabled
          ? b.textContent : null]); }, true)""")
    return ann, created


def double_tap(ann: Page, between=lambda: None) -> list:
    """A double tap whose second tap comes once the first one's move is drawn (and `between`
    done): the clicks it made."""
    ann.wait_for_function(f"() => {READY}")
    seen = ann.evaluate(SHOWN)
    ann.evaluate("window.taps = []")
    ann.touchscreen.tap(150, 240)
    ann.wait_for_function(f"v => {SHOWN} > v && {READY}", arg=seen)
    between()
    ann.touchscreen.tap(150, 240)
    ann.wait_for_timeout(600)
    return ann.evaluate("window.taps")


def test_a_double_tap_plays_one_move_though_the_next_is_drawn_under_the_finger(open_phone, server):
    # The answer came between the two taps of a double tap, and the second tap played whatever
    # move was drawn where the first had been; the browser counts the taps of a double tap (a
    # click's `detail`).
    ann, created = moves_at_one_place(open_phone, server)
    log = f"/api/v1/matches/{created['id']}/log"

    def anns() -> int:  # the moves Ann made (the bot's come between)
        return sum(1 for entry in call(server, log)["log"] if entry["seat"] == 0)

    for _ in range(10):  # a double tap whose second tap came after the move drawn under it
        # a last try's second tap, too late to be counted as a double tap's, may still be playing
        ann.wait_for_function(f"() => {READY}")
        before = anns()
        taps = double_tap(ann)
        if [(count, bool(button)) for count, button in taps] == [(1, True), (2, True)]:
            assert anns() == before + 1
            break
    else:
        raise AssertionError("no double tap's second tap landed on a move drawn since the first")
    ann.wait_for_function(f"() => {READY}")
    before, seen = anns(), ann.evaluate(SHOWN)  # read before the tap: its move may be drawn at once
    ann.evaluate("window.taps = []")
    ann.touchscreen.tap(150, 240)  # a tap of its own, later, is a move
    ann.wait_for_function("() => window.taps.length > 0")
    assert [count for count, _ in ann.evaluate("window.taps")] == [1], "counted as a double tap"
    ann.wait_for_function(f"v => {SHOWN} > v", arg=seen)
    assert anns() == before + 1


def test_a_double_tap_s_second_tap_does_nothing_on_any_button_drawn_under_it(open_phone, server):
    # The page's redraw after a move put "Leave (a bot takes over)" under the finger: the second
    # tap of a double tap opened the leave's dialog.
    ann, _ = moves_at_one_place(open_phone, server)
    leave = "Leave (a bot takes over)"

    def leave_under_the_finger() -> None:
        ann.evaluate("""() => { const b = [...document.querySelectorAll('button')]
            .find((b) => b.textContent === 'Leave (a bot takes over)');
          Object.assign(b.style, { position: 'fixed', left: '0', top: '200px', width: '300px',
                                   height: '80px', zIndex: '20' }); }""")

    for _ in range(10):
        if double_tap(ann, leave_under_the_finger)[1:] == [[2, leave]]:
            break
        # a second tap too late to be counted as a double tap's is a tap on Leave: its dialog
        # is closed, and Leave put back, for the next try
        if ann.get_by_role("dialog").count():
            ann.keyboard.press("Escape")
            expect(ann.get_by_role("dialog")).to_have_count(0)
        ann.evaluate("""() => [...document.querySelectorAll('button')]
            .filter((b) => b.textContent === 'Leave (a bot takes over)')
            .forEach((b) => b.removeAttribute('style'))""")
    else:
        raise AssertionError("no double tap's second tap landed on the leave drawn under it")
    expect(ann.get_by_role("dialog")).to_have_count(0)


@pytest.mark.parametrize(("width", "text"), [(320, 100), (320, 200), (360, 200)])
def test_a_dig_it_up_table_fits_a_small_phone_at_its_text_size(open_phone, server, width, text):
    # At twice the text a 320 px phone scrolled the table sideways by 60 px (115 with five
    # players): each site's spaces kept their longest word's width, and its last ones were cut.
    created = create(server, "dig-it-up", ["Ann", *[{"name": f"Bot {n}", "bot": "greedy"}
                                                    for n in range(1, 5)]])
    ann = seated(open_phone, created, 0, "dig-it-up", width=width)
    ann.context.new_cdp_session(ann).send("Page.setFontSizes",
                                          {"fontSizes": {"standard": 16 * text // 100}})
    ann.wait_for_timeout(200)  # laid out again
    expect(ann.locator(".spaces").first).to_be_visible()
    assert ann.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    assert ann.evaluate("""[...document.querySelectorAll('.space')].every((s) => {
        const r = s.getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth; })""")


def test_a_waiting_table_fits_a_phone_zoomed_to_twice_its_size(open_phone, server):
    # A 320 px phone at 200% zoom lays the page out 160 px wide: each open seat's QR code
    # (160 px and its margin) reached past the screen, and the page scrolled sideways.
    created = create(server, "dig", ["Ann", {"open": True}, {"open": True}])
    ann = seated(open_phone, created, 0, "dig", host=True, width=160)
    expect(ann.locator("img.qr")).to_have_count(2)
    # each code drawn (on a busy machine the second was still loading when the first showed)
    ann.wait_for_function("""() => [...document.querySelectorAll('img.qr')].every((img) =>
        img.complete && img.naturalWidth > 0)""")
    assert ann.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    assert ann.evaluate("""[...document.querySelectorAll('img.qr')].every((img) =>
        img.getBoundingClientRect().right <= innerWidth)""")


# Every message of the status line, as it is said.
HEAR_STATUS = """(() => {
  window.said = [];
  const line = document.getElementById('status');
  new MutationObserver(() => window.said.push(line.textContent))
    .observe(line, { childList: true, characterData: true, subtree: true });
})()"""


def test_a_move_whose_answer_was_lost_is_sent_again_and_played_once(open_phone, server):
    # The connection dropped after the server took the move: the page said "nothing was sent",
    # though the move was played, and a second tap would have been refused as stale.
    created = create(server, "dig", ["Ann", "Bob"])
    ann = seated(open_phone, created, 0, "dig", allow_network_errors=True)
    bob = seated(open_phone, created, 1, "dig", allow_network_errors=True)
    first = to_play([ann, bob])
    first.evaluate(HEAR_STATUS)
    lost = []

    def answer_lost(route) -> None:
        if lost:
            return route.continue_()
        lost.append(route.request.headers.get("idempotency-key"))
        route.fetch()  # the server takes the move; its answer never reaches the phone
        route.abort()

    first.route("**/actions", answer_lost)
    path = f"/api/v1/matches/{created['id']}"
    before = call(server, path)["version"]
    first.locator("button[data-act]:not(:disabled)").first.click()
    first.wait_for_function(f"v => !document.querySelector('main.busy') && {SHOWN} > v",
                            arg=before)
    assert call(server, path)["version"] == before + 1
    assert [e["action"]["type"] for e in call(server, f"{path}/log?after={before - 1}")["log"]] \
        == ["move"]
    said = first.evaluate("window.said")
    assert lost[0] and not [words for words in said if "nothing was sent" in words], said
    assert "No answer from the server: your move may have reached it. It is sent again once " \
        "the connection is back, and played only once." in said, said
    has_said(first, "The server answered: your move is played.")


def test_a_move_the_server_never_got_is_said_to_be_not_played_once_it_is_back(
        open_phone, tmp_path_factory):
    """The server down as a move was tapped: no answer, twice, and "whether your move was played
    is not known"; once it was back the table showed the move unplayed and nothing said so, and
    the player waited for a move that was never coming."""
    with start_server(tmp_path_factory) as own:
        created = create(own, "dig", ["Ann", "Bob"])
        phones = [seated(open_phone, created, seat, "dig", url=own.url,
                         allow_network_errors=True) for seat in (0, 1)]
        first = to_play(phones)
        path = f"/api/v1/matches/{created['id']}"
        before = call(own, path)["version"]
        own.stop()
        first.locator("button[data-act]:not(:disabled)").first.click()
        expect(first.locator("#status")).to_contain_text("Still no answer from the server",
                                                         timeout=15_000)
        own.start()
        # the page tries again every 15 s at most by now (RETRY_MS), and a server just started
        # answers its first requests slowly
        expect(first.locator("#status")).to_have_text(
            "The server is back and your move was not played: play it again.", timeout=35_000)
        assert call(own, path)["version"] == before  # indeed not played
        first.locator("button[data-act]:not(:disabled)").first.click()
        first.wait_for_function(f"v => {SHOWN} > v", arg=before)


def test_a_move_lost_with_the_stream_still_open_is_said_not_played_once_requests_are_answered(
        open_phone, server):
    """The move and its resend lost on the way (a mobile network or a proxy dropping requests),
    the stream still open and "Live": no stream opened again, so nothing read the table again,
    and "whether your move was played is not known" went with nothing after it, the player
    waiting for a move that was never coming."""
    created = create(server, "dig", ["Ann", "Bob"])
    phones = [seated(open_phone, created, seat, "dig", allow_network_errors=True)
              for seat in (0, 1)]
    first = to_play(phones)
    path = f"/api/v1/matches/{created['id']}"
    before = call(server, path)["version"]
    first.route("**/api/v1/**", lambda route: route.abort("connectionrefused"))
    first.locator("button[data-act]:not(:disabled)").first.click()
    expect(first.locator("#status")).to_contain_text("Still no answer from the server",
                                                     timeout=15_000)
    expect(first.locator("#play-link")).to_have_text("Live")
    first.wait_for_timeout(3000)  # a few of the page's reads refused too
    first.unroute("**/api/v1/**")
    expect(first.locator("#status")).to_have_text(
        "The server is back and your move was not played: play it again.", timeout=20_000)
    assert call(server, path)["version"] == before  # indeed not played
    first.locator("button[data-act]:not(:disabled)").first.click()
    first.wait_for_function(f"v => {SHOWN} > v", arg=before)


def test_a_move_played_though_its_answers_were_lost_is_said_played_once_the_table_shows_it(
        open_phone, server):
    # Its answer and its resend's lost, the move was played: the table showed it at once, and
    # "whether your move was played is not known" stayed above it for 12 s.
    created = create(server, "dig", ["Ann", "Bob"])
    phones = [seated(open_phone, created, seat, "dig", allow_network_errors=True)
              for seat in (0, 1)]
    first = to_play(phones)
    keys = lose_first_answer(first, "**/actions", answers=2)
    path = f"/api/v1/matches/{created['id']}"
    before = call(server, path)["version"]
    first.locator("button[data-act]:not(:disabled)").first.click()
    lost_twice(first, keys)
    expect(first.locator("#status")).to_have_text("The server answered: your move is played.",
                                                  timeout=6_000)
    said = first.evaluate("window.said")
    assert any(words.startswith("Still no answer from the server") for words in said), said
    assert call(server, path)["version"] == before + 1 and len(set(keys)) == 1


def test_a_choice_whose_answers_were_lost_logged_after_another_seat_s_is_said_played(
        open_phone, server):
    # Dig It Up's missions are chosen at once: Bob's choice was logged first, then Ann's, made on
    # the same version, whose answers were lost; the page said Ann's was not played.
    created = create(server, "dig-it-up", ["Ann", "Bob"], variant="small")
    ann = seated(open_phone, created, 0, "dig-it-up", allow_network_errors=True)
    path = f"/api/v1/matches/{created['id']}"
    bob = created["seats"][1]["token"]
    keys: list[str] = []

    def answer_lost(route) -> None:
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) == 1:  # Bob chooses first
            seen = call(server, path, token=bob)
            call(server, f"{path}/actions", {"action": seen["legal_actions"][0],
                                             "version": seen["version"]}, token=bob)
        if len(keys) > 2:
            return route.continue_()
        route.fetch()
        return route.abort()

    ann.route("**/actions", answer_lost)
    ann.locator("button[data-act]:not(:disabled)").first.click()
    lost_twice(ann, keys)
    expect(ann.locator("#status")).to_have_text("The server answered: your move is played.",
                                                timeout=10_000)
    assert [entry["seat"] for entry in call(server, f"{path}/log")["log"]] == [1, 0]


def test_a_move_the_server_never_got_is_not_said_played_for_the_stand_in_s_moves(
        open_phone, server):
    # Never sent, and the seat's time ran out meanwhile: the stand-in bot's moves in the seat's
    # name, logged after the time-out, were taken for the player's own, and the page said played.
    created = create(server, "dig", ["Ann", "Bob"], clock={"move_seconds": 5})
    seat = created["view"]["to_act"][0]
    path = f"/api/v1/matches/{created['id']}"
    phone = seated(open_phone, created, seat, "dig", allow_network_errors=True)
    expect(phone.locator("button[data-act]:not(:disabled)").first).to_be_visible()
    before = call(server, path)["version"]
    tries: list[int] = []

    def never_got(route) -> None:
        tries.append(1)
        if len(tries) == 2:  # the resend hangs until the clock ran out and the bot moved
            deadline = time.monotonic() + 30
            while call(server, path)["version"] < before + 2 and time.monotonic() < deadline:
                time.sleep(0.2)
        route.abort()

    phone.route("**/actions", never_got)
    phone.locator("button[data-act]:not(:disabled)").first.click()
    expect(phone.locator("#status")).to_have_text(
        "Your move was not played: the table moved on before it. Here it is as it stands.",
        timeout=40_000)
    log = call(server, f"{path}/log")["log"]
    assert log[0]["action"]["type"] == "time_out" and not any(
        e["seat"] == seat and not e["bot"] for e in log[1:]), log


def test_a_move_refused_as_the_seat_s_time_ran_out_says_so(open_phone, server):
    # A move sent as the Wi-Fi dropped, refused once back (a bot had played the turn when the
    # seat's time ran out), said only "The table moved on; here it is as it stands."
    import json

    created = create(server, "dig", ["Ann", "Bob"])
    path = f"/api/v1/matches/{created['id']}"
    seat = created["view"]["to_act"][0]
    phone = seated(open_phone, created, seat, "dig", allow_network_errors=True)  # the 409
    expect(phone.locator("button[data-act]:not(:disabled)").first).to_be_visible()

    def refused(route) -> None:  # as the server answers a move on a version a time-out passed
        route.fulfill(status=409, content_type="application/problem+json", body=json.dumps({
            "type": "/problems/stale-version", "title": "Conflict", "status": 409,
            "detail": "Your time ran out and a bot played your turn."}))

    def away(route) -> None:  # the seat as a time-out leaves it
        view = route.fetch().json()
        view["players"][seat]["away"] = True
        route.fulfill(status=200, content_type="application/json", body=json.dumps(view))

    phone.route(f"**{path}/actions", refused)
    phone.route(f"**{path}", away)
    phone.locator("button[data-act]:not(:disabled)").first.click()
    expect(phone.locator("#status")).to_have_text(
        "Your move was not played: your time ran out and a bot played your turn. Your next "
        "move has your seat back.")


def test_a_player_who_joined_a_waiting_match_may_leave_it_and_the_seat_opens_again(open_phone,
                                                                                   server):
    # A seat joined could not be given up from the page before the match began: only its link
    # was offered, to copy.
    created = create(server, "dig", ["Ann", {"open": True}, {"open": True}])
    bob = open_phone(go=False)
    bob.goto(f"/play/{created['id']}?seat=1")
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Join seat 2").click()
    expect(bob.get_by_text("you", exact=True)).to_be_visible()
    leave = bob.get_by_role("button", name="Leave this match")
    leave.click()
    dialog = bob.get_by_role("dialog")
    expect(dialog).to_contain_text("Your seat opens again for someone else to join.")
    dialog.get_by_role("button", name="Cancel").click()
    expect(bob.get_by_text("you", exact=True)).to_be_visible()
    leave.click()
    bob.get_by_role("dialog").get_by_role("button", name="Leave this match").click()
    expect(bob.get_by_text("you", exact=True)).to_have_count(0)
    seats = bob.get_by_role("list", name="Seats").get_by_role("listitem")
    expect(seats.nth(1)).to_contain_text("open seat")
    assert created["id"] not in held(bob)
    assert call(server, f"/api/v1/matches/{created['id']}")["players"][1]["name"] is None
    # The phone may join again, as any phone may; it was not told its seat was taken from it.
    expect(bob.get_by_role("button", name=re.compile("^Join"))).to_be_visible()
    bob.wait_for_timeout(500)
    expect(bob.locator("#status")).not_to_contain_text("no longer holds a seat")


def test_every_checkbox_of_the_play_page_is_as_big_as_a_thumb_needs(open_phone, server):
    # "List it in the lobby" and "As a spectator sees it" were 28 px boxes.
    created = create(server, "digging-for-dinos", ["Ann", {"name": "Rex", "bot": "random"}])
    call(server, f"/api/v1/matches/{created['id']}/leave", {}, token=created["seats"][0]["token"])
    ann = seated(open_phone, created, 0, "digging-for-dinos")
    for url, label in (("/play", "List it in the lobby, so anyone can join"),
                       (f"/play/{created['id']}/replay", "As a spectator sees it")):
        ann.goto(url)
        box = ann.get_by_label(label).bounding_box()
        assert min(box["width"], box["height"]) >= 44, (label, box)


def test_a_korean_phone_names_every_chance_card_in_korean(open_phone, server):
    # The chance cards only a match shows (drawn, put on the board, played) were named as the
    # box names them, in English: "Hazardous Area", "Second Wind".
    cards = {card["id"]: card["name"] for card in call(server, "/api/v1/games/dig-it-up")["cards"]}
    for seed in (2, 4):
        created = create(server, "dig-it-up", [{"name": "Rex", "bot": "greedy"},
                                               {"name": "Max", "bot": "random"}],
                         variant="small", seed=seed)
        page = seated(open_phone, created, None, "dig-it-up", locale="ko-KR")
        expect(page.get_by_role("heading", name="결과")).to_be_visible()
        shown = page.locator("main").inner_text()
        assert not [name for name in cards.values() if name in shown], seed
        named = page.evaluate("""(ids) => import('/web/i18n.js')
          .then(({ item }) => ids.map((id) => item('chance', id, 'English')))""", list(cards))
        assert "English" not in named, dict(zip(cards, named, strict=True))


NO_ANSWER = ("No answer from the server: your request may have reached it. It is sent again once "
             "the connection is back, and done only once.")


def lose_first_answer(page: Page, url: str, heard: bool = True, answers: int = 1,
                      hold: list | None = None) -> list[str]:
    """The first request to `url` that changes something (not a GET) reaches the server, which
    acts on it; its answer never reaches the phone (the connection dropped), nor do those of the
    first `answers`. The Idempotency-Key of each such request sent there, in order. `heard`: the
    page's status lines are kept from now on (HEAR_STATUS; a page not yet opened keeps them only
    as it says them). `hold`: the request sent again is put there, not sent on until released
    (release()), so that what the page says meanwhile can be read however slow the machine."""
    keys: list[str] = []

    def answer_lost(route) -> None:
        if route.request.method == "GET":
            return route.continue_()
        keys.append(route.request.headers.get("idempotency-key"))
        if hold is not None and len(keys) == answers + 1:
            return hold.append(route)
        if len(keys) > answers:
            return route.continue_()
        route.fetch()
        return route.abort()

    page.route(url, answer_lost)
    if heard:
        page.evaluate(HEAR_STATUS)
    return keys


def release(page: Page, waiting: list) -> None:
    """The request lose_first_answer held, sent on once the page has sent it."""
    for _ in range(500):
        if waiting:
            return waiting.pop().continue_()
        page.wait_for_timeout(20)
    raise AssertionError("the page did not send its request again")


def has_said(page: Page, words: str) -> None:
    """Waits until the page's status line has said `words` (HEAR_STATUS), however briefly: a
    line read after it was gone (4 s) was missed on a busy machine."""
    page.wait_for_function("(words) => window.said.includes(words)", arg=words)


def sent_again_once(page: Page, keys: list[str]) -> None:
    """The request whose answer was lost was sent again once, with its key, and the page never
    said that nothing was sent."""
    has_said(page, "The server answered: your request is done.")
    said = page.evaluate("window.said")
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1], keys
    assert not [words for words in said if "nothing was sent" in words], said
    assert NO_ANSWER in said, said


def kinds(server: Server, match: str) -> list[str]:
    """The kinds of the match log's table entries (join, leave, …), in order."""
    return [e["action"]["type"] for e in call(server, f"/api/v1/matches/{match}/log")["log"]]


def test_a_join_whose_answer_was_lost_is_sent_again_and_takes_one_seat(open_phone, server):
    # The connection dropped after the server seated the player: the page said "nothing was
    # sent", kept no token, and a second tap took another seat (or was refused the name).
    created = create(server, "dig", ["Ann", {"open": True}, {"open": True}])
    bob = open_phone(go=False, allow_network_errors=True)
    bob.goto(f"/play/{created['id']}")
    bob.get_by_label("Your name").fill("Bob")
    # With no network on the phone, nothing was sent indeed.
    bob.context.set_offline(True)
    bob.get_by_role("button", name="Join").click()
    expect(bob.locator("#status")).to_contain_text("nothing was sent")
    bob.context.set_offline(False)
    assert call(server, f"/api/v1/matches/{created['id']}")["players"][1]["name"] is None
    keys = lose_first_answer(bob, "**/join")
    bob.get_by_role("button", name="Join").click()
    mine = bob.get_by_role("list", name="Seats").locator("li.me")
    expect(mine).to_contain_text("Bob")
    sent_again_once(bob, keys)
    view = call(server, f"/api/v1/matches/{created['id']}")
    assert [p["name"] for p in view["players"]] == ["Ann", "Bob", None]
    assert kinds(server, created["id"]).count("join") == 1
    kept = held(bob)[created["id"]]
    assert kept["seat"] == 1 and call(server, f"/api/v1/matches/{created['id']}",
                                      token=kept["token"])["you"] == 1


def test_a_join_whose_answers_were_lost_again_and_again_keeps_its_seat_across_a_reload(
        open_phone, server):
    # Sent again once, a join whose second answer was lost too left the player seated on the
    # server with no token on the phone: the seat was theirs, and they could never play it.
    created = create(server, "dig", ["Ann", {"open": True}, {"open": True}])
    bob = open_phone(go=False, allow_network_errors=True)
    bob.goto(f"/play/{created['id']}")
    keys = lose_first_answer(bob, "**/join", heard=False, answers=3)
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Join").click()
    lost_twice(bob, keys)
    bob.reload()  # with two answers lost: the phone keeps the join, and sends it again
    mine = bob.get_by_role("list", name="Seats").locator("li.me")
    expect(mine).to_contain_text("Bob", timeout=30_000)
    assert len(keys) == 4 and len(set(keys)) == 1 and keys[0], keys
    assert kinds(server, created["id"]).count("join") == 1
    kept = held(bob)[created["id"]]
    assert kept["seat"] == 1 and call(server, f"/api/v1/matches/{created['id']}",
                                      token=kept["token"])["you"] == 1
    assert bob.evaluate("localStorage.getItem('digsite.play.pending')") == "{}"


def test_a_join_not_answered_yet_offers_no_other_seat_or_name_meanwhile(open_phone, server):
    # With the join's answer lost, the page showed the form again, and the seat just taken under
    # the player's own name as "already taken: join another open seat": the player joined again
    # as someone else, and the match began with a seat no phone held.
    created = create(server, "dig", ["Ann", {"open": True}, {"open": True}])
    bob = open_phone(go=False, allow_network_errors=True)
    bob.goto(f"/play/{created['id']}?seat=1")
    keys: list[str] = []
    losing = [True]

    def answer_lost(route) -> None:
        keys.append(route.request.headers.get("idempotency-key"))
        if not losing[0]:
            return route.continue_()
        route.fetch()
        return route.abort()

    bob.route("**/join", answer_lost)
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Join seat 2").click()
    seats = bob.get_by_role("list", name="Seats")
    expect(seats).to_contain_text("Bob", timeout=15_000)  # the server's view: the seat is taken
    lost_twice(bob, keys)
    expect(bob.locator("#play-joining")).to_have_text(re.compile("Joining as Bob"))
    expect(bob.get_by_label("Your name")).to_have_count(0)
    expect(bob.get_by_role("button", name=re.compile("^Join"))).to_have_count(0)
    expect(bob.locator("#play-seat-taken")).to_have_count(0)
    losing[0] = False
    expect(seats.locator("li.me")).to_contain_text("Bob", timeout=30_000)
    expect(bob.locator("#play-joining")).to_have_count(0)
    assert len(set(keys)) == 1 and kinds(server, created["id"]).count("join") == 1
    assert held(bob)[created["id"]]["seat"] == 1


def test_a_join_refused_offers_the_form_again(open_phone, server):
    # A join refused (a name already at the table) left the page on "Joining as Ann…" with no
    # form: the table read again had not changed, and was not drawn again.
    created = create(server, "dig", ["Ann", {"open": True}, {"open": True}])
    bob = open_phone(go=False, allow_network_errors=True)  # the refusal's 409
    bob.goto(f"/play/{created['id']}?seat=1")
    bob.get_by_label("Your name").fill("Ann")
    bob.get_by_role("button", name="Join seat 2").click()
    expect(bob.locator("#status")).to_contain_text("Ann")
    expect(bob.get_by_label("Your name")).to_be_visible()
    expect(bob.locator("#play-joining")).to_have_count(0)
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Join seat 2").click()
    expect(bob.get_by_role("list", name="Seats").locator("li.me")).to_contain_text("Bob")


def lost_twice(page: Page, keys: list[str]) -> None:
    """Waits for a second request to have lost its answer."""
    deadline = time.monotonic() + 20
    while len(keys) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert len(keys) == 2, keys


@pytest.mark.parametrize("reached", [True, False], ids=["taken", "never-got"])
def test_a_leave_whose_answers_were_lost_is_not_said_to_be_a_new_link_after_a_reload(
        open_phone, server, reached):
    # The leave's answer and its resend's were lost: the page said "not known", and once it read
    # the table again, the token the leave had made void read as the seat given a new link. A
    # leave the server never got is sent again after the reload, with its key.
    created = create(server, "dig", ["Ann", "Bob", {"open": True}])
    bob = seated(open_phone, created, 1, "dig", allow_network_errors=True)
    expect(bob.get_by_text("you", exact=True)).to_be_visible()
    bob.route("**/events*", lambda route: route.abort())  # the seat's stream does not tell it
    keys: list[str] = []

    def answer_lost(route) -> None:
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) > 2:
            return route.continue_()
        if reached:
            route.fetch()
        return route.abort()

    bob.route("**/leave", answer_lost)
    bob.get_by_role("button", name="Leave this match").click()
    bob.get_by_role("dialog").get_by_role("button", name="Leave this match").click()
    lost_twice(bob, keys)
    bob.reload()
    seats = bob.get_by_role("list", name="Seats")
    expect(seats.get_by_role("listitem").nth(1)).to_contain_text("open seat")
    expect(bob.get_by_role("button", name=re.compile("^Join"))).to_be_visible()
    expect(bob.get_by_text("new link")).to_have_count(0)
    assert bob.evaluate("localStorage.getItem('digsite.play.lost')") in (None, "[]")
    assert created["id"] not in held(bob)
    assert kinds(server, created["id"]).count("leave") == 1 and len(set(keys)) == 1
    bob.wait_for_function("() => localStorage.getItem('digsite.play.pending') === '{}'")


def leave_never_got(open_phone, server) -> tuple[dict, Page]:
    """Bob's phone, at a DIG table waiting for its third player, leaves it; the leave never
    reaches the server (the phone keeps it, to send again): not from this page, whose tries
    again are lost too, only from the next page opened (a reload, another address)."""
    created = create(server, "dig", ["Ann", "Bob", {"open": True}])
    bob = seated(open_phone, created, 1, "dig", allow_network_errors=True)
    expect(bob.get_by_text("you", exact=True)).to_be_visible()
    opened = [0]  # the pages opened since
    bob.on("framenavigated", lambda frame: frame == bob.main_frame
           and opened.__setitem__(0, opened[0] + 1))
    sent: list[str] = []
    bob.route("**/leave", lambda route: route.fallback() if opened[0]
              else (sent.append(route.request.url), route.abort()))
    bob.get_by_role("button", name="Leave this match").click()
    bob.get_by_role("dialog").get_by_role("button", name="Leave this match").click()
    for _ in range(300):
        if sent:
            break
        bob.wait_for_timeout(50)
    assert sent, "the leave was not sent"
    return created, bob


def test_a_leave_kept_on_the_phone_reaches_a_match_begun_meanwhile_and_keeps_the_seat(
        open_phone, server):
    # A leave the server never got, kept on the phone, stayed there once the match had begun:
    # it was not sent again, and a new link the host later gave the seat read as the leave.
    created, bob = leave_never_got(open_phone, server)
    bob.goto("/manifest.webmanifest")  # the page put away before it could hear of the match
    call(server, f"/api/v1/matches/{created['id']}/join", {"name": "Cy"})  # the match begins
    bob.goto(f"/play/{created['id']}")  # and opened again
    expect(bob.locator("#status")).to_have_text(
        "The match has begun: your seat is still yours. Leave it again to have a bot play it to "
        "the end.")
    assert "leave" not in kinds(server, created["id"])
    bob.wait_for_function("() => localStorage.getItem('digsite.play.pending') === '{}'")
    expect(bob.get_by_text("you", exact=True)).to_be_visible()
    new_link(server, created["id"], 1, created["host_token"])  # Bob away a minute, page open
    expect(bob.locator("#play-seat-lost")).to_contain_text("new link", timeout=15_000)


def test_a_leave_kept_under_a_token_since_replaced_is_answered_once(open_phone, server):
    # A leave kept on the phone under the seat's old token, the seat given a new link since and
    # opened here: every reading of the table sent the leave again, under the new token, and
    # said the match had begun, the old one kept for a day.
    created, bob = leave_never_got(open_phone, server)
    match = created["id"]
    # the page put away first: one left open hears of the new link, and forgets the seat and
    # its leave with it
    bob.goto("/manifest.webmanifest")
    call(server, f"/api/v1/matches/{match}/join", {"name": "Cy"})  # the match begins
    new = new_link(server, match, 1, created["host_token"])  # Bob away a minute since
    counted: list[str] = []
    bob.route("**/leave", lambda route: (counted.append(1), route.continue_()))
    bob.goto(f"/play/{match}#seat=1&token={new}")
    expect(bob.locator("#status")).to_contain_text("The match has begun: your seat is still yours")
    bob.wait_for_function("() => localStorage.getItem('digsite.play.pending') === '{}'")
    for _ in range(2):
        bob.reload()
        expect(bob.get_by_text("you", exact=True)).to_be_visible()
    bob.wait_for_timeout(500)
    assert len(counted) == 1 and "leave" not in kinds(server, match)


def test_leaving_a_waiting_match_whose_answer_was_lost_leaves_it_once(open_phone, server):
    # The seat was given up but the answer lost: the page said "nothing was sent" and went on
    # showing the seat as this phone's, its token one the server no longer knew.
    created = create(server, "dig", ["Ann", "Bob", {"open": True}])
    bob = seated(open_phone, created, 1, "dig", allow_network_errors=True)
    expect(bob.get_by_text("you", exact=True)).to_be_visible()
    keys = lose_first_answer(bob, "**/leave")
    bob.get_by_role("button", name="Leave this match").click()
    bob.get_by_role("dialog").get_by_role("button", name="Leave this match").click()
    expect(bob.get_by_text("you", exact=True)).to_have_count(0)
    expect(bob.get_by_role("list", name="Seats").get_by_role("listitem").nth(1)).to_contain_text(
        "open seat")
    # done once: sent again with its key, unless the seat's stream told it first
    has_said(bob, "The server answered: your request is done.")
    said = bob.evaluate("window.said")
    assert len(keys) in (1, 2) and len(set(keys)) == 1 and keys[0], keys
    assert not [words for words in said if "nothing was sent" in words], said
    assert created["id"] not in held(bob)
    assert kinds(server, created["id"]).count("leave") == 1
    expect(bob.get_by_role("button", name=re.compile("^Join"))).to_be_visible()


def test_a_match_called_off_whose_answer_was_lost_is_called_off_and_left(open_phone, server):
    # The match was called off but the answer lost: the page said "nothing was sent" and stayed
    # on a match that was gone.
    created = create(server, "dig", ["Ann", {"open": True}])
    ann = seated(open_phone, created, 0, "dig", host=True, allow_network_errors=True)
    waiting: list = []
    keys = lose_first_answer(ann, f"**/api/v1/matches/{created['id']}", hold=waiting)
    ann.get_by_role("button", name="Call off this match").click()
    ann.get_by_role("dialog").get_by_role("button", name="Call off this match").click()
    # said before the page goes back to the setup (a new page, where the first's words are gone)
    expect(ann.locator("#status")).to_have_text(NO_ANSWER)
    release(ann, waiting)
    ann.wait_for_url(re.compile(r"/play$"))
    assert len(keys) == 2, keys
    assert created["id"] not in held(ann)
    with pytest.raises(urllib.error.HTTPError) as gone:
        call(server, f"/api/v1/matches/{created['id']}")
    assert gone.value.code == 410


def test_leaving_a_match_in_play_whose_answer_was_lost_leaves_it_once(open_phone, server):
    created = create(server, "dig", ["Ann", "Bob"])
    bob = seated(open_phone, created, 1, "dig", allow_network_errors=True)
    mine = bob.get_by_role("list", name="Seats").locator("li.me")
    expect(mine).to_contain_text("Bob")
    keys = lose_first_answer(bob, "**/leave")
    bob.get_by_role("button", name="Leave (a bot takes over)").click()
    bob.get_by_role("dialog").get_by_role("button", name="Leave (a bot takes over)").click()
    expect(mine.get_by_text("away: a bot plays", exact=True)).to_be_visible()
    expect(bob.get_by_role("button", name="Leave (a bot takes over)")).to_have_count(0)
    sent_again_once(bob, keys)
    assert kinds(server, created["id"]).count("leave") == 1
    assert call(server, f"/api/v1/matches/{created['id']}")["players"][1]["bot"]


def test_a_rematch_whose_answer_was_lost_is_claimed_again_and_opened(open_phone, server):
    created = create(server, "digging-for-dinos", ["Ann", {"name": "Rex", "bot": "random"}])
    call(server, f"/api/v1/matches/{created['id']}/leave", {},
         token=created["seats"][0]["token"])
    ann = seated(open_phone, created, 0, "digging-for-dinos", allow_network_errors=True)
    expect(ann.get_by_role("heading", name="Result")).to_be_visible()
    waiting: list = []
    keys = lose_first_answer(ann, "**/rematch", hold=waiting)
    ann.locator("#play-rematch").click()
    # said before the page opens the rematch (a new page, where the first's words are gone)
    expect(ann.locator("#status")).to_have_text(NO_ANSWER)
    release(ann, waiting)
    ann.wait_for_url(re.compile(rf"/play/(?!{created['id']})[0-9a-f]+$"))
    expect(ann.get_by_role("list", name="Seats").locator("li.me")).to_contain_text("Ann")
    assert len(keys) == 2 and keys[0] == keys[1], keys
    rematch = call(server, f"/api/v1/matches/{created['id']}")["rematch"]
    assert rematch and rematch in ann.url


def create_listed_dinos(phone: Page, name: str) -> None:
    """On the setup page: a listed Digging for Dinos match of `name` and an open seat, asked for."""
    phone.goto("/play")
    dinos = phone.get_by_role("button", name="Digging for Dinos", exact=True)
    dinos.click()
    expect(dinos).to_have_attribute("aria-pressed", "true")
    phone.get_by_label("Seat 1 name").fill(name)
    phone.get_by_label("Seat 2", exact=True).select_option("open")
    phone.get_by_label("List it in the lobby, so anyone can join").check()
    phone.get_by_role("button", name="Create the match").click()


def test_a_match_whose_creation_was_answered_too_late_is_made_once_and_opened(open_phone, server):
    # The connection dropped after the server made the match: the page said "nothing was sent",
    # and a second tap made a second match, listed beside the first.
    phone = open_phone(go=False, allow_network_errors=True)
    waiting: list = []
    keys = lose_first_answer(phone, "**/api/v1/games/*/matches", heard=False, hold=waiting)
    create_listed_dinos(phone, "Zoe")
    expect(phone.locator("#status")).to_have_text(NO_ANSWER)
    release(phone, waiting)
    phone.wait_for_url(re.compile(r"/play/[0-9a-f]+$"))
    expect(phone.get_by_role("list", name="Seats").locator("li.me")).to_contain_text("Zoe")
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1], keys
    listed = call(server, f"{DINOS}?status=waiting&limit=100")["matches"]
    zoes = [m["id"] for m in listed if any(s.get("name") == "Zoe" for s in m["seats"])]
    assert zoes == [match_id(phone)], zoes
    assert held(phone)[match_id(phone)]["host"]


def test_a_match_whose_creation_lost_answer_after_answer_is_made_once_across_a_reload(
        open_phone, server):
    # Sent again once, a creation whose second answer was lost too made the match and left the
    # phone with none of its tokens: its host could neither play it nor call it off.
    phone = open_phone(go=False, allow_network_errors=True)
    keys = lose_first_answer(phone, "**/api/v1/games/*/matches", heard=False, answers=3)
    create_listed_dinos(phone, "Yan")
    lost_twice(phone, keys)
    phone.reload()  # the phone keeps the creation, and sends it again with its key
    phone.wait_for_url(re.compile(r"/play/[0-9a-f]+$"), timeout=30_000)
    expect(phone.get_by_role("list", name="Seats").locator("li.me")).to_contain_text("Yan")
    assert len(keys) == 4 and len(set(keys)) == 1 and keys[0], keys
    listed = call(server, f"{DINOS}?status=waiting&limit=100")["matches"]
    yans = [m["id"] for m in listed if any(s.get("name") == "Yan" for s in m["seats"])]
    assert yans == [match_id(phone)], yans
    assert held(phone)[match_id(phone)]["host"] and held(phone)[match_id(phone)]["token"]


def test_every_move_is_said_to_a_screen_reader_and_the_end_names_the_winner(
        open_phone, server):
    # The moves list is no live region: against a bot nothing was said after "End turn" for the
    # whole match, and "Finished" said not who won. One's own moves were not said either, and
    # what a dig turned up (a random tile) was known only by reading the list.
    created = create(server, "digging-for-dinos", ["Ann", {"name": "Rex", "bot": "greedy"}])
    ann = seated(open_phone, created, 0, "digging-for-dinos")
    heard = ann.locator("#play-heard")
    expect(heard).to_have_attribute("aria-live", "polite")
    said = []
    for _ in range(6):  # Ann's moves, until she has dug a tile and the bot has moved after her
        ann = to_play([ann])
        tap(ann, [a for a in offered(ann) if a["type"] != "undo"][0]["index"])
        expect(heard).not_to_have_text(said[-1] if said else "")
        said.append(heard.text_content())
        if " took " in said[-1]:
            break
    # her own move and the tile it turned up ("Ann moved → to row 1, column 3 — Ann took
    # Deinosuchus 2"), then the bot's
    assert re.match(r"Ann moved \S+ to row \d, column \d — Ann took \w+ \d\. Rex ", said[-1]), said
    # the rest played by a bot for Ann, to the end
    call(server, f"/api/v1/matches/{created['id']}/leave", {}, token=created["seats"][0]["token"])
    deadline = time.monotonic() + 30
    while (finished := call(server, f"/api/v1/matches/{created['id']}"))["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    winners = ", ".join(finished["result"]["winners"])
    expect(ann.locator("#play-turn")).to_have_text(f"Finished — won by {winners}")


def test_the_moves_a_page_opens_on_are_not_said_again(open_phone, server):
    # The page shows the latest moves from the log as it opens; each was said again, as if just
    # played, every time the page was opened or reloaded.
    created = create(server, "digging-for-dinos", ["Ann", "Bob"], seed=3)
    tokens = [seat["token"] for seat in created["seats"]]
    path = f"/api/v1/matches/{created['id']}"

    def play(seat_of_move: int | None = None) -> None:
        seat = call(server, path)["to_act"][0] if seat_of_move is None else seat_of_move
        mine = call(server, path, token=tokens[seat])
        call(server, f"{path}/actions", {"action": mine["legal_actions"][0],
                                          "version": mine["version"]}, token=tokens[seat])

    for _ in range(3):
        play()
    ann = seated(open_phone, created, 0, "digging-for-dinos")
    expect(ann.locator("#play-recent")).to_contain_text("placed")  # the moves shown
    heard = ann.locator("#play-heard")
    ann.wait_for_timeout(1000)  # past the moment heard moves are said
    expect(heard).to_have_text("")
    play()  # the next move, from another phone: said
    expect(heard).to_contain_text("placed")
    ann.reload()
    ann.wait_for_timeout(1000)
    expect(ann.locator("#play-heard")).to_have_text("")


def test_the_host_of_a_match_hosts_its_rematch_and_hands_a_seat_never_claimed_to_a_bot(
        open_phone, server):
    # A rematch had no host: Ann claimed it, Bob never came back, and nobody could give Bob's
    # seat to a bot. Each claim read "Ann's seat was given a new link", as if the host had.
    created = create(server, "digging-for-dinos", ["Ann", "Bob"])
    for seat in (0, 1):  # both leave: bots play the match to its end
        call(server, f"/api/v1/matches/{created['id']}/leave", {},
             token=created["seats"][seat]["token"])
    ann = seated(open_phone, created, 0, "digging-for-dinos", host=True)
    expect(ann.get_by_role("heading", name="Result")).to_be_visible()
    ann.locator("#play-rematch").click()
    ann.wait_for_url(re.compile(rf"/play/(?!{created['id']})[0-9a-f]+$"))
    expect(ann.locator("#play-recent")).to_contain_text("Ann took their seat")
    expect(ann.locator("#play-recent")).not_to_contain_text("new link")
    expect(ann.get_by_text("The players' seats (you are the host)")).to_be_visible()
    # Bob has not claimed the rematch: the seats and, once it is his turn, the turn line say so
    # (the match waited for him with no word of why, "Bob to play", Bob "offline")
    rematch = ann.url.rsplit("/", 1)[1]
    bob = ann.get_by_role("list", name="Seats").get_by_role("listitem").filter(has_text="Bob")
    expect(bob).to_contain_text("not in the rematch yet")
    expect(bob).not_to_contain_text("offline")
    for _ in range(4):  # Ann's placements, until Bob is to play
        view = call(server, f"/api/v1/matches/{rematch}")
        bobs = [p["seat"] for p in view["players"] if p["name"] == "Bob"]
        assert [p["unclaimed"] for p in view["players"] if p["name"] == "Bob"] == [True]
        if view["to_act"] == bobs:
            break
        tap(ann, [a for a in offered(ann) if a["type"] != "undo"][0]["index"])
    expect(ann.locator("#play-turn")).to_have_text(
        "Bob: not in the rematch yet. It goes on once they join it, or once you give their seat "
        "to a bot (below).")
    ann.get_by_role("button", name="Give Bob's seat to a bot").click()
    ann.get_by_role("dialog").get_by_role("button", name="Give it to a bot").click()
    expect(ann.get_by_role("button", name="Give Bob's seat to a bot")).to_have_count(0)
    view = call(server, f"/api/v1/matches/{ann.url.rsplit('/', 1)[1]}")
    assert [p["bot"] for p in view["players"] if p["name"] == "Bob"] == [view["stand_in_bot"]]


def finished_with_a_rematch(server: Server) -> tuple[dict, str]:
    """Ann and Bob's match played to its end by bots, and its rematch opened by Bob."""
    created = create(server, "digging-for-dinos", ["Ann", "Bob"])
    for seat in (0, 1):  # both leave: bots play the match to its end
        call(server, f"/api/v1/matches/{created['id']}/leave", {},
             token=created["seats"][seat]["token"])
    rematch = call(server, f"/api/v1/matches/{created['id']}/rematch", {},
                   token=created["seats"][1]["token"])["id"]
    return created, rematch


def test_a_player_whose_rematch_seat_a_bot_plays_is_offered_to_watch_it(open_phone, server):
    # The host gave Ann's seat of the rematch to a bot: her phone still offered "Join the
    # rematch", and a tap said only "A bot plays that seat in the rematch."
    created, rematch = finished_with_a_rematch(server)
    ann_there = 1  # seats rotate by one
    call(server, f"/api/v1/matches/{rematch}/seats/{ann_there}/bot", {},
         token=created["host_token"])
    ann = seated(open_phone, created, 0, "digging-for-dinos")
    expect(ann.get_by_role("heading", name="Result")).to_be_visible()
    expect(ann.get_by_role("button", name="Join the rematch")).to_have_count(0)
    expect(ann.locator("#play-rematch-bot")).to_have_text(
        "A bot plays your seat in the rematch: the host gave it one.")
    ann.get_by_role("link", name="Watch the rematch").click()
    ann.wait_for_url(re.compile(rf"/play/{rematch}$"))
    expect(ann.get_by_role("list", name="Seats")).to_contain_text("Bob")
    assert rematch not in held(ann)  # watched: no seat of it is this phone's


def test_a_rematch_seat_given_to_a_bot_after_the_page_read_it_turns_the_join_into_a_watch(
        open_phone, server):
    created, rematch = finished_with_a_rematch(server)
    ann = seated(open_phone, created, 0, "digging-for-dinos", allow_network_errors=True)
    join = ann.get_by_role("button", name="Join the rematch")
    expect(join).to_be_visible()
    call(server, f"/api/v1/matches/{rematch}/seats/1/bot", {}, token=created["host_token"])
    join.click()
    expect(ann.locator("#status")).to_contain_text("A bot plays that seat in the rematch.")
    expect(ann.get_by_role("link", name="Watch the rematch")).to_be_visible()
    expect(ann.get_by_role("button", name="Join the rematch")).to_have_count(0)


def test_a_dinos_result_fits_a_narrow_phone_with_larger_text(open_phone, server):
    # At 150% on a 320 px phone the result was 387 px wide: each "Completed" line of a
    # breakdown kept "Tyrannosaurus 24" beside its term; and the ranking read "Bo/b", "An/n".
    created = create(server, "digging-for-dinos", [{"name": "Bob", "bot": "greedy"},
                                                   {"name": "Ann", "bot": "random"}])
    page = seated(open_phone, created, None, "digging-for-dinos", width=320)
    page.context.new_cdp_session(page).send("Page.setFontSizes",
                                            {"fontSizes": {"standard": 24}})
    page.reload()
    expect(page.get_by_role("heading", name="Result")).to_be_visible()
    for details in page.locator("details.breakdown:not([open]) summary").all():
        details.click()
    assert page.evaluate("[document.documentElement.scrollWidth, innerWidth]") == [320, 320]
    assert page.evaluate(WORDS_CUT, ".ranking .who") == []


def test_the_lobby_and_the_join_page_say_the_variant_and_the_clock_a_player_joins(open_phone,
                                                                                  server):
    # A player joined a "1 minute a move" match knowing nothing of its clock, and had 59 s to
    # choose a mission once it began; the lobby's entry named only the game and its seats.
    create(server, "dig-it-up", ["Ann", {"open": True}], variant="small", listed=True,
           clock={"move_seconds": 60})
    bob = open_phone(go=False)
    bob.goto("/play")
    entry = bob.locator("#lobby li").first
    expect(entry).to_contain_text("Dig It Up · 2–3 players · 1 minute a move · Ann, open seat")
    entry.get_by_role("link").click()
    expect(bob.locator("#play-terms")).to_have_text("2–3 players · 1 minute a move")
    expect(bob.get_by_role("heading", name="Join this match")).to_be_visible()


def test_the_matches_on_this_phone_say_which_are_over_and_whose_turn_it_is(open_phone, server):
    """The list of this phone's matches said only the game, the name and when: a match over,
    or called off, looked as one waiting for its player. Each now says what it was doing when
    last seen, and those not over are asked again as the page opens (a match may have ended
    while the phone was away)."""
    duels = [create(server, "dig", ["Ann", "Bob"], seed=3) for _ in range(2)]
    first = call(server, f"/api/v1/matches/{duels[0]['id']}")["to_act"][0]
    placing = create(server, "digging-for-dinos", ["Ann", "Bob"], seed=3)  # its set-up
    placer = call(server, f"/api/v1/matches/{placing['id']}")["to_act"][0]
    waiting = create(server, "dig", ["Ann", {"open": True}])
    ended = create(server, "dig", [{"name": "R1", "bot": "random"},
                                   {"name": "R2", "bot": "random"}], seed=5)
    called_off = create(server, "dig", ["Ann", {"open": True}])
    request = urllib.request.Request(f"{server.url}/api/v1/matches/{called_off['id']}",
                                     method="DELETE", headers={
                                         "Authorization": f"Bearer {called_off['host_token']}"})
    assert urllib.request.urlopen(request, timeout=30).status == 204

    def seat(created, n, at):
        return {"game": "dig", "seat": n, "token": created["seats"][n]["token"],
                "name": created["seats"][n]["name"], "at": at}

    now = int(time.time() * 1000)
    kept = {  # the latest kept first; as last seen here, none was over
        ended["id"]: {"game": "dig", "host": ended["host_token"], "at": now, "status": "playing"},
        called_off["id"]: {**seat(called_off, 0, now - 1000), "status": "waiting"},
        duels[0]["id"]: seat(duels[0], first, now - 2000),
        duels[1]["id"]: seat(duels[1], 1 - first, now - 3000),
        waiting["id"]: seat(waiting, 0, now - 4000),
        placing["id"]: {**seat(placing, placer, now - 5000), "game": "digging-for-dinos"},
    }
    seen = [p["last_seen"] for d in duels for p in call(
        server, f"/api/v1/matches/{d['id']}")["players"]]
    phone = open_phone(go=False, allow_network_errors=True)  # the match called off: 410
    stored = json.dumps(json.dumps(kept))
    phone.context.add_init_script(
        f"if (!localStorage.getItem('digsite.play.seats')) "
        f"localStorage.setItem('digsite.play.seats', {stored})")
    phone.goto("/play")
    links = phone.locator("#mine a")
    expect(links).to_have_count(6)
    names = [duels[0]["seats"][first]["name"], duels[1]["seats"][1 - first]["name"]]
    expect(links.nth(0)).to_contain_text(f"DIG · {names[0]} · your turn · ")
    expect(links.nth(1)).to_contain_text(f"DIG · {names[1]} · under way · ")
    expect(links.nth(2)).to_contain_text("DIG · Ann · waiting for players · ")
    # a set-up is under way, and its placing the turn of the seat to place
    expect(links.nth(3)).to_contain_text(
        f"Digging for Dinos · {placing['seats'][placer]['name']} · your turn · ")
    # those over come after the others, however lately kept
    expect(links.nth(4)).to_contain_text("DIG · host · finished · ")
    expect(links.nth(4)).to_have_attribute("href", f"/play/{ended['id']}")
    expect(links.nth(5)).to_contain_text("DIG · Ann · gone · ")
    # asked as a spectator: nobody is shown at the table for a look at the list
    assert [p["last_seen"] for d in duels for p in call(
        server, f"/api/v1/matches/{d['id']}")["players"]] == seen


def test_a_seat_joined_before_the_browser_was_killed_is_still_this_phone_s(open_phone, server):
    # A browser writes localStorage out to its disk up to a minute late: killed just after the
    # join, the phone forgot the seat and its token, and its player could never play it.
    created = create(server, "dig", ["Ann", {"open": True}])
    bob = open_phone(go=False)
    bob.goto(f"/play/{created['id']}")
    bob.get_by_label("Your name").fill("Bob")
    written_out = on_disk(bob, "digsite.play.seats")
    bob.get_by_role("button", name="Join").click()
    expect(bob.get_by_role("list", name="Seats").locator("li.me")).to_contain_text("Bob")
    copied(bob, "digsite.play.seats")
    lose_since(bob, "digsite.play.seats", written_out)
    bob.close()
    again = bob.context.new_page()
    again.goto(f"/play/{created['id']}")
    expect(again.get_by_role("list", name="Seats").locator("li.me")).to_contain_text("Bob")
    kept = held(again)[created["id"]]
    assert call(server, f"/api/v1/matches/{created['id']}", token=kept["token"])["you"] == 1

"""A live shared tally on the page (README "A live shared tally"): one phone enters and shares,
another follows from the link, read-only, and sees the server's totals as the counts change; the
QR code of the link is drawn by the server."""

import json
import re
import time
from datetime import UTC, datetime, timedelta

import pytest
import requests
import sqlalchemy as sa
from playwright.sync_api import Page, expect

from service.tallies import tallies
from tests.server import call

from .phone import BOWLS, enter, new_tally, run_axe, screenshot, start, tap_bowls, total
from .test_trusted_totals import WIDTHS, amount, dig, minus, shows_not_yet

FOLLOW_URL = "http://192.168.1.20:8000/follow/0123456789abcdef0123456789abcdef"


def test_the_qr_code_of_a_link_is_an_svg_kept_a_day(client):
    response = client.get("/qr.svg", query_string={"text": FOLLOW_URL})
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.headers["Cache-Control"] in ("public, max-age=86400", "max-age=86400, public")
    svg = response.get_data(as_text=True)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert re.search(r'viewBox="0 0 (\d+) \1"', svg), "square, and scaled to its box"
    assert "follow" not in svg, "the text is drawn, never written into the document"


def test_the_qr_code_of_a_link_holding_a_secret_is_posted_and_kept_by_no_cache(client):
    # A seat's new link carries its token: in ?text= it would be written into access logs and
    # kept by shared caches a day.
    secret = "http://192.168.1.20:8000/play/0123456789abcdef0123456789abcdef#seat=1&token=abc"
    response = client.post("/qr.svg", json={"text": secret})
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.get_data() == client.get("/qr.svg", query_string={"text": secret}).get_data()


@pytest.mark.parametrize("body", [{}, {"text": ""}, {"text": 7}, {"text": "x" * 513}, [1]])
def test_a_posted_qr_code_of_no_text_is_refused_in_words(client, body):
    response = client.post("/qr.svg", data=json.dumps(body), content_type="application/json")
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["errors"]["text"] == [
        'Send the text to encode as {"text": …} in a JSON body, 1 to 512 characters.']


@pytest.mark.parametrize(("body", "said"), [
    # Python's JSON reader gave up on 5,000 brackets: a RecursionError, answered 500
    ("[" * 5000 + "]" * 5000, "nested too deeply"),
    ("{", "not valid JSON"),  # read as the API reads a body
])
def test_a_posted_qr_code_of_a_body_that_is_no_json_is_refused_not_a_crash(client, body, said):
    response = client.post("/qr.svg", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.mimetype == "application/problem+json"
    assert said in response.get_json()["detail"]


@pytest.mark.parametrize("query", [{}, {"text": ""}, {"text": "x" * 513}])
def test_a_qr_code_of_no_text_or_too_long_a_text_is_refused(client, query):
    response = client.get("/qr.svg", query_string=query)
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert "text" in response.get_json()["errors"]


def test_a_follow_link_opens_the_page(client):
    response = client.get("/follow/0123456789abcdef0123456789abcdef")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert response.get_data(as_text=True) == client.get("/").get_data(as_text=True)


ANN = {"green": 2, "yellow": 1, "purple": 3, "blue": 2, "red": 2}
BEN = {"green": 1, "yellow": 3, "purple": 1, "blue": 0, "red": 1}


def share_live(page: Page) -> str:
    """Shares the tally on the screen; the follow link it shows."""
    page.get_by_role("button", name="Share live").click()
    panel = page.get_by_role("region", name="Shared live")
    link = panel.get_by_role("link", name=re.compile(r"follow\/"))
    expect(link).to_be_visible()
    qr = panel.get_by_role("img", name="QR code of the follow link")
    expect(qr).to_be_visible()
    # drawn: decode() waits for the image to load
    assert qr.evaluate("img => img.decode().then(() => img.naturalWidth)") > 0
    href = link.get_attribute("href")
    assert link.text_content() == href
    assert re.fullmatch(re.escape(page.url.rstrip("/")) + r"/follow/[0-9a-f]{32}", href), href
    return href


def ann_and_ben_shared(phone: Page) -> str:
    """Ann's and Ben's DIG bones entered on `phone` and shared live; the follow link."""
    start(phone, "DIG", "Ann", "Ben")
    enter(phone, "Ann", ANN)
    enter(phone, "Ben", BEN)
    return share_live(phone)


def following(open_phone, link: str, **phone) -> Page:
    """The table's phone following `link`: its last look, once the sharing ends, answers 404, a
    resource the console notes."""
    table = open_phone(go=False, allow_network_errors=True, **phone)
    table.goto(link)
    return table


def follows(page: Page, answer: dict) -> None:
    """Every total, place and winner the follower shows is the calculator's `answer`."""
    players = answer["players"]
    ranked = sorted(players, key=lambda p: p["rank"])
    standings = page.get_by_role("region", name="Standings")
    for player in players:
        expect(total(page, player["name"])).to_have_text(minus(player["total"]))
        place = page.get_by_role("region", name=player["name"], exact=True).locator(".rank")
        expect(place).to_have_text(re.compile(rf"^{player['rank']}(st|nd|rd|th)"
                                              + (" · winner$" if player["name"] in answer["winners"]
                                                 else "$")))
    expect(standings.locator("li .who")).to_have_text([p["name"] for p in ranked])
    expect(standings.locator("li .pts")).to_have_text([amount(p["total"]) for p in ranked])
    expect(standings.locator("li.won .who")).to_have_text(answer["winners"])
    bar = page.get_by_role("navigation", name="Every player's total")
    expect(bar.locator("a b")).to_have_text([minus(p["total"]) for p in players])


@pytest.mark.parametrize("width", WIDTHS)
def test_the_table_follows_the_entering_phone_live(open_phone, width):
    phone = open_phone(width=width)
    link = ann_and_ben_shared(phone)
    assert not run_axe(phone)

    table = following(open_phone, link, width=width)
    state = table.get_by_role("status").filter(has_text="Live")
    expect(state).to_be_visible()
    follows(table, dig(phone, {"Ann": ANN, "Ben": BEN}))
    expect(table.get_by_text("Read-only")).to_be_visible()
    # each total is an <output>, a live region of its own: a follower's screen reader said a
    # bare number ("0, 3, 8, 14") at every change, with no name; as on the scorer, it is quiet
    totals = table.locator("output[id$='-total']")
    expect(totals).to_have_count(2)
    assert totals.evaluate_all("(els) => els.map((el) => el.getAttribute('aria-live'))") == \
        ["off", "off"]
    expect(table.get_by_role("textbox")).to_have_count(0)
    expect(table.get_by_role("spinbutton")).to_have_count(0)
    screenshot(table, f"live-follower-{width}", full_page=True)
    assert not run_axe(table)
    table.evaluate("window.notReloaded = true")

    # a change on the entering phone reaches the table as it is, and a screen reader hears the
    # new standings (the standings found on opening are read with the page, not said): where
    # no place changed, the total that did
    said = table.locator("#standings-said")
    expect(said).to_have_attribute("aria-live", "polite")
    assert said.text_content() == ""
    enter(phone, "Ben", {"red": 2})
    answer = dig(phone, {"Ann": ANN, "Ben": {**BEN, "red": 2}})
    follows(table, answer)
    ben = next(p for p in answer["players"] if p["name"] == "Ben")
    assert ben["rank"] == 2
    expect(said).to_have_text(f"2nd Ben {amount(ben['total'])}")

    # a count the box cannot hold: the table is told it is still entering, with no totals (and
    # no standings left said)
    enter(phone, "Ann", {"green": 99})
    expect(table.get_by_text("Still entering")).to_be_visible()
    shows_not_yet(table, ["Ann", "Ben"])
    expect(said).to_have_text("")
    enter(phone, "Ann", {"green": 3})
    follows(table, dig(phone, {"Ann": {**ANN, "green": 3}, "Ben": {**BEN, "red": 2}}))
    # the bowls' order taken back, to be tapped again: no total, and no word blaming the counts
    # ("the totals come once the counts are complete", with every count entered)
    phone.locator("#tap-green").click()
    expect(table.get_by_text("Still entering: the totals come once everything is entered.")) \
        .to_be_visible()
    shows_not_yet(table, ["Ann", "Ben"])
    tap_bowls(phone, BOWLS)
    follows(table, dig(phone, {"Ann": {**ANN, "green": 3}, "Ben": {**BEN, "red": 2}}))

    # the entering phone reloaded goes on sharing the same tally
    phone.reload()
    expect(phone.get_by_role("region", name="Shared live")).to_be_visible()
    enter(phone, "Ben", {"blue": 2})
    follows(table, dig(phone, {"Ann": {**ANN, "green": 3}, "Ben": {**BEN, "red": 2, "blue": 2}}))
    assert table.evaluate("window.notReloaded") is True
    assert table.url == link

    # stopped: the phone offers to share again, and the table hears that the sharing ended
    phone.get_by_role("button", name="Stop sharing").click()
    expect(phone.get_by_role("button", name="Share live")).to_be_focused()
    expect(table.get_by_text("its phone stopped sharing it")).to_be_visible()


def test_a_follower_opened_before_anything_is_entered_hears_the_first_standings(open_phone):
    # The link is shared as the game begins: the first standings were taken for those found on
    # opening, and never said.
    phone = open_phone()
    start(phone, "DIG", "Ann", "Ben")
    table = following(open_phone, share_live(phone))
    expect(table.get_by_text("Still entering")).to_be_visible()
    enter(phone, "Ann", ANN)
    enter(phone, "Ben", BEN)
    answer = dig(phone, {"Ann": ANN, "Ben": BEN})
    follows(table, answer)
    places = {1: "1st", 2: "2nd"}
    expect(table.locator("#standings-said")).to_have_text(", ".join(
        f"{places[p['rank']]} {p['name']} {amount(p['total'])}"
        for p in sorted(answer["players"], key=lambda p: p["rank"])))


def test_a_shared_tally_keeps_its_share_when_another_is_started_and_shared(open_phone):
    # The phone kept one share: a new tally shared in its turn overwrote it, so the first
    # tally's followers were left "Live" for weeks, and taken up again it offered "Share live",
    # with nothing to stop the old link.
    phone = open_phone()
    first = ann_and_ben_shared(phone)
    table = following(open_phone, first)
    expect(table.get_by_role("status").filter(has_text="Live")).to_be_visible()
    new_tally(phone)
    start(phone, "DIG", "Cy")
    second = share_live(phone)
    assert second != first
    new_tally(phone)
    phone.get_by_role("button", name=re.compile("Ann 2[0-9]")).click()
    expect(phone.get_by_role("region", name="Shared live").locator("#live-link")
           ).to_have_attribute("href", first)
    enter(phone, "Ben", {"red": 2})  # the first link still follows its tally
    follows(table, dig(phone, {"Ann": ANN, "Ben": {**BEN, "red": 2}}))
    phone.get_by_role("button", name="Stop sharing").click()
    expect(table.get_by_text("its phone stopped sharing it")).to_be_visible()
    phone.reload()  # the other tally's share is still kept
    new_tally(phone)
    phone.get_by_role("button", name=re.compile("Cy")).click()
    expect(phone.get_by_role("region", name="Shared live").locator("#live-link")
           ).to_have_attribute("href", second)


def test_a_share_past_the_newest_twenty_is_stopped_not_left_live(open_phone, server):
    # The phone keeps the newest twenty shares; one dropped from them was left on the server,
    # its followers "Live" for weeks with no phone able to stop it.
    oldest = call(server, "/api/v1/games/dig/tallies", {"sheet": None})
    shares = {"t-oldest": {"of": "t-oldest", "game": "dig", "id": oldest["tally"]["id"],
                           "token": oldest["token"], "sent": "null"}}
    for i in range(19):  # shares of tallies the server no longer has: a DELETE answers 404
        shares[f"t{i}"] = {"of": f"t{i}", "game": "dig", "id": f"{i:032x}", "token": "x",
                           "sent": "null"}
    phone = open_phone(go=False, allow_network_errors=True)
    phone.context.add_init_script(
        f"localStorage.setItem('digsite.shares', {json.dumps(json.dumps(shares))})")
    phone.goto("/")
    start(phone, "DIG", "Ann")
    share_live(phone)
    url = f"{server.url}/api/v1/tallies/{oldest['tally']['id']}"
    deadline = time.monotonic() + 10
    while requests.get(url, timeout=5).status_code == 200:
        assert time.monotonic() < deadline, "the share dropped from the phone is still live"
        time.sleep(0.2)
    kept = json.loads(phone.evaluate("localStorage.getItem('digsite.shares')"))
    assert len(kept) == 20 and "t-oldest" not in kept


def test_a_tally_deleted_from_the_history_stops_its_share_even_with_no_network(open_phone,
                                                                               server):
    # A shared tally kept in the history by "New tally", then deleted, stayed on the server with
    # its writer's token kept on the phone: its followers saw it "Live" for weeks.
    phone = open_phone(allow_network_errors=True)
    first = ann_and_ben_shared(phone)
    table = following(open_phone, first)
    live = table.get_by_role("status").filter(has_text="Live")
    expect(live).to_be_visible()
    answer = dig(phone, {"Ann": ANN, "Ben": BEN})
    new_tally(phone)  # the tally goes to the history, still shared: its table may want the end
    start(phone, "DIG", "Cy")
    second = share_live(phone)
    new_tally(phone)
    follows(table, answer)
    expect(live).to_be_visible()

    def shared() -> dict:
        return json.loads(phone.evaluate("localStorage.getItem('digsite.shares')") or "{}")

    def delete(who: str) -> None:
        phone.get_by_role("listitem").filter(has_text=who).get_by_role(
            "button", name=re.compile("^Delete the DIG tally")).click()
        phone.get_by_role("dialog").get_by_role("button", name="Delete").click()

    assert len(shared()) == 2
    delete("Cy")
    expect(phone.get_by_role("button", name=re.compile("Cy"))).to_have_count(0)
    tally_url = f"{server.url}/api/v1/tallies/{second.rsplit('/', 1)[1]}"
    # Once the server has answered the phone's request to end it (the phone forgets it then).
    phone.wait_for_function("() => Object.keys(JSON.parse("
                            "localStorage.getItem('digsite.shares'))).length === 1 && JSON.parse("
                            "localStorage.getItem('digsite.shares.stopping')).length === 0")
    assert requests.get(tally_url, timeout=5).status_code == 404

    # Deleted with no network: the share is ended once the server can be told, even by a page
    # opened afresh.
    phone.context.set_offline(True)
    delete("Ann")
    expect(phone.get_by_role("button", name=re.compile("Ann"))).to_have_count(0)
    assert shared() == {}
    assert len(json.loads(phone.evaluate("localStorage.getItem('digsite.shares.stopping')"))) == 1
    expect(live).to_be_visible()
    context = phone.context
    phone.close()
    context.set_offline(False)
    again = context.new_page()
    open_phone.watch(again, allow_network_errors=True)
    again.goto("/")
    expect(table.get_by_text("its phone stopped sharing it")).to_be_visible()
    assert requests.get(f"{server.url}/api/v1/tallies/{first.rsplit('/', 1)[1]}",
                        timeout=5).status_code == 404
    again.wait_for_function("() => JSON.parse("
                            "localStorage.getItem('digsite.shares.stopping')).length === 0")


@pytest.mark.service_worker
def test_a_follower_says_when_the_stream_is_down_and_takes_it_up_again(open_phone):
    phone = open_phone()
    start(phone, "DIG", "Ann", "Ben")
    enter(phone, "Ann", ANN)
    table = following(open_phone, share_live(phone))
    expect(table.get_by_role("status").filter(has_text="Live")).to_be_visible()
    table.context.set_offline(True)
    expect(table.get_by_text("Connection lost, reconnecting…")).to_be_visible()
    # The banner says what a follower's page does offline: it works nothing out itself.
    banner = table.locator("#status")
    expect(banner).to_contain_text("Offline — these are the totals last heard")
    expect(banner).not_to_contain_text("worked out on this phone")
    enter(phone, "Ben", BEN)
    table.context.set_offline(False)
    follows(table, dig(phone, {"Ann": ANN, "Ben": BEN}))
    expect(table.get_by_role("status").filter(has_text="Live")).to_be_visible()


@pytest.mark.service_worker
def test_a_follower_reloaded_with_no_network_shows_the_totals_last_heard(open_phone):
    """It showed no totals at all, under a banner saying "these are the totals last heard"."""
    phone = open_phone()
    link = ann_and_ben_shared(phone)
    table = following(open_phone, link)
    answer = dig(phone, {"Ann": ANN, "Ben": BEN})
    follows(table, answer)
    assert table.evaluate("navigator.serviceWorker.ready.then(() => true)")
    table.context.set_offline(True)
    table.reload()
    expect(table.get_by_text("Connection lost, reconnecting…")).to_be_visible()
    follows(table, answer)
    expect(table.locator("#main")).to_have_class(re.compile(r"\bstale\b"))  # greyed: may be old
    expect(table.get_by_text(re.compile(r"last change"))).to_be_visible()
    enter(phone, "Ben", {"red": 2})
    table.context.set_offline(False)
    follows(table, dig(phone, {"Ann": ANN, "Ben": {**BEN, "red": 2}}))
    expect(table.get_by_role("status").filter(has_text="Live")).to_be_visible()
    expect(table.locator("#main")).not_to_have_class(re.compile(r"\bstale\b"))


def test_a_follower_says_when_the_entering_phone_was_last_heard(open_phone, server):
    """Counts typed on a phone whose network dropped reach the followers once it is back, and a
    follower meanwhile said "Live" over the old winner. The entering phone now sends its tally
    again now and then, unchanged and at the version it last had (a change made meanwhile is
    never undone), and a follower that has not heard it for a while says when it last did,
    greyed."""
    phone = open_phone(go=False)
    phone.clock.install()
    phone.goto("/")
    link = ann_and_ben_shared(phone)
    tally_id = link.rsplit("/", 1)[1]
    engine = sa.create_engine(server.env["DATABASE_URL"])

    def stored():
        with engine.connect() as conn:
            return conn.execute(sa.select(tallies.c.version, tallies.c.heard_at)
                                .where(tallies.c.id == tally_id)).one()

    # Heard at once, as it shares: a phone gone quiet in the 20 s before its first beat was
    # never judged, and its followers said "Live" over the old winner for as long as it was away.
    deadline = time.monotonic() + 10
    while (first := stored()).heard_at is None:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    version = first.version
    beats: list[dict] = []
    answered: list[str] = []
    phone.on("request", lambda request: request.method == "PUT" and "/tallies/" in request.url
             and beats.append(request.headers))
    for heard in ("requestfinished", "requestfailed"):
        phone.on(heard, lambda request: request.method == "PUT" and "/tallies/" in request.url
                 and answered.append(request.url))
    phone.clock.fast_forward(21_000)  # the entering phone, still there, sends its tally again
    deadline = time.monotonic() + 10
    while stored().heard_at == first.heard_at:
        assert time.monotonic() < deadline
        phone.wait_for_timeout(200)  # the page's requests are heard (`beats`) while it waits
    assert stored().version == version  # unchanged: no new version
    assert [beat.get("if-match") for beat in beats] == [f'"{version}"']
    # its clock stopped until it is heard again below: its next beat (20 s on) would have said it
    # was there, over the minute written here, had the follower been slow to open; and any
    # beat under way let in first
    phone.clock.pause_at(phone.evaluate("Date.now()") + 1)
    phone.evaluate("0")
    deadline = time.monotonic() + 10
    while len(answered) < len(beats):
        assert time.monotonic() < deadline
        phone.wait_for_timeout(50)
    # and then it was last heard a minute ago: two beats missed. A follower said "Live" over
    # counts the entering phone, offline, no longer held, for a minute and a half.
    long_ago = datetime.now(UTC) - timedelta(seconds=60)
    with engine.begin() as conn:
        conn.execute(tallies.update().where(tallies.c.id == tally_id).values(heard_at=long_ago))
    engine.dispose()
    table = following(open_phone, link)
    follows(table, dig(phone, {"Ann": ANN, "Ben": BEN}))  # the totals as last sent, still shown
    expect(table.get_by_role("status").filter(has_text="entering phone")).to_have_text(
        f"The entering phone was last heard at {long_ago.astimezone().strftime('%H:%M:%S')}: "
        "counts typed on it since reach this screen once it is back.")
    expect(table.locator("#main")).to_have_class(re.compile(r"\bstale\b"))
    phone.clock.resume()
    enter(phone, "Ben", {"red": 2})  # heard again, with a change
    follows(table, dig(phone, {"Ann": ANN, "Ben": {**BEN, "red": 2}}))
    expect(table.get_by_role("status").filter(has_text="Live")).to_be_visible()
    expect(table.locator("#main")).not_to_have_class(re.compile(r"\bstale\b"))


@pytest.mark.parametrize("lost", ["network", "server", "cut-off"])
def test_the_entering_phone_tries_a_lost_server_now_and_then_and_catches_up(open_phone, lost):
    # "network": the phone goes offline; "server": a proxy answers 503 for a server that is down;
    # "cut-off": each answer is cut off on its way (it threw, unheard: no try came after it).
    phone = open_phone(allow_network_errors=True)
    table = following(open_phone, ann_and_ben_shared(phone))
    follows(table, dig(phone, {"Ann": ANN, "Ben": BEN}))

    tries: list[str] = []
    phone.on("request", lambda request: request.method == "PUT" and "/tallies/" in request.url
             and tries.append(request.url))
    if lost == "network":
        phone.context.set_offline(True)
    elif lost == "server":
        phone.route("**/api/v1/games/*/tallies/*", lambda route: route.fulfill(status=503))
    else:
        phone.route("**/api/v1/games/*/tallies/*", lambda route: route.fulfill(
            status=200, content_type="application/json", body='{"version": '))
    enter(phone, "Ben", {"red": 2})
    expect(phone.get_by_text("Offline: followers get the latest counts")).to_be_visible()
    phone.wait_for_timeout(2000)
    assert 1 <= len(tries) <= 3, f"{len(tries)} tries in 2 s"

    if lost == "network":
        phone.context.set_offline(False)
    else:
        phone.unroute("**/api/v1/games/*/tallies/*")
    follows(table, dig(phone, {"Ann": ANN, "Ben": {**BEN, "red": 2}}))
    expect(phone.get_by_text("Followers see each change")).to_be_visible()


def test_counts_typed_offline_reach_the_followers_once_the_next_tally_is_started(open_phone):
    """Only the tally on the screen was sent: Ben's last bones typed with no network, then a new
    tally started before it came back, never reached the server. The followers kept "Live"
    with Ann the winner, the phone's own history said Ben, and nothing said so."""
    phone = open_phone(allow_network_errors=True)
    table = following(open_phone, ann_and_ben_shared(phone))
    follows(table, dig(phone, {"Ann": ANN, "Ben": BEN}))
    last = dig(phone, {"Ann": ANN, "Ben": {**BEN, "green": 2, "blue": 2, "red": 2}})
    assert last["winners"] != dig(phone, {"Ann": ANN, "Ben": BEN})["winners"]
    phone.context.set_offline(True)
    enter(phone, "Ben", {"green": 2, "blue": 2, "red": 2})
    expect(phone.get_by_text("Offline: followers get the latest counts")).to_be_visible()
    new_tally(phone)
    start(phone, "DIG", "Cy")
    phone.context.set_offline(False)
    follows(table, last)
    expect(table.get_by_role("status").filter(has_text="Live")).to_be_visible()


def test_a_page_seen_again_sends_the_waiting_counts_at_once(open_phone, server):
    """A server back while the phone kept its network: the writer's share waited out its
    backoff (it reached a minute), while the followers showed the old winner as "Live". A
    phone looked at again (unlocked, the tab brought back) tries at once."""
    phone = open_phone(allow_network_errors=True)
    link = ann_and_ben_shared(phone)
    url = f"{server.url}/api/v1/tallies/{link.rsplit('/', 1)[1]}"
    tries: list[float] = []
    phone.route("**/api/v1/games/*/tallies/*",
                lambda route: (tries.append(time.monotonic()), route.fulfill(status=503)))
    enter(phone, "Ben", {"red": 2})
    expect(phone.get_by_text("Offline: followers get the latest counts")).to_be_visible()
    assert tries  # the first, refused: "Offline" says so
    while len(tries) < 2:  # tried again after 3 s: the next try is 6 s on
        assert time.monotonic() < tries[0] + 8, tries
        phone.wait_for_timeout(100)
    assert len(tries) == 2 and tries[1] - tries[0] > 2.5, tries
    phone.unroute("**/api/v1/games/*/tallies/*")
    phone.evaluate("""() => {
        Object.defineProperty(document, "hidden", { value: false, configurable: true });
        document.dispatchEvent(new Event("visibilitychange")); }""")
    deadline = tries[1] + 5  # the backoff's next try is 6 s after the last
    while requests.get(url, timeout=5).json()["sheet"]["players"][1]["dropped"]["red"] != 2:
        assert time.monotonic() < deadline, "not sent when the page was seen again"
        time.sleep(0.1)
    expect(phone.get_by_text("Followers see each change")).to_be_visible()


def test_a_follow_link_to_no_tally_says_so(open_phone):
    table = open_phone(go=False, allow_network_errors=True)
    table.goto("/follow/0123456789abcdef0123456789abcdef")
    expect(table.get_by_text("There is no shared tally at this link")).to_be_visible()


def test_a_follower_sees_a_game_everyone_ended_on_0_won_by_all(open_phone):
    """The followers ranked nobody while every total was 0, whatever was entered: they now rank
    the sheet as soon as the entering phone sends one, which it does once anything is entered,
    a 0 too. Until then they see it is still being entered."""
    phone = open_phone()
    start(phone, "DIG", "Ann", "Ben")
    link = share_live(phone)
    table = following(open_phone, link)
    expect(table.get_by_text("Still entering")).to_be_visible()
    # no place is given: a place starts its line ("1st · shared win"); the text "1st" alone also
    # matched the page whenever "last change 02:52:51" ran on into "Standings"
    expect(table.get_by_text(re.compile(r"^1st"))).to_have_count(0)
    enter(phone, "Ann", {"green": 0})
    answer = dig(phone, {"Ann": {"green": 0}, "Ben": {}})
    assert answer["winners"] == ["Ann", "Ben"]
    for name in ("Ann", "Ben"):
        expect(total(table, name)).to_have_text("0")
        expect(table.get_by_role("region", name=name, exact=True).locator(".rank")).to_have_text(
            "1st · shared win")


def test_a_word_said_where_the_page_is_scrolled_is_seen_there(open_phone):
    # Share live tapped offline said "Sharing live needs the network" in the line at the top of
    # the page, 800 px above the button on a 320 × 640 phone, for four seconds: the tap seemed to
    # do nothing.
    phone = open_phone(width=320, allow_network_errors=True)
    phone.set_viewport_size({"width": 320, "height": 640})
    start(phone, "DIG", "Ann", "Ben", "Cy", "Dee")
    enter(phone, "Ann", ANN)
    button = phone.get_by_role("button", name="Share live")
    button.scroll_into_view_if_needed()
    expect(phone.locator("#status")).not_to_be_in_viewport()
    phone.context.set_offline(True)
    button.click()
    said = "Sharing live needs the network: try again once the connection is back."
    shown = phone.locator(".toast")
    expect(shown).to_have_text(said)
    expect(shown).to_be_in_viewport()
    expect(phone.locator("#status")).to_contain_text(said)  # what a screen reader hears, once
    expect(shown).to_have_attribute("aria-hidden", "true")
    # Nothing of the page is out of reach under it: it goes with the word.
    expect(shown).to_be_hidden(timeout=8000)
    # At the top of the page, the line there says it: no second copy.
    phone.evaluate("scrollTo(0, 0)")
    phone.get_by_role("button", name="Share live").evaluate("(b) => b.click()")
    expect(phone.locator("#status")).to_contain_text(said)
    expect(shown).to_be_hidden()

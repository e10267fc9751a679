"""Issue "the phone scorer a table trusts": a phone on a page served over plain HTTP says clearly
what works with no network and what does not. Browsers give such a page no service worker, no
share sheet and no clipboard; here the page is served from this computer, so a phone on plain HTTP
is played by taking those away before the page loads, and the network by going offline."""

import re

import pytest
from playwright.sync_api import Page, expect

from .phone import enter, field, run_axe, screenshot, start, tally_ann, total

pytestmark = pytest.mark.service_worker  # the phones keep the page as a phone does

OFFLINE = "Offline — totals are worked out on this phone and checked once the server answers"
UNKEPT = ("This page is not kept on this phone: reloaded or closed now, it cannot open again "
          "until the network is back.")
# What a page served over plain HTTP lacks (navigator.share is absent from desktop Chromium too).
PLAIN_HTTP = "delete Navigator.prototype.serviceWorker; delete Navigator.prototype.clipboard;"


def plain_http(open_phone, **options) -> Page:
    """A phone on the page as served over plain HTTP, once the page has loaded the rest of itself
    (every game, sharing, statistics) while the network is there."""
    page = open_phone(go=False, allow_network_errors=True, **options)
    page.context.add_init_script(PLAIN_HTTP)
    page.goto("/")
    assert page.evaluate("[navigator.serviceWorker, navigator.clipboard, navigator.share]") == [
        None, None, None]
    page.evaluate("import('/web/net.js').then((net) => net.whole)")
    return page


def test_a_page_that_cannot_be_kept_says_so_and_warns_before_a_reload_fails(open_phone):
    page = plain_http(open_phone)
    expect(page.get_by_text("Served without HTTPS, this page cannot be kept on this phone.")) \
        .to_be_visible()
    page.context.set_offline(True)
    expect(page.locator("#status")).to_have_text(f"{OFFLINE} · {UNKEPT}")
    # Every game was loaded while the network was there: each opens and totals.
    tally_ann(page)
    expect(total(page, "Ann")).to_have_text("29")
    screenshot(page, "plain-http-offline")
    expect(page.locator("#status")).to_have_text(f"{OFFLINE} · {UNKEPT}")
    page.context.set_offline(False)
    expect(page.locator("#status")).to_have_text("")


def test_a_page_a_service_worker_keeps_gives_no_such_warning(open_phone):
    page = open_phone(allow_network_errors=True)
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now under the service worker, as a phone is after its first visit
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
    expect(page.get_by_text("cannot be kept")).to_have_count(0)
    page.context.set_offline(True)
    expect(page.locator("#status")).to_have_text(OFFLINE)
    # Opened with no network, the page comes from the phone, and the games' list with it: an
    # answer from the phone's copy is no sign that the network is back.
    with page.expect_response(lambda response: response.url.endswith("/api/v1/games")):
        page.reload()
    expect(page.get_by_role("button", name="DIG", exact=True)).to_be_visible()
    expect(page.locator("#status")).to_have_text(OFFLINE)


def test_a_game_not_loaded_yet_says_it_needs_the_network_and_the_games_stay(open_phone):
    # A page no service worker controls, whose network went before it loaded the game.
    page = open_phone(service_workers="block", allow_network_errors=True)
    expect(page.get_by_role("button", name="DIG", exact=True)).to_be_visible()
    page.context.set_offline(True)
    page.get_by_role("button", name="Digging for Dinos", exact=True).click()
    expect(page.get_by_role("alert")).to_have_text(
        "Digging for Dinos is not on this phone yet: opening it the first time needs the network. "
        "Choose it again once the connection is back.")
    expect(page.get_by_role("heading", name="Choose a game")).to_be_visible()
    expect(page.locator("#status")).to_have_text(f"{OFFLINE} · {UNKEPT}")
    assert run_axe(page) == []
    screenshot(page, "game-needs-the-network")
    page.context.set_offline(False)
    page.get_by_role("button", name="Digging for Dinos", exact=True).click()
    expect(page.get_by_label("Player name")).to_be_visible()


def test_with_no_share_sheet_or_clipboard_the_result_is_there_to_copy(open_phone):
    page = plain_http(open_phone)
    start(page, "DIG", "Ann", "Bob")
    page.context.set_offline(True)
    enter(page, "Ann", {"green": 2})
    enter(page, "Bob", {"red": 1})
    page.get_by_role("button", name="Share result").click()
    text = page.get_by_label("The result as text")
    expect(text).to_be_focused()
    assert re.fullmatch(r"DIG · .+\nBowls from the Doghouse: .+\n1st Ann 10 points \(winner\)\n"
                        r"2nd Bob 1 point", text.input_value())
    assert text.evaluate("(area) => [area.selectionStart, area.selectionEnd]") == [
        0, len(text.input_value())]
    expect(text).to_have_accessible_description(
        "Here the page cannot use the phone's share sheet or clipboard: they need a page served "
        "over HTTPS. Select the text and copy it.")
    assert run_axe(page) == []
    screenshot(page, "share-by-hand")
    # Chromium still copies a selection at a tap; where a phone does not, the page says so.
    page.get_by_role("button", name="Copy").click()
    offered = page.get_by_role("group", name="Share result")
    expect(offered.get_by_role("status")).to_have_text("Result copied: paste it where you like.")
    for button in offered.get_by_role("button").all():
        assert button.bounding_box()["height"] >= 44

    # The text of totals that no longer stand goes with them.
    field(page, "Bob red").fill("3")
    expect(text).to_have_count(0)
    page.get_by_role("button", name="Share result").click()
    expect(text).to_have_value(re.compile(r"\n1st Ann 10 points \(winner\)\n2nd Bob 3 points$"))


def test_a_server_that_does_not_answer_is_not_said_to_be_the_phone_offline(open_phone):
    """With the network there and the server stopped (its connections refused), the banner said
    "Offline", and a player checked the phone's Wi-Fi rather than the server."""
    page = open_phone(allow_network_errors=True)
    start(page, "DIG", "Ann")
    # routed for the whole context: the page's service worker, once it takes the page over
    # (sooner or later, by the machine's load), fetches past a page's routes
    page.context.route("**/api/v1/games/dig/score", lambda route: route.abort("connectionrefused"))
    enter(page, "Ann", {"green": 1})
    expect(page.locator("#status")).to_have_text(
        "No answer from the server — totals are worked out on this phone")
    expect(total(page, "Ann")).to_have_text("5")  # worked out here meanwhile
    page.context.unroute("**/api/v1/games/dig/score")
    expect(page.locator("#status")).to_have_text("")
    page.context.set_offline(True)  # the phone's own network gone: said as such
    enter(page, "Ann", {"green": 2})
    expect(page.locator("#status")).to_have_text(OFFLINE)

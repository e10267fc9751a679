"""An answer cut off on its way (the network dropped, or the page was reloaded as it came) is no
answer: the phone says it could not reach the server and asks again; it never keeps or draws
what came. The page took a cut-off game list for an empty object, kept it, and drew it: the
first screen stopped on a script error, and stopped again on every visit from then on."""

from playwright.sync_api import Page, Route, expect

from .phone import new_tally, tally_ann, tally_joseph, total

GAMES = "**/api/v1/games"
NOT_REACHED = "The server cannot be reached; the games appear when the connection is back."


def cut_off(route: Route) -> None:
    route.fulfill(status=200, content_type="application/json", body='{"games": [{"id": "dig"')


def test_a_game_list_cut_off_on_its_way_is_asked_for_again_and_never_kept(open_phone):
    page = open_phone(go=False, allow_network_errors=True)
    page.route(GAMES, cut_off)
    page.goto("/")
    expect(page.get_by_text(NOT_REACHED)).to_be_visible()
    assert page.evaluate("localStorage.getItem('digsite.games')") is None
    page.unroute(GAMES)
    # asked again a few seconds later, the phone being online
    expect(page.get_by_role("button", name="DIG", exact=True)).to_be_visible(timeout=15_000)
    expect(page.get_by_text(NOT_REACHED)).to_have_count(0)
    page.reload()
    tally_ann(page)
    expect(total(page, "Ann")).to_have_text("29")


def test_a_phone_that_kept_a_cut_off_list_or_box_opens_and_totals_as_ever(open_phone):
    # What an earlier release kept of an answer cut off on its way: an empty object.
    page: Page = open_phone()
    page.evaluate("""for (const key of ['digsite.games', 'digsite.box.dig-it-up'])
                       localStorage.setItem(key, '{}')""")
    page.reload()
    tally_joseph(page)
    expect(total(page, "Joseph")).to_have_text("50")
    new_tally(page)
    tally_ann(page)
    expect(total(page, "Ann")).to_have_text("29")

"""Issue "the phone scorer a table trusts", BG Stats: a result is handed to BG Stats through its
createPlay link (bgstats://app.bgstatsapp.com/createPlay.html?data=<the play as URL-encoded
JSON>), and kept as a file of the same play. The play is the calculator's answer; the link goes
once the totals it carries no longer stand, and works with no network on any page."""

import json
from datetime import UTC, datetime
from urllib.parse import unquote

import pytest
from playwright.sync_api import Page, expect

from .phone import enter, field, run_axe, screenshot, start
from .test_offline_notices import plain_http
from .test_trusted_totals import WIDTHS, calculator, dig, download

CREATE_PLAY = "bgstats://app.bgstatsapp.com/createPlay.html?data="
MONEY = "money tokens, ₩ value"


def link(page: Page):
    return page.get_by_role("link", name="Open in BG Stats")


def play_of(page: Page) -> dict:
    """The play the BG Stats link carries."""
    href = link(page).get_attribute("href")
    assert href.startswith(CREATE_PLAY), href
    return json.loads(unquote(href.removeprefix(CREATE_PLAY)))


def tally(page: Page) -> dict:
    return page.evaluate("JSON.parse(localStorage.getItem('digsite.tally'))")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_link_hands_bg_stats_the_calculator_s_play(open_phone, width):
    page = open_phone(width=width)
    start(page, "DIG", "Ann", "bob")
    enter(page, "Ann", {"green": 2, "red": 1})
    enter(page, "bob", {"yellow": 2})
    answer = dig(page, {"Ann": {"green": 2, "red": 1}, "bob": {"yellow": 2}})
    kept = download(page, "Export for BG Stats")
    play = play_of(page)
    assert kept == play  # the file, if kept, is the same play
    now = tally(page)
    changed = datetime.fromtimestamp(now["updated"] / 1000, UTC)
    assert play == {
        "sourceName": "Digsite",
        "sourcePlayId": now["id"],
        "playDate": changed.strftime("%Y-%m-%d %H:%M:%S"),  # BG Stats reads it in UTC
        "game": {"name": "DIG", "sourceGameId": "dig", "highestWins": True, "noPoints": False},
        "players": [{"name": p["name"], "score": p["total"], "rank": p["rank"],
                     "winner": p["name"] in answer["winners"],
                     "sourcePlayerId": p["name"].lower()} for p in answer["players"]],
    }
    assert [p["winner"] for p in play["players"]] == [True, False]
    box = link(page).bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, box
    expect(link(page)).to_be_focused()
    expect(link(page)).to_have_accessible_description(
        "BG Stats takes the play through this link: it opens the app, if it is on this phone, "
        "with the play filled in, and asks before saving it. The same play was saved as a file.")
    screenshot(page, f"bgstats-{width}")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert run_axe(page) == []

    # A count changed: the link to the totals before it goes, and comes back with the new ones.
    enter(page, "bob", {"yellow": 3})
    expect(link(page)).to_have_count(0)
    download(page, "Export for BG Stats")
    answer = dig(page, {"Ann": {"green": 2, "red": 1}, "bob": {"yellow": 3}})
    assert [p["score"] for p in play_of(page)["players"]] == [p["total"] for p in answer["players"]]
    page.get_by_role("button", name="Close").click()
    expect(link(page)).to_have_count(0)
    expect(page.get_by_role("button", name="Share result")).to_be_focused()


def test_the_variant_is_the_play_s_board_and_a_player_is_known_by_name(open_phone):
    page = open_phone()
    start(page, "Dig It Up", "Cy ", "Dee")
    variant = page.get_by_label("Variant")
    variant.select_option("simplified")
    # each 6 ₩ of tokens from three +2 tiles, gold tiles kept (1 ₩ each in no set)
    enter(page, "Cy", {"gold": 3, MONEY: 6})
    enter(page, "Dee", {"gold": 3, MONEY: 6})
    answer = calculator(page, "dig-it-up", {"variant": "simplified", "players": [
        {"name": "Cy", "tiles": {"gold": 3}, "tokens": 6},
        {"name": "Dee", "tiles": {"gold": 3}, "tokens": 6}]})
    assert answer["winners"] == ["Cy", "Dee"]
    download(page, "Export for BG Stats")
    play = play_of(page)
    assert play["board"] == "Simplified"
    assert play["game"] == {"name": "Dig It Up", "sourceGameId": "dig-it-up",
                            "highestWins": True, "noPoints": False}
    assert [(p["name"], p["score"], p["winner"], p["sourcePlayerId"]) for p in play["players"]] == [
        ("Cy", 9, True, "cy"), ("Dee", 9, True, "dee")]


@pytest.mark.service_worker
def test_with_no_network_on_a_page_served_over_plain_http_the_link_still_works(open_phone):
    page = plain_http(open_phone)
    start(page, "DIG", "Ann")
    page.context.set_offline(True)
    field(page, "Ann green").fill("1")
    download(page, "Export for BG Stats")
    assert [(p["name"], p["score"], p["winner"]) for p in play_of(page)["players"]] == [
        ("Ann", 5, True)]

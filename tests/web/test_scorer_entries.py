"""What a player enters on the phone scorer page and what it stands for: an entry the page cannot
read stays unreadable wherever the tally is read again, never a count of 0."""

import json
import re

import pytest
from playwright.sync_api import Locator, Page, expect

from .phone import copied, enter, field, lose_since, new_tally, on_disk, screenshot, start, total
from .test_trusted_totals import (
    MONEY,
    NOT_YET,
    answering_ann_s_green,
    bowls,
    calculator,
    shows,
    shows_not_yet,
)

LIMITS = "Enter a whole number from -20 to 999."  # below zero: the box's four −5 ₩ tokens


def type_into(page: Page, label: str, text: str) -> None:
    """`text` typed into a count as a thumb would (a number field takes no unreadable fill)."""
    field(page, label).click()  # the count is selected: typing replaces it
    page.keyboard.type(text)


def refused(page: Page, label: str, description: str) -> None:
    count = field(page, label)
    expect(count).to_have_value("")
    expect(count).to_have_attribute("aria-invalid", "true")
    expect(count).to_have_accessible_description(re.compile(re.escape(description)))


# a minus after the digits, and two before them ("2-" was a third run of the first's case)
@pytest.mark.parametrize("typed", ["12-", "--2"])
def test_a_count_the_page_could_not_read_stays_refused_after_a_reload_and_in_another_tab(
        open_phone, typed):
    # Refused as typed, the count came back as 0 after a reload (or in a second tab, or on a
    # phone whose tab was dropped) with no word, and was totalled: Ann 8, Bob 3, "Winner: Ann".
    page = open_phone(width=360)
    start(page, "Dig It Up", "Ann", "Bob")
    field(page, "Ann gold").fill("4")
    field(page, "Bob gold").fill("3")
    expect(total(page, "Ann")).to_have_text("8")
    type_into(page, f"Ann {MONEY}", typed)
    refused(page, f"Ann {MONEY}", LIMITS)
    shows_not_yet(page, ["Ann", "Bob"])

    page.reload()
    refused(page, f"Ann {MONEY}", LIMITS)
    shows_not_yet(page, ["Ann", "Bob"])
    expect(page.get_by_text("Winner")).to_have_count(0)

    other = page.context.new_page()
    open_phone.watch(other)
    other.goto("/")
    refused(other, f"Ann {MONEY}", LIMITS)
    shows_not_yet(other, ["Ann", "Bob"])
    # another tab's change is taken up, and the unreadable count with it
    field(other, "Bob gold").fill("2")
    expect(field(page, "Bob gold")).to_have_value("2")
    refused(page, f"Ann {MONEY}", LIMITS)
    shows_not_yet(page, ["Ann", "Bob"])

    # The grid says it too: the cell holds no number, and nothing is totalled.
    page.get_by_role("button", name="Grid: every player").click()
    cell = page.get_by_label(f"Ann {MONEY}", exact=True)
    expect(cell).to_have_attribute("aria-invalid", "true")
    expect(cell).not_to_have_value("0")
    expect(cell).not_to_have_value("")
    expect(total(page, "Ann")).to_have_text("–")
    expect(page.get_by_text("Winner")).to_have_count(0)
    page.get_by_role("button", name="One player at a time").click()

    # Kept in the history as not totalled, and still refused when taken up again.
    new_tally(page)
    earlier = page.locator(".history .old")
    expect(earlier).to_contain_text("Ann · Bob (not totalled)")
    earlier.click()
    refused(page, f"Ann {MONEY}", LIMITS)
    shows_not_yet(page, ["Ann", "Bob"])
    field(page, f"Ann {MONEY}").fill("-2")
    expect(total(page, "Ann")).to_have_text("6")
    expect(page.get_by_text(NOT_YET)).to_have_count(0)


def test_an_unreadable_dig_bone_count_stays_refused_after_a_reload(open_phone):
    page = open_phone()
    start(page, "DIG", "Ann", "Bob")
    for place, colour in enumerate(["green", "yellow", "purple", "blue", "red"], start=1):
        page.get_by_label(f"Bowl {place}").select_option(colour)
    field(page, "Ann green").fill("2")
    field(page, "Bob red").fill("3")
    type_into(page, "Ann red", "1-")
    refused(page, "Ann red", "Enter a whole number from 0 to 4.")
    page.reload()
    refused(page, "Ann red", "Enter a whole number from 0 to 4.")
    shows_not_yet(page, ["Ann", "Bob"])


def test_a_count_saved_unreadable_by_an_earlier_page_is_not_read_as_0(open_phone):
    # The page before kept such a count as NaN, which the phone saved as null.
    page = open_phone(go=False)
    saved = ('{"id": "t1", "game": "dig-it-up", "created": 1, "updated": 2, "players": ['
             '{"id": "p1", "name": "Ann", "values": {"tiles.gold": "4", "tokens": null},'
             ' "at": {"tiles.gold": 1, "tokens": 2}},'
             '{"id": "p2", "name": "Bob", "values": {"tiles.gold": "3"},'
             ' "at": {"tiles.gold": 1}}]}')
    page.context.add_init_script(f"localStorage.setItem('digsite.tally', {saved!r})")
    page.goto("/")
    refused(page, f"Ann {MONEY}", LIMITS)
    shows_not_yet(page, ["Ann", "Bob"])


def test_card_shark_proven_by_the_cards_kept_is_credited_without_a_tick(open_phone):
    # Five cards kept prove five drawn, but Card Shark left unticked was sent as not achieved:
    # every total became "–" with "Card Shark is achieved with these counts."
    page = open_phone()
    start(page, "Dig It Up", "Ann", "Bob", "Cy", "Dee")
    expect(page.get_by_label("Variant")).to_have_value("standard")
    ann = page.get_by_role("region", name="Ann", exact=True)
    field(page, "Ann mission").select_option(label="Card Shark (15 ₩)")
    # No ★ tile yet: no card was drawn, so there is nothing to tick.
    expect(ann.get_by_text("Not achieved with these counts.")).to_be_visible()
    expect(field(page, "Ann mission achieved")).to_be_hidden()
    enter(page, "Ann", {"scroll": 2, "crystal": 3})  # five ★ tiles: five cards may be drawn
    expect(field(page, "Ann mission achieved")).to_be_visible()
    enter(page, "Ann", {"appraisal": 4, "insurance": 1})
    # 4 × 8 ₩, Insurance 0, the mission 15, and a bundle of the five tiles 5
    expect(total(page, "Ann")).to_have_text("52")
    expect(ann.get_by_text("✓ Achieved with these counts.")).to_be_visible()
    expect(field(page, "Ann mission achieved")).to_be_hidden()
    expect(page.get_by_text("achieved with these counts.", exact=False)).to_have_count(1)
    expect(page.get_by_text(NOT_YET)).to_have_count(0)
    standings = page.get_by_role("region", name="Standings")
    expect(standings.locator("li.won .who")).to_have_text(["Ann"])
    # Four prove nothing: as the player says.
    enter(page, "Ann", {"appraisal": 3})
    expect(field(page, "Ann mission achieved")).to_be_visible()
    expect(total(page, "Ann")).to_have_text("29")
    field(page, "Ann mission achieved").check()
    expect(total(page, "Ann")).to_have_text("44")
    # Four ★ tiles rule it out, ticked or not: the tick goes, and so do its 15 ₩.
    enter(page, "Ann", {"crystal": 2})
    expect(ann.get_by_text("Not achieved with these counts.")).to_be_visible()
    expect(field(page, "Ann mission achieved")).to_be_hidden()
    expect(total(page, "Ann")).to_have_text("29")
    # More cards kept than ★ tiles held: each card is marked, and nothing is totalled.
    enter(page, "Ann", {"crystal": 1})
    said = "A chance card is drawn only for a ★ tile dug (ancient scroll or crystal), one a " \
           "tile: 3 ★ tiles bring at most 3 cards, not 4."
    for card in ("appraisal", "insurance"):
        expect(field(page, f"Ann {card}")).to_have_attribute("aria-invalid", "true")
        expect(field(page, f"Ann {card}")).to_have_accessible_description(re.compile(
            re.escape(said)))
    expect(total(page, "Ann")).to_have_text("–")
    enter(page, "Ann", {"insurance": 0})
    expect(total(page, "Ann")).to_have_text("29")


def test_a_tick_given_for_one_mission_is_not_carried_to_the_next(open_phone):
    page = open_phone()
    start(page, "Dig It Up", "Ann", "Bob")
    enter(page, "Ann", {MONEY: 2})
    field(page, "Ann mission").select_option(label="Closing Shop (15 ₩)")
    field(page, "Ann mission achieved").check()
    expect(total(page, "Ann")).to_have_text("17")
    field(page, "Ann mission").select_option(label="Card Shark (15 ₩)")
    expect(field(page, "Ann mission achieved")).not_to_be_checked()
    expect(total(page, "Ann")).to_have_text("2")
    page.reload()
    expect(field(page, "Ann mission achieved")).not_to_be_checked()
    expect(total(page, "Ann")).to_have_text("2")


@pytest.mark.parametrize(("status", "content_type", "body"), [
    (400, "text/html", "<html><body><h1>400 Bad Request</h1></body></html>"),
    (413, "text/html", "<html><body><h1>413 Request Entity Too Large</h1></body></html>"),
    (400, "application/problem+json", '{"title": "Bad Request", "status": 400}'),
    (422, "text/html", "<html><body>Unprocessable</body></html>"),
])
def test_a_proxy_s_refusal_keeps_the_phone_s_totals_and_asks_again(
        open_phone, status, content_type, body):
    # A proxy's 400 or 413 page hid every total for good: "–", "Totals are waiting for the count
    # marked below." with nothing marked, "The server answered 400." and no second try.
    page = open_phone(go=False, allow_network_errors=True)
    asked = answering_ann_s_green(page, 1, status, {}, content_type, body)
    page.goto("/")
    start(page, "DIG", "Ann", "Bob")  # the bowls' order entered as the box prints it
    field(page, "Ann green").fill("2")
    expect(page.get_by_role("status").filter(
        has_text="No answer from the server — totals are worked out on this phone")).to_be_visible()
    expect(total(page, "Ann")).to_have_text("10")  # the phone's own, kept
    expect(total(page, "Bob")).to_have_text("0")
    expect(page.get_by_text("Totals are waiting for the count marked below.")).to_have_count(0)
    expect(page.get_by_text(f"The server answered {status}.")).to_have_count(0)
    # asked again by itself, and then the server's answer stands
    expect(page.get_by_role("status").filter(has_text="totals are worked out on this phone")) \
        .to_have_count(0, timeout=15_000)
    assert len(asked) == 2
    expect(total(page, "Ann")).to_have_text("10")
    expect(page.get_by_text(NOT_YET)).to_have_count(0)


# --- the server's failures, in the page's language ------------------------------------------------

def problem(route, status: int, detail: str, after: str | None = None) -> None:
    route.fulfill(status=status, content_type="application/problem+json",
                  headers={"Retry-After": after} if after else {},
                  body=json.dumps({"title": "Error", "status": status, "detail": detail}))


def says_no_english(page: Page) -> None:
    for english in ("The server answered", "Too many requests", "Internal", "Offline"):
        expect(page.get_by_text(english)).to_have_count(0)


def test_a_game_the_server_fails_to_send_is_said_in_korean_with_when_to_try_again(open_phone):
    # A Korean phone read "The server answered 500.", the problem's English detail, or "Too many
    # requests." with no word on waiting; and after a 503 then a 429 the status line still said
    # 오프라인 though the server was answering.
    page = open_phone(go=False, locale="ko-KR", allow_network_errors=True)
    answers = [(503, "Service Unavailable", None), (429, "Too many requests.", "7"),
               (500, "Internal Server Error", None)]

    def failing(route) -> None:
        if answers:
            problem(route, *answers.pop(0))
        else:
            route.continue_()

    page.route("**/api/v1/games/dig-it-up", failing)
    page.goto("/")
    game = page.locator("button.game").first
    said = page.locator("#choose-msg")
    status = page.locator("#status")
    game.click()
    expect(said).to_have_text("서버가 응답하지 못했습니다(503). 잠시 기다렸다가 다시 시도하세요.")
    expect(status).to_contain_text("서버 응답 없음")
    expect(status).not_to_contain_text("오프라인")
    game.click()
    expect(said).to_have_text("요청이 너무 많습니다(429). 7초 기다렸다가 다시 시도하세요.")
    expect(status).to_have_text("")  # the server answers
    game.click()
    expect(said).to_have_text("서버가 응답하지 못했습니다(500). 잠시 기다렸다가 다시 시도하세요.")
    expect(status).to_have_text("")
    says_no_english(page)
    game.click()
    expect(page.get_by_label("플레이어 이름")).to_be_visible()
    expect(status).to_have_text("")


def test_a_tally_whose_game_the_server_fails_to_send_says_so_in_korean_and_opens_after(
        open_phone):
    page = open_phone(go=False, locale="ko-KR", allow_network_errors=True)
    answers = [(500, "Internal Server Error", "1")]
    page.route("**/api/v1/games/dig-it-up",
               lambda route: problem(route, *answers.pop(0)) if answers else route.continue_())
    saved = json.dumps({"id": "t1", "game": "dig-it-up", "created": 1, "updated": 2, "players": [
        {"id": "p1", "name": "Ann", "values": {"tokens": "8"}, "at": {"tokens": 1}}]})
    page.context.add_init_script(f"localStorage.setItem('digsite.tally', {saved!r})")
    page.goto("/")
    expect(page.locator("#main")).to_contain_text(
        "서버가 응답하지 못했습니다(500). 1초 기다렸다가 다시 시도하세요.")
    says_no_english(page)
    expect(page.get_by_label("Ann 합계", exact=True)).to_have_text("8")


def test_a_list_of_games_the_server_fails_to_send_is_said_in_korean_and_comes_after(open_phone):
    page = open_phone(go=False, locale="ko-KR", allow_network_errors=True)
    answers = [(503, "Service Unavailable", "1")]
    page.route("**/api/v1/games",
               lambda route: problem(route, *answers.pop(0)) if answers else route.continue_())
    page.goto("/")
    expect(page.locator("#main")).to_contain_text(
        "서버가 응답하지 못했습니다(503). 1초 기다렸다가 다시 시도하세요.")
    expect(page.locator("#status")).not_to_contain_text("오프라인")
    says_no_english(page)
    expect(page.locator("button.game")).to_have_count(3)
    expect(page.locator("#status")).to_have_text("")


def test_the_simplified_variant_is_named_once_in_korean(open_phone):
    # "간단 규칙 규칙에서는 …": the variant's Korean name says 규칙, and the refusals added it.
    page = open_phone(go=False, locale="ko-KR")
    page.goto("/")
    page.locator("button.game").first.click()
    for name in ("Ann", "Bob"):
        page.get_by_label("플레이어 이름").fill(name)
        page.get_by_role("button", name="플레이어 추가").click()
    field(page, "Ann 감정").fill("1")
    page.get_by_label("규칙", exact=True).select_option("simplified")
    expect(page.get_by_text("간단 규칙에서는 찬스 카드를 쓰지 않습니다.")).to_be_visible()
    page.get_by_label("규칙", exact=True).select_option("standard")
    field(page, "Ann 감정").fill("0")
    page.locator("select[id$='-mission']").first.select_option("gold_digger")
    page.get_by_label("규칙", exact=True).select_option("simplified")
    expect(page.get_by_text("간단 규칙에서는 미션을 쓰지 않습니다.")).to_be_visible()
    expect(page.locator("body")).not_to_contain_text("규칙 규칙")
    page.locator("select[id$='-mission']").first.select_option("")
    field(page, "Ann 돈 토큰, ₩ 액수").fill("3")
    expect(page.get_by_text("간단 규칙에서는 돈 토큰이 +2 타일에서만 나옵니다")).to_be_visible()
    expect(page.locator("body")).not_to_contain_text("규칙 규칙")


# --- names alike, told apart ----------------------------------------------------------------------

CHRISES = ["Christopher", "Christina", "Christian", "Christoph", "Chris"]

# Each name drawn whole: neither cut at its end (an ellipsis) nor clipped below its last line.
CUT_NAMES = """(names) => [...document.querySelectorAll(names)].filter((el) => el.offsetParent)
  .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
  .map((el) => el.textContent)"""


@pytest.mark.parametrize("width", [320, 360])
def test_names_alike_are_told_apart_in_the_bar_and_the_grid_at_a_narrow_phone(open_phone, width):
    # At 360 px the grid's header read "Chri…" four times and the bar "Christ…", "Christi…": no
    # column or total could be told for whose it was.
    page = open_phone(width=width)
    start(page, "Dig It Up", *CHRISES)
    field(page, "Christina gold").fill("4")
    bar = page.get_by_role("navigation", name="Every player's total")
    expect(bar.locator("a span")).to_have_text(CHRISES)
    assert page.evaluate(CUT_NAMES, ".bar a span") == []
    for chip in bar.locator("a").all():
        box = chip.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        expect(chip.locator("b")).to_be_visible()
    screenshot(page, f"bar-chrises-{width}")
    page.get_by_role("button", name="Grid: every player").click()
    header = page.locator(".grid thead .who")
    expect(header).to_have_text(CHRISES)
    assert page.evaluate(CUT_NAMES, ".grid thead .who") == []
    expect(total(page, "Christina")).to_have_text("8")
    screenshot(page, f"grid-chrises-{width}")


# Names of the most letters a name may have, alike for all but their ends.
LONG_ALIKE = ["Alexandra Konstantinopoulou-Smith Ann", "Alexandra Konstantinopoulou-Smith Bob",
              "Maximiliana Wolkenstein-Hohenberg Ortega", "Alexandra Konstantinopoulou-Smith Cy",
              "Dee"]
# What each name's box draws (not what is there only for a screen reader), and whether it is cut.
DRAWN_NAMES = """(boxes) => boxes.filter((el) => el.offsetParent).map((el) => ({
  cut: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
  text: [...el.childNodes].filter((n) => !n.classList?.contains("vh")).map((n) => n.textContent)
    .join("") }))"""


def told_apart(names: Locator, players: list[str]) -> None:
    drawn = names.evaluate_all(DRAWN_NAMES)
    assert len(drawn) == len(players)
    assert not any(box["cut"] for box in drawn), drawn
    assert len({box["text"] for box in drawn}) == len(players), drawn
    for box, name in zip(drawn, players, strict=True):
        assert box["text"].startswith(name[:3]) and box["text"].endswith(name[-3:]), (box, name)


def test_long_names_alike_at_their_start_are_told_apart_by_their_ends(open_phone):
    # Five players at 360 px: the bar drew "Alexandra Konst…" for Ann, Bob and Cy alike, and the
    # grid's header "Alexa/ndra/Kon…", each over a total and a rank nobody could tell whose.
    page = open_phone(width=360)
    start(page, "Dig It Up", *LONG_ALIKE)
    bar = page.get_by_role("navigation", name="Every player's total")
    told_apart(bar.locator("a > span"), LONG_ALIKE)
    for name in LONG_ALIKE:  # a screen reader still hears each name whole
        expect(bar.get_by_role("link", name=re.compile(f"^{re.escape(name)} "))).to_have_count(1)
    screenshot(page, "bar-long-alike")
    page.get_by_role("button", name="Grid: every player").click()
    expect(page.locator(".grid thead .who")).to_have_count(len(LONG_ALIKE))
    told_apart(page.locator(".grid thead .who"), LONG_ALIKE)
    for name in LONG_ALIKE:
        expect(page.get_by_role("columnheader", name=re.compile(f"^{re.escape(name)} "))
               ).to_have_count(1)
    # The pad says whose count it writes to by the end of a name too.
    field(page, f"{LONG_ALIKE[1]} gold").click()
    told_apart(page.get_by_role("group", name="Number pad").locator(".at .who"), LONG_ALIKE[1:2])
    screenshot(page, "grid-long-alike")


# --- DIG's bowls: the table's order, entered ----------------------------------------------------

def test_dig_totals_wait_for_the_bowls_order_the_players_enter(open_phone):
    # Never touched, the bowls stood in the box's order: Ann 10, Bob 3, "Winner: Ann" and Share,
    # from an order nobody entered, with no word of it.
    page = open_phone(width=360)
    start(page, "DIG", "Ann", "Bob", bowls=False)
    field(page, "Ann green").fill("2")
    field(page, "Bob red").fill("3")
    wait = "Totals wait for the order of the bowls at the end"
    shows_not_yet(page, ["Ann", "Bob"])
    expect(page.get_by_role("region", name="Standings").get_by_text(wait)).to_be_visible()
    expect(page.get_by_role("button", name="Share result")).to_be_hidden()
    page.reload()
    shows_not_yet(page, ["Ann", "Bob"])
    expect(page.get_by_text(wait)).to_be_visible()
    # Tapped in full, from the Doghouse out: red, blue, purple, yellow (green is the last).
    for colour in ("red", "blue", "purple", "yellow"):
        page.get_by_role("button", name=colour, exact=True).click()
    table = {"bowls": bowls(page), "players": [{"name": "Ann", "dropped": {"green": 2}},
                                               {"name": "Bob", "dropped": {"red": 3}}]}
    assert table["bowls"] == ["red", "blue", "purple", "yellow", "green"]
    shows(page, calculator(page, "dig", table), "points")
    expect(page.get_by_text(wait)).to_have_count(0)


def test_a_dig_order_entered_is_kept_when_its_last_bowl_is_tapped_too(open_phone):
    # Tapped in full, the order was thrown away by one more tap: tapping the last bowl, as "tap
    # the bowls in order" says, started a new order from it, and three more taps gave the table
    # red, green, yellow, purple, blue: Bob 15 and the win, where the table had Ann 10, Bob 3.
    page = open_phone(width=360)
    start(page, "DIG", "Ann", "Bob")  # green, yellow, purple, blue: red is the one left
    field(page, "Ann green").fill("2")
    field(page, "Bob red").fill("3")
    expect(total(page, "Ann")).to_have_text("10")
    expect(page.get_by_text("To change it, tap the first bowl that is wrong, then the rest "
                            "again")).to_be_visible()
    for _ in range(2):  # the one left: no change
        page.locator("#tap-red").click()
        assert bowls(page) == ["green", "yellow", "purple", "blue", "red"]
        expect(total(page, "Ann")).to_have_text("10")
        expect(total(page, "Bob")).to_have_text("3")
    # an earlier bowl is taken back with the bowls after it, to be tapped again
    page.locator("#tap-purple").click()
    expect(page.get_by_text("Now tap bowl 3:")).to_be_visible()
    shows_not_yet(page, ["Ann", "Bob"])
    for colour in ("red", "purple"):
        page.locator(f"#tap-{colour}").click()
    assert bowls(page) == ["green", "yellow", "red", "purple", "blue"]
    table = {"bowls": bowls(page), "players": [{"name": "Ann", "dropped": {"green": 2}},
                                               {"name": "Bob", "dropped": {"red": 3}}]}
    shows(page, calculator(page, "dig", table), "points")


def test_dig_bowls_set_with_the_selects_are_an_order_entered(open_phone):
    page = open_phone()
    start(page, "DIG", "Ann", "Bob", bowls=False)
    field(page, "Ann green").fill("2")
    shows_not_yet(page, ["Ann", "Bob"])
    # One bowl chosen is no order yet: the others are not the box's (see test_scorer_page.py).
    page.get_by_label("Bowl 1").select_option("red")
    shows_not_yet(page, ["Ann", "Bob"])
    for place, colour in enumerate(["green", "purple", "blue"], start=2):
        page.get_by_label(f"Bowl {place}", exact=True).select_option(colour)
    assert bowls(page) == ["red", "green", "purple", "blue", "yellow"]  # the last: the one left
    table = {"bowls": bowls(page), "players": [{"name": "Ann", "dropped": {"green": 2}},
                                               {"name": "Bob", "dropped": {}}]}
    shows(page, calculator(page, "dig", table), "points")


def test_a_dig_tally_kept_before_each_bowl_was_said_set_asks_for_its_order_again(open_phone):
    # Its bowls may be the box's order it was opened with, or one list chosen with the four others
    # filled unseen: taken as entered, Bob had 8 and "winner" for an order nobody entered.
    page = open_phone(go=False)
    order = ["red", "yellow", "purple", "blue", "green"]
    saved = json.dumps({"id": "t1", "game": "dig", "created": 1, "updated": 2, "bowls": order,
                        "players": [{"id": "p1", "name": "Ann", "values": {"dropped.green": "2"},
                                     "at": {"dropped.green": 1}},
                                    {"id": "p2", "name": "Bob", "values": {"dropped.red": "1"},
                                     "at": {"dropped.red": 1}}]})
    page.context.add_init_script(f"localStorage.setItem('digsite.tally', {saved!r})")
    page.goto("/")
    assert [page.get_by_label(f"Bowl {n}", exact=True).input_value()
            for n in range(1, 6)] == [""] * 5
    shows_not_yet(page, ["Ann", "Bob"])
    expect(page.get_by_text("Totals wait for the order of the bowls")).to_be_visible()
    # The counts are all kept: the order entered, the totals stand.
    for colour in order[:4]:
        page.locator(f"#tap-{colour}").click()
    table = {"bowls": order, "players": [{"name": "Ann", "dropped": {"green": 2}},
                                         {"name": "Bob", "dropped": {"red": 1}}]}
    shows(page, calculator(page, "dig", table), "points")
    # One kept while being tapped in: the bowls tapped so far stand.
    tapped = open_phone(go=False)
    saved = json.dumps({"id": "t2", "game": "dig", "created": 1, "updated": 2, "bowls": order,
                        "tapped": order[:2], "players": [
                            {"id": "p1", "name": "Ann", "values": {}, "at": {}}]})
    tapped.context.add_init_script(f"localStorage.setItem('digsite.tally', {saved!r})")
    tapped.goto("/")
    assert [tapped.get_by_label(f"Bowl {n}", exact=True).input_value()
            for n in range(1, 6)] == [*order[:2], "", "", ""]
    expect(tapped.get_by_text("Now tap bowl 3:")).to_be_visible()


def test_a_refusal_of_the_whole_table_is_written_once_not_at_every_key(open_phone):
    # Every key emptied the table's refusal (an alert) and wrote it again, the same: a screen
    # reader says an alert written again, so it was said again at every key typed anywhere.
    page = open_phone()
    start(page, "DIG", "Ann", "Ben")
    enter(page, "Ann", {"red": 3})
    enter(page, "Ben", {"red": 3})  # six red bones: the box holds four
    said = page.locator("#players-msg")
    expect(said).to_have_attribute("role", "alert")
    expect(said).to_contain_text("red")
    page.evaluate("""() => {
        window.rewritten = 0;
        new MutationObserver((changes) => { window.rewritten += changes.length; })
            .observe(document.getElementById('players-msg'),
                     {childList: true, characterData: true, subtree: true});
    }""")
    before = said.text_content()
    green = field(page, "Ann green")
    green.click()
    for key in ("2", "Backspace", "3"):  # each a count the box holds
        green.press(key)
    expect(green).to_have_value("3")
    page.wait_for_timeout(300)  # the totals worked out again after each key
    assert said.text_content() == before
    assert page.evaluate("window.rewritten") == 0
    enter(page, "Ben", {"red": 1})  # put right: the refusal goes
    expect(said).to_have_text("")


TALLY = "digsite.tally"


def test_counts_the_browser_lost_before_writing_them_out_come_back_when_the_page_opens(
        open_phone):
    # A browser writes localStorage out to its disk up to a minute late: Chromium killed 0.5 to
    # 20 s after two counts were typed lost them, 10 tallies of 10 (README "The phone page").
    page = open_phone()
    start(page, "DIG", "Ann", "Bob")
    copied(page, TALLY)
    written_out = on_disk(page, TALLY)
    enter(page, "Ann", {"red": 3})
    enter(page, "Bob", {"green": 2})
    expect(field(page, "Bob green")).to_have_value("2")
    copied(page, TALLY)
    lose_since(page, TALLY, written_out)
    page.close()
    again = open_phone()  # another phone: nothing of the first
    expect(again.get_by_role("heading", name="Choose a game")).to_be_visible()
    reopened = page.context.new_page()
    reopened.goto("/")
    expect(field(reopened, "Ann red")).to_have_value("3")
    expect(field(reopened, "Bob green")).to_have_value("2")


def test_a_tally_put_away_stays_away_though_the_browser_lost_that_it_was(open_phone):
    page = open_phone()
    start(page, "DIG", "Ann")
    enter(page, "Ann", {"red": 3})
    expect(field(page, "Ann red")).to_have_value("3")
    copied(page, TALLY)
    written_out = on_disk(page, TALLY)
    new_tally(page)
    page.wait_for_function("() => localStorage.getItem('digsite.tally') === null")
    copied(page, TALLY)
    lose_since(page, TALLY, written_out)
    page.reload()
    expect(page.get_by_role("heading", name="Choose a game")).to_be_visible()
    assert on_disk(page, TALLY)[0] is None
    expect(page.get_by_text("Ann", exact=False).first).to_be_visible()  # among the earlier tallies

"""Issue 19, "history as BG Stats offers": each earlier tally with its winner, deleted from the
phone, and restored from the file of all tallies. At 360 px (WIDTHS); every winner is the
calculator's own answer (POST /api/v1/games/{game}/score)."""

import json
from datetime import datetime

import pytest
from playwright.sync_api import Page, expect

from .phone import enter, new_tally, run_axe, screenshot, start
from .test_trusted_totals import WIDTHS, calculator, dig

MONEY = "money tokens, ₩ value"


def winner_line(answer: dict) -> str:
    names = ", ".join(answer["winners"])
    return f"Winner: {names}" if len(answer["winners"]) == 1 else f"Shared win: {names}"


def tallies(page: Page) -> tuple[dict, dict]:
    """A DIG tally on the 1st of March and a Dig It Up tally on the 2nd, each left for the next,
    with the calculator's answers to them."""
    page.clock.set_fixed_time(datetime(2025, 3, 1, 20, 0))
    page.goto("/")
    start(page, "DIG", "Ann", "Bob")
    enter(page, "Ann", {"green": 2})
    enter(page, "Bob", {"red": 1})
    dig_answer = dig(page, {"Ann": {"green": 2}, "Bob": {"red": 1}})
    new_tally(page)
    page.clock.set_fixed_time(datetime(2025, 3, 2, 20, 0))
    start(page, "Dig It Up", "Cy", "Dee")
    variant = page.get_by_label("Variant").input_value()
    enter(page, "Cy", {MONEY: 10})
    enter(page, "Dee", {MONEY: 10})
    dig_it_up_answer = calculator(page, "dig-it-up", {"variant": variant, "players": [
        {"name": "Cy", "tokens": 10}, {"name": "Dee", "tokens": 10}]})
    new_tally(page)
    return dig_answer, dig_it_up_answer


def download(page: Page) -> tuple[str, dict]:
    with page.expect_download() as downloaded:
        page.get_by_role("button", name="Download all tallies (JSON)").click()
    path = downloaded.value.path()
    return str(path), json.loads(open(path, encoding="utf-8").read())


@pytest.mark.parametrize("width", WIDTHS)
def test_each_earlier_tally_names_its_winner(open_phone, width):
    page = open_phone(width=width, go=False)
    dig_answer, dig_it_up_answer = tallies(page)
    earlier = page.locator(".history .old")
    expect(earlier.nth(0)).to_contain_text("Cy 10 · Dee 10")
    expect(earlier.nth(0).locator(".won")).to_have_text(winner_line(dig_it_up_answer))
    expect(earlier.nth(1).locator(".won")).to_have_text(winner_line(dig_answer))
    assert dig_it_up_answer["winners"] == ["Cy", "Dee"] and dig_answer["winners"] == ["Ann"]
    screenshot(page, f"history-{width}", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")  # no sideways
    assert run_axe(page) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_a_deleted_tally_comes_back_from_the_file_of_all_tallies(open_phone, width, tmp_path):
    page = open_phone(width=width, go=False)
    tallies(page)
    earlier = page.locator(".history .old")
    listed = earlier.all_text_contents()
    backup, kept = download(page)
    assert [t["players"][0]["name"] for t in kept["tallies"]] == ["Cy", "Ann"]

    # dated as the phone (British) writes dates
    delete = page.get_by_role("button", name="Delete the DIG tally of 1 Mar 2025, 20:00")
    delete.click()
    page.get_by_role("dialog").get_by_role("button", name="Cancel").click()
    expect(earlier).to_have_count(2)
    delete.click()
    page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    expect(earlier).to_have_text(listed[:1])
    page.reload()
    expect(earlier).to_have_text(listed[:1])

    # Not every file is a file of all tallies: nothing changes.
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"players": []}))
    restore = page.get_by_label("Restore tallies from a downloaded file (JSON)")
    restore.set_input_files(other)
    expect(restore).to_have_accessible_description(
        "This file is not a download of all tallies from this scorer.")
    expect(earlier).to_have_text(listed[:1])

    # The tally deleted comes back in its place, the other is not doubled.
    restore.set_input_files(backup)
    expect(page.locator("#status")).to_contain_text("1 tally restored.")
    expect(earlier).to_have_text(listed)
    page.reload()
    expect(earlier).to_have_text(listed)
    earlier.nth(1).click()
    expect(page.get_by_label("Ann green", exact=True)).to_have_value("2")


def test_a_file_of_tallies_brings_back_no_name_the_page_refuses(open_phone, tmp_path):
    # "Restore from file" took names the page refuses when typed: a name turning the text right
    # to left, one hiding a zero-width space, one of 5,004 characters, each drawn as it came.
    page = open_phone(width=360)
    late = 1796400000000

    def tally(id_: str, *names: str) -> dict:
        return {"id": id_, "game": "dig", "updated": late, "result": None,
                "players": [{"id": f"p{i}", "name": name, "values": {}}
                            for i, name in enumerate(names)]}

    backup = tmp_path / "tallies.json"
    backup.write_text(json.dumps({"format": "digsite-tallies", "version": 1, "tallies": [
        tally("t-rtl", "\u202enaelC\u202c Ann", "Bob"),
        tally("t-hidden", "B\u200bob"),
        tally("t-long", "Bob" + "x" * 5001),
        tally("t-twice", "Ann", "ann"),
        tally("t-fine", " Eve  Park ", "Dan"),
    ]}))
    restore = page.get_by_label("Restore tallies from a downloaded file (JSON)")
    restore.set_input_files(backup)
    expect(page.locator("#status")).to_contain_text("1 tally restored.")
    restore = page.get_by_label("Restore tallies from a downloaded file (JSON)")
    expect(restore).to_have_accessible_description(
        "4 tallies were left out: a player's name in each is not one this page takes "
        "(an invisible or direction-changing character, or over 40 characters).")
    earlier = page.locator(".history .old")
    expect(earlier).to_have_count(1)
    expect(earlier).to_contain_text("Eve Park · Dan")  # tidied as a typed name is
    kept = page.evaluate("JSON.parse(localStorage.getItem('digsite.history'))")
    assert [t["id"] for t in kept] == ["t-fine"]
    assert [p["name"] for p in kept[0]["players"]] == ["Eve Park", "Dan"]
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")  # no sideways


def test_the_statistics_speak_korean_with_their_own_words(open_phone):
    # The statistics screen's words are its own (stats.words.js), loaded with it rather than with
    # the first page; they are there in both languages, a language chosen while it is on show too.
    page = open_phone(width=360)
    start(page, "Dig It Up", "Cy", "Dee")
    enter(page, "Cy", {MONEY: 10})
    new_tally(page)
    page.get_by_label("Language", exact=True).select_option("ko")
    page.get_by_role("button", name="통계: 승리, 점수, 맞대결").click()
    expect(page.get_by_role("heading", name="통계", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="뒤로")).to_be_visible()
    expect(page.get_by_text("이 휴대폰의 끝난 기록 1개에서 집계했습니다.")).to_be_visible()
    expect(page.get_by_text("맞대결", exact=True)).to_be_visible()
    for english in ("Statistics", "Back", "Head to head", "Win share", "statsFrom", "h2hPlayer"):
        expect(page.get_by_text(english, exact=True)).to_have_count(0)
    words = page.evaluate("import('/web/stats.words.js').then((m) => m.default)")
    assert sorted(words["en"]) == sorted(words["ko"])


def test_a_tally_of_a_game_this_scorer_does_not_know_is_left_out_or_put_back(open_phone,
                                                                              tmp_path):
    # A file's tally of a game this scorer does not know (a newer release's) was restored, and
    # opened it held the page on "The server could not answer (404)", asked again every 5 s,
    # with no way back to the games, a reload opening it again.
    def tally(id_: str, game: str) -> dict:
        return {"id": id_, "game": game, "updated": 1796400000000, "result": None,
                "players": [{"id": "p1", "name": "Ann", "values": {}}]}

    page = open_phone(width=360)
    expect(page.get_by_role("button", name="DIG", exact=True)).to_be_visible()
    backup = tmp_path / "tallies.json"
    backup.write_text(json.dumps({"format": "digsite-tallies", "version": 1, "tallies": [
        tally("t-other", "carcassonne"), tally("t-dig", "dig")]}))
    restore = page.get_by_label("Restore tallies from a downloaded file (JSON)")
    restore.set_input_files(backup)
    expect(page.locator("#status")).to_contain_text("1 tally restored.")
    expect(page.get_by_label("Restore tallies from a downloaded file (JSON)")
           ).to_have_accessible_description(
        "1 tally was left out: its game is not one this scorer knows.")

    # one this phone holds already, as the tally it was on
    held = open_phone(width=360, go=False, allow_network_errors=True)  # the box's 404
    saved = json.dumps(tally("t-held", "carcassonne"))
    held.add_init_script(f"sessionStorage.getItem('seeded') || (sessionStorage.setItem("
                         f"'seeded', '1'), localStorage.setItem('digsite.tally', {saved!r}))")
    held.goto("/")
    expect(held.get_by_text("The scorer does not know the game 'carcassonne' yet.")
           ).to_be_visible()
    held.get_by_role("button", name="New tally").click()
    expect(held.get_by_role("heading", name="Choose a game")).to_be_visible()
    expect(held.locator(".history .old")).to_have_count(1)  # kept among the earlier ones
    held.reload()
    expect(held.get_by_role("heading", name="Choose a game")).to_be_visible()

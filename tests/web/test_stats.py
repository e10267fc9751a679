"""Issue "the phone scorer a table trusts", statistics as BG Stats offers them: per game and per
player the games, wins (a shared win apart), win share, average and best score, and head to head,
from the finished tallies on the phone alone. A player is one player by name whatever its case;
a tally counts only while its kept totals answer its counts; reading changes no tally. Every
total and winner is the calculator's own answer (POST /api/v1/games/{game}/score)."""

import copy
import json
import re

import pytest
from playwright.sync_api import Page, expect

from .phone import enter, field, new_tally, run_axe, screenshot, start
from .test_trusted_totals import WIDTHS, calculator, dig

MONEY = "money tokens, ₩ value"
STATS = "Statistics: wins, scores, head to head"


def three_tallies(page: Page) -> list[dict]:
    """Two DIG tallies and a Dig It Up one, each finished with New tally: Ann wins the first; ANN
    (the same player) and Cy share the second, tied on the tie-break too; Bob wins the third. The
    calculator's answers, the first first."""
    start(page, "DIG", "Ann", "Bob")
    enter(page, "Ann", {"green": 2})
    enter(page, "Bob", {"red": 1})
    answers = [dig(page, {"Ann": {"green": 2}, "Bob": {"red": 1}})]
    new_tally(page)
    start(page, "DIG", "ANN", "Cy")
    enter(page, "ANN", {"green": 1})
    enter(page, "Cy", {"green": 1})
    answers.append(dig(page, {"ANN": {"green": 1}, "Cy": {"green": 1}}))
    new_tally(page)
    start(page, "Dig It Up", "Bob", "Cy")
    variant = page.get_by_label("Variant").input_value()
    enter(page, "Bob", {MONEY: 10})
    enter(page, "Cy", {MONEY: 4})
    answers.append(calculator(page, "dig-it-up", {"variant": variant, "players": [
        {"name": "Bob", "tokens": 10}, {"name": "Cy", "tokens": 4}]}))
    new_tally(page)
    assert [a["winners"] for a in answers] == [["Ann"], ["ANN", "Cy"], ["Bob"]]
    assert [[p["total"] for p in a["players"]] for a in answers] == [[10, 1], [5, 5], [10, 4]]
    return answers


def players(page: Page, region: str = "Players") -> dict[str, dict[str, str]]:
    """Each player's figures as the statistics show them, in their order."""
    shown = {}
    expect(page.get_by_role("region", name=region).get_by_role("listitem").first).to_be_visible()
    for item in page.get_by_role("region", name=region).get_by_role("listitem").all():
        terms = item.locator("dt").all_text_contents()
        shown[item.get_by_role("heading").text_content()] = dict(
            zip(terms, item.locator("dd").all_text_contents(), strict=True))
    return shown


def head_to_head(page: Page) -> dict[str, str]:
    region = page.get_by_role("region", name="Head to head")
    return dict(zip(region.locator("dt").all_text_contents(),
                    region.locator("dd").all_text_contents(), strict=True))


def open_statistics(page: Page) -> None:
    page.get_by_role("button", name=STATS).click()
    expect(page.get_by_role("heading", name="Statistics")).to_be_focused()


@pytest.mark.parametrize("width", WIDTHS)
def test_each_player_s_wins_share_and_scores_per_game_and_in_all(open_phone, width):
    page = open_phone(width=width)
    three_tallies(page)
    open_statistics(page)
    expect(page.get_by_text("From 3 finished tallies on this phone.")).to_be_visible()
    # All games: ANN and Ann are one player; a win shared by two counts a half of the share.
    assert players(page) == {
        "ANN": {"Games": "2", "Wins": "1, and 1 shared", "Win share": "75%"},
        "Bob": {"Games": "2", "Wins": "1", "Win share": "50%"},
        "Cy": {"Games": "2", "Wins": "0, and 1 shared", "Win share": "25%"},
    }
    summary = page.get_by_role("region", name="Statistics").locator("dl div")
    expect(summary).to_have_text(["Games3", "Dig It Up1", "DIG2"])  # as the catalogue lists them
    screenshot(page, f"stats-all-{width}", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert run_axe(page) == []

    game = page.get_by_label("Game", exact=True)
    game.focus()
    game.select_option(label="DIG")
    expect(game).to_be_focused()  # drawn again, the choice stays where it was
    assert players(page) == {
        "ANN": {"Games": "2", "Wins": "1, and 1 shared", "Win share": "75%",
                "Average score": "7.5 points", "Best score": "10 points"},
        "Cy": {"Games": "1", "Wins": "0, and 1 shared", "Win share": "50%",
               "Average score": "5 points", "Best score": "5 points"},
        "Bob": {"Games": "1", "Wins": "0", "Win share": "0%",
                "Average score": "1 point", "Best score": "1 point"},
    }
    expect(summary).to_have_text(["Games2", "Average score5.3 points",
                                  re.compile(r"^Best score10 points \(Ann, .+\)$")])
    page.get_by_label("Game", exact=True).select_option(label="Dig It Up")
    assert [(name, f["Wins"], f["Average score"], f["Best score"])
            for name, f in players(page).items()] == [("Bob", "1", "10 ₩", "10 ₩"),
                                                      ("Cy", "0", "4 ₩", "4 ₩")]
    screenshot(page, f"stats-dig-it-up-{width}", full_page=True)
    for control in page.locator("#main button, #main select, #action button").all():
        assert control.bounding_box()["height"] >= 44, control


def test_head_to_head_counts_the_games_together_and_who_placed_higher(open_phone):
    page = open_phone()
    three_tallies(page)
    open_statistics(page)
    player = page.get_by_label("Player", exact=True)
    against = page.get_by_label("Against", exact=True)
    expect(player.locator("option:checked")).to_have_text("ANN")
    expect(against.locator("option:checked")).to_have_text("Bob")
    assert head_to_head(page) == {"Games together": "1", "ANN placed higher": "1",
                                  "Bob placed higher": "0", "Same place": "0"}
    against.select_option(label="Cy")
    assert head_to_head(page) == {"Games together": "1", "ANN placed higher": "0",
                                  "Cy placed higher": "0", "Same place": "1"}
    # Choosing on one side the player on the other swaps them.
    player.select_option(label="Cy")
    expect(against.locator("option:checked")).to_have_text("ANN")
    player.select_option(label="Bob")
    assert head_to_head(page) == {"Games together": "1", "Bob placed higher": "0",
                                  "ANN placed higher": "1", "Same place": "0"}
    # In Dig It Up, which ANN did not play, Bob meets the one player who did.
    page.get_by_label("Game", exact=True).select_option(label="Dig It Up")
    expect(against.locator("option")).to_have_text(["Bob", "Cy"])
    assert head_to_head(page) == {"Games together": "1", "Bob placed higher": "1",
                                  "Cy placed higher": "0", "Same place": "0"}

    # The phone's Back leads back to the home screen, as the page's own does (it left the site).
    home = page.url
    page.go_back()
    expect(page.get_by_role("button", name=STATS)).to_be_focused()
    assert page.url == home
    page.go_forward()  # and Forward to the statistics again
    expect(page.get_by_role("heading", name="Statistics")).to_be_focused()
    # The page's own Back leaves no step behind it.
    page.get_by_role("button", name="Back").click()
    expect(page.get_by_role("button", name=STATS)).to_be_focused()
    assert page.evaluate("history.state") is None


def history(page: Page) -> list[dict]:
    return page.evaluate("JSON.parse(localStorage.getItem('digsite.history'))")


def test_only_tallies_whose_totals_answer_their_counts_are_counted(open_phone):
    page = open_phone()
    start(page, "DIG", "Ann", "Bob")
    enter(page, "Ann", {"green": 2})
    enter(page, "Bob", {"red": 1})
    answer = dig(page, {"Ann": {"green": 2}, "Bob": {"red": 1}})
    new_tally(page)
    start(page, "DIG", "Ann", "Bob")
    enter(page, "Bob", {"red": 5})  # DIG has 4 bones of a colour: kept without totals
    new_tally(page)
    start(page, "DIG", "Ann")  # nothing entered: nobody won anything
    new_tally(page)
    # A total kept before its count changed (as an older page kept them): Ann's 3 green bones
    # with the total of 2.
    kept = history(page)
    stale = {**copy.deepcopy(kept[2]), "id": "stale", "updated": kept[2]["updated"] - 1000}
    stale["players"][0]["values"]["dropped.green"] = "3"
    assert stale["result"]["players"][0]["total"] == answer["players"][0]["total"] == 10
    page.evaluate("(all) => localStorage.setItem('digsite.history', JSON.stringify(all))",
                  [*kept, stale])
    page.reload()
    before = history(page)

    open_statistics(page)
    expect(page.get_by_text("From 1 finished tally on this phone.")).to_be_visible()
    expect(page.get_by_text("3 tallies are not counted")).to_be_visible()
    assert players(page) == {"Ann": {"Games": "1", "Wins": "1", "Win share": "100%"},
                             "Bob": {"Games": "1", "Wins": "0", "Win share": "0%"}}
    page.get_by_role("button", name="Back").click()
    expect(page.get_by_role("heading", name="Choose a game")).to_be_visible()
    assert history(page) == before  # read, nothing changed: no date, no place

    # Opened again, the stale tally is totalled for its counts and counts, its date kept.
    page.locator(".history .old").nth(3).click()
    expect(field(page, "Ann green")).to_have_value("3")
    new_tally(page)
    assert [t["updated"] for t in history(page)] == [t["updated"] for t in before]
    open_statistics(page)
    expect(page.get_by_text("From 2 finished tallies on this phone.")).to_be_visible()
    expect(page.get_by_text("2 tallies are not counted")).to_be_visible()
    assert players(page)["Ann"] == {"Games": "2", "Wins": "2", "Win share": "100%"}
    page.get_by_label("Game", exact=True).select_option(label="DIG")
    assert players(page)["Ann"]["Best score"] == "15 points"


@pytest.mark.service_worker
def test_the_statistics_work_with_no_network_and_follow_another_tab(open_phone):
    page = open_phone(allow_network_errors=True)
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    start(page, "DIG", "Ann", "Bob")
    enter(page, "Ann", {"green": 2})
    enter(page, "Bob", {"red": 1})
    new_tally(page)
    page.reload()  # under the service worker, as a phone is after its first visit
    page.context.set_offline(True)
    page.reload()
    open_statistics(page)
    assert players(page)["Ann"] == {"Games": "1", "Wins": "1", "Win share": "100%"}

    # Another tab deletes the tally: the statistics are drawn again, still on show.
    other = page.context.new_page()
    open_phone.watch(other, allow_network_errors=True)
    other.goto("/")
    other.get_by_role("button", name=re.compile("^Delete the DIG tally")).click()
    other.get_by_role("dialog").get_by_role("button", name="Delete").click()
    expect(page.get_by_text("No finished tally with its totals yet.")).to_be_visible()
    expect(page.get_by_role("region", name="Players")).to_have_count(0)
    screenshot(page, "stats-none")
    assert json.loads(page.evaluate("localStorage.getItem('digsite.history')")) == []


def test_the_statistics_speak_korean(open_phone):
    page = open_phone(color_scheme="dark")
    start(page, "DIG", "Ann", "Bob")
    enter(page, "Ann", {"green": 1})
    new_tally(page)
    page.get_by_label("Language", exact=True).select_option(label="한국어")
    page.get_by_role("button", name="통계: 승리, 점수, 맞대결").click()
    expect(page.get_by_role("heading", name="통계")).to_be_focused()
    expect(page.get_by_role("heading", name="맞대결")).to_be_visible()
    expect(page.get_by_role("button", name="뒤로")).to_be_visible()
    assert players(page, "플레이어")["Ann"] == {"게임 수": "1", "승리": "1", "승률": "100%"}
    # a score as the tally says it, "5점": it read "5 점", the unit set apart
    page.get_by_label("게임", exact=True).select_option(value="dig")
    ann = players(page, "플레이어")["Ann"]
    assert (ann["평균 점수"], ann["최고 점수"]) == ("5점", "5점"), ann
    assert run_axe(page) == []
    screenshot(page, "stats-ko-dark", full_page=True)


@pytest.mark.parametrize("how", ["page", "phone"])
def test_back_pressed_while_the_statistics_load_leads_home(open_phone, how):
    # The statistics screen was taken for on show only once its figures were read: a Back (the
    # page's or the phone's) pressed while it still read "Loading" stepped back in the history
    # and did nothing else. The figures then came, and stayed on screen with the history already
    # gone back: a second Back left the site.
    page = open_phone()
    start(page, "DIG", "Ann", "Bob")
    enter(page, "Ann", {"green": 2})
    new_tally(page)
    home = page.url
    held: list = []
    # the screen's styles, held: its figures wait for them
    page.route("**/stats.css", lambda route: held.append(route))
    page.get_by_role("button", name=STATS).click()
    expect(page.get_by_role("heading", name="Statistics")).to_have_count(0)
    page.wait_for_function("() => history.state?.digsite === 'stats'")
    if how == "page":
        page.get_by_role("button", name="Back").click()
    else:
        page.go_back()
    expect(page.get_by_role("button", name=STATS)).to_be_focused()
    page.wait_for_function("() => history.state === null")
    while not held:
        page.wait_for_timeout(50)
    held[0].continue_()
    page.wait_for_timeout(500)  # the figures read: they would have been drawn by now
    expect(page.get_by_role("heading", name="Statistics")).to_have_count(0)
    expect(page.get_by_role("button", name=STATS)).to_be_focused()
    assert page.url == home
    page.unroute("**/stats.css")
    open_statistics(page)  # and the statistics open again as ever


def test_a_best_score_two_players_share_names_them_both(open_phone):
    # Jo and Pat both scored 6 in the one tally: the best score named Jo alone.
    page = open_phone()
    start(page, "DIG", "Jo", "Pat", "Cy")
    for name in ("Jo", "Pat"):
        enter(page, name, {"green": 1, "red": 1})
    enter(page, "Cy", {"blue": 1})
    new_tally(page)
    start(page, "DIG", "Pat", "Cy")  # a later 6 is no record of its own
    enter(page, "Pat", {"green": 1, "red": 1})
    new_tally(page)
    open_statistics(page)
    expect(page.get_by_text("From 2 finished tallies on this phone.")).to_be_visible()
    page.get_by_label("Game", exact=True).select_option(label="DIG")
    summary = page.get_by_role("region", name="Statistics").locator("dl div")
    expect(summary.filter(has_text="Best score")).to_have_text(
        re.compile(r"^Best score6 points \(Jo, Pat, .+\)$"))

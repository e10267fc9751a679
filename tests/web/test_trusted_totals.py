"""Issue 19, "every total right, or visibly not yet": counts take what the box allows, negative
money included; a total, place or winner is shown, shared or kept only while it answers the counts
as they stand; reading an earlier tally leaves its date and place alone; a Dig It Up table holding
more of a tile than its board is refused, naming the counts. At 360 px, the narrower of the
phones the issue was tried on (WIDTHS); every total and winner is the calculator's own answer
(POST /api/v1/games/{game}/score), asked for the same table."""

import json
import re
import time
from datetime import datetime
from itertools import pairwise

import pytest
from playwright.sync_api import Page, Route, expect

from .phone import enter, field, new_tally, screenshot, start, total

# The totals, the tallies and their words are checked at the narrowest phone the page is made
# for: a wider one adds nothing to what a total is, and doubled the suite's longest browser tests.
# How the page fits, and its targets, are checked at both widths (test_grid_fit.py,
# test_at_the_table.py).
WIDTHS = [360]
NOT_YET = "Not worked out yet"
MONEY = "money tokens, ₩ value"


def minus(n: int) -> str:
    """A number as the page prints it: a true minus sign."""
    return f"−{-n}" if n < 0 else str(n)


def amount(n: int, unit: str = "points") -> str:
    """A total and what it counts, as the page prints it: "1 point", "5 points", "12 ₩"."""
    return f"{minus(n)} {'point' if unit == 'points' and abs(n) == 1 else unit}"


def calculator(page: Page, game: str, body: dict, status: int = 200) -> dict:
    """The calculator's answer to `body`, from the server the page talks to."""
    response = page.request.post(f"/api/v1/games/{game}/score", data=body)
    assert response.status == status, response.text()
    return response.json()


def bowls(page: Page) -> list[str]:
    return [page.get_by_label(f"Bowl {place}").input_value() for place in range(1, 6)]


def dig(page: Page, dropped: dict[str, dict[str, int]]) -> dict:
    """The calculator's answer for DIG players' bones, in the bowls the page shows."""
    return calculator(page, "dig", {"bowls": bowls(page), "players": [
        {"name": name, "dropped": bones} for name, bones in dropped.items()]})


def shows(page: Page, answer: dict, unit: str) -> None:
    """Every total, place and winner on the page is `answer`'s: on each sheet, in the standings
    and in the bar."""
    players = answer["players"]
    ranked = sorted(players, key=lambda p: p["rank"])
    standings = page.get_by_role("region", name="Standings")
    bar = page.get_by_role("navigation", name="Every player's total")
    for player in players:
        expect(total(page, player["name"])).to_have_text(minus(player["total"]))
        beside = total(page, player["name"]).locator("xpath=following-sibling::span[1]")
        expect(beside).to_have_text(amount(player["total"], unit).split(" ", 1)[1])
    expect(bar.locator("a b")).to_have_text([minus(p["total"]) for p in players])
    expect(standings.locator("li .who")).to_have_text([p["name"] for p in ranked])
    expect(standings.locator("li .pts")).to_have_text([amount(p["total"], unit) for p in ranked])
    badge = "Winner" if len(answer["winners"]) == 1 else "Shared win"
    expect(standings.locator("li.won .who")).to_have_text(answer["winners"])
    expect(standings.locator(".badge")).to_have_text([badge] * len(answer["winners"]))
    expect(bar.locator("a.won span")).to_have_text(answer["winners"])
    # the winner's chip says so by more than its border's colour
    marks = bar.locator("a b").evaluate_all(
        "(totals) => totals.map((b) => getComputedStyle(b, '::before').content)")
    assert [mark.startswith('"★') for mark in marks] == [
        p["name"] in answer["winners"] for p in players], marks
    expect(page.get_by_role("button", name="Share result")).to_be_visible()


def shows_not_yet(page: Page, players: list[str]) -> None:
    """No total, place or winner of an earlier answer is left, nothing can be shared, and each
    place says the totals are not worked out yet."""
    standings = page.get_by_role("region", name="Standings")
    bar = page.get_by_role("navigation", name="Every player's total")
    for name in players:
        expect(total(page, name)).to_have_text("–")
        expect(page.get_by_role("region", name=name, exact=True).get_by_text(NOT_YET)) \
            .to_be_visible()
    expect(bar.locator("a b")).to_have_text(["–"] * len(players))
    expect(bar.locator("a.won")).to_have_count(0)
    expect(standings.get_by_text(NOT_YET)).to_be_visible()
    expect(standings.locator(".badge")).to_have_count(0)
    expect(standings.locator(".pts")).to_have_count(0)
    expect(page.get_by_role("button", name="Share result")).to_be_hidden()
    expect(page.get_by_role("button", name="Export for BG Stats")).to_be_hidden()


def download(page: Page, button: str) -> dict:
    with page.expect_download() as downloaded:
        page.get_by_role("button", name=button).click()
    return json.loads(open(downloaded.value.path(), encoding="utf-8").read())


# --- negative money ------------------------------------------------------------------------------

@pytest.mark.parametrize("width", WIDTHS)
def test_negative_money_is_counted_and_every_total_follows(open_phone, width):
    # issue 19: −5 tokens were refused ("Enter a whole number.") and then no total moved
    page = open_phone(width=width)
    start(page, "Dig It Up", "Ann", "Bob")
    money = field(page, f"Ann {MONEY}")
    money.click()  # the 0 is selected: typing replaces it
    page.keyboard.type("-")
    shows_not_yet(page, ["Ann", "Bob"])  # half typed: no total of it yet, not even as 0
    page.keyboard.type("5")
    expect(money).to_have_value("-5")
    enter(page, "Ann", {"gold": 3})
    enter(page, "Bob", {MONEY: 2})
    expect(money).not_to_have_attribute("aria-invalid", "true")
    expect(page.get_by_text("Enter a whole number")).to_have_count(0)
    variant = page.get_by_label("Variant").input_value()
    table = {"variant": variant, "players": [
        {"name": "Ann", "tiles": {"gold": 3}, "tokens": -5}, {"name": "Bob", "tokens": 2}]}
    answer = calculator(page, "dig-it-up", table)
    assert answer["winners"] == ["Bob"]
    shows(page, answer, "₩")
    screenshot(page, f"negative-money-{width}")

    # Below zero with the − button, and everyone's total still follows.
    bob = field(page, f"Bob {MONEY}")
    for _ in range(12):
        bob.locator("xpath=..").get_by_role("button", name="One fewer").click()
    expect(bob).to_have_value("-10")
    enter(page, "Ann", {"stone": 3})
    table["players"] = [{"name": "Ann", "tiles": {"gold": 3, "stone": 3}, "tokens": -5},
                        {"name": "Bob", "tokens": -10}]
    answer = calculator(page, "dig-it-up", table)
    assert answer["winners"] == ["Ann"]
    shows(page, answer, "₩")


def test_money_takes_what_the_calculator_takes_offline_too(open_phone):
    # 1000 tokens showed a total of 1200 ₩ until the server refused them, and offline for good.
    page = open_phone(width=360, allow_network_errors=True)
    start(page, "Dig It Up", "Ann", "Bob")
    variant = page.get_by_label("Variant").input_value()
    enter(page, "Bob", {MONEY: 2})
    money = field(page, f"Ann {MONEY}")
    # (below zero, the box's four −5 ₩ tokens: −20 ₩ at the least)
    limits = "Enter a whole number from -20 to 999."
    for n in (60, -20):  # (the game gives 68 ₩ at most: test_scorer_page.py)
        money.fill(str(n))
        shows(page, calculator(page, "dig-it-up", {"variant": variant, "players": [
            {"name": "Ann", "tokens": n}, {"name": "Bob", "tokens": 2}]}), "₩")
    calculator(page, "dig-it-up", {"players": [{"name": "Ann", "tokens": 1000}]}, status=422)
    calculator(page, "dig-it-up", {"players": [{"name": "Ann", "tokens": -21}]}, status=422)

    page.context.set_offline(True)
    for n in (1000, -21, -1000):
        money.fill(str(n))
        expect(money).to_have_attribute("aria-invalid", "true")
        expect(money).to_have_accessible_description(limits)
        shows_not_yet(page, ["Ann", "Bob"])
    # + stops at the limit, as it stops at 0 below a count of things held.
    money.fill("998")
    plus = money.locator("xpath=..").get_by_role("button", name="One more")
    plus.click()
    plus.click()
    expect(money).to_have_value("999")
    expect(money).not_to_have_accessible_description(limits)
    money.fill("1000")
    shows_not_yet(page, ["Ann", "Bob"])
    new_tally(page)
    expect(page.locator(".history .old")).to_contain_text("Ann · Bob (not totalled)")


# --- nothing stale is shown, shared or kept ------------------------------------------------------

@pytest.mark.parametrize("width", WIDTHS)
def test_a_count_to_put_right_leaves_no_total_winner_or_share_behind(open_phone, width):
    page = open_phone(width=width)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    start(page, "DIG", "Ann", "Bob")
    enter(page, "Ann", {"green": 2})
    enter(page, "Bob", {"red": 1})
    shows(page, dig(page, {"Ann": {"green": 2}, "Bob": {"red": 1}}), "points")

    field(page, "Bob red").fill("5")  # DIG has 4 bones of a colour
    shows_not_yet(page, ["Ann", "Bob"])
    expect(page.get_by_text("Totals are waiting for the count marked below.")).to_be_visible()
    screenshot(page, f"not-yet-{width}")

    # A table the scorer refuses is no more final than a count out of its field's limits.
    field(page, "Bob red").fill("1")
    enter(page, "Ann", {"red": 2})
    enter(page, "Bob", {"red": 3})
    refused = calculator(page, "dig", {"bowls": bowls(page), "players": [
        {"name": "Ann", "dropped": {"green": 2, "red": 2}},
        {"name": "Bob", "dropped": {"red": 3}}]}, status=422)
    assert set(refused["errors"]) == {"players", "players.0.dropped.red", "players.1.dropped.red"}
    shows_not_yet(page, ["Ann", "Bob"])

    # Left like this, the tally is kept without totals, and says so.
    new_tally(page)
    earlier = page.locator(".history .old")
    expect(earlier).to_contain_text("Ann · Bob (not totalled)")
    assert download(page, "Download all tallies (JSON)")["tallies"][0]["result"] is None

    # Put right, it is totalled again, and what is shared is the calculator's answer.
    earlier.click()
    enter(page, "Bob", {"red": 1})
    answer = dig(page, {"Ann": {"green": 2, "red": 2}, "Bob": {"red": 1}})
    shows(page, answer, "points")
    page.get_by_role("button", name="Share result").click()
    expect(page.locator("#status")).to_contain_text("Result copied")
    lines = page.evaluate("navigator.clipboard.readText()").split("\n")[2:]  # after the bowls
    place = {1: "1st", 2: "2nd"}
    assert lines == [f"{place[p['rank']]} {p['name']} {amount(p['total'])}"
                     + (" (winner)" if p["name"] in answer["winners"] else "")
                     for p in sorted(answer["players"], key=lambda p: p["rank"])]


def hold_answers(page: Page, game: str) -> list[tuple[Route, object]]:
    """Holds back the calculator's answers to the page: each request with the answer the server
    gave it, to be let through later."""
    held: list[tuple[Route, object]] = []
    page.route(f"**/api/v1/games/{game}/score", lambda route: held.append((route, route.fetch())))
    return held


def asked_about(page: Page, held: list, green: int) -> tuple[Route, object]:
    """The held request about Ann's `green` bones, once the page has sent it."""
    for _ in range(200):
        for route, answer in held:
            if route.request.post_data_json["players"][0]["dropped"]["green"] == green:
                return route, answer
        page.wait_for_timeout(50)
    raise AssertionError(f"the page never asked about {green} green bones")


@pytest.mark.parametrize("width", WIDTHS)
def test_an_answer_to_counts_since_changed_is_never_shown(open_phone, width):
    # issue 19: the DIG bowls request could show stale totals for ~200 ms
    page = open_phone(width=width, go=False, service_workers="block")
    held = hold_answers(page, "dig")
    page.goto("/")
    start(page, "DIG", "Ann")
    enter(page, "Ann", {"green": 1})
    route, answer = asked_about(page, held, 1)
    field(page, "Ann green").fill("2")
    route.fulfill(response=answer)  # the answer to 1 green bone comes after the 2nd was entered
    route, answer = asked_about(page, held, 2)
    shows(page, dig(page, {"Ann": {"green": 2}}), "points")
    route.fulfill(response=answer)
    shows(page, dig(page, {"Ann": {"green": 2}}), "points")
    expect(page.get_by_text("differ")).to_have_count(0)


@pytest.mark.service_worker
@pytest.mark.parametrize("width", WIDTHS)
def test_once_the_server_answered_otherwise_new_counts_wait_for_it(open_phone, width):
    page = open_phone(width=width, go=False, service_workers="block", allow_network_errors=True)
    # route.fetch() asks the server from outside the browser, which set_offline does not reach:
    # while the phone is offline, the route refuses as the network would.
    offline = False
    refused: list[dict] = []

    def one_more(route: Route) -> None:
        if offline:
            refused.append(route.request.post_data_json)
            route.abort("internetdisconnected")
            return
        answer = route.fetch()
        body = answer.json()
        body["players"][0]["total"] += 1
        route.fulfill(response=answer, json=body)

    def believed(dropped: dict[str, dict[str, int]]) -> dict:
        answer = dig(page, dropped)
        answer["players"][0]["total"] += 1
        return answer

    page.route("**/api/v1/games/dig/score", one_more)
    page.goto("/")
    start(page, "DIG", "Ann", "Bob")
    enter(page, "Ann", {"green": 1})
    enter(page, "Bob", {"yellow": 1})  # 4 points; Ann's 5 is 6 by this server
    shows(page, believed({"Ann": {"green": 1}, "Bob": {"yellow": 1}}), "points")

    offline = True
    page.context.set_offline(True)
    enter(page, "Bob", {"yellow": 2})
    for _ in range(200):  # the page asked about the new counts and found no server
        if any(body["players"][1]["dropped"]["yellow"] == 2 for body in refused):
            break
        page.wait_for_timeout(50)
    else:
        raise AssertionError("the page never asked about Bob's 2 yellow bones")
    shows_not_yet(page, ["Ann", "Bob"])  # this phone's 8 is not the server's word
    standings = page.get_by_role("region", name="Standings")
    expect(standings.get_by_text("totalled once the server answers")).to_be_visible()
    offline = False
    page.context.set_offline(False)
    shows(page, believed({"Ann": {"green": 1}, "Bob": {"yellow": 2}}), "points")


# --- reading an earlier tally --------------------------------------------------------------------

@pytest.mark.parametrize("width", WIDTHS)
def test_reading_an_earlier_tally_keeps_its_date_and_place(open_phone, width):
    page = open_phone(width=width, go=False)
    page.clock.set_fixed_time(datetime(2025, 3, 1, 20, 0))
    page.goto("/")
    start(page, "DIG", "Ann", "Bob")
    enter(page, "Ann", {"green": 2})
    enter(page, "Bob", {"red": 1})
    new_tally(page)
    page.clock.set_fixed_time(datetime(2025, 3, 2, 20, 0))
    start(page, "Digging for Dinos", "Matteo")
    page.get_by_role("region", name="Matteo").locator("summary", has_text="Stegosaurus").click()
    enter(page, "Matteo", {f"stegosaurus {position}": 1 for position in range(1, 6)})
    new_tally(page)

    page.clock.set_fixed_time(datetime(2025, 3, 3, 20, 0))
    earlier = page.locator(".history .old")
    expect(earlier).to_have_count(2)
    listed = earlier.all_text_contents()
    assert "2 Mar 2025" in listed[0] and "1 Mar 2025" in listed[1], listed  # a British phone

    # Read, folded open, reloaded, left: nothing is changed.
    earlier.nth(1).click()
    shows(page, dig(page, {"Ann": {"green": 2}, "Bob": {"red": 1}}), "points")
    page.get_by_role("region", name="Ann").get_by_text("Breakdown").click()
    page.reload()
    expect(field(page, "Ann green")).to_have_value("2")
    new_tally(page)
    expect(earlier).to_have_text(listed)
    earlier.nth(0).click()
    page.get_by_role("region", name="Matteo").locator("summary", has_text="Brontosaurus").click()
    new_tally(page)
    expect(earlier).to_have_text(listed)

    # A count corrected is a change: the tally comes first, dated the day of the correction.
    earlier.nth(1).click()
    enter(page, "Bob", {"red": 2})
    shows(page, dig(page, {"Ann": {"green": 2}, "Bob": {"red": 2}}), "points")
    new_tally(page)
    expect(earlier.nth(0)).to_contain_text("3 Mar 2025")
    expect(earlier.nth(0)).to_contain_text("Ann 10 · Bob 2")
    expect(earlier.nth(1)).to_have_text(listed[0])


# --- a table the box cannot hold -----------------------------------------------------------------

def refused_alike(page: Page, table: dict, players: list[str]) -> None:
    """The calculator refuses `table` (Dig It Up) and the page refuses it alike: the counts it
    names, and only those, are marked with its words, and no total is shown."""
    problem = calculator(page, "dig-it-up", table, status=422)
    named = {key: messages for key, messages in problem["errors"].items() if key != "players"}
    assert named
    for key, messages in named.items():
        _, index, _, tile = key.split(".")
        count = field(page, f"{players[int(index)]} {tile}")
        expect(count).to_have_attribute("aria-invalid", "true")
        for message in messages:
            expect(count).to_have_accessible_description(re.compile(re.escape(message)))
    expect(page.locator("[aria-invalid=true]")).to_have_count(len(named))
    if "players" in problem["errors"]:
        standings = page.get_by_role("region", name="Standings")
        expect(standings.get_by_text(problem["errors"]["players"][0])).to_have_count(1)
    shows_not_yet(page, players)


@pytest.mark.parametrize("width", WIDTHS)
def test_an_impossible_dig_it_up_table_is_refused_naming_the_counts(open_phone, width):
    # issue 19: 10 + 10 gold (the box has 14), 11 gold in the 2–3 player game, diamonds in the
    # simplified game of 2 or 3 were all scored
    page = open_phone(width=width)
    start(page, "Dig It Up", "Ann", "Bob")
    variant = page.get_by_label("Variant")
    variant.select_option("standard")
    enter(page, "Ann", {"gold": 10})
    enter(page, "Bob", {"gold": 10})
    refused_alike(page, {"variant": "standard", "players": [
        {"name": "Ann", "tiles": {"gold": 10}}, {"name": "Bob", "tiles": {"gold": 10}}]},
        ["Ann", "Bob"])
    screenshot(page, f"gold-over-the-box-{width}")
    enter(page, "Bob", {"gold": 4})
    shows(page, calculator(page, "dig-it-up", {"variant": "standard", "players": [
        {"name": "Ann", "tiles": {"gold": 10}}, {"name": "Bob", "tiles": {"gold": 4}}]}), "₩")

    # The 2–3 player game is played on sites A–F, which hold 10 gold.
    variant.select_option("small")
    refused_alike(page, {"variant": "small", "players": [
        {"name": "Ann", "tiles": {"gold": 10}}, {"name": "Bob", "tiles": {"gold": 4}}]},
        ["Ann", "Bob"])
    enter(page, "Bob", {"gold": 0})
    enter(page, "Ann", {"gold": 11})  # beyond the board on its own: the count itself is refused
    calculator(page, "dig-it-up", {"variant": "small", "players": [
        {"name": "Ann", "tiles": {"gold": 11}}, {"name": "Bob"}]}, status=422)
    expect(field(page, "Ann gold")).to_have_accessible_description(
        re.compile("whole number from 0 to 10"))
    shows_not_yet(page, ["Ann", "Bob"])
    enter(page, "Ann", {"gold": 6})
    shows(page, calculator(page, "dig-it-up", {"variant": "small", "players": [
        {"name": "Ann", "tiles": {"gold": 6}}, {"name": "Bob"}]}), "₩")

    # Simplified: two players dig on the small board, which has no diamonds ...
    variant.select_option("simplified")
    expect(field(page, "Ann diamond")).to_have_count(0)
    problem = calculator(page, "dig-it-up", {"variant": "simplified", "players": [
        {"name": "Ann", "tiles": {"diamond": 1}}, {"name": "Bob"}]}, status=422)
    assert list(problem["errors"]) == ["players.0.tiles.diamond"]
    # ... four dig on both boards: 8 diamonds, not 9.
    for name in ("Cy", "Dee"):
        page.get_by_label("Player name").fill(name)
        page.get_by_role("button", name="Add player").click()
    players = ["Ann", "Bob", "Cy", "Dee"]
    enter(page, "Ann", {"diamond": 5})
    enter(page, "Dee", {"diamond": 4})
    refused_alike(page, {"variant": "simplified", "players": [
        {"name": "Ann", "tiles": {"gold": 6, "diamond": 5}}, {"name": "Bob"}, {"name": "Cy"},
        {"name": "Dee", "tiles": {"diamond": 4}}]}, players)
    enter(page, "Dee", {"diamond": 3})
    shows(page, calculator(page, "dig-it-up", {"variant": "simplified", "players": [
        {"name": "Ann", "tiles": {"gold": 6, "diamond": 5}}, {"name": "Bob"}, {"name": "Cy"},
        {"name": "Dee", "tiles": {"diamond": 3}}]}), "₩")


# --- a total is final only for the game as it stands ---------------------------------------------

def test_counts_the_chosen_variant_cannot_hold_are_refused_not_dropped(open_phone):
    # Switched to "2–3 players" after Cy's diamonds were entered, the page showed 30 ₩ as Cy's
    # winning total: the diamonds were hidden and left out, though still kept.
    page = open_phone(width=360)
    start(page, "Dig It Up", "Ann", "Bob", "Cy", "Dee")
    players = ["Ann", "Bob", "Cy", "Dee"]
    variant = page.get_by_label("Variant")
    expect(variant).to_have_value("standard")
    # (and a crystal, a ★ tile to draw the Appraisal card kept below)
    enter(page, "Cy", {"gold": 5, "diamond": 5, "crystal": 1})
    expect(total(page, "Cy")).to_have_text("49")  # gold 15, diamonds 34, a crystal in no set
    variant.select_option(label="2–3 players")
    diamond = field(page, "Cy diamond")
    expect(diamond).to_have_value("5")
    expect(diamond).to_have_attribute("aria-invalid", "true")
    expect(diamond).to_have_accessible_description(
        "The 2–3 players game has no diamond tiles.")
    shows_not_yet(page, players)
    expect(page.get_by_text("Totals are waiting for the count marked below.")).to_be_visible()
    # Switched back, everything is there and totalled again.
    variant.select_option(label="Standard")
    expect(total(page, "Cy")).to_have_text("49")

    # The simplified game has no chance cards: a kept Appraisal is refused, not left out.
    enter(page, "Cy", {"appraisal": 1})
    expect(total(page, "Cy")).to_have_text("57")
    variant.select_option(label="Simplified")
    card = field(page, "Cy appraisal")
    expect(card).to_have_value("1")
    expect(card).to_have_accessible_description(
        "End of game: +8 ₩. The Simplified variant is played without chance cards.")
    shows_not_yet(page, players)
    card.fill("0")  # taken off: the simplified totals of what is left
    expect(total(page, "Cy")).to_have_text("21")  # 10 each for gold and diamonds, 1 the crystal
    # … nor missions: one chosen in the standard game is refused too, until none is chosen.
    variant.select_option(label="Standard")
    field(page, "Cy mission").select_option(label="Gold Digger (15 ₩)")
    expect(total(page, "Cy")).to_have_text("64")
    variant.select_option(label="Simplified")
    expect(field(page, "Cy mission")).to_have_accessible_description(
        re.compile("The Simplified variant is played without missions."))
    shows_not_yet(page, players)
    field(page, "Cy mission").select_option(label="No mission")
    answer = calculator(page, "dig-it-up", {"variant": "simplified", "players": [
        {"name": "Ann"}, {"name": "Bob"},
        {"name": "Cy", "tiles": {"gold": 5, "diamond": 5, "crystal": 1}}, {"name": "Dee"}]})
    shows(page, answer, "₩")


def test_dig_totals_wait_while_the_bowls_are_tapped_in_order(open_phone):
    # While "Now tap bowl 2:" asked for the rest of the order, the half-tapped order's totals
    # were shown as final, with a winner and Share.
    page = open_phone(width=360)
    start(page, "DIG", "Ann", "Bob")
    enter(page, "Ann", {"red": 3})
    enter(page, "Bob", {"green": 2})
    expect(total(page, "Bob")).to_have_text("10")
    page.locator("#tap-green").click()  # the order entered taken back from its first bowl
    expect(page.get_by_text("Tap the bowls in order, from the Doghouse out:")).to_be_visible()
    taps = ["red", "blue", "purple", "yellow"]
    for n, colour in enumerate(taps[:3], start=1):  # and tapped anew
        page.locator(f"#tap-{colour}").click()
        expect(page.get_by_text(f"Now tap bowl {n + 1}:")).to_be_visible()
        shows_not_yet(page, ["Ann", "Bob"])
        expect(page.get_by_text("Totals wait until every bowl's colour is set.")).to_be_visible()
    page.reload()  # a phone woken from sleep: still being tapped in
    expect(page.get_by_text("Now tap bowl 4:")).to_be_visible()
    shows_not_yet(page, ["Ann", "Bob"])
    page.locator("#tap-yellow").click()
    shows(page, dig(page, {"Ann": {"red": 3}, "Bob": {"green": 2}}), "points")
    assert bowls(page) == ["red", "blue", "purple", "yellow", "green"]


def answering_ann_s_green(page: Page, refusals: int, status: int, headers: dict[str, str],
                          content_type: str, body: str) -> list[float]:
    """The calculator's answer to the sheet with Ann's 2 green bones, the first `refusals` times
    it is asked, is this one (every other sheet, and Ann's after, the server answers): when each
    was asked (monotonic), as they come."""
    asked: list[float] = []

    def failing(route) -> None:
        if route.request.post_data_json["players"][0]["dropped"]["green"] != 2:
            # the sheet before Ann's count is answered: only hers is refused, and asked again
            route.continue_()
            return
        asked.append(time.monotonic())
        if len(asked) <= refusals:
            route.fulfill(status=status, headers=headers, content_type=content_type, body=body)
        else:
            route.continue_()

    page.route("**/api/v1/games/dig/score", failing)
    return asked


@pytest.mark.parametrize(("status", "refusals", "wait"), [(429, 2, 1), (500, 2, 1), (502, 1, 5),
                                                        (503, 1, 5)])
def test_a_failed_answer_from_the_server_keeps_the_phone_s_totals_and_asks_again(
        open_phone, status, refusals, wait):
    # A 429 or a 500 hid the totals behind "waiting for the count marked below", with no count
    # marked, and nothing was asked again until a count changed. A proxy's 502 (or the app's
    # 503, its database away) was said as "Offline" on a phone with a network, and asked again
    # after 3 s whatever Retry-After said.
    page = open_phone(go=False, allow_network_errors=True)
    asked = answering_ann_s_green(page, refusals, status, {"Retry-After": str(wait)},
                                  "application/problem+json",
                                  json.dumps({"title": "Try later", "status": status,
                                              "detail": "Try again in a moment."}))
    page.goto("/")
    start(page, "DIG", "Ann", "Bob")
    enter(page, "Ann", {"green": 2})
    expect(total(page, "Ann")).to_have_text("10")  # the phone's own, at once
    expect(page.get_by_text("Totals are waiting for the count marked below.")).to_have_count(0)
    expect(page.get_by_role("status").filter(
        has_text="No answer from the server — totals are worked out on this phone")).to_be_visible()
    # asked again by itself, no sooner than the server said, and then the server's answer stands
    expect(page.get_by_role("status").filter(has_text="totals are worked out on this phone")) \
        .to_have_count(0, timeout=15_000)
    assert len(asked) == refusals + 1
    # (stamped as each ask reaches the test, a little after the page sent it: some leeway)
    assert all(later - sooner >= wait - 0.3 for sooner, later in pairwise(asked)), asked
    shows(page, dig(page, {"Ann": {"green": 2}, "Bob": {}}), "points")


def test_a_game_everyone_ended_on_0_has_its_winners_and_can_be_shared(open_phone):
    # 0–0 showed no place and no winner and could not be shared, while the calculator ranks both
    # first and both win. Until anything is entered nobody is ranked; a 0 entered is an entry.
    page = open_phone(width=360)
    start(page, "Digging for Dinos", "Ann", "Bob")
    expect(total(page, "Ann")).to_have_text("0")
    expect(page.get_by_text(re.compile(r"^1st"))).to_have_count(0)  # no place given
    sheet = page.get_by_role("region", name="Ann", exact=True)
    sheet.locator("summary", has_text="Stegosaurus").click()
    field(page, "Ann stegosaurus 1").fill("0")
    answer = calculator(page, "digging-for-dinos", {"players": [
        {"name": "Ann", "tiles": {}}, {"name": "Bob", "tiles": {}}]})
    assert answer["winners"] == ["Ann", "Bob"]
    shows(page, answer, "points")
    for name in ("Ann", "Bob"):
        expect(page.get_by_role("region", name=name, exact=True)
               .get_by_text("1st · shared win")).to_be_visible()
    new_tally(page)
    expect(page.get_by_text("Shared win: Ann, Bob")).to_be_visible()

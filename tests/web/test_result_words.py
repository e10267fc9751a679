"""Issue 19, "a result that settles arguments": each total's breakdown in the rulebook's words
(the mission by name, the chance cards, the sets with their tiles, the Trinity Prize, the bundles
and the tiles left over) and the tie-break with the figures it compared, in English and Korean. At
360 px, Korean at 390 too; every amount is the calculator's own answer
(POST /api/v1/games/{game}/score)."""

import re

import pytest
from playwright.sync_api import Page, expect

from .phone import BOWLS, JOSEPH, enter, field, start, tally_joseph, tap_bowls, total
from .test_trusted_totals import WIDTHS, calculator, minus

# Joseph's scoresheet as the calculator takes it (rulebook "Final money calculation example").
JOSEPHS_TABLE = {"variant": "standard", "players": [{
    "name": "Joseph", "tiles": {"gold": 3, "incense_burner": 1, "statue": 2, "knife": 1,
                                "scroll": 1, "crystal": 1, "ruby": 1, "stone": 3},
    "tokens": 8, "mission": {"id": "jack_of_all_trades"}, "cards": {"pink_diamond": 1}}]}


def breakdown(page: Page, player: str) -> list[tuple[str, str]]:
    """A player's breakdown as it reads: (term, amount) lines."""
    sheet = page.get_by_role("region", name=player, exact=True)
    sheet.get_by_text(page.evaluate("document.documentElement.lang") == "ko" and "점수 내역"
                      or "Breakdown").click()
    lines = sheet.locator("dl div")
    expect(lines.first).to_be_visible()
    return [(line.locator("dt").text_content(), line.locator("dd").text_content())
            for line in lines.all()]


@pytest.mark.parametrize("width", WIDTHS)
def test_josephs_money_reads_as_the_rulebook_example(open_phone, width):
    page = open_phone(width=width)
    start(page, "Dig It Up", "Joseph")
    page.get_by_label("Variant").select_option("standard")
    enter(page, "Joseph", JOSEPH)
    field(page, "Joseph mission").select_option(label="Jack of All Trades (20 ₩)")
    parts = calculator(page, "dig-it-up", JOSEPHS_TABLE)["players"][0]["breakdown"]
    sets = parts["sets"]
    trinity = 10  # rulebook: "an additional 10 ₩ for collecting all three types of bronzeware"
    expect(total(page, "Joseph")).to_have_text("50")
    assert breakdown(page, "Joseph") == [
        ("Mission: Jack of All Trades (achieved)", minus(parts["mission"])),
        # the card counted as a tile says so: "— 0" beside a card read as worth nothing
        ("Chance cards: pink diamond ×1 (counted as a diamond tile)", minus(parts["cards"])),
        ("Money tokens", minus(parts["tokens"])),
        ("gold set, 3 tiles", minus(sets["gold"])),
        ("bronzeware set, 4 tiles", minus(sets["bronzeware"] - trinity)),
        ("Trinity Prize, 1 × 10", minus(trinity)),
        ("stone set, 3 tiles", minus(sets["stone"])),
        # "four left-over tiles: 1 crystal, 1 ruby, 1 ancient scroll and the Pink Diamond card"
        ("1 bundle of 3 tiles", minus(parts["bundles"])),
        ("Left over, 1 tile: no bundle", "0"),
    ]


@pytest.mark.parametrize("locale", ["en-GB", "ko-KR"])
def test_insurance_reads_as_the_stone_set_counted_0_not_as_money(open_phone, locale):
    # RULINGS: Insurance makes "your stone set bonus count as 0". The breakdown read "Chance
    # cards: insurance ×1 — 4" and "stone set, 4 tiles — −4": at the table, Insurance worth 4 ₩.
    page = open_phone(width=360, locale=locale)
    korean = locale.startswith("ko")
    page.get_by_role("button", name="Dig It Up", exact=True).click()
    page.locator("#new-name").fill("Dad")
    page.keyboard.press("Enter")
    table = {"variant": "standard", "players": [{
        "name": "Dad", "tiles": {"gold": 3, "stone": 4, "scroll": 1, "crystal": 1}, "tokens": 2,
        "cards": {"insurance": 1, "appraisal": 1}, "mission": {"id": "gold_digger"}}]}
    counts = {"gold": 3, "stone": 4, "scroll": 1, "crystal": 1, "insurance": 1, "appraisal": 1}
    for key, n in counts.items():
        page.locator(f"input[id$='-{key}']").first.fill(str(n))
    page.locator("input[id$='-tokens']").first.fill("2")
    page.locator("select[id$='-mission']").first.select_option("gold_digger")
    answer = calculator(page, "dig-it-up", table)["players"][0]
    parts = answer["breakdown"]
    assert parts["sets"]["stone"] < 0 and parts["cards"] > 8  # the server's split, unchanged
    if not korean:
        expect(total(page, "Dad")).to_have_text(minus(answer["total"]))
    lines = breakdown(page, "Dad")
    cards_term, stone_term = ("찬스 카드", "돌 세트") if korean else ("Chance cards", "stone set")
    cards = next(line for line in lines if line[0].startswith(cards_term))
    stone = next(line for line in lines if line[0].startswith(stone_term))
    # the cards' money alone (Appraisal's 8), and the stone set as it counts: 0, by Insurance
    assert cards[1] == "8", lines
    assert stone == (("돌 세트, 타일 4개: 보험으로 0" if korean
                      else "stone set, 4 tiles: 0 by insurance"), "0"), lines
    assert sum(int(amount.replace("−", "-")) for _, amount in lines) == answer["total"], lines


@pytest.mark.parametrize("width", WIDTHS)
def test_a_missed_mission_and_the_simplified_game_read_in_their_words(open_phone, width):
    page = open_phone(width=width)
    start(page, "Dig It Up", "Ivan")
    enter(page, "Ivan", {"statue": 2, "crystal": 3, "ruby": 1, "diamond": 1})
    field(page, "Ivan mission").select_option(label="Gold Digger (15 ₩)")
    table = {"players": [{"name": "Ivan", "tiles": {"statue": 2, "crystal": 3, "ruby": 1,
                                                    "diamond": 1},
                          "mission": {"id": "gold_digger"}}]}
    parts = calculator(page, "dig-it-up", table)["players"][0]["breakdown"]
    lines = breakdown(page, "Ivan")
    assert lines[0] == ("Mission: Gold Digger (not achieved)", minus(parts["mission"]))
    # rulebook: "these 7 tiles form 2 separate bundles of 3 tiles each", 10 ₩, and one is left
    assert lines[-2:] == [("2 bundles of 3 tiles", minus(parts["bundles"])),
                          ("Left over, 1 tile: no bundle", "0")]

    page.get_by_label("Variant").select_option("simplified")
    # a game with no missions: the one chosen is refused, not left out, until it is taken off
    expect(field(page, "Ivan mission")).to_have_attribute("aria-invalid", "true")
    field(page, "Ivan mission").select_option(label="No mission")
    enter(page, "Ivan", {"crystal": 4})
    table = {"variant": "simplified", "players": [
        {"name": "Ivan", "tiles": {"statue": 2, "crystal": 4, "ruby": 1, "diamond": 1}}]}
    parts = calculator(page, "dig-it-up", table)["players"][0]["breakdown"]
    expect(page.get_by_role("region", name="Ivan").locator("dl div")).to_have_count(3)
    assert breakdown(page, "Ivan") == [
        ("Money tokens", minus(parts["tokens"])),
        ("crystal set, 4 tiles", minus(parts["sets"]["crystal"])),
        ("In no set, 4 tiles × 1", minus(parts["bundles"])),
    ]


def tie_figures(answer: dict, name: str, locale: str) -> str:
    """What DIG's tie-break compares for a player, from the calculator's breakdown: bones by the
    points of their bowl, most points first ("1 × 5 pt"; in Korean "5점 뼈 1개": it read
    "1 × 5점")."""
    parts = next(p for p in answer["players"] if p["name"] == name)["breakdown"]
    said = ("{bones} × {value} pt" if locale == "en-GB" else "{value}점 뼈 {bones}개")
    return ", ".join(said.format(**b) for b in sorted(parts.values(), key=lambda b: -b["value"]))


@pytest.mark.parametrize(("width", "locale"), [(360, "en-GB"), (390, "ko-KR")])
def test_a_tie_break_names_the_figures_it_compared(open_phone, width, locale):
    page = open_phone(width=width, locale=locale)
    page.get_by_role("button", name="DIG", exact=True).click()
    for name in ("Ann", "Bob"):
        page.locator("#new-name").fill(name)
        page.locator("form.add button").click()
    tap_bowls(page, BOWLS)  # the table's order, entered
    if locale == "ko-KR":
        enter(page, "Ann", {"초록": 1})
        enter(page, "Bob", {"노랑": 1, "빨강": 1})
    else:
        enter(page, "Ann", {"green": 1})
        enter(page, "Bob", {"yellow": 1, "red": 1})
    bowls = page.locator(".bowls select").all()  # nearest the Doghouse first, in either language
    answer = calculator(page, "dig", {"bowls": [bowl.input_value() for bowl in bowls], "players": [
        {"name": "Ann", "dropped": {"green": 1}},
        {"name": "Bob", "dropped": {"yellow": 1, "red": 1}}]})
    assert answer["tie_break"], answer
    ahead = [p["name"] for p in answer["players"] if p["rank"] == 1]
    tie = page.locator("#tie")
    figures = "; ".join(f"{name}: {tie_figures(answer, name, locale)}" for name in ("Ann", "Bob"))
    expect(tie).to_contain_text(f"{figures}.")
    expect(tie).to_contain_text(("Ahead: " if locale == "en-GB" else "앞선 사람: ")
                                + ", ".join(ahead))
    # The standings count the points as the tie-break's words do ("29 점" beside "29점으로").
    totals = [f"{p['total']}{' points' if locale == 'en-GB' else '점'}"
              for p in sorted(answer["players"], key=lambda p: p["rank"])]
    expect(page.get_by_role("region", name=re.compile("^(Standings|순위)$"))
           .locator("li .pts")).to_have_text(totals)


@pytest.mark.parametrize("locale", ["en-GB", "ko-KR"])
def test_a_tie_the_tie_break_cannot_break_is_said_to_be_shared_after_it(open_phone, locale):
    # Jo and Pat with the same bones: the page said "Shared win" and nothing of the tie-break,
    # where it names the bones it compared in a tie it breaks; at the table it read as the rule
    # forgotten. RULINGS §2 (the rulebook's "Tiebreakers"): most 5-point bones, then 4-point, …
    # 1-point; still tied → shared.
    page = open_phone(locale=locale)
    page.get_by_role("button", name="DIG", exact=True).click()
    for name in ("Jo", "Pat", "Cy"):
        page.locator("#new-name").fill(name)
        page.locator("form.add button").click()
    tap_bowls(page, BOWLS)
    same = {"초록": 2, "빨강": 1} if locale == "ko-KR" else {"green": 2, "red": 1}
    enter(page, "Jo", same)
    enter(page, "Pat", same)
    enter(page, "Cy", {"파랑" if locale == "ko-KR" else "blue": 1})
    answer = calculator(page, "dig", {"bowls": BOWLS, "players": [
        {"name": "Jo", "dropped": {"green": 2, "red": 1}},
        {"name": "Pat", "dropped": {"green": 2, "red": 1}},
        {"name": "Cy", "dropped": {"blue": 1}}]})
    assert answer["winners"] == ["Jo", "Pat"] and answer["tie_break"] is None, answer
    figures = "; ".join(f"{name}: {tie_figures(answer, name, locale)}" for name in ("Jo", "Pat"))
    tie = page.locator("#tie")
    if locale == "en-GB":
        expect(tie).to_have_text("Tie-break: Most 5-point bones, then 4-point, 3-point, 2-point, "
                                 f"1-point. Jo, Pat tied on 11. {figures}. They tie on it too: "
                                 "the place is shared.")
    else:
        expect(tie).to_contain_text(f"Jo, Pat 님이 11점으로 동점. {figures}. 동점 규칙으로도 같아 "
                                    "같은 순위입니다.")
    expect(page.get_by_role("region", name=re.compile("^(Standings|순위)$"))
           .locator("li .pos")).to_have_text(["1st", "1st", "3rd"] if locale == "en-GB"
                                             else ["1위", "1위", "3위"])


def test_the_language_is_changed_on_the_tally_itself_and_nothing_entered_is_lost(open_phone):
    # A tally's language was chosen only on the home screen: New tally, the language, then the
    # tally again from Earlier tallies, at a table where one player reads Korean.
    page = open_phone(width=360)
    tally_joseph(page)
    expect(total(page, "Joseph")).to_have_text("50")
    language = page.get_by_label("Language", exact=True)
    language.scroll_into_view_if_needed()
    language.select_option("ko")
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    expect(page.get_by_role("heading", name="순위")).to_be_visible()  # the standings
    expect(page.get_by_role("button", name="새 기록")).to_be_visible()  # New tally, in the frame
    expect(page.get_by_label("Joseph 합계", exact=True)).to_have_text("50")
    page.reload()  # kept on the phone, as one chosen on the home screen
    expect(page.get_by_role("heading", name="순위")).to_be_visible()
    page.get_by_label("언어", exact=True).select_option("en")
    expect(page.get_by_role("heading", name="Standings")).to_be_visible()
    expect(total(page, "Joseph")).to_have_text("50")
    expect(field(page, "Joseph gold")).to_have_value("3")

"""The page at a real table's phones (issue "The phone scorer a table trusts"): at 130% zoom a
360 px phone lays the page out at 277 px and nothing may scroll sideways, with 5 players, on the
sheets or the grid; the text follows the size the phone's owner chose; and filling the last seat
leaves the page where it is, counting ready to start at the first player."""

import re

import pytest
from playwright.sync_api import Page, expect

from .phone import enter, field, screenshot, start, tap_bowls, total, words_cut
from .test_grid import GRID, WORDS_CUT, at, count_on_pad, grid_start

WIDTHS = [360, 390]
ZOOMED = round(360 / 1.3)  # CSS pixels across a 360 px phone at 130% zoom
LONG = ["Bartholomew", "Maximiliane", "Jo", "Anastasia", "Konstantin"]
MONEY = "money tokens, ₩ value"


def add_players(page: Page, names: list[str]) -> None:
    for name in names:
        page.get_by_label("Player name").fill(name)
        page.get_by_role("button", name="Add player").click()
        expect(total(page, name)).to_have_count(1)


def sideways(page: Page) -> list[float]:
    """How far the page reaches past the screen's width, and how far it was scrolled sideways."""
    return page.evaluate("[document.documentElement.scrollWidth - innerWidth, scrollX]")


def fits_on_one_line(page: Page, selector: str) -> None:
    """Each element's text keeps to one line inside the screen."""
    for box in page.locator(selector).all():
        height, font, left, right = box.evaluate(
            "(el) => { const r = el.getBoundingClientRect();"
            " return [r.height, parseFloat(getComputedStyle(el).fontSize), r.left, r.right]; }")
        assert height < 1.8 * font and left >= 0 and right <= ZOOMED, \
            (selector, height, font, left, right)


@pytest.mark.parametrize("view", ["sheets", "grid"])
def test_at_130_percent_zoom_with_5_players_nothing_scrolls_sideways(open_phone, view):
    # issue: at 130% zoom with 5 players the bar scrolled sideways
    page = open_phone(width=ZOOMED)
    page.get_by_role("button", name="Dig It Up", exact=True).click()
    add_players(page, LONG[:1])
    if view == "grid":
        page.get_by_role("button", name=GRID).click()
    add_players(page, LONG[1:])
    if view == "grid":
        count_on_pad(page, f"Konstantin {MONEY}", -10)
        count_on_pad(page, "Jo gold", 9)
    else:
        field(page, f"Konstantin {MONEY}").fill("-10")
        field(page, "Jo gold").fill("9")
    expect(total(page, "Konstantin")).to_have_text("−10")
    expect(total(page, "Jo")).to_have_text("100")
    assert sideways(page) == [0, 0]
    if view == "grid":
        fits_on_one_line(page, ".grid thead output")
        screenshot(page, "grid-5-players-130-percent")
    else:
        fits_on_one_line(page, "#bar .chip b")
        # Every count's field, with its buttons, stays inside the screen.
        for row in page.locator(".row").all():
            box = row.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= ZOOMED, box
        screenshot(page, "bar-5-players-130-percent")
    page.mouse.wheel(200, 0)  # a thumb pushing sideways moves nothing
    assert sideways(page) == [0, 0]


def test_at_200_percent_zoom_a_count_s_name_and_buttons_fit_the_sheet(open_phone):
    # A 320 px phone at 200% zoom lays the page out 160 px wide: each count's + reached past
    # the screen, the page scrolled sideways, and the counts' names read a letter a line.
    page = open_phone(width=160)
    page.get_by_role("button", name="Dig It Up", exact=True).click()
    add_players(page, ["Ann", "Bob"])
    field(page, "Ann gold").fill("3")
    expect(total(page, "Ann")).to_have_text("3")
    assert sideways(page) == [0, 0]
    rows = page.locator(".row").evaluate_all("""(rows) => rows.map((row) => {
        const what = row.querySelector('.what').getBoundingClientRect();
        const last = [...row.querySelectorAll('button')].pop()?.getBoundingClientRect();
        return [what.width, last ? last.right : 0]; })""")
    assert rows and all(width >= 100 and right <= 160 for width, right in rows), rows


def set_text_size(page: Page, pixels: int) -> None:
    """The phone's text size, as its owner sets it in the browser (16 px unless changed)."""
    page.context.new_cdp_session(page).send("Page.setFontSizes",
                                             {"fontSizes": {"standard": pixels}})


@pytest.mark.parametrize("width", WIDTHS)
def test_the_text_follows_the_size_the_phone_is_set_to(open_phone, width):
    # issue: body text was a fixed 17 px
    page = open_phone(width=width, go=False)
    page.goto("/")
    body = page.locator("body")
    expect(body).to_have_css("font-size", "17px")
    set_text_size(page, 20)
    page.reload()
    expect(body).to_have_css("font-size", "21.25px")
    page.get_by_role("button", name="Dig It Up", exact=True).click()
    add_players(page, LONG)
    expect(field(page, "Jo gold")).to_have_css("font-size", "23px")  # 1.15 × the phone's size
    assert sideways(page) == [0, 0]
    page.get_by_role("button", name=GRID).click()
    count_on_pad(page, "Jo gold", 3)
    expect(total(page, "Jo")).to_have_text("3")
    assert sideways(page) == [0, 0]
    screenshot(page, f"grid-text-125-percent-{width}", full_page=True)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("view", ["sheets", "grid"])
def test_filling_the_last_seat_leaves_the_page_where_it_is(open_phone, width, view):
    # issue: after the last seat filled, the page jumped to the last player
    page = open_phone(width=width)
    page.get_by_role("button", name="Dig It Up", exact=True).click()
    add_players(page, LONG[:1])
    if view == "grid":
        page.get_by_role("button", name=GRID).click()
    add_players(page, LONG[1:4])
    add = page.get_by_role("button", name="Add player")
    before = (page.evaluate("scrollY"), add.bounding_box()["y"])
    add_players(page, LONG[4:])
    expect(add).to_be_disabled()
    page.wait_for_timeout(300)  # a jump would have happened by now
    assert (page.evaluate("scrollY"), add.bounding_box()["y"]) == before
    # Counting starts at the first player's first count.
    first = field(page, "Bartholomew gold")
    expect(first).to_be_focused()
    if view == "grid":
        assert at(first)
        pad = page.get_by_role("group", name="Number pad")
        pad.get_by_role("button", name="4", exact=True).click()
        expect(first).to_have_value("4")
        expect(total(page, "Bartholomew")).to_have_text("8")


@pytest.mark.parametrize("view", ["sheets", "grid"])
def test_a_player_filling_the_table_again_is_counted_next_not_over_the_first(open_phone, view):
    # A whole DIG table entered, one player removed and another added: counting went back to
    # the first player's first count, its figure selected (sheets) or the pad on it (grid), and
    # the next digit, meant for the new player, replaced it.
    page = open_phone()
    start(page, "DIG", "Ann", "Bob", "Cy", "Dee")
    for name, colour in (("Ann", "green"), ("Bob", "yellow"), ("Cy", "purple"), ("Dee", "blue")):
        enter(page, name, {colour: 1})
    expect(total(page, "Ann")).to_have_text("5")
    page.get_by_role("button", name="Remove Dee").click()
    page.get_by_role("dialog").get_by_role("button", name="Remove Dee").click()
    if view == "grid":
        page.get_by_role("button", name=GRID).click()
    add_players(page, ["Eli"])
    first = field(page, "Eli green")  # the new player's first count, not Ann's
    expect(first).to_be_focused()
    if view == "grid":
        page.get_by_role("group", name="Number pad").get_by_role("button", name="2",
                                                                  exact=True).click()
    else:
        page.keyboard.type("2")
    expect(first).to_have_value("2")
    expect(total(page, "Ann")).to_have_text("5")


@pytest.mark.parametrize("view", ["sheets", "grid"])
def test_the_count_being_entered_stays_under_the_thumb_as_the_standings_change(open_phone, view):
    # The standings, above the counts, grow once a count is entered (each player's place, the
    # winners, the share buttons) and change again as places and messages do: the first "1"
    # tapped on the grid for Ann's gold moved her gold 253 px down, behind the pad.
    page = open_phone(width=360)
    page.get_by_role("button", name="Dig It Up", exact=True).click()
    add_players(page, ["Ann", "Bob", "Cy", "Dee"])
    if view == "grid":
        page.get_by_role("button", name=GRID).click()
    standings = page.get_by_role("region", name="Standings")
    expect(standings.get_by_role("listitem")).to_have_count(4)
    expect(standings.get_by_role("button", name="Share result")).to_be_hidden()
    cell = field(page, "Bob gold")
    cell.evaluate("(el) => el.scrollIntoView({ block: 'center' })")
    cell.click()
    before = (cell.bounding_box()["y"], standings.bounding_box()["height"])

    def enter(digits: str) -> None:
        if view == "grid":
            count_on_pad(page, "Bob gold", int(digits))
        else:
            cell.fill(digits)

    enter("3")
    expect(total(page, "Bob")).to_have_text("3")
    expect(standings.get_by_role("button", name="Share result")).to_be_visible()
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")
    after = (cell.bounding_box()["y"], standings.bounding_box()["height"])
    assert after[1] > before[1] + 100, (before, after)
    assert abs(after[0] - before[0]) <= 1, (before, after)
    # A count past the box's limit: nothing is totalled, and the standings say so in a line.
    enter("15")  # the standard board has 14 gold
    expect(cell).to_have_attribute("aria-invalid", "true")
    expect(standings.get_by_text("Not worked out yet")).to_be_visible()
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")
    again = (cell.bounding_box()["y"], standings.bounding_box()["height"])
    assert again[1] < after[1] - 100, (after, again)
    assert abs(again[0] - before[0]) <= 1, (before, again)


def test_the_plus_tapped_stays_under_the_thumb_as_a_refusal_is_said_above_it(open_phone):
    # One player at a time, Dee's stones tapped up with +: the 11th stone at the table (the
    # standard board has 10) said so under every sheet's stones above hers, and her + went
    # 125 px down, behind the bottom bar, where the next tap of the thumb missed it.
    page = open_phone(width=390)
    start(page, "Dig It Up", "Ann", "Bob", "Cy", "Dee")
    for name, n in (("Ann", 3), ("Bob", 1), ("Cy", 4), ("Dee", 1)):
        field(page, f"{name} stone").fill(str(n))
    plus = page.get_by_label("Dee stone").locator(
        "xpath=following-sibling::button[@data-step][1]")
    # named with its count, as a screen reader lists the buttons
    expect(plus).to_have_accessible_name("One more, Dee stone")
    bar = page.locator("#bar").bounding_box()["y"]
    box = plus.bounding_box()
    page.mouse.wheel(0, box["y"] + box["height"] - (bar - 8))  # just above the bottom bar
    settle = "() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50)))"
    page.evaluate(settle)
    before = plus.bounding_box()["y"]
    assert before + plus.bounding_box()["height"] <= bar
    for n in ("2", "3"):
        page.mouse.click(box["x"] + box["width"] / 2, before + box["height"] / 2)  # the same spot
        expect(field(page, "Dee stone")).to_have_value(n)
        page.evaluate(settle)
        assert abs(plus.bounding_box()["y"] - before) <= 1, (n, before, plus.bounding_box())
    expect(field(page, "Dee stone")).to_have_attribute("aria-invalid", "true")
    expect(field(page, "Ann stone")).to_have_attribute("aria-invalid", "true")
    plus.locator("xpath=preceding-sibling::button[@data-step][1]").click()  # − put it right
    expect(field(page, "Dee stone")).to_have_value("2")
    expect(page.locator("[aria-invalid=true]")).to_have_count(0)


def test_a_name_in_a_grid_column_s_head_keeps_its_words_whole(open_phone):
    # At 320 px four columns' heads read "Sophi/e": the letters made smaller (to 70%) keep a
    # name's words whole, as on the bar (a name too long even so breaks, or is shortened past
    # three lines).
    width = 320
    page = open_phone(width=width)
    grid_start(page, "Dig It Up", "Alexandra Papadopoulou", "Mateo", "Sophie", "김민준")
    heads = page.locator(".grid thead .who")
    expect(heads).to_have_count(4)
    # the columns after the corner and Alexandra's
    whole = [f".grid thead th:nth-child({n}) .who" for n in (3, 4, 5)]
    assert [words_cut(page, head) for head in whole] == [[], [], []]
    for name in ("Mateo", "Sophie", "김민준"):
        expect(page.get_by_role("columnheader", name=re.compile(f"^{name} "))
               .locator(".who")).to_have_text(name)
    screenshot(page, f"grid-heads-{width}")
    # and again once the phone is turned
    page.set_viewport_size({"width": width + 200, "height": 640})
    page.set_viewport_size({"width": width, "height": 640})
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50)))")
    assert [words_cut(page, head) for head in whole] == [[], [], []]


# Every key of the pad whose words are wider or taller than the key (cut off), and each key's
# height; the pad's own height.
PAD_KEYS = """() => {
  const keys = [...document.querySelectorAll(".pad .key")];
  const cut = keys.filter((k) => k.scrollWidth > k.clientWidth + 1
                                 || k.scrollHeight > k.clientHeight + 1).map((k) => k.textContent);
  return { cut, low: Math.min(...keys.map((k) => k.getBoundingClientRect().height)),
           pad: document.querySelector(".pad-keys").getBoundingClientRect().height };
}"""


@pytest.mark.parametrize("text", [150, 200])
def test_the_pad_s_words_fit_its_keys_at_the_phone_s_larger_text(open_phone, text):
    # At 150% the Dinos pad read "Undc" and "Clea", "One of each" lost its last line, and each
    # tile's marks of the eras held spilled onto the keys below.
    page = open_phone(width=360)
    set_text_size(page, 16 * text // 100)
    page.get_by_role("button", name="Digging for Dinos", exact=True).click()
    add_players(page, ["Ann", "Bob", "Cy"])
    page.get_by_role("button", name=GRID).click()
    page.get_by_role("button", name="Bob Brontosaurus").click()
    pad = page.get_by_role("group", name="Number pad")
    pad.locator(".tile").first.click()
    expect(pad.get_by_role("button", name="Undo the last tap")).to_be_enabled()
    tiles = page.evaluate(PAD_KEYS)
    assert tiles["cut"] == [] and tiles["low"] >= 44, tiles
    # A count's digits: the pad as tall as for the tiles, its words whole too.
    page.get_by_role("button", name="New tally").click()
    page.get_by_role("dialog").get_by_role("button", name="Start new tally").click()
    page.get_by_role("button", name="Dig It Up", exact=True).click()
    add_players(page, ["Ann", "Bob", "Cy", "Dee"])  # on the grid still: the phone keeps the view
    count_on_pad(page, "Bob gold", 1)
    digits = page.evaluate(PAD_KEYS)
    assert digits["cut"] == [] and digits["pad"] == tiles["pad"], (digits, tiles)
    screenshot(page, f"grid-pad-text-{text}-percent")


def test_at_twice_the_text_the_pad_leaves_the_cells_above_it_and_its_prompt_whole(open_phone):
    # At 200% text on a 320 × 640 phone the pad with a refusal said on it grew taller than the
    # screen, over every cell, and its prompt read "p a cell to count" (cut at both ends).
    page = open_phone(width=320)
    page.set_viewport_size({"width": 320, "height": 640})
    set_text_size(page, 32)
    page.get_by_role("button", name="Dig It Up", exact=True).click()
    add_players(page, ["Ann", "Bob"])
    page.get_by_role("button", name=GRID).click()
    prompt = page.locator(".pad .at")
    expect(prompt).to_have_text("Tap a cell to count it.")
    assert prompt.evaluate("(el) => el.scrollWidth <= el.clientWidth")
    count_on_pad(page, "Ann gold", 99)  # more than the board holds: refused, said on the pad
    expect(page.locator(".pad .pad-say")).not_to_be_empty()
    height = page.evaluate("document.querySelector('.pad').getBoundingClientRect().height")
    assert height <= 0.7 * 640 + 1, height
    screenshot(page, "grid-pad-refusal-text-200-percent")


# Each DIG bowl list whose chosen colour is wider than the list shows it (its arrow, 20 px, too).
COLOURS_CUT = """() => [...document.querySelectorAll(".bowl select")].flatMap((list) => {
  const style = getComputedStyle(list);
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const text = list.selectedOptions[0].textContent;
  const needs = pen.measureText(text).width + parseFloat(style.paddingLeft) + 20;
  return needs > list.clientWidth ? [[text, Math.round(needs), list.clientWidth]] : [];
})"""


@pytest.mark.parametrize(("width", "text"), [(320, 100), (320, 131), (360, 150), (320, 200)])
def test_dig_s_bowls_and_the_players_names_read_whole_at_the_phone_s_text_size(open_phone,
                                                                              width, text):
    # With the phone's text at 131% on a 320 px phone the bowls' lists read "b", "re", "g", "y"
    # (57 px wide), the colours "Yello/w" and "Purpl/e"; and at its own size the bar read
    # "Christoph/er", "Annabell/e".
    page = open_phone(width=width)
    set_text_size(page, round(16 * text / 100))
    start(page, "DIG", "Christopher", "Annabelle", "Bob", "Maximilian", bowls=False)
    tap_bowls(page, ["blue", "red", "green", "yellow", "purple"])
    assert page.evaluate(COLOURS_CUT) == []
    assert page.evaluate(WORDS_CUT, ".tap .w") == []
    if text == 100:  # past it, a name may still break: its letters get smaller down to 70%
        assert page.evaluate(WORDS_CUT, ".chip > span") == []
    # The standings keep each name whole (at 150% they read "Bo/b", the total beside it), and
    # the name field stays wide enough to read what is typed (at 150%: 45 px beside its button).
    expect(page.get_by_role("region", name="Standings").locator("li .who")).to_have_count(4)
    assert page.evaluate(WORDS_CUT, ".ranking .who") == []
    assert page.get_by_label("Player name").bounding_box()["width"] >= 100
    assert sideways(page) == [0, 0]
    screenshot(page, f"dig-bowls-{width}-{text}-percent")


@pytest.mark.parametrize("locale", ["en-GB", "ko-KR"])
def test_the_header_keeps_its_words_whole_at_twice_the_text_size(open_phone, locale):
    # At 320 px with the phone's text at 200%, the header's title and button were squeezed to a
    # few letters a line: "Ne/w/tall/y", "Sc/or/er", "Digsit/e", "계산/기".
    page = open_phone(width=320, go=False, locale=locale)
    page.goto("/")
    set_text_size(page, 32)
    page.reload()
    page.locator("button.game").first.click()  # a tally: "New tally" in the header
    expect(page.locator("header.top button, header.top a").first).to_be_visible()
    assert words_cut(page, "header.top") == []
    assert sideways(page) == [0, 0]
    screenshot(page, f"header-320-text-200-{locale}")


# Each column head's total and place: their sizes, and whether either is wider than its column
# when it is the widest it comes to ("188", Dig It Up's most; "winner", a place's longest word).
HEADS = """() => [...document.querySelectorAll('.grid thead th:not(.corner)')].map((th) => {
  const box = th.getBoundingClientRect();
  const [total, place] = [th.querySelector('output'), th.querySelector('.rank')];
  [total.textContent, place.textContent] = ["188", "1st · winner"];
  const out = (el) => el.scrollWidth > el.clientWidth + 1
    || el.getBoundingClientRect().left < box.left - 1
    || el.getBoundingClientRect().right > box.right + 1;
  return { total: parseFloat(getComputedStyle(total).fontSize), text: total.textContent,
           place: parseFloat(getComputedStyle(place).fontSize), cut: out(total) || out(place) };
})"""


def test_the_totals_and_places_grow_with_the_phone_s_text_as_far_as_their_columns_hold(
        open_phone):
    # Sized by the screen's width so that five players fit, each player's total and place kept
    # their 18 px and 11 px at 360 px whatever the phone's text size: the one line a player
    # looks for at the table did not grow with the text of the page around it.
    heads = {}
    four = ["Ann", "Bob", "Cy", "Dee"]
    for width, players, text in ((360, ["Jo", "Pat"], 100), (360, ["Jo", "Pat"], 200),
                                 (320, four, 100), (320, four, 200), (360, four, 130)):
        page = open_phone(width=width)
        set_text_size(page, 16 * text // 100)
        grid_start(page, "DIG", *players)
        for name in players:
            field(page, f"{name} green").fill("1")
        expect(page.locator(".grid thead output").first).to_have_text(re.compile(r"\d"))
        shown = heads[width, len(players), text] = page.evaluate(HEADS)
        assert not any(head["cut"] for head in shown), (width, len(players), text, shown)
        page.close()
    # two players' columns hold nearly twice the size; four's on a 320 px phone, what they can
    # (a tenth more for a total; "winner" fills the column already)
    for size in ("total", "place"):
        assert heads[360, 2, 200][0][size] >= 1.8 * heads[360, 2, 100][0][size], heads
    assert heads[320, 4, 200][0]["total"] >= 1.1 * heads[320, 4, 100][0]["total"], heads
    assert heads[320, 4, 200][0]["place"] >= heads[320, 4, 100][0]["place"], heads
    # and at the phone's own text size, nothing changed
    assert (heads[360, 2, 100][0]["total"], heads[360, 2, 100][0]["place"]) == (18, 11.2)
    assert (heads[320, 4, 100][0]["total"], heads[320, 4, 100][0]["place"]) == (16, 10.24)

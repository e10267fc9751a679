"""A player's name on the page is the name the server keeps (api/schemas/common.py): tidied as the
server tidies it before it is added or saved, so the server's totals come back under it; told
apart from the other players' as the server tells names apart; and refused in the form, in plain
words, where the server would refuse it, rather than leaving every total blank."""

import re

import pytest
from playwright.sync_api import Page, expect

from .phone import BOWLS, enter, field, tap_bowls, total
from .test_trusted_totals import dig, shows

ANN = {"green": 2, "yellow": 1}
BEN = {"red": 2}


def add(page: Page, typed: str, form: str = "Player name", button: str = "Add player") -> None:
    page.get_by_label(form, exact=True).fill(typed)
    page.get_by_role("button", name=button, exact=True).click()


def names(page: Page) -> list[str]:
    """The players' names as the phone keeps the tally."""
    return page.evaluate(
        "JSON.parse(localStorage.getItem('digsite.tally')).players.map((p) => p.name)")


def test_a_name_is_kept_as_the_server_keeps_it_and_its_total_comes_back(open_phone):
    # "Ann  Lee" came back from the server as "Ann Lee", and a decomposed é as the composed one:
    # no total of the page's players matched, and the page said the server's totals differ.
    page = open_phone()
    page.get_by_role("button", name="DIG", exact=True).click()
    tap_bowls(page, BOWLS)  # the table's order, entered first
    add(page, "  Ann  \u00a0Lee ")
    add(page, "Rene\u0301")
    expect(page.locator("#sheets h2")).to_have_count(2)
    assert names(page) == ["Ann Lee", "Ren\u00e9"]
    assert page.locator("#sheets h2").all_text_contents() == ["Ann Lee", "Ren\u00e9"]

    answers = []
    page.on("response", lambda response: response.url.endswith("/api/v1/games/dig/score")
            and answers.append(response))
    enter(page, "Ann Lee", ANN)
    enter(page, "Ren\u00e9", BEN)
    for _ in range(200):  # the server's answer to the counts as they stand
        if any(a.request.post_data_json["players"][1]["dropped"].get("red") == 2 for a in answers):
            break
        page.wait_for_timeout(50)
    else:
        raise AssertionError("the page never asked the server about the counts")
    sent = answers[-1].request.post_data_json["players"]
    assert [p["name"] for p in sent] == ["Ann Lee", "Ren\u00e9"]
    page.wait_for_timeout(500)  # the answer read and shown
    shows(page, dig(page, {"Ann Lee": ANN, "Ren\u00e9": BEN}), "points")
    expect(page.get_by_text("differ")).to_have_count(0)


def test_a_name_differing_only_in_spaces_composition_or_width_is_a_player_already_playing(
        open_phone):
    page = open_phone()
    page.get_by_role("button", name="DIG", exact=True).click()
    tap_bowls(page, BOWLS)  # the table's order, entered first
    add(page, "Ann Lee")
    add(page, "Ren\u00e9")
    add(page, "Bob")
    form = page.get_by_label("Player name", exact=True)
    for typed, playing in (("Ann  Lee", "Ann Lee"), (" ann\u3000lee", "Ann Lee"),
                           ("Rene\u0301", "Ren\u00e9"),
                           ("\uff21\uff4e\uff4e \uff2c\uff45\uff45", "Ann Lee")):  # fullwidth
        add(page, typed)
        expect(form).to_have_accessible_description(
            f"{playing} is already playing; give each player a different name.")
        expect(form).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#sheets h2")).to_have_text(["Ann Lee", "Ren\u00e9", "Bob"])

    # Renamed, the same.
    page.get_by_role("button", name="Rename Bob").click()
    add(page, "Ann   Lee", form="New name for Bob", button="Save")
    expect(page.get_by_label("New name for Bob")).to_have_accessible_description(
        "Ann Lee is already playing; give each player a different name.")
    add(page, " Bob  Lee ", form="New name for Bob", button="Save")
    expect(page.locator("#sheets h2")).to_have_text(["Ann Lee", "Ren\u00e9", "Bob Lee"])
    assert names(page) == ["Ann Lee", "Ren\u00e9", "Bob Lee"]


def test_a_name_refused_is_said_aloud_with_the_focus_on_it_until_it_is_changed(open_phone):
    # The reason went into a line no screen reader reads out, the focus stayed on the button
    # tapped, and the reason stayed under the field after the name was changed.
    page = open_phone()
    page.get_by_role("button", name="DIG", exact=True).click()
    tap_bowls(page, BOWLS)
    add(page, "Ann")
    add(page, "Ann")
    form = page.get_by_label("Player name", exact=True)
    reason = "Ann is already playing; give each player a different name."
    expect(page.get_by_role("alert")).to_have_text(reason)
    expect(form).to_be_focused()
    expect(form).to_have_accessible_description(reason)
    form.press("End")
    form.press_sequentially("a")  # "Anna": nobody plays under it
    expect(form).not_to_have_attribute("aria-invalid", "true")
    expect(form).to_have_accessible_description("")
    form.press("Enter")
    expect(page.locator("#sheets h2")).to_have_text(["Ann", "Anna"])


INVISIBLE = ("A name cannot hold invisible characters (such as a zero-width space): two names "
             "would look the same.")
DIRECTION = "A name cannot hold characters that change the direction of the text around it."


@pytest.mark.parametrize(("typed", "said"), [
    ("M\u200dia", INVISIBLE),  # a zero-width joiner between letters
    ("Mia\u200b", INVISIBLE),
    ("\u3164", INVISIBLE),  # a Hangul filler: a letter that draws nothing
    ("\u202eaiM", DIRECTION),
])
def test_a_name_the_server_would_refuse_is_refused_in_the_form(open_phone, typed, said):
    # Added, the server refused the whole table, and every total was "–".
    page = open_phone()
    page.get_by_role("button", name="DIG", exact=True).click()
    tap_bowls(page, BOWLS)  # the table's order, entered first
    add(page, "Ann")
    add(page, typed)
    form = page.get_by_label("Player name", exact=True)
    expect(form).to_have_accessible_description(said)
    expect(form).to_have_attribute("aria-invalid", "true")
    expect(form).to_have_value(typed)  # there to be put right
    expect(page.locator("#sheets h2")).to_have_text(["Ann"])
    enter(page, "Ann", ANN)
    expect(total(page, "Ann")).to_have_text(str(dig(page, {"Ann": ANN})["players"][0]["total"]))

    add(page, "\U0001F469\U0001F680 Mia")  # the same emoji side by side, nothing unseen between
    expect(form).to_have_accessible_description("")
    expect(page.locator("#sheets h2")).to_have_text(["Ann", "\U0001F469\U0001F680 Mia"])
    enter(page, "\U0001F469\U0001F680 Mia", BEN)
    page.wait_for_timeout(500)  # the server's answer read and shown
    shows(page, dig(page, {"Ann": ANN, "\U0001F469\U0001F680 Mia": BEN}), "points")
    expect(field(page, "Ann green")).to_have_value("2")
    expect(page.get_by_text(re.compile("differ|invisible"))).to_have_count(0)


def test_a_name_with_an_emoji_of_joined_emoji_is_a_name_and_its_twin_is_taken(open_phone):
    # An astronaut (woman, zero-width joiner, rocket), a family, a runner with a skin tone: a
    # phone's keyboard writes them with the joiner, and the form refused them as invisible.
    astronaut = "Mia \U0001F469\u200d\U0001F680"
    runner = "Bo \U0001F3C3\U0001F3FD\u200d\u2640\ufe0f"
    page = open_phone()
    page.get_by_role("button", name="DIG", exact=True).click()
    tap_bowls(page, BOWLS)  # the table's order, entered first
    add(page, astronaut)
    add(page, runner)
    expect(page.locator("#sheets h2")).to_have_text([astronaut, runner])
    # the same two emoji side by side: one picture on one phone, two on another
    add(page, "Mia \U0001F469\U0001F680")
    expect(page.get_by_label("Player name", exact=True)).to_have_accessible_description(
        f"{astronaut} is already playing; give each player a different name.")
    enter(page, astronaut, ANN)
    enter(page, runner, BEN)
    page.wait_for_timeout(500)  # the server's answer read and shown
    shows(page, dig(page, {astronaut: ANN, runner: BEN}), "points")
    expect(page.get_by_text(re.compile("totals differ|invisible"))).to_have_count(0)


def test_a_name_of_40_characters_is_taken_however_the_phone_stores_them(open_phone):
    # The field's limit counted an emoji as 2: 21 dinosaurs became 20, though the server takes 40
    # characters, emoji or not.
    page = open_phone()
    page.get_by_role("button", name="DIG", exact=True).click()
    tap_bowls(page, BOWLS)  # the table's order, entered first
    dinos = "\U0001F996" * 21
    add(page, dinos)
    expect(page.get_by_role("heading", name=dinos, exact=True)).to_be_visible()
    add(page, "a" * 41)  # one more is said to be too long, as the server would say
    expect(page.get_by_label("Player name", exact=True)).to_have_accessible_description(
        "A name has at most 40 characters.")
    expect(page.locator("#sheets h2")).to_have_count(1)


def test_adding_a_player_by_a_button_leaves_the_focus_where_the_next_is_added(open_phone):
    # The Add player button, and a name of an earlier tally picked, were drawn again with the
    # players: the focus fell to the page, and a keyboard or screen reader user started again
    # from its top.
    page = open_phone()
    page.get_by_role("button", name="Dig It Up", exact=True).click()
    page.get_by_label("Player name", exact=True).fill("Ann")
    page.get_by_label("Player name", exact=True).press("Tab")
    expect(page.get_by_role("button", name="Add player", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Ann", exact=True)).to_be_visible()
    expect(page.get_by_label("Player name", exact=True)).to_be_focused()
    page.keyboard.type("Ben")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    expect(page.get_by_role("heading", name="Ben", exact=True)).to_be_visible()
    expect(page.get_by_label("Player name", exact=True)).to_be_focused()
    add(page, "Cy")

    # a new tally offers the earlier names to pick: each picked, the focus is on the one that
    # took its place (else the one before it, the last), and once none is left on the name's field
    page.get_by_role("button", name="New tally").click()
    page.get_by_role("dialog").get_by_role("button", name="Start new tally").click()
    page.get_by_role("button", name="Dig It Up", exact=True).click()
    picks = page.get_by_role("group", name="Players of earlier tallies").get_by_role("button")
    expect(picks).to_have_count(3)
    offered = [label.removeprefix("Add ") for label in
               picks.evaluate_all("(els) => els.map((el) => el.getAttribute('aria-label'))")]
    assert sorted(offered) == ["Ann", "Ben", "Cy"]
    picks.nth(0).focus()
    page.keyboard.press("Enter")  # the first: the second takes its place
    expect(page.get_by_role("heading", name=offered[0], exact=True)).to_be_visible()
    expect(picks).to_have_count(2)
    expect(picks.nth(0)).to_be_focused()
    page.keyboard.press("Tab")
    expect(picks.nth(1)).to_be_focused()
    page.keyboard.press("Enter")  # the last: the one before it
    expect(page.get_by_role("heading", name=offered[2], exact=True)).to_be_visible()
    expect(picks).to_have_count(1)
    expect(picks.nth(0)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name=offered[1], exact=True)).to_be_visible()
    expect(page.get_by_label("Player name", exact=True)).to_be_focused()

    # the last name tapped, not keyed: the field is not focused (the phone's keyboard would open)
    page.get_by_role("button", name="New tally").click()
    page.get_by_role("dialog").get_by_role("button", name="Start new tally").click()
    page.get_by_role("button", name="Dig It Up", exact=True).click()
    for _ in range(3):
        picks.first.click()
    expect(picks).to_have_count(0)
    expect(page.locator("#sheets h2")).to_have_count(3)
    expect(page.get_by_label("Player name", exact=True)).not_to_be_focused()

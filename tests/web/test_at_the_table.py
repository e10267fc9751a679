"""The phone scorer at a real table (issue 13): several tabs open, no network, a Korean phone,
the same players again, and a result taken off the phone. At 360 and 390 px, the phones the
issue was tried on."""

import json
import re
import time

import pytest
from playwright.sync_api import Page, expect

from .phone import (
    enter,
    field,
    new_tally,
    run_axe,
    screenshot,
    start,
    tally_ann,
    tally_joseph,
    total,
)

OFFLINE = "Offline — totals are worked out on this phone and checked once the server answers"
WIDTHS = [360, 390]


def two_tabs(open_phone, width: int) -> tuple[Page, Page]:
    """A DIG tally for Ann and Bob, open in two tabs of one phone."""
    first = open_phone(width=width)
    start(first, "DIG", "Ann", "Bob")
    second = first.context.new_page()
    open_phone.watch(second)
    second.goto("/")
    expect(total(second, "Bob")).to_have_text("0")
    for tab in (first, second):
        # A reload would lose these; every `storage` event is another tab writing.
        tab.evaluate("window.loaded = true; window.heard = 0;"
                     "addEventListener('storage', () => { window.heard += 1; })")
    return first, second


def test_two_tabs_show_each_others_changes_and_reload_nothing(open_phone):
    phones = [two_tabs(open_phone, width) for width in WIDTHS]
    for first, second in phones:
        enter(first, "Ann", {"green": 2})
        expect(field(second, "Ann green")).to_have_value("2")
        expect(total(second, "Ann")).to_have_text("10")
        enter(second, "Bob", {"red": 1})
        expect(field(first, "Bob red")).to_have_value("1")
        expect(total(first, "Bob")).to_have_text("1")
        second.get_by_label("Player name").fill("Cy")
        second.get_by_role("button", name="Add player").click()
        expect(first.get_by_role("heading", name="Cy", exact=True)).to_be_visible()
        for tab in (first, second):
            tab.evaluate("window.heard = 0")
    time.sleep(10)  # issue 13: about 25 reloads each in 5 s
    for tabs in phones:
        for tab in tabs:
            assert tab.evaluate("[window.loaded, window.heard]") == [True, 0]
            expect(total(tab, "Ann")).to_have_text("10")
            expect(tab.get_by_role("heading", name="Cy", exact=True)).to_be_visible()


# Sets a count as typing does (or a setting as a choice does), at the moment `at` (ms since the
# epoch) of the phone's clock.
TYPE_AT = """([label, value, at]) => { setTimeout(() => {
  const field = [...document.querySelectorAll('input, select')]
    .find((i) => i.labels[0]?.textContent === label);
  field.value = value;
  const kind = field.tagName === 'SELECT' ? 'change' : 'input';
  field.dispatchEvent(new Event(kind, { bubbles: true }));
}, at - Date.now()); }"""


def test_two_tabs_entering_at_the_same_moment_both_keep_both_entries(open_phone):
    # Each tab saved its tally whole and took the other's whole: entries made in both tabs at
    # once were lost, and the two tabs showed different tallies until reloaded.
    first, second = two_tabs(open_phone, 360)
    for n in range(1, 5):
        at = first.evaluate("Date.now()") + 400
        first.evaluate(TYPE_AT, ["Ann green", str(n), at])
        second.evaluate(TYPE_AT, ["Bob yellow", str(5 - n), at])
        for tab in (first, second):
            expect(field(tab, "Ann green")).to_have_value(str(n))
            expect(field(tab, "Bob yellow")).to_have_value(str(5 - n))
            expect(total(tab, "Ann")).to_have_text(str(5 * n))
            expect(total(tab, "Bob")).to_have_text(str(4 * (5 - n)))
    stored = [p["values"] for p in json.loads(
        first.evaluate("localStorage.getItem('digsite.tally')"))["players"]]
    assert [stored[0]["dropped.green"], stored[1]["dropped.yellow"]] == ["4", "1"]


ADD_AT = """([name, at]) => { setTimeout(() => {
  const input = document.querySelector('form.add input');
  input.value = name;
  input.form.requestSubmit();
}, at - Date.now()); }"""


def test_two_tabs_adding_renaming_and_removing_at_once_settle_on_one_table(open_phone):
    first, second = two_tabs(open_phone, 390)
    at = first.evaluate("Date.now()") + 400
    first.evaluate(ADD_AT, ["Cy", at])
    second.evaluate(ADD_AT, ["Dee", at])
    for tab in (first, second):
        expect(tab.locator("#sheets h2")).to_have_count(4)
    table = first.locator("#sheets h2").all_inner_texts()
    assert sorted(table) == ["Ann", "Bob", "Cy", "Dee"]
    expect(second.locator("#sheets h2")).to_have_text(table)
    # Cy is removed in one tab while a count of his is entered in the other: he stays removed.
    first.get_by_role("button", name="Remove Cy").click()
    at = first.evaluate("Date.now()") + 400
    second.evaluate(TYPE_AT, ["Cy green", "2", at])
    first.wait_for_timeout(max(0, at - first.evaluate("Date.now()")))
    first.get_by_role("dialog").get_by_role("button", name="Remove Cy").click()
    for tab in (first, second):
        expect(tab.locator("#sheets h2")).to_have_text([n for n in table if n != "Cy"])
    page_texts = [tab.locator("#sheets").inner_text() for tab in (first, second)]
    assert page_texts[0] == page_texts[1]


# A tab that hears of the other's changes 150 ms late, as a busy phone's may: its `storage`
# listeners are called that late.
HEARS_LATE = """(() => { const add = window.addEventListener.bind(window);
  window.addEventListener = (type, listener, options) => add(type, type === 'storage'
    ? (event) => setTimeout(() => listener(event), 150) : listener, options); })()"""


@pytest.mark.parametrize(("game", "setting", "chosen", "count"), [
    ("DIG", "Bowl 1", "red", "Bob yellow"),
    ("Dig It Up", "Variant", "simplified", "Bob gold")])
def test_a_setting_changed_in_one_tab_is_kept_when_the_other_saves_before_hearing_of_it(
        open_phone, game, setting, chosen, count):
    # The bowls' order (or the variant) was taken from whichever tab saved last: a count typed
    # in the other tab before it heard of the new order put the old one back, in both tabs, and
    # the table's totals were worked out with it.
    first = open_phone(width=390)
    start(first, game, "Ann", "Bob")
    first.context.add_init_script(HEARS_LATE)
    second = first.context.new_page()
    open_phone.watch(second)
    second.goto("/")
    expect(second.get_by_role("heading", name="Bob", exact=True)).to_be_visible()
    at = first.evaluate("Date.now()") + 400
    first.evaluate(TYPE_AT, [setting, chosen, at])
    second.evaluate(TYPE_AT, [count, "1", at + 50])  # before it hears of the choice
    for tab in (first, second):
        expect(field(tab, count)).to_have_value("1")
        expect(tab.get_by_label(setting, exact=True)).to_have_value(chosen)
    first.wait_for_timeout(500)  # (a tab that took the old setting back would have done so now)
    for tab in (first, second):
        expect(tab.get_by_label(setting, exact=True)).to_have_value(chosen)


def test_a_finished_tally_leaves_the_other_tab_for_the_home_screen(open_phone):
    first, second = two_tabs(open_phone, 390)
    enter(first, "Ann", {"green": 1})
    new_tally(first)
    expect(second.get_by_role("heading", name="Choose a game")).to_be_visible()
    expect(second.get_by_role("button", name=re.compile("Ann 5"))).to_be_visible()
    assert second.evaluate("window.loaded")


@pytest.mark.service_worker
@pytest.mark.parametrize("width", WIDTHS)
def test_with_the_network_cut_dig_and_dig_it_up_still_total(open_phone, width):
    page = open_phone(width=width, allow_network_errors=True)
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now under the service worker, as a phone is after its first visit
    expect(page.get_by_role("button", name="DIG", exact=True)).to_be_visible()
    page.context.set_offline(True)
    tally_ann(page)
    expect(total(page, "Ann")).to_have_text("29")
    expect(page.locator("#status")).to_have_text(OFFLINE)
    expect(page.get_by_role("region", name="Standings")).to_contain_text("Winner")
    new_tally(page)
    tally_joseph(page)
    expect(total(page, "Joseph")).to_have_text("50")
    screenshot(page, f"offline-joseph-{width}")
    page.reload()  # the page itself opens and totals with no network
    expect(total(page, "Joseph")).to_have_text("50")


def test_a_korean_phone_sees_korean_and_may_switch(open_phone):
    page = open_phone(locale="ko-KR")
    expect(page.get_by_role("heading", name="게임 선택")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    page.get_by_role("button", name="Dig It Up", exact=True).click()
    page.get_by_label("플레이어 이름").fill("지민")
    page.get_by_role("button", name="플레이어 추가").click()
    enter(page, "지민", {"금": 3, "돈 토큰, ₩ 액수": 8})
    expect(page.get_by_label("지민 합계", exact=True)).to_have_text("11")
    expect(page.get_by_role("region", name="지민").locator(".score")).to_have_text("11 ₩")
    field(page, "지민 미션").select_option(label="금광꾼 (15 ₩)")
    expect(page.get_by_text("이 수로는 달성하지 못했습니다.")).to_be_visible()
    page.get_by_role("region", name="지민").get_by_text("점수 내역").click()
    screenshot(page, "korean-dig-it-up", full_page=True)
    assert run_axe(page) == []
    # Not one of the English table's strings is left on the screen.
    english = page.evaluate("""import('/web/lang/en.js').then(({ default: en }) =>
        Object.values(en).filter((text) => typeof text === 'string' && !text.includes('{')))""")
    shown = page.locator("body").inner_text()
    assert not [text for text in english if text in shown]
    page.get_by_role("button", name="새 기록").click()
    page.get_by_role("dialog").get_by_role("button", name="새 기록 시작").click()
    page.get_by_label("언어", exact=True).select_option(label="English")
    expect(page.get_by_role("heading", name="Choose a game")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_a_tally_put_away_leaves_nothing_of_it_to_change_while_the_home_screen_loads(open_phone):
    # The tally's fields stayed on the page until the home screen's code came: its language,
    # chosen then, drew the tally put away ("Cannot read properties of null").
    page = open_phone()
    tally_ann(page)
    page.reload()  # opened on the tally: the home screen's code not loaded yet
    expect(total(page, "Ann")).to_have_text("29")
    held = []
    page.route("**/home.js", lambda route: held.append(route))
    page.get_by_role("button", name="New tally").click()
    page.get_by_role("dialog").get_by_role("button", name="Start new tally").click()
    page.wait_for_function("() => !document.querySelector('dialog[open]')")
    for _ in range(250):
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "the home screen's code was not asked for"
    expect(page.get_by_label("Language", exact=True)).to_have_count(0)
    expect(page.locator("main input, main button, main select")).to_have_count(0)
    expect(page.get_by_role("button", name="New tally")).to_have_count(0)
    held[0].continue_()
    expect(page.get_by_role("heading", name="Choose a game")).to_be_visible()
    page.get_by_label("Language", exact=True).select_option(label="한국어")
    expect(page.get_by_role("heading", name="게임 선택")).to_be_visible()


def download(page: Page, button: str) -> dict:
    with page.expect_download() as downloaded:
        page.get_by_role("button", name=button).click()
    return json.loads(open(downloaded.value.path(), encoding="utf-8").read())


@pytest.mark.parametrize("locale", ["en-GB", "en-AU", "en-US"])
def test_a_result_s_date_is_written_as_the_phone_writes_dates(open_phone, locale):
    # The page's language alone decided it: 3 December read "12/3/2026" on a British phone,
    # which reads it as 12 March, and "Dec 3, 2026" among the earlier tallies.
    page = open_phone(locale=locale)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    tally_ann(page)
    expect(total(page, "Ann")).to_have_text("29")
    page.get_by_role("button", name="Share result").click()
    expect(page.locator("#status")).to_contain_text("Result copied")
    today = page.evaluate("new Date().toLocaleDateString()")
    shared = page.evaluate("navigator.clipboard.readText()").splitlines()[0]
    assert shared.endswith(f" · {today}"), (shared, today)
    new_tally(page)
    medium = page.evaluate("new Date().toLocaleDateString(undefined, { dateStyle: 'medium' })")
    expect(page.get_by_role("button", name=re.compile("Ann 29"))).to_contain_text(medium)


def test_a_result_is_shared_and_exported_and_the_names_come_back(open_phone):
    page = open_phone()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    tally_ann(page)
    page.get_by_label("Player name").fill("Bob")
    page.get_by_role("button", name="Add player").click()
    enter(page, "Bob", {"green": 1})
    expect(total(page, "Ann")).to_have_text("29")
    expect(total(page, "Bob")).to_have_text("5")

    # No share sheet on this phone: the result is copied.
    assert page.evaluate("navigator.share === undefined")
    page.get_by_role("button", name="Share result").click()
    expect(page.locator("#status")).to_contain_text("Result copied")
    text = page.evaluate("navigator.clipboard.readText()")
    # The bowls' order goes with it: whoever reads it can check the totals.
    assert re.fullmatch(r"DIG · .+\nBowls from the Doghouse: Green 5, Yellow 4, Purple 3, Blue 2, "
                        r"Red 1\n1st Ann 29 points \(winner\)\n2nd Bob 5 points", text), text
    page.evaluate("navigator.share = async (data) => { window.sharedResult = data; }")
    page.get_by_role("button", name="Share result").click()
    assert page.wait_for_function("window.sharedResult").json_value()["text"] == text

    # A tie the tie-break decides is said with the result, as the standings say it: shared, it
    # read "1st Bob 29 points (winner)", "2nd Ann 29 points", and nothing of why.
    enter(page, "Bob", {"green": 2, "yellow": 3, "purple": 1, "blue": 1, "red": 2})
    expect(total(page, "Bob")).to_have_text("29")
    tie = page.locator("#tie")
    expect(tie).to_contain_text("Tie-break:")
    page.evaluate("window.sharedResult = null")
    page.get_by_role("button", name="Share result").click()
    tied = page.wait_for_function("window.sharedResult").json_value()["text"]
    assert re.fullmatch(r"DIG · .+\nBowls.+\n1st Bob 29 points \(winner\)\n2nd Ann 29 points\n.+",
                        tied), tied
    assert tied.splitlines()[-1] == tie.text_content(), tied
    enter(page, "Bob", {"green": 1, "yellow": 0, "purple": 0, "blue": 0, "red": 0})
    expect(total(page, "Bob")).to_have_text("5")

    play = download(page, "Export for BG Stats")
    assert play["game"]["name"] == "DIG" and play["sourceName"] == "Digsite"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in play["players"]] == [
        ("Ann", 29, 1, True), ("Bob", 5, 2, False)]

    new_tally(page)
    kept = download(page, "Download all tallies (JSON)")
    assert kept["format"] == "digsite-tallies"
    assert kept["tallies"][0]["result"]["winners"] == ["Ann"]

    page.get_by_role("button", name="Dig It Up", exact=True).click()
    for name in ("Bob", "Ann"):
        page.get_by_role("button", name=f"Add {name}").click()
    expect(page.locator("#sheets h2")).to_have_text(["Bob", "Ann"])
    expect(page.get_by_role("button", name=re.compile("^Add (Ann|Bob)$"))).to_have_count(0)


def test_a_server_that_answers_otherwise_is_believed_and_the_difference_reported(open_phone):
    page = open_phone(go=False, service_workers="block", allow_network_errors=True)
    warnings = []
    page.on("console", lambda message: message.type == "warning" and warnings.append(message.text))

    def one_more(route) -> None:
        answer = route.fetch()
        body = answer.json()
        body["players"][0]["total"] += 1
        route.fulfill(response=answer, json=body)

    page.route("**/api/v1/games/dig/score", one_more)
    page.goto("/")
    tally_ann(page)
    expect(total(page, "Ann")).to_have_text("30")
    expect(page.get_by_text("The server's totals differ from this phone's")).to_be_visible()
    assert any("differs" in warning for warning in warnings)
    # Offline then, a count changed waits for the server, and the status line says so: it said
    # totals were worked out on the phone, over a sheet showing none.
    page.unroute("**/api/v1/games/dig/score")  # (a route's own fetch is never offline)
    page.context.set_offline(True)
    enter(page, "Ann", {"red": 3})
    expect(page.locator("#score-note")).to_have_text(
        "The server's totals differed from this phone's: these counts are totalled once the "
        "server answers.")
    expect(page.locator("#status")).to_contain_text(
        "Offline — the server's totals differed from this phone's: these counts are totalled "
        "once the server answers")
    expect(page.locator("#status")).not_to_contain_text("worked out on this phone")
    # and that tally put away, the next is totalled on the phone again, as the line says
    new_tally(page)
    expect(page.locator("#status")).to_contain_text(OFFLINE)


def test_a_server_that_adds_to_its_answer_or_words_a_tie_otherwise_is_no_difference(open_phone):
    """API.md lets the server add fields, and a tie-break's wording changed once: a phone still
    running the page of before compared every byte of the answer, said the server's totals
    differed and from then on showed none of its own (none at all with no network)."""
    page = open_phone(go=False, service_workers="block")
    held = []

    def added(route) -> None:
        if held:  # from then on the server does not answer: the phone totals on its own
            held.append(route)
            return
        answer = route.fetch()
        body = answer.json()
        body["added"] = True
        for player in body["players"]:
            player["added"] = 1
            player["breakdown"]["added"] = {}
        if body["tie_break"]:
            body["tie_break"]["explanation"] += " Worded otherwise."
        route.fulfill(response=answer, json=body)

    page.route("**/api/v1/games/dig/score", added)
    page.goto("/")
    start(page, "DIG", "Ann", "Bob")
    enter(page, "Ann", {"green": 1})
    with page.expect_response(lambda answer: "/score" in answer.url and answer.request
                              .post_data_json["players"][1]["dropped"].get("green") == 1):
        enter(page, "Bob", {"green": 1})  # tied: the tie-break is worded
    page.wait_for_timeout(300)  # the answer read
    expect(page.get_by_text("differ")).to_have_count(0)
    held.append(None)
    enter(page, "Ann", {"green": 2})
    expect(total(page, "Ann")).to_have_text(str(2 * int(total(page, "Bob").inner_text())))
    expect(page.get_by_text("differ")).to_have_count(0)


RENAME_AT = """([name, to, at]) => {
  document.querySelector(`button[aria-label="Rename ${name}"]`).click();
  setTimeout(() => {
    const input = [...document.querySelectorAll('input')]
      .find((i) => i.labels[0]?.textContent === `New name for ${name}`);
    input.value = to;
    input.form.requestSubmit();
  }, at - Date.now());
}"""


def test_two_tabs_renaming_two_players_at_once_keep_both_names(open_phone):
    # Names were taken from the later save alone: the other tab's rename was lost.
    first, second = two_tabs(open_phone, 390)
    at = first.evaluate("Date.now()") + 400
    first.evaluate(RENAME_AT, ["Ann", "Anna", at])
    second.evaluate(RENAME_AT, ["Bob", "Bobby", at])
    for tab in (first, second):
        expect(tab.locator("#sheets h2")).to_have_text(["Anna", "Bobby"])


def test_a_dinosaur_opened_with_the_page_open_in_another_tab_stays_open(open_phone):
    # With a second tab open, a dinosaur tapped open on the per-player sheet closed again at
    # once: the other tab took the save without it (nothing said which was newer) and saved that
    # back, so its first tile could not be entered at all.
    first = open_phone(width=360)
    start(first, "Digging for Dinos", "Ann", "Bob")
    second = first.context.new_page()
    open_phone.watch(second)
    second.goto("/")
    expect(total(second, "Bob")).to_have_text("0")
    ann = first.get_by_role("region", name="Ann", exact=True)
    stegosaurus = ann.locator("details", has=first.locator("summary", has_text="Stegosaurus"))
    ann.locator("summary", has_text="Stegosaurus").click()
    time.sleep(1)  # long enough for the tabs to hear each other out
    expect(stegosaurus).to_have_attribute("open", "")
    field(first, "Ann stegosaurus 1").fill("1")
    expect(total(second, "Ann")).not_to_have_text("0")
    # The other tab shows it open too, and closing it there closes it here.
    other = second.get_by_role("region", name="Ann", exact=True).locator(
        "details", has=second.locator("summary", has_text="Stegosaurus"))
    expect(other).to_have_attribute("open", "")
    other.locator("summary").click()
    expect(stegosaurus).not_to_have_attribute("open", "")
    time.sleep(1)
    expect(other).not_to_have_attribute("open", "")


def test_a_korean_total_in_points_is_written_as_korean_writes_it(open_phone):
    # "6 점" read as a figure and a word apart: Korean writes the unit on the figure, 6점.
    page = open_phone(locale="ko-KR")
    page.get_by_role("button", name="DIG", exact=True).click()
    page.get_by_label("플레이어 이름").fill("지민")
    page.get_by_role("button", name="플레이어 추가").click()
    score = page.get_by_role("region", name="지민").locator(".score")
    expect(score).to_have_text(re.compile(r"^\S+점$"))

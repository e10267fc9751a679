"""The host of a match that has begun, on the play page: a player whose phone lost its seat (its
site data cleared, a new phone) held the match up for good, with no clock to end the wait, for
the page offered the host's means only while seats were open. Now each person's seat but the
host's own may be handed to a bot, or given a new link to send or to scan."""

import re
import urllib.error

import pytest
from playwright.sync_api import expect

from tests.server import call

from .phone import TRIES, away, new_link, run_axe, screenshot
from .test_play import held, match_id
from .test_play_table import create, kinds, lose_first_answer, seated, sent_again_once


def test_the_host_hands_a_seat_to_a_bot_or_gives_it_a_new_link_while_playing(open_phone, server):
    created = create(server, "dig", ["Ann", "Bob", "Carl"])
    match = created["id"]
    # (a new link refused while Bob is at the table: a 409 the page says in words)
    ann = seated(open_phone, created, 0, "dig", host=True, width=360, allow_network_errors=True)
    bob = seated(open_phone, created, 1, "dig", allow_network_errors=True)
    expect(bob.get_by_text("you", exact=True)).to_be_visible()
    hosting = ann.get_by_role("region", name="The players' seats (you are the host)")
    expect(hosting).to_be_visible()
    # Only the others' seats: not the host's own.
    expect(hosting.get_by_role("button", name="New link for Ann")).to_have_count(0)
    buttons = hosting.get_by_role("button")
    expect(buttons).to_have_count(5)  # the host's own link, and two for each other seat
    for size in buttons.evaluate_all(
            "(all) => all.map((b) => [b.getBoundingClientRect().width, "
            "b.getBoundingClientRect().height])"):
        assert min(size) >= 44, size
    assert run_axe(ann) == []

    # Carl's seat to a bot: asked first, and nothing happens unless confirmed.
    hosting.get_by_role("button", name="Give Carl's seat to a bot").click()
    dialog = ann.get_by_role("dialog")
    expect(dialog).to_contain_text("Hand Carl's seat to the greedy bot?")
    dialog.get_by_role("button", name="Cancel").click()
    carl = ann.get_by_role("list", name="Seats").get_by_role("listitem").nth(2)
    expect(carl).not_to_contain_text("away")
    hosting.get_by_role("button", name="Give Carl's seat to a bot").click()
    dialog.get_by_role("button", name="Give it to a bot").click()
    expect(carl).to_contain_text("away: a bot plays")
    assert call(server, f"/api/v1/matches/{match}")["players"][2]["bot"] == "greedy"
    # A seat a bot plays may still be given back to its player with a new link.
    expect(hosting.get_by_role("button", name="Give Carl's seat to a bot")).to_have_count(0)
    expect(hosting.get_by_role("button", name="New link for Carl")).to_be_visible()

    # Bob's seat a new link: his old phone is told, a new phone takes the seat from the link
    # (or its code), and plays it.
    # While Bob is at the table his seat keeps its link: a new one would give the host his
    # seat's secrets and its moves.
    hosting.get_by_role("button", name="New link for Bob").click()
    dialog.get_by_role("button", name="Make a new link").click()
    expect(ann.locator("#status")).to_contain_text("Bob is at the table (seen ")
    expect(hosting.get_by_role("link", name="Bob's new link")).to_have_count(0)
    asked: list[str] = []
    ann.on("request", lambda request: asked.append(request.url))
    for _ in range(TRIES):  # his phone put away a minute (phone.py TRIES: his page is still open)
        away(server, match, 1)
        hosting.get_by_role("button", name="New link for Bob").click()
        expect(dialog).to_contain_text("Give Bob's seat a new link?")
        with ann.expect_response(lambda r: r.request.method == "POST"
                                 and r.url.endswith("/seats/1/token")) as answer:
            dialog.get_by_role("button", name="Make a new link").click()
        if answer.value.status != 409:
            break
    link = hosting.get_by_role("link", name="Bob's new link")
    expect(link).to_be_visible()
    qr = hosting.get_by_role("img", name="QR code for Bob's seat")
    expect(qr).to_be_visible()
    ann.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=qr.element_handle())
    screenshot(ann, "play-host-new-link-360", full_page=True)
    expect(ann.locator("#play-recent")).to_contain_text("Bob's seat was given a new link")
    # (the words that stay: the status line's, read in test_play_table, are gone after 4 s)
    expect(bob.locator("#play-seat-lost")).to_contain_text("new link")
    url = link.get_attribute("href")
    assert f"/play/{match}#" in url and "token=" in url
    # The token is in no address the page asked for (its QR code was POSTed for, not put in a
    # query, which access logs write down and caches keep).
    token = re.search(r"token=([^&]+)", url)[1]
    assert asked and not [u for u in asked if token in u]
    assert qr.get_attribute("src").startswith("data:image/svg+xml")
    phone = open_phone(go=False)
    phone.goto(url)
    mine = phone.get_by_role("list", name="Seats").locator("li.me")
    expect(mine).to_contain_text("Bob")
    assert match_id(phone) == match and "token" not in phone.url  # not left in the address
    kept = held(phone)[match]
    assert kept["seat"] == 1 and kept["name"] == "Bob" and kept["token"] in url
    view = call(server, f"/api/v1/matches/{match}", token=kept["token"])
    assert view["you"] == 1
    # The link opened again on that phone (a reload) keeps the seat.
    phone.reload()
    expect(mine).to_contain_text("Bob")
    assert re.search(r"/play/[0-9a-f]+$", phone.url)

    # Bob's seat then handed to a bot: the host's panel no longer offers his link as the way to
    # his seat (it still read "Bob's new link: send it to Bob"), and Bob's phone says why it
    # plays no more, and how to play again.
    hosting.get_by_role("button", name="Give Bob's seat to a bot").click()
    dialog.get_by_role("button", name="Give it to a bot").click()
    expect(hosting.get_by_role("button", name="New link for Bob")).to_be_visible()
    expect(link).to_have_count(0)
    expect(qr).to_have_count(0)
    expect(phone.locator("#play-you-bot")).to_have_text(
        "The greedy bot plays your seat now: you left it, or the host handed it over. For a new "
        "link to play it again, ask the host.")


def test_a_seat_link_replaces_only_a_seat_that_no_longer_works(open_phone, server):
    # A link is anybody's to send: one whose token the server refused, or another seat's token
    # written under this phone's seat, replaced the token this phone held for the match, and the
    # phone lost its seat (or played another). A token after a seat no page could read was left
    # in the address, and in the phone's history.
    created = create(server, "dig", ["Ann", "Bob"])
    match = created["id"]
    bobs = created["seats"][1]["token"]
    bob = seated(open_phone, created, 1, "dig", allow_network_errors=True)
    mine = bob.get_by_role("list", name="Seats").locator("li.me")
    said = bob.locator("#status")
    refused = "This seat link does not work: nothing on this phone was changed."

    def opened(fragment: str) -> None:
        bob.goto("/manifest.webmanifest")  # a link opened afresh, not a move within the page
        bob.goto(f"/play/{match}#{fragment}")

    for fragment in ("seat=1&token=made-up", f"seat=1&token={created['seats'][0]['token']}"):
        opened(fragment)
        expect(said).to_contain_text(refused)
        expect(mine).to_contain_text("Bob")
        assert "token" not in bob.url and held(bob)[match]["token"] == bobs
        assert call(server, f"/api/v1/matches/{match}", token=bobs)["you"] == 1

    opened("token=SECRET&seat=x")
    expect(said).to_contain_text(refused)
    expect(mine).to_contain_text("Bob")
    assert "SECRET" not in bob.url and held(bob)[match]["token"] == bobs

    # The host gives Bob's seat a new link; it is opened with no network: asked about later.
    bob.goto("/manifest.webmanifest")
    new = new_link(server, match, 1, created["host_token"])  # Bob away a minute since
    bob.route("**/api/v1/matches/**", lambda route: route.abort("internetdisconnected"))
    bob.goto(f"/play/{match}#seat=1&token={new}")
    expect(said).to_contain_text("The seat link cannot be checked without a connection")
    assert f"token={new}" in bob.url and held(bob)[match]["token"] == bobs
    # Back online, the page opened again: the link works where the old token no longer does.
    bob.unroute("**/api/v1/matches/**")
    bob.reload()
    expect(mine).to_contain_text("Bob")
    assert "token" not in bob.url and held(bob)[match]["token"] == new
    expect(said).not_to_contain_text(refused)


def test_a_seat_link_opened_where_its_match_is_already_open_is_taken(open_phone, server):
    """The host's new link, tapped on a phone already showing the match, changed only the
    address's # part: the page was not opened again, and the link was never used."""
    created = create(server, "dig", ["Ann", "Bob"])
    phone = seated(open_phone, created, None, "dig")
    expect(phone.get_by_role("list", name="Seats")).to_contain_text("Bob")
    expect(phone.get_by_role("list", name="Seats").locator("li.me")).to_have_count(0)
    given = call(server, f"/api/v1/matches/{created['id']}/seats/1/token", {},
                 token=created["host_token"])
    phone.goto(f"/play/{created['id']}#seat=1&token={given['token']}")
    expect(phone.get_by_role("list", name="Seats").locator("li.me")).to_contain_text("Bob")
    assert held(phone)[created["id"]]["token"] == given["token"]
    assert "token" not in phone.url


def test_the_host_s_seat_handed_to_a_bot_or_given_a_new_link_is_done_once_when_answers_are_lost(
        open_phone, server):
    # The connection dropped after the server acted: the page said "nothing was sent", though
    # the seat was a bot's, or had a new link the host never saw (and the old one no longer
    # worked): made again, the seat's link changed twice.
    created = create(server, "dig", ["Ann", "Bob", "Carl"])
    match = created["id"]
    ann = seated(open_phone, created, 0, "dig", host=True, allow_network_errors=True)
    hosting = ann.get_by_role("region", name="The players' seats (you are the host)")
    dialog = ann.get_by_role("dialog")

    keys = lose_first_answer(ann, "**/seats/2/bot")
    hosting.get_by_role("button", name="Give Carl's seat to a bot").click()
    dialog.get_by_role("button", name="Give it to a bot").click()
    carl = ann.get_by_role("list", name="Seats").get_by_role("listitem").nth(2)
    expect(carl).to_contain_text("away: a bot plays")
    sent_again_once(ann, keys)
    assert kinds(server, match).count("take_over") == 1

    keys = lose_first_answer(ann, "**/seats/1/token")
    hosting.get_by_role("button", name="New link for Bob").click()
    dialog.get_by_role("button", name="Make a new link").click()
    link = hosting.get_by_role("link", name="Bob's new link")
    expect(link).to_be_visible()
    sent_again_once(ann, keys)
    assert kinds(server, match).count("new_token") == 1
    token = re.search(r"token=([^&]+)", link.get_attribute("href"))[1]
    assert call(server, f"/api/v1/matches/{match}", token=token)["you"] == 1


def test_the_host_s_link_kept_elsewhere_hosts_the_match_from_another_phone(open_phone, server):
    # A host whose phone lost the match (its site data cleared, a new phone) could no longer hand
    # an absent seat to a bot or give it a new link: a match with no clock waited for good.
    created = create(server, "dig", ["Ann", {"open": True}])
    match = created["id"]
    # (her page still open when the match is called off below: the 410 it then reads is logged)
    ann = seated(open_phone, created, 0, "dig", host=True, allow_network_errors=True)
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"])
    ann.get_by_role("button", name="Copy link: host link").click()
    link = ann.evaluate("navigator.clipboard.readText()")
    assert link.endswith(f"/play/{match}#host={created['host_token']}"), link
    other = open_phone(go=False)
    other.goto(link.replace(server.url, ""))
    expect(other.locator("#status")).to_have_text("This phone now hosts the match.")
    expect(other.get_by_role("button", name="Call off this match")).to_be_visible()
    kept = held(other)[match]
    assert "host=" not in other.url and "token" not in kept
    assert (kept["host"], kept["game"]) == (created["host_token"], "dig")
    # a seat's token is no host's: refused, nothing kept; a server that fails to answer leaves
    # the link in the address, to be asked about again
    third = open_phone(go=False, allow_network_errors=True)
    third.goto(f"/play/{match}#host={created['seats'][0]['token']}")
    expect(third.locator("#status")).to_have_text(
        "This host link does not work: nothing on this phone was changed.")
    expect(third.get_by_role("button", name="Call off this match")).to_have_count(0)
    assert match not in held(third) and "host=" not in third.url
    third.route(f"**/api/v1/matches/{match}", lambda route: route.fulfill(
        status=500, content_type="application/problem+json",
        body='{"type": "/problems/internal-error", "title": "Internal Server Error",'
             ' "status": 500, "detail": "The server is busy."}'))
    third.evaluate(f"location.hash = 'host={created['host_token']}'")  # the tab already on it
    expect(third.locator("#status")).to_contain_text("busy")
    assert f"host={created['host_token']}" in third.url and match not in held(third)
    third.unroute(f"**/api/v1/matches/{match}")
    third.reload()
    expect(third.get_by_role("button", name="Call off this match")).to_be_visible()
    assert "host=" not in third.url
    # the phone that took it calls the match off
    other.get_by_role("button", name="Call off this match").click()
    other.get_by_role("dialog").get_by_role("button", name="Call off this match").click()
    expect(other).to_have_url(re.compile(r"/play$"))
    with pytest.raises(urllib.error.HTTPError) as gone:
        call(server, f"/api/v1/matches/{match}")
    assert gone.value.code == 410
    # and the first phone, where the match was still open, hears it is gone
    expect(ann.get_by_role("heading", name="This match is gone")).to_be_visible()

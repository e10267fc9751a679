"""Studies over HTTP as jobs (API.md "Studies (simulation jobs)", service/studies.py): a study is
started (202 and its address), followed on its stream to its end, and its summary, records and
report read; its records are those `simulate` writes for the same study; a study cancelled
while it plays stops; one nobody follows is cancelled when its creator said so; its bot time
counts against its creator's budget and its own cap; a study is refused for a bad box, an
unknown bot, a table the game lacks or too much work; a study whose worker is killed is
finished by another, with the records of an uninterrupted run; and two app servers sharing
PostgreSQL play, follow, serve and cancel a study between them."""

import dataclasses
import html
import json
import logging
import os
import re
import signal
import threading
import time
import urllib.request
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import pytest
import requests
import sqlalchemy as sa

import service.studies as study_module
from api.schemas.studies import UNWATCHED_SECONDS
from app import create_app
from scoring.dig import bots as dig_bots
from scoring.games import GAMES
from service.settings import read
from service.store import aware
from service.studies import Studies, studies, study_chunks
from studies.jobs import play_range, study_of
from tests.api.openapi import assert_headers_documented
from tests.api.problem import assert_problem
from tests.server import app_refusal, call, free_port, serve, serve_side_by_side

STUDIES = "/api/v1/games/dig/studies"
RANDOM = ["random", "random"]
# Small limits: a fuzzed or mistaken study cannot ask for much, and chunks are short.
SETTINGS = {"DIGSITE_STUDY_LIMIT": 4000, "DIGSITE_STUDY_LEASE_SECONDS": 2,
            "DIGSITE_STREAM_POLL_SECONDS": 0.05}


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, **SETTINGS,
                       "DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}"})


@contextmanager
def worker(app):
    """A worker's loop, once: it plays the studies there are, as a served worker's does."""
    thread = threading.Thread(target=app.extensions["digsite_studies"].work)
    thread.start()
    try:
        yield thread
    finally:
        thread.join(60)


def start(client, **body) -> dict:
    answer = client.post(STUDIES, json={"matches": 20, "players": RANDOM, "seed": 5, **body})
    assert answer.status_code == 202, answer.get_json()
    assert answer.headers["Location"] == f"/api/v1/studies/{answer.get_json()['id']}"
    return answer.get_json()


def progress_events(stream: bytes) -> list[dict]:
    return [json.loads(block.split("data: ", 1)[1]) for block in stream.decode().split("\n\n")
            if "event: progress" in block]


def wait_for(look, timeout: float = 30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = look()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError("not in time")


def test_a_study_is_followed_to_its_end_and_its_records_are_simulate_s(app, client, runner,
                                                                       tmp_path):
    document = client.get("/api/openapi.json").get_json()
    created = start(client, compare=[{"players": ["greedy", "random"]}])
    assert created["status"] == "queued" and created["progress"] == {"done": 0, "total": 20}
    with worker(app):
        stream = client.get(f"/api/v1/studies/{created['id']}/events").get_data()
    events = progress_events(stream)
    assert events[-1]["status"] == "done" and events[-1]["progress"] == {"done": 20,
                                                                         "total": 20}
    done = [event["progress"]["done"] for event in events]
    assert done == sorted(done) and len(done) >= 3  # it moved chunk by chunk
    study = client.get(f"/api/v1/studies/{created['id']}").get_json()
    base, greedy = study["summary"]["arms"]
    assert (base["label"], greedy["label"]) == ("base", "bots=greedy,random")
    # each seat named as a simulation names a bot's seat by default: the shape a simulation's
    # answer has, its bot and the seat counted from 1
    assert [[seat["name"] for seat in arm["seats"]] for arm in (base, greedy)] == [
        ["random 1", "random 2"], ["greedy 1", "random 2"]]
    assert sum(seat["win_share"]["value"] for seat in base["seats"]) == pytest.approx(1)
    difference = study["summary"]["differences"][0]["seats"][0]["win_share"]
    assert difference["low"] < difference["difference"] < difference["high"]
    assert 0 < study["bot_time"]["seconds"] < study["bot_time"]["limit"]

    for kind, accept in (("jsonl", "application/jsonl"), ("csv", "text/csv")):
        out = tmp_path / f"cli.{kind}"
        result = runner.invoke(args=["simulate", "dig", "--matches", "20", "--seed", "5",
                                     "--players", "2", "--compare", "bots=greedy,random",
                                     "--out", str(out)])
        assert result.exit_code == 0, result.output
        records = client.get(f"/api/v1/studies/{created['id']}/records",
                             headers={"Accept": accept})
        assert records.mimetype == accept
        assert records.get_data() == out.read_bytes()
        assert_headers_documented(document, "/api/v1/studies/{study_id}/records", "get", records)
    assert len(out.read_text().splitlines()) == 1 + 20 * 2 * 2  # a row per seat and match

    report = client.get(f"/api/v1/studies/{created['id']}/report")
    assert report.mimetype == "text/html"
    # nothing but its own styles and charts, and framed by no other page
    assert report.headers["Content-Security-Policy"] == (
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'none'")
    assert_headers_documented(document, "/api/v1/studies/{study_id}/report", "get", report)
    assert '<img src="data:image/png;base64,' in report.get_data(as_text=True)


def test_a_study_cancelled_while_it_plays_stops_and_says_so(app, client):
    created = start(client, matches=400)
    url = f"/api/v1/studies/{created['id']}"
    with worker(app) as playing:
        wait_for(lambda: client.get(url).get_json()["progress"]["done"])
        assert_problem(client.delete(url), 401, kind="unauthorized")
        assert_problem(client.delete(url, headers={"Authorization": "Bearer nope"}), 401)
        cancelled = client.delete(url, headers={"Authorization": f"Bearer {created['token']}"})
        assert cancelled.status_code == 200 and cancelled.get_json()["status"] == "cancelled"
        playing.join(10)
        assert not playing.is_alive()  # the worker let it go after the chunk in play
    study = client.get(url).get_json()
    assert study["status"] == "cancelled" and study["error"] == "Cancelled by its creator."
    assert 0 < study["progress"]["done"] < 400
    records = client.get(f"{url}/records").get_data().splitlines()
    assert len(records) == study["progress"]["done"] * 2  # what was stored, not what was dropped
    # The statistics and the report of the matches played are kept, the report marked so.
    assert study["summary"]["arms"][0]["matches"] == study["progress"]["done"]
    report = client.get(f"{url}/report")
    assert report.status_code == 200
    assert f"{study['progress']['done']} of 400" in report.get_data(as_text=True)
    # Cancelled before a match was played: nothing to report.
    queued = start(client)
    client.delete(f"/api/v1/studies/{queued['id']}",
                  headers={"Authorization": f"Bearer {queued['token']}"})
    said = assert_problem(client.get(f"/api/v1/studies/{queued['id']}/report"), 409,
                          kind="study-not-done")["detail"]
    assert "before any match was played" in said


def provenance(page: str) -> dict:
    """The provenance a report page shows under its heading."""
    shown = re.search(r"<h2>Provenance</h2><pre>(.*?)</pre>", page, re.DOTALL)
    assert shown, page[-500:]
    return json.loads(html.unescape(shown.group(1)))


def test_a_cancelled_study_s_report_says_so_and_when_the_study_ran(app, client):
    """The report of a study cancelled while it played said "Unfinished run: … (still being
    played, or ended before it could write that it stopped)", as of a `simulate` records file,
    and its provenance's `started` and `updated` were both when the report was drawn."""
    created = start(client, matches=400)
    url = f"/api/v1/studies/{created['id']}"
    created_at = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=1)
    backdate(app, created["id"], created_at=created_at)
    with worker(app):
        wait_for(lambda: client.get(url).get_json()["progress"]["done"])
        cancelled = client.delete(url, headers={"Authorization": f"Bearer {created['token']}"})
    cancelled = cancelled.get_json()
    done = cancelled["progress"]["done"]
    page = client.get(f"{url}/report").get_data(as_text=True)
    assert "still being played" not in page
    assert (f"The study was cancelled after {done} of 400 matches: Cancelled by its "
            "creator.") in page
    meta = provenance(page)
    assert (meta["status"], meta["error"], meta["played"]) == (
        "cancelled", "Cancelled by its creator.", done)
    assert meta["started"] == created_at.isoformat(timespec="seconds") == \
        client.get(url).get_json()["created_at"]
    assert meta["updated"] == cancelled["updated_at"]  # when it was cancelled


def test_a_failed_study_s_report_shows_its_error(app, client):
    created = start(client)
    backdate(app, created["id"], bot_seconds_limit=0.001)
    with worker(app):
        pass
    url = f"/api/v1/studies/{created['id']}"
    study = client.get(url).get_json()
    assert study["status"] == "failed"
    page = html.unescape(client.get(f"{url}/report").get_data(as_text=True))
    assert "still being played" not in page
    assert (f"The study failed after {study['progress']['done']} of 20 matches: "
            f"{study['error']}") in page
    meta = provenance(client.get(f"{url}/report").get_data(as_text=True))
    assert (meta["status"], meta["error"]) == ("failed", study["error"])
    assert meta["started"] == study["created_at"]


def test_a_done_study_s_report_says_when_it_started(app, client):
    created = start(client, matches=3)
    created_at = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=1)
    backdate(app, created["id"], created_at=created_at)
    with worker(app):
        pass
    url = f"/api/v1/studies/{created['id']}"
    study = client.get(url).get_json()
    meta = provenance(client.get(f"{url}/report").get_data(as_text=True))
    assert (meta["status"], meta["played"]) == ("complete", 3)
    assert meta["started"] == created_at.isoformat(timespec="seconds") == study["created_at"]
    assert meta["started"] < meta["updated"] <= study["updated_at"]


def test_a_worker_told_to_stop_hands_its_study_over_at_once(app, client):
    created = start(client, matches=30)
    url = f"/api/v1/studies/{created['id']}"
    playing = app.extensions["digsite_studies"]
    with worker(app) as thread:
        wait_for(lambda: client.get(url).get_json()["progress"]["done"])
        playing.leave()  # as a served worker's SIGTERM does
        thread.join(10)
        assert not thread.is_alive()
    handed = client.get(url).get_json()
    assert handed["status"] == "running" and 0 < handed["progress"]["done"] < 30
    other = Studies(app.extensions["digsite_storage"], None, app.extensions["digsite_settings"])
    other.work()  # no claim to wait out
    assert client.get(url).get_json()["status"] == "done"
    rows = [json.loads(line) for line in client.get(f"{url}/records").get_data().splitlines()]
    assert [(row["match"], row["seat"]) for row in rows] == [(i, seat) for i in range(30)
                                                             for seat in (0, 1)]


def test_a_chunk_longer_than_the_claim_keeps_the_claim(tmp_path, monkeypatch):
    """A chunk that takes longer than the lease (niced processes on a busy machine) keeps its
    worker's claim: no other worker takes the study over and plays it again meanwhile."""
    slow = create_app({"TESTING": True, **SETTINGS, "DIGSITE_STUDY_LEASE_SECONDS": 1,
                       "DATABASE_URL": f"sqlite:///{tmp_path / 'slow.db'}"})
    client = slow.test_client()
    created = start(client, matches=1)
    module = study_module
    played = module.play_range
    monkeypatch.setattr(module, "play_range",
                        lambda *args: (time.sleep(2.5), played(*args))[1])
    other = Studies(slow.extensions["digsite_storage"], None, slow.extensions["digsite_settings"])
    with worker(slow):
        for _ in range(2):
            time.sleep(0.8)  # past the lease, then past it twice
            assert other.claim() is None
    assert client.get(f"/api/v1/studies/{created['id']}").get_json()["status"] == "done"


def test_a_study_whose_report_cannot_be_drawn_fails_saying_so(app, client, monkeypatch,
                                                             caplog):
    """A report that cannot be drawn ends the study failed, its statistics and records kept,
    whether it was played to its end or cancelled on the way: never running, or played and
    drawn again by every worker that looks, for ever."""
    def broken(*args):
        raise ValueError("'yerr' must not contain negative values")

    monkeypatch.setattr(study_module, "report_page", broken)
    whole = start(client, matches=4)
    with caplog.at_level(logging.ERROR, logger="service.studies"), worker(app):
        pass
    url = f"/api/v1/studies/{whole['id']}"
    study = client.get(url).get_json()
    assert study["status"] == "failed" and study["progress"]["done"] == 4
    assert study["error"] == ("The study's 4 matches were played, but its report could not be "
                              "drawn (ValueError: 'yerr' must not contain negative values); "
                              "its records are kept.")
    assert study["summary"]["arms"][0]["matches"] == 4
    assert len(client.get(f"{url}/records").get_data().splitlines()) == 4 * 2
    said = assert_problem(client.get(f"{url}/report"), 409, kind="study-not-done")["detail"]
    assert "its report could not be drawn" in said
    logged = [r for r in caplog.records if whole["id"] in r.getMessage()]
    assert logged and logged[0].exc_info  # with its traceback
    playing = app.extensions["digsite_studies"]
    assert playing.claim() is None and playing.claim_summing_up() is None

    cancelled = start(client, matches=400)
    url = f"/api/v1/studies/{cancelled['id']}"
    with worker(app):
        wait_for(lambda: client.get(url).get_json()["progress"]["done"])
        client.delete(url, headers={"Authorization": f"Bearer {cancelled['token']}"})
    study = client.get(url).get_json()
    assert study["status"] == "failed" and study["error"] == (
        "Cancelled by its creator. Then its report could not be drawn (ValueError: 'yerr' "
        "must not contain negative values).")
    assert study["summary"]["arms"][0]["matches"] == study["progress"]["done"] > 0
    assert playing.claim() is None and playing.claim_summing_up() is None


def handed_over(app, client) -> tuple[dict, str]:
    """A study of 30 matches some of which its worker played before it handed the study over
    (told to stop): the study and its address."""
    created = start(client, matches=30)
    url = f"/api/v1/studies/{created['id']}"
    with worker(app) as thread:
        wait_for(lambda: client.get(url).get_json()["progress"]["done"])
        app.extensions["digsite_studies"].leave()
        thread.join(10)
    return created, url


def test_a_study_cancelled_while_no_worker_holds_it_keeps_the_report_of_its_matches(app,
                                                                                   client):
    """Cancelled once its worker handed it over, or while the worker that held it is dead: the
    next worker to look sums up the matches stored, as the one playing it would have."""
    created, url = handed_over(app, client)
    other = Studies(app.extensions["digsite_storage"], None, app.extensions["digsite_settings"])
    token = {"Authorization": f"Bearer {created['token']}"}
    done = client.delete(url, headers=token).get_json()["progress"]["done"]
    assert 0 < done < 30
    drawing = client.get(f"{url}/report")
    said = assert_problem(drawing, 409, kind="study-not-done")["detail"]
    assert f"the report of its {done} matches played is being drawn" in said
    # "ask again in a moment" said how long a moment is only in words
    assert drawing.headers["Retry-After"] == "2"
    other.work()
    study = client.get(url).get_json()
    assert study["status"] == "cancelled" and study["error"] == "Cancelled by its creator."
    assert study["summary"]["arms"][0]["matches"] == done
    report = client.get(f"{url}/report")
    assert report.status_code == 200 and f"{done} of 30" in report.get_data(as_text=True)

    dying = start(client, matches=30)
    url = f"/api/v1/studies/{dying['id']}"
    claimed = other.claim()
    other._store(dying["id"], 0, 3, play_range(claimed.spec, 0, 3)[0].decode(), 0.1)
    # Its worker dies: its claim stays until it runs out.
    backdate(app, dying["id"], lease_owner="gone:1:dead",
             lease_until=datetime.now(UTC) + timedelta(seconds=60))
    client.delete(url, headers={"Authorization": f"Bearer {dying['token']}"})
    other.work()
    assert "summary" not in client.get(url).get_json()  # the claim has not run out yet
    backdate(app, dying["id"], lease_until=datetime.now(UTC) - timedelta(seconds=1))
    other.work()
    study = client.get(url).get_json()
    assert study["status"] == "cancelled" and study["summary"]["arms"][0]["matches"] == 3
    assert client.get(f"{url}/report").status_code == 200
    assert other.claim_summing_up() is None


def test_a_cancelled_study_s_stream_ends_once_its_summary_is_written(app, client):
    """The stream ended with the "cancelled" event, before the summary and report of the matches
    played were written: its follower never heard when the report was there."""
    created, url = handed_over(app, client)
    client.delete(url, headers={"Authorization": f"Bearer {created['token']}"})
    chunks: list[bytes] = []
    reading = threading.Thread(target=lambda: chunks.extend(
        app.test_client().get(f"{url}/events", buffered=False).response), daemon=True)
    reading.start()
    wait_for(lambda: b"cancelled" in b"".join(chunks))
    reading.join(1)
    assert reading.is_alive(), "the stream ended before the summary was written"
    other = Studies(app.extensions["digsite_storage"], app.extensions["digsite_studies"].hub,
                    app.extensions["digsite_settings"])
    backdate(app, created["id"], lease_until=datetime.now(UTC) - timedelta(seconds=1))
    other.work()
    reading.join(10)
    assert not reading.is_alive()
    stream = b"".join(chunks)
    assert progress_events(stream)[-1]["status"] == "cancelled"
    with app.extensions["digsite_storage"].engine.connect() as conn:
        version = conn.execute(sa.select(studies.c.version)
                               .where(studies.c.id == created["id"])).scalar_one()
    # its last event is the version that holds the summary: the report is there
    assert re.findall(rb"^id: (\d+)$", stream, re.MULTILINE)[-1] == str(version).encode()
    assert client.get(f"{url}/report").status_code == 200


def backdate(app, study_id: str, **values) -> None:
    with app.extensions["digsite_storage"].engine.begin() as conn:
        conn.execute(studies.update().where(studies.c.id == study_id).values(**values))


def test_a_study_nobody_follows_is_cancelled_when_its_creator_said_so(app, client):
    kept = start(client)
    dropped = start(client, cancel_unwatched_after=30)
    long_ago = datetime.now(UTC) - timedelta(seconds=60)
    for each in (kept, dropped):
        backdate(app, each["id"], watched_at=long_ago)
    with worker(app):
        pass
    assert client.get(f"/api/v1/studies/{kept['id']}").get_json()["status"] == "done"
    study = client.get(f"/api/v1/studies/{dropped['id']}").get_json()
    assert study["status"] == "cancelled" and study["progress"]["done"] == 0
    assert "Nobody followed the study for" in study["error"]


def test_an_open_stream_keeps_a_study_followed_while_nothing_changes(app, client):
    """Asked to be cancelled after the shortest time unwatched, and followed on an open stream
    while nothing changes (queued behind others, waiting for its creator's budget, playing a
    long chunk): the stream keeps it followed though no event or keep-alive is due, and it is
    played to its end."""
    shortest = UNWATCHED_SECONDS[0]
    created = start(client, cancel_unwatched_after=shortest)
    url = f"/api/v1/studies/{created['id']}"
    chunks = []

    def follow():
        chunks.extend(app.test_client().get(f"{url}/events", buffered=False).response)

    reading = threading.Thread(target=follow, daemon=True)
    reading.start()
    wait_for(lambda: any(b"event: progress" in chunk for chunk in chunks))

    def watched_at():
        with app.extensions["digsite_storage"].engine.connect() as conn:
            return aware(conn.execute(sa.select(studies.c.watched_at).where(
                studies.c.id == created["id"])).scalar_one())

    for _ in range(3):  # the stream wakes once more as the hub hears of the study: then quiet
        # Nobody has looked at it for longer than its creator allows; its stream is open.
        backdate(app, created["id"],
                 watched_at=datetime.now(UTC) - timedelta(seconds=shortest + 1))
        wait_for(lambda: datetime.now(UTC) - watched_at() < timedelta(seconds=shortest / 2),
                 timeout=shortest / 2)
    with worker(app):
        pass
    reading.join(10)
    study = client.get(url).get_json()
    assert study["status"] == "done", study["error"]
    assert progress_events(b"".join(chunks))[-1]["status"] == "done"


def test_a_study_stops_at_its_cap_of_bot_time(app, client):
    created = start(client)
    backdate(app, created["id"], bot_seconds_limit=0.001)
    with worker(app):
        pass
    study = client.get(f"/api/v1/studies/{created['id']}").get_json()
    assert study["status"] == "failed" and 0 < study["progress"]["done"] < 20
    assert "of bot time after" in study["error"]
    assert study["summary"]["arms"][0]["matches"] == study["progress"]["done"]


def test_the_creator_s_thinking_budget_counts_a_study_s_bot_time(tmp_path):
    limited = create_app({"TESTING": True, **SETTINGS, "DIGSITE_THINKING_LIMIT": "1/hour",
                          "DATABASE_URL": f"sqlite:///{tmp_path / 'limited.db'}"})
    client = limited.test_client()
    created = start(client)
    limited.extensions["digsite_thinking"].spend(2.0, ("address", "127.0.0.1"))
    refused = client.post(STUDIES, json={"matches": 20, "players": RANDOM})
    assert_problem(refused, 429, kind="rate-limited")
    assert int(refused.headers["Retry-After"]) > 0
    assert "your address's share" in refused.get_json()["detail"]
    with worker(limited):
        pass  # the study started before the budget was spent waits until it comes back
    study = client.get(f"/api/v1/studies/{created['id']}").get_json()
    # Set aside, nobody plays it: it read "running" while it waited.
    assert study["status"] == "queued" and study["progress"]["done"] == 0
    assert study["waiting_until"] > datetime.now(UTC).isoformat()
    # and says why: its `error` was null, as if nothing held it
    assert study["error"].startswith("Waiting for its creator's thinking budget: "), study


def test_a_study_whose_wait_has_passed_no_longer_shows_it(app, client):
    """A study set aside for its creator's budget showed its `waiting_until` long after it had
    passed, until a worker took it up again: as if it still waited for the budget."""
    created = start(client)
    url = f"/api/v1/studies/{created['id']}"
    soon = datetime.now(UTC).replace(microsecond=0) + timedelta(hours=1)
    backdate(app, created["id"], waiting_until=soon)
    assert client.get(url).get_json()["waiting_until"] == soon.isoformat()
    backdate(app, created["id"], waiting_until=datetime.now(UTC) - timedelta(seconds=5))
    study = client.get(url).get_json()
    assert (study["status"], study["waiting_until"]) == ("queued", None)


@pytest.mark.parametrize(("body", "field", "said"), [
    ({"box": {"HAND_LIMIT": "two"}}, "box", 'HAND_LIMIT: expected a whole number, not "two".'),
    # null was refused by the request's schema, at a path naming marshmallow's insides
    ({"box": {"HAND_LIMIT": None}}, "box", "HAND_LIMIT: expected a whole number, not null."),
    ({"compare": [{"box": {"BOWL_POINTS": None}}]}, "compare.0.box",
     "BOWL_POINTS: expected a list, not null."),
    ({"compare": [{"box": {"NO_SUCH": 1}}]}, "compare.0.box", "NO_SUCH: the box has no such"),
    ({"players": ["random", "wizard"]}, "players.1", "Choose one of: random, greedy, mcts."),
    # a simulation's seat, {"name", "bot"}, was told only to choose a bot it had named
    ({"players": ["random", {"name": "Ann", "bot": "greedy"}]}, "players.1",
     "A study's seat is its bot's name alone, as text: one of random, greedy, mcts."),
    ({"variant": "huge"}, "variant", "Choose standard, the game's only variant."),
    ({"players": ["random"] * 6}, "players", "Enter from 2 to 4 players."),
    ({"compare": [{"players": ["random"] * 3}]}, "compare.0",
     "Every arm seats as many players as the first (2)"),
    ({"compare": [{}]}, "compare.0", "Say what this arm changes"),
    # One match gave each difference an interval of no width, read as a certain difference.
    ({"matches": 1, "compare": [{"box": {"HAND_LIMIT": 2}}]}, "matches",
     "Comparing arms takes at least 2 matches: from one, a difference has no interval"),
    # The arm's tables are its own box's: it was accepted, then failed as it played.
    ({"compare": [{"box": {"VARIANTS": {"standard": {"players": [3, 4]}}}}]}, "compare.0",
     "DIG (standard) is for 3 to 4 players, not 2."),
])
def test_a_study_the_game_cannot_play_is_refused_naming_the_field(client, body, field, said):
    answer = client.post(STUDIES, json={"matches": 20, "players": RANDOM, **body})
    problem = assert_problem(answer, 422, field, kind="invalid-body")
    assert any(said in message for message in problem["errors"][field]), problem


def test_a_study_above_the_work_limit_is_refused_with_the_limit(client):
    answer = client.post(STUDIES, json={"matches": 1001, "players": RANDOM,
                                        "compare": [{"players": ["greedy", "random"]}]})
    problem = assert_problem(answer, 422, "matches", kind="too-much-work")
    assert "4000 seat-matches" in problem["detail"] and "this one is 4004" in problem["detail"]


def test_an_unknown_study_is_not_found(client):
    for tail in ("", "/events", "/records", "/report"):
        assert_problem(client.get(f"/api/v1/studies/{'0' * 32}{tail}"), 404)


def test_a_study_survives_the_worker_playing_it(tmp_path):
    """Served by gunicorn on SQLite: the worker playing a study is killed; once its claim runs
    out another worker takes the study over and finishes it, with the records of an
    uninterrupted run."""
    database = f"sqlite:///{tmp_path / 'digsite.db'}"
    engine = sa.create_engine(database)
    env = {"DATABASE_URL": database, "DIGSITE_STUDY_LEASE_SECONDS": "2",
           "DIGSITE_STUDY_POLL_SECONDS": "0.2"}
    with serve(env, workers=2) as server:
        created = call(server, STUDIES, {"matches": 40, "players": RANDOM, "seed": 9})

        def playing():
            with engine.connect() as conn:
                row = conn.execute(sa.select(studies.c.done, studies.c.lease_owner)
                                   .where(studies.c.id == created["id"])).first()
            return row if row.done and row.lease_owner else None

        first = wait_for(playing)
        assert first.done < 40
        pid = int(first.lease_owner.split(":")[1])
        assert pid in server.worker_pids()
        os.kill(pid, signal.SIGKILL)
        url = f"{server.url}/api/v1/studies/{created['id']}"
        # The rest is played in niced thinking processes that the other worker starts anew: on
        # busy cores (the whole suite beside it, a load of 16) that took over a minute.
        study = wait_for(lambda: (s := call(server, f"/api/v1/studies/{created['id']}"))
                         ["status"] == "done" and s, timeout=180)
        assert study["progress"] == {"done": 40, "total": 40}
        with urllib.request.urlopen(f"{url}/records", timeout=10) as answer:
            records = answer.read()
    engine.dispose()
    spec = {"game": "dig", "seed": "9", "matches": 40,
            "arms": [{"label": "base", "variant": "standard", "bots": RANDOM}]}
    assert records == play_range(spec, 0, 40)[0]


def test_the_prune_removes_studies_ended_long_ago_with_their_records(app, client, runner):
    old, young = start(client, matches=2), start(client, matches=2)
    with worker(app):
        pass
    backdate(app, old["id"], updated_at=datetime.now(UTC) - timedelta(days=31))
    pruned = runner.invoke(args=["prune", "--format", "json"])
    assert json.loads(pruned.output)["studies"] == 1
    assert_problem(client.get(f"/api/v1/studies/{old['id']}/records"), 404)
    assert client.get(f"/api/v1/studies/{young['id']}").get_json()["status"] == "done"
    with app.extensions["digsite_storage"].engine.connect() as conn:
        assert {row.study_id for row in conn.execute(sa.select(study_chunks))} == {young["id"]}


def test_the_server_s_operator_cancels_a_study_whose_token_was_lost(app, client, runner):
    # A study whose token was lost played on to its end against its creator's thinking budget:
    # only its token could cancel it.
    lost = start(client, matches=2000)
    with worker(app):
        wait_for(lambda: client.get(f"/api/v1/studies/{lost['id']}").get_json()["progress"]
                 ["done"] > 0)
        said = runner.invoke(args=["studies", "cancel", lost["id"]])
    assert said.exit_code == 0, said.output
    study = client.get(f"/api/v1/studies/{lost['id']}").get_json()
    assert (study["status"], study["error"]) == ("cancelled", "Cancelled by the server's operator.")
    assert 0 < study["progress"]["done"] < 2000
    assert said.output == f"Study {lost['id']} cancelled ({study['progress']['done']} of 2000 " \
                          "matches played).\n"
    # the matches stored stay, with their report
    assert client.get(f"/api/v1/studies/{lost['id']}/report").status_code == 200
    # one that has ended stays as it is; an id no study has is said so
    again = runner.invoke(args=["studies", "cancel", lost["id"]])
    assert again.exit_code == 0 and "had already ended (cancelled, " in again.output
    unknown = runner.invoke(args=["studies", "cancel", "0" * 32])
    assert unknown.exit_code == 1 and f"{'0' * 32}: There is no study with this id." in \
        unknown.output


@contextmanager
def on_local_dask(tmp_path, workers: int):
    """A Dask cluster of `workers` in this process (listening on TCP, as a remote one does) and
    an app whose studies it plays; the app's Dask clients are closed as it ends."""
    from distributed import LocalCluster

    from studies import jobs

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                      protocol="tcp://", dashboard_address=":0",
                      silence_logs=logging.CRITICAL) as cluster:
        try:
            yield cluster, create_app({"TESTING": True, **SETTINGS,
                                       "DIGSITE_DASK_SCHEDULER": cluster.scheduler_address,
                                       "DATABASE_URL": f"sqlite:///{tmp_path / 'dask.db'}"})
        finally:
            for dask_client in jobs._clients.values():
                dask_client.close()
            jobs._clients.clear()


def test_a_study_plays_on_the_dask_cluster_configured(tmp_path):
    """With DIGSITE_DASK_SCHEDULER set, the chunks are played by the cluster's workers (here a
    one-worker cluster in this process, listening on TCP as a remote one does), with the same
    records."""
    with on_local_dask(tmp_path, 1) as (cluster, on_dask):
        client = on_dask.test_client()
        created = start(client, matches=6)
        with worker(on_dask):
            pass
        played = cluster.scheduler.task_prefixes["play_range"].state_counts["memory"]
    study = client.get(f"/api/v1/studies/{created['id']}").get_json()
    assert study["status"] == "done" and study["bot_time"]["seconds"] > 0
    with on_dask.extensions["digsite_storage"].engine.connect() as conn:
        chunks = conn.execute(sa.select(sa.func.count()).select_from(study_chunks)).scalar()
    assert played == chunks > 1  # every chunk was a task of the cluster's
    spec = {"game": "dig", "seed": "5", "matches": 6,
            "arms": [{"label": "base", "variant": "standard", "bots": RANDOM}]}
    assert client.get(f"/api/v1/studies/{created['id']}/records").get_data() == \
        play_range(spec, 0, 6)[0]


def test_a_dask_scheduler_lost_for_a_moment_leaves_the_study_to_be_taken_up(app, client,
                                                                             monkeypatch):
    """A scheduler restarted under a study failed the study for good ("Matches 73 to 155 could
    not be played: FutureCancelledError: … scheduler-connection-lost"), as if its matches could
    never be played: an outage, like a thinking process gone away, leaves the claim to run out."""
    from distributed.client import FutureCancelledError

    created = start(client, matches=6)
    played = study_module.think

    def lost(*args):
        raise FutureCancelledError("play_range-1", "scheduler-connection-lost",
                                   "Client lost the connection to the scheduler.")

    monkeypatch.setattr(study_module, "think", lost)
    studies_of_app = app.extensions["digsite_studies"]
    with pytest.raises(FutureCancelledError):
        studies_of_app.work()
    study = client.get(f"/api/v1/studies/{created['id']}").get_json()
    assert (study["status"], study["error"]) == ("running", None)
    monkeypatch.setattr(study_module, "think", played)
    backdate(app, created["id"], lease_until=datetime.now(UTC) - timedelta(seconds=1))
    studies_of_app.work()  # the claim ran out: taken up again, as by another worker
    assert client.get(f"/api/v1/studies/{created['id']}").get_json()["status"] == "done"
    spec = {"game": "dig", "seed": "5", "matches": 6,
            "arms": [{"label": "base", "variant": "standard", "bots": RANDOM}]}
    assert client.get(f"/api/v1/studies/{created['id']}/records").get_data() == \
        play_range(spec, 0, 6)[0]


def test_a_study_waits_for_a_dask_scheduler_that_does_not_answer_and_says_so(tmp_path,
                                                                            monkeypatch):
    """With its scheduler down, a study stayed "running" at no match played, its `error` and
    `waiting_until` null: only the server's log said why. It is set aside, saying it waits for
    the cluster and when it is tried again."""
    monkeypatch.setattr(study_module, "CLUSTER_PATIENCE_SECONDS", 0.5)
    down = create_app({"TESTING": True, **SETTINGS,
                       "DIGSITE_DASK_SCHEDULER": f"tcp://127.0.0.1:{free_port()}",
                       "DATABASE_URL": f"sqlite:///{tmp_path / 'down.db'}"})
    client = down.test_client()
    created = start(client, matches=6)
    with worker(down):
        pass
    study = client.get(f"/api/v1/studies/{created['id']}").get_json()
    assert (study["status"], study["progress"]["done"]) == ("queued", 0)
    assert study["waiting_until"] > datetime.now(UTC).isoformat()
    assert study["error"].startswith("Waiting for the Dask cluster that plays the studies: its "
                                     "scheduler does not answer"), study["error"]
    assert down.extensions["digsite_studies"].claim() is None  # nobody holds it meanwhile
    # Its followers hear it too: the stream's first event is the study as it waits.
    stream = client.get(f"/api/v1/studies/{created['id']}/events", buffered=False)
    first = next(chunk for chunk in stream.response if b"event: progress" in chunk)
    stream.close()
    heard = progress_events(first)[-1]
    assert (heard["status"], heard["error"], heard["waiting_until"]) == (
        "queued", study["error"], study["waiting_until"])


def test_a_study_waits_for_a_dask_cluster_with_no_worker_and_goes_on_once_one_joins(
        tmp_path, monkeypatch):
    """On a cluster with no worker a study waited for ever, "running" at no match played, its
    claim renewed all the while and nothing said. It is set aside saying so, and goes on, with
    the records of an uninterrupted run, once a worker joins."""
    monkeypatch.setattr(study_module, "CLUSTER_PATIENCE_SECONDS", 0.5)
    with on_local_dask(tmp_path, 0) as (cluster, on_dask):
        client = on_dask.test_client()
        created = start(client, matches=6)
        url = f"/api/v1/studies/{created['id']}"
        with worker(on_dask) as playing:
            playing.join(20)
            assert not playing.is_alive()  # it does not wait for ever
        study = client.get(url).get_json()
        assert (study["status"], study["progress"]["done"]) == ("queued", 0)
        assert study["waiting_until"] > datetime.now(UTC).isoformat()
        assert study["error"].startswith(
            "Waiting for the Dask cluster that plays the studies: it has no worker, and "
            "none joined"), study["error"]
        cluster.scale(1)
        cluster.wait_for_workers(1, timeout=30)
        backdate(on_dask, created["id"], waiting_until=datetime.now(UTC) - timedelta(seconds=1))
        with worker(on_dask):
            pass
    study = client.get(url).get_json()
    assert (study["status"], study["error"], study["waiting_until"]) == ("done", None, None)
    spec = {"game": "dig", "seed": "5", "matches": 6,
            "arms": [{"label": "base", "variant": "standard", "bots": RANDOM}]}
    assert client.get(f"{url}/records").get_data() == play_range(spec, 0, 6)[0]


@pytest.mark.parametrize("address", ["http://scheduler:8786", "tcp://scheduler", "scheduler",
                                     "scheduler:port", "tcp://scheduler:8786/", "::1:8786"])
def test_a_dask_scheduler_that_is_no_address_stops_the_app_at_start(tmp_path, address):
    """Taken as it was, it failed only once a study was played, each study in turn."""
    assert app_refusal(tmp_path, DIGSITE_DASK_SCHEDULER=address) == (
        f"DIGSITE_DASK_SCHEDULER: {address!r} is no Dask scheduler's address: write one such as "
        "tcp://127.0.0.1:8786 or 127.0.0.1:8786 (tls://, ws:// and wss:// also).")


@pytest.mark.parametrize("address", ["tcp://10.0.0.5:8786", "scheduler:8786",
                                     "tls://[2001:db8::5]:8786", "ws://scheduler:8787"])
def test_a_dask_scheduler_s_address_is_taken_with_or_without_its_scheme(address):
    assert read({"DIGSITE_DASK_SCHEDULER": address}, {}).digsite_dask_scheduler == address


def test_two_servers_on_postgresql_play_follow_serve_and_cancel_one_study(postgresql_server):
    """Two app servers sharing PostgreSQL: a study started on one is claimed by one worker,
    followed on the other's stream to its end, and its records there are simulate's; a study
    cancelled through the other server stops where it was."""
    env = {"DATABASE_URL": postgresql_server, "DIGSITE_STUDY_LEASE_SECONDS": "2",
           "DIGSITE_STUDY_POLL_SECONDS": "0.2"}
    with serve_side_by_side(env) as (first, second):
        created = call(first, STUDIES, {"matches": 30, "players": RANDOM, "seed": 13})
        url = f"{second.url}/api/v1/studies/{created['id']}"
        with requests.get(f"{url}/events", stream=True, timeout=60) as stream:
            events = progress_events(stream.raw.read())  # the stream ends with the study
        assert events[-1]["status"] == "done"
        done = [e["progress"]["done"] for e in events]
        assert done == sorted(done) and len(events) > 2
        records = requests.get(f"{url}/records", timeout=10).content
        spec = {"game": "dig", "seed": "13", "matches": 30,
                "arms": [{"label": "base", "variant": "standard", "bots": RANDOM}]}
        assert records == play_range(spec, 0, 30)[0]

        long = call(first, STUDIES, {"matches": 4000, "players": ["greedy", "greedy"],
                                     "seed": 1})
        url = f"{second.url}/api/v1/studies/{long['id']}"
        wait_for(lambda: requests.get(url, timeout=10).json()["progress"]["done"] > 0)
        cancelled = requests.delete(url, headers={"Authorization": f"Bearer {long['token']}"},
                                    timeout=10)
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
        time.sleep(1)  # a chunk under way when it was cancelled is stored or dropped, not more
        done = requests.get(url, timeout=10).json()["progress"]["done"]
        assert 0 < done < 4000
        time.sleep(1)
        assert requests.get(url, timeout=10).json()["progress"]["done"] == done


@pytest.mark.parametrize("game", ["dig-it-up", "dig", "digging-for-dinos"])
def test_the_documented_examples_start_a_study(client, game):
    """The request as the docs page's "Try it out" builds it from the document's examples, one
    arm compared: it was refused (Dig It Up's two seats at a table of four, DIG's box constant
    for every game)."""
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    prefix = GAMES[game].prefix

    def examples(name: str) -> dict:
        return {key: field["example"] for key, field in schemas[name]["properties"].items()
                if "example" in field}

    body = {**examples(f"{prefix}StudyRequest"), "matches": 2,
            "compare": [examples(f"{prefix}CompareArm")]}
    assert set(body) >= {"players", "box", "compare"}
    answer = client.post(f"/api/v1/games/{game}/studies", json=body)
    assert answer.status_code == 202, answer.get_json()
    # and the operation's own examples, which "Try it out" offers first
    operation = client.get("/api/openapi.json").get_json()["paths"][
        f"/api/v1/games/{game}/studies"]["post"]
    examples = operation["requestBody"]["content"]["application/json"]["examples"]
    assert {"seats", "budgets"} <= set(examples)
    for example in examples.values():
        answer = client.post(f"/api/v1/games/{game}/studies", json=example["value"])
        assert answer.status_code == 202, (example, answer.get_json())


# Said why, as `simulate --compare` says it ("This arm is the same as an earlier one." left a
# designer who set HAND_LIMIT to 3 to find that 3 is the printed value).
PLAYS_AS_THE_FIRST = ("This arm plays as the first arm does (random, random in standard, and the "
                      "same box: a constant set to the value it has already changes nothing): "
                      "change its players, variant, playouts or box.")


def test_a_box_constant_is_one_whatever_its_case(client):
    """Named twice in two cases, it was played at the last value; an arm changing it in
    another case to the first arm's value was taken for a new arm."""
    twice = client.post(STUDIES, json={"matches": 2, "players": RANDOM,
                                       "box": {"HAND_LIMIT": 2, "hand_limit": 3}})
    assert twice.status_code == 422
    assert twice.get_json()["errors"]["box"] == [
        "hand_limit: names HAND_LIMIT again, as HAND_LIMIT does; name each constant once."]
    same = client.post(STUDIES, json={"matches": 2, "players": RANDOM, "box": {"HAND_LIMIT": 2},
                                      "compare": [{"box": {"hand_limit": 2}}]})
    assert same.status_code == 422
    assert same.get_json()["errors"]["compare.0"] == [PLAYS_AS_THE_FIRST]


def test_a_box_value_nested_hundreds_deep_is_refused_in_words(client):
    """JSON lets a body nest lists 900 deep (the body reader refuses past that): merging and
    showing such a value ran out of Python's stack, a 500."""
    deep = "[" * 900 + "]" * 900
    nested = "{" + '"standard": {' * 450 + '"players": 1' + "}" * 451
    body = (f'{{"matches": 2, "players": {json.dumps(RANDOM)}, "box": {{"HAND_LIMIT": {deep}}}, '
            f'"compare": [{{"box": {{"VARIANTS": {nested}}}}}]}}')
    answer = client.post(STUDIES, data=body, content_type="application/json")
    assert answer.status_code == 422, answer.get_data(as_text=True)
    assert answer.get_json()["errors"] == {
        "box": ["HAND_LIMIT: nested more than 8 lists or objects deep; no constant of a box is."],
        "compare.0.box": [
            "HAND_LIMIT: nested more than 8 lists or objects deep; no constant of a box is.",
            "VARIANTS: nested more than 8 lists or objects deep; no constant of a box is."]}
    # as deep as a box's constants go, and more, is merged as ever: said of what does not fit
    eight = client.post(STUDIES, json={"matches": 2, "players": RANDOM,
                                       "box": {"HAND_LIMIT": [[[[[[[[]]]]]]]]}})
    assert eight.get_json()["errors"]["box"] == [
        "HAND_LIMIT: expected a whole number, not [[[[[[[[]]]]]]]]."]


@pytest.mark.parametrize("change", [{"box": {"HAND_LIMIT": 3}}, {"players": RANDOM},
                                    {"box": {"VARIANTS": {}}},
                                    {"box": {"VARIANTS": {"standard": {"players": [2, 4]}}}}])
def test_an_arm_that_plays_as_the_first_is_refused(client, change):
    """A constant set to its printed value, the first arm's bots named again, a change that
    merges into the box as nothing: the same matches played twice, for a difference of
    nothing."""
    same = client.post(STUDIES, json={"matches": 2, "players": RANDOM, "compare": [change]})
    assert same.status_code == 422, same.get_json()
    assert same.get_json()["errors"]["compare.0"] == [PLAYS_AS_THE_FIRST]
    over = client.post(STUDIES, json={"matches": 2, "players": RANDOM, "box": {"HAND_LIMIT": 2},
                                      "compare": [{"box": {"hand_limit": 1}}]})
    assert over.status_code == 202, over.get_json()
    assert [arm["box"] for arm in over.get_json()["arms"]] == [{"HAND_LIMIT": 2},
                                                               {"HAND_LIMIT": 1}]
    # labelled by the constant's own name, as its box and `simulate --compare` name it
    assert [arm["label"] for arm in over.get_json()["arms"]] == ["base", "HAND_LIMIT=1"]


def test_an_arm_s_box_is_merged_over_the_first_s_within_each_constant(client):
    """An arm changing ruby's bonuses over a first arm that changed gold's put gold back to the
    printed table, unsaid: its label, its box and the differences told of ruby alone."""
    gold, ruby = [[3, 5], [5, 20], [7, 40]], [[5, 40], [7, 60]]
    answer = client.post("/api/v1/games/dig-it-up/studies", json={
        "matches": 2, "players": ["greedy", "greedy"], "variant": "small",
        "box": {"SET_TABLE": {"gold": gold}}, "compare": [{"box": {"set_table": {"ruby": ruby}}}]})
    assert answer.status_code == 202, answer.get_json()
    first, second = (arm["box"]["SET_TABLE"] for arm in answer.get_json()["arms"])
    assert first == {"gold": gold}
    assert second["gold"] == gold and second["ruby"] == ruby
    # The constants only one arm names stay as it names them.
    answer = client.post(STUDIES, json={"matches": 2, "players": RANDOM,
                                        "box": {"HAND_LIMIT": 2},
                                        "compare": [{"box": {"BOWL_POINTS": [5, 4, 3, 2, 2]}}]})
    assert answer.status_code == 202, answer.get_json()
    assert answer.get_json()["arms"][1]["box"] == {"HAND_LIMIT": 2,
                                                   "BOWL_POINTS": [5, 4, 3, 2, 2]}


def test_each_arm_names_the_search_budget_it_plays_with_as_the_study_began(app, client,
                                                                         monkeypatch):
    """An arm named the bots in its seats but not how hard the search bot thinks: its
    playouts were the game's own, unsaid, and a study taken up again after a release that
    changed them would have played its later matches otherwise than its first. Each arm names
    the budget it plays with (null where no seat searches), kept as the study began."""
    answer = client.post(STUDIES, json={"matches": 2, "players": ["mcts", "random"],
                                        "compare": [{"players": RANDOM}]})
    assert answer.status_code == 202, answer.get_json()
    study = answer.get_json()
    playouts = dig_bots.SEARCH.playouts
    assert [arm["budget"] for arm in study["arms"]] == [{"playouts": playouts}, None]
    monkeypatch.setattr(dig_bots, "SEARCH",
                        dataclasses.replace(dig_bots.SEARCH, playouts=playouts + 5))
    shown = client.get(f"/api/v1/studies/{study['id']}").get_json()
    assert [arm["budget"] for arm in shown["arms"]] == [{"playouts": playouts}, None]
    kept = study_of(app.extensions["digsite_studies"].load(study["id"]).spec)
    assert kept.describe()["arms"][0]["search"]["playouts"] == playouts


def test_a_study_compares_search_budgets_as_simulate_does(app, client, runner, tmp_path):
    """A study could not set the search bot's playouts, nor compare two budgets: a designer
    weighing how hard the bot thinks had to run `simulate` on a machine of their own."""
    created = start(client, matches=3, players=["mcts", "random"], playouts=6,
                    compare=[{"playouts": 12}])
    assert [(arm["label"], arm["budget"]) for arm in created["arms"]] == [
        ("base", {"playouts": 6}), ("playouts=12", {"playouts": 12})]
    with worker(app):
        pass
    assert client.get(f"/api/v1/studies/{created['id']}").get_json()["status"] == "done"
    out = tmp_path / "cli.jsonl"
    result = runner.invoke(args=["simulate", "dig", "--matches", "3", "--seed", "5", "--bots",
                                 "mcts,random", "--playouts", "6", "--compare", "playouts=12",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert client.get(f"/api/v1/studies/{created['id']}/records").get_data() == out.read_bytes()


def test_a_search_budget_that_changes_nothing_is_refused_naming_its_field(client):
    said = "A search budget changes nothing where no seat plays the search bot: add mcts to"
    nobody = client.post(STUDIES, json={"matches": 2, "players": RANDOM, "playouts": 8})
    assert_problem(nobody, 422)
    assert nobody.get_json()["errors"] == {"playouts": [f"{said} the players."]}
    arm = client.post(STUDIES, json={"matches": 2, "players": ["mcts", "random"],
                                     "compare": [{"players": RANDOM, "playouts": 8}]})
    assert arm.get_json()["errors"] == {"compare.0.playouts": [f"{said} its players."]}
    # the first arm's budget again: the same matches twice
    playouts = dig_bots.SEARCH.playouts
    same = client.post(STUDIES, json={"matches": 2, "players": ["mcts", "random"],
                                      "compare": [{"playouts": playouts}]})
    assert same.get_json()["errors"]["compare.0"][0].startswith(
        "This arm plays as the first arm does (mcts, random in standard")
    # a search seat weighs as its playouts do: the limit (4,000 here) counts them
    heavy = client.post(STUDIES, json={"matches": 2, "players": ["mcts", "random"],
                                       "playouts": 20 * playouts})
    assert_problem(heavy, 422, kind="too-much-work")
    assert "this one is 4002." in heavy.get_json()["detail"]


def test_a_study_whose_bots_never_end_a_match_fails_naming_the_arm(app, client, monkeypatch,
                                                                   caplog):
    """With some boxes (a bowl worth 1000) greedy bots go round in circles: the study failed
    with "RuntimeError: DIG: bots played 100000 actions without an end", naming no arm."""
    monkeypatch.setattr("studies.play.MOST_ACTIONS", 6)
    created = start(client, matches=3, compare=[{"box": {"HAND_LIMIT": 2}}])
    with caplog.at_level(logging.WARNING), worker(app):
        pass
    # the study's box at fault, not the server: said in the log without a traceback
    said = [r for r in caplog.records if created["id"] in r.getMessage()]
    assert said and all(r.levelno == logging.WARNING and not r.exc_info for r in said), said
    study = client.get(f"/api/v1/studies/{created['id']}").get_json()
    assert study["status"] == "failed"
    assert study["error"] == (  # the match named once, not "Match 0 could not be played: In…"
        "In the arm base, match 0: the bots (random, random) played 6 actions without an end. "
        "With this box they never finish a match: change the box or the bots.")
    # its report, refused in words ("The study is failed")
    report = client.get(f"/api/v1/studies/{created['id']}/report")
    assert report.status_code == 409
    assert report.get_json()["detail"].startswith("The study failed: ")


def test_the_document_names_the_box_constants_a_study_may_change(client):
    """A study's `box` named no constant: a client found them only by sending a wrong one."""
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    for game in GAMES.values():
        box = schemas[f"{game.prefix}StudyRequest"]["properties"]["box"]
        said = set(re.findall(r"\b[A-Z][A-Z0-9_]+\b", box["description"]))
        fixed = type(game.box).FIXED
        assert said >= {name for name in game.box.names if name not in fixed}, game.id
        assert not said & set(fixed)


def test_a_study_over_http_rotates_its_seats_as_simulate_does(app, client, runner, tmp_path):
    """`rotate_seats`: each bot one seat on from match to match; the summary tells each seat's
    advantage (`seats`, named by number, no bot) and each bot's strength (`bots`) apart, and
    the records are those `simulate --rotate-seats` writes."""
    created = start(client, matches=6, players=["greedy", "random"], rotate_seats=True,
                    compare=[{"players": ["random", "random"]}])
    assert created["rotate_seats"] is True
    assert start(client)["rotate_seats"] is False
    with worker(app):
        done = wait_for(lambda: (s := client.get(f"/api/v1/studies/{created['id']}").get_json())
                        ["status"] == "done" and s)
    base = done["summary"]["arms"][0]
    assert [(s["name"], s["bot"]) for s in base["seats"]] == [("seat 0", None), ("seat 1", None)]
    assert [(b["bot_index"], b["bot"]) for b in base["bots"]] == [(0, "greedy"), (1, "random")]
    assert set(base["equal_bot_shares"]) == {"chi_square", "df", "p_value"}
    assert [b["bot_index"] for b in done["summary"]["differences"][0]["bots"]] == [0, 1]
    out = tmp_path / "cli.jsonl"
    result = runner.invoke(args=["simulate", "dig", "--matches", "6", "--seed", "5",
                                 "--bots", "greedy,random", "--rotate-seats",
                                 "--compare", "bots=random,random", "--out", str(out)])
    assert result.exit_code == 0, result.output
    records = client.get(f"/api/v1/studies/{created['id']}/records").get_data()
    assert records == out.read_bytes()
    assert [json.loads(line)["bot"] for line in records.splitlines()[:4]] == [
        "greedy", "random", "random", "random"]  # match 0: base, then the compared arm
    assert json.loads(records.splitlines()[4])["bot"] == "random"  # match 1: greedy moved on
    assert json.loads(records.splitlines()[5])["bot"] == "greedy"

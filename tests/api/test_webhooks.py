"""Webhooks (API.md "Webhooks", service/webhooks.py), through gunicorn on both databases: a
receiver gets each event of a match once, signed with the secret the creation answer showed,
never a seat's secret; a receiver that fails is tried again until it answers; a host the server
does not allow is refused at creation and never called."""

import hashlib
import hmac
import json
import random
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from app import create_app
from service import webhooks
from service.store import Storage
from tests.api.openapi import validator
from tests.api.problem import assert_problem
from tests.pg import postgres_cluster
from tests.server import serve

GAME = "digging-for-dinos"
EVENTS = ["turn", "finished", "table"]
BODY_KEYS = {"match", "seq", "version", "status", "to_act", "event"}


class Receiver:
    """An HTTP server on loopback that keeps every POST it gets; each of the first `failing`
    attempts of a delivery is answered 500."""

    def __init__(self, failing: int = 0) -> None:
        self.got: list[tuple[dict[str, str], bytes]] = []
        self.attempts: dict[str, int] = {}
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802  (http.server's name)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                delivery = self.headers.get("Digsite-Delivery", "")
                tried = receiver.attempts[delivery] = receiver.attempts.get(delivery, 0) + 1
                if tried <= failing:
                    self.send_response(500)
                else:
                    receiver.got.append((dict(self.headers), body))
                    self.send_response(204)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/hooks/digsite"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def bodies(self) -> list[dict]:
        return [json.loads(body) for _, body in self.got]

    def wait_for(self, check, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while not check(self.bodies()):
            assert time.monotonic() < deadline, self.bodies()
            time.sleep(0.1)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request, tmp_path):
    """A receiver, and two workers sending to it, on each database."""
    receiver = Receiver()
    try:
        env = {"DIGSITE_WEBHOOK_HOSTS": f"127.0.0.1:{receiver.port}",
               "DIGSITE_WEBHOOK_RETRY_SECONDS": "0.2"}
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path / 'digsite.db'}"
            with serve({**env, "DATABASE_URL": url}) as app:
                yield app, receiver, url
        else:
            with postgres_cluster() as url, serve({**env, "DATABASE_URL": url}) as app:
                yield app, receiver, url
    finally:
        receiver.close()


def verified(headers: dict[str, str], body: bytes, secret: str) -> bool:
    """The Digsite-Signature header checks out against `secret`, and was made just now."""
    fields = dict(part.split("=", 1) for part in headers["Digsite-Signature"].split(","))
    expected = hmac.new(secret.encode(), f"{fields['t']}.".encode() + body,
                        hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, fields["v1"]) and abs(int(fields["t"]) - time.time()) < 300


def play_to_end(url: str, match_id: str, tokens: dict[int, str], seed: int) -> list[dict]:
    rng = random.Random(seed)
    path = f"{url}/api/v1/matches/{match_id}"
    for _ in range(1000):
        public = requests.get(path, timeout=30).json()
        if public["status"] == "finished":
            return requests.get(f"{path}/log", params={"limit": 1000}, timeout=30).json()["log"]
        seat = public["to_act"][0]
        view = requests.get(path, headers={"Authorization": f"Bearer {tokens[seat]}"},
                            timeout=30).json()
        moves = [a for a in view["legal_actions"] if a["type"] != "undo"]
        answer = requests.post(f"{path}/actions", timeout=30,
                               headers={"Authorization": f"Bearer {tokens[seat]}"},
                               json={"action": rng.choice(moves), "version": view["version"]})
        assert answer.status_code == 200, answer.text
    raise AssertionError("the match did not end")


def test_a_receiver_gets_each_event_of_a_match_once_signed_and_without_secrets(served):
    """Two workers send, each delivery claimed by one of them."""
    app, receiver, url = served
    created = requests.post(f"{app.url}/api/v1/games/{GAME}/matches", timeout=30, json={
        "players": ["Ann", {"open": True}], "seed": 5,
        "webhook": {"url": receiver.url, "events": EVENTS}}).json()
    secret = created["webhook_secret"]
    assert len(secret) >= 32
    joined = requests.post(f"{app.url}/api/v1/matches/{created['id']}/join", timeout=30,
                           json={"name": "Bob"}).json()
    tokens = {0: created["seats"][0]["token"], 1: joined["token"]}
    play_to_end(app.url, created["id"], tokens, seed=3)
    storage = Storage(url)  # the log as stored: with the seats to act after each entry
    log = storage.log(created["id"], 0, 1000)
    storage.engine.dispose()
    receiver.wait_for(lambda bodies: any(b["event"] == "finished" for b in bodies))
    time.sleep(1.5)  # anything sent twice would come within the sender's next round

    bodies = receiver.bodies()
    assert all(verified(headers, body, secret) for headers, body in receiver.got)
    # each as the document's `webhooks` describes it, headers and body
    document = requests.get(f"{app.url}/api/openapi.json", timeout=30).json()
    told_as = document["webhooks"]["matchEvent"]["post"]
    body_schema = validator(document, told_as["requestBody"]["content"]["application/json"][
        "schema"])
    for headers, body in receiver.got:
        assert list(body_schema.iter_errors(json.loads(body))) == []
        for parameter in told_as["parameters"]:
            assert parameter["in"] == "header" and parameter["required"]
            assert list(validator(document, parameter["schema"]).iter_errors(
                headers[parameter["name"]])) == []
    assert all(set(b) == BODY_KEYS and b["match"] == created["id"] for b in bodies)
    assert all(b["version"] == b["seq"] + 1 for b in bodies)
    told = [(b["seq"], b["event"]) for b in bodies]
    assert len(told) == len(set(told)), "an event told twice"
    deliveries = [headers["Digsite-Delivery"] for headers, _ in receiver.got]
    assert len(deliveries) == len(set(deliveries))
    everything = b"".join(body for _, body in receiver.got).decode()
    assert not [token for token in (*tokens.values(), created["host_token"], secret)
                if token in everything]
    # The join is the table's; the last entry finished the match; a turn is told when a person
    # comes to act who was not to act before, once however many actions a seat takes in its turn.
    join_seq = next(e["seq"] for e in log if e["action"]["type"] == "join")
    assert (join_seq, "table") in told
    assert (log[-1]["seq"], "finished") in told
    turns = sorted(seq for seq, event in told if event == "turn")
    to_act = {e["seq"]: e["to_act"] for e in log}
    # (before the first entry, the join, nobody was to act: the match waited for Bob)
    expected = [e["seq"] for i, e in enumerate(log)
                if set(e["to_act"]) - set(log[i - 1]["to_act"] if i else [])]
    assert turns == expected, (turns, expected)
    assert all(b["to_act"] == to_act[b["seq"]] for b in bodies)


def test_a_receiver_that_fails_is_tried_again_until_it_answers(tmp_path):
    receiver = Receiver(failing=2)
    try:
        with serve({"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
                    "DIGSITE_WEBHOOK_HOSTS": f"127.0.0.1:{receiver.port}",
                    "DIGSITE_WEBHOOK_RETRY_SECONDS": "0.2"}) as app:
            created = requests.post(f"{app.url}/api/v1/games/{GAME}/matches", timeout=30,
                                    json={"players": ["Ann", {"open": True}], "webhook": {
                                        "url": receiver.url, "events": ["table"]}}).json()
            requests.post(f"{app.url}/api/v1/matches/{created['id']}/join", timeout=30,
                          json={"name": "Bob"})
            receiver.wait_for(lambda bodies: bodies)
            [(headers, body)] = receiver.got
            assert verified(headers, body, created["webhook_secret"])
            assert json.loads(body)["event"] == "table"
            assert receiver.attempts[headers["Digsite-Delivery"]] == 3  # two 500s, then 204
    finally:
        receiver.close()


@pytest.mark.parametrize(("allowed", "url", "words"), [
    ("", "http://127.0.0.1:9/hook", "sends no webhooks: its operator allows no webhook host"),
    ("example.org", "http://127.0.0.1:9/hook", "only to the hosts this server allows"),
    ("example.org", "https://example.org.evil.test/hook", "only to the hosts"),
    # the host allowed at another port: the port is named ("not to example.org" misled)
    ("example.org:8443", "https://example.org/hook", "allows, not to example.org:443."),
    ("example.org:80", "https://example.org/hook", "not to example.org:443."),  # https: 443
    ("127.0.0.1:18534", "http://127.0.0.1:9999/x", "allows, not to 127.0.0.1:9999."),
    ("example.org", "ftp://example.org/hook", "http or https"),
    ("example.org", "https://ann:pw@example.org/hook", "user name or password"),
    # Taken, then never delivered, tried again twelve times.
    ("example.org", "https://example.org/a b", "without spaces or control characters"),
    ("example.org", "https://example.org/a\x00b", "without spaces or control characters"),
    ("example.org", "https://example.org/café", "ASCII"),
])
def test_a_webhook_to_a_host_not_allowed_is_refused_and_nothing_is_opened(
        tmp_path, allowed, url, words):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
                      "DIGSITE_WEBHOOK_HOSTS": allowed})
    client = app.test_client()
    body = assert_problem(client.post(f"/api/v1/games/{GAME}/matches", json={
        "players": ["Ann", "Bob"], "webhook": {"url": url, "events": ["turn"]}}), 422,
        "webhook.url")
    assert words in body["errors"]["webhook.url"][0]
    assert client.get(f"/api/v1/games/{GAME}/matches?status=playing").get_json()[
        "matches"] == []


@pytest.mark.parametrize(("allowed", "url"), [
    # A host listed with its scheme's port takes the URL that names none: it was refused.
    ("hooks.example.org:443", "https://hooks.example.org/hook"),
    ("hooks.example.org:80", "http://hooks.example.org/hook"),
    ("hooks.example.org:443", "https://hooks.example.org:443/hook"),
    ("hooks.example.org", "https://hooks.example.org:8443/hook"),
])
def test_a_webhook_to_an_allowed_host_and_port_is_taken(tmp_path, allowed, url):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
                      "DIGSITE_WEBHOOK_HOSTS": allowed})
    created = app.test_client().post(f"/api/v1/games/{GAME}/matches", json={
        "players": ["Ann", "Bob"], "webhook": {"url": url, "events": ["turn"]}})
    assert created.status_code == 201, created.get_json()


def test_an_allowed_webhook_is_stored_and_its_secret_shown_once(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
                      "DIGSITE_WEBHOOK_HOSTS": "hooks.example.org"})
    client = app.test_client()
    created = client.post(f"/api/v1/games/{GAME}/matches", json={
        "players": ["Ann", "Bob"], "listed": True,
        "webhook": {"url": "https://hooks.example.org/x", "events": ["finished", "turn"]}})
    assert created.status_code == 201
    secret = created.get_json()["webhook_secret"]
    view = client.get(created.headers["Location"]).get_data(as_text=True)
    assert secret not in view
    # A move passes the turn: told once stored (by a served worker's sender; none runs here).
    match = created.get_json()
    seat = match["view"]["to_act"][0]
    token = next(s["token"] for s in match["seats"] if s["seat"] == seat)
    view = client.get(created.headers["Location"],
                      headers={"Authorization": f"Bearer {token}"}).get_json()
    storage = app.extensions["digsite_storage"]
    while view["to_act"] == [seat]:
        view = client.post(f"{created.headers['Location']}/actions",
                           headers={"Authorization": f"Bearer {token}"},
                           json={"action": view["legal_actions"][0],
                                 "version": view["version"]}).get_json()
    [delivery] = storage.deliveries_of(match["id"])
    assert (delivery.event, delivery.secret, delivery.attempts) == ("turn", secret, 0)
    assert json.loads(delivery.body)["to_act"] == view["to_act"]
    without = client.post(f"/api/v1/games/{GAME}/matches", json={"players": ["Ann", "Bob"]})
    assert without.get_json()["webhook_secret"] is None


def test_a_turn_is_told_once_to_the_people_it_came_to(tmp_path):
    # Bob's join filled a Dig It Up table whose bot chose its mission at once, in the same
    # request: "turn" was told at the join (Ann and Bob to choose) and again at the bot's choice
    # (still Ann and Bob), the receiver telling the same two people twice.
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
                      "DIGSITE_WEBHOOK_HOSTS": "hooks.example.org"})
    client = app.test_client()
    match = client.post("/api/v1/games/dig-it-up/matches", json={
        "players": ["Ann", {"open": True}, {"name": "Rex", "bot": "greedy"},
                    {"name": "Max", "bot": "random"}], "seed": 4,
        "webhook": {"url": "https://hooks.example.org/x", "events": ["turn"]}}).get_json()
    location = f"/api/v1/matches/{match['id']}"
    assert client.post(f"{location}/join", json={"name": "Bob"}).status_code == 201
    log = client.get(f"{location}/log").get_json()["log"]
    assert [e["action"]["type"] for e in log] == ["join", "keep_mission", "keep_mission"]
    told = [json.loads(d.body) for d in app.extensions["digsite_storage"].deliveries_of(
        match["id"])]
    # every seat chose at once (the join); each bot's choice then left the people still to act
    assert [(body["seq"], sorted(body["to_act"])) for body in told] == [(1, [0, 1, 2, 3])], told


def test_each_delivery_tells_the_match_s_status_at_its_own_entry(tmp_path):
    # API.md "Webhooks": a delivery tells its entry's `seq`, `version` and `status`. Ann left a
    # match whose bots then played it to its end in the same request: her `left` delivery said
    # "finished", where at its version the match was still being played.
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
                      "DIGSITE_WEBHOOK_HOSTS": "hooks.example.org"})
    client = app.test_client()
    match = client.post(f"/api/v1/games/{GAME}/matches", json={
        "players": ["Ann", "Bob"], "seed": 11,
        "webhook": {"url": "https://hooks.example.org/x", "events": EVENTS}}).get_json()
    location = f"/api/v1/matches/{match['id']}"
    for seat in (1, 0):  # Bob leaves in the set-up, then Ann: the bots play on to the end
        token = next(s["token"] for s in match["seats"] if s["seat"] == seat)
        assert client.post(f"{location}/leave",
                           headers={"Authorization": f"Bearer {token}"}).status_code == 200
    assert client.get(location).get_json()["status"] == "finished"
    told = [json.loads(d.body) for d in app.extensions["digsite_storage"].deliveries_of(
        match["id"])]
    statuses = {client.get(f"{location}/views/{body['version']}").get_json()["status"]
                for body in told}
    assert len(statuses) > 1  # not every delivery's version saw the same status
    for body in told:
        assert body["status"] == client.get(
            f"{location}/views/{body['version']}").get_json()["status"], body


@pytest.mark.parametrize("events", [[], ["moves"], ["turn"] * 4])
def test_a_webhook_names_one_to_three_known_events(client, events):
    assert_problem(client.post(f"/api/v1/games/{GAME}/matches", json={
        "players": ["Ann", "Bob"], "webhook": {"url": "https://x.example/", "events": events}}),
        422)


def test_a_receiver_that_answers_a_byte_at_a_time_is_given_up_on_within_the_timeout(
        monkeypatch):
    # Each read had its own 5 s: a receiver sending a byte every second held the worker's one
    # sender, and every other match's deliveries behind it, as long as it pleased.
    monkeypatch.setattr(webhooks, "POST_TIMEOUT", 1.0)
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def trickle() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(65536)
            for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n":
                if stop.wait(0.3):
                    return
                connection.sendall(bytes([byte]))

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    started = time.monotonic()
    try:
        status = webhooks.post(f"http://127.0.0.1:{listener.getsockname()[1]}/hook", "{}",
                               "s" * 32, 1)
    finally:
        stop.set()
        listener.close()
    assert status is None  # no answer within the timeout: tried again later, as any failure
    assert time.monotonic() - started < 3


@pytest.mark.parametrize("answer", [
    b"HTTP/1.0 200 OK\r\n\r\n",  # http.server's own: no length, the end of the body its close
    b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nthanks",
    b"HTTP/1.1 204 No Content\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nthanks",
    b"HTTP/1.1 200 OK\r\nContent-Length: 60\r\n\r\ncut sh",  # its body cut: it said 200
])
def test_a_delivery_answered_2xx_however_its_body_ends_is_delivered(answer):
    # A receiver whose answer ended with its connection (Python's stock http.server, any
    # HTTP/1.0 server) was counted as no answer: each delivery it took was sent again, up to
    # twelve times.
    listener = socket.create_server(("127.0.0.1", 0))

    def receive() -> None:
        connection, _ = listener.accept()
        with connection:
            asked = b""
            while not asked.endswith(b"\r\n\r\n{}"):  # the whole request, as a server reads it
                asked += connection.recv(65536)
            connection.sendall(answer)

    thread = threading.Thread(target=receive, daemon=True)
    thread.start()
    try:
        status = webhooks.post(f"http://127.0.0.1:{listener.getsockname()[1]}/hook", "{}",
                               "s" * 32, 1)
    finally:
        thread.join(5)
        listener.close()
    assert status == int(answer.split()[1])


def test_a_receiver_that_never_answers_holds_up_no_other_receiver(monkeypatch):
    # A worker sent the due deliveries one after another, each waiting out the timeout: three
    # matches posting to a receiver that never answered held a fourth's for 17-19 s.
    from types import SimpleNamespace

    monkeypatch.setattr(webhooks, "POST_TIMEOUT", 1.0)
    silent = socket.create_server(("127.0.0.1", 0))  # takes connections, never answers
    silent.listen(50)
    healthy = Receiver()
    dead = f"http://127.0.0.1:{silent.getsockname()[1]}/hook"
    rows = [SimpleNamespace(id=i, attempts=0, url=dead, body="{}", secret="s" * 32)
            for i in range(5)]
    rows += [SimpleNamespace(id=10 + i, attempts=0, url=healthy.url, body=json.dumps({"n": i}),
                             secret="s" * 32) for i in range(3)]

    class Store:
        claimed: list[int] = []
        done: dict[int, float] = {}
        failed: list[int] = []

        def due_deliveries(self, now, limit):
            return rows

        def claim_delivery(self, delivery_id, attempts, until):
            self.claimed.append(delivery_id)
            return True

        def delivery_done(self, delivery_id, status, now):
            self.done[delivery_id] = time.monotonic()

        def delivery_failed(self, delivery_id, status, again, now):
            self.failed.append(delivery_id)

        postponed: list[int] = []

        def postpone_deliveries(self, delivery_ids, until):
            self.postponed += delivery_ids

        def forget_deliveries(self, before):
            pass

    store = Store()
    started = time.monotonic()
    try:
        sent = webhooks.send_due(store, (f"127.0.0.1:{silent.getsockname()[1]}",
                                         f"127.0.0.1:{healthy.port}"), 5.0)
    finally:
        silent.close()
        healthy.close()
    took = time.monotonic() - started
    assert sent == 3 and [b["n"] for b in healthy.bodies()] == [0, 1, 2]  # in order
    assert all(at - started < 0.9 for at in store.done.values()), store.done  # not behind it
    # the silent receiver was tried once this round, its other deliveries left due
    assert store.failed == [0] and sorted(store.claimed) == [0, 10, 11, 12]
    # the others left for its retry: a backlog of them filled every round's batch
    assert store.postponed == [1, 2, 3, 4]
    assert took < 2.5, took

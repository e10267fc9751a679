"""Webhooks (API.md "Webhooks"): a match created with `"webhook": {"url", "events"}` tells that
URL, by a signed POST, when a person's turn comes ("turn"), when the match ends ("finished") and
when its table changes ("table": a join, a leave, a take-over, a time-out, a new token).

What is to be told is written with the log entries that tell it, in the same transaction
(service/store.py `webhook_deliveries`): nothing a match logs is left untold by a crash. Every
worker runs a sender (like the clock watcher) that claims due deliveries one at a time, each
attempt by exactly one worker (the claim is an update of the attempts it read), posts them, and
on failure tries again later, waiting twice as long each time, up to ATTEMPTS attempts.

A body names the match, the entry's `seq`, the `version` after it, the match's `status`, the
seats to act after the entry and the event: never a secret of any seat. Its signature,
`Digsite-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, with the secret shown
once in the creation answer, lets the receiver check it came from here, and when (a receiver
should refuse an old `t`: a replay)."""

from __future__ import annotations

import hashlib
import hmac
import http.client
import io
import json
import logging
import threading
import time
from collections.abc import Collection
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from scoring.engine import FINISHED

from .store import Delivery, Entry, Match, Storage
from .watcher import every

logger = logging.getLogger(__name__)

TURN, FINISHED_EVENT, TABLE = "turn", "finished", "table"
EVENTS = (TURN, FINISHED_EVENT, TABLE)
SIGNATURE = "Digsite-Signature"
DELIVERY_ID = "Digsite-Delivery"
ATTEMPTS = 12  # with the default first wait of 5 s, the last about 2.8 h after the first
MOST_WAIT = timedelta(hours=1)
CLAIM = timedelta(seconds=30)  # a claimed attempt whose sender died is due again after this
POST_TIMEOUT = 5.0
KEEP_DONE = timedelta(days=1)  # delivered or abandoned rows are kept this long, then removed
BATCH = 20
SENDERS = 8  # receivers sent to at once by one worker


def refusal(url: str, hosts: tuple[str, ...]) -> str | None:
    """Why `url` may not be a webhook, in words; None when it may: http or https, to a host (or
    host:port) that DIGSITE_WEBHOOK_HOSTS lists."""
    # A space, a control character or anything past ASCII is no part of a URL as sent (RFC
    # 3986 has it percent-encoded): the sender could never deliver to it, and retried.
    if not (url.isascii() and url.isprintable()) or " " in url:
        return ("A webhook URL is written in ASCII without spaces or control characters "
                "(percent-encode them, as %20).")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "The webhook URL could not be read."
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "A webhook URL is an http or https URL."
    if parts.username or parts.password:
        return "A webhook URL may not hold a user name or password."
    host = parts.hostname.lower()
    if not hosts:
        return "This server sends no webhooks: its operator allows no webhook host."
    # A URL that names no port is sent to its scheme's: allowed where that port is listed.
    port = port if port is not None else {"http": 80, "https": 443}[parts.scheme]
    if host not in hosts and f"{host}:{port}" not in hosts:
        # the host allowed at other ports only: the port is what is refused, so it is named
        named = f"{host}:{port}" if any(h.startswith(f"{host}:") for h in hosts) else host
        return f"Webhooks may go only to the hosts this server allows, not to {named}."
    return None


def deliveries(match: Match, entries: list[Entry], first_seq: int, to_act_before: list[int],
               table_types: Collection[str]) -> list[Delivery]:
    """What the match's webhook is to be told of `entries`, logged from `first_seq` on: a table
    entry (its action's type among `table_types`) is "table"; the last entry of a finished match
    "finished"; an entry after which a person is to act who was not before, "turn" (a person's
    several actions in one turn tell it once, and a bot's choice in a step every seat plays
    together tells nobody again)."""
    if not match.webhook:
        return []
    wanted = set(match.webhook["events"])
    people = {seat for seat, player in enumerate(match.players)
              if player["name"] is not None and not player.get("bot")}
    before = set(to_act_before)
    told: list[Delivery] = []
    for seq, entry in enumerate(entries, first_seq):
        events = []
        if entry.action.get("type") in table_types:
            events.append(TABLE)
        now_acting = set(entry.to_act)
        if (now_acting & people) - before:
            events.append(TURN)
        before = now_acting
        if seq == first_seq + len(entries) - 1 and match.status == FINISHED:
            events.append(FINISHED_EVENT)
        for event in events:
            if event in wanted:
                told.append(Delivery(seq, event, json.dumps({
                    "match": match.id, "seq": seq, "version": seq + 1,
                    "status": entry.status or match.status,
                    "to_act": list(entry.to_act), "event": event}, separators=(",", ":"))))
    return told


def signature(secret: str, body: str, at: int) -> str:
    digest = hmac.new(secret.encode(), f"{at}.{body}".encode(), hashlib.sha256).hexdigest()
    return f"t={at},v1={digest}"


def post(url: str, body: str, secret: str, delivery_id: int) -> int | None:
    """POST `body` to `url`, signed; the answer's status, or None when there was none. Never
    follows a redirect: the allowed host is the only one ever called."""
    parts = urlsplit(url)
    connection_class = (http.client.HTTPSConnection if parts.scheme == "https"
                        else http.client.HTTPConnection)
    connection = connection_class(parts.hostname, parts.port, timeout=POST_TIMEOUT)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        connection.connect()
        # The whole answer within the timeout: a receiver answering a byte at a time held the
        # worker's one sender, and every other match's deliveries, for hours.
        connection.sock = _Deadline(connection.sock, time.monotonic() + POST_TIMEOUT)
        connection.request("POST", path, body=body.encode(), headers={
            "Content-Type": "application/json", "User-Agent": "Digsite-Webhooks",
            SIGNATURE: signature(secret, body, int(time.time())),
            DELIVERY_ID: str(delivery_id)})
        response = connection.getresponse()
        try:
            response.read(64 * 1024)
        except (OSError, http.client.HTTPException):
            pass  # the receiver answered: what it sends after its status is no part of that
        return response.status
    except (OSError, http.client.HTTPException):
        return None
    finally:
        connection.close()


class _Deadline:
    """A connected socket whose answer is read within `deadline` (a monotonic time) in all, not
    within a timeout for each read; as the socket for anything else. Closed while its answer is
    still being read, it stays open until the reader is done, as a socket's own makefile keeps
    it: http.client closes the connection as soon as it has the head of an answer whose body
    ends with the connection (an HTTP/1.0 server's, Python's http.server), and reads the body
    after."""

    def __init__(self, sock: Any, deadline: float) -> None:
        self._sock, self._deadline = sock, deadline
        self._readers, self._closed = 0, False

    def makefile(self, mode: str = "rb", *args: Any, **kwargs: Any) -> io.BufferedReader:
        self._readers += 1
        return io.BufferedReader(_DeadlineReader(self))

    def close(self) -> None:
        self._closed = True
        if self._readers == 0:
            self._sock.close()

    def _reader_closed(self) -> None:
        self._readers -= 1
        if self._closed and self._readers == 0:
            self._sock.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class _DeadlineReader(io.RawIOBase):
    def __init__(self, owner: _Deadline) -> None:
        super().__init__()
        self._owner = owner

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self._owner._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the receiver took too long to answer")
        self._owner._sock.settimeout(left)
        return self._owner._sock.recv_into(buffer)

    def close(self) -> None:
        if not self.closed:
            super().close()
            self._owner._reader_closed()


def wait_after(attempts: int, first: float) -> timedelta:
    """How long after its `attempts`-th failed attempt a delivery is tried again."""
    return min(MOST_WAIT, timedelta(seconds=first * 2 ** (attempts - 1)))


def send_due(store: Storage, hosts: tuple[str, ...], first_wait: float) -> int:
    """Send every delivery that is due, each claimed first; how many were delivered. Each
    receiver's in order, the receivers side by side: one that never answers held every other
    match's deliveries behind its own, 5 s each."""
    receivers: dict[str, list[Any]] = {}
    for row in store.due_deliveries(datetime.now(UTC), BATCH):
        receivers.setdefault(row.url, []).append(row)
    sent = 0
    if receivers:
        with ThreadPoolExecutor(min(len(receivers), SENDERS),
                                thread_name_prefix="digsite-webhook") as senders:
            sent = sum(senders.map(lambda rows: _send_to(store, hosts, first_wait, rows),
                                   receivers.values()))
    store.forget_deliveries(datetime.now(UTC) - KEEP_DONE)
    return sent


def _send_to(store: Storage, hosts: tuple[str, ...], first_wait: float,
             rows: list[Any]) -> int:
    """One receiver's due deliveries, in order; how many it took. Once it gives no answer, the
    rest wait as long as its retry does, not a timeout each."""
    sent = 0
    for at, row in enumerate(rows):
        moment = datetime.now(UTC)
        if not store.claim_delivery(row.id, row.attempts, moment + CLAIM):
            continue  # another worker claimed this attempt
        attempts = row.attempts + 1
        refused = refusal(row.url, hosts)
        status = None if refused else post(row.url, row.body, row.secret, row.id)
        if status is not None and 200 <= status < 300:
            store.delivery_done(row.id, status, datetime.now(UTC))
            sent += 1
            continue
        again = None if refused or attempts >= ATTEMPTS else (
            datetime.now(UTC) + wait_after(attempts, first_wait))
        store.delivery_failed(row.id, status, again, datetime.now(UTC))
        if again is None:
            logger.warning("webhook delivery %s to %s abandoned after %d attempts%s", row.id,
                           urlsplit(row.url).hostname, attempts, f": {refused}" if refused else "")
        if status is None and not refused:
            if again is not None:  # the rest wait with it: its backlog fills no batch
                store.postpone_deliveries([later.id for later in rows[at + 1:]], again)
            break
    return sent


def send_webhooks(store: Storage, hosts: tuple[str, ...], first_wait: float,
                  seconds: float = 1.0) -> threading.Thread:
    """Start the sender: it sends the due deliveries every `seconds` (service/watcher.py)."""
    return every(seconds, lambda: send_due(store, hosts, first_wait),
                 "webhooks could not be sent", "digsite-webhooks")


def new_webhook(url: str, events: list[str], secret: str) -> dict[str, Any]:
    return {"url": url, "events": sorted(set(events), key=EVENTS.index), "secret": secret}

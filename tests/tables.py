"""Tables of players over HTTP against several app servers at once, shared by
tests/test_two_servers.py and bench/tables.py.

Each seat plays through its own client: a session per server, every request sent to the server
its own seeded generator picks, an action chosen uniformly among the legal actions of the seat's
own view by another seeded generator, posted with the version that view showed (in the body or
as If-Match), and its view read again after a 409. Every answer to an action is recorded: an
accepted one with the seq its new version gives it and when it was sent and answered, a refused
one with the version it was refused on. `check` then reads each match back (its log, every page,
as a spectator and as each seat, and every seat's view) and replays the log with the engine.

With one seed the same actions are chosen whatever the servers' timing, except where two clients
race one seat: which of them wins is the servers' to decide.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import requests

from scoring.bots import make
from scoring.engine import FINISHED, IllegalAction, Rng, replay
from scoring.games import GAMES

API = "/api/v1"
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")
# Generous: a stuck request fails its table instead of hanging the run.
TIMEOUT = 60
# A table with one client per seat meets no 409 outside a race; many in a row mean a server fault.
MAX_RETRIES = 20
UNDO = {"type": "undo"}  # API.md "Undo": offered by the server, chosen like any legal action
BARRIER_SECONDS = 30
LOG_PAGE = 16  # small pages, so a capped match's log takes several
# gunicorn closes a keep-alive connection idle for 5 s (gunicorn.conf.py), and a request that
# reaches it just then is reset unread: the client cannot tell whether a POST was taken. So a
# client drops its own connections well before that, as a browser does.
IDLE_SECONDS = 3.0


@dataclass(frozen=True)
class Table:
    """A table to seat: its game, variant and player count, its match's seed, and whether two
    clients race the seat to act at every step, on different servers with the same version."""
    game: str
    variant: str
    players: int
    seed: int
    race: bool = False


def lineup(count: int, races: int, seed: int) -> list[Table]:
    """`count` tables going round every table the games can be set up with (each variant, each
    player count); `races` of them race, the first table of each game in turn."""
    kinds = [(game_id, variant, n) for game_id, game in GAMES.items()
             for variant, n in game.tables()]
    tables = [Table(*kinds[i % len(kinds)], seed=seed + i) for i in range(count)]
    racing: set[int] = set()
    for game_id in itertools.islice(itertools.cycle(GAMES), races):
        left = [i for i, t in enumerate(tables) if t.game == game_id and i not in racing]
        racing.update(left[:1])
    return [dataclasses.replace(t, race=i in racing) for i, t in enumerate(tables)]


@dataclass
class Accepted:
    """An action answered 200: `seq` is its place in the log (the answer's version − 1)."""
    seq: int
    seat: int
    action: dict[str, Any]
    client: str
    sent: float
    answered: float

    @property
    def latency(self) -> float:
        return self.answered - self.sent


@dataclass
class Refused:
    """An action answered 409, made on `version`."""
    seat: int
    action: dict[str, Any]
    version: int
    client: str


@dataclass
class Played:
    """One match at a table, as its clients saw it."""
    table: Table
    match_id: str = ""
    status: str = ""  # as the last view the clients read showed it
    tokens: list[str] = field(default_factory=list)
    accepted: list[Accepted] = field(default_factory=list)  # in the order the answers came
    refused: list[Refused] = field(default_factory=list)
    races: list[list[int]] = field(default_factory=list)  # each race's two statuses, sorted
    # Each simultaneous step: the statuses the seats' first posts got, and the servers they went to.
    together: list[tuple[list[int], set[int]]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def names(self) -> list[str]:
        return list(NAMES[:self.table.players])


class Unexpected(Exception):
    """An answer no client of a correct server gets."""


def expect(response: requests.Response, status: int) -> dict[str, Any]:
    if response.status_code != status:
        raise Unexpected(f"{response.request.method} {response.url} answered "
                         f"{response.status_code}, not {status}: {response.text[:500]}")
    return response.json()


class Line:
    """Keep-alive connections to one server, dropped once idle for IDLE_SECONDS."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.session = requests.Session()
        self.used = time.monotonic()

    def request(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        if time.monotonic() - self.used > IDLE_SECONDS:
            self.session.close()  # its pools open new connections on the next request
        try:
            return self.session.request(method, f"{self.url}{API}{path}", timeout=TIMEOUT,
                                        **kwargs)
        finally:
            self.used = time.monotonic()

    def close(self) -> None:
        self.session.close()


class Client:
    """One seat's client (or a second one racing it): a session per server, a generator for its
    choices and one for the server each request goes to and how it sends the version."""

    def __init__(self, urls: list[str], played: Played, seat: int, name: str) -> None:
        self.urls, self.played, self.seat, self.name = urls, played, seat, name
        self.lines = [Line(url) for url in urls]
        self.choices = Rng.from_seed(played.table.seed, f"{name} choices")
        self.greedy = make(GAMES[played.table.game], "greedy", seat, played.table.seed)
        self.route = Rng.from_seed(played.table.seed, f"{name} route")
        self.auth = {"Authorization": f"Bearer {played.tokens[seat]}"}

    def server(self, server: int | None) -> int:
        return self.route.below(len(self.urls)) if server is None else server

    def view(self, server: int | None = None) -> dict[str, Any]:
        line = self.lines[self.server(server)]
        return expect(line.request("GET", f"/matches/{self.played.match_id}", headers=self.auth),
                      200)

    def choose(self, view: dict[str, Any], avoid: dict[str, Any] | None = None) -> dict[str, Any]:
        """Among the view's legal actions (other than `avoid`, where there is another): half the
        time the greedy bot's choice from the same view, else uniformly. Random moves alone walk
        DIG's dogs to and fro for some 1,500 actions a match; the mix ends it in about 300 and
        still plays every kind of action."""
        legal = view["legal_actions"]
        if avoid is not None and len(legal) > 1:
            legal = [action for action in legal if action != avoid]
        moves = [action for action in legal if action["type"] != "undo"]  # the engine's, alone
        if self.choices.below(2) and moves:
            return self.greedy.choose(view["state"], moves)
        return self.choices.choice(legal)

    def act(self, action: dict[str, Any], version: int,
            server: int | None = None) -> dict[str, Any] | None:
        """Post the action on `version`: the seat's new view, or None when refused with 409."""
        line = self.lines[self.server(server)]
        headers, body = dict(self.auth), {"action": action}
        if self.route.below(2):  # API.md: If-Match works like `version`
            headers["If-Match"] = f'"{version}"'
        else:
            body["version"] = version
        sent = time.perf_counter()
        response = line.request("POST", f"/matches/{self.played.match_id}/actions", json=body,
                                headers=headers)
        answered = time.perf_counter()
        if response.status_code == 409:
            with self.played.lock:
                self.played.refused.append(Refused(self.seat, action, version, self.name))
            return None
        view = expect(response, 200)
        with self.played.lock:
            self.played.accepted.append(Accepted(view["version"] - 1, self.seat, action,
                                                 self.name, sent, answered))
        return view

    def close(self) -> None:
        for line in self.lines:
            line.close()


def together(calls: list[Any]) -> list[Any]:
    """Run the calls in threads released at one moment; their results, or the first error."""
    barrier = threading.Barrier(len(calls), timeout=BARRIER_SECONDS)
    results: list[Any] = [None] * len(calls)
    failures: list[BaseException] = []

    def run(k: int) -> None:
        try:
            barrier.wait()
            results[k] = calls[k]()
        except BaseException as exc:  # noqa: B036 - handed to the caller's thread below
            failures.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:  # the error that broke the barrier, not the others' BrokenBarrierError
        real = [f for f in failures if not isinstance(f, threading.BrokenBarrierError)]
        raise (real or failures)[0]
    return results


class TablePlayer:
    """Plays one match at a table: the seats to act, one step at a time; a simultaneous step
    with every seat of it at once, through both servers; a racing table with two clients on
    each step."""

    def __init__(self, urls: list[str], table: Table) -> None:
        self.urls = urls
        self.played = Played(table)
        self.route = Rng.from_seed(table.seed, "creator")
        self.clients: list[Client] = []
        self.racers: list[Client] = []

    def play(self, max_actions: int, until: float | None = None) -> Played:
        """Until the match is over, `max_actions` are accepted or the clock passes `until`."""
        try:
            view = self.create()
            while (view["status"] != FINISHED and len(self.played.accepted) < max_actions
                   and (until is None or time.monotonic() < until)):
                view = self.step(view)
            self.played.status = view["status"]
        except Exception as exc:  # noqa: BLE001 - the table's record says what went wrong
            self.played.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            for client in self.clients + self.racers:
                client.close()
        return self.played

    def create(self) -> dict[str, Any]:
        table, line = self.played.table, Line(self.urls[self.route.below(len(self.urls))])
        try:
            created = expect(line.request("POST", f"/games/{table.game}/matches", json={
                "players": self.played.names, "variant": table.variant, "seed": table.seed}), 201)
        finally:
            line.close()
        self.played.match_id = created["id"]
        self.played.tokens = [seat["token"] for seat in created["seats"]]
        seats = range(table.players)
        self.clients = [Client(self.urls, self.played, s, f"seat {s}") for s in seats]
        if table.race:
            self.racers = [Client(self.urls, self.played, s, f"racer {s}") for s in seats]
        return created["view"]

    def step(self, last: dict[str, Any]) -> dict[str, Any]:
        """The seats to act act; `last` is the newest view, which is a seat's own after it acted."""
        seats = last["to_act"]
        if self.played.table.race:
            views = [self.race(seat) for seat in seats]
        elif len(seats) > 1:
            views = self.simultaneous(seats)
        else:
            views = [self.turn(seats[0], last if last["you"] == seats[0] else None)]
        return max(views, key=lambda view: view["version"])

    def turn(self, seat: int, view: dict[str, Any] | None = None) -> dict[str, Any]:
        """The seat acts on its view: `view`, the answer to its last action while still its turn,
        or else read anew; refused (409), it reads its view again."""
        client = self.clients[seat]
        for _ in range(MAX_RETRIES):
            view = view or client.view()
            if seat not in view["to_act"]:
                return view
            answer = client.act(client.choose(view), view["version"])
            if answer is not None:
                return answer
            view = None
        raise Unexpected(f"seat {seat} was refused {MAX_RETRIES} times in a row")

    def simultaneous(self, seats: list[int]) -> list[dict[str, Any]]:
        """Every seat of the step reads its view, then all post at the same moment, seat k through
        server k mod n, each on the version it saw (API.md "Simultaneous steps")."""
        views = [self.clients[seat].view() for seat in seats]
        chosen = [self.clients[seat].choose(view) for seat, view in zip(seats, views, strict=True)]
        servers = [k % len(self.urls) for k in range(len(seats))]
        calls = [lambda c=self.clients[seat], a=action, v=view["version"], i=i: c.act(a, v, i)
                 for seat, action, view, i in zip(seats, chosen, views, servers, strict=True)]
        answers = together(calls)
        self.played.together.append(([409 if a is None else 200 for a in answers],
                                      set(servers)))
        return [self.turn(seat) if answer is None else answer
                for seat, answer in zip(seats, answers, strict=True)]

    def race(self, seat: int) -> dict[str, Any]:
        """The seat's two clients read their views, then post different actions (where there are
        two) on the same version at the same moment through different servers."""
        first, second = self.clients[seat], self.racers[seat]
        view, other = first.view(), second.view()
        if seat not in view["to_act"]:
            return view
        if other["version"] != view["version"]:
            raise Unexpected(f"the match moved from version {view['version']} to "
                             f"{other['version']} while only seat {seat} could act")
        mine = first.choose(view)
        theirs = second.choose(other, avoid=mine)
        i = self.route.below(len(self.urls))
        j = (i + 1) % len(self.urls)
        answers = together([lambda: first.act(mine, view["version"], i),
                            lambda: second.act(theirs, view["version"], j)])
        self.played.races.append(sorted(409 if a is None else 200 for a in answers))
        won = [a for a in answers if a is not None]
        for client, answer in zip((first, second), answers, strict=True):
            if answer is None:
                client.view()  # the loser looks again, as a refused client does
        return max(won, key=lambda v: v["version"]) if won else self.turn(seat)


def play(urls: list[str], tables: list[Table], max_actions: int,
         until: float | None = None) -> list[Played]:
    """Every table at once, a thread each. Without `until`, one match a table; with it, each
    table starts match after match (new seeds) until the clock passes it."""

    def sit(table: Table) -> list[Played]:
        matches: list[Played] = []
        while not matches or (until is not None and time.monotonic() < until
                              and not matches[-1].errors):
            seeded = dataclasses.replace(table, seed=table.seed + 1_000_003 * len(matches))
            matches.append(TablePlayer(urls, seeded).play(max_actions, until))
        return matches

    with ThreadPoolExecutor(max_workers=len(tables)) as pool:
        return [played for matches in pool.map(sit, tables) for played in matches]


class Reader:
    """Reads matches back, each request from the next server in turn."""

    def __init__(self, urls: list[str]) -> None:
        self.lines = [Line(url) for url in urls]
        self.turns = itertools.cycle(range(len(urls)))

    def get(self, path: str, token: str | None, **params: Any) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return expect(self.lines[next(self.turns)].request("GET", path, headers=headers,
                                                           params=params), 200)

    def close(self) -> None:
        for line in self.lines:
            line.close()

    def log(self, match_id: str, token: str | None) -> list[dict[str, Any]]:
        """The whole log as the token's seat (None: a spectator) sees it, page by page."""
        entries, after = [], 0
        while after is not None:
            page = self.get(f"/matches/{match_id}/log", token, after=after, limit=LOG_PAGE)
            entries += page["log"]
            after = page["next"]
        return entries


def plain(value: Any) -> Any:
    """As JSON carries it (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


def check(urls: list[str], played: Played) -> list[str]:
    """What is wrong with a played match, read back through the servers in turn (check_match)."""
    reader = Reader(urls)
    try:
        return check_match(reader, played)
    finally:
        reader.close()


def check_match(reader: Reader, played: Played) -> list[str]:
    """What is wrong with a played match as the servers now show it; [] when nothing is.

    The log (every page) holds exactly the accepted actions, each once, at the seq its answer
    gave, seqs running 1, 2, 3… with no gap; an action answered before another was sent comes
    first; a refused action's version went to another client's action; each seat's own log shows
    its own actions whole and the others' as a spectator's does; the version is 1 + the number
    of entries; and the log replayed from the seed gives every seat's view and the spectator's."""
    if not played.match_id:
        return [f"{played.table}: no match was created"]
    table, game = played.table, GAMES[played.table.game]
    problems: list[str] = []

    def problem(text: str) -> None:
        problems.append(f"{table.game} {table.variant} {table.players}p seed {table.seed} "
                        f"(match {played.match_id}): {text}")

    public = reader.log(played.match_id, None)
    seqs = [entry["seq"] for entry in public]
    if seqs != list(range(1, len(public) + 1)):
        problem(f"log seqs are not 1…{len(public)}: {seqs}")
    accepted = sorted(played.accepted, key=lambda a: a.seq)
    if [a.seq for a in accepted] != list(range(1, len(accepted) + 1)):
        problem(f"accepted answers' seqs are not 1…{len(accepted)}: {[a.seq for a in accepted]}")
    logged = [(e["seq"], e["seat"], e["action"]) for e in public]
    answered = [(a.seq, a.seat, game.public_action(a.action)) for a in accepted]
    if logged != answered:
        lost = [a for a in answered if a not in logged]
        extra = [e for e in logged if e not in answered]
        problem(f"the log is not the accepted actions: accepted but not logged {lost}; "
                f"logged but not accepted {extra}")
    for earlier, later in itertools.permutations(played.accepted, 2):
        if earlier.answered < later.sent and earlier.seq >= later.seq:
            problem(f"{earlier.client}'s action was answered (seq {earlier.seq}) before "
                    f"{later.client}'s was sent, yet has a later seq ({later.seq})")
    by_seq = {a.seq: a for a in accepted}
    for refused in played.refused:
        taken = by_seq.get(refused.version)
        if taken is None or taken.client == refused.client:
            problem(f"{refused.client} was refused on version {refused.version}, but no other "
                    "client's action moved the match from it")

    own: dict[int, dict[str, Any]] = {}
    for seat, token in enumerate(played.tokens):
        entries = reader.log(played.match_id, token)
        if [(e["seq"], e["seat"]) for e in entries] != [(e["seq"], e["seat"]) for e in public]:
            problem(f"seat {seat}'s log has other entries than the spectator's")
        for entry in entries:
            if entry["seat"] == seat:
                own[entry["seq"]] = entry["action"]
                sent = by_seq.get(entry["seq"])
                if sent is not None and sent.action != entry["action"]:
                    problem(f"seat {seat}'s log shows {entry['action']} at seq {entry['seq']}, "
                            f"not the action it sent, {sent.action}")
    # API.md "Undo": an undo entry and the entry it took back stay in the log, but are not
    # replayed.
    undone = {event["seq"] for e in public if e["action"] == UNDO for event in e["events"]}
    history = [(e["seat"], own.get(e["seq"], e["action"])) for e in public
               if e["action"] != UNDO and e["seq"] not in undone]
    try:
        state = replay(game, played.names, table.seed, table.variant, history)
    except (IllegalAction, LookupError, TypeError, ValueError) as exc:
        problem(f"the log does not replay: {exc}")
        return problems

    status = game.status(state)
    to_act = [] if status == FINISHED else game.to_act(state)
    for seat, token in [(None, None), *enumerate(played.tokens)]:
        view = reader.get(f"/matches/{played.match_id}", token)
        # Which seat may still take its last move back is the server's to know, not the
        # engine's: the undo it offers is left out of the comparison.
        view["legal_actions"] = [a for a in view["legal_actions"] if a != UNDO]
        expected = plain({
            "version": 1 + len(public), "status": status, "to_act": to_act, "you": seat,
            "legal_actions": game.legal_actions(state, seat) if seat in to_act else [],
            "state": game.view(state, seat), "result": game.result(state)})
        for key, value in expected.items():
            if view[key] != value:
                problem(f"the view of {'the spectator' if seat is None else f'seat {seat}'} "
                        f"differs from the replayed log in {key!r}: {view[key]!r} != {value!r}")
    return problems


def check_all(urls: list[str], played: list[Played], threads: int = 8) -> list[str]:
    """`check` on every match, a few at once."""
    with ThreadPoolExecutor(max_workers=threads) as pool:
        return [p for problems in pool.map(lambda m: check(urls, m), played) for p in problems]

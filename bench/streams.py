"""What do 1,000 open event streams cost the worker that holds them, and how soon does a move reach
them all?

Two setups, each served by the gunicorn command: SQLite (one server, one worker), and two app
servers sharing one throwaway PostgreSQL (one worker each): there the streams and the timed
requests go to the first, and the moves the streams wait for are posted to the second, so that
every one crosses LISTEN/NOTIFY.

1. Quiet streams: in rounds, `--streams` spectator streams are open on a match nobody moves, or
   none are; either way the same sequential keep-alive client times `--requests` GET /healthz and
   as many actions (POST /matches/{id}/actions on matches of their own, the view read before each
   untimed). The two halves of a round take turns going first. Each round gives the with/without
   ratio of the medians of /healthz and of an action; the verdict is the median ratio.
   Goal: both at most 1.5.
2. Delivery: while the streams are open, `--moves` moves of their match, one at a time; the time
   from just before each POST until each stream has the move's entry. Goal: p99 at most 250 ms.
   Also the CPU time the streams' worker spends a move (on SQLite the POST's too), and a second
   while nobody asks it anything: unlike the times, these hardly move with other work on the
   machine.

The streams are held by one thread of this process on raw sockets and epoll (HTTP/1.0, so the
body is the events as sent): a quiet stream costs it nothing, and each entry is timed as the
kernel hands it over. Closed streams are reset (RST), then one move makes the server write to
them and let them go; the next half waits until the worker holds no more sockets than before.

    .venv/bin/python bench/streams.py [--streams 1000] [--rounds 6] [--requests 150]
                                      [--moves 8] [--setup sqlite|postgresql|both]
"""

import argparse
import http.client
import json
import os
import select
import socket
import statistics
import struct
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.calculator import workers_cpu_seconds  # noqa: E402  (the root is put on the path above)
from scoring.engine import Rng  # noqa: E402
from tests.pg import postgres_cluster  # noqa: E402
from tests.server import serve  # noqa: E402


def moves(view: dict) -> list[dict]:
    """A view's legal actions but undo: the benchmarks time the game's own moves (an undo
    replays the match, a request of another kind)."""
    return [action for action in view["legal_actions"] if action["type"] != "undo"]


RATIO_GOAL = 1.5
DELIVERY_GOAL_MS = 250
GAME, PLAYERS = "dig", ["Ann", "Bob"]
IDLE_SPELL_SECONDS = 2  # the worker left alone with its streams open, its CPU time read
IDLE_SECONDS = 3  # gunicorn.conf.py closes a keep-alive connection idle for 5 s
# All 1,000 streams come from this one address: the per-address connection limit (serving.py)
# is lifted, as for clients behind a proxy.
ENV = {"DIGSITE_PRUNE_HOURS": "0", "DIGSITE_RATE_LIMIT": "100000/minute",
       "DIGSITE_THINKING_LIMIT": "off",
       "DIGSITE_CONNECTIONS_PER_ADDRESS": "0"}


def percentile(ordered: list[float], fraction: float) -> float:
    """The nearest-rank percentile of an ordered list."""
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


class Client:
    """A sequential keep-alive HTTP client of one server."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.used = time.monotonic()

    def request(self, method: str, path: str, body: dict | None = None,
                token: str | None = None) -> tuple[int, bytes]:
        if time.monotonic() - self.used > IDLE_SECONDS:
            self.conn.close()  # the server may have closed it: a new one
        self.used = time.monotonic()
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.conn.request(method, path, None if body is None else json.dumps(body), headers)
        response = self.conn.getresponse()
        return response.status, response.read()

    def json(self, method: str, path: str, body: dict | None = None,
             token: str | None = None) -> dict:
        status, data = self.request(method, path, body, token)
        if status >= 300:
            raise SystemExit(f"{method} {path} answered {status}: {data[:300]!r}")
        return json.loads(data)


class Table:
    """A match whose seats take random legal actions; a new one when it ends."""

    def __init__(self, client: Client, seed: int) -> None:
        self.client, self.rng = client, Rng.from_seed(seed, "bench")
        self.seed = seed
        self.new()

    def new(self) -> None:
        created = self.client.json("POST", f"/api/v1/games/{GAME}/matches",
                                   {"players": PLAYERS, "seed": self.seed})
        self.seed += 1
        self.id = created["id"]
        self.tokens = {s["seat"]: s["token"] for s in created["seats"]}
        self.view = created["view"]

    def next_action(self) -> tuple[str, dict]:
        """The token and body of the next action (the acting seat's view read first)."""
        if self.view["status"] == "finished":
            self.new()
        seat = self.view["to_act"][0]
        if self.view["you"] != seat:
            self.view = self.client.json("GET", f"/api/v1/matches/{self.id}",
                                         token=self.tokens[seat])
        return self.tokens[seat], {"action": self.rng.choice(moves(self.view)),
                                   "version": self.view["version"]}

    def act(self, client: Client | None = None) -> float:
        """One action, posted through `client` (default: the table's); its seconds."""
        token, body = self.next_action()
        started = time.perf_counter()
        self.view = (client or self.client).json("POST", f"/api/v1/matches/{self.id}/actions",
                                                 body, token)
        return time.perf_counter() - started


@dataclass
class Stream:
    sock: socket.socket
    data: bytearray = field(default_factory=bytearray)
    arrived: float | None = None
    ended: bool = False


class Streams(threading.Thread):
    """Event streams held on raw sockets, read by one epoll loop; each stream's arrival time of
    the text expected."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.poll = select.epoll()
        self.streams: dict[int, Stream] = {}
        self.lock = threading.Lock()
        self.marker: bytes | None = None
        self.start()

    def open(self, port: int, match_id: str, count: int) -> None:
        request = (f"GET /api/v1/matches/{match_id}/events HTTP/1.0\r\n"
                   "Host: 127.0.0.1\r\n\r\n").encode()
        self.expect(b"retry: 2000\n\n")
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            sock.sendall(request)
            sock.setblocking(False)
            with self.lock:
                self.streams[sock.fileno()] = Stream(sock)
                self.poll.register(sock.fileno(), select.EPOLLIN)
        self.wait_all(60)

    def expect(self, marker: bytes) -> None:
        """From now on, time each stream's arrival of `marker`."""
        with self.lock:
            self.marker = marker
            for stream in self.streams.values():
                stream.arrived = None
                stream.data.clear()

    def wait_all(self, seconds: float) -> list[float]:
        """Each stream's arrival time of the marker; SystemExit if some never got it."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self.lock:
                if all(s.arrived is not None for s in self.streams.values()):
                    return [s.arrived for s in self.streams.values()]
                ended = sum(s.ended for s in self.streams.values())
            if ended:
                raise SystemExit(f"{ended} streams ended early")
            time.sleep(0.005)
        missing = sum(s.arrived is None for s in self.streams.values())
        raise SystemExit(f"{missing} of {len(self.streams)} streams did not get "
                         f"{self.marker!r} in {seconds} s")

    def close_all(self) -> None:
        """Reset every stream (RST), so the server's next write to it fails at once."""
        with self.lock:
            for fd, stream in self.streams.items():
                self.poll.unregister(fd)
                stream.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                       struct.pack("ii", 1, 0))
                stream.sock.close()
            self.streams.clear()

    def run(self) -> None:
        while True:
            ready = self.poll.poll(0.1)
            with self.lock:
                for fd, _ in ready:
                    stream = self.streams.get(fd)
                    if stream is None:
                        continue
                    try:
                        chunk = stream.sock.recv(65536)
                    except BlockingIOError:
                        continue
                    now = time.monotonic()
                    if not chunk:
                        stream.ended = True
                        self.poll.unregister(fd)
                        continue
                    stream.data += chunk
                    if stream.arrived is None and self.marker in stream.data:
                        stream.arrived = now
                        stream.data.clear()


def client_sockets(pid: int, port: int) -> int:
    """The sockets the worker holds for clients: those of its port, and those that a reset has
    taken out of the kernel's tables (not its database connections)."""
    serving, elsewhere = set(), set()
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            (serving if local_port == port else elsewhere).add(fields[9])
    for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
        elsewhere.add(line.split()[6])
    held = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:  # closed meanwhile
            continue
        inode = target.removeprefix("socket:[").removesuffix("]")
        held += target.startswith("socket:") and (inode in serving or inode not in elsewhere)
    return held


def let_go(streams: Streams, watched: Table, mover: Client, pid: int, port: int,
           baseline: int) -> None:
    """Reset the streams, make the server write to them once, and wait until it let them go."""
    streams.close_all()
    watched.act(mover)
    deadline = time.monotonic() + 60
    while (held := client_sockets(pid, port)) > baseline + 2:
        if time.monotonic() > deadline:
            raise SystemExit(f"the worker still holds {held} client sockets ({baseline} before "
                             "the streams)")
        time.sleep(0.1)


@dataclass
class Half:
    health: list[float]
    action: list[float]


def timed(client: Client, table: Table, requests: int) -> Half:
    """`requests` GET /healthz and as many actions, taking turns."""
    half = Half([], [])
    for _ in range(requests):
        started = time.perf_counter()
        status, _ = client.request("GET", "/healthz")
        half.health.append(time.perf_counter() - started)
        if status != 200:
            raise SystemExit(f"/healthz answered {status}")
        half.action.append(table.act())
    return half


def run_setup(name: str, stream_server, move_server, args) -> bool:
    """The rounds on one setup; prints its figures; whether every goal was met."""
    pid = stream_server.worker_pids()[0]
    client, mover = Client(stream_server.port), Client(move_server.port)
    timing = Table(client, 1000)
    timed(client, timing, 20)  # a warm-up
    streams = Streams()
    ratios_health, ratios_action, deliveries, fan_out_cpu, idle_cpu = [], [], [], [], []
    print(f"\n{name}: {args.streams} streams on one worker, {args.rounds} rounds of "
          f"{args.requests} /healthz and {args.requests} actions a half")
    print(f"{'round':>5} {'healthz ms (none / streams)':>30} {'action ms (none / streams)':>30}"
          f" {'delivery p99 ms':>16}")
    for round_ in range(args.rounds):
        baseline = client_sockets(pid, stream_server.port)
        watched = Table(mover, 5000 + round_)
        halves: dict[bool, Half] = {}
        p99 = opening = float("nan")
        for with_streams in ((False, True) if round_ % 2 == 0 else (True, False)):
            if with_streams:
                started = time.monotonic()
                streams.open(stream_server.port, watched.id, args.streams)
                opening = time.monotonic() - started
                time.sleep(0.5)  # every stream has read the log and waits
                cpu = workers_cpu_seconds([pid])
                time.sleep(IDLE_SPELL_SECONDS)
                idle_cpu.append((workers_cpu_seconds([pid]) - cpu) / IDLE_SPELL_SECONDS)
                halves[True] = timed(client, timing, args.requests)
                delivered = []
                cpu = workers_cpu_seconds([pid])
                for _ in range(args.moves):
                    token, body = watched.next_action()
                    streams.expect(f"id: {body['version']}\n".encode())
                    posted = time.monotonic()
                    watched.view = mover.json("POST", f"/api/v1/matches/{watched.id}/actions",
                                              body, token)
                    delivered += [(t - posted) * 1000 for t in streams.wait_all(30)]
                deliveries += delivered
                fan_out_cpu.append((workers_cpu_seconds([pid]) - cpu) / args.moves)
                p99 = percentile(sorted(delivered), 0.99)
                let_go(streams, watched, mover, pid, stream_server.port, baseline)
            else:
                halves[False] = timed(client, timing, args.requests)
        health = [statistics.median(halves[s].health) * 1000 for s in (False, True)]
        action = [statistics.median(halves[s].action) * 1000 for s in (False, True)]
        ratios_health.append(health[1] / health[0])
        ratios_action.append(action[1] / action[0])
        print(f"{round_ + 1:>5} {health[0]:>14.2f} / {health[1]:<13.2f}"
              f"{action[0]:>16.2f} / {action[1]:<13.2f}{p99:>16.1f}"
              f"   (streams opened in {opening:.1f} s)")
    deliveries.sort()
    health_ratio, action_ratio = (statistics.median(ratios_health),
                                  statistics.median(ratios_action))
    p99 = percentile(deliveries, 0.99)
    results = [
        (f"/healthz median with / without streams: {health_ratio:.2f}", f"≤ {RATIO_GOAL}",
         health_ratio <= RATIO_GOAL),
        (f"action median with / without streams: {action_ratio:.2f}", f"≤ {RATIO_GOAL}",
         action_ratio <= RATIO_GOAL),
        (f"a move reached all {args.streams} streams: p50 "
         f"{statistics.median(deliveries):.1f} ms, p99 {p99:.1f} ms, max {deliveries[-1]:.1f} ms"
         f" ({len(deliveries)} arrivals)", f"p99 ≤ {DELIVERY_GOAL_MS} ms",
         p99 <= DELIVERY_GOAL_MS),
    ]
    print(f"the streams' worker's CPU time while nothing happens: "
          f"{statistics.median(idle_cpu) * 1000:.0f} ms a second")
    print(f"the streams' worker's CPU time a move: {statistics.median(fan_out_cpu) * 1000:.0f} ms"
          f" ({statistics.median(fan_out_cpu) / args.streams * 1e6:.0f} µs a stream)")
    for text, goal, met in results:
        print(f"{text}  (goal {goal}: {'met' if met else 'MISSED'})")
    return all(met for _, _, met in results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=6, help="pairs of halves")
    parser.add_argument("--requests", type=int, default=150,
                        help="/healthz requests and actions timed in each half")
    parser.add_argument("--moves", type=int, default=8, help="moves timed to the streams a round")
    parser.add_argument("--setup", choices=("sqlite", "postgresql", "both"), default="both")
    args = parser.parse_args()
    met = True
    if args.setup in ("sqlite", "both"):
        with tempfile.TemporaryDirectory(prefix="digsite-bench-") as tmp, \
                serve({**ENV, "DATABASE_URL": f"sqlite:///{tmp}/digsite.db"},
                      workers=1) as server:
            met &= run_setup("SQLite, one server, one worker", server, server, args)
    if args.setup in ("postgresql", "both"):
        with ExitStack() as stack:
            database = stack.enter_context(postgres_cluster())
            env = {**ENV, "DATABASE_URL": database}
            first = stack.enter_context(serve(env, workers=1))
            second = stack.enter_context(serve(env, workers=1))
            met &= run_setup("PostgreSQL, two app servers of one worker each (streams on the "
                             "first, moves posted to the second)", first, second, args)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())

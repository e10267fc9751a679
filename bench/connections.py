"""Do slow and idle connections hold the server up? 2,200 connections that send a request body a
byte at a time, then 2,200 that send nothing at all, then 2,200 idle keep-alive connections
(one request answered, then silence), each time while one sequential client times GET /healthz
and an action, against the same client's times with no such connections.

The app is served by the gunicorn command (two workers) on SQLite and on a throwaway
PostgreSQL cluster. The connections come from `--addresses` loopback addresses (127.0.1.x), so
that no address holds more than the per-address limit lets one address hold (serving.py): a
crowd of clients, not one, as a limit per address cannot stop. They are held by one thread of
this process on raw sockets (epoll), which sends each slow body's next byte every
`--trickle` seconds. The timed requests are spread over `--spread` seconds while a kind of
connection is open. The request body deadline is set to `--deadline` seconds
(DIGSITE_BODY_SECONDS): each slow body is then answered 408 and its connection closed; the
figure says how many were.

Goal: with each kind of connection open, the p99 of /healthz and of an action at most 200 ms
(issue 23). Exits 1 otherwise.

    .venv/bin/python bench/connections.py [--connections 2200] [--addresses 22]
        [--requests 100] [--spread 10] [--trickle 2] [--deadline 30]
        [--setup sqlite|postgresql|both]
"""

import argparse
import resource
import select
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.match_cpu import database  # noqa: E402  (the root is put on the path above)
from bench.streams import Client, Table  # noqa: E402
from tests.server import serve  # noqa: E402

GOAL_MS = 200
KINDS = ("slow bodies", "silent", "idle keep-alive")
BODY_BYTES = 4096
ENV = {"DIGSITE_PRUNE_HOURS": "0", "DIGSITE_RATE_LIMIT": "off",
       "DIGSITE_THINKING_LIMIT": "off"}


@dataclass
class Crowd:
    """Connections held open on raw sockets by one thread; each slow one sends a byte of its
    body every `trickle` seconds until the server answers it."""

    port: int
    kind: str
    trickle: float
    socks: dict[int, socket.socket] = field(default_factory=dict)
    answered: dict[int, bytes] = field(default_factory=dict)
    stop: threading.Event = field(default_factory=threading.Event)

    def open(self, count: int, addresses: int) -> None:
        for i in range(count):
            sock = socket.socket()
            sock.bind((f"127.0.1.{1 + i % addresses}", 0))
            sock.connect(("127.0.0.1", self.port))
            if self.kind == "slow bodies":
                sock.sendall(b"POST /api/v1/games/dig/score HTTP/1.1\r\nHost: bench\r\n"
                             b"Content-Type: application/json\r\n"
                             b"Content-Length: %d\r\n\r\n{" % BODY_BYTES)
            elif self.kind == "idle keep-alive":
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n")
            sock.setblocking(False)
            self.socks[sock.fileno()] = sock
        if self.kind == "idle keep-alive":  # each answered once, then left idle
            self._read(until=lambda: len(self.answered) >= len(self.socks), seconds=60)
            self.answered.clear()

    def _read(self, until, seconds: float) -> None:
        poller = select.epoll()
        for fd in self.socks:
            poller.register(fd, select.EPOLLIN)
        deadline = time.monotonic() + seconds
        while not until() and time.monotonic() < deadline:
            for fd, _ in poller.poll(0.2):
                try:
                    data = self.socks[fd].recv(65536)
                except (BlockingIOError, ConnectionError):
                    data = b""
                self.answered[fd] = self.answered.get(fd, b"") + data
                if not data:
                    poller.unregister(fd)
        poller.close()

    def hold(self) -> threading.Thread:
        """Keep the crowd going (trickling, and noting what the server answers) in a thread
        until `stop`."""
        def run() -> None:
            poller = select.epoll()
            for fd in self.socks:
                poller.register(fd, select.EPOLLIN)
            next_byte = time.monotonic() + self.trickle
            while not self.stop.is_set():
                for fd, _ in poller.poll(0.1):
                    try:
                        data = self.socks[fd].recv(65536)
                    except (BlockingIOError, ConnectionError):
                        data = b""
                    if data:
                        self.answered[fd] = self.answered.get(fd, b"") + data
                    else:
                        self.answered.setdefault(fd, b"")
                        poller.unregister(fd)
                if self.kind == "slow bodies" and time.monotonic() >= next_byte:
                    next_byte += self.trickle
                    for fd, sock in self.socks.items():
                        if fd not in self.answered:
                            try:
                                sock.send(b" ")
                            except (BlockingIOError, ConnectionError):
                                pass
            poller.close()

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        self.stop.set()
        for sock in self.socks.values():
            sock.close()


def timed(client: Client, table: Table, requests: int, seconds: float = 0
          ) -> dict[str, list[float]]:
    """`requests` of /healthz and as many actions, taking turns, spread over `seconds`: each
    one's seconds."""
    times: dict[str, list[float]] = {"healthz": [], "action": []}
    start = time.monotonic()
    for i in range(requests):
        time.sleep(max(0.0, start + i * seconds / requests - time.monotonic()))
        started = time.perf_counter()
        status, _ = client.request("GET", "/healthz")
        assert status == 200, status
        times["healthz"].append(time.perf_counter() - started)
        times["action"].append(table.act())
    return times


def p(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000


def run(setup: str, args: argparse.Namespace) -> bool:
    met = True
    with database(setup) as url, serve({**ENV, "DATABASE_URL": url,
                                        "DIGSITE_BODY_SECONDS": str(args.deadline)},
                                       workers=2) as server:
        client = Client(server.port)
        table = Table(client, 1)
        timed(client, table, 20)  # warm-up
        rows = [("none", timed(client, table, args.requests, args.spread), "")]
        for kind in KINDS:
            crowd = Crowd(server.port, kind, args.trickle)
            started = time.monotonic()
            crowd.open(args.connections, args.addresses)
            holder = crowd.hold()
            times = timed(client, table, args.requests, args.spread)
            held = time.monotonic() - started
            still = len(crowd.socks) - len(crowd.answered)
            note = f"{len(crowd.socks)} opened, {still} still open after {held:.0f} s"
            if kind == "slow bodies":  # wait for the deadline: each should have its 408
                wait_until = started + args.deadline + 10
                while time.monotonic() < wait_until and len(crowd.answered) < len(crowd.socks):
                    time.sleep(0.5)
                refused = sum(b" 408 " in answer[:20] for answer in crowd.answered.values())
                note += f"; {refused} answered 408 within {args.deadline + 10:.0f} s"
            crowd.close()
            holder.join()
            rows.append((kind, times, note))
            time.sleep(1)
    print(f"\n{setup}: gunicorn, 2 workers; {args.connections} connections from "
          f"{args.addresses} addresses; {args.requests} of each request, sequential")
    print(f"{'connections':<18}{'healthz p50':>12}{'p99':>8}{'action p50':>12}{'p99':>8}  note")
    for kind, times, note in rows:
        h50, h99 = p(times["healthz"], 0.5), p(times["healthz"], 0.99)
        a50, a99 = p(times["action"], 0.5), p(times["action"], 0.99)
        ok = kind == "none" or (h99 <= GOAL_MS and a99 <= GOAL_MS)
        met &= ok
        print(f"{kind:<18}{h50:>10.1f}ms{h99:>6.1f}ms{a50:>10.1f}ms{a99:>6.1f}ms  {note}"
              f"{'' if ok else '  MISSED'}")
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=2200)
    parser.add_argument("--addresses", type=int, default=22)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--trickle", type=float, default=2.0)
    parser.add_argument("--spread", type=float, default=10.0,
                        help="seconds over which each kind's timed requests are spread")
    parser.add_argument("--deadline", type=float, default=30.0)
    parser.add_argument("--setup", choices=("sqlite", "postgresql", "both"), default="both")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, args.connections + 1000)),
                                                hard))
    setups = ("sqlite", "postgresql") if args.setup == "both" else (args.setup,)
    met = all([run(setup, args) for setup in setups])
    print(f"\ngoal: p99 of /healthz and of an action at most {GOAL_MS} ms with each kind open")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())

"""What a fresh phone costs the machine in the page tests: the CPU time of opening a browser
context, loading the scorer page in it and choosing a game, with the Chromium arguments the tests
use (tests/web/phone.py's CHROMIUM_ARGS) and with the plain ones they add to (BASE_CHROMIUM_ARGS).

The app is served by gunicorn (one worker, SQLite). Each round launches Debian's Chromium once with
each set of arguments, in turns (which goes first alternates), and opens `--phones` phones one
after the other in each; the whole machine's CPU time (/proc/stat: every Chromium process, the
Playwright driver, the server) is read around them. The verdict is the median over the rounds of
the ratio tests' / plain, with a 95% bootstrap interval.

Goal: a fresh phone with the tests' arguments costs at most 0.7 × the plain arguments' CPU.
Exits 1 otherwise.

    .venv/bin/python bench/phone_cpu.py [--rounds 8] [--phones 12]
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.match_cpu import interval  # noqa: E402  (the root is put on the path above)
from tests.server import serve  # noqa: E402
from tests.web.phone import BASE_CHROMIUM_ARGS, CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402

GOAL = 0.7  # × the plain arguments' CPU per phone
TICK = os.sysconf("SC_CLK_TCK")


def busy_seconds() -> float:
    """The CPU time the whole machine has spent, not idle or waiting, since it started: user, nice,
    system, irq, softirq and steal (a guest's time is counted in user already)."""
    fields = list(map(int, open("/proc/stat").readline().split()[1:9]))
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / TICK


def per_phone(playwright, args: list[str], url: str, phones: int) -> float:
    """CPU seconds per phone opened, the page loaded and a game chosen, in a browser of `args`."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
    try:
        def phone() -> None:
            context = browser.new_context(viewport=PHONE, base_url=url, service_workers="block")
            page = context.new_page()
            page.goto("/")
            page.get_by_role("button", name="DIG").first.click()
            page.get_by_role("heading", name="DIG").first.wait_for()
            context.close()

        phone()  # the browser's own start is not a phone's
        before = busy_seconds()
        for _ in range(phones):
            phone()
        return (busy_seconds() - before) / phones
    finally:
        browser.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--phones", type=int, default=12)
    options = parser.parse_args()
    rng = random.Random(1)
    kinds = {"plain": BASE_CHROMIUM_ARGS, "tests": CHROMIUM_ARGS}
    seconds: dict[str, list[float]] = {kind: [] for kind in kinds}
    with tempfile.TemporaryDirectory() as directory, \
            serve({"DATABASE_URL": f"sqlite:///{directory}/digsite.db"}, workers=1) as server, \
            sync_playwright() as playwright:
        for round_ in range(options.rounds):
            order = list(kinds) if round_ % 2 == 0 else list(reversed(kinds))
            for kind in order:
                seconds[kind].append(per_phone(playwright, kinds[kind], server.url,
                                               options.phones))
            print(f"round {round_ + 1}: plain {seconds['plain'][-1]:.3f} s, "
                  f"tests {seconds['tests'][-1]:.3f} s a phone", file=sys.stderr)
    ratios = [t / p for t, p in zip(seconds["tests"], seconds["plain"], strict=True)]
    low, high = interval(ratios, rng)
    median = statistics.median(ratios)
    print(f"CPU a fresh phone: plain {statistics.median(seconds['plain']):.3f} s, "
          f"tests' arguments {statistics.median(seconds['tests']):.3f} s")
    print(f"tests / plain: {median:.2f} [{low:.2f}, {high:.2f}] (goal ≤ {GOAL})")
    return 0 if median <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())

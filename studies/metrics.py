"""The statistics of a study, computed match by match from its rows as they are written, never
from all of them at once: counts, running moments, and the distribution of each whole-number
measure (score, length, margin) as value → count, which stays small however many matches.

Per arm, as Ludii's and a designer's first questions go: each seat's share of the wins with a
95% Wilson interval, and one joint test across seats (a chi-square goodness of fit of the win
shares against equal shares), so that one seat's interval missing the fair share, which happens
by chance in a fair game, is not read as a finding; the tie rate; the margin of victory; the
match length's percentiles; each seat's score spread; the game's own figures; and for games with
secret missions, how each mission does. In a study that rotates its seats, the same for each of
the arm's bots whichever seat it sat in (a seat's figures then say the seat's advantage, a bot's
its strength). Between arms: each seat's (and rotating, each bot's) difference from the first
arm in win share and mean score, paired on the common deals, with a 95% interval.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from scoring.bots.simulations import Z95, seat_name, wilson

Row = dict[str, Any]
PERCENTILES = (10, 25, 50, 75, 90)


def chi_square_p(statistic: float, df: int) -> float:
    """P(X ≥ statistic) for X chi-square with `df` degrees of freedom: the closed forms of the
    upper tail for whole df (Abramowitz & Stegun 26.4.4 and 26.4.5)."""
    if statistic <= 0:
        return 1.0
    half = statistic / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for j in range(1, df // 2):
            term *= half / j
            total += term
        return min(1.0, math.exp(-half) * total)
    root = math.sqrt(statistic)
    tail = math.erfc(root / math.sqrt(2))
    term, total = root, 0.0
    for j in range(1, (df - 1) // 2 + 1):
        total += term
        term *= statistic / (2 * j + 1)
    return min(1.0, tail + math.sqrt(2 / math.pi) * math.exp(-half) * total)


def equal_shares_test(shares: list[float]) -> dict[str, float]:
    """Chi-square goodness of fit of the seats' wins (a win shared by k counting 1/k each)
    against equal shares: a small p-value says the seats are not equally likely to win."""
    n = sum(shares)
    if n == 0 or len(shares) < 2:
        return {"chi_square": 0.0, "df": max(0, len(shares) - 1), "p_value": 1.0}
    expected = n / len(shares)
    statistic = sum((o - expected) ** 2 / expected for o in shares)
    df = len(shares) - 1
    return {"chi_square": statistic, "df": df, "p_value": chi_square_p(statistic, df)}


class Moments:
    """Count, mean and variance, one value at a time (Welford)."""

    __slots__ = ("n", "mean", "m2")

    def __init__(self) -> None:
        self.n, self.mean, self.m2 = 0, 0.0, 0.0

    def add(self, x: float) -> None:
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)

    @property
    def stdev(self) -> float:
        return math.sqrt(self.m2 / (self.n - 1)) if self.n > 1 else 0.0

    def interval(self, bounds: tuple[float, float] | None = None) -> dict[str, float | None]:
        """The mean with its 95% interval: Student's t for the n values (the normal one was too
        narrow below some 30), within `bounds` where every value lies (a win-share difference
        lies in [-1, 1]). Fewer than two values show no spread: the interval is then all of
        `bounds`, or, with none, no interval at all (None for each end).

        n values all alike show no spread either, and Student's t gives them an interval of no
        width, as if the next match could not differ: 1.00 [1.00, 1.00] from 40 matches. Within
        `bounds`, the share of matches that would differ is then at most 1 − 0.025^(1/n) on each
        side (the exact form of the "rule of three"), and the mean at most that share of the
        way to the bound; with none, there is no interval. Figures are rounded to 12 places:
        the running mean of thirds left 1.4e-17 where nothing differed."""
        if self.n < 2:
            low, high = bounds or (None, None)
        elif self.m2 == 0:
            low = high = None
            if bounds is not None:
                share = 1 - 0.025 ** (1 / self.n)
                low = self.mean - (self.mean - bounds[0]) * share
                high = self.mean + (bounds[1] - self.mean) * share
        else:
            half = t95(self.n - 1) * self.stdev / math.sqrt(self.n)
            low, high = self.mean - half, self.mean + half
            if bounds is not None:
                low, high = max(low, bounds[0]), min(high, bounds[1])
        return {"difference": _rounded(self.mean), "low": _rounded(low), "high": _rounded(high)}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 12) + 0.0  # + 0.0: never -0.0


# Student's t quantile of a two-sided 95% interval, by degrees of freedom 1 … 30.
T95 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010,
       2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739,
       2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423)


def t95(df: int) -> float:
    """Student's t quantile of a two-sided 95% interval at `df` degrees of freedom (≥ 1): the
    table to 30, then the Cornish-Fisher expansion about the normal quantile (within 1e-4)."""
    if df <= len(T95):
        return T95[max(df, 1) - 1]
    z = Z95
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def percentile(counts: Counter, p: float) -> float:
    """The p-th percentile of the values counted, interpolated between neighbours as numpy's
    default does."""
    n = sum(counts.values())
    if n == 0:
        return math.nan
    position = p / 100 * (n - 1)
    below, above = math.floor(position), math.ceil(position)
    low = high = None
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if low is None and seen > below:
            low = value
        if seen > above:
            high = value
            break
    return low + (high - low) * (position - below)


def spread(counts: Counter) -> dict[str, float]:
    """Mean, stdev, min, max and percentiles of the values counted."""
    n = sum(counts.values())
    if n == 0:
        return {}
    mean = sum(v * c for v, c in counts.items()) / n
    variance = sum(c * (v - mean) ** 2 for v, c in counts.items()) / (n - 1) if n > 1 else 0.0
    return {"mean": mean, "stdev": math.sqrt(variance), "min": min(counts),
            "max": max(counts), **{f"p{p}": percentile(counts, p) for p in PERCENTILES}}


class Places:
    """Wins and scores by place: a seat, or in a study that rotates its seats, one of the arm's
    bots (its place in the arm's list of bots), whichever seat it sat in."""

    def __init__(self, places: int) -> None:
        self.bots: list[str] = [""] * places
        self.shares = [0.0] * places
        self.sole = [0] * places
        self.shared = [0] * places
        self.scores = [Counter() for _ in range(places)]

    def add(self, place: int, row: Row) -> None:
        self.bots[place] = row["bot"]
        self.shares[place] += win_share(row)
        if row["won"]:
            if row["winners"] == 1:
                self.sole[place] += 1
            else:
                self.shared[place] += 1
        self.scores[place][row["score"]] += 1

    def summary(self, n: int, key: str, names: list[str], bots: list[str | None]
                ) -> list[dict[str, Any]]:
        said = []
        for place, (name, bot) in enumerate(zip(names, bots, strict=True)):
            low, high = wilson(self.shares[place], n)
            said.append({key: place, "name": name, "bot": bot,
                         "wins": self.sole[place], "shared_wins": self.shared[place],
                         "win_share": {"value": self.shares[place] / n if n else 0.0,
                                       "low": low, "high": high},
                         "score": spread(self.scores[place])})
        return said


class ArmTally:
    """One arm's statistics, a match at a time."""

    def __init__(self, seats: int) -> None:
        self.matches = 0
        self.seats = Places(seats)
        # Rotating: each of the arm's bots, whichever seat it sat in (rows with "lineup").
        self.lineup = Places(seats)
        self.lengths: Counter = Counter()
        self.margins: Counter = Counter()
        self.ties = 0
        self.figures: dict[str, float] = {}
        self.missions: dict[str, list[float]] = {}  # id → [held, achieved, win share]

    def add(self, rows: list[Row]) -> None:
        """The rows of one match of this arm, seat by seat."""
        self.matches += 1
        for row in rows:
            self.seats.add(row["seat"], row)
            if "lineup" in row:
                self.lineup.add(row["lineup"], row)
            if row.get("mission") is not None:
                held = self.missions.setdefault(row["mission"], [0, 0, 0.0])
                held[0] += 1
                held[1] += bool(row["mission_achieved"])
                held[2] += win_share(row)
        first = rows[0]
        self.lengths[first["length"]] += 1
        if first["winners"] > 1:
            self.ties += 1
        ranked = sorted((r["score"] for r in rows), reverse=True)
        # A tie for first has no margin: the winners' lead over each other is nothing.
        self.margins[ranked[0] - ranked[1] if first["winners"] == 1 else 0] += 1
        for key, value in first.items():
            if key.startswith("figure."):
                name = key[len("figure."):]
                self.figures[name] = self.figures.get(name, 0.0) + value

    @property
    def rotated(self) -> bool:
        """Whether its rows said which of the arm's bots sat in each seat (a rotated study)."""
        return any(self.lineup.bots)

    def summary(self) -> dict[str, Any]:
        n = self.matches
        places = range(len(self.seats.bots))
        if self.rotated:
            # a seat held every bot in turn: named by its number alone, and the bots apart
            # named as the report's tables and charts name them, from 0 as `seat` counts
            seats = self.seats.summary(n, "seat", [f"seat {seat}" for seat in places],
                                       [None for _ in places])
        else:
            seats = self.seats.summary(n, "seat", [seat_name(bot, seat) for seat, bot
                                                   in enumerate(self.seats.bots)],
                                       list(self.seats.bots))
        missions = [{"mission": mission, "held": held, "achieved": achieved / held,
                     "win_share": share / held}
                    for mission, (held, achieved, share) in sorted(self.missions.items())]
        said = {"matches": n, "seats": seats,
                "equal_shares": equal_shares_test(self.seats.shares),
                "ties": {"matches": self.ties, "rate": self.ties / n if n else 0.0},
                "margin": spread(self.margins), "length": spread(self.lengths),
                "figures": {k: v / n for k, v in self.figures.items()},
                "missions": missions}
        if self.rotated:
            bots = self.lineup.bots
            said["bots"] = self.lineup.summary(n, "bot_index", [f"bot {place} ({bot})" for
                                                                place, bot in enumerate(bots)],
                                               list(bots))
            said["equal_bot_shares"] = equal_shares_test(self.lineup.shares)
        return said


class Tally:
    """A study's statistics: every arm's, and each later arm's paired difference from the
    first. Fed the rows of one match index (every arm) at a time."""

    def __init__(self, arms: int, seats: int) -> None:
        self.arms = [ArmTally(seats) for _ in range(arms)]
        # by the row's key its place is counted under (its seat; rotating, its place in the
        # arms' lists of bots too): [arm][place] → the per-match differences from the first
        # arm, in win share and in score
        self.differences = {key: [[(Moments(), Moments()) for _ in range(seats)]
                                  for _ in range(arms)] for key in PLACES}

    @property
    def matches(self) -> int:
        return self.arms[0].matches

    def add(self, rows: list[Row]) -> None:
        """The rows of one match index: a row per seat of every arm, arm by arm."""
        by_arm: list[list[Row]] = [[] for _ in self.arms]
        for row in rows:
            by_arm[row["arm"]].append(row)
        for tally, arm_rows in zip(self.arms, by_arm, strict=True):
            tally.add(arm_rows)
        base = by_arm[0]
        for arm in range(1, len(self.arms)):
            # the arms rotate alike: a seat holds the same place of each arm's bots
            for row, first in zip(by_arm[arm], base, strict=True):
                for key, kept in self.differences.items():
                    if key in row:
                        shares, scores = kept[arm][row[key]]
                        shares.add(win_share(row) - win_share(first))
                        scores.add(row["score"] - first["score"])

    def summary(self, arms: list[dict[str, Any]]) -> dict[str, Any]:
        """The statistics of every arm, described (its label and variant) as the run's side
        file describes it, and each later arm's difference from the first."""
        labels = [arm["label"] for arm in arms]
        # an arm's box changes said with its figures: a run of one changed box read as the
        # printed game's ("base"), the changes in the provenance alone
        arms = [{"arm": number, "label": arm["label"], "variant": arm["variant"],
                 **({"box": arm["box"]} if arm.get("box") else {}), **tally.summary()}
                for number, (arm, tally) in enumerate(zip(arms, self.arms, strict=True))]
        differences = []
        for arm in range(1, len(self.arms)):
            differences.append({"arm": arm, "label": labels[arm], "against": labels[0],
                                "matches": self.matches})
            for key, (said, index) in PLACES.items():
                if key == "lineup" and not self.arms[0].rotated:
                    continue
                differences[-1][said] = [{index: place,
                                          "win_share": shares.interval((-1, 1)),
                                          "score": scores.interval()}
                                         for place, (shares, scores)
                                         in enumerate(self.differences[key][arm])]
        return {"matches": self.matches, "arms": arms, "differences": differences}


# A row's key its place is counted under → the summary's list of places and each one's key.
PLACES = {"seat": ("seats", "seat"), "lineup": ("bots", "bot_index")}


def win_share(row: Row) -> float:
    """The seat's share of the match's win: 1 alone, 1/k for a win shared by k, else 0."""
    return 1 / row["winners"] if row["won"] else 0.0

"""What every calculator shares: refusing impossible input, and ranking players."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any


class InvalidScoresheet(ValueError):
    """The input cannot come from a real game; `errors` maps a field path to messages."""

    def __init__(self, errors: dict[str, list[str]]):
        self.errors = errors
        super().__init__("; ".join(m for msgs in errors.values() for m in msgs))


class Problems:
    """Collects messages per field while a scoresheet is checked (`with Problems() as problems:`);
    leaving the block raises InvalidScoresheet if there are any."""

    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}
        self.held: dict[Hashable, list[tuple[str, int]]] = {}  # kind -> (field, count) held

    def add(self, field: str, message: str) -> None:
        self.errors.setdefault(field, []).append(message)

    def hold(self, kind: Hashable, field: str, n: int = 1) -> None:
        """`field` holds n things of `kind`, for a limit across players."""
        if n:
            self.held.setdefault(kind, []).append((field, n))

    def over(self, kind: Hashable, most: int) -> int:
        """How many of `kind` the table holds, if more than `most` (else 0)."""
        total = sum(n for _, n in self.held.get(kind, ()))
        return total if total > most else 0

    def limit(self, kind: Hashable, message: str) -> None:
        """A limit across players: said on `players` and on every field holding some of `kind`,
        so a client marks those fields from the keys alone."""
        for field in ("players", *(field for field, _ in self.held[kind])):
            self.add(field, message)

    def __enter__(self) -> Problems:
        return self

    def __exit__(self, kind: type | None, *_: Any) -> None:
        if kind is None and self.errors:
            raise InvalidScoresheet(self.errors)


def table(game_id: str, players: list[dict[str, Any]], extra: dict[str, Any] | None = None,
          **tie_break: Any) -> dict[str, Any]:
    """A calculator's answer: the game, its settings, the scored players and `rank`'s verdict."""
    return {"game": game_id, **(extra or {}), "players": players, **rank(players, **tie_break)}


def rank(
    players: list[dict[str, Any]],
    tie_key: Callable[[dict[str, Any]], Sequence[Any]] | None = None,
    tie_rule: str | None = None,
    describe: Callable[[dict[str, Any]], str] | None = None,
) -> dict[str, Any]:
    """Give each scored player a rank (ties share: 1, 1, 3) and name the winners.

    `players` hold "name" and "total". `tie_key` is the printed tie-break: a larger key wins among
    equal totals; players equal on both share the rank. Returns the winners and, when the tie-break
    decided anything, an explanation a player can read.
    """
    totals = [p["total"] for p in players]
    tied = tie_key is not None and len(set(totals)) < len(totals)  # only equal totals are broken
    keys = [(total, tuple(tie_key(p))) for total, p in zip(totals, players, strict=True)] \
        if tied else totals
    # A player's rank is 1 + how many keys beat theirs: where their key first appears, best first.
    best_first = sorted(keys, reverse=True)
    for p, own in zip(players, keys, strict=True):
        p["rank"] = 1 + best_first.index(own)
    winners = [p["name"] for p in players if p["rank"] == 1]

    tie_break = None
    if tied:
        key_of = {id(p): own for p, own in zip(players, keys, strict=True)}

        def key(p: dict[str, Any]) -> tuple:
            return key_of[id(p)]

        ordered = sorted(players, key=key, reverse=True)
        decided = []
        for total in sorted(set(totals), reverse=True):
            group = [p for p in ordered if p["total"] == total]
            if len(group) > 1 and len({key(p) for p in group}) > 1:
                decided.append(group)
        if decided:
            lines = []
            for group in decided:
                names = ", ".join(p["name"] for p in group)
                detail = "; ".join(f"{p['name']}: {describe(p)}" for p in group) + "." \
                    if describe else ""
                lines.append(f"{names} tied on {group[0]['total']}. {detail}".strip())
            tie_break = {"rule": tie_rule, "explanation": " ".join(lines)}
    return {"winners": winners, "tie_break": tie_break}

"""Turn clocks (API.md "Clocks"): per move, a bank with an increment, or days per turn for slow
games. A match's clock is stored as {"rule", "bank", "since"}: the rule chosen at creation, the
seconds left to each seat (bank clocks only), and when the seats now to act began to think; with
"undo", the clock as it was before a move its seat may still take back. The deadline it gives is
stored beside it, for the watchers to find.

When the time of the seats to act starts: per move, at each move of theirs; a day a turn, when
their turn begins; a bank is charged at each move. Nothing else moves it: another seat's new link,
a seat handed to a bot, another seat's choice in a step the seats take together. A seat whose
bank is spent has SPENT_BANK_SECONDS for each move, so that its player can still take it back
from the bot that played it when it ran out (API.md: the seat is theirs again once they act)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

DAY_SECONDS = 86_400
SPENT_BANK_SECONDS = 10.0  # the least bank a clock may give (api/schemas/matches.py)


def start(rule: dict[str, Any] | None, seats: int) -> dict[str, Any] | None:
    """A new match's clock: every seat's bank full, nobody thinking yet."""
    if rule is None:
        return None
    bank = ({str(seat): float(rule["bank_seconds"]) for seat in range(seats)}
            if "bank_seconds" in rule else None)
    return {"rule": dict(rule), "bank": bank, "since": None}


def per_turn_seconds(rule: dict[str, Any]) -> float | None:
    if "move_seconds" in rule:
        return float(rule["move_seconds"])
    if "turn_days" in rule:
        return float(rule["turn_days"]) * DAY_SECONDS
    return None


def advance(clock: dict[str, Any] | None, thinking: list[int], to_act: list[int],
            now: datetime, acted: set[int],
            timed_out: frozenset[int] = frozenset()) -> tuple[dict[str, Any] | None,
                                                          datetime | None]:
    """The clock once the seats that were `thinking` are followed by `to_act` (empty when nobody
    is: a waiting or finished match), `acted` being the seats that moved (themselves or a bot
    for them), and the new deadline. A bank clock charges the time since `since` to each seat
    that was thinking and moved or is no longer to act, and gives the increment to each that
    moved and whose turn it no longer is; to a seat that ran out of time (`timed_out`), only an
    increment of 10 s or more, the least a spent bank gives a move (3 s would have been less)."""
    if clock is None:
        return None, None
    rule, bank = clock["rule"], dict(clock["bank"] or {})
    since = datetime.fromisoformat(clock["since"]) if clock["since"] else None
    going_on = since is not None and bool(to_act) and set(to_act) <= set(thinking)
    # The seats still to act think on from `since`, unless one of them moved: per move, and for
    # a bank (charged now), from now; a day a turn, until the turn changes hands.
    restart = not going_on or (bool(acted & set(to_act)) and "turn_days" not in rule)
    if bank and since is not None:
        spent = max(0.0, (now - since).total_seconds())
        for seat in thinking:
            if seat in to_act and not restart:
                continue
            left = max(0.0, bank[str(seat)] - spent)
            if seat in acted and seat not in to_act:
                increment = float(rule.get("increment_seconds", 0))
                # a stand-in's move earns less than a spent bank's own 10 s a move: nothing
                if seat not in timed_out or increment >= SPENT_BANK_SECONDS:
                    left += increment
            bank[str(seat)] = left
    started = (now.isoformat() if restart else clock["since"]) if to_act else None
    clock = {"rule": rule, "bank": bank or None, "since": started}
    return clock, deadline(clock, to_act)


def seconds_left(clock: dict[str, Any], seat: int) -> float:
    """What `seat` has to think from `since`."""
    seconds = per_turn_seconds(clock["rule"])
    if seconds is not None:
        return seconds
    return clock["bank"][str(seat)] or SPENT_BANK_SECONDS


def deadline(clock: dict[str, Any], to_act: list[int]) -> datetime | None:
    """When the first of `to_act` runs out of time, or None when nobody is thinking."""
    if not to_act or clock["since"] is None:
        return None
    since = datetime.fromisoformat(clock["since"])
    return since + timedelta(seconds=min(seconds_left(clock, seat) for seat in to_act))


def out_of_time(clock: dict[str, Any] | None, to_act: list[int], now: datetime) -> list[int]:
    """The seats to act whose time has run out by `now`."""
    if clock is None or clock["since"] is None:
        return []
    since = datetime.fromisoformat(clock["since"])
    return [seat for seat in to_act
            if since + timedelta(seconds=seconds_left(clock, seat)) <= now]


def shown(clock: dict[str, Any] | None, to_act: list[int], now: datetime,
          waiting: list[int] = ()) -> dict[str, Any] | None:
    """A view's `clock`: the deadline of the seats to act whose clock runs, each seat's seconds
    left (a bank clock's banks, with the thinking seats' time spent so far taken off; else the
    seconds left to those seats), and the seats to act whose clock waits for its player (of
    `waiting`: a rematch's seats not claimed yet; in a step where every seat acts, the page
    showed the others' deadline running on them, though theirs never runs out)."""
    if clock is None:
        return None
    waits = sorted(seat for seat in to_act if seat in waiting)
    to_act = [seat for seat in to_act if seat not in waiting]
    due = deadline(clock, to_act)
    since = datetime.fromisoformat(clock["since"]) if clock["since"] else None
    spent = max(0.0, (now - since).total_seconds()) if since else 0.0
    if clock["bank"]:
        bank = {seat: round(max(0.0, left - spent) if int(seat) in to_act else left, 1)
                for seat, left in clock["bank"].items()}
    else:
        bank = {str(seat): round(max(0.0, (due - now).total_seconds()), 1)
                for seat in to_act} if due else {}
    return {"deadline": due.isoformat() if due else None, "bank": bank, "rule": clock["rule"],
            "waiting": waits}


def before_move(clock: dict[str, Any] | None, previous: dict[str, Any] | None,
                undoable: bool) -> dict[str, Any] | None:
    """The clock kept with the version a move made: `previous` (the clock it was made on) kept
    beside it while the move may be taken back, for the undo to put back."""
    if clock is None:
        return None
    if undoable and previous is not None:
        return {**clock, "undo": {k: v for k, v in previous.items() if k != "undo"}}
    return clock


def undone(clock: dict[str, Any] | None) -> dict[str, Any] | None:
    """The clock as it was before the move taken back (None: no clock): the seat thinking since
    it began to, no increment given, nobody else's time started."""
    return None if clock is None else clock.get("undo", clock)

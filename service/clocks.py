"""Turn clocks (API.md "Clocks"): per move, a bank with an increment, or days per turn for slow
games. A match's clock is stored as {"rule", "bank", "since"}: the rule chosen at creation, the
seconds left to each seat (bank clocks only), and when the seats now to act began to think. The
deadline it gives is stored beside it, for the watchers to find."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

DAY_SECONDS = 86_400


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
            now: datetime) -> tuple[dict[str, Any] | None, datetime | None]:
    """The clock once the seats that were `thinking` have acted and `to_act` are to act from
    `now` (empty when nobody is: a waiting or finished match), and the new deadline. A bank
    clock charges the time since `since` to every seat that was thinking, and gives the
    increment to each seat whose turn it no longer is."""
    if clock is None:
        return None, None
    rule, bank = clock["rule"], dict(clock["bank"] or {})
    since = datetime.fromisoformat(clock["since"]) if clock["since"] else None
    if bank and since is not None:
        spent = max(0.0, (now - since).total_seconds())
        for seat in thinking:
            left = max(0.0, bank[str(seat)] - spent)
            if seat not in to_act:
                left += float(rule.get("increment_seconds", 0))
            bank[str(seat)] = left
    clock = {"rule": rule, "bank": bank or None, "since": now.isoformat() if to_act else None}
    return clock, deadline(clock, to_act)


def deadline(clock: dict[str, Any], to_act: list[int]) -> datetime | None:
    """When the first of `to_act` runs out of time, or None when nobody is thinking."""
    if not to_act or clock["since"] is None:
        return None
    since = datetime.fromisoformat(clock["since"])
    seconds = per_turn_seconds(clock["rule"])
    if seconds is None:
        seconds = min(clock["bank"][str(seat)] for seat in to_act)
    return since + timedelta(seconds=seconds)


def out_of_time(clock: dict[str, Any] | None, to_act: list[int], now: datetime) -> list[int]:
    """The seats to act whose time has run out by `now`."""
    if clock is None or clock["since"] is None:
        return []
    since = datetime.fromisoformat(clock["since"])
    seconds = per_turn_seconds(clock["rule"])
    return [seat for seat in to_act
            if since + timedelta(seconds=seconds if seconds is not None
                                 else clock["bank"][str(seat)]) <= now]


def shown(clock: dict[str, Any] | None, to_act: list[int],
          now: datetime) -> dict[str, Any] | None:
    """A view's `clock`: the deadline of the seats to act, and each seat's seconds left (a bank
    clock's banks, with the thinking seats' time spent so far taken off; else the seconds left
    to the seats to act)."""
    if clock is None:
        return None
    due = deadline(clock, to_act)
    since = datetime.fromisoformat(clock["since"]) if clock["since"] else None
    spent = max(0.0, (now - since).total_seconds()) if since else 0.0
    if clock["bank"]:
        bank = {seat: round(max(0.0, left - spent) if int(seat) in to_act else left, 1)
                for seat, left in clock["bank"].items()}
    else:
        bank = {str(seat): round(max(0.0, (due - now).total_seconds()), 1)
                for seat in to_act} if due else {}
    return {"deadline": due.isoformat() if due else None, "bank": bank, "rule": clock["rule"]}

"""Playing a study's matches into records: one row per seat and match (README "Studies").

A row depends on nothing but the study and the match index (the deal is `match_seed(seed, i)`,
each bot's generator is seeded from it and its seat), so matches can be played in any order,
in any process, on any machine, and give the same rows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from scoring.bots import bot_turns, make, module
from scoring.bots.simulations import match_seed

from .study import Arm, Study

Row = dict[str, Any]
# The actions a study's match may take: past them its bots are going round in circles.
MOST_ACTIONS = 100_000


class NoEnd(RuntimeError):
    """A study's match that its bots played on and on, never to an end: with a changed box (a
    bowl worth 1000, say) a bot may find nothing better than going round in circles, though the
    box's own check, a random match at every table, ends."""


def play_index(study: Study, index: int) -> list[Row]:
    """Match `index` under every arm, on the same deal: the rows of each arm, seat by seat."""
    seed = match_seed(study.seed, index)
    rows: list[Row] = []
    for number, arm in enumerate(study.arms):
        rows += play_arm(study, number, arm, index, seed)
    return rows


def play_chunk(study: Study, indices: Sequence[int]) -> list[list[Row]]:
    """The rows of each of `indices`: the unit of work a worker is handed."""
    return [play_index(study, i) for i in indices]


def play_arm(study: Study, number: int, arm: Arm, index: int, seed: int,
             log: list[dict[str, Any]] | None = None) -> list[Row]:
    """The arm's rows of match `index`; with `log`, each action played is added to it, as a
    match's log entry says it (`studies replay`)."""
    game = study.game(arm)
    lineup = study.lineup(index)  # the arm's bot in each seat, by its place in arm.bots
    seated = [arm.bots[k] for k in lineup]
    names = [f"{bot} {seat + 1}" for seat, bot in enumerate(seated)]
    state = game.setup(names, seed, arm.variant)
    bots = {seat: make(game, bot, seat, seed, **arm.budget) for seat, bot in enumerate(seated)}
    turns = bot_turns(game, state, bots, MOST_ACTIONS)
    if log is not None:
        turns = _logged(turns, seated, log)
    try:  # no log is kept but where asked: only its length
        length = sum(1 for _ in turns)
    except RuntimeError as exc:
        changes = ", ".join(f"{name}={json.dumps(value, separators=(',', ':'))}"
                            for name, value in (arm.box or {}).items())
        shown = f" ({changes})" if changes and changes not in arm.label else ""
        raise NoEnd(f"In the arm {arm.label}{shown}, match "
                    f"{index}: the bots ({', '.join(arm.bots)}) played {MOST_ACTIONS:,} actions "
                    "without an end. With this box they never finish a match: change the box "
                    "or the bots.") from exc
    sheet = game.scoresheet(state)
    result = game.score(sheet)  # game.result(state), with the sheet built once
    figures = module(game).figures(game, state, result)
    winners = sum(1 for p in result["players"] if p["rank"] == 1)
    rows = []
    # seat_order is the seat's place in the turn order: in every game the first seat starts
    # and turns go clockwise (rulebooks), so it is the seat's number from 1.
    for seat, player in enumerate(result["players"]):
        # API.md: wherever a seed is an integer, seed_text is the same as decimal text (a
        # 64-bit seed is no number JavaScript reads whole)
        row: Row = {"arm": number, "label": arm.label, "match": index, "seed": seed,
                    "seed_text": str(seed), "seat": seat, "seat_order": seat + 1,
                    "bot": seated[seat],
                    "score": player["total"], "rank": player["rank"],
                    "won": player["rank"] == 1, "winners": winners, "length": length}
        if study.rotate:  # which of the arm's bots sat here: its place in the arm's list
            row["lineup"] = lineup[seat]
        mission = sheet["players"][seat].get("mission")
        if mission is not None:  # the games with secret missions (Dig It Up)
            row["mission"] = mission["id"]
            row["mission_achieved"] = mission["achieved"]
        flatten("breakdown", player["breakdown"], row)
        for name, value in figures.items():
            row[f"figure.{name}"] = value
        rows.append(row)
    return rows


def _logged(turns: Any, seated: list[str], log: list[dict[str, Any]]) -> Any:
    for seat, action, events in turns:
        log.append({"seq": len(log) + 1, "seat": seat, "bot": seated[seat], "action": action,
                    "events": events})
        yield seat, action, events


def flatten(prefix: str, value: Any, row: Row) -> None:
    """A result's breakdown as flat columns: nested objects by dotted path, a list by its
    length (the dinosaurs completed), so that every match of a box has the same columns."""
    if isinstance(value, dict):
        for key, part in value.items():
            flatten(f"{prefix}.{key}", part, row)
    elif isinstance(value, list):
        row[prefix] = len(value)
    else:
        row[prefix] = value

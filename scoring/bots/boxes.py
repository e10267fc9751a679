"""Box experiments: a game played as if its box file printed other numbers, for a simulation
that studies balance (`simulate --box FILE.json`).

The engines read their box at import time as well as during play (tables built from the box,
move declarations ranged by it), so setting a few attributes of the box module would leave part
of the game on the old numbers. Instead, `overridden` runs the box file again, statement by
statement, and right after the statement that sets a changed name it merges the change into that
value, so whatever the box itself derives from it (a table by id, say) follows. Then it imports
the game's calculator, engine and bot module again over the changed box and hands back a new
game. On leaving, each of those modules gets back the very objects it held before, so whatever
kept a reference to one (the registry's game, a calculator imported by name) never notices.

A change names box constants (`SET_TABLE`, or `set_table`) and is merged into them: an object
key by key (keys the box does not have are refused), a list of entries with an "id" entry by
entry by id, any other list replaced whole; every value keeps its kind (a whole number stays a
whole number, text stays text). Names that say which game it is (GAME_ID, NAME) cannot change.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from scoring.engine import Game, IllegalAction, play_out

from . import module

FIXED = ("GAME_ID", "NAME")  # what says which game it is


class BoxError(ValueError):
    """A change the box cannot take; `problems` lists each, with the path of the value."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def constants(box: ModuleType) -> dict[str, Any]:
    """The box's data: its upper-case names that are not functions or modules."""
    return {name: value for name, value in vars(box).items()
            if name.isupper() and not callable(value) and not isinstance(value, ModuleType)}


def resolve(box: ModuleType, changes: Any) -> dict[str, Any]:
    """The changes by the box's own names, each checked against the value it changes
    (BoxError lists every problem found)."""
    if not isinstance(changes, dict):
        raise BoxError(["A box file is a JSON object: box constant → the new value."])
    known = constants(box)
    problems: list[str] = []
    resolved = {}
    for key, change in changes.items():
        name = str(key).upper()
        if name in FIXED:
            problems.append(f"{key}: names the game and cannot change.")
        elif name not in known:
            problems.append(f"{key}: the box has no such constant; it has "
                            f"{', '.join(n for n in known if n not in FIXED)}.")
        else:
            resolved[name] = merge(known[name], change, name, problems)
    if problems:
        raise BoxError(problems)
    return resolved


def merge(value: Any, change: Any, path: str, problems: list[str]) -> Any:
    """`value` with `change` merged in (module docstring); a problem is added for each part of
    the change that does not fit."""
    if isinstance(value, dict):
        if not isinstance(change, dict):
            problems.append(f"{path}: expected an object with keys among {', '.join(value)}.")
            return value
        merged = dict(value)
        for key, part in change.items():
            # JSON keys are text; a box may key by number (players → grid size).
            key = next((k for k in value if str(k) == key), key)
            if key not in value:
                problems.append(f"{path}: has no '{key}'; it has {', '.join(map(str, value))}.")
            else:
                merged[key] = merge(value[key], part, f"{path}.{key}", problems)
        return merged
    if isinstance(value, (list, tuple)):
        if not isinstance(change, list):
            problems.append(f"{path}: expected a list.")
            return value
        by_id = {e["id"]: i for i, e in enumerate(value) if isinstance(e, dict) and "id" in e}
        if by_id and len(by_id) == len(value):
            merged = list(value)
            for i, part in enumerate(change):
                if not isinstance(part, dict) or part.get("id") not in by_id:
                    problems.append(f"{path}.{i}: expected an object whose 'id' is one of "
                                    f"{', '.join(by_id)}.")
                    continue
                index = by_id[part["id"]]
                merged[index] = merge(value[index], part, f"{path}.{part['id']}", problems)
        else:
            like = value[0] if value else None
            merged = [part if like is None else merge(like, part, f"{path}.{i}", problems)
                      for i, part in enumerate(change)]
        return tuple(merged) if isinstance(value, tuple) else merged
    if isinstance(value, bool) or value is None:
        fits = isinstance(change, bool) if isinstance(value, bool) else True
    elif isinstance(value, int):
        fits = isinstance(change, int) and not isinstance(change, bool)
    elif isinstance(value, float):
        fits = isinstance(change, (int, float)) and not isinstance(change, bool)
    else:
        fits = isinstance(change, type(value))
    if not fits:
        kind = {bool: "true or false", int: "a whole number", float: "a number",
                str: "text"}.get(type(value), type(value).__name__)
        problems.append(f"{path}: expected {kind}, not {change!r}.")
        return value
    # A dict given where a box keeps one with fixed keys is merged above; here the change
    # replaces a plain value.
    return change


def _run_box(box: ModuleType, changes: dict[str, Any]) -> None:
    """Run the box file again in its module, each changed name taking its new value right
    after the statement that sets it."""
    tree = ast.parse(inspect.getsource(box))
    namespace = vars(box)
    for statement in tree.body:
        exec(compile(ast.Module([statement], []), box.__file__, "exec"), namespace)
        targets = statement.targets if isinstance(statement, ast.Assign) else \
            [statement.target] if isinstance(statement, ast.AnnAssign) else []
        for target in targets:
            if isinstance(target, ast.Name) and target.id in changes:
                namespace[target.id] = changes[target.id]


def _game_modules(game: Game) -> list[ModuleType]:
    """The modules built on the box, in the order they import one another."""
    package = type(game).__module__.rsplit(".", 1)[0]
    return [importlib.import_module(f"{package}.score"),
            importlib.import_module(type(game).__module__),
            module(game)]


@contextmanager
def overridden(game: Game, changes: Any) -> Iterator[Game]:
    """`game` with its box changed (module docstring) until the block ends. BoxError if the
    change does not fit the box, or if the game cannot be played with it."""
    box = game.box
    resolved = resolve(box, changes)
    dependants = _game_modules(game)
    # What every module held, to put back as it was: the very same objects, so whatever kept a
    # reference to one (the registry's game, a calculator imported by name) is untouched.
    saved = {m: dict(vars(m)) for m in (box, *dependants)}
    try:
        _run_box(box, resolved)
        for dependant in dependants:
            importlib.reload(dependant)
        changed = getattr(dependants[1], type(game).__name__)()
        playable(changed)
        yield changed
    finally:
        for m, namespace in saved.items():
            vars(m).clear()
            vars(m).update(namespace)


def playable(game: Game) -> None:
    """One random match at every table, to the end: BoxError where the rules break."""
    for variant, n in game.tables():
        try:
            state, _ = play_out(game, [f"P{i}" for i in range(n)], 1, variant, max_actions=20_000)
            game.result(state)
        except (IllegalAction, LookupError, TypeError, ValueError, ZeroDivisionError,
                RuntimeError) as exc:
            raise BoxError([f"With this box, {game.name} ({variant}, {n} players) cannot be "
                            f"played to its end: {exc}"]) from exc

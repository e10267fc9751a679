"""A game's box as an object (as OpenSpiel's `Game(params)`): the numbers its box file prints,
with a designer's changes merged in, and the tables the rules derive from them, worked out in
one place. A game is built from one (`Game(box)`), so any number of boxes are played side by side
in one process, and none of them touches another or the box file.

Each game's box file states its numbers as module constants, each citing the rulebook or
RULINGS, and defines a `Box` subclass that derives its tables (`derive`), checks that the numbers
make a game (`problems`) and shows the box in the catalogue (`box_data`). Its `DEFAULT` is the
box as printed.

A change names box constants (`SET_TABLE`, or `set_table`) and is merged into them: an object
key by key (keys the box does not have are refused), a list of entries with an "id" entry by
entry by id, a record (a tuple of values of different kinds, as a site's name and treasures)
place by place, any other list replaced whole; every value keeps its kind (a whole number stays
a whole number, text stays text). Names that say which game it is cannot change, and a derived
table is changed through the numbers it follows from.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from types import ModuleType
from typing import Any, ClassVar, TypeVar

T = TypeVar("T")


class BoxError(ValueError):
    """A box the game cannot be played with; `problems` lists each, naming the box constant
    (and the path of the value in it) at fault, what is wrong and what is allowed."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def printed(namespace: dict[str, Any]) -> dict[str, Any]:
    """A box file's numbers: its upper-case names that are not functions, classes or modules."""
    return {name: value for name, value in namespace.items()
            if name.isupper() and not callable(value) and not isinstance(value, ModuleType)}


class Box(ABC):
    """One box of a game: every printed name as an attribute, the derived tables beside them.
    Built once and never changed: the tables a game builds from it stay true."""

    # What says which game it is.
    FIXED: ClassVar[tuple[str, ...]] = ("GAME_ID", "NAME")
    # Derived table → what it follows from, said when a change names it.
    DERIVED: ClassVar[dict[str, str]] = {}

    def __init__(self, numbers: dict[str, Any], changes: Any = None,
                 default: Box | None = None) -> None:
        """`numbers`: the box file's printed names (`printed`); `changes` merged into them
        (module docstring), checked with the whole box (BoxError lists every problem found).
        `default`: the box as printed, that `changes` records the difference from."""
        resolved, problems, fitted = self.resolve(numbers, changes or {})
        if problems and not fitted:  # a value that does not fit: no box to check beside it
            raise BoxError(problems)
        values = {**numbers, **resolved}
        object.__setattr__(self, "names", tuple(numbers))
        object.__setattr__(self, "_made", {})
        base = default.changes if default is not None else {}
        # The changes from the printed box, as JSON has them: what rebuilds this box elsewhere.
        object.__setattr__(self, "changes", {**base, **{k: jsonable(v)
                                                        for k, v in resolved.items()}})
        for name, value in values.items():
            object.__setattr__(self, name, value)
        for name, value in self.derive(set(self.changes)).items():
            object.__setattr__(self, name, value)
        # a name the box does not have is said with what the other changes make of the box:
        # the rest was told only once that name was put right
        problems += self.problems()
        if problems:
            raise BoxError(problems)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"A box does not change once built; build another ({name}).")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.changes!r})"

    def __reduce__(self) -> tuple:
        return (type(self).of_changes, (self.changes,))

    @classmethod
    def of_changes(cls, changes: dict[str, Any]) -> Box:
        """The game's printed box with `changes`: what a box pickles as."""
        default = cls.printed_box()
        return cls(default.values(), changes, default) if changes else default

    @classmethod
    @abstractmethod
    def printed_box(cls) -> Box:
        """The box as its file prints it (each game's box module names it DEFAULT)."""

    def values(self) -> dict[str, Any]:
        """The printed names with this box's values."""
        return {name: getattr(self, name) for name in self.names}

    def changed(self, changes: Any) -> Box:
        """Another box: this one with `changes` merged in."""
        return type(self)(self.values(), changes, self)

    def made(self, build: Callable[[Box], T]) -> T:
        """What `build` makes of this box, made once: a calculator, say, that every game built
        from the box shares."""
        if build not in self._made:
            self._made[build] = build(self)
        return self._made[build]

    # What each game's box supplies.

    def derive(self, changed: set[str]) -> dict[str, Any]:
        """The derived tables, by name, from the printed names (`changed`: those a change
        set, for a default that follows another number)."""
        return {}

    def tables(self) -> list[tuple[str, int]]:
        """Every (variant, player count) a match can be set up with: each game's box says, by
        variant, the fewest and the most players in VARIANTS."""
        return [(variant, n) for variant, spec in self.VARIANTS.items()
                for n in range(spec["players"][0], spec["players"][1] + 1)]

    def problems(self) -> list[str]:
        """Everything that keeps these numbers from making a game, one sentence each, starting
        with the name at fault."""
        return []

    @abstractmethod
    def box_data(self) -> dict[str, Any]:
        """The box as the catalogue shows it."""

    # The merge.

    def resolve(self, numbers: dict[str, Any], changes: Any
                ) -> tuple[dict[str, Any], list[str], bool]:
        """The changes by the box's own names, each merged into the value it changes; the
        problems found; whether every value merged fitted (the problems, if any, are of names
        alone, and the box of the other changes can be checked beside them)."""
        if not isinstance(changes, dict):
            raise BoxError(["A box is a JSON object: box constant → the new value."])
        problems: list[str] = named_twice(changes)
        fitted = not problems  # a name given twice: which value to check is not known
        resolved = {}
        for key, change in changes.items():
            name = str(key).upper()
            if name in resolved:
                continue  # named twice: said above
            if name in self.FIXED:
                problems.append(f"{key}: names the game and cannot change.")
            elif name in self.DERIVED:
                problems.append(f"{key}: follows from {self.DERIVED[name]}; change that "
                                "instead.")
            elif name not in numbers:
                problems.append(f"{key}: the box has no such constant; it has "
                                f"{', '.join(n for n in numbers if n not in self.FIXED)}.")
            elif nested_past(change, DEEPEST):
                # Said before it is merged: a value hundreds of lists deep (which JSON allows)
                # ran merging and showing it out of Python's stack, a 500 and a traceback.
                problems.append(f"{key}: nested more than {DEEPEST} lists or objects deep; no "
                                "constant of a box is.")
            else:
                said = len(problems)
                resolved[name] = merge(numbers[name], change, name, problems)
                fitted = fitted and len(problems) == said
        return resolved, problems, fitted


# How far a change may take a box's number or list from the printed one. A box is checked by
# playing it (scoring/bots/boxes.py), and then played by a study: a list of forty colours, or a
# bowl worth a million, made a match of tens of thousands of actions, each slower than the
# last, that one request could ask for again and again; a designer's question lies well within.
LARGER, LARGEST_LEAST = 10, 100
LONGER, LONGEST_LEAST = 2, 8


# How deep a change may nest lists and objects: a box's deepest constant is three.
DEEPEST = 8


def nested_past(value: Any, deepest: int) -> bool:
    """Whether `value` nests lists and objects more than `deepest` deep (a list of numbers is
    one), told without recursion, however deep it goes."""
    stack = [(value, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (list, tuple, dict)):
            if depth == deepest:
                return True
            stack.extend((part, depth + 1)
                         for part in (value.values() if isinstance(value, dict) else value))
    return False


def named_twice(changes: dict[str, Any]) -> list[str]:
    """A problem for each constant that changes names twice, in two cases ("HAND_LIMIT" and
    "hand_limit"): which of the two values was meant cannot be told."""
    first: dict[str, str] = {}
    problems = []
    for key in changes:
        name = str(key).upper()
        if name in first:
            problems.append(f"{key}: names {name} again, as {first[name]} does; name each "
                            "constant once.")
        first.setdefault(name, str(key))
    return problems


def by_name(changes: dict[str, Any]) -> dict[str, Any]:
    """Changes by the box's own names (upper case), for those that name each constant once."""
    return {str(key).upper(): value for key, value in changes.items()}


def merge(value: Any, change: Any, path: str, problems: list[str]) -> Any:
    """`value` with `change` merged in (module docstring); a problem is added for each part of
    the change that does not fit."""
    if isinstance(value, dict):
        if not isinstance(change, dict):
            problems.append(f"{path}: expected an object with keys among "
                            f"{', '.join(map(str, value))}.")
            return value
        merged = dict(value)
        for key, part in change.items():
            # JSON keys are text; a box may key by number (players → grid size).
            key = next((k for k in value if str(k) == str(key)), key)
            if key not in value:
                problems.append(f"{path}: has no '{key}'; it has {', '.join(map(str, value))}.")
            else:
                merged[key] = merge(value[key], part, f"{path}.{key}", problems)
        return merged
    if isinstance(value, (list, tuple)):
        if not isinstance(change, (list, tuple)):
            problems.append(f"{path}: expected a list, not {shown(change)}.")
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
        elif record(value):
            if len(change) != len(value):
                problems.append(f"{path}: expected a list of {len(value)}, as "
                                f"{shown(value)}.")
                return value
            merged = [merge(v, part, f"{path}.{i}", problems)
                      for i, (v, part) in enumerate(zip(value, change, strict=True))]
        else:
            longest = max(LONGER * len(value), LONGEST_LEAST)
            if len(change) > longest:
                why = (f"{LONGER} times the printed box's {len(value)}"
                       if longest > LONGEST_LEAST else f"any list may hold {LONGEST_LEAST}")
                problems.append(f"{path}: at most {longest} entries ({why}), not {len(change)}.")
                return value
            # each entry is held to the printed one in its place (past the printed list's end,
            # to its last): the gold table's 200 ₩ at ten tiles is held to 200, not to the 3 of
            # its first entry
            merged = [merge(value[min(i, len(value) - 1)], part, f"{path}.{i}", problems)
                      if value else part for i, part in enumerate(change)]
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
        problems.append(f"{path}: expected {kind}, not {shown(change)}.")
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        largest = max(LARGER * abs(value), LARGEST_LEAST)
        if abs(change) > largest:
            why = (f"{LARGER} times the printed box's {value}" if largest > LARGEST_LEAST
                   else f"any number may reach {LARGEST_LEAST}")
            bound = f"at most {largest}" if change > 0 else f"at least {-largest}"
            problems.append(f"{path}: {bound} ({why}), not {shown(change)}.")
            return value
    # A dict given where a box keeps one with fixed keys is merged above; here the change
    # replaces a plain value.
    return change


def record(value: Any) -> bool:
    """A tuple whose places hold values of different kinds (a site's name and its treasures):
    its places are merged one by one, where a list of like values is replaced whole."""
    return isinstance(value, tuple) and len({kind(v) for v in value}) > 1


def kind(value: Any) -> type:
    return int if isinstance(value, int) and not isinstance(value, bool) else type(value)


SHOWN_LENGTH = 120  # the most of a value a message repeats: a 309-digit number is told by its size


def shown(value: Any) -> str:
    """A value as the JSON it came in (null, true, "two"), for a message: a box change is
    written in JSON, over HTTP and in `simulate --box`'s file alike. A huge whole number is
    written as its size ("1e+308"), and a long value by its start and end."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 15:
        return f"{value:.3g}"
    try:
        text = json.dumps(jsonable(value), ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > SHOWN_LENGTH:
        half = SHOWN_LENGTH // 2 - 1
        text = f"{text[:half]}…{text[-half:]}"
    return text


def jsonable(value: Any) -> Any:
    """A box value as JSON has it: tuples as lists, keys as text."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value

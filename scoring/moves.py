"""Declared moves: a move as data (its name, its fields with their types and ranges, the fields
the other seats may not see), and the one check of an action against its declaration, worded the
same for every game. As boardgame.io's `moves` object: a game lists its moves once, and the
engine, the API's action schemas and the log's public form all read them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from inspect import getdoc
from typing import Any

Action = dict[str, Any]


def article(name: str) -> str:
    """"A" or "An", as an action's type is said: "An 'end_turn' action", "A 'move' action"."""
    return "An" if name[:1].lower() in "aeiou" else "A"


class IllegalAction(ValueError):
    """The action cannot be taken now; the message says why in a player's words. `field` names
    the action's field at fault, when one is."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class NotYourTurn(IllegalAction):
    """The seat may not act now (HTTP 403 rather than 422)."""


@dataclass(frozen=True)
class Field:
    """One field of a move: a whole number from `low` to `high`, one of `choices`, or (`many`
    above 0) a list of 1 to `many` different whole numbers from `low` to `high`."""

    name: str
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] | None = None
    required: bool = True
    description: str = ""
    many: int = 0

    def accepts(self, value: Any) -> bool:
        if self.choices is not None:
            return isinstance(value, str) and value in self.choices
        if self.many:
            # The numbers are checked before the set is built: a list may hold anything.
            return (type(value) is list and 0 < len(value) <= self.many
                    and all(type(v) is int and self.low <= v <= self.high for v in value)
                    and len(set(value)) == len(value))
        return type(value) is int and self.low <= value <= self.high

    def expects(self) -> str:
        if self.choices is not None:
            return f"one of {', '.join(self.choices)}"
        if self.many:
            return (f"a list of 1 to {self.many} different whole numbers from {self.low} "
                    f"to {self.high}")
        return f"a whole number from {self.low} to {self.high}"


def _as_declared(field: Field) -> Field:
    return field


def whole(name: str, low: int, high: int, description: str = "", required: bool = True) -> Field:
    return Field(name, low, high, None, required, description)


def wholes(name: str, low: int, high: int, most: int, description: str = "",
           required: bool = True) -> Field:
    """A pick of several: a list of 1 to `most` different whole numbers from `low` to `high`."""
    return Field(name, low, high, None, required, description, most)


def one_of(name: str, choices: tuple[str, ...] | list[str], description: str = "") -> Field:
    return Field(name, choices=tuple(choices), description=description)


# A field whose range the game's box sets (the most cards a hand holds, say): made per box.
FieldOfBox = Callable[[Any], Field]


@dataclass(frozen=True)
class Move:
    """A move as data: its name, its fields, the fields other seats may not see in the log, what
    it does (the handler's docstring) and the handler that takes it. As a game class declares
    it, a field may be a function of the game's box, made into a field by `for_box`."""

    name: str
    fields: tuple[Field, ...]
    secret: tuple[str, ...]
    description: str
    handler: Callable[..., list]

    def for_box(self, box: Any) -> Move:
        """The move as a game built from `box` takes it: every field ranged by that box."""
        return replace(self, fields=tuple(f if isinstance(f, Field) else f(box)
                                          for f in self.fields))

    def check(self, action: Action, at_table: Callable[[Field], Field] | None = None
              ) -> dict[str, Any]:
        """The action's fields as the handler's arguments, or IllegalAction in one wording per
        kind of mistake, the same for every game. A field's range is the box's widest (the
        action's schema); `at_table` narrows it to the table played, for the refusal's words."""
        args = dict(action)
        del args["type"]
        if not (self.names >= args.keys() >= self.required):
            self._refuse_names(args, at_table or _as_declared)
        for f in self.fields:
            if f.name in args and not f.accepts(args[f.name]):
                expected = (at_table or _as_declared)(f).expects()
                raise IllegalAction(f"In a '{self.name}' action, '{f.name}' is {expected}.",
                                    f.name)
        return args

    @cached_property
    def names(self) -> frozenset[str]:
        return frozenset(f.name for f in self.fields)

    @cached_property
    def required(self) -> frozenset[str]:
        return self.names - {f.name for f in self.fields if not f.required}

    def _refuse_names(self, args: dict[str, Any], at_table: Callable[[Field], Field]) -> None:
        """A field the move does not take, or a required one left out."""
        extra = sorted(str(k) for k in args if k not in self.names)
        if extra:
            takes = ", ".join(f"'{f.name}'" for f in self.fields) or "no other field"
            raise IllegalAction(f"{article(self.name)} '{self.name}' action has no '{extra[0]}'; "
                                f"it takes {takes}.",
                                extra[0])
        for f in self.fields:
            if f.required and f.name not in args:
                raise IllegalAction(f"{article(self.name)} '{self.name}' action needs '{f.name}': "
                                    f"{at_table(f).expects()}.", f.name)

    def public(self, action: Action) -> Action:
        """The action as the other seats see it in the log."""
        return {k: v for k, v in action.items() if k not in self.secret}


def move(name: str, *fields: Field | FieldOfBox, secret: tuple[str, ...] = ()) -> Callable:
    """Declares a game's handler as the move `name` with these fields (each a field, or a
    function of the game's box that makes one). The handler is called as
    handler(state, seat, **fields) once the action has been checked against the declaration."""

    def declare(handler: Callable[..., list]) -> Callable[..., list]:
        handler.move = Move(name, fields, secret, (getdoc(handler) or "").split("\n\n")[0],
                            handler)
        return handler

    return declare

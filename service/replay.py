"""A finished match as it was at any of its versions, for its replay (README "Replaying a
finished match", an operation API.md does not list yet).

Nothing of the past is stored but the log: the game at version N is rebuilt from the match's seed
and the moves of entries 1 … N−1, as the engine promises (the same seed and the same actions give
the same game), and the table (names, bots, seats away) from the table's own entries. The view is
then built by the match service's `view`, whose game part comes from the game's `view`, the one
place secrets are removed: a seat's past view holds what that seat's view held then, and no more.
Only a finished match is replayed: its seed is public by then, and no past view can tell anything
about a game still being played."""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from scoring.engine import FINISHED, Game, IllegalAction, State
from scoring.games import GAMES

from .errors import MATCH_NOT_OVER, Conflict, Gone, NotFound
from .matches import WAITING, MatchService, game_moves, is_table_entry
from .store import Match


def past_view(matches: MatchService, match_id: str, token: str | None,
              version: int) -> dict[str, Any]:
    """What `token`'s seat (None: a spectator) saw of finished match `match_id` at `version`,
    in a view's shape, with nothing left to do in it (`legal_actions` empty, no clock)."""
    match = matches.load(match_id, playable=False)
    seat = matches.seat_of(match, token, required=False)
    if matches.status(match) != FINISHED:
        raise Conflict("The match is still being played: its moves can be replayed once it is "
                       "over.", kind=MATCH_NOT_OVER)
    if not 1 <= version <= match.version:
        raise NotFound(f"This match has versions 1 to {match.version}.")
    log = REPLAYS.log(match, lambda: matches.store.log(match.id, 0, match.version - 1))
    rows = log[:version - 1]  # seq runs 1, 2, 3…: the entries before `version`
    players = table_at(match, log, rows)
    past = replace(match, players=players, version=version, clock=None, deadline=None,
                   rematch=None, state={}, status=WAITING)
    if None not in (p["name"] for p in players):
        game = GAMES[match.game]
        try:
            # Once set up, the names never change: the match's own are the ones it set up with.
            past.state = REPLAYS.state(game, match, game_moves(rows))
        except (IllegalAction, LookupError, TypeError, ValueError):
            raise Gone("This match was played under an earlier version of the rules, which "
                       "today's cannot replay; its log can still be read.", "rules") from None
        past.status = game.status(past.state)
    view = matches.view(past, seat)
    view["legal_actions"] = []  # a past version takes no action
    return view


# A game as kept, in log entries' worth of memory: a DIG game (its yard, hands and knowledge)
# is a few times an entry.
STATE_ENTRIES = 4
SEQS_PER_ENTRY = 128  # the seqs naming the moves that made a game kept, ~8 bytes each


class _Kept:
    """What is kept of one finished match: its whole log once read, and its game after some
    of its moves (moves played → their seqs and the game after them)."""

    __slots__ = ("log", "states")

    def __init__(self) -> None:
        self.log: list[dict[str, Any]] | None = None
        self.states: dict[int, tuple[tuple[int, ...], State]] = {}


class Replays:
    """Finished matches as they were at their versions, kept in this process so that stepping
    through a match costs a few moves a step, not the whole match: for the `matches` matches
    replayed last, the whole log (a finished match's never changes) and the game after every
    `every` moves replayed; and, however long their logs, no more than `entries` log entries in
    all (a match's log may run to LOG_CEILING entries and more, ~1 KB each), a game kept
    counting as STATE_ENTRIES of them: the matches read longest ago are let go first, never the
    one asked for.

    A move is known by its entry's seq. The moves of one version are not always those of the
    version before and one more (an undo takes one back), so a kept state serves a version
    only if the seqs of the moves that made it begin that version's moves."""

    def __init__(self, matches: int = 32, every: int = 16, entries: int = 20_000) -> None:
        self.matches, self.every, self.entries = matches, every, entries
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, _Kept] = OrderedDict()

    def _of(self, match_id: str) -> _Kept:
        """What is kept of the match, the latest asked for (under the lock)."""
        kept = self._kept.get(match_id)
        if kept is None:
            kept = self._kept[match_id] = _Kept()
            while len(self._kept) > self.matches:
                self._kept.popitem(last=False)
        self._kept.move_to_end(match_id)
        return kept

    def log(self, match: Match, read: Callable[[], list[dict[str, Any]]]
            ) -> list[dict[str, Any]]:
        """The whole log of finished `match`, read by `read` the first time it is asked for."""
        with self._lock:
            kept = self._of(match.id)
            if kept.log is not None and len(kept.log) == match.version - 1:
                return kept.log
        log = read()
        with self._lock:
            self._of(match.id).log = log
            self._trim()
        return log

    def _trim(self) -> None:
        """Lets the matches asked for longest ago go until what is kept is within `entries`
        (under the lock)."""
        def weight(kept: _Kept) -> int:  # a game with the seqs of the moves that made it
            return len(kept.log or ()) + sum(STATE_ENTRIES + len(made_by) // SEQS_PER_ENTRY
                                             for made_by, _ in kept.states.values())

        total = sum(weight(kept) for kept in self._kept.values())
        while total > self.entries and len(self._kept) > 1:
            _, gone = self._kept.popitem(last=False)
            total -= weight(gone)

    def state(self, game: Game, match: Match, moves: list[dict[str, Any]]) -> State:
        """The game of `match` after `moves`, the log entries game_moves gives (as
        scoring.engine.replay gives it from their seats and actions)."""
        seqs = tuple(row["seq"] for row in moves)
        start, state = 0, None
        with self._lock:
            states = self._of(match.id).states
            for played in sorted(states, reverse=True):
                made_by, after = states[played]
                if played <= len(seqs) and seqs[played - 1] == made_by[-1] and \
                        seqs[:played] == made_by:
                    start, state = played, copy.deepcopy(after)
                    break
        if state is None:
            state = game.setup(match.names, match.seed, match.variant)
        made: dict[int, tuple[tuple[int, ...], State]] = {}
        for played in range(start, len(moves)):
            row = moves[played]
            game.act(state, row["seat"], dict(row["action"]))
            if (played + 1) % self.every == 0:
                made[played + 1] = (seqs[:played + 1], copy.deepcopy(state))
        if made:
            with self._lock:
                self._of(match.id).states.update(made)
                self._trim()
        return state


REPLAYS = Replays()  # one per process


def table_at(match: Match, log: list[dict[str, Any]],
             rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seats as they were after `rows`, the first entries of the match's whole `log`: who
    sat where, which seats a bot played, which were away (service/matches.py: what each table
    entry changes). The seats as opened come from the match's seats now, less what the log
    says changed them."""
    players = [{"name": p["name"], **({"bot": p["bot"]} if p.get("bot") else {})}
               for p in match.players]
    told = [(event, row) for row in log if is_table_entry(row) for event in row["events"]]
    for seat, player in enumerate(players):
        own = [(event, row) for event, row in told if event.get("seat") == seat]
        first, row = own[0] if own else ({"type": None}, None)
        # A seat first joined, or first given to a bot while open, was open; one whose player
        # first left while the match waited had the name its entry keeps (an entry logged
        # before names were kept says none: the seat shows open). A seat a bot took over
        # was a person's.
        if first["type"] == "joined" or (first["type"] == "taken_over" and took_open(first, row)):
            players[seat] = {"name": None}
        elif first["type"] == "left" and "bot" not in first:
            players[seat] = {"name": first.get("name")}
        elif any(e["type"] in ("taken_over", "left") for e, _ in own):
            player.pop("bot", None)
    standing_in = None  # the seat a bot is playing right after its clock ran out
    for row in rows:
        if row["seat"] != standing_in:
            standing_in = None
        if not is_table_entry(row):
            # A move or an undo of a seat no bot plays is its player's, who is back; the moves
            # played for a seat whose time ran out follow its `timed_out` entry at once.
            if standing_in is None and not players[row["seat"]].get("bot"):
                players[row["seat"]].pop("away", None)
            continue
        for event in row["events"]:
            seat, kind = event["seat"], event["type"]
            player = players[seat]
            if kind == "joined":
                players[seat] = {"name": event["name"]}
            elif kind == "left" and "bot" not in event:  # left while the match waited
                players[seat] = {"name": None}
            elif kind == "taken_over" and took_open(event, row):  # an open seat given to a bot
                players[seat] = {"name": event["name"], "bot": event["bot"]}
            elif kind in ("left", "taken_over"):
                player.update(bot=event["bot"], away=True)
            elif kind == "timed_out":
                player["away"] = True
                standing_in = seat
            elif kind == "token_reissued" and player.pop("away", None):
                player.pop("bot", None)  # a person is back: the bot stands down
    return players


def took_open(event: dict[str, Any], row: dict[str, Any]) -> bool:
    """Whether a `taken_over` event gave a bot an open seat, not a player's. Its entry says so
    (`open`); one logged before it did says it by its `name` (every such entry names the seat)
    and by when: an open seat is given to a bot only while the match waits for players, when
    nobody is to act."""
    if "open" in event:
        return bool(event["open"])
    return "name" in event and not row.get("to_act")

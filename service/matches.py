"""The match service: a match's whole life outside HTTP, as boardgame.io's Master runs one.

It creates matches, seats players, applies actions, plays the bots' turns, upgrades matches
stored under earlier rules, runs the clocks, lets seats leave and hosts manage their table,
lists matches and opens rematches. The HTTP views, the commands and the clock watchers all call
it; it knows nothing of requests. Every change is stored by `_change`: one transaction that
succeeds only if the match is still at the version it was read at, retried where the change
still makes sense on the newer match (a lobby or a simultaneous step), so two workers or app
servers never both apply a change to one version. Every change to the table is a log entry, so
`seq` runs 1, 2, 3… and `version` is 1 + the number of entries (API.md "Seats, hosts and
leaving")."""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from scoring.bots import bots_play, derived_seed
from scoring.bots import names as bot_names
from scoring.engine import FINISHED, Game, IllegalAction, NotYourTurn, log_entry, replay
from scoring.games import GAMES

from . import clocks, streams, webhooks
from .errors import (
    HOST_ONLY,
    ILLEGAL_ACTION,
    LOG_FULL,
    MATCH_NOT_OVER,
    MATCH_NOT_STARTED,
    MATCH_NOT_WAITING,
    MATCH_OVER,
    NAME_TAKEN,
    NOT_YOUR_SEAT,
    NOT_YOUR_TURN,
    SEAT_ALREADY_BOT,
    SEAT_HAS_NO_TOKEN,
    SEAT_IN_USE,
    SEAT_PLAYED_BY_BOT,
    SEAT_TAKEN,
    STALE_VERSION,
    Conflict,
    Forbidden,
    Gone,
    Invalid,
    NotFound,
    Refused,
    Unauthorized,
)
from .notify import Hub
from .offload import count_thinking, stop_counting_thinking, think
from .store import (
    Entry,
    Match,
    StaleVersion,
    Storage,
    derived_token,
    hash_token,
    new_match_id,
    new_token,
)
from .work import refuse_over_limit

MATCH_ID = re.compile(r"[0-9a-f]{32}")
WAITING = "waiting"  # seats are still open: nobody acts yet
SERVER_SEED_BITS = 128  # API.md "Fairness of the deal": too many for anyone to guess or search
# A match's log is kept whole (its replay, its undo, its past views read it): its game's own
# moves end it (the longest of thousands of random DIG matches played ~2,300), but an undo, a
# new token, a join and a leave of a waiting match bring no end nearer, and a script holding
# every seat could log them for ever. Past this many entries, those are refused (LOG_FULL).
LOG_CEILING = 10_000
RETRIES = 8  # a lobby or a simultaneous step moved on meanwhile: look again, this many times
# API.md: a seat that leaves or times out is played by this bot, unless the match names another
STAND_IN_BOT = "greedy"
# How stale a seat's stored last_seen may grow before a view stores it again: presence is
# approximate, and a view that wrote to the database every time would cost a write per look. An
# open event stream stores it as often; a seat seen within CONNECTED_SECONDS is `connected`.
PRESENCE_SECONDS = 30
CONNECTED_SECONDS = 2 * PRESENCE_SECONDS

# A bot handed an open seat with no name is called by what it plays like ("Greedy bot 2"): the
# search bot by what it does, not by its id, as the play page words it.
BOT_CALLED = {"mcts": "Search"}

# Log entries about the table rather than the game (API.md "Seats, hosts and leaving"): action
# type → the event it logs. No game declares a move of these names.
JOIN, LEAVE, TAKE_OVER, TIME_OUT, REISSUE = "join", "leave", "take_over", "time_out", "new_token"
TABLE_EVENTS = {JOIN: "joined", LEAVE: "left", TAKE_OVER: "taken_over", TIME_OUT: "timed_out",
                REISSUE: "token_reissued"}
assert not any(set(TABLE_EVENTS) & set(game.moves) for game in GAMES.values())
# API.md "Undo": a seat takes back its own last move. The service offers it and logs it (the
# engines know nothing of it, so no bot ever chooses it); the state keeps, under UNDO, which
# entry may be taken back and by whom, until any other entry is logged.
UNDO, UNDONE = "undo", "undone"
assert not any(UNDO in game.moves for game in GAMES.values())


def seed_commitment(seed: int) -> str:
    """SHA-256 of the seed's decimal text: shown while the match plays, checked once it ends."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def is_table_entry(row: dict[str, Any]) -> bool:
    return row["action"].get("type") in TABLE_EVENTS


def game_moves(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries of a log that the game replays: neither the table's entries, nor undo
    entries, nor the entries they took back (API.md "Undo": those stay in the log)."""
    undone = {event["seq"] for row in rows if row["action"].get("type") == UNDO
              for event in row["events"] if event.get("type") == UNDONE}
    return [row for row in rows if not is_table_entry(row)
            and row["action"].get("type") != UNDO and row["seq"] not in undone]


def game_history(rows: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """The moves a log replays, as (seat, action) (game_moves)."""
    return [(row["seat"], row["action"]) for row in game_moves(rows)]


def clocked(match: Match, entries: list[Entry]) -> None:
    """Each entry about to be logged keeps the match's clock (as it is once they are) as a view
    shows it to the seats to act after that entry: its streams send it with the entry."""
    if match.clock is None:
        return
    moment = now()
    for entry in entries:
        entry.clock = clocks.shown(match.clock, entry.to_act, moment, unclaimed(match))


def now() -> datetime:
    return datetime.now(UTC)


def unclaimed(match: Match) -> list[int]:
    """A rematch's seats whose players have not claimed them: their clocks wait (timed)."""
    return [seat for seat, player in enumerate(match.players) if player.get("unclaimed")]


def known_bot(game_id: str, bot: str, field: str) -> None:
    """Refuses (422, naming `field`) a bot the game does not have."""
    if bot not in bot_names(game_id):
        raise Invalid(f"There is no bot {bot!r}; choose one of {', '.join(bot_names(game_id))}.",
                      {field: ["Choose one of the game's bots."]})


def stand_in(match: Match) -> str:
    """The bot that plays a seat of `match` whose player left or ran out of time."""
    return match.stand_in_bot or STAND_IN_BOT


@dataclass
class Created:
    match: Match
    tokens: list[str | None]  # by seat: the named people's; None for open and bot seats
    host_token: str | None  # None: a rematch, whose host is its match's, with its token
    webhook_secret: str | None = None  # a new webhook's signing secret, shown once


@dataclass
class Seated:
    match: Match
    seat: int
    token: str


# A finished match's result, worked out once in each worker: every phone at the table reads the
# finished match again and again (for a rematch, every few seconds), and scoring Dig It Up's end
# is most of its view. Its version and its rules' revision name the state it scores.
_RESULTS: OrderedDict[tuple[str, int, Any], dict[str, Any]] = OrderedDict()
RESULTS_KEPT = 256


def result_of(game: Game, match: Match) -> dict[str, Any] | None:
    """`game.result` of the match's state; a finished match's kept (read it, never change it)."""
    if match.status != FINISHED:
        return game.result(match.state)
    key = (match.id, match.version, match.state.get("revision"))
    result = _RESULTS.get(key)
    if result is None:
        result = _RESULTS[key] = game.result(match.state)
        if len(_RESULTS) > RESULTS_KEPT:
            _RESULTS.popitem(last=False)
    return result


def connected(player: dict[str, Any], moment: datetime) -> bool:
    """Whether a seat's player is at the table: a bot the seat was given plays it always; a
    person (or the person a stand-in bot is keeping a seat for) when seen within
    CONNECTED_SECONDS, by a view, an action or an open event stream."""
    if player.get("bot") and not player.get("away"):
        return True
    last = player.get("last_seen")
    return bool(last) and moment - datetime.fromisoformat(last) < timedelta(
        seconds=CONNECTED_SECONDS)


class MatchService:
    def __init__(self, store: Storage | None, hub: Hub | None = None,
                 simulation_limit: int | None = None,
                 same_name: Callable[[str], str] = str,
                 webhook_hosts: tuple[str, ...] = (), thinking: Any = None) -> None:
        self.store = store
        # api/limits.py's Thinking (None: no thinking limit): what the bots think for a seat
        # whose clock ran out, outside any request, counts to the match and to its creator's
        # address, as a request's thinking does.
        self.thinking = thinking
        # The hosts a match's webhook may call (service/webhooks.py).
        self.webhook_hosts = webhook_hosts
        # Hears of every new version stored, here or by any other worker or server, and wakes
        # the live streams waiting on that match.
        self.hub = hub
        # Two names that this makes equal are one player's (README: the names' rules).
        self.same_name = same_name
        # The most bot play a bots-only match may be, played within the request that creates it
        # (service/work.py); None: no limit.
        self.simulation_limit = simulation_limit

    # --- reading ------------------------------------------------------------------------------

    def load(self, match_id: str, playable: bool = True) -> Match:
        """The stored match; `playable`: its state under today's rules (the log needs none)."""
        # An id is 32 hex digits: anything else (a NUL byte, say) is no match, not a query.
        match = self.store.load(match_id) if MATCH_ID.fullmatch(match_id) else None
        if match is None:
            raise self.missing(match_id)
        game = GAMES[match.game]
        if playable and match.status != WAITING and match.state.get("revision") != game.revision:
            self._upgrade(match, game)
        return match

    def missing(self, match_id: str) -> Refused:
        """Why an id has no match: 404 when it never was one, 410 when retention removed it or
        its host cancelled it (its tombstone is looked up only here: a live match costs
        nothing)."""
        expired = self.store.expired(match_id) if MATCH_ID.fullmatch(match_id) else None
        if expired is None:
            return NotFound("There is no match with this id.")
        if expired.cancelled:
            return Gone("This match was cancelled by its host before it began.", "cancelled")
        days = f"{expired.days} day{'' if expired.days == 1 else 's'}"
        if expired.idle:
            return Gone(f"This match expired after {days} without a move and was removed.",
                        "idle")
        return Gone(f"This match ended and was removed after being kept {days}.", "ended")

    def _upgrade(self, match: Match, game: Game) -> None:
        """A match stored under an earlier revision of its game's rules: replayed from its seed
        and its log under today's, or, where today's rules refuse a move it made, gone (its log
        stays)."""
        # The entries of the version read (seqs 1 … version − 1), not one logged since.
        rows = self.store.log(match.id, 0, match.version - 1)
        history = game_history(rows)
        # The last entry, a move, may still be one its seat can take back: replayed apart, to
        # tell (API.md "Undo").
        last = rows[-1] if rows and not is_table_entry(rows[-1]) and \
            rows[-1]["action"].get("type") != UNDO else None
        try:
            state = replay(game, match.names, match.seed, match.variant,
                           history[:-1] if last else history)
            if last is not None:
                simultaneous, rng_before = game.simultaneous(state), state.get("rng")
                events = game.act(state, last["seat"], dict(last["action"]))
                if not (simultaneous or game.status(state) == FINISHED
                        or game.reveals(last["action"], events, rng_before, state)):
                    state[UNDO] = {"seat": last["seat"], "seq": last["seq"]}
        except (IllegalAction, LookupError, TypeError, ValueError):
            raise Gone("This match began under an earlier version of the rules and cannot go "
                       "on under today's; its log can still be read.", "rules") from None
        self.store.upgrade(match, state, game.status(state))
        match.state = state

    def look(self, match_id: str, token: str | None,
             playable: bool = True) -> tuple[Match, int | None]:
        """The match and the seat whose token this is (None: a spectator, without one), who
        is seen looking."""
        match = self.load(match_id, playable)
        seat = self.seat_of(match, token, required=False)
        self.seen(match, seat)
        return match, seat

    @staticmethod
    def token_needed(token: str | None) -> None:
        """Unauthorized when no seat token came: checked before anything else is read."""
        if token is None:
            raise Unauthorized("Acting needs your seat token: 'Authorization: Bearer <token>'.")

    def seat_of(self, match: Match, token: str | None, required: bool) -> int | None:
        """The seat whose token this is; None for a spectator (no token, or the host's, which
        holds no seat) where one may look."""
        if token is None:
            if required:
                self.token_needed(token)
            return None
        seat = match.seat_of(token)
        if seat is None and match.is_host(token):
            if not required:
                return None  # the host looks on as a spectator: it answered 401
            raise Unauthorized("This is the host's token: it manages the table (cancels it, "
                               "hands a seat to a bot, gives a seat a new token) and plays no "
                               "seat. Act with your seat's token.")
        if seat is None:
            raise Unauthorized("This token is not a seat of this match.")
        return seat

    def seated(self, match_id: str, token: str | None) -> None:
        """Refuses where `token` holds no seat of the match, or the match is not there (401,
        404, 410), as acting on it would."""
        self.seat_of(self.load(match_id), token, required=True)

    def hosted(self, match_id: str, token: str | None) -> None:
        """Refuses where `token` is not the host's of the match, or the match is not there."""
        self._host(self.load(match_id), token)

    def status(self, match: Match) -> str:
        return WAITING if match.status == WAITING else GAMES[match.game].status(match.state)

    def to_act(self, match: Match) -> list[int]:
        if match.status in (WAITING, FINISHED):
            return []
        return GAMES[match.game].to_act(match.state)

    def timed(self, match: Match) -> list[int]:
        """The seats to act whose clock runs: all, but a rematch's seat its player has not
        claimed yet (the player may not know of the rematch; a bot played the turns of every
        seat slower to hear of it than its clock)."""
        return [seat for seat in self.to_act(match) if not match.players[seat].get("unclaimed")]

    def view(self, match: Match, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may know of the match, with its legal actions: in
        ViewSchema's shape and order, so that HTTP sends it as it is (api/matches.py)."""
        game = GAMES[match.game]
        waiting = match.status == WAITING
        status = self.status(match)
        to_act = self.to_act(match)
        moment = now()
        legal = (game.legal_actions(match.state, seat)
                 if seat in to_act and not match.players[seat].get("bot") else [])
        if seat is not None and self.can_undo(match, seat):
            legal = [*legal, {"type": UNDO}]
        view = {
            "id": match.id, "game": match.game, "variant": match.variant,
            "version": match.version, "status": status,
            "players": [{"seat": i, "name": p["name"], "bot": p.get("bot"),
                         "away": bool(p.get("away")), "last_seen": p.get("last_seen"),
                         "connected": connected(p, moment),
                         "unclaimed": bool(p.get("unclaimed"))}
                        for i, p in enumerate(match.players)],
            "to_act": to_act, "you": seat,
            "legal_actions": legal,
            "state": None if waiting else game.view(match.state, seat),
            "result": None if waiting else result_of(game, match),
            "seeded": match.seeded,
            # A seed the creator chose may be small enough to find from its hash, and with it
            # every hidden card: its hash waits for the end, as the seed does (API.md commits
            # to the seeds the server draws, 128 bits).
            "seed_sha256": (None if match.seeded and status != FINISHED
                            else seed_commitment(match.seed)),
        }
        if status == FINISHED:
            view["seed"] = match.seed  # API.md: never shown while the match is playing
            view["seed_text"] = str(match.seed)
        view["clock"] = clocks.shown(match.clock, to_act, moment, unclaimed(match))
        view["listed"] = match.listed
        view["rematch"] = match.rematch
        view["stand_in_bot"] = stand_in(match)
        return view

    @staticmethod
    def can_undo(match: Match, seat: int) -> bool:
        """Whether `seat` may take back its last move now (API.md "Undo"): the state names it
        until another entry is logged, and a seat a bot plays (or played, away) takes nothing
        back."""
        if match.status in (WAITING, FINISHED):
            return False
        mark = match.state.get(UNDO)
        player = match.players[seat]
        return (mark is not None and mark["seat"] == seat
                and not player.get("bot") and not player.get("away"))

    def render(self, match: Match, row: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """One log entry as `seat` may know it. The table's own entries hold no secret (a new
        token is never logged), nor does an undo."""
        if is_table_entry(row) or row["action"].get("type") == UNDO:
            entry = {"seq": row["seq"], "seat": row["seat"], "action": row["action"],
                     "events": row["events"]}
        else:
            entry = log_entry(GAMES[match.game], row, seat)
        entry["bot"] = row.get("bot")
        return entry

    def log(self, match: Match, seat: int | None, after: int,
            limit: int) -> tuple[list[dict[str, Any]], int | None]:
        """A page of the log as `seat` may know it, and the `after` of the next page."""
        rows = self.store.log(match.id, after, limit + 1)
        more = len(rows) > limit
        rows = rows[:limit]
        return [self.render(match, row, seat) for row in rows], (rows[-1]["seq"] if more else None)

    def events(self, match: Match, seat: int | None, after: int,
               token: str | None = None,
               left: Callable[[], bool] = lambda: False) -> Iterator[str]:
        """The match's live updates as `seat` (its `token`) may know them, from the entry after
        `after`. A seat's open stream keeps it present (seen at least every PRESENCE_SECONDS),
        and ends at the entry that took its token away (a new token, or the seat left a
        waiting match): what follows is no longer that token's to see. An `after` past the last
        entry (another match's, mistyped) is refused: the stream would have waited for ever.
        `left`: whether the client has closed its connection (streams.events)."""
        if after > match.version - 1:
            raise Conflict(f"This match's log ends at entry {match.version - 1}: there is no "
                           f"entry {after} to go on after. Resume from the last entry you were "
                           "sent, or from 0.", kind=STALE_VERSION)
        last_stored = [time.monotonic()]

        def revoked(row: dict[str, Any]) -> bool:
            if seat is None or row["seat"] != seat or \
                    row["action"].get("type") not in (LEAVE, REISSUE):
                return False
            current = self.store.load(match.id)
            return current is None or current.seat_of(token) != seat

        def alive() -> None:
            if seat is None or time.monotonic() - last_stored[0] < PRESENCE_SECONDS:
                return
            last_stored[0] = time.monotonic()
            current = self.store.load(match.id)
            if current is not None:
                self.seen(current, seat)

        return streams.events(self.hub, self.streamed,
                              lambda row: {"game": match.game, **self.render(match, row, seat)},
                              match.id, after,
                              match.status == FINISHED,
                              gone=lambda: self.store.load(match.id) is None, alive=alive,
                              revoked=revoked, left=left)

    def streamed(self, match_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        """Log entries for the match's streams, each with the clock as it stood when it was
        logged (API.md "Clocks"). An entry that kept none (the match has no clock, or it was
        logged before entries kept theirs) is sent with the match's clock as its view shows it
        now: one read of the match beside the log's, which the streams of the match share
        (streams.SharedReads)."""
        rows = self.store.log(match_id, after, limit)
        if any(row["clock"] is None for row in rows):
            match = self.store.load(match_id)
            clock = None if match is None or match.clock is None else \
                clocks.shown(match.clock, self.to_act(match), now(), unclaimed(match))
            rows = [row if row["clock"] is not None else {**row, "clock": clock} for row in rows]
        return rows

    def _announce(self, match_id: str, version: int, told: bool = False) -> None:
        if self.hub is not None:
            self.hub.announce(match_id, version, told)

    def seen(self, match: Match, seat: int | None) -> None:
        """A seat looked: its presence is stored when the stored one has grown stale."""
        if seat is None:
            return
        last = match.players[seat].get("last_seen")
        moment = now()
        if last and moment - datetime.fromisoformat(last) < timedelta(seconds=PRESENCE_SECONDS):
            return
        match.players = [dict(p) for p in match.players]
        match.players[seat]["last_seen"] = moment.isoformat(timespec="seconds")
        self.store.touch(match)

    def listing(self, game: Game, status: str | None, limit: int,
                after: str | None) -> tuple[list[dict[str, Any]], str | None]:
        """A game's listed matches, newest first (API.md "Listing and rematch")."""
        if after is not None and not MATCH_ID.fullmatch(after):
            raise Invalid("`after` is the id of the last match of the previous page.",
                          {"query.after": ["Send the `next` of the previous page."]})
        found = self.store.listing(game.id, status, limit + 1, after)
        if found is None:
            raise Invalid("`after` names no match this server listed: send the `next` of the "
                          "previous page, or start again from the first page.",
                          {"query.after": ["Send the `next` of the previous page."]})
        page = found[:limit]
        return ([{"id": m.id, "game": m.game, "variant": m.variant, "status": self.status(m),
                  "seats": [{"seat": i, "name": p["name"], "bot": p.get("bot"),
                             "open": p["name"] is None} for i, p in enumerate(m.players)],
                  "clock": m.clock["rule"] if m.clock else None,
                  "created_at": m.created_at.isoformat(), "updated_at": m.updated_at.isoformat()}
                 for m in page], page[-1].id if len(found) > limit else None)

    # --- changing -----------------------------------------------------------------------------

    def _change(self, match_id: str, change: Callable[[Match], list[Entry]],
                retry: Callable[[Match], bool] = lambda match: False) -> Match:
        """Load the match, let `change` alter it (its state, seats, status) and say what to log,
        then store both if nobody stored another version meanwhile. On a lost race the change
        is tried again on the newer match where `retry` (asked of the match as it was read)
        says it still makes sense, else 409. The clock and the seats' presence are kept here,
        for every change alike."""
        for _ in range(RETRIES):
            match = self.load(match_id)
            thinking = self.to_act(match)
            timed = self.timed(match)
            again = retry(match)
            entries = change(match)
            if not entries:
                return match
            # A move may be taken back only until the next entry: whatever is logged now ends
            # the chance of an earlier one, and only an undoable move logged alone (its seq the
            # version it was taken at) opens one.
            mark = match.state.get(UNDO) if match.state else None
            if mark is not None and (mark["seq"] != match.version or len(entries) != 1):
                del match.state[UNDO]
                mark = None
            self._clock(match, timed, entries, opened=mark is not None)
            clocked(match, entries)
            notify = None if self.hub is None else self.hub.notifies_in_commit
            told = webhooks.deliveries(match, entries, match.version, thinking, TABLE_EVENTS)
            try:
                version = self.store.commit(match, entries, notify, told)
            except StaleVersion:
                if again:
                    continue
                raise Conflict("The match moved on while you acted: reload and try again.",
                               kind=STALE_VERSION) from None
            self._announce(match.id, version, told=notify is not None)
            return match
        raise Conflict("The table changed while you acted: reload and try again.",
                       kind=STALE_VERSION)

    def _clock(self, match: Match, thinking: list[int], entries: list[Entry],
               opened: bool) -> None:
        """The clock after `entries` (service/clocks.py); a move taken back puts back the clock
        it was made on, kept while it could be (`opened`: the move logged opens that chance)."""
        to_act = self.timed(match)
        if len(entries) == 1 and entries[0].action.get("type") == UNDO:
            match.clock = clocks.undone(match.clock)
            match.deadline = None if match.clock is None else clocks.deadline(match.clock, to_act)
            return
        acted = {e.seat for e in entries if e.action.get("type") not in TABLE_EVENTS}
        timed_out = frozenset(e.seat for e in entries if e.action.get("type") == TIME_OUT)
        clock, match.deadline = clocks.advance(match.clock, thinking, to_act, now(), acted,
                                               timed_out)
        match.clock = clocks.before_move(clock, match.clock, opened)

    def _bot_turns(self, match: Match, bots: dict[int, str] | None = None,
                   version: int | None = None) -> list[Entry]:
        """The bot seats play (API.md "Bots"): every turn that comes to them, in place, until a
        person is to act or the match ends; what they played, for the log. Each bot draws from
        a seed derived from the match's and the version it starts at, so the same seed and the
        same actions always give the same match."""
        game, state = GAMES[match.game], match.state
        bots = match.bots if bots is None else bots
        if not bots or match.status == WAITING or game.status(state) == FINISHED:
            return []
        start = match.version if version is None else version
        # A search bot thinks for a while: apart, so the worker serves others meanwhile.
        played, match.state = think(bots_play, game.id, state, dict(bots),
                                    derived_seed(match.seed, start))
        match.status = game.status(match.state)
        return [Entry(p.seat, p.action, p.events, p.to_act, bots[p.seat], status=p.status)
                for p in played]

    def _table_entry(self, kind: str, seat: int, match: Match, **details: Any) -> Entry:
        """A change to the table as the log keeps it, with who acts and the match's status as
        they are now."""
        return Entry(seat, {"type": kind}, [{"type": TABLE_EVENTS[kind], "seat": seat, **details}],
                     list(self.to_act(match)), status=self.status(match))

    def seat_everyone(self, match: Match) -> None:
        """Set the match up once every seat has a player; until then it waits, with no state
        (API.md "Lobby")."""
        game = GAMES[match.game]
        try:
            if None in match.names:
                game.check_table(match.variant, len(match.names))
                match.state, match.status = {}, WAITING
                return
            match.state = game.setup(match.names, match.seed, match.variant)
        except IllegalAction as exc:
            raise Invalid(str(exc), {"players": [str(exc)]}) from None
        match.status = game.status(match.state)

    def create(self, game: Game, names: list[str | None], bots: dict[int, str], variant: str,
               seed: int | None = None, listed: bool = False,
               clock: dict[str, Any] | None = None,
               webhook: dict[str, Any] | None = None,
               stand_in_bot: str | None = None, creator: str | None = None,
               host_token_hash: str | None = None,
               unclaimed: frozenset[int] = frozenset()) -> Created:
        """A new match; `names[i]` None is an open seat, `bots` the seats the server plays,
        `stand_in_bot` the one that plays a seat left or timed out (None: STAND_IN_BOT);
        `creator` the client address its time-outs' thinking counts to (None: none);
        `host_token_hash` the host's, where it has one already (a rematch's). A
        match of bots only is played to its end here: a batch of one match. `webhook`:
        {"url", "events"}, given a new secret (a rematch's keeps its match's, secret and all).
        `unclaimed`: a rematch's seats whose players have not claimed them yet (`timed`)."""
        secret = None
        if webhook is not None and "secret" not in webhook:
            refused = webhooks.refusal(webhook["url"], self.webhook_hosts)
            if refused:
                raise Invalid(refused, {"webhook.url": [refused]})
            secret = new_token()
            webhook = webhooks.new_webhook(webhook["url"], webhook["events"], secret)
        if stand_in_bot is not None:
            known_bot(game.id, stand_in_bot, "stand_in_bot")
        if len(bots) == len(names):
            if self.simulation_limit is not None:
                refuse_over_limit(self.simulation_limit, 1, list(bots.values()), game.id)
        tokens = [None if n is None or i in bots else new_token() for i, n in enumerate(names)]
        host_token = None if host_token_hash else new_token()
        players = [{"name": n, "token_hash": t and hash_token(t)}
                   for n, t in zip(names, tokens, strict=True)]
        for seat, bot in bots.items():
            players[seat]["bot"] = bot
        for seat in unclaimed:
            players[seat]["unclaimed"] = True
        chosen = seed is not None
        match = Match(new_match_id(), game.id, variant,
                      seed if chosen else secrets.randbits(SERVER_SEED_BITS), players, {}, 1,
                      WAITING, chosen, host_token_hash or hash_token(host_token), listed,
                      clocks.start(clock, len(names)), webhook=webhook,
                      stand_in_bot=stand_in_bot, creator=creator and creator[:64])
        self.seat_everyone(match)
        entries = self._bot_turns(match, version=1)
        match.version = 1 + len(entries)
        match.clock, match.deadline = clocks.advance(match.clock, [], self.timed(match), now(),
                                                     set())
        clocked(match, entries)
        self.store.create(match, entries,
                          webhooks.deliveries(match, entries, 1, [], TABLE_EVENTS))
        return Created(match, tokens, host_token, secret)

    def join(self, match_id: str, name: str, seat: int | None) -> Seated:
        """A player takes an open seat (the first, or the one asked for) and gets its token;
        the match sets up when the last seat is taken."""
        token = new_token()
        taken: list[int] = []

        def sit(match: Match) -> list[Entry]:
            if seat is not None and not 0 <= seat < len(match.players):
                last = len(match.players) - 1
                raise Invalid(f"This match has seats 0 to {last}.",
                              {"seat": [f"Choose a seat from 0 to {last}."]})
            open_seats = [i for i, n in enumerate(match.names) if n is None]
            chosen = seat if seat is not None else (open_seats[0] if open_seats else None)
            if chosen not in open_seats:
                raise Conflict("That seat is taken: join another open seat."
                               if open_seats and chosen is not None
                               else "Every seat of this match is taken.", kind=SEAT_TAKEN)
            self._name_free(match, name, " If that seat is yours and its link is lost, the "
                                         "host can give you a new one.")
            self._room(match, "nobody joins it")
            match.players = [dict(p) for p in match.players]
            match.players[chosen] = {"name": name, "token_hash": hash_token(token),
                                     "last_seen": now().isoformat(timespec="seconds")}
            self.seat_everyone(match)
            taken[:] = [chosen]
            joined = self._table_entry(JOIN, chosen, match, name=name)
            return [joined, *self._bot_turns(match, version=match.version + 1)]

        match = self._change(match_id, sit, retry=lambda match: True)
        return Seated(match, taken[0], token)

    def act(self, match_id: str, token: str | None, action: dict[str, Any], version: int,
            claimed_seat: int | None = None) -> tuple[Match, int]:
        """`token`'s seat takes `action` on the match as it was at `version` (the one it saw)."""
        acting: list[int] = []

        def take(match: Match) -> list[Entry]:
            seat = self.seat_of(match, token, required=True)
            acting[:] = [seat]
            if claimed_seat is not None and claimed_seat != seat:
                raise Forbidden("You can act only for your own seat.", kind=NOT_YOUR_SEAT)
            if match.status == WAITING:
                missing = match.names.count(None)
                raise Conflict(f"The match is waiting for {missing} more player"
                               f"{'' if missing == 1 else 's'} to join; nobody acts yet.",
                               kind=MATCH_NOT_STARTED)
            if match.status == FINISHED:
                # a state of the table, as leaving or handing a seat over once it is over (409),
                # not an action refused as illegal (it was 422, and a stale version's "reload")
                raise Conflict("The match is over: nobody acts in it any more. A rematch, once "
                               "claimed, is a new match.", kind=MATCH_OVER)
            if match.players[seat].get("bot"):
                raise Forbidden("A bot plays this seat now: it was left or handed over.",
                                kind=SEAT_PLAYED_BY_BOT)
            game = GAMES[match.game]
            # In a simultaneous step another seat's choice changes nothing this seat may do,
            # so a version that others moved on is still the one it acted on (API.md).
            if version != match.version and not (self._together(match, seat)
                                                 and 0 < version < match.version):
                if version < match.version and match.players[seat].get("away") and any(
                        entry["seat"] == seat and entry["action"].get("type") == TIME_OUT
                        for entry in self.store.log(match.id, version - 1,
                                                    match.version - version)):
                    # the seat's time ran out since it looked: the commonest 409 of a timed
                    # match, which said only that the match moved on
                    raise Conflict(f"Your time ran out and a bot played your turn: the match is "
                                   f"at version {match.version}, not {version}. Reload: your "
                                   "next move has your seat back.", kind=STALE_VERSION)
                why = ("it moved on since that version (your own move counts too)"
                       if version < match.version else "it has not reached that version")
                raise Conflict(f"The match is at version {match.version}, not {version}: "
                               f"{why}. Reload and try again.", kind=STALE_VERSION)
            if isinstance(action, dict) and action.get("type") == UNDO:
                return [self._undo(match, seat, action)]
            simultaneous = game.simultaneous(match.state)
            rng_before = match.state.get("rng")
            try:
                events = game.act(match.state, seat, action)
            except NotYourTurn as exc:
                raise Forbidden(str(exc), kind=NOT_YOUR_TURN) from None
            except IllegalAction as exc:
                field = "action" if exc.field is None else f"action.{exc.field}"
                raise Invalid(str(exc), {field: [str(exc)]}, ILLEGAL_ACTION) from None
            match.status = game.status(match.state)
            self._back(match, seat)
            moved = Entry(seat, action, events, list(game.to_act(match.state)),
                          status=match.status)
            answers = self._bot_turns(match, version=match.version + 1)
            # API.md "Undo": the move may be taken back while nothing came to light and nobody
            # else moved; never in a simultaneous step, nor once the match is over.
            # (and while the log has room for the undo: LOG_CEILING)
            if not (answers or simultaneous or match.status == FINISHED
                    or match.version >= LOG_CEILING
                    or game.reveals(action, events, rng_before, match.state)):
                match.state[UNDO] = {"seat": seat, "seq": match.version}
            return [moved, *answers]

        def together(match: Match) -> bool:
            seat = match.seat_of(token) if token else None
            return seat is not None and self._together(match, seat)

        match = self._change(match_id, take, retry=together)
        return match, acting[0]

    def _undo(self, match: Match, seat: int, action: dict[str, Any]) -> Entry:
        """The seat takes back its last move (API.md "Undo"): the match is replayed from its
        seed through its log without that entry, which stays in the log; the undo is logged
        as an entry of its own naming it."""
        if set(action) != {"type"}:
            raise Invalid("An undo is {\"type\": \"undo\"} and nothing else.",
                          {"action": ["Send {\"type\": \"undo\"}."]}, ILLEGAL_ACTION)
        self._room(match, "no move is taken back")
        if not self.can_undo(match, seat):
            text = ("You have no move to take back now: only your own last move, before anything "
                    "was revealed or anyone else moved.")
            raise Invalid(text, {"action.type": [text]}, ILLEGAL_ACTION)
        game = GAMES[match.game]
        taken_back = match.state[UNDO]["seq"]
        # The entries of the version acted on (seqs 1 … version − 1): another worker may have
        # logged more since, and then this change is refused when stored.
        rows = [row for row in self.store.log(match.id, 0, match.version - 1)
                if row["seq"] != taken_back]
        match.state = replay(game, match.names, match.seed, match.variant, game_history(rows))
        match.status = game.status(match.state)
        self._back(match, seat)
        return Entry(seat, {"type": UNDO}, [{"type": UNDONE, "seq": taken_back}],
                     list(game.to_act(match.state)), status=match.status)

    @staticmethod
    def _room(match: Match, refused: str) -> None:
        """LOG_FULL once the match's log holds LOG_CEILING entries, for an entry that brings
        the game no nearer its end (`refused` says which, as the answer words it)."""
        if match.version - 1 >= LOG_CEILING:
            raise Conflict(f"This match has logged {LOG_CEILING:,} entries, as many as a match "
                           f"may: it takes only the game's own moves now, and {refused}.",
                           kind=LOG_FULL)

    def _together(self, match: Match, seat: int) -> bool:
        """The seat acts in a simultaneous step, where others' choices do not change its own."""
        if match.status == WAITING:
            return False
        game = GAMES[match.game]
        return game.simultaneous(match.state) and seat in game.to_act(match.state)

    @staticmethod
    def _back(match: Match, seat: int) -> None:
        """The seat's player acted: it is theirs again (no longer away), and seen now."""
        match.players = [dict(p) for p in match.players]
        match.players[seat].pop("away", None)
        match.players[seat]["last_seen"] = now().isoformat(timespec="seconds")

    # --- leaving and hosting (API.md "Seats, hosts and leaving") -------------------------------

    def leave(self, match_id: str, token: str | None,
              waiting: bool = False) -> tuple[Match, int | None]:
        """The token's seat leaves: a waiting match opens the seat again; a match under way has
        a bot take the seat over until it ends (unless `waiting`: the player asked only to open
        the seat, and the match began meanwhile). Returns the match and the seat whose view it
        is to be seen as: the seat's own, or none (the spectator's) once it is open again."""
        leaving: list[int] = []
        # whether the match waited for players as the leave was asked (as the player saw it)
        waited: list[bool] = [True] if waiting else []

        def go(match: Match) -> list[Entry]:
            seat = self.seat_of(match, token, required=True)
            leaving[:] = [seat]
            waited[:] = waited or [match.status == WAITING]
            if match.status == FINISHED:
                raise Conflict("The match is over: there is nothing to leave.", kind=MATCH_OVER)
            if waited[0] and match.status != WAITING:
                # its last seat was taken as the player left: they meant to open their seat
                # for someone to join, not to have a bot play it to the end
                raise Conflict("The match has begun: your seat is still yours. Leave it "
                               "again to have a bot play it to the end.", kind=STALE_VERSION)
            match.players = [dict(p) for p in match.players]
            if match.status == WAITING:
                self._room(match, "nobody leaves it while it waits (its host may cancel it)")
                name = match.players[seat]["name"]  # kept in the log for the table's replay
                match.players[seat] = {"name": None, "token_hash": None}
                return [self._table_entry(LEAVE, seat, match, name=name)]
            if match.players[seat].get("bot"):
                raise Conflict("A bot already plays this seat.", kind=SEAT_ALREADY_BOT)
            bot = stand_in(match)
            match.players[seat].update(bot=bot, away=True)
            left = self._table_entry(LEAVE, seat, match, bot=bot)
            return [left, *self._bot_turns(match, version=match.version + 1)]

        # A leave sends no version: one that lost a race is made on the match as it now is.
        match = self._change(match_id, go, retry=lambda match: True)
        return match, None if match.status == WAITING else leaving[0]

    def _host(self, match: Match, token: str | None) -> None:
        if token is None:
            raise Unauthorized("This needs the match's host token: "
                               "'Authorization: Bearer <host token>'.")
        if not match.is_host(token):
            if match.seat_of(token) is None:  # no token of this match (API.md: 401 unknown)
                raise Unauthorized("This token is not the host's, nor a seat's, of this match: "
                                   "send the host token from the answer that created the match.")
            raise Forbidden("Only the match's host may do this: send the host token from the "
                            "answer that created the match.", kind=HOST_ONLY)

    def hand_to_bot(self, match_id: str, token: str | None, seat: int,
                    chosen: str | None = None, name: str | None = None) -> Match:
        """The host hands a seat to a bot (`chosen`, else the match's stand-in): a seat a
        player holds, until the match ends, or an open seat of a waiting match, which the bot
        then takes, under `name` (else its kind's: "Greedy bot 2")."""

        def hand(match: Match) -> list[Entry]:
            self._host(match, token)
            self._seat_exists(match, seat)
            bot = stand_in(match) if chosen is None else chosen
            known_bot(match.game, bot, "bot")
            if match.status == FINISHED:
                raise Conflict("The match is over.", kind=MATCH_OVER)
            if match.players[seat].get("bot") and not match.players[seat].get("away"):
                raise Conflict("A bot already plays this seat.", kind=SEAT_ALREADY_BOT)
            if match.players[seat].get("bot") == bot:  # handed to it already: nothing to log
                return []
            if match.players[seat].get("bot"):  # from bot to bot, back and forth, for ever
                self._room(match, "a seat a bot plays is not handed to another")
            match.players = [dict(p) for p in match.players]
            was_open = match.players[seat]["name"] is None
            if name is not None and not was_open:
                raise Invalid("A seat a player holds keeps the player's name: send a name only "
                              "for an open seat.", {"name": ["Leave the name out for a "
                                                             "player's seat."]})
            if name is not None:
                self._name_free(match, name)
            if was_open:
                called = BOT_CALLED.get(bot, bot.title())
                named = name or next(n for n in (f"{called} bot {k}".removesuffix(" 1")
                                                 for k in range(1, 99)) if n not in match.names)
                match.players[seat] = {"name": named, "token_hash": None, "bot": bot}
                self.seat_everyone(match)
            else:
                match.players[seat].update(bot=bot, away=True)
                match.players[seat].pop("unclaimed", None)
            # `open`: whether the bot took an open seat or a player's, which the replay tells
            # apart (service/replay.py); the name is the seat's either way.
            handed = self._table_entry(TAKE_OVER, seat, match, bot=bot,
                                       name=match.players[seat]["name"], open=was_open)
            return [handed, *self._bot_turns(match, version=match.version + 1)]

        return self._change(match_id, hand, retry=lambda match: True)

    def reissue_token(self, match_id: str, token: str | None, seat: int) -> str:
        """The host gives a person's seat a new token; the old one stops working at once."""
        fresh = new_token()

        def reissue(match: Match) -> list[Entry]:
            self._host(match, token)
            self._seat_exists(match, seat)
            if match.status == FINISHED:  # a new token would claim the seat's place in the rematch
                raise Conflict("The match is over: its seats keep their tokens, each its own "
                               "place in the rematch.", kind=MATCH_OVER)
            player = match.players[seat]
            if player["name"] is None or (player.get("bot") and not player.get("away")):
                raise Conflict("Only a person's seat has a token: this one is "
                               f"{'open' if player['name'] is None else 'a bot'}.",
                               kind=SEAT_HAS_NO_TOKEN)
            moment = now()
            if not player.get("bot") and connected(player, moment):
                # its player is here: a new token would give the host its secrets and its moves
                ago = moment - datetime.fromisoformat(player["last_seen"])
                wait = max(1, CONNECTED_SECONDS - int(ago.total_seconds()))
                raise Conflict(f"{player['name']} is at the table (seen {int(ago.total_seconds())}"
                               f" s ago): their seat keeps its link. A new link is for a player "
                               f"who lost theirs; if {player['name']} has, ask again in {wait} s.",
                               kind=SEAT_IN_USE)
            self._room(match, "no seat is given a new token")
            match.players = [dict(p) for p in match.players]
            match.players[seat]["token_hash"] = hash_token(fresh)
            match.players[seat].pop("unclaimed", None)  # its holder may act: its clock runs
            if match.players[seat].pop("away", None):  # a person is back: the bot stands down
                match.players[seat].pop("bot", None)
            return [self._table_entry(REISSUE, seat, match)]

        self._change(match_id, reissue, retry=lambda match: True)
        return fresh

    def cancel(self, match_id: str, token: str | None) -> None:
        """The host cancels a match still waiting for players: it answers 410 from then on."""
        for _ in range(RETRIES):
            match = self.load(match_id)
            self._host(match, token)
            if match.status != WAITING:
                raise Conflict("Only a match still waiting for players can be cancelled.",
                               kind=MATCH_NOT_WAITING)
            try:
                self.store.cancel(match)
            except StaleVersion:
                continue
            self._announce(match.id, match.version + 1)
            return
        raise Conflict("The table changed meanwhile: reload and try again.", kind=STALE_VERSION)

    def _name_free(self, match: Match, name: str, hint: str = "") -> None:
        """NAME_TAKEN unless `name` is nobody's at the table (as names are compared)."""
        key = self.same_name(name)
        taken = next((n for n in match.names if n and self.same_name(n) == key), None)
        if taken is not None:  # said as the table shows it: "ann" joining finds Ann there
            raise Invalid(f"{taken} is already at this table; choose another name.{hint}",
                          {"name": ["This name is already at the table."]}, NAME_TAKEN)

    @staticmethod
    def _seat_exists(match: Match, seat: int) -> None:
        if not 0 <= seat < len(match.players):
            raise NotFound(f"This match has seats 0 to {len(match.players) - 1}.")

    # --- clocks (API.md "Clocks") --------------------------------------------------------------

    def expire_due(self, limit: int = 50) -> int:
        """Apply every clock that has run out: a bot plays each late seat's turn, logged with a
        `timed_out` entry, and the seat is marked away. Any number of watchers may run this at
        once, on any number of servers: each expiry is stored against the version it ran out
        at, so exactly one of them is applied. Returns how many matches moved."""
        moved = 0
        for match_id in self.store.due(now(), limit):
            try:
                if self._expire(match_id):
                    moved += 1
            except Refused:
                continue  # gone, or moved on meanwhile: another watcher or a player got there
        return moved

    def _expire(self, match_id: str) -> bool:
        expired: list[int] = []
        keys: list[tuple[str, str]] = [("match", match_id)]

        def time_out(match: Match) -> list[Entry]:
            late = clocks.out_of_time(match.clock, self.timed(match), now())
            if not late:
                return []  # a player acted in time after all: nothing to do
            if match.creator:
                keys[1:] = [("address", match.creator)]
            entries: list[Entry] = []
            match.players = [dict(p) for p in match.players]
            for seat in late:
                if seat not in self.to_act(match):
                    continue  # its turn was played meanwhile (by a bot, in this loop)
                match.players[seat]["away"] = True
                version = match.version + len(entries)
                bot = stand_in(match)
                if self.thinking is not None and self.thinking.wait(*keys) is not None:
                    # The turn must be played all the same: by the cheap bot while the match's
                    # or its creator's thinking budget is spent.
                    bot = STAND_IN_BOT
                entries.append(self._table_entry(TIME_OUT, seat, match, bot=bot))
                entries += self._bot_turns(match, {seat: bot}, version + 1)
            expired[:] = late
            return [*entries, *self._bot_turns(match, version=match.version + len(entries) + 1)]

        thought = count_thinking(lambda: None)  # never refused: a clock must move on
        try:
            self._change(match_id, time_out)
        finally:
            stop_counting_thinking()
            if self.thinking is not None:
                self.thinking.spend(thought[0], *keys)
        return bool(expired)

    # --- rematch (API.md "Listing and rematch") ------------------------------------------------

    def rematch(self, match_id: str, token: str | None,
                seated: Callable[[], None] = lambda: None) -> tuple[Seated, bool]:
        """A seat of a finished match claims its seat in the rematch: the first claim opens it
        (same players, seats rotated by one, bots kept, a new deal), each later one joins it.
        `seated()` is told once the claim is known to be a seat's, of a match over (it may
        refuse: the address's budget of new matches). Returns the seat, its new token, and
        whether this claim opened the match."""
        match = self.load(match_id)
        seat = self.seat_of(match, token, required=True)
        if self.status(match) != FINISHED:
            raise Conflict("A rematch can be claimed once the match is over.", kind=MATCH_NOT_OVER)
        seated()
        opened = False
        if match.rematch is None:
            rotated = match.players[1:] + match.players[:1]
            game = GAMES[match.game]
            rule = match.clock["rule"] if match.clock else None
            created = self.create(game, [p["name"] for p in rotated],
                                  {i: p["bot"] for i, p in enumerate(rotated)
                                   if p.get("bot") and not p.get("away")},
                                  match.variant, listed=match.listed, clock=rule,
                                  webhook=match.webhook, stand_in_bot=match.stand_in_bot,
                                  creator=match.creator,
                                  # its host is the match's: a seat whose player does not come
                                  # back can be handed to a bot, as in any match
                                  host_token_hash=match.host_token_hash,
                                  unclaimed=frozenset(i for i, p in enumerate(rotated)
                                                      if not p.get("bot") or p.get("away")))
            opened = self.store.claim_rematch(match, created.match.id)
            if not opened:  # another seat opened one at the same moment: theirs is the rematch
                self.store.cancel(created.match)
            match = self.store.load(match_id)
        new_seat = (seat - 1) % len(match.players)
        # The seat's token in the rematch follows from its token here: claimed again (a lost
        # answer asked again, a second phone), it is the same, and the first still works.
        fresh = derived_token(token, f"rematch {match.rematch}")

        def claim(rematch: Match) -> list[Entry]:
            player = rematch.players[new_seat]
            if player.get("bot"):
                raise Conflict("A bot plays that seat in the rematch.", kind=SEAT_ALREADY_BOT)
            if player.get("token_hash") == hash_token(fresh):
                return []  # claimed already: nothing changes
            if not player.get("unclaimed"):
                # the host gave the seat a new link since (or before) it was claimed: the old
                # match's token took it back, and the new one stopped working
                raise Conflict("The host gave this seat of the rematch a new link: ask the host "
                               "for it.", kind=SEAT_TAKEN)
            rematch.players = [dict(p) for p in rematch.players]
            rematch.players[new_seat]["token_hash"] = hash_token(fresh)
            rematch.players[new_seat].pop("unclaimed", None)  # its clock runs from now
            # its player is here: seen now (the others' phones said "offline" for half a minute)
            rematch.players[new_seat]["last_seen"] = now().isoformat(timespec="seconds")
            # its player's own claim, not a host's new token: said so (`claimed`)
            return [self._table_entry(REISSUE, new_seat, rematch, claimed=True)]

        rematch = self._change(match.rematch, claim, retry=lambda rematch: True)
        return Seated(rematch, new_seat, fresh), opened

"""Studies over HTTP (API.md "Studies (simulation jobs)"): the request that starts one, the study
as it goes, and its statistics once done (studies/metrics.py's summary)."""

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from scoring.bots import module, names
from scoring.engine import Game
from service.studies import SHORTEST_UNWATCHED_SECONDS, STATUSES
from studies.study import TWO_TO_COMPARE

from .common import List, Sent, Strict
from .matches import seed_field, variant_field
from .simulations import ShareSchema, example_bots

MAX_MATCHES = 1_000_000  # what the field takes; the server's work limit is checked apart
MAX_COMPARED = 8  # arms beside the first
MAX_PLAYOUTS = 100_000  # a search seat's playouts a move (the study's bot time caps the rest)
# From the shortest an open stream keeps followed (service/studies.py) to a day.
UNWATCHED_SECONDS = (SHORTEST_UNWATCHED_SECONDS, 86_400)
BOX = {"type": "object", "additionalProperties": True}


def study_request_schema(game: Game) -> type[ma.Schema]:
    """The request that starts a study of one game: its bots, variants and table sizes."""
    low, high = game.players
    bots = names(game.id)
    constants = [name for name in game.box.names if name not in type(game.box).FIXED]
    own_playouts = module(game).SEARCH.playouts  # the search bot's own budget

    def seats(description: str, example: list[str] | None = None, **kwargs: Any) -> List:
        return List(
            fields.String(validate=validate.OneOf(
                bots, error="Choose one of: " + ", ".join(bots) + "."), metadata={"enum": bots},
                # a simulation's seats are {"name", "bot"}: a study's are the bots' names alone
                error_messages=dict.fromkeys(("invalid", "null"), (
                    "A study's seat is its bot's name alone, as text: one of "
                    + ", ".join(bots) + "."))),
            validate=validate.Length(low, high, error=f"Enter from {low} to {high} players."),
            metadata={"description": description, "example": example or example_bots(game)},
            **kwargs)

    def playouts_field(description: str) -> fields.Integer:
        return fields.Integer(
            strict=True, validate=validate.Range(
                1, MAX_PLAYOUTS, error=f"Enter a whole number of playouts from 1 to "
                                       f"{MAX_PLAYOUTS}."),
            # no example: built into "Try it out"'s body beside the example's bots, which do
            # not search, it would be refused (the operation's examples show it, api/studies.py)
            metadata={"description": description})

    def box_field(description: str) -> fields.Dict:
        return fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True), metadata={
            "description": description, **BOX,
            # the game's own (what the docs page's "Try it out" sends is played, not refused)
            **({"example": game.box_example} if game.box_example else {})})

    class CompareArm(Strict):
        # The example's seats swapped: an arm the same as the first is refused.
        players = seats("This arm's bot in each seat (as many seats as the first arm)",
                        example=example_bots(game)[::-1])
        variant = variant_field(game, "This arm's variant", load_default=False)
        playouts = playouts_field("This arm's search budget: the mcts bot's playouts a "
                                  "move, for every mcts seat of the arm (as `simulate "
                                  "--compare playouts=N`). Left out, the first arm's")
        box = box_field("Box constants this arm changes, over the first arm's box")

        @ma.validates_schema
        def changes_something(self, data: dict[str, Any], **kwargs: Any) -> None:
            if not data:
                raise ma.ValidationError("Say what this arm changes: its players, variant, "
                                         "playouts or box.")

    CompareArm.__name__ = f"{game.prefix}CompareArmSchema"

    class StudyRequest(Strict):
        matches = fields.Integer(
            required=True, strict=True,
            validate=validate.Range(1, MAX_MATCHES,
                                    error=f"Enter a whole number from 1 to {MAX_MATCHES}."),
            metadata={"description": "How many matches each arm plays (the server limits a "
                                     "study's work: matches × players × arms, a search seat "
                                     "counting more)"})
        players = seats("The bot in each seat, in seat order", required=True, error_messages={
            "required": "List the seats' bots, e.g. [\"greedy\", \"random\"]."})
        variant = variant_field(game)
        playouts = playouts_field(f"The search budget: the mcts bot's playouts a move, for "
                                  f"every mcts seat (as `simulate --playouts`). Left out, the "
                                  f"game's own ({own_playouts}). Playouts, not time: "
                                  f"a study plays the same on any machine")
        seed = seed_field("The study's seed: match i of every arm is dealt from it and i. Left "
                          "out, the server draws one (it is in the answer).")
        box = box_field(f"{game.name}'s box constants to change for the study, by name in "
                        f"either case: {', '.join(constants)}. Merged into the box's own values "
                        "(GET the game shows the box, most of them under the same names in "
                        "lower case); refused, naming each constant at fault and what it "
                        "takes, when the game cannot be played with them")
        compare = List(
            fields.Nested(CompareArm),
            validate=validate.Length(1, MAX_COMPARED,
                                     error=f"Compare from 1 to {MAX_COMPARED} arms."),
            metadata={"description": "More arms, each played on the same deals as the first "
                                     "and reported with its difference from it"})
        rotate_seats = fields.Boolean(load_default=False, metadata={
            "description": "Move each bot one seat on from match to match (match i seats bot k "
                           "of each arm's list at seat k − i, modulo the seats), so that every "
                           "bot plays every seat, as often where the matches are a multiple "
                           "of the seats: the summary then tells each seat's advantage "
                           "(`seats`) and each bot's strength (`bots`) apart, where a fixed "
                           "seating mixes the two"})
        cancel_unwatched_after = fields.Integer(
            strict=True, validate=validate.Range(
                *UNWATCHED_SECONDS, error=f"Enter a whole number of seconds from "
                                          f"{UNWATCHED_SECONDS[0]} to {UNWATCHED_SECONDS[1]}."),
            metadata={"description": "Cancel the study once nobody has followed it (its event "
                                     "stream open, a look at it or its records) for this many "
                                     "seconds. Left out, it is played to its end whoever "
                                     "follows it"})

        @ma.validates_schema
        def _two_to_compare(self, data, **_kwargs):
            if data.get("compare") and data.get("matches", 2) < 2:
                raise ma.ValidationError(TWO_TO_COMPARE, field_name="matches")

    StudyRequest.__name__ = f"{game.prefix}StudyRequestSchema"
    return StudyRequest


class StudyProgressSchema(Sent):
    done = fields.Integer(metadata={"description": "Matches played (of every arm)"})
    total = fields.Integer(metadata={"description": "Matches to play"})


class BotTimeSchema(Sent):
    seconds = fields.Float(metadata={"description": "CPU seconds the study's bots have "
                                                    "thought so far"})
    limit = fields.Float(metadata={"description": "The most they may: beyond it the study "
                                                  "fails, keeping its records"})


class StudyArmSchema(Sent):
    label = fields.String(metadata={"description": "`base` for the first arm; what a "
                                                   "compared arm changes, as `simulate "
                                                   "--compare` writes it"})
    variant = fields.String()
    players = fields.List(fields.String(), metadata={"description": "The bot in each seat"})
    box = fields.Dict(allow_none=True, metadata={"description": "Box constants changed "
                                                                "(null: the printed box)"})
    budget = fields.Dict(allow_none=True, metadata={
        "description": "What the search bot (`mcts`) thinks with in this arm, as it plays: "
                       "`{\"playouts\": N}`, the game's own where the study gave none (null: no "
                       "seat of the arm searches)",
        "example": {"playouts": 60}})


class StudySpreadSchema(Sent):
    """A figure's spread over the matches: mean, sample deviation, extremes and percentiles."""

    mean = fields.Float()
    stdev = fields.Float()
    min = fields.Float()
    max = fields.Float()
    p10 = fields.Float()
    p25 = fields.Float()
    p50 = fields.Float()
    p75 = fields.Float()
    p90 = fields.Float()


class StudySeatSchema(Sent):
    seat = fields.Integer()
    name = fields.String(metadata={"description": "The seat's name as a simulation names it: "
                                                  "its bot and the seat counted from 1 "
                                                  "(\"greedy 2\"); where the seats rotate, "
                                                  "the seat alone, from 0 as `seat` counts "
                                                  "(\"seat 1\")"})
    bot = fields.String(allow_none=True, metadata={
        "description": "The seat's bot (null where the seats rotate: it held each in turn)"})
    wins = fields.Integer(metadata={"description": "Matches this seat won alone"})
    shared_wins = fields.Integer(metadata={"description": "Matches whose win it shared"})
    win_share = fields.Nested(ShareSchema)
    score = fields.Nested(StudySpreadSchema)


class StudyBotSchema(Sent):
    """One of an arm's bots in a study that rotates its seats, whichever seat it sat in."""

    bot_index = fields.Integer(metadata={"description": "Its place in the arm's `players`, "
                                                        "from 0"})
    name = fields.String(metadata={"description": "Its place in the list, from 0, and its "
                                                  "bot (\"bot 1 (greedy)\")"})
    bot = fields.String()
    wins = fields.Integer(metadata={"description": "Matches this bot won alone"})
    shared_wins = fields.Integer(metadata={"description": "Matches whose win it shared"})
    win_share = fields.Nested(ShareSchema)
    score = fields.Nested(StudySpreadSchema)


class EqualSharesSchema(Sent):
    """A chi-square test of the seats' win shares against equal shares."""

    chi_square = fields.Float()
    df = fields.Integer(metadata={"description": "Degrees of freedom"})
    p_value = fields.Float(metadata={"description": "Small: the seats are not equally likely "
                                                    "to win"})


class TiesSchema(Sent):
    matches = fields.Integer(metadata={"description": "Matches won by more than one seat"})
    rate = fields.Float()


class MissionStatisticsSchema(Sent):
    mission = fields.String()
    held = fields.Integer(metadata={"description": "Seats that held it"})
    achieved = fields.Float(metadata={"description": "Share of its holders who achieved it"})
    win_share = fields.Float(metadata={"description": "Its holders' share of the wins"})


class ArmStatisticsSchema(Sent):
    class Meta:
        sometimes = ("box", "bots", "equal_bot_shares")

    arm = fields.Integer(metadata={"description": "The arm's number, 0 for the first"})
    label = fields.String()
    variant = fields.String()
    box = fields.Dict(metadata={"description": "The box constants the arm changes (absent: "
                                               "the printed box)"})
    matches = fields.Integer()
    seats = fields.List(fields.Nested(StudySeatSchema))
    equal_shares = fields.Nested(EqualSharesSchema)
    ties = fields.Nested(TiesSchema)
    margin = fields.Nested(StudySpreadSchema, metadata={"description": "The winner's lead"})
    length = fields.Nested(StudySpreadSchema, metadata={"description": "Actions per match"})
    figures = fields.Dict(keys=fields.String(), values=fields.Float(), metadata={
        "description": "The game's own figures, each a mean per match"})
    missions = fields.List(fields.Nested(MissionStatisticsSchema), metadata={
        "description": "How each secret mission does (Dig It Up; empty otherwise)"})
    bots = fields.List(fields.Nested(StudyBotSchema), metadata={
        "description": "Where the seats rotate: each of the arm's bots, whichever seat it sat "
                       "in (absent otherwise: each bot kept its seat)"})
    equal_bot_shares = fields.Nested(EqualSharesSchema, metadata={
        "description": "Where the seats rotate: the test of the bots' win shares against "
                       "equal shares (small p: the bots are not equally strong)"})


class DifferenceSchema(Sent):
    """A mean difference from the first arm, paired match by match, with its 95% interval:
    Student's t; where every match gave the same difference, the reach of the share of matches
    that could still differ (at most 1 − 0.025^(1/n) of them, toward each bound)."""

    difference = fields.Float()
    low = fields.Float(allow_none=True, metadata={
        "description": "null: no interval, from one match, or from matches that all gave the "
                       "same score difference (a score difference has no bounds)"})
    high = fields.Float(allow_none=True, metadata={
        "description": "null: no interval, from one match, or from matches that all gave the "
                       "same score difference (a score difference has no bounds)"})


class SeatDifferenceSchema(Sent):
    seat = fields.Integer()
    win_share = fields.Nested(DifferenceSchema)
    score = fields.Nested(DifferenceSchema)


class BotDifferenceSchema(Sent):
    bot_index = fields.Integer(metadata={"description": "The place in each arm's `players`"})
    win_share = fields.Nested(DifferenceSchema)
    score = fields.Nested(DifferenceSchema)


class ArmDifferenceSchema(Sent):
    class Meta:
        sometimes = ("bots",)

    arm = fields.Integer()
    label = fields.String()
    against = fields.String(metadata={"description": "The first arm's label"})
    matches = fields.Integer()
    seats = fields.List(fields.Nested(SeatDifferenceSchema))
    bots = fields.List(fields.Nested(BotDifferenceSchema), metadata={
        "description": "Where the seats rotate: the difference of each place of the arms' "
                       "bots (absent otherwise)"})


class StudySummarySchema(Sent):
    matches = fields.Integer()
    arms = fields.List(fields.Nested(ArmStatisticsSchema))
    differences = fields.List(fields.Nested(ArmDifferenceSchema), metadata={
        "description": "Each arm after the first against the first, on the same deals"})


class StudySchema(Sent):
    class Meta:
        sometimes = ("summary",)

    id = fields.String(metadata={"description": "The study's id (its address: "
                                                "/api/v1/studies/{id})"})
    game = fields.String()
    status = fields.String(metadata={"enum": list(STATUSES)})
    progress = fields.Nested(StudyProgressSchema)
    bot_time = fields.Nested(BotTimeSchema)
    waiting_until = fields.String(allow_none=True, metadata={
        "format": "date-time",
        "description": "While the study is set aside, queued (its creator's address has used "
                       "its bots' thinking budget, or the Dask cluster that plays studies "
                       "cannot now): when it is taken up again (null otherwise)"})
    error = fields.String(allow_none=True, metadata={
        "description": "Why the study was cancelled or failed, or why it waits (its "
                       "creator's thinking budget, the Dask cluster), in words (null "
                       "otherwise)"})
    seed = fields.Integer()
    seed_text = fields.String(metadata={"description": "`seed` as decimal text",
                                        "pattern": "^[0-9]+$"})
    matches = fields.Integer(metadata={"description": "Matches each arm plays"})
    rotate_seats = fields.Boolean(metadata={"description": "Whether each bot moves one seat on "
                                                           "from match to match"})
    arms = fields.List(fields.Nested(StudyArmSchema))
    cancel_unwatched_after = fields.Integer(allow_none=True, metadata={
        "description": "Seconds without a follower after which it is cancelled (null: played "
                       "to its end)"})
    created_at = fields.String(metadata={"format": "date-time"})
    updated_at = fields.String(metadata={"format": "date-time"})
    summary = fields.Nested(StudySummarySchema, metadata={
        "description": "Once done: every arm's statistics and each arm's difference from the "
                       "first; a study cancelled or failed after some matches has those of "
                       "the matches played (`progress.done`)"})


class StudyCreatedSchema(StudySchema):
    token = fields.String(metadata={
        "description": "The creator's secret token, shown only here: send it to cancel the "
                       "study"})

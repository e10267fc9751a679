"""Scoresheets that are well-formed JSON but cannot be scored: each a 422 problem that names the
field (issue 2 "Validation"), and the edge values that must still be accepted."""

import copy

import pytest

from tests.api.problem import BOWLS, assert_problem, score_url

# The module's hundreds of requests are each refused or only scored.
pytestmark = pytest.mark.shared_app


def with_player(**fields) -> dict:
    return {"players": [{"name": "Ann", **fields}]}


def dig(*players: dict, bowls: list = BOWLS) -> dict:
    return {"bowls": bowls, "players": list(players)}


def dinos(**tiles) -> dict:
    return with_player(tiles=tiles)


NOT_COUNTS = [-1, 1.5, 2.5, "3", True, False, None, [1], {"n": 1}]


# --- counts --------------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [*NOT_COUNTS, 100, 10**6])
def test_tile_count_must_be_a_whole_number_from_0_to_99(client, value):
    response = client.post(score_url("dig-it-up"), json=with_player(tiles={"gold": value}))
    body = assert_problem(response, 422, "players.0.tiles.gold")
    assert body["errors"]["players.0.tiles.gold"] == ["Enter a whole number from 0 to 99."]
    assert "players.0.tiles.gold" in body["detail"]


@pytest.mark.parametrize("value", [*NOT_COUNTS, 100])
def test_card_count_must_be_a_whole_number(client, value):
    response = client.post(score_url("dig-it-up"), json=with_player(cards={"appraisal": value}))
    assert_problem(response, 422, "players.0.cards.appraisal")


# JSON Schema's integer, as the document types every count: a whole number however it is written
# (json.dumps writes a whole float as 2.0), and anything else refused in the same words.
WRITTEN_WHOLE = {
    "dig-it-up": ('{"players": [{"name": "Ann", "tiles": {"gold": 3.0, "scroll": 1E0, "stone": '
                  '30e-1}, "tokens": -6.00, "mission": {"bonus": 2e1, "achieved": true}}]}',
                  {"players": [{"name": "Ann", "tiles": {"gold": 3, "scroll": 1, "stone": 3},
                                "tokens": -6, "mission": {"bonus": 20, "achieved": True}}]}),
    "dig": ('{"bowls": ["green", "yellow", "purple", "blue", "red"], "players": [{"name": "Ann", '
            '"dropped": {"green": 2.0, "red": 1e0}}]}',
            dig({"name": "Ann", "dropped": {"green": 2, "red": 1}})),
    "digging-for-dinos": ('{"players": [{"name": "Ann", "tiles": {"stegosaurus": [1.0, 2.0, '
                          '3e0, 4]}}], "roster": [{"id": "stegosaurus", "values": [2.0, 2, 3, 2, '
                          '2], "set_value": 17.0}]}',
                          {"players": [{"name": "Ann", "tiles": {"stegosaurus": [1, 2, 3, 4]}}],
                           "roster": [{"id": "stegosaurus", "values": [2, 2, 3, 2, 2],
                                       "set_value": 17}]}),
}


@pytest.mark.parametrize("game", list(WRITTEN_WHOLE))
def test_a_whole_number_written_with_a_zero_fraction_counts_as_that_number(client, game):
    data, whole = WRITTEN_WHOLE[game]
    response = client.post(score_url(game), data=data, content_type="application/json")
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == client.post(score_url(game), json=whole).get_json()


@pytest.mark.parametrize("value", ["1.5", "1.0000000000000000001", "1e-1", "1e999"])
def test_a_number_that_is_not_whole_however_written_is_refused_as_before(client, value):
    data = '{"players": [{"name": "Ann", "tiles": {"gold": ' + value + "}}]}"
    response = client.post(score_url("dig-it-up"), data=data, content_type="application/json")
    body = assert_problem(response, 422, "players.0.tiles.gold")
    assert body["errors"]["players.0.tiles.gold"] == ["Enter a whole number from 0 to 99."]


@pytest.mark.parametrize("value", [*NOT_COUNTS, 5, 99])
def test_bones_dropped_must_be_a_whole_number_from_0_to_4(client, value):
    response = client.post(score_url("dig"), json=dig({"name": "Ann", "dropped": {"red": value}}))
    assert_problem(response, 422, "players.0.dropped.red")


# −20: the box's four −5 ₩ tokens; 76: all the money a standard game gives (RULINGS §1)
@pytest.mark.parametrize("tokens", [-20, -5, 0, 76])
def test_money_tokens_may_be_negative(client, tokens):
    response = client.post(score_url("dig-it-up"), json=with_player(tokens=tokens))
    assert response.status_code == 200
    assert response.get_json()["players"][0]["total"] == tokens


@pytest.mark.parametrize("tokens", [-1000, 1000, 2.5, "8", True, None])
def test_money_tokens_beyond_999_or_not_whole_are_refused(client, tokens):
    response = client.post(score_url("dig-it-up"), json=with_player(tokens=tokens))
    assert_problem(response, 422, "players.0.tokens")


# --- unknown names of things ---------------------------------------------------------------------

@pytest.mark.parametrize(("game", "body", "field"), [
    ("dig-it-up", with_player(tiles={"emerald": 1}), "players.0.tiles.emerald"),
    ("dig-it-up", with_player(tiles={"Gold": 1}), "players.0.tiles.Gold"),
    ("dig-it-up", with_player(cards={"joker": 1}), "players.0.cards.joker"),
    ("dig-it-up", with_player(mission={"id": "world_peace", "achieved": True}),
     "players.0.mission.id"),
    ("dig-it-up", {"variant": "tiny", "players": [{"name": "Ann"}]}, "variant"),
    ("dig-it-up", {"variant": None, "players": [{"name": "Ann"}]}, "variant"),
    ("dig", dig({"name": "Ann", "dropped": {"pink": 1}}), "players.0.dropped.pink"),
    ("dig", dig({"name": "Ann"}, bowls=["green", "yellow", "purple", "blue", "pink"]),
     "bowls.4"),
    ("digging-for-dinos", dinos(diplodocus=[1]), "players.0.tiles.diplodocus"),
    ("digging-for-dinos", dinos(**{"T-Rex": [1]}), "players.0.tiles.T-Rex"),
    ("dig-it-up", {"players": [{"name": "Ann"}], "colour": "red"}, "colour"),
    ("dig", dig({"name": "Ann", "hand": {"red": 1}}), "players.0.hand"),
    ("digging-for-dinos", {"players": [{"name": "Ann"}], "era": 2}, "era"),
])
def test_unknown_names_are_refused(client, game, body, field):
    assert_problem(client.post(score_url(game), json=body), 422, field)


# --- Dinos positions -----------------------------------------------------------------------------

@pytest.mark.parametrize(("positions", "bad"), [
    ([0], 0), ([1, 2, 6], 2), ([5, 21], 1), ([1, -1], 1), ([1.5], 0), (["1"], 0), ([True], 0),
])
def test_a_position_outside_the_dinosaur_is_refused(client, positions, bad):
    # The schema (0, 21, not a number) and the calculator (6: Stegosaurus has 5) name it alike.
    body = client.post(score_url("digging-for-dinos"), json=dinos(stegosaurus=positions))
    assert_problem(body, 422, f"players.0.tiles.stegosaurus.{bad}")


def test_positions_are_a_list(client):
    response = client.post(score_url("digging-for-dinos"), json=dinos(stegosaurus=3))
    assert_problem(response, 422, "players.0.tiles.stegosaurus")


def test_a_dinosaur_id_with_a_line_break_after_it_is_refused(client):
    body = {"players": [{"name": "Ann", "tiles": {"stegosaurus\n": [1]}}]}
    assert_problem(client.post(score_url("digging-for-dinos"), json=body), 422,
                   "players.0.tiles.stegosaurus\n")


def test_positions_beyond_the_roster_override_are_refused(client):
    roster = [{"id": "nessie", "values": [5, 5], "set_value": 12}]
    body = {"roster": roster, "players": [{"name": "Ann", "tiles": {"nessie": [1, 3]}}]}
    assert_problem(client.post(score_url("digging-for-dinos"), json=body), 422,
                   "players.0.tiles.nessie.1")


@pytest.mark.parametrize(("roster", "field"), [
    ([], "roster"),
    ([{"id": "rex", "values": [1], "set_value": 2}] * 2, "roster"),
    ([{"id": "rex", "set_value": 2}], "roster.0.values"),
    ([{"id": "rex", "values": [], "set_value": 2}], "roster.0.values"),
    ([{"id": "rex", "values": [1], "set_value": -1}], "roster.0.set_value"),
    ([{"id": "rex", "values": [1, 1], "set_value": 2, "tiles": 3}], "roster.0.tiles"),
    ([{"id": "rex", "values": [1], "set_value": 2, "flip": "yes"}], "roster.0.flip"),
    ([{"id": "Rex!", "values": [1], "set_value": 2}], "roster.0.id"),
    # as the document's pattern reads it: no line break after the id either
    ([{"id": "rex\n", "values": [1], "set_value": 2}], "roster.0.id"),
])
def test_a_roster_override_must_describe_dinosaurs(client, roster, field):
    body = {"roster": roster, "players": [{"name": "Ann"}]}
    assert_problem(client.post(score_url("digging-for-dinos"), json=body), 422, field)


# --- players and names ---------------------------------------------------------------------------

BODIES = {
    "dig-it-up": lambda players: {"players": players},
    "dig": lambda players: {"bowls": BOWLS, "players": players},
    "digging-for-dinos": lambda players: {"players": players},
}


@pytest.mark.parametrize("game", list(BODIES))
@pytest.mark.parametrize(("players", "field"), [
    ([], "players"),
    ([{"name": f"P{i}"} for i in range(7)], "players"),
    ([{"name": "Ann"}, {"name": "Ann"}], "players"),
    ([{"name": ""}], "players.0.name"),
    ([{"name": "x" * 41}], "players.0.name"),
    ([{"name": "Ann"}, {}], "players.1.name"),
    ([{"name": 7}], "players.0.name"),
    ([{"name": None}], "players.0.name"),
    (None, "players"),
    ({"name": "Ann"}, "players"),
    (["Ann"], "players.0"),
])
def test_one_to_six_players_with_names_of_1_to_40_characters_all_different(
        client, game, players, field):
    response = client.post(score_url(game), json=BODIES[game](players))
    assert_problem(response, 422, field)


@pytest.mark.parametrize("game", list(BODIES))
def test_one_player_and_six_players_are_accepted(client, game):
    for count in (1, 6):
        players = [{"name": f"Player {i}" + "x" * (30 if i == 0 else 0)} for i in range(count)]
        response = client.post(score_url(game), json=BODIES[game](players))
        assert response.status_code == 200
        assert len(response.get_json()["players"]) == count


def test_names_differing_only_in_case_are_different_players(client):
    response = client.post(score_url("dig"), json=dig({"name": "ann"}, {"name": "Ann"}))
    assert response.status_code == 200


# --- names that look alike -----------------------------------------------------------------------

ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\U000e0041"]
DIRECTION = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
             "\u2069", "\u200e", "\u200f", "\u061c"]
CONTROL = ["\x00", "\t", "\n", "\r", "\x1b", "\x7f", "\x85", "\u2028", "\u2029"]
BLANK_LETTERS = ["\u3164", "\u115f", "\u2800"]


@pytest.mark.parametrize("game", list(BODIES))
@pytest.mark.parametrize(("name", "words"), [
    *[(f"Ann{c}", "invisible") for c in ZERO_WIDTH],
    *[(f"{c}Ann", "invisible") for c in ZERO_WIDTH[:2]],
    *[(f"A{c}nn", "direction") for c in DIRECTION],
    *[(f"Ann{c}", "control") for c in CONTROL],
    ("\x00", "control"),
    *[(f"Ann{c}", "invisible") for c in BLANK_LETTERS],
    ("\u3164", "invisible"),
    ("", "blank"), (" ", "blank"), ("\u00a0\u3000 ", "blank"),
])
def test_a_name_that_hides_or_turns_text_is_refused_in_plain_words(client, game, name, words):
    body = assert_problem(client.post(score_url(game), json=BODIES[game]([{"name": name}])), 422,
                          "players.0.name")
    assert words in body["errors"]["players.0.name"][0]


@pytest.mark.parametrize("game", list(BODIES))
@pytest.mark.parametrize(("first", "second"), [
    ("Ann", "Ann\u200b"),  # refused for the invisible character before it could be a twin
    ("Ann", "Ann "),
    ("Ann Lee", "Ann  Lee"),
    ("Ann Lee", "Ann\u00a0Lee"),
    ("Zo\u00eb", "Zoe\u0308"),  # the same letter, composed and decomposed (NFC)
    # an emoji joined, and the same two side by side: one picture on one phone, two on another
    ("Mia \U0001F469\u200d\U0001F680", "Mia \U0001F469\U0001F680"),
])
def test_names_that_look_the_same_are_one_name(client, game, first, second):
    response = client.post(score_url(game), json=BODIES[game]([{"name": first},
                                                               {"name": second}]))
    body = assert_problem(response, 422)
    assert set(body["errors"]) & {"players", "players.1.name"}


@pytest.mark.parametrize(("sent", "stored"), [
    ("  Ann  ", "Ann"),
    ("Ann \t", None),  # a tab is a control character, not a space
    ("Ann   Lee", "Ann Lee"),
    ("Zoe\u0308", "Zo\u00eb"),
    ("Jos\u00e9", "Jos\u00e9"),
    ("\u674e\u96f7", "\u674e\u96f7"),
    ("\u2764\ufe0f Ann", "\u2764\ufe0f Ann"),  # an emoji's variation selector draws the emoji
    ("\U0001F1EB\U0001F1F7 Ann", "\U0001F1EB\U0001F1F7 Ann"),
    ("x" * 40 + "  ", "x" * 40),  # counted once tidied
    # A joiner between two emoji draws them as one (an astronaut, a family, a rainbow flag, a
    # runner), after a skin tone or a variation selector too: kept, where it was refused.
    ("Mia \U0001F469\u200d\U0001F680", "Mia \U0001F469\u200d\U0001F680"),
    ("\U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F468\u200d\U0001F469\u200d\U0001F467"),
    ("\U0001F3F3\ufe0f\u200d\U0001F308 Sam", "\U0001F3F3\ufe0f\u200d\U0001F308 Sam"),
    ("Bo \U0001F3C3\U0001F3FD\u200d\u2640\ufe0f", "Bo \U0001F3C3\U0001F3FD\u200d\u2640\ufe0f"),
    # … and nowhere else: between letters, at either end of an emoji
    ("A\u200dnn", None), ("\U0001F469\u200d Mia", None), ("Mia \u200d\U0001F680", None),
    ("\U0001F469\u200d\u200d\U0001F680", None),
])
def test_names_are_stored_tidied_and_in_nfc(client, sent, stored):
    response = client.post(score_url("dig"), json=dig({"name": sent}))
    if stored is None:
        assert_problem(response, 422, "players.0.name")
    else:
        assert response.status_code == 200, response.get_json()
        result = response.get_json()
        assert result["players"][0]["name"] == stored
        assert result["winners"] == [stored]


def test_the_name_field_is_one_helper_any_schema_can_use():
    import marshmallow as ma

    from api.schemas.common import player_name, unique_names

    class Table(ma.Schema):
        players = ma.fields.List(player_name())

        @ma.validates_schema
        def names_differ(self, data, **kwargs):
            unique_names(data["players"])

    assert Table().load({"players": [" Ann ", "Bob"]}) == {"players": ["Ann", "Bob"]}
    with pytest.raises(ma.ValidationError) as refused:
        Table().load({"players": ["Ann", "Ann\u200b"]})
    assert "invisible" in refused.value.messages["players"][1][0]
    with pytest.raises(ma.ValidationError):
        unique_names(["Ann", "Ann\u200b"])  # compared normalised even when not loaded by it


def test_missing_players_are_asked_for(client):
    body = assert_problem(client.post(score_url("dig"), json={"bowls": BOWLS}), 422, "players")
    assert body["errors"]["players"] == ["List the players."]


# --- DIG bowls -----------------------------------------------------------------------------------

@pytest.mark.parametrize("bowls", [
    ["green", "green", "purple", "blue", "red"],
    ["green", "yellow", "purple", "blue"],
    ["green", "yellow", "purple", "blue", "red", "green"],
    [],
    "green",
    None,
])
def test_bowls_hold_each_colour_once(client, bowls):
    response = client.post(score_url("dig"), json=dig({"name": "Ann"}, bowls=bowls))
    assert_problem(response, 422, "bowls")


def test_missing_bowls_are_asked_for(client):
    response = client.post(score_url("dig"), json={"players": [{"name": "Ann"}]})
    assert_problem(response, 422, "bowls")


def test_bowl_listed_twice_is_named(client):
    bowls = ["red", "yellow", "purple", "blue", "red"]
    body = assert_problem(client.post(score_url("dig"), json=dig({"name": "Ann"}, bowls=bowls)),
                          422, "bowls")
    assert "red" in body["errors"]["bowls"][0]


# --- Dig It Up missions, cards and variants ------------------------------------------------------

@pytest.mark.parametrize(("mission", "field"), [
    ({"id": "closing_shop"}, "players.0.mission.achieved"),  # only play decides it
    ({"id": "card_shark"}, "players.0.mission.achieved"),
    ({"bonus": 20}, "players.0.mission.achieved"),
    ({"id": "scholar", "achieved": 1}, "players.0.mission.achieved"),
    ({"id": "scholar", "achieved": "yes"}, "players.0.mission.achieved"),
    ({"id": "scholar", "achieved": "true"}, "players.0.mission.achieved"),
    ({"bonus": 20, "achieved": 0}, "players.0.mission.achieved"),
    ({"id": "scholar", "bonus": 15, "achieved": True}, "players.0.mission.id"),
    ({"achieved": True}, "players.0.mission.bonus"),
    ({"bonus": -1, "achieved": True}, "players.0.mission.bonus"),
    ({"bonus": 101, "achieved": True}, "players.0.mission.bonus"),
    ({"bonus": 12.5, "achieved": True}, "players.0.mission.bonus"),
    ("scholar", "players.0.mission"),
])
def test_a_mission_is_an_id_or_a_bonus_and_whether_it_was_achieved(client, mission, field):
    response = client.post(score_url("dig-it-up"), json=with_player(mission=mission))
    assert_problem(response, 422, field)


@pytest.mark.parametrize(("mission", "field", "said"), [
    ({}, "players.0.mission.bonus", "Give the mission's id or its bonus."),
    ({"achieved": True}, "players.0.mission.bonus", "Give the mission's id or its bonus."),
    ({"id": "scholar", "bonus": 15, "achieved": True}, "players.0.mission.id",
     "Give the mission's id or its bonus, not both."),
])
def test_a_mission_says_what_is_missing_or_given_twice(client, mission, field, said):
    response = client.post(score_url("dig-it-up"), json=with_player(mission=mission))
    assert assert_problem(response, 422, field)["errors"] == {field: [said]}


def test_a_mission_the_counts_decide_needs_no_declaration(client):
    scholar = with_player(tiles={"scroll": 4}, mission={"id": "scholar"})
    response = client.post(score_url("dig-it-up"), json=scholar)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json()["players"][0]["breakdown"]["mission"] == 15


def test_card_shark_proven_by_the_cards_kept_needs_no_declaration(client):
    # API.md: `achieved` may be left out where the counts decide; five cards kept (and five ★
    # tiles to draw them) prove Card Shark, and it was refused: "Say whether the mission was
    # achieved."
    stars = {"scroll": 3, "crystal": 2}  # RULINGS §1 "Marks": each scroll and crystal a ★
    proven = with_player(tiles=stars, cards={"appraisal": 2, "gold_nugget": 3},
                         mission={"id": "card_shark"})
    response = client.post(score_url("dig-it-up"), json=proven)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json()["players"][0]["breakdown"]["mission"] == 15
    unproven = with_player(tiles=stars, cards={"appraisal": 2}, mission={"id": "card_shark"})
    problem = assert_problem(client.post(score_url("dig-it-up"), json=unproven), 422,
                             "players.0.mission.achieved")
    assert problem["errors"]["players.0.mission.achieved"] == [
        "Say whether Card Shark was achieved: these counts alone do not show it."]
    closing = with_player(mission={"id": "closing_shop"})  # only play shows a site closed
    assert_problem(client.post(score_url("dig-it-up"), json=closing), 422,
                   "players.0.mission.achieved")


@pytest.mark.parametrize(("tiles", "achieved"), [({"gold": 1}, True), ({"gold": 5}, False)])
def test_a_declaration_the_counts_contradict_is_refused(client, tiles, achieved):
    # issue 13: Gold Digger ticked with 1 gold added 15 ₩
    body = with_player(tiles=tiles, mission={"id": "gold_digger", "achieved": achieved})
    problem = assert_problem(client.post(score_url("dig-it-up"), json=body), 422,
                             "players.0.mission.achieved")
    assert "5 or more gold" in problem["errors"]["players.0.mission.achieved"][0]


def test_the_catalogue_gives_each_missions_goal_and_who_decides_it(client):
    missions = {m["id"]: m for m in client.get("/api/v1/games/dig-it-up").get_json()["missions"]}
    assert missions["gold_digger"]["goal"] == {"measure": "count", "of": "gold", "min": 5}
    assert [m for m in missions if missions[m]["declared"]] == ["closing_shop", "card_shark"]


@pytest.mark.parametrize("card", ["lucky_coin", "treasure_chest", "strike_gold", "hazardous_area",
                                  "second_wind", "thief", "landslide"])
def test_gray_cards_cannot_be_kept(client, card):
    response = client.post(score_url("dig-it-up"), json=with_player(cards={card: 1}))
    body = assert_problem(response, 422, f"players.0.cards.{card}")
    assert "used at once" in body["detail"]


def test_gray_card_held_zero_times_is_fine(client):
    response = client.post(score_url("dig-it-up"), json=with_player(cards={"lucky_coin": 0}))
    assert response.status_code == 200


@pytest.mark.parametrize(("player", "field"), [
    ({"cards": {"appraisal": 1}}, "players.0.cards.appraisal"),
    ({"cards": {"gold_nugget": 2}}, "players.0.cards.gold_nugget"),
    ({"mission": {"id": "gold_digger", "achieved": True}}, "players.0.mission"),
    ({"mission": {"bonus": 15, "achieved": False}}, "players.0.mission"),
])
def test_simplified_is_played_without_missions_or_cards(client, player, field):
    body = {"variant": "simplified", "players": [{"name": "Ann", **player}]}
    assert_problem(client.post(score_url("dig-it-up"), json=body), 422, field)


def test_simplified_refuses_money_tokens_no_plus_two_tiles_make(client):
    # RULINGS §1: no chance cards, so no −5 token; +2 tiles pay 2 ₩ each, 12 ₩ on the small board
    body = {"variant": "simplified", "players": [{"name": "Ann", "tokens": -5},
                                                 {"name": "Bob", "tokens": 7}]}
    problem = assert_problem(client.post(score_url("dig-it-up"), json=body), 422,
                             "players.0.tokens")
    assert set(problem["errors"]) == {"players.0.tokens", "players.1.tokens"}
    assert problem["errors"]["players.1.tokens"] == [
        "The Simplified variant's money tokens come from +2 tiles alone, 2 ₩ each: 7 ₩ cannot "
        "be made of them."]
    body["players"][0].update(tokens=6, tiles={"gold": 3})  # each +2 tile a gold one kept
    body["players"][1].update(tokens=8, tiles={"gold": 4})
    problem = assert_problem(client.post(score_url("dig-it-up"), json=body), 422, "players")
    assert "only 6 +2 tiles, 12 ₩" in problem["detail"]
    body["players"][1]["tokens"] = 6
    assert client.post(score_url("dig-it-up"), json=body).status_code == 200


@pytest.mark.parametrize(("player", "field"), [
    ({"tiles": {"diamond": 1}}, "players.0.tiles.diamond"),
    ({"cards": {"pink_diamond": 1}}, "players.0.cards.pink_diamond"),
    ({"mission": {"id": "diamond_hunter", "achieved": False}}, "players.0.mission.id"),
    ({"mission": {"id": "jack_of_all_trades", "achieved": True}}, "players.0.mission.id"),
])
def test_small_game_has_no_diamonds_nor_multi_cards(client, player, field):
    body = {"variant": "small", "players": [{"name": "Ann", **player}]}
    problem = assert_problem(client.post(score_url("dig-it-up"), json=body), 422, field)
    assert "2–3 players" in problem["detail"]


# --- what the box cannot hold, across all players ------------------------------------------------

def dig_it_up_table(variant: str, tile: str, total: int, players: int = 4) -> dict:
    shares = [total // players + (i < total % players) for i in range(players)]
    return {"variant": variant,
            "players": [{"name": f"P{i}", "tiles": {tile: n}} for i, n in enumerate(shares)]}


# Every tile of one type, and fewer of the others than the most a table can hold in all (58 on
# the standard board, 35 on the small one: the sites still dug at the end keep two tiles or more).
STANDARD_TREASURES = [{"name": "A", "tiles": {"gold": 14, "statue": 4, "knife": 4,
                                               "incense_burner": 4}},
                      {"name": "B", "tiles": {"scroll": 8, "crystal": 10}},
                      {"name": "C", "tiles": {"ruby": 8, "diamond": 5}}]
SMALL_TREASURES = [{"name": "A", "tiles": {"gold": 10, "incense_burner": 3, "statue": 3}},
                   {"name": "B", "tiles": {"knife": 3, "scroll": 5, "crystal": 6, "ruby": 4}}]


@pytest.mark.parametrize(("variant", "players", "tile"), [
    ("standard", STANDARD_TREASURES, "ruby"),
    ("small", SMALL_TREASURES, "gold"),
])
def test_every_tile_of_a_type_fits_but_one_more_is_refused(client, variant, players, tile):
    body = {"variant": variant, "players": copy.deepcopy(players)}
    assert client.post(score_url("dig-it-up"), json=body).status_code == 200
    body["players"][-1]["tiles"][tile] = body["players"][-1]["tiles"].get(tile, 0) + 1
    last = len(body["players"]) - 1
    problem = assert_problem(client.post(score_url("dig-it-up"), json=body), 422,
                             f"players.{last}.tiles.{tile}")
    assert problem["errors"]["players"] == [problem["errors"]["players"][0]]  # that limit alone
    assert f" {tile} tiles" in problem["errors"]["players"][0]


@pytest.mark.parametrize(("variant", "stones"), [("standard", 10), ("small", 6),
                                                 ("simplified", 10)])
def test_every_stone_fits(client, variant, stones):
    body = dig_it_up_table(variant, "stone", stones)
    assert client.post(score_url("dig-it-up"), json=body).status_code == 200


@pytest.mark.parametrize(("variant", "stones"), [("standard", 11), ("small", 7),
                                                 ("simplified", 11)])
def test_more_stones_than_the_board_holds_are_refused(client, variant, stones):
    body = dig_it_up_table(variant, "stone", stones)
    problem = assert_problem(client.post(score_url("dig-it-up"), json=body), 422, "players")
    assert f"{stones} stone tiles" in problem["errors"]["players"][0]


# issue 19: impossible tables were scored; every tile type is limited, not the stones alone.
@pytest.mark.parametrize(("variant", "players", "field", "said"), [
    ("standard", [{"gold": 10}, {"gold": 10}], "players.1.tiles.gold",
     "Together the players hold 20 gold tiles, but the Standard game has only 14."),
    ("small", [{"gold": 11}, {}], "players.0.tiles.gold",
     "Together the players hold 11 gold tiles, but the 2–3 players game has only 10."),
    ("simplified", [{}, {"diamond": 1}], "players.1.tiles.diamond",
     "The Simplified game for 2 players has no diamond tiles."),
    ("standard", [{"ruby": 5}, {"ruby": 2}, {"ruby": 2}, {}], "players.2.tiles.ruby",
     "Together the players hold 9 ruby tiles, but the Standard game has only 8."),
])
def test_a_table_holding_more_of_a_tile_than_its_board_is_refused(client, variant, players,
                                                                  field, said):
    body = {"variant": variant, "players": [{"name": f"P{i}", "tiles": tiles}
                                            for i, tiles in enumerate(players)]}
    problem = assert_problem(client.post(score_url("dig-it-up"), json=body), 422, field)
    assert problem["errors"][field] == [said]
    assert said in problem["detail"]


def test_four_players_of_the_simplified_game_dig_up_diamonds(client):
    body = {"variant": "simplified", "players": [{"name": f"P{i}"} for i in range(4)]}
    body["players"][0]["tiles"] = {"diamond": 8}
    assert client.post(score_url("dig-it-up"), json=body).status_code == 200


def test_more_cards_of_a_kind_than_the_box_holds_are_refused(client):
    body = {"players": [{"name": "A", "cards": {"insurance": 2}},
                        {"name": "B", "cards": {"insurance": 1}}]}
    problem = assert_problem(client.post(score_url("dig-it-up"), json=body), 422, "players")
    assert "Insurance" in problem["errors"]["players"][0]
    # a limit across players also names each field it concerns, so a page marks them by key
    assert set(problem["errors"]) == {"players", "players.0.cards.insurance",
                                      "players.1.cards.insurance"}


def test_dig_four_bones_of_a_colour_fit_but_five_are_refused(client):
    body = dig({"name": "Ann", "dropped": {"blue": 3}}, {"name": "Bob", "dropped": {"blue": 1}})
    assert client.post(score_url("dig"), json=body).status_code == 200
    body["players"][1]["dropped"]["blue"] = 2
    problem = assert_problem(client.post(score_url("dig"), json=body), 422, "players")
    assert "5 blue bones" in problem["errors"]["players"][0]
    assert set(problem["errors"]) == {"players", "players.0.dropped.blue",
                                      "players.1.dropped.blue"}


def test_dinos_three_tiles_of_a_position_fit_but_four_are_refused(client):
    body = {"players": [{"name": "Ann", "tiles": {"triceratops": [2, 2]}},
                        {"name": "Bob", "tiles": {"triceratops": [2]}}]}
    assert client.post(score_url("digging-for-dinos"), json=body).status_code == 200
    body["players"][1]["tiles"]["triceratops"].append(2)
    problem = assert_problem(client.post(score_url("digging-for-dinos"), json=body), 422,
                             "players")
    assert "4 Triceratops 2 tiles" in problem["errors"]["players"][0]
    assert set(problem["errors"]) == {"players", "players.0.tiles.triceratops.0",
                                      "players.0.tiles.triceratops.1",
                                      "players.1.tiles.triceratops.0",
                                      "players.1.tiles.triceratops.1"}


def test_several_problems_are_all_reported(client):
    body = {"variant": "small", "players": [
        {"name": "Ann", "tiles": {"diamond": 1, "stone": 7}, "cards": {"thief": 1}}]}
    problem = assert_problem(client.post(score_url("dig-it-up"), json=body), 422)
    assert set(problem["errors"]) == {"players.0.tiles.diamond", "players.0.cards.thief",
                                      "players", "players.0.tiles.stone"}
    # three problems: the stones' limit is said on `players` and on the stones' field alike
    assert "(and 2 more)" in problem["detail"]


# One limit across players, said on `players` and on every field holding some, is one problem.
@pytest.mark.parametrize(("game", "player", "held", "said"), [
    ("digging-for-dinos", "tiles", ("velociraptor", [1]),
     "Together the players hold 5 Velociraptor 1 tiles"),
    ("dig", "dropped", ("blue", 1), "Together the players dropped 5 blue bones"),
    ("dig-it-up", "cards", ("insurance", 1), "Together the players hold 5 Insurance cards"),
])
def test_a_limit_across_players_is_summed_up_as_one_problem(client, game, player, held, said):
    # (a Dig It Up card is drawn for a ★ tile: a crystal each)
    stars = {"tiles": {"crystal": 2}} if game == "dig-it-up" else {}
    body = BODIES[game]([{"name": f"P{i}", player: dict([held]), **stars} for i in range(5)])
    problem = assert_problem(client.post(score_url(game), json=body), 422, "players")
    assert len(problem["errors"]) > 4  # `players`, and each player's field
    assert problem["detail"].startswith(f"players: {said}")
    assert "more)" not in problem["detail"]
    # a second limit is a second problem
    other = {"tiles": ("deinosuchus", [2]), "dropped": ("red", 1), "cards": ("appraisal", 1)}
    for entry in body["players"]:
        entry[player].update([other[player]])
    problem = assert_problem(client.post(score_url(game), json=body), 422, "players")
    assert problem["detail"].endswith(" (and 1 more)"), problem["detail"]


# --- every refusal in a player's words, none in marshmallow's -----------------------------------

@pytest.mark.parametrize(("game", "body", "field", "said"), [
    # A variant is refused in the same words in every game, naming the game's own
    ("dig", {"variant": "huge", "players": [{"name": "Ann"}]}, "variant",
     "Choose standard, the game's only variant."),
    ("digging-for-dinos", {"variant": "", "players": [{"name": "Ann"}]}, "variant",
     "Choose standard, the game's only variant."),
    ("dig", {"bowls": None, "players": [{"name": "Ann"}]}, "bowls",
     "List the five bowls, nearest the Doghouse first."),
    ("dig", {"bowls": "green", "players": [{"name": "Ann"}]}, "bowls",
     "List the five bowls, nearest the Doghouse first."),
    ("dig", dig({"name": "Ann", "dropped": [1]}), "players.0.dropped",
     'Enter the bones dropped by colour: {"green": 2, "red": 1, …}.'),
    ("dig", dig({"name": "Ann", "dropped": {"red": None}}), "players.0.dropped.red",
     "Enter a whole number from 0 to 4."),
    ("dig", dig({"name": "Ann"}, bowls=[1, "yellow", "purple", "blue", "red"]), "bowls.0",
     "Choose one of: green, yellow, purple, blue, red."),
    ("digging-for-dinos", dinos(stegosaurus=None), "players.0.tiles.stegosaurus",
     "List the positions held, such as [1, 2, 2]."),
    ("digging-for-dinos", with_player(tiles=None), "players.0.tiles",
     'Enter the tiles held by dinosaur: {"stegosaurus": [1, 2, 3], …}.'),
    ("digging-for-dinos", {"roster": [{"id": "rex", "name": "", "values": [1], "set_value": 2}],
                           "players": [{"name": "Ann"}]}, "roster.0.name",
     "Enter a name: it cannot be blank."),  # held to a player's name rules
    ("digging-for-dinos", {"roster": [{"id": "rex", "values": [1], "set_value": None}],
                           "players": [{"name": "Ann"}]}, "roster.0.set_value",
     "Enter a whole number from 0 to 1000."),
    ("digging-for-dinos", {"roster": [{"id": "rex", "values": [101], "set_value": 2}],
                           "players": [{"name": "Ann"}]}, "roster.0.values.0",
     "Enter a whole number from 0 to 100."),
    ("digging-for-dinos", {"roster": [{"id": 7, "values": [1], "set_value": 2}],
                           "players": [{"name": "Ann"}]}, "roster.0.id",
     "An id is lower-case letters, digits and _."),
    ("digging-for-dinos", {"roster": [{"values": [1], "set_value": 2}],
                           "players": [{"name": "Ann"}]}, "roster.0.id",
     "This field is needed."),
    ("dig-it-up", {"variant": None, "players": [{"name": "Ann"}]}, "variant",
     "Choose standard, small or simplified."),
    ("dig-it-up", with_player(tiles=None), "players.0.tiles",
     'Enter the tiles held by type: {"gold": 3, "stone": 1, …}.'),
    ("dig-it-up", with_player(cards=[1]), "players.0.cards",
     'Enter the orange cards kept by id: {"appraisal": 1, …}.'),
    ("dig-it-up", with_player(mission={"bonus": None, "achieved": True}),
     "players.0.mission.bonus", "Enter a bonus from 0 to 100 ₩."),
    ("dig-it-up", with_player(mission={"id": "scholar", "achieved": None}),
     "players.0.mission.achieved", "Answer true or false."),
    ("dig-it-up", {"players": [{"name": "Ann"}, None]}, "players.1",
     'Enter each player as an object: {"name": "Ann", …}.'),
    ("dig-it-up", {"players": [{"name": "Ann"}, 3]}, "players.1",
     'Enter each player as an object: {"name": "Ann", …}.'),
])
def test_a_value_of_the_wrong_kind_is_refused_in_words(client, game, body, field, said):
    problem = assert_problem(client.post(score_url(game), json=body), 422, field)
    assert problem["errors"][field] == [said]


@pytest.mark.parametrize("game", list(BODIES))
@pytest.mark.parametrize("data", ["[1, 2]", "null", "3", '"players"'])
def test_a_body_that_is_no_object_is_told_so_at_body(client, game, data):
    response = client.post(score_url(game), data=data, content_type="application/json")
    problem = assert_problem(response, 422, "body")
    said = "Send the request's fields as one JSON object: {\"name\": value, …}."
    assert problem["errors"] == {"body": [said]} and problem["detail"] == said


def request_schemas():
    """Every schema of what a request sends (its body or its query), the app's all built."""
    from api.schemas.words import Asked
    from app import create_app

    create_app({"TESTING": True, "DATABASE_URL": "sqlite://"})
    found, new = set(), [Asked]
    while new:
        klass = new.pop()
        found.add(klass)
        new.extend(k for k in klass.__subclasses__() if k not in found)
    return found


def test_no_request_schema_leaves_a_message_to_marshmallow():
    """Every message a request's schema may answer with is in words (api/schemas/words.py): no
    field, item, key or value, validator or schema says what marshmallow says by default."""
    from marshmallow import validate

    from api.schemas.words import MARSHMALLOW, _inner

    said_by_marshmallow = []

    def check(field, where):
        said_by_marshmallow.extend((where, key) for key, text in field.error_messages.items()
                                   if text in MARSHMALLOW)
        for rule in field.validators:
            if isinstance(rule, validate.Range | validate.Length) and rule.error is None or \
                    isinstance(rule, validate.OneOf | validate.Regexp) and \
                    rule.error == type(rule).default_message:
                said_by_marshmallow.append((where, type(rule).__name__))
        for inner in _inner(field):
            check(inner, f"{where}[]")

    schemas = request_schemas()
    assert len(schemas) > 40  # every game's calculator, match, simulation, study and tally
    for schema in schemas:
        said_by_marshmallow.extend((schema.__name__, text) for text in
                                   schema().error_messages.values() if text in MARSHMALLOW)
        for name, field in schema._declared_fields.items():
            check(field, f"{schema.__name__}.{name}")
    assert said_by_marshmallow == []


# --- lists and answers bounded ------------------------------------------------------------------

LONG = 20_000  # items: a body well under the 64 KiB limit


@pytest.mark.parametrize(("url", "body", "field"), [
    *((score_url(game), {"bowls": BOWLS, "players": [1] * LONG}, "players")
      for game in ("dig", "dig-it-up", "digging-for-dinos")),
    (score_url("dig"), {"bowls": ["x"] * 8_000, "players": [{"name": "Ann"}]}, "bowls"),
    (score_url("digging-for-dinos"),
     {"players": [{"name": "Ann", "tiles": {"roster": [1] * LONG}}]}, "players.0.tiles.roster"),
    ("/api/v1/games/dig/matches", {"players": ["A"] * 8_000}, "players"),
    ("/api/v1/games/dig/simulations", {"players": [{"bot": "random"}] * 3_000}, "players"),
])
def test_a_list_too_long_is_refused_by_its_length_before_its_items(client, url, body, field):
    problem = assert_problem(client.post(url, json=body), 422, field)
    # one message for the list, none for its items
    assert not any(name.startswith(f"{field}.") for name in problem["errors"])
    assert len(client.post(url, json=body).data) < 2_000


def test_an_answer_names_at_most_fifty_fields(client):
    body = {"players": [{"name": "Ann", "tiles": {f"t{i}": "x" for i in range(3_000)}}]}
    problem = assert_problem(client.post(score_url("dig-it-up"), json=body), 422)
    assert len(problem["errors"]) <= 50 and "more)" in problem["detail"]


def test_a_simulation_seat_given_as_a_bot_s_name_alone_is_told_its_shape(client):
    answer = client.post("/api/v1/games/dig/simulations",
                         json={"matches": 2, "players": ["random", "greedy"]})
    assert answer.status_code == 422
    assert answer.get_json()["errors"]["players.0"] == [
        'Enter each seat as {"name": …, "bot": …}: every seat of a simulation is a bot\'s.']


@pytest.mark.parametrize(("bowls", "said"), [
    (["red", "red", "green", "blue", "yellow"], "Each bowl appears once; red is listed twice."),
    (["red", "red", "green", "green", "yellow"],
     "Each bowl appears once; green and red are each listed twice."),
    (["red", "red", "red", "green", "green"],
     "Each bowl appears once; green and red are each listed more than once."),
])
def test_a_bowl_listed_again_is_named_in_plain_words(client, bowls, said):
    answer = client.post("/api/v1/games/dig/score", json={
        "bowls": bowls, "players": [{"name": "Ann", "dropped": {}}]})
    assert answer.status_code == 422
    assert answer.get_json()["errors"]["bowls"] == [said]


def test_a_value_of_one_fixed_length_and_a_null_seed_are_refused_in_words(client):
    # "Enter 32 to 32 characters", "Enter a value this field takes": true, and no help
    after = client.get("/api/v1/games/dig/matches?after=abc")
    assert after.status_code == 422
    assert after.get_json()["errors"]["query.after"] == ["Enter exactly 32 characters."]
    # 32 characters that are no match id: the same parameter under the same key
    not_an_id = client.get("/api/v1/games/dig/matches?after=" + "G" * 32)
    assert list(not_an_id.get_json()["errors"]) == ["query.after"]
    seed = client.post("/api/v1/games/dig/matches", json={"players": ["Ann", "Bob"],
                                                          "seed": None})
    assert seed.status_code == 422
    assert seed.get_json()["errors"]["seed"][0].startswith("A seed is a whole number from 0")

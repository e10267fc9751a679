"""The end-game calculators and the catalogue over HTTP (API.md "Health", "Catalogue",
"End-game calculators")."""

import pytest

from tests.api.openapi import validator
from tests.api.problem import ANN, BOWLS, JOSEPH, score_url

pytestmark = pytest.mark.shared_app  # each test is refused, scored or only reads

GAMES = ["dig-it-up", "dig", "digging-for-dinos"]


def post(client, game: str, body: dict) -> dict:
    response = client.post(score_url(game), json=body)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    return response.get_json()


def test_healthz_says_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


# --- catalogue -----------------------------------------------------------------------------------

def test_catalogue_lists_the_three_games(client):
    response = client.get("/api/v1/games")
    assert response.status_code == 200
    games = {g["id"]: g for g in response.get_json()["games"]}
    assert list(games) == GAMES
    assert games["dig-it-up"]["players"] == {"min": 2, "max": 5}
    assert games["dig-it-up"]["variants"] == ["standard", "small", "simplified"]
    assert games["dig"]["players"] == {"min": 2, "max": 4}
    assert games["digging-for-dinos"]["players"] == {"min": 2, "max": 4}
    for game in games.values():
        assert {"id", "name", "players", "variants"} <= set(game)


@pytest.mark.parametrize("game", GAMES)
def test_game_entry_repeats_its_catalogue_summary(client, game):
    summary = next(g for g in client.get("/api/v1/games").get_json()["games"] if g["id"] == game)
    detail = client.get(f"/api/v1/games/{game}").get_json()
    assert {key: detail[key] for key in summary} == summary


def test_dig_it_up_box_has_tiles_cards_and_missions(client):
    box = client.get("/api/v1/games/dig-it-up").get_json()
    tiles = {t["id"]: t for t in box["tiles"]}
    assert list(tiles) == ["gold", "incense_burner", "statue", "knife", "scroll", "crystal",
                           "ruby", "diamond", "stone"]
    assert tiles["statue"]["set"] == "bronzeware"
    assert tiles["stone"]["treasure"] is False
    cards = {c["id"]: c for c in box["cards"]}
    assert len(cards) == 13
    assert sum(c["count"] for c in cards.values()) == 50  # rulebook: 50 chance cards
    assert cards["pink_diamond"]["counts_as"] == "diamond"
    assert cards["appraisal"]["colour"] == "orange"
    missions = {m["id"]: m for m in box["missions"]}
    assert len(missions) == 15  # rulebook: 15 mission cards
    assert missions["jack_of_all_trades"]["bonus"] == 20
    gold = next(s for s in box["sets"] if s["id"] == "gold")
    assert gold["bonus_by_count"][-1] == {"min": 10, "bonus": 200}
    # rulebook "Components": 60 treasure tiles and 10 stones over sites A–J
    assert sum(sum(site["treasures"].values()) for site in box["sites"]) == 60
    assert sum(site["stones"] for site in box["sites"]) == 10
    rules = {v["id"]: v for v in box["variant_rules"]}
    assert list(rules) == box["variants"]
    assert rules["small"]["sites"] == "ABCDEF"
    assert rules["small"]["diamonds"] is False
    assert rules["simplified"]["cards"] is rules["simplified"]["missions"] is False
    # RULINGS: the simplified game is played on the board of the table's size
    assert rules["simplified"]["boards"] == {"2": "small", "3": "small", "4": "standard",
                                             "5": "standard"}
    assert "boards" not in rules["standard"]


def test_dig_box_has_the_colours(client):
    box = client.get("/api/v1/games/dig").get_json()
    assert box["colours"] == BOWLS
    assert box["bowl_points"] == [5, 4, 3, 2, 1]
    assert box["bones_per_colour"] == 4
    assert sum(card["count"] for card in box["bone_cards"]) == 20  # rulebook: 20 bone cards


def test_dinos_box_has_the_roster(client):
    box = client.get("/api/v1/games/digging-for-dinos").get_json()
    roster = {d["id"]: d for d in box["roster"]}
    assert list(roster) == ["velociraptor", "deinosuchus", "pterodactyl", "stegosaurus",
                            "triceratops", "tyrannosaurus", "brontosaurus"]
    assert roster["stegosaurus"]["values"] == [2, 2, 3, 2, 2]
    assert roster["stegosaurus"]["set_value"] == 17
    assert sum(d["tiles"] for d in roster.values()) == 33  # rulebook: 33 tiles an era
    assert box["eras"] == 3


# --- calculators ---------------------------------------------------------------------------------

def test_joseph_earns_50_won(client):
    result = post(client, "dig-it-up", {"variant": "standard", "players": [JOSEPH]})
    joseph = result["players"][0]
    assert joseph["breakdown"] == {
        "mission": 20, "cards": 0, "tokens": 8,
        "sets": {"gold": 3, "bronzeware": 16, "scroll": 0, "crystal": 0, "ruby": 0,
                 "diamond": 0, "stone": -2},
        "bundles": 5}
    assert joseph["total"] == 50
    assert joseph["rank"] == 1
    assert result["game"] == "dig-it-up"
    assert result["winners"] == ["Joseph"]


def test_ivan_bundles_seven_leftover_tiles_into_10_won(client):
    # no variant: the standard game is the default
    result = post(client, "dig-it-up", {"players": [
        {"name": "Ivan", "tiles": {"statue": 2, "crystal": 3, "ruby": 1, "diamond": 1}}]})
    assert result["variant"] == "standard"
    assert result["players"][0]["breakdown"]["bundles"] == 10
    assert result["players"][0]["total"] == 10


def test_mission_by_bonus_amount(client):
    result = post(client, "dig-it-up", {"players": [
        {"name": "Ann", "mission": {"bonus": 20, "achieved": True}},
        {"name": "Bob", "mission": {"bonus": 20, "achieved": False}}]})
    assert [p["total"] for p in result["players"]] == [20, 0]


def test_simplified_variant_over_http(client):
    result = post(client, "dig-it-up", {"variant": "simplified", "players": [
        {"name": "Kim", "tiles": {"gold": 4, "statue": 2, "knife": 2, "ruby": 2, "stone": 4},
         "tokens": 2}]})
    kim = result["players"][0]
    assert kim["breakdown"]["sets"]["gold"] == 10
    assert kim["breakdown"]["sets"]["bronzeware"] == 10
    assert kim["breakdown"]["sets"]["stone"] == 0
    assert kim["total"] == 10 + 10 + 2 + 2


def test_ann_scores_29(client):
    result = post(client, "dig", {"bowls": BOWLS, "players": [ANN]})
    ann = result["players"][0]
    assert ann["total"] == 29
    assert {c: v["points"] for c, v in ann["breakdown"].items()} == {
        "green": 10, "yellow": 4, "purple": 9, "blue": 4, "red": 2}
    assert {c: v["bones"] for c, v in ann["breakdown"].items()} == ANN["dropped"]
    assert result["game"] == "dig"


def test_dig_tie_broken_by_five_point_bones(client):
    result = post(client, "dig", {"bowls": BOWLS, "players": [
        {"name": "Bob", "dropped": {"yellow": 1, "purple": 2}},
        {"name": "Ann", "dropped": {"green": 2}}]})
    assert [(p["name"], p["total"], p["rank"]) for p in result["players"]] == [
        ("Bob", 10, 2), ("Ann", 10, 1)]
    assert result["winners"] == ["Ann"]
    assert "Ann" in result["tie_break"]["explanation"]


def test_dig_shared_win_names_both(client):
    result = post(client, "dig", {"bowls": BOWLS, "players": [
        {"name": "Ann", "dropped": {"red": 1}}, {"name": "Bob", "dropped": {"red": 1}},
        {"name": "Cid", "dropped": {}}]})
    assert [p["rank"] for p in result["players"]] == [1, 1, 3]
    assert result["winners"] == ["Ann", "Bob"]
    assert result["tie_break"] is None


def test_matteo_stegosaurus_scores_9_then_17(client):
    four = post(client, "digging-for-dinos",
                {"players": [{"name": "Matteo", "tiles": {"stegosaurus": [1, 2, 3, 4]}}]})
    assert four["players"][0]["total"] == 9
    assert four["players"][0]["breakdown"] == {"completed": [], "loose": 9}
    five = post(client, "digging-for-dinos",
                {"players": [{"name": "Matteo", "tiles": {"stegosaurus": [1, 2, 3, 4, 5]}}]})
    assert five["players"][0]["total"] == 17
    assert five["players"][0]["breakdown"] == {
        "completed": [{"dinosaur": "stegosaurus", "value": 17}], "loose": 0}


def test_dinos_api_example_scores_the_raptor_set_and_the_loose_stegosaurus(client):
    result = post(client, "digging-for-dinos", {"players": [
        {"name": "Matteo", "tiles": {"stegosaurus": [1, 2, 3, 4], "velociraptor": [1, 2, 2]}}]})
    assert result["players"][0]["total"] == 9 + 5 + 1


def test_dinos_roster_override(client):
    roster = [{"id": "stegosaurus", "values": [1, 1, 4], "set_value": 10},
              {"id": "nessie", "name": "Nessie", "values": [5], "set_value": 7, "flip": True}]
    result = post(client, "digging-for-dinos", {"roster": roster, "players": [
        {"name": "Ann", "tiles": {"stegosaurus": [1, 2, 3]}},
        {"name": "Bob", "tiles": {"nessie": [1], "stegosaurus": [3]}}]})
    assert [p["total"] for p in result["players"]] == [10, 11]
    assert result["winners"] == ["Bob"]


def test_a_roster_of_new_dinosaurs_is_a_request_the_document_allows(client):
    """API.md: `roster` replaces the box roster. The document had held a player's tiles to the
    box's dinosaurs' ids, so a client checking its request against it could send no new one."""
    document = client.get("/api/openapi.json").get_json()
    request_schema = document["paths"]["/api/v1/games/digging-for-dinos/score"]["post"][
        "requestBody"]["content"]["application/json"]["schema"]
    body = {"roster": [{"id": "nessie", "name": "Nessie", "values": [5], "set_value": 7}],
            "players": [{"name": "Ann", "tiles": {"nessie": [1]}}]}
    assert not list(validator(document, request_schema).iter_errors(body))
    assert post(client, "digging-for-dinos", body)["players"][0]["total"] == 7
    for wrong in ("Nessie", "rex-2"):  # what the server refuses, the document refuses too
        refused = {**body, "players": [{"name": "Ann", "tiles": {wrong: [1]}}]}
        assert list(validator(document, request_schema).iter_errors(refused)), wrong
        assert client.post(score_url("digging-for-dinos"), json=refused).status_code == 422


@pytest.mark.parametrize("name", ["Nes\u0000sie", "\u202eNessie", "\u200b", " "])
def test_a_dinosaur_s_name_is_held_to_a_player_s_name_rules(client, name):
    """A roster's names are shown to every follower of a tally, as the players' are: a control,
    invisible or text-direction character was taken and passed on."""
    answer = client.post(score_url("digging-for-dinos"), json={
        "roster": [{"id": "nessie", "name": name, "values": [5], "set_value": 7}],
        "players": [{"name": "Ann", "tiles": {"nessie": [1]}}]})
    assert answer.status_code == 422, answer.get_json()
    assert list(answer.get_json()["errors"]) == ["roster.0.name"]


def test_dinos_tie_broken_by_largest_completed_dinosaur(client):
    result = post(client, "digging-for-dinos", {"players": [
        {"name": "Ann", "tiles": {"stegosaurus": [1, 2, 3, 4, 5], "pterodactyl": [1, 2, 3],
                                  "velociraptor": [1]}},
        {"name": "Bob", "tiles": {"tyrannosaurus": [1, 2, 3, 4, 5, 6]}}]})
    assert [p["total"] for p in result["players"]] == [24, 24]
    assert result["winners"] == ["Bob"]
    assert [p["rank"] for p in result["players"]] == [2, 1]


def test_players_keep_the_request_order(client):
    names = ["Zoe", "Amy", "Max", "Bea", "Cal", "Dan"]  # six players, the most a request takes
    result = post(client, "dig", {"bowls": BOWLS, "players": [
        {"name": n, "dropped": {"red": 1} if i < 4 else {}} for i, n in enumerate(names)]})
    assert [p["name"] for p in result["players"]] == names
    assert [p["rank"] for p in result["players"]] == [1, 1, 1, 1, 5, 5]


def test_names_may_be_any_text_up_to_40_characters(client):
    names = ["Ä", "x" * 40, "名前", "Ann Lee"]
    result = post(client, "dig", {"bowls": BOWLS, "players": [{"name": n} for n in names]})
    assert [p["name"] for p in result["players"]] == names


# --- variants: every calculator takes its game's, as the catalogue lists them ------------------

SHEETS = {"dig-it-up": {"players": [{"name": "Kim", "tiles": {"gold": 3}, "tokens": 2}]},
          "dig": {"bowls": BOWLS, "players": [ANN]},
          "digging-for-dinos": {"players": [{"name": "Matteo",
                                             "tiles": {"stegosaurus": [1, 2, 3, 4]}}]}}


@pytest.mark.parametrize("game", GAMES)
def test_each_calculator_takes_the_variants_its_catalogue_entry_lists(client, game):
    variants = client.get(f"/api/v1/games/{game}").get_json()["variants"]
    default = post(client, game, SHEETS[game])
    assert default["variant"] == variants[0]  # the default, named in the result
    for variant in variants:
        assert post(client, game, {"variant": variant, **SHEETS[game]})["variant"] == variant
    refused = client.post(score_url(game), json={"variant": "tiny", **SHEETS[game]})
    assert refused.status_code == 422 and list(refused.get_json()["errors"]) == ["variant"]


@pytest.mark.parametrize("game", GAMES)
def test_each_calculator_documents_the_variant_it_takes_and_names(client, game):
    document = client.get("/api/openapi.json").get_json()
    operation = document["paths"][score_url(game)]["post"]
    request = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    result = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    schemas = document["components"]["schemas"]
    variants = client.get(f"/api/v1/games/{game}").get_json()["variants"]
    sent = schemas[request.rsplit("/", 1)[1]]
    assert sent["properties"]["variant"]["enum"] == variants
    assert sent["properties"]["variant"]["default"] == variants[0]
    assert "variant" not in sent.get("required", [])
    answered = schemas[result.rsplit("/", 1)[1]]
    assert answered["properties"]["variant"]["enum"] == variants
    assert "variant" in answered["required"]


@pytest.mark.parametrize("game", ["dig", "digging-for-dinos"])
def test_a_finished_match_s_result_names_its_variant_as_the_calculator_does(client, game):
    bots = [{"name": "R1", "bot": "random"}, {"name": "R2", "bot": "random"}]
    view = client.post(f"/api/v1/games/{game}/matches",
                       json={"players": bots, "seed": 3}).get_json()["view"]
    assert view["status"] == "finished"
    assert view["result"]["variant"] == view["variant"] == "standard"

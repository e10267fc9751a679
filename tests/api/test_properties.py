"""Properties of the calculators over HTTP, on scoresheets a real box could produce (hypothesis):
the total is the sum of the breakdown, the players' order changes nobody's score or rank, and
every answer, success or problem, is what the app's own OpenAPI document says it is."""

import json
from collections import Counter

import marshmallow as ma
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.schemas.common import NAME_LENGTH, normalise_name
from app import create_app
from scoring.dig import box as dig_box
from scoring.dig_it_up import box as dig_it_up_box
from scoring.dig_it_up.score import declared
from scoring.dinos import box as dinos_box
from scoring.dinos.score import CALCULATOR as DINOS
from scoring.dinos.score import complete_sets
from tests.api.openapi import assert_documented
from tests.api.problem import PROBLEM_JSON, score_url
from tests.fuzz import examples
from tests.web.vectors import within_sites

MOST_COMPLETED = DINOS.most_completed()
PROPERTIES = settings(max_examples=examples(40), deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    database = tmp_path_factory.mktemp("properties") / "digsite.db"
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{database}"}).test_client()


@pytest.fixture(scope="module")
def document(client):
    return client.get("/api/openapi.json").get_json()


def _is_stored_as_sent(name: str) -> bool:
    try:
        return normalise_name(name) == name and len(name) <= NAME_LENGTH
    except ma.ValidationError:
        return False


def names(min_size: int = 1) -> st.SearchStrategy[list[str]]:
    """Names a player could type, in the form the app stores them (so the answer echoes them)."""
    name = st.text(min_size=1, max_size=NAME_LENGTH).map(normalise_name_or_blank)
    return st.lists(name.filter(_is_stored_as_sent), min_size=min_size, max_size=6, unique=True)


def normalise_name_or_blank(text: str) -> str:
    try:
        return normalise_name(text)
    except ma.ValidationError:
        return ""


def share_out(draw, pool: dict, keys: list) -> list[dict]:
    """Each of `keys` takes some of what is left of every item of `pool`."""
    left = dict(pool)
    shares = []
    for _ in keys:
        share = {}
        for item, available in left.items():
            n = draw(st.integers(0, available))
            left[item] -= n
            if n or draw(st.booleans()):  # a missing count means 0
                share[item] = n
        shares.append(share)
    return shares


# --- scoresheets within the box ------------------------------------------------------------------

def dig_it_up_pool(variant: str, players: int) -> dict[str, int]:
    """The tiles of the board a table of `players` plays on (the simplified game's by its size)."""
    sites = dig_it_up_box.board(variant, players)["sites"]
    pool = Counter({"stone": len(sites)})
    for site in sites:
        pool.update(dig_it_up_box.SITES[site][1])
    return dict(pool)


@st.composite
def dig_it_up_sheets(draw) -> dict:
    variant = draw(st.sampled_from(list(dig_it_up_box.VARIANTS)))
    spec = dig_it_up_box.VARIANTS[variant]
    players = draw(names())
    tiles = share_out(draw, dig_it_up_pool(variant, len(players)), players)
    within_sites(tiles, variant)
    kept = {c["id"]: c["count"] for c in dig_it_up_box.CARDS
            if spec["cards"] and c["colour"] == "orange" and (spec["multi"] or not c["multi"])}
    cards = share_out(draw, kept, players)
    # each mission is one card of the box: a player keeps one of those still in it
    missions = [m["id"] for m in dig_it_up_box.MISSIONS if spec["multi"] or not m["multi"]]

    def mission(kept: list[str]) -> st.SearchStrategy:
        return st.one_of(
            st.none(),
            # the counts judge a mission unless only play can tell (score.declared)
            st.sampled_from(kept).flatmap(lambda m: st.fixed_dictionaries(
                {"id": st.just(m), **({"achieved": st.booleans()} if declared(m) else {})})),
            st.fixed_dictionaries({"bonus": st.integers(0, 100), "achieved": st.booleans()}))
    sheet: dict = {"players": []}
    if variant != "standard" or draw(st.booleans()):
        sheet["variant"] = variant
    # without chance cards, money tokens come from the board's +2 tiles alone (RULINGS §1), each
    # a gold tile its player keeps
    plus_two = dig_it_up_box.PLUS_TWO_VALUE
    tokens_left = plus_two * dig_it_up_box.DEFAULT.plus_two_tiles(variant, len(players))
    # money below zero is Hazardous Area's −5 ₩ tokens, four in the box; above it, what the
    # +2 tiles and the money cards give (box.money_in_play)
    hazard = next(c for c in dig_it_up_box.CARDS if c.get("token", 0) < 0)
    hazards_left = hazard["count"]
    money_left = dig_it_up_box.DEFAULT.money_in_play(variant, len(players))
    for name, held, kept_cards in zip(players, tiles, cards, strict=True):
        # a card is drawn for a ★ tile dug, one a tile: the cards past the ★ tiles go back
        stars = sum(held.get(t, 0) for t in dig_it_up_box.STAR_TILES)
        for card in list(kept_cards):
            kept_cards[card] = min(kept_cards[card], stars)
            stars -= kept_cards[card]
            if not kept_cards[card]:
                del kept_cards[card]
        stars = sum(held.get(t, 0) for t in dig_it_up_box.STAR_TILES)
        if spec["cards"]:
            tokens = draw(st.integers(hazard["token"] * hazards_left, money_left))
            hazards_left -= -(min(tokens, 0) // -hazard["token"])
            money_left -= max(tokens, 0)
        else:
            most = min(tokens_left, plus_two * held.get(dig_it_up_box.PLUS_TWO_TILE, 0))
            tokens = plus_two * draw(st.integers(0, most // plus_two))
            tokens_left -= tokens
        player = {"name": name, "tiles": held, "tokens": tokens}
        if kept_cards:
            player["cards"] = kept_cards
        if spec["missions"] and (chosen := draw(mission(missions))) is not None:
            player["mission"] = chosen
            if "id" in chosen:
                missions.remove(chosen["id"])
            if chosen.get("id") == "card_shark" and sum(kept_cards.values()) >= 5:
                chosen["achieved"] = True  # the cards kept were drawn: five prove it
            if chosen.get("id") == "card_shark" and stars < 5:
                chosen["achieved"] = False  # five cards were never drawn for fewer ★ tiles
        sheet["players"].append(player)
    return sheet


@st.composite
def dig_sheets(draw) -> dict:
    players = draw(names())
    pool = dict.fromkeys(dig_box.COLOURS, dig_box.BONES_PER_COLOUR)
    return {"bowls": draw(st.permutations(list(dig_box.COLOURS))),
            "players": [{"name": name, "dropped": dropped}
                        for name, dropped in zip(players, share_out(draw, pool, players),
                                                 strict=True)]}


@st.composite
def rosters(draw) -> list[dict]:
    ids = draw(st.lists(st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True),
                        min_size=1, max_size=5, unique=True))
    return [{"id": dino_id, "values": draw(st.lists(st.integers(0, 10), min_size=1, max_size=8)),
             "set_value": draw(st.integers(0, 60))} for dino_id in ids]


@st.composite
def dinos_sheets(draw) -> dict:
    sheet: dict = {}
    roster = dinos_box.ROSTER
    if draw(st.booleans()):
        roster = sheet["roster"] = draw(rosters())
    players = draw(names())
    pool = {(d["id"], p): dinos_box.ERAS for d in roster for p in range(1, len(d["values"]) + 1)}
    sheet["players"] = []
    for name, held in zip(players, share_out(draw, pool, players), strict=True):
        tiles: dict[str, list[int]] = {}
        for (dino_id, position), n in held.items():
            tiles.setdefault(dino_id, []).extend([position] * n)
        # no one completes more than six dinosaurs (score.most_completed): a tile of a position
        # the fewest hold goes back until no more are complete
        by_id = {d["id"]: d for d in roster}
        while sum(complete_sets(by_id[d], held) for d, held in tiles.items()) > MOST_COMPLETED:
            dino_id = next(d for d, held in tiles.items() if complete_sets(by_id[d], held))
            positions = tiles[dino_id]
            positions.remove(min(set(positions), key=positions.count))
        # tiles come from the eras in any order
        tiles = {dino_id: draw(st.permutations(positions)) for dino_id, positions in tiles.items()}
        sheet["players"].append({"name": name, "tiles": tiles})
    return sheet


SHEETS = {"dig-it-up": dig_it_up_sheets(), "dig": dig_sheets(),
          "digging-for-dinos": dinos_sheets()}


def breakdown_sum(game: str, breakdown: dict) -> int:
    if game == "dig-it-up":
        return (breakdown["mission"] + breakdown["cards"] + breakdown["tokens"]
                + sum(breakdown["sets"].values()) + breakdown["bundles"])
    if game == "dig":
        return sum(colour["points"] for colour in breakdown.values())
    return sum(c["value"] for c in breakdown["completed"]) + breakdown["loose"]


def scored(client, document, game: str, sheet: dict) -> dict:
    response = client.post(score_url(game), json=sheet)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert_documented(document, score_url(game), "post", response)
    return response.get_json()


# --- properties ----------------------------------------------------------------------------------

@pytest.mark.parametrize("game", list(SHEETS))
def test_total_is_the_sum_of_the_breakdown(client, document, game):
    @PROPERTIES
    @given(sheet=SHEETS[game])
    def check(sheet):
        result = scored(client, document, game, sheet)
        assert [p["name"] for p in result["players"]] == [p["name"] for p in sheet["players"]]
        for player in result["players"]:
            assert player["total"] == breakdown_sum(game, player["breakdown"])
    check()


def test_dig_points_are_bones_times_the_bowl_value(client, document):
    @PROPERTIES
    @given(sheet=SHEETS["dig"])
    def check(sheet):
        value = dict(zip(sheet["bowls"], (5, 4, 3, 2, 1), strict=True))
        result = scored(client, document, "dig", sheet)
        for asked, player in zip(sheet["players"], result["players"], strict=True):
            for colour, entry in player["breakdown"].items():
                assert entry["bones"] == asked["dropped"].get(colour, 0)
                assert entry["points"] == entry["bones"] * value[colour]
    check()


@pytest.mark.parametrize("game", list(SHEETS))
def test_reordering_players_changes_no_score_or_rank(client, document, game):
    @PROPERTIES
    @given(sheet=SHEETS[game], data=st.data())
    def check(sheet, data):
        before = scored(client, document, game, sheet)
        shuffled = {**sheet, "players": data.draw(st.permutations(sheet["players"]))}
        after = scored(client, document, game, shuffled)
        by_name = {p["name"]: p for p in before["players"]}
        assert [p["name"] for p in after["players"]] == [p["name"] for p in shuffled["players"]]
        for player in after["players"]:
            assert player == by_name[player["name"]]
        assert set(after["winners"]) == set(before["winners"])
    check()


@pytest.mark.parametrize("game", list(SHEETS))
def test_ranks_follow_the_totals_and_rank_one_wins(client, document, game):
    @PROPERTIES
    @given(sheet=SHEETS[game])
    def check(sheet):
        result = scored(client, document, game, sheet)
        players = result["players"]
        assert result["winners"] == [p["name"] for p in players if p["rank"] == 1]
        for a in players:
            # a rank counts the players placed strictly ahead: ties share (1, 1, 3)
            assert a["rank"] == 1 + sum(1 for b in players if b["rank"] < a["rank"])
            for b in players:
                if a["total"] > b["total"]:
                    assert a["rank"] < b["rank"]
    check()


# --- anything else is a documented problem, never a 5xx ------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                max_size=4),
    max_leaves=20)


def mutated(sheet_strategy: st.SearchStrategy[dict]) -> st.SearchStrategy[dict]:
    """A valid scoresheet with one value somewhere replaced by arbitrary JSON."""
    @st.composite
    def build(draw):
        sheet = json.loads(json.dumps(draw(sheet_strategy)))
        node = sheet
        while True:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            if not keys:
                return sheet
            key = draw(st.sampled_from(keys))
            child = node[key]
            if isinstance(child, dict | list) and child and draw(st.booleans()):
                node = child
                continue
            node[key] = draw(JSON)
            return sheet
    return build()


@pytest.mark.parametrize("game", list(SHEETS))
def test_every_answer_to_any_body_is_documented_and_never_a_5xx(client, document, game):
    @PROPERTIES
    @given(body=st.one_of(JSON, mutated(SHEETS[game])))
    def check(body):
        response = client.post(score_url(game), data=json.dumps(body),
                               content_type="application/json")
        assert response.status_code < 500, response.get_data(as_text=True)
        if response.status_code != 200:
            assert response.mimetype == PROBLEM_JSON
            assert response.status_code in (400, 422)
        assert_documented(document, score_url(game), "post", response)
    check()

"""Two app servers, each its own gunicorn with two workers, on one PostgreSQL: twenty tables
(`make soak`: two hundred) of every game play at once, each seat's client sending each request
to either server, then every match is read back through both (its log, every page) and its log
replayed with the engine (API.md "Matches"). A few tables have two clients race one seat on one
version through different servers; every seat of a simultaneous step (Dig It Up's mission
choice) posts at the same moment through both (API.md "Simultaneous steps"). The servers share
a Redis store for the creation rate limit, set high enough never to refuse these tables."""

import os

import pytest

from scoring.engine import FINISHED
from scoring.games import GAMES
from tests.pg import postgres_cluster
from tests.redis import redis_server
from tests.server import serve_side_by_side
from tests.tables import check_all, lineup, play

# Enough for every variant and player count and a few races; `make soak` sets more.
TABLES = int(os.environ.get("DIGSITE_TEST_TABLES", "20"))
RACES = 4  # the first table of each game, then one more
MAX_ACTIONS = 60  # DIG may take hundreds of actions to end: enough to cross every kind of step
SEED = 7000


@pytest.fixture(scope="module")
def tables():
    """The played matches and what reading them back found wrong."""
    with postgres_cluster() as database, redis_server() as redis:
        # Every seat's client comes from this one address: the per-address connection limit,
        # meant for a crowd's one phone each, is lifted (`make soak` holds hundreds at once).
        env = {"DATABASE_URL": database, "DIGSITE_RATE_LIMIT": "10000/minute",
               "DIGSITE_RATE_LIMIT_STORAGE": redis, "DIGSITE_CONNECTIONS_PER_ADDRESS": "0"}
        with serve_side_by_side(env, 2, workers=2) as servers:
            urls = [server.url for server in servers]
            played = play(urls, lineup(TABLES, RACES, SEED), MAX_ACTIONS)
            yield played, check_all(urls, played)


def test_every_request_of_every_table_is_answered_as_the_api_says(tables):
    played, _ = tables
    assert [error for match in played for error in match.errors] == []


def test_the_tables_cover_every_game_variant_and_player_count(tables):
    played, _ = tables
    seated = {(m.table.game, m.table.variant, m.table.players) for m in played}
    assert seated == {(game_id, variant, n) for game_id, game in GAMES.items()
                      for variant, n in game.tables()}
    assert len(played) == TABLES
    assert all(m.accepted for m in played)


def test_each_match_plays_to_its_end_or_the_cap_and_some_end(tables):
    """So the replay compares finished matches' results too, not only states in play."""
    played, _ = tables
    assert all(m.status == FINISHED or len(m.accepted) >= MAX_ACTIONS for m in played)
    assert any(m.status == FINISHED for m in played)


def test_every_accepted_action_is_logged_once_in_order_and_the_log_replays(tables):
    """The log, every page, holds exactly the 200-answered actions at the seqs their answers gave,
    seqs 1, 2, 3… without gaps, nothing refused; the version is 1 + its entries; replayed from the
    seed it gives the state every seat and the spectator are shown."""
    _, problems = tables
    assert problems == []


def test_racing_clients_on_one_version_through_two_servers_exactly_one_wins(tables):
    played, _ = tables
    racing = [m for m in played if m.table.race]
    assert {m.table.game for m in racing} == set(GAMES)
    races = [race for m in racing for race in m.races]
    assert len(races) >= RACES * 10
    assert all(race == [200, 409] for race in races), races
    # the loser's 409 is its only refusal, and only racing tables meet one
    assert sum(len(m.refused) for m in racing) == len(races)
    assert [m.refused for m in played if not m.table.race] == [[]] * (TABLES - len(racing))


def test_every_seat_of_a_simultaneous_step_through_both_servers_is_accepted(tables):
    played, _ = tables
    steps = [step for m in played for step in m.together]
    assert len(steps) >= 5
    for statuses, servers in steps:
        assert len(statuses) >= 2 and servers == {0, 1}
        assert set(statuses) == {200}


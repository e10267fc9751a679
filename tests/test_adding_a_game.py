"""README "Adding a game": every game in the registry has every part, and no file outside those
parts names it, so a new game is its own package, its schema module, its sheet, its tests and one
line in scoring/games.py."""

import importlib
import re
from pathlib import Path

import pytest

from scoring.bots.search import Budget
from scoring.engine import Game
from scoring.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
PRODUCTION = ["app.py", "cli.py", "gunicorn.conf.py", "scoring", "api", "web"]
REGISTRY = ROOT / "scoring" / "games.py"


@pytest.fixture(params=GAMES.values(), ids=lambda g: g.id)
def game(request) -> Game:
    return request.param


def own_parts(game: Game) -> set[Path]:
    return {*(ROOT / "scoring" / game.package).rglob("*.py"),
            ROOT / "api" / "schemas" / f"{game.package}.py",
            ROOT / "web" / "static" / "sheets" / f"{game.id}.js",
            ROOT / "web" / "static" / "boards" / f"{game.id}.js"}


def test_its_box_states_the_facts_the_protocol_reads(game):
    box = importlib.import_module(f"scoring.{game.package}.box")
    assert game.box is box.DEFAULT and (box.GAME_ID, box.NAME) == (game.id, game.name)
    assert box.DEFAULT_VARIANT in box.VARIANTS
    for spec in box.VARIANTS.values():
        low, high = spec["players"]
        assert spec["name"] and 1 <= low <= high
    assert isinstance(box.box_data(), dict)


def test_its_engine_uses_its_own_calculator_and_the_naming_pattern(game):
    calculator = importlib.import_module(f"scoring.{game.package}.score")
    assert game.score == calculator.score and game.score.__self__ is calculator.CALCULATOR
    assert type(game).__name__ == f"{game.prefix}Game"
    assert type(game).__module__ == f"scoring.{game.package}.engine"
    assert game.moves


def test_its_schema_module_exports_the_same_names(game):
    schemas = importlib.import_module(f"api.schemas.{game.package}")
    for name in ("ScoreRequestSchema", "ResultSchema", "GameSchema"):
        assert isinstance(getattr(schemas, name), type), name
    assert schemas.EXAMPLES, "the calculator documents the rulebook's examples"


def test_its_bots_module_supplies_what_the_bots_read(game):
    bots = importlib.import_module(f"scoring.{game.package}.bots")
    for name in ("greedy", "playout", "Sampler", "obvious", "evaluate", "figures"):
        assert callable(getattr(bots, name)), name
    assert isinstance(bots.SEARCH, Budget)


def test_its_sheet_and_its_tests_exist(game):
    sheet = ROOT / "web" / "static" / "sheets" / f"{game.id}.js"
    assert re.search(r"^export ", sheet.read_text(), re.M), sheet
    for test in (ROOT / "tests" / "scoring" / f"test_{game.package}_score.py",
                 ROOT / "tests" / "engine" / f"test_{game.package}_rules.py"):
        assert re.search(r"^def test_", test.read_text(), re.M), test


def test_its_endpoints_are_served(client, game):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    for path in (f"/api/v1/games/{game.id}", f"/api/v1/games/{game.id}/score",
                 f"/api/v1/games/{game.id}/matches"):
        assert path in paths


def names_of(game: Game) -> re.Pattern:
    """How code names a game: its id as a string, its package's modules, its class prefix (not
    as the start of another game's: Dig in DigItUp)."""
    longer = "".join(f"(?!{g.prefix.removeprefix(game.prefix)})" for g in GAMES.values()
                     if g is not game and g.prefix.startswith(game.prefix))
    return re.compile(rf"""["'`/]{re.escape(game.id)}["'`/.]"""
                      rf"|\b(scoring|schemas)[./]{game.package}\b|\b{game.prefix}{longer}[A-Z]")


def test_no_shared_production_file_names_it(game):
    allowed = {REGISTRY}.union(*(own_parts(g) for g in GAMES.values()))
    pattern = names_of(game)
    naming = []
    for top in PRODUCTION:
        path = ROOT / top
        for file in [path] if path.is_file() else sorted(path.rglob("*")):
            if file.suffix in {".py", ".js", ".html"} and file not in allowed:
                if pattern.search(file.read_text()):
                    naming.append(str(file.relative_to(ROOT)))
    assert naming == []

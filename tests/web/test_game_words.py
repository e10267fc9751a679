"""Each game's words are its own (README "Adding a game"): the page's shared tables
(web/static/lang/) hold only the words every screen shares, and a game's words, beside its sheet
(web/static/sheets/<id>.words.js), say the same things in English and Korean. So a new game adds
its words beside its sheet and changes no shared table; the page finds them once the game's sheet
is loaded (i18n.js)."""

import json
import re
import shutil
import subprocess
from itertools import combinations
from pathlib import Path

import pytest

from scoring.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static"
LANGUAGES = ("en", "ko")

# Prints each table as JSON: a string as it is, a function as {"fn": its source}, null as null.
DUMP = """
const show = (value) => typeof value === "function" ? { fn: String(value) }
  : value && typeof value === "object"
    ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, show(v)]))
  : value;
const files = JSON.parse(process.argv[1]);
const tables = {};
for (const [name, path] of Object.entries(files)) tables[name] = show((await import(path)).default);
console.log(JSON.stringify(tables));
"""


def words_file(game_id: str) -> Path:
    return STATIC / "sheets" / f"{game_id}.words.js"


@pytest.fixture(scope="module")
def tables() -> dict:
    """The shared tables by language ("en", "ko") and each game's words by its id."""
    node = shutil.which("node")
    assert node, "Node reads the page's tables: `make test` installs it (system-deps)"
    files = {code: (STATIC / "lang" / f"{code}.js").as_uri() for code in LANGUAGES}
    files.update({game: words_file(game).as_uri() for game in GAMES if words_file(game).exists()})
    run = subprocess.run([node, "--input-type=module", "-e", DUMP, json.dumps(files)],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)


def keys(table: dict) -> set[str]:
    """A table's strings by key and its items as "items.<kind>.<id>"."""
    return {key for key in table if key != "items"} | {
        f"items.{kind}.{id_}" for kind, names in table.get("items", {}).items() for id_ in names}


def entries(table: dict) -> dict:
    return {**{k: v for k, v in table.items() if k != "items"}, **{
        f"items.{kind}.{id_}": v for kind, names in table.get("items", {}).items()
        for id_, v in names.items()}}


@pytest.mark.parametrize("game", GAMES)
def test_a_game_says_each_of_its_words_in_english_and_in_korean(tables, game):
    assert words_file(game).exists(), f"{game}'s words go in {words_file(game).relative_to(ROOT)}"
    own = tables[game]
    assert set(own) == set(LANGUAGES), "one table per language: { en: {...}, ko: {...} }"
    english, korean = keys(own["en"]), keys(own["ko"])
    assert sorted(english - korean) == [], "in English only"
    assert sorted(korean - english) == [], "in Korean only"
    # English may leave an item to the box's own words (null); Korean never can.
    assert [key for key, value in entries(own["ko"]).items() if value is None] == []


def test_the_shared_tables_name_no_games_items(tables):
    for code in LANGUAGES:
        assert "items" not in tables[code], "tiles, cards, colours, dinosaurs… are a game's words"


@pytest.mark.parametrize("game", GAMES)
def test_a_games_words_are_not_in_the_shared_tables(tables, game):
    for code in LANGUAGES:
        shared = set(tables[code])
        assert sorted(shared & keys(tables[game][code])) == [], code
        assert [key for key in shared if game in key.split(".")] == [], "a key naming the game"


def shared_code() -> str:
    """The page's files other than the games' own: its screens, its shared scorer parts, its
    template."""
    own = {words_file(g) for g in GAMES} | {STATIC / "sheets" / f"{g}.js" for g in GAMES} \
        | {STATIC / "scoring" / f"{g}.js" for g in GAMES}
    files = [p for p in sorted(STATIC.rglob("*.js")) if p not in own and p.parent.name != "lang"]
    files += sorted((ROOT / "web" / "templates").glob("*.html"))
    return "\n".join(p.read_text(encoding="utf-8") for p in files)


def test_every_shared_word_is_used_by_the_shared_page(tables):
    """A word only a game's sheet or scorer asks for is that game's: it goes beside its sheet."""
    code = shared_code()

    def used(key: str) -> bool:
        # a refusal's words are asked for by its code, "problem.<code>"
        names = [key, key.removeprefix("problem.")] if key.startswith("problem.") else [key]
        return any(re.search(rf"""["'`]{re.escape(name)}["'`]""", code) for name in names)

    for code_ in LANGUAGES:
        assert sorted(key for key in tables[code_] if not used(key)) == [], code_


def test_no_two_games_give_a_key_different_words(tables):
    """The page looks a word up among every loaded game's: two games may share a key only where
    they say the same."""
    for a, b in combinations(GAMES, 2):
        for code in LANGUAGES:
            one, other = entries(tables[a][code]), entries(tables[b][code])
            differ = [key for key in one.keys() & other.keys() if one[key] != other[key]]
            assert differ == [], (a, b, code)

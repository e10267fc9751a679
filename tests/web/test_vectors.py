"""The page scores as the server does: its scorers (web/static/scoring/) give the Python
calculators' answers on every shared vector (vectors.py); and it speaks English and Korean alike
(web/static/lang/). Both run under Node (node --test) with the box data the catalogue sends."""

import json
import os
import shutil
import subprocess
from pathlib import Path

from scoring.games import GAMES
from tests.web import vectors

HERE = Path(__file__).parent


def test_the_vectors_are_what_the_calculators_answer_today():
    assert vectors.PATH.read_text(encoding="utf-8") == vectors.build(), \
        "the calculators answer otherwise: rewrite with `python -m tests.web.vectors`"


def test_every_game_has_300_vectors_with_refusals_ties_and_tie_breaks():
    cases = json.loads(vectors.PATH.read_text(encoding="utf-8"))
    assert set(cases) == set(GAMES)
    for game, answers in cases.items():
        results = [case["result"] for case in answers if "result" in case]
        assert len(answers) >= 300 and len(results) < len(answers), game
        assert any(len(result["winners"]) > 1 for result in results), game
    for game in ("dig", "digging-for-dinos"):
        assert any(case.get("result", {}).get("tie_break") for case in cases[game]), game


def node_test(client, tmp_path, script: str) -> None:
    """Runs `script` with `node --test`, the catalogue's box data in DIGSITE_BOXES."""
    boxes = tmp_path / "boxes.json"
    boxes.write_text(json.dumps({game: client.get(f"/api/v1/games/{game}").get_json()
                                 for game in GAMES}))
    node = shutil.which("node")
    assert node, "Node runs the page's scripts: `make test` installs it (system-deps)"
    run = subprocess.run([node, "--test", str(HERE / script)], capture_output=True, text=True,
                         env={**os.environ, "DIGSITE_BOXES": str(boxes)}, timeout=120)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_the_pages_scorers_answer_as_the_calculators(client, tmp_path):
    node_test(client, tmp_path, "scoring.test.mjs")


def test_the_page_speaks_english_and_korean_alike(client, tmp_path):
    node_test(client, tmp_path, "lang.test.mjs")

"""What a TypeScript integrator does with the document (issue 22): generate types from the served
/api/openapi.json with openapi-typescript, compile tests/api/typescript/play.ts against them with
tsc --strict, and run it under Node: through openapi-fetch it plays one whole match of each game
against the real server, narrowing a view by `game` to its game's state, legal actions and result,
and an action by `type` to its move. A document that stops narrowing fails the compilation."""

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCE = Path(__file__).resolve().parent / "typescript"
BIN = ROOT / "node_modules" / ".bin"
SCHEMAS = "#/components/schemas/"
# What play.ts types its path with: the answers it reads and the request it posts.
USED = ("Created", "View", "ActionRequest", "Log")
# Any attempt to reach the network while generating or compiling goes to a closed local port.
OFFLINE = {name: "http://127.0.0.1:9" for name in
           ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")}


def run(command: list[str | Path], cwd: Path, timeout: int = 180) -> str:
    done = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout,
                          env={**os.environ, **OFFLINE, "NO_PROXY": "", "NO_COLOR": "1",
                               "REDOCLY_TELEMETRY": "off"})
    said = done.stdout + done.stderr
    assert done.returncode == 0, f"{' '.join(map(str, command))}:\n{said[-6000:]}"
    return said


def prepare(folder: Path, document: bytes) -> None:
    """play.ts and its tsconfig.json beside the document and the types generated from it, in a
    module package that finds the repository's node_modules."""
    for name in ("play.ts", "tsconfig.json"):
        shutil.copy(SOURCE / name, folder / name)
    (folder / "package.json").write_text('{"type": "module"}\n')
    (folder / "node_modules").symlink_to(ROOT / "node_modules")
    (folder / "openapi.json").write_bytes(document)
    said = run([BIN / "openapi-typescript", "openapi.json", "--output", "schema.d.ts"], folder)
    # every construct of the document understood (the health probes' lack of a 4xx is known)
    assert not [line for line in said.splitlines() if "⚠" in line and "4XX" not in line], said


def compile_play(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "tsc"), "-p", str(folder)], cwd=folder,
                          capture_output=True, text=True, timeout=180)


@pytest.fixture(scope="module")
def document(live_server) -> bytes:
    import urllib.request

    with urllib.request.urlopen(f"{live_server.url}/api/openapi.json", timeout=10) as answer:
        return answer.read()


@pytest.fixture(scope="module")
def compiled(document, tmp_path_factory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("typescript")
    prepare(folder, document)
    built = compile_play(folder)
    assert built.returncode == 0, built.stdout + built.stderr
    yield folder


def code_of(source: str) -> str:
    """The TypeScript without its comments and string literals."""
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    source = re.sub(r"//[^\n]*", "", source)
    return re.sub(r"`[^`]*`|\"[^\"\n]*\"|'[^'\n]*'", '""', source)


def test_the_program_neither_casts_nor_gives_up_its_types():
    code = code_of((SOURCE / "play.ts").read_text())
    for word in ("any", "as", "unknown", "@ts-ignore", "@ts-nocheck", "@ts-expect-error"):
        assert not re.search(rf"(?<![\w@-]){re.escape(word)}(?![\w-])", code), word
    config = json.loads((SOURCE / "tsconfig.json").read_text())["compilerOptions"]
    assert config["strict"] is True and config["noEmitOnError"] is True


def reachable(schemas: dict, names: tuple[str, ...]) -> set[str]:
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += re.findall(rf'"{re.escape(SCHEMAS)}([^"]+)"', json.dumps(schemas[name]))
    return seen


def declaration(types: str, name: str) -> str:
    """The generated type of one component, comments left out: its line, or the lines to the
    one that closes it."""
    lines = types[types.index(f"\n        {name}: ") + 1:].splitlines()
    if lines[0].endswith(";"):
        return code_of(lines[0])
    end = next(i for i, line in enumerate(lines) if re.fullmatch(r" {8}\}.*;", line))
    return code_of("\n".join(lines[:end + 1]))


def test_no_open_map_or_unknown_on_the_path_played(compiled):
    """Every type the program's answers and actions are made of is exact: no
    `{[key: string]: unknown}` for an open object, no `unknown` for an untyped value."""
    schemas = json.loads((compiled / "openapi.json").read_text())["components"]["schemas"]
    types = (compiled / "schema.d.ts").read_text()
    names = reachable(schemas, USED)
    assert {"ViewOfDig", "ViewOfDigItUp", "ViewOfDinos", "DigState", "DinosMoveAction",
            "DigItUpResult", "DigBreakdown", "GameEvent", "DigLoggedAction"} <= names
    for name in sorted(names):
        assert "unknown" not in declaration(types, name), (name, declaration(types, name))


def test_a_typescript_client_plays_each_game_to_the_end(compiled, live_server):
    said = run(["node", compiled / "out" / "play.js", live_server.url], compiled, timeout=300)
    played = said.splitlines()
    assert [line.split(":")[0] for line in played] == ["dig-it-up", "dig", "digging-for-dinos"]
    assert all(" actions, " in line and "winners " in line for line in played), said


def test_without_the_views_of_each_game_the_program_does_not_compile(document, tmp_path):
    """The narrowing is the document's: with View's per-game views taken out, `game` no longer
    tells a view's state, actions and result apart, and tsc refuses the program."""
    loose = json.loads(document)
    del loose["components"]["schemas"]["View"]["allOf"]
    prepare(tmp_path, json.dumps(loose).encode())
    built = compile_play(tmp_path)
    assert built.returncode != 0
    assert "error TS" in built.stdout and "play.ts" in built.stdout, built.stdout

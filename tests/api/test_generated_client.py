"""What an integrator does with the document (issue 11): generate a client from the served
/api/openapi.json with openapi-python-client, offline, and play one whole match of each game
against the real server through its typed functions and models. Views, legal actions, states and
results arrive as the generated classes; actions are posted as the generated action models (a
legal action as listed, or one built from its class), never as dicts."""

import contextlib
import importlib
import os
import random
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from scoring.games import GAMES

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
PACKAGE = "digsite_client"  # from the document's title
# Any attempt to reach the network during generation goes to a closed local port.
OFFLINE = {name: "http://127.0.0.1:9" for name in
           ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")}
# A table of each game, a seed, and the most actions the match may take to end.
MATCHES = {
    "dig-it-up": ("small", ["Ann", "Bob"], 11, 200),
    "dig": ("standard", ["Ann", "Bob"], 3, 2000),
    "digging-for-dinos": ("standard", ["Ann", "Bob"], 5, 400),
}


@pytest.fixture(scope="module")
def digsite(live_server, tmp_path_factory) -> Iterator[ModuleType]:
    """The client package generated from the live server's document, imported."""
    out = tmp_path_factory.mktemp("generated")
    with urllib.request.urlopen(f"{live_server.url}/api/openapi.json", timeout=10) as response:
        (out / "openapi.json").write_bytes(response.read())
    (out / "config.yaml").write_text("post_hooks: []\n")  # no formatter over the code
    generated = subprocess.run(
        [GENERATOR, "generate", "--path", out / "openapi.json", "--meta", "none",
         "--output-path", out / PACKAGE, "--config", out / "config.yaml"],
        capture_output=True, text=True, timeout=120, env={**os.environ, **OFFLINE, "NO_PROXY": ""})
    said = generated.stdout + generated.stderr
    assert generated.returncode == 0, said
    assert "warning" not in said.lower(), said  # every construct of the document understood
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def operation(name: str) -> ModuleType:
    """A generated operation module, named after its operationId."""
    return importlib.import_module(f"{PACKAGE}.api.{name}")


def snake(prefix: str) -> str:
    """DigItUp -> dig_it_up: how the generator names the module of createDigItUpMatch."""
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in prefix).lstrip("_")


def camel(move: str) -> str:
    """put_back -> PutBack: a move's part of its model's name."""
    return "".join(part.title() for part in move.split("_"))


def first_legal(view: Any, models: ModuleType, rng: random.Random) -> Any:
    return view.legal_actions[0]


def dig_policy(view: Any, models: ModuleType, rng: random.Random) -> Any:
    """Carry one bone at a time to a bowl of its colour: a random walk through DIG takes over a
    thousand actions, this a few hundred (180 with this seed)."""
    options: dict[str, list[Any]] = {}
    for action in view.legal_actions:
        options.setdefault(action.type_.value, []).append(action)
    state = view.state
    hand = {card.bone.value for card in state.hand}
    if "drop" in options:
        return max(options["drop"], key=lambda action: len(action.cards))
    if "put_back" in options and ("keep" not in options or len(state.hand) > 1):
        return options["put_back"][-1]
    if "keep" in options:
        return options["keep"][0]

    def worth(move: Any) -> int:
        card = state.yard[move.to - 1]
        if card is None:
            return -1
        if card.kind == models.DigYardCardKind.BOWL:
            return 3 if card.colour.value in hand else -1
        return -1 if hand else 1

    moves = options.get("move", [])
    best = max((worth(move) for move in moves), default=-1)
    if best == 3 or (best > 0 and ("dig" not in options or hand)):
        target = rng.choice([move.to for move in moves if worth(move) == best])
        return models.DigMoveAction(type_=models.DigMoveActionType.MOVE, to=target)
    if "dig" in options and not hand:
        return options["dig"][0]
    if moves and rng.random() < 0.5:
        return rng.choice(moves)
    return options.get("end_turn", view.legal_actions)[0]


POLICIES = {"dig": dig_policy}


@pytest.mark.parametrize("game_id", list(MATCHES))
def test_a_generated_client_plays_a_whole_match(digsite, live_server, game_id):
    game = GAMES[game_id]
    variant, names, seed, most = MATCHES[game_id]
    models = importlib.import_module(f"{PACKAGE}.models")
    create = operation(f"matches.create_{snake(game.prefix)}_match")  # createDigMatch…
    get_match, post_action = operation("matches.get_match"), operation("matches.post_action")
    # The model of each of the game's moves (DigMoveAction…): what its legal actions parse as.
    own_actions = tuple(getattr(models, f"{game.prefix}{camel(move)}Action") for move in game.moves)
    request = getattr(models, f"{game.prefix}CreateMatch")(
        players=names, variant=getattr(models, f"{game.prefix}CreateMatchVariant")(variant),
        seed=seed)

    with contextlib.ExitStack() as stack:
        host = stack.enter_context(digsite.Client(base_url=live_server.url))
        created = create.sync(client=host, body=request)
        assert isinstance(created, models.Created), created
        assert created.view.status in (models.ViewStatus.SETUP, models.ViewStatus.PLAYING)
        seats = {seat.seat: stack.enter_context(digsite.AuthenticatedClient(
            base_url=live_server.url, token=seat.token)) for seat in created.seats}
        assert sorted(seats) == list(range(len(names)))

        choose = POLICIES.get(game_id, first_legal)
        rng = random.Random(seed)
        view, actions = created.view, 0
        while view.status != models.ViewStatus.FINISHED:
            assert actions < most, f"{game_id}: no end after {actions} actions"
            seat = view.to_act[0]
            if view.you != seat:
                view = get_match.sync(created.id, client=seats[seat])
                assert isinstance(view, models.View), view
            assert isinstance(view.state, getattr(models, f"{game.prefix}State"))
            assert view.legal_actions
            # the game's moves, and the undo of a seat's last move (API.md "Undo")
            assert all(isinstance(action, (*own_actions, models.UndoAction))
                       for action in view.legal_actions)
            action = choose(view, models, rng)
            assert isinstance(action, own_actions)
            view = post_action.sync(created.id, client=seats[seat], body=models.ActionRequest(
                action=action, version=view.version))
            assert isinstance(view, models.View), view
            actions += 1

        assert view.to_act == [] and view.legal_actions == []
        assert view.seed == seed
        result = view.result
        assert isinstance(result, getattr(models, f"{game.prefix}Result"))
        assert [player.name for player in result.players] == names
        assert result.winners and set(result.winners) <= set(names)
        assert min(player.rank for player in result.players) == 1

        log = operation("matches.get_match_log").sync(created.id, client=seats[0], limit=1000)
        assert isinstance(log, models.Log), log
        assert len(log.log) == min(actions, 1000)
        assert all(isinstance(entry, models.LogEntry) for entry in log.log)

"""Every event a game logs is said in words on the play page (web/static/boards/<game>.js, words
in web/static/play-words/), in English and in Korean: a log line that leaves an event out tells
the table less than happened ("Ann drew Strike Gold", and then nothing, where the card was spent
for want of a free tile).

The events are the engines' own, from whole matches between random bots, as a spectator and the
seat that acted see them; the few that random play seldom reaches are written out as the schemas
declare them. The page's own code words them, run by Node."""

import importlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from api.schemas.common import catalogue_entry
from scoring.dig_it_up import engine as dig_it_up_engine
from scoring.engine import FINISHED, Rng, log_entry, random_bot
from scoring.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static"
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]

# Events the log line leaves to something else, and why.
UNSAID = {
    "turn": "the next turn is the table's to show, not a log line's",
    "game_over": "said by the page's shared words (play-boards.js), for every game alike",
    "your_mission": "the missions dealt are the seat's board, never a log line others could read",
    "buried": "the bone put back is on its own board; the log says the card went back",
    "refilled": "the tile laid in an emptied space is on the grid for everyone to see",
}
# Events random play seldom reaches, as the schemas declare them (api/schemas/).
WRITTEN = {
    "dig-it-up": [{"type": "no_effect", "seat": 0, "card": "strike_gold"},
                  {"type": "no_effect", "seat": 1, "card": "hazardous_area"},
                  {"type": "deck_empty", "seat": 0},
                  {"type": "landslide", "seat": 1, "site": "B", "space": 2,
                   "tile_lost": "ruby", "token_lost": None},
                  {"type": "landslide", "seat": 1, "site": "B", "space": 3,
                   "tile_lost": "ruby", "token_lost": -5},
                  {"type": "abandoned", "seat": 0, "site": "A", "tile_lost": "stone",
                   "token_lost": None},
                  {"type": "abandoned", "seat": 0, "site": "A", "tile_lost": "gold",
                   "token_lost": 5},
                  {"type": "dig", "seat": 1, "site": "C", "roll": 5, "by": "ancient_map"},
                  {"type": "took", "seat": 0, "site": "A", "space": 3, "tile": "gold",
                   "mark": "plus_two", "token": None},
                  {"type": "took", "seat": 1, "site": "B", "space": 2, "tile": "ruby",
                   "mark": None, "token": -5}],
    "digging-for-dinos": [{"type": "free_move", "seat": 0, "token": 1, "side": "diagonal",
                           "from": [0, 0], "to": [2, 3]},
                          {"type": "took", "seat": 0, "dinosaur": "deinosuchus", "position": 2,
                           "era": 1, "completed": "deinosuchus"},
                          {"type": "flip_skipped", "seat": 1}],
}

# Whole log entries whose moves log no event of their own, and an undo: [entry, the seqs taken
# back]. DIG's read as its buttons do ("Ann: Move to card 3"), an undo named no move.
ENTRIES = {
    "dig": [[{"seq": 5, "seat": 0, "action": {"type": "move", "to": 3}, "events": []}, []],
            [{"seq": 6, "seat": 1, "action": {"type": "move", "to": 0}, "events": []}, []],
            [{"seq": 7, "seat": 0, "action": {"type": "keep"}, "events": []}, []],
            [{"seq": 8, "seat": 0, "action": {"type": "end_turn"}, "events": []}, [8]],
            [{"seq": 9, "seat": 0, "action": {"type": "undo"},
              "events": [{"type": "undone", "seq": 8}]}, [8]],
            # what came of a move alone says the move first ("The yard is reset" named nobody)
            [{"seq": 10, "seat": 1, "action": {"type": "end_turn"},
              "events": [{"type": "yard_reset", "filled": [], "slid": []}]}, []],
            # a move a bot chose for a player's seat (its time ran out)
            # a dig as the digger's own log has it: what it found said with it (it was left out)
            [{"seq": 11, "seat": 0, "action": {"type": "dig"},
              "events": [{"type": "dug", "seat": 0, "position": 3, "scent": ["yellow", "blue"]},
                         {"type": "found", "bone": "blue"}]}, []],
            [{"seq": 12, "seat": 1, "action": {"type": "move", "to": 2}, "events": [],
              "bot": "greedy"}, []],
            # a bot's end of a timed-out turn: the bot ended it, the rules reset the yard (it
            # read "The yard is reset (the greedy bot's move)"), and the last turn ends the game
            [{"seq": 13, "seat": 1, "action": {"type": "end_turn"}, "bot": "greedy",
              "events": [{"type": "yard_reset", "filled": [], "slid": []},
                         {"type": "game_over"}]}, []]],
    # the table's own entries, which name a bot by its kind
    "digging-for-dinos": [
        [{"seq": 4, "seat": 1, "action": {"type": "leave"},
          "events": [{"type": "taken_over", "seat": 1, "bot": "greedy"}]}, []],
        [{"seq": 5, "seat": 0, "action": {"type": "time_out"},
          "events": [{"type": "timed_out", "seat": 0, "bot": "random"}]}, []],
        [{"seq": 6, "seat": 0, "action": {"type": "leave"},
          "events": [{"type": "taken_over", "seat": 0, "bot": "mcts"}]}, []]],
}

# Loads the page's words and each game's part as the page does, then says every event in each
# language: {language: {game: [[event, words or null], …]}}.
SAY = """
globalThis.document = { documentElement: {} };
const [files, samples] = JSON.parse((await import("node:fs")).readFileSync(0, "utf8"));
const i18n = await import(files.i18n);
const boards = await import(files.boards);
i18n.usePack("play", (code) => import(files.play[code]));
const out = {};
for (const code of ["en", "ko"]) {
  await i18n.useLanguage(code);
  out[code] = {};
  for (const [game, { view, box, events }] of Object.entries(samples)) {
    i18n.useGameWords(game, (await import(files.words[game])).default);
    await boards.loadBoard(game);
    const part = boards.gamePart(game);
    out[code][game] = events.map((event) => [event, part.event(event, view, box)]);
    for (const [entry, back] of samples[game].entries || []) {  // whole log entries
      (out[code][`${game} entries`] ??= []).push(
        [entry, boards.describeEntry(entry, view, box, new Set(back))]);
    }
    if (game === "dig") {  // Bob's move, his seat now a bot's: his by leaving, or a bot's own
      const [move] = samples[game].entries[1];
      const seated = (player) => ({ ...view, players: view.players.map(
        (p) => (p.seat === move.seat ? { ...p, ...player } : p)) });
      out[code]["dig seat played by a bot"] = [{ bot: "greedy", away: true }, { bot: "greedy" }]
        .map((player) => [player, boards.describeEntry(move, seated(player), box, new Set())]);
    }
    if (part.stacks) {  // the line over the grid: the era now, the tiles left in each stack
      const { era, stacks } = view.state;
      out[code][`${game} stacks`] = [[{ era, stacks }, part.stacks(view.state)]];
    }
    if (game === "dig-it-up") {  // a mission, as the play page and the scorer name it
      out[code]["mission words"] = [i18n.t("play.diu.mission"), i18n.t("missionWord")];
      // each chance card drawn (named as a seat's board names the cards it keeps)
      out[code]["dig-it-up cards"] = box.cards.map(
        (c) => [c, part.event({ type: "card", seat: 1, card: c.id }, view, box)]);
      // a chance card drawn that waits for its seat's choice, as that seat (Ann's phone) and as
      // another sees it; the Thief's victims, Bob with 2 ₩ and Cy with 7 ₩, and what it took
      const purses = [4, 2, 7, 0];
      const drawn = (step, card, you) => ({ ...view, you, to_act: [0], state: {
        ...view.state, turn: { seat: 0, number: 9, step, card },
        players: view.state.players.map((p, i) => ({ ...p, purse: purses[i] })) } });
      out[code]["dig-it-up steps"] = [
        ["place_token", "strike_gold"], ["place_token", "hazardous_area"], ["steal", "thief"],
        ["landslide", "landslide"], ["dig", null],
      ].flatMap(([step, card]) => [0, 1, null].map(
        (you) => [[step, card, you], part.step(drawn(step, card, you), box, you === 0)]));
      out[code]["dig-it-up steal"] = [1, 2, 3].map((victim) =>
        [victim, part.label({ type: "steal", victim }, drawn("steal", "thief", 0), box)]);
      // where each number of an Ancient Map digs, as its button says
      out[code]["dig-it-up landings"] = samples[game].landings.map(([site, n]) => {
        const lands = part.landing(site, n);
        return [lands && { space: lands.space, tile: lands.tile }, part.mapLands(site, n)];
      });
      out[code]["dig-it-up stole"] = [0, 3].map((amount) =>
        [amount, part.event({ type: "stole", seat: 0, victim: 1, amount }, view, box)]);
      // a card a match ended with that the scorer's words do not count, in a breakdown
      const sheet = await import(files.sheet);
      const parts = { mission: 0, cards: 0, tokens: 0, sets: {}, bundles: 0 };
      const ann = { name: "Ann", tiles: {}, tokens: 0, mission: null,
                    cards: { gold_nugget: 1, ancient_map: 1 } };
      out[code]["dig-it-up kept"] = [
        [null, sheet.breakdown(box, parts, ann, { variant: "standard" })[1][0]]];
    }
    if (game === "digging-for-dinos") {  // the set-up's placing, as each seat reads it
      const placing = (side, you) => ({ ...view, you, to_act: [1], state: {
        ...view.state, phase: "placing",
        placing: { seat: 1, token: side === "orthogonal" ? 0 : 1, side } } });
      out[code]["dinos placing"] = ["orthogonal", "diagonal"].flatMap((side) => [1, 0].map(
        (you) => [[side, you], part.step(placing(side, you), box, you === 1)]));
      const place = { type: "place", row: 1, column: 2 };
      out[code]["dinos place"] = [[null, part.label(place, placing("diagonal", 1), box)]];
      const placed = { type: "placed", seat: 1, token: 1, side: "diagonal", row: 1, column: 2 };
      out[code]["dinos placed"] = [[null, part.event(placed, view, box)]];
      out[code]["dinos no placing"] = [[null, part.step(view, box, true)]];
      // a dinosaur completed with the flip ability: Bob's flip (or none) to choose
      const flipping = (you) => ({ ...view, you, to_act: [1],
                                   state: { ...view.state, phase: "flipping" } });
      out[code]["dinos flipping"] = [1, 0].map(
        (you) => [you, part.step(flipping(you), box, you === 1)]);
    }
    if (part.condition) {  // the missions a seat chooses from, as its board words them
      out[code][`${game} missions`] = box.missions.map(
        (m) => [m, part.condition(box, m.id, m.condition)]);
    }
  }
}
console.log(JSON.stringify(out));
"""


def declared(game_id: str) -> set[str]:
    return set(importlib.import_module(f"api.schemas.{GAMES[game_id].package}").EVENTS)


def described(game_id: str) -> dict:
    """The game's box as GET /api/v1/games/{game} describes it to the page (names of its cards,
    dinosaurs…)."""
    game = GAMES[game_id]
    own = importlib.import_module(f"api.schemas.{game.package}")
    return own.GameSchema().dump(catalogue_entry(game, game.detail()))


def samples(game_id: str) -> dict:
    """A spectator's view of a finished match, and an event of each kind the game logged, as a
    spectator and as the seat that acted saw it."""
    game = GAMES[game_id]
    events: dict[str, dict] = {}
    landings: list = []
    view = None
    for seed in range(12):
        players = NAMES[:max(n for v, n in game.tables() if v == game.default_variant)]
        state = game.setup(players, seed, game.default_variant)
        bot = random_bot(Rng.from_seed(seed, "bot"))
        seq = 0
        while state["status"] != FINISHED:
            if game_id == "dig-it-up" and seed < 4 and seq % 5 == 0:
                landings += map_landings(game, state)
            seat = state["to_act"][0]
            action = bot(game, state, seat)
            seq += 1
            logged = {"seq": seq, "seat": seat, "action": dict(action),
                      "events": game.act(state, seat, action)}
            for viewer in (None, seat):
                for event in log_entry(game, logged, viewer)["events"]:
                    events.setdefault(f"{event['type']}/{viewer is None}", event)
        view = {"game": game_id, "you": None, "state": game.view(state, None),
                "players": [{"seat": i, "name": n} for i, n in enumerate(players)]}
    return {"view": view, "box": described(game_id),
            "events": [*events.values(), *WRITTEN.get(game_id, [])],
            "entries": ENTRIES.get(game_id, []), "landings": landings}


def map_landings(game, state) -> list:
    """Each site of a Dig It Up state as a view shows it, each number an Ancient Map may choose,
    and the space the engine's pickax lands on for it (1-based) with the tile there."""
    found = []
    for site in game.view(state, None)["sites"]:
        spot = state["sites"][site["id"]]
        if any(tile is not None for tile in spot["tiles"]):
            for n in range(1, 7):
                index = dig_it_up_engine._landing(spot, n)
                found.append([site, n, {"space": index + 1, "tile": spot["tiles"][index]}])
    return found


@pytest.fixture(scope="module")
def said() -> dict:
    node = shutil.which("node")
    assert node, "Node runs the page's code: `make test` installs it (system-deps)"
    files = {"i18n": (STATIC / "i18n.js").as_uri(), "boards": (STATIC / "play-boards.js").as_uri(),
             "play": {code: (STATIC / "play-words" / f"{code}.js").as_uri()
                      for code in ("en", "ko")},
             "words": {g: (STATIC / "sheets" / f"{g}.words.js").as_uri() for g in GAMES},
             "sheet": (STATIC / "sheets" / "dig-it-up.js").as_uri()}
    # the samples on its standard input: as an argument they are over the system's limit
    run = subprocess.run([node, "--input-type=module", "-e", SAY],
                         input=json.dumps([files, {g: samples(g) for g in GAMES}]),
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)


@pytest.mark.parametrize("game", GAMES)
def test_every_event_a_game_logs_is_said_in_words_in_each_language(said, game):
    for code, by_game in said.items():
        worded = by_game[game]
        assert declared(game) - set(UNSAID) <= {event["type"] for event, _ in worded}, \
            "an event of the game's schema with no sample here: add it to WRITTEN"
        for event, words in worded:
            if event["type"] in UNSAID:
                continue
            assert words, f"{code}: no words for {event}"
            assert "play." not in words and "{" not in words and "undefined" not in words, \
                (code, event, words)


def test_the_missions_to_choose_from_say_their_numbers_in_each_language(said):
    """In Korean the missions a seat chose from read "금 {min}개 이상.": the number was left out."""
    for code, by_game in said.items():
        for mission, words in by_game["dig-it-up missions"]:
            assert words and "{" not in words and "undefined" not in words, (code, words)
            goal = mission.get("goal") or {}
            for bound in ("min", "max"):
                if isinstance(goal.get(bound), int) and goal[bound] > 1:
                    assert str(goal[bound]) in words, (code, mission["id"], words)


def test_an_ancient_map_played_is_said_as_played_not_as_a_roll(said):
    # RULINGS §1: a number chosen with an Ancient Map is not a roll; the moves read "Bob rolled 5
    # at Sahara", and the map left Bob's cards with nothing said of it.
    words = {code: next(w for event, w in by_game["dig-it-up"] if event.get("by") == "ancient_map")
             for code, by_game in said.items()}
    assert words["en"] == "Bob played an Ancient Map: 5 at Sahara"
    assert words["ko"] == "Bob 님이 고대 지도를 써서 사하라에서 5를 골랐습니다"


def test_a_dinosaur_completed_and_a_flip_let_go_are_said_in_words(said):
    # "Ann took Deinosuchus 2" said nothing of the dinosaur it completed, and "Bob flipped none"
    # read as a flip of nothing
    english = dict((json.dumps(e), w) for e, w in said["en"]["digging-for-dinos"])
    took, skipped = WRITTEN["digging-for-dinos"][1:]
    assert english[json.dumps(took)] == "Ann took Deinosuchus 2, completing a Deinosuchus"
    assert english[json.dumps(skipped)] == "Bob chose not to flip"


def test_the_money_a_tile_brings_is_said_with_it(said):
    # RULINGS §1: a +2 tile brings 2 ₩, a token on a tile goes to its taker; the moves said only
    # "Ann took gold", and the purses changed unexplained
    english = dict((json.dumps(e), w) for e, w in said["en"]["dig-it-up"])
    plus_two, hazard = WRITTEN["dig-it-up"][-2:]
    assert english[json.dumps(plus_two)] == "Ann took gold: +2 ₩"
    assert english[json.dumps(hazard)] == "Bob took ruby: −5 ₩"


def test_what_a_card_gives_and_what_leaves_play_is_said(said):
    """RULINGS §1: Lucky Coin and Treasure Chest give money as they are drawn; a site's last tile
    and a Landslide's leave play with the token on them. The moves said the card, the site closed
    and the tile swept away, and the purses and the tokens changed unexplained."""
    english = dict((json.dumps(e), w) for e, w in said["en"]["dig-it-up"])
    written = {json.dumps(e): e for e in WRITTEN["dig-it-up"]}
    worded = {(e["type"], e.get("token_lost")): english[key] for key, e in written.items()
              if e["type"] in ("landslide", "abandoned")}
    assert worded == {
        ("landslide", None): "Bob's Landslide at Andes swept away ruby",
        ("landslide", -5): "Bob's Landslide at Andes swept away ruby with its −5 ₩ token",
        ("abandoned", None): "Amazon is closed: its last tile, stone, leaves play",
        ("abandoned", 5): "Amazon is closed: its last tile, gold, leaves play with its 5 ₩ token"}
    cards = {card["id"]: words for card, words in said["en"]["dig-it-up cards"]}
    assert cards["lucky_coin"] == "Bob drew Lucky Coin: +2 ₩"
    assert cards["treasure_chest"] == "Bob drew Treasure Chest: +5 ₩"
    assert cards["thief"] == "Bob drew Thief"  # its money is said when it robs
    korean = {card["id"]: words for card, words in said["ko"]["dig-it-up cards"]}
    assert korean["treasure_chest"].endswith(": +5 ₩")
    for event, words in said["ko"]["dig-it-up"]:
        if event["type"] in ("landslide", "abandoned") and event["token_lost"]:
            assert minus_sign(event["token_lost"]) + " ₩ 토큰" in words, words


def minus_sign(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def test_an_ancient_map_s_numbers_say_where_each_digs_as_the_engine_lands(said):
    """A seat holding an Ancient Map chose a number from 1 to 6 with nothing to say where each
    would dig, where a Lucky Charm's choice says what a roll kept takes. Each number's button
    names the space and the tile there: the page's pickax steps as the engine's do (RULINGS
    "Board and turn"), from the start and from any space, past emptied spaces, wrapping."""
    expected = samples("dig-it-up")["landings"]
    assert len(expected) > 500
    assert {pickax > 0 for site, _, _ in expected for pickax in [site["pickax"]]} == {True, False}
    assert any(None in [s["tile"] for s in site["spaces"]] for site, _, _ in expected)
    for code, by_game in said.items():
        worded = by_game["dig-it-up landings"]
        assert [lands for lands, _ in worded] == [lands for _, _, lands in expected], code
        names = {"en": {"gold": "gold", "stone": "stone"}, "ko": {"gold": "금", "stone": "돌"}}
        for (_, words), (_, _, wanted) in zip(worded, expected, strict=True):
            assert str(wanted["space"]) in words and "{" not in words, (code, words)
            if wanted["tile"] in names[code]:
                assert names[code][wanted["tile"]] in words, (code, wanted, words)


def test_moves_that_log_no_event_are_told_as_done_and_an_undo_names_the_move(said):
    english = [words for _, words in said["en"]["dig entries"]]
    assert english == ["Ann moved to card 3", "Bob went back to the Doghouse",
                       "Ann kept the bone", "Ann ended the turn (taken back)",
                       "Ann took back move 8", "Bob ended the turn — the yard is reset",
                       "Ann dug at card 3: yellow/blue — found a blue bone",
                       "Bob moved to card 2 (the greedy bot's move)",
                       "Bob ended the turn — the yard is reset — the game is over "
                       "(the greedy bot's move)"]
    for words in (words for _, words in said["ko"]["dig entries"]):  # none "Ann: …"
        assert not re.match(r"\w+:", words) and "{" not in words and "play." not in words, words
    assert "8" in said["ko"]["dig entries"][4][1]
    assert said["ko"]["dig entries"][5][1] == "Bob 님이 차례를 마쳤습니다 — 마당을 다시 채웁니다"


def test_a_bot_is_named_by_its_kind_in_the_language_of_the_page(said):
    """In Korean the Moves read "greedy 봇이 Bob 님 대신 둡니다"."""
    english = [words for _, words in said["en"]["digging-for-dinos entries"]]
    # the search bot was named by its id, "mcts", in English
    assert english == ["A greedy bot plays for Bob",
                       "Ann ran out of time: the random bot played the turn",
                       "A search bot plays for Ann"]
    korean = [words for _, words in said["ko"]["digging-for-dinos entries"]]
    assert korean == ["욕심쟁이 봇이 Bob 님 대신 둡니다",
                      "Ann 님의 시간이 다 되어 무작위 봇이 그 차례를 두었습니다",
                      "탐색 봇이 Ann 님 대신 둡니다"]
    assert said["ko"]["dig entries"][-2][1].endswith("(욕심쟁이 봇이 둔 수)")


def test_a_person_whose_seat_a_bot_now_plays_is_still_named_as_a_person(said):
    """In Korean a player who left (or whose time ran out) lost their 님 in every line of the
    Moves, their own earlier moves too ("Bob이(가) …"), beside "Ann 님이 …": a bot that stands in
    for a person is not the seat's player. A seat a bot was given from the start is a bot's."""
    (_, kept), (_, bots) = said["ko"]["dig seat played by a bot"]
    assert kept.startswith("Bob 님이 "), kept
    assert bots.startswith("Bob이(가) "), bots


def test_a_korean_particle_is_the_one_its_word_takes(said):
    """A particle written for either kind of word ("{n}을(를)") is left so only after a word it
    cannot be read from (a name in Latin letters): the Moves read "… 3을(를) 가져갔습니다"
    where a reader says "3을"."""
    lines = [words for by_game in said["ko"].values() for _, words in by_game if words]
    assert any("을 가져갔습니다" in words or "를 가져갔습니다" in words for words in lines)
    for words in lines:
        for found in re.finditer(r"(.)(?:을\(를\)|이\(가\)|은\(는\)|와\(과\)|\(으\)로)", words):
            assert not re.match(r"[\uac00-\ud7a30-9]", found[1]), words


def test_a_token_card_spent_for_want_of_a_free_tile_says_so(said):
    english = dict((json.dumps(e), w) for e, w in said["en"]["dig-it-up"])
    words = english[json.dumps(WRITTEN["dig-it-up"][0])]
    assert words == "Strike Gold had no effect: every tile on the board already has a token"


def test_the_dinos_grid_says_the_era_now_and_the_tiles_left_in_each_stack(said):
    """The line over the grid read "era 2 · era 1 stack: 0 · era 2 stack: 12 · …": the era
    now and each stack's era, run together."""
    [[state, english]] = said["en"]["digging-for-dinos stacks"]
    left = ", ".join(f"era {s['era']}: {s['tiles']}" for s in state["stacks"])
    assert english == f"Current era: {state['era']} · Tiles left in the stacks: {left}"
    assert [s["era"] for s in state["stacks"]] == [1, 2, 3]
    [[_, korean]] = said["ko"]["digging-for-dinos stacks"]
    left = ", ".join(f"{s['era']}시대 {s['tiles']}장" for s in state["stacks"])
    assert korean == f"현재 {state['era']}시대 · 더미에 남은 타일: {left}"


def test_dig_it_up_s_sites_are_named_in_the_language_of_the_page(said):
    """In Korean the Moves read "Ann 님이 Pompeii에서 …" and "Nile이(가) 닫혔습니다": the box's
    English names, and a particle that could not be chosen after them."""
    english_names = [site["name"] for site in described("dig-it-up")["sites"]]
    for code in ("en", "ko"):
        lines = [words for event, words in said[code]["dig-it-up"] if "site" in event]
        assert lines
        named = [words for words in lines if any(name in words for name in english_names)]
        assert bool(named) == (code == "en"), (code, named)


def test_the_play_page_names_a_mission_as_the_scorer_does(said):
    """The Korean play page said "임무" where the scorer and the result's breakdown say "미션"."""
    for code in ("en", "ko"):
        play, sheet = said[code]["mission words"]
        assert play.casefold() == sheet.casefold(), code


def test_dig_it_up_s_chance_cards_are_named_as_the_rulebook_names_them(said):
    """The play page named the cards a seat keeps by the scorer's words for their counts: "Bob
    drew appraisal", "Cards: insurance", beside "Bob drew Treasure Chest". A seat's board names
    the cards it keeps by the same function."""
    for card, words in said["en"]["dig-it-up cards"]:
        assert words.startswith(f"Bob drew {card['name']}"), words
    for _card, words in said["ko"]["dig-it-up cards"]:
        assert not re.search("[A-Za-z]", words.removeprefix("Bob")), words
        assert "카드 카드" not in words, words


def test_a_chance_card_that_waits_for_a_choice_says_which_and_what_tapping_does(said):
    """Rulebook "Chance cards": a card drawn is read aloud. A seat that drew Landslide, Strike
    Gold, Hazardous Area or the Thief was shown only "Tap a highlighted place", the highlighted
    sites alike for a dig and a landslide; the others, nothing. Each seat is now told which card
    it is and what its choice does, and nothing is said of a plain dig."""
    steps = {}  # (step, card) → words for Ann (its seat), for Bob, for a spectator
    for (step, card, _you), words in said["en"]["dig-it-up steps"]:
        steps.setdefault((step, card), []).append(words)
    assert steps["landslide", "landslide"] == [
        "You drew Landslide: tap a site to sweep away its leftmost tile.",
        "Ann drew Landslide and sweeps away the leftmost tile of a site.",
        "Ann drew Landslide and sweeps away the leftmost tile of a site."]
    assert steps["place_token", "strike_gold"][0] == \
        "You drew Strike Gold: tap a tile without a token to put the 5 ₩ token on it."
    assert steps["place_token", "hazardous_area"][1] == \
        "Ann drew Hazardous Area and puts its −5 ₩ token on a tile without one."
    assert steps["steal", "thief"][0] == "You drew Thief: choose whom to rob of up to 3 ₩."
    assert steps["dig", None] == [None, None, None]
    for (step, _card, you), words in said["ko"]["dig-it-up steps"]:
        if step == "dig":
            assert words is None
            continue
        assert not re.search("[A-Za-z]", words.replace("Ann", "")), words
        assert ("Ann" in words) is (you != 0), words


def test_the_thief_says_what_it_would_take_and_what_it_took(said):
    """A Thief's buttons said "Rob Bob" whatever Bob had, and its log line "Ann robbed Bob" for
    0 ₩ as for 3: each button now says what robbing that player takes (up to 3 ₩ of their
    money, RULINGS), and the line what was taken."""
    assert [words for _, words in said["en"]["dig-it-up steal"]] == [
        "Rob Bob (2 ₩)", "Rob Cy (3 ₩)", "Rob Dee (0 ₩)"]
    assert [words for _, words in said["en"]["dig-it-up stole"]] == [
        "Ann robbed Bob, who had no money to take", "Ann robbed Bob of 3 ₩"]
    ko = [words for _, words in said["ko"]["dig-it-up stole"]]
    assert "3 ₩" in ko[1] and "3" not in ko[0] and ko[0] != ko[1]
    assert [words for _, words in said["ko"]["dig-it-up steal"]][0].endswith("(2 ₩)")


def test_a_card_the_scorer_does_not_count_is_named_in_the_page_s_language(said):
    """A match that ended with an Ancient Map kept read "찬스 카드: 금 카드 ×1, Ancient Map ×1"."""
    [[_, english]] = said["en"]["dig-it-up kept"]
    assert english == "Chance cards: gold card ×1 (counted as a gold tile), Ancient Map ×1"
    [[_, korean]] = said["ko"]["dig-it-up kept"]
    assert not re.search("[A-Za-z]", korean), korean
    assert "고대 지도 ×1" in korean


def test_the_dinos_set_up_says_whose_paleontologist_goes_down_next_and_which(said):
    """Rulebook "Setup" 4: each player places the orthogonal paleontologist first, the diagonal
    one after, in an order of their own. The page said only "Your turn" and "Place at row r,
    column c"."""
    placing = {tuple(key): words for key, words in said["en"]["dinos placing"]}
    assert placing["orthogonal", 1] == \
        "Place your orthogonal paleontologist (✚): tap a square nobody stands on."
    assert placing["diagonal", 0] == "Bob places their diagonal paleontologist (✕)."
    assert said["en"]["dinos place"][0][1] == \
        "Place the diagonal paleontologist (✕) at row 2, column 3"
    assert said["en"]["dinos placed"][0][1] == \
        "Bob placed the diagonal paleontologist at row 2, column 3"
    assert said["en"]["dinos no placing"][0][1] is None  # the match is over: nothing to place
    for (side, _you), words in said["ko"]["dinos placing"]:
        assert ("✚" if side == "orthogonal" else "✕") in words
        assert not re.search("[A-Za-z]", words.replace("Bob", "")), words


def test_a_flip_to_choose_is_said_to_the_seat_and_the_table(said):
    """Completing a Velociraptor or a Deinosuchus gives a flip: the board read only "Bob to
    play", and Bob had "Flip the … paleontologist" and "Flip none" with no word of why."""
    flipping = dict(said["en"]["dinos flipping"])
    assert flipping[1].startswith("You completed a dinosaur that lets you flip")
    assert flipping[0].startswith("Bob completed a dinosaur that lets them flip")
    for _, words in said["ko"]["dinos flipping"]:
        assert words and "{" not in words and not re.search("[A-Za-z]", words.replace("Bob", ""))


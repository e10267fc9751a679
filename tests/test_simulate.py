"""`flask simulate` (cli.py): bots per seat, the text, JSON and CSV reports of API.md, match
seeds drawn from the run's seed, sweeps over variants and table sizes, box files for balance
experiments, the progress bar on stderr. That processes change nothing but the time, boxes
included, is tests/studies' (a local Dask cluster)."""

import csv
import io
import json

import pytest

from scoring.bots.simulations import match_seed, wilson
from scoring.games import GAMES


def simulate(runner, *args):
    result = runner.invoke(args=["simulate", *args])
    return result


def report(runner, *args) -> dict:
    result = simulate(runner, *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_json_report_has_the_summary_and_every_match(runner):
    out = report(runner, "dig", "--matches", "6", "--bots", "greedy,random", "--seed", "3")
    summary, matches = out["summary"], out["matches"]
    assert summary["matches"] == 6 and summary["variant"] == "standard"
    greedy, random_ = summary["seats"]
    assert (greedy["bot"], random_["bot"]) == ("greedy", "random")
    for seat in summary["seats"]:
        assert set(seat) == {"seat", "name", "bot", "wins", "shared_wins", "win_share", "score"}
        share = seat["win_share"]
        assert share["low"] <= share["value"] <= share["high"]
        assert set(seat["score"]) == {"mean", "stdev", "min", "max"}
    assert greedy["wins"] + greedy["shared_wins"] > random_["wins"]
    assert set(summary["length"]) == {"mean", "stdev", "min", "max"}
    assert {"bones_dropped", "bones_left_in_hands"} <= set(summary["figures"])
    assert len(matches) == 6
    # API.md: wherever a seed is an integer, seed_text is the same as decimal text (a match's
    # seed is 64 bits, past what a JavaScript number holds exactly; it was left out here)
    assert (summary["seed"], summary["seed_text"]) == (3, "3")
    for match in matches:
        assert {"seed", "seed_text", "bots", "scores", "winners", "length"} <= set(match)
        assert match["seed_text"] == str(match["seed"])
        assert match["bots"] == ["greedy", "random"] and len(match["scores"]) == 2


def test_the_text_report_reads_per_seat(runner):
    result = simulate(runner, "digging-for-dinos", "--matches", "4", "--bots", "greedy,random")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Digging for Dinos (standard, 2 players): 4 matches")
    assert "win share [95%]" in lines[1]
    assert lines[2].split()[:2] == ["0", "greedy"] and lines[3].split()[:2] == ["1", "random"]
    assert any(line.startswith("per match: dinosaurs completed") for line in lines)


def test_the_csv_report_has_one_row_a_match(runner):
    result = simulate(runner, "dig-it-up", "--matches", "3", "--variant", "small",
                      "--bots", "greedy", "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 3
    assert rows[0]["bots"] == "greedy;greedy" and rows[0]["variant"] == "small"
    assert len(rows[0]["scores"].split(";")) == 2 and "missions_achieved" in rows[0]


def test_the_progress_bar_stays_on_stderr(runner):
    result = simulate(runner, "dig", "--matches", "3", "--format", "json")
    json.loads(result.stdout)
    assert "match" in result.stderr


def test_the_same_seed_gives_the_same_run_and_another_seed_other_matches(runner):
    first = report(runner, "dig", "--matches", "5", "--seed", "1")
    assert report(runner, "dig", "--matches", "5", "--seed", "1") == first
    second = report(runner, "dig", "--matches", "5", "--seed", "2")
    assert not {m["seed"] for m in first["matches"]} & {m["seed"] for m in second["matches"]}


def test_runs_with_neighbouring_seeds_share_no_match():
    seeds = [match_seed(run, i) for run in range(50) for i in range(200)]
    assert len(set(seeds)) == len(seeds)


def test_a_sweep_plays_every_variant_and_table(runner):
    out = report(runner, "dig-it-up", "--matches", "1", "--variant", "all", "--players", "all")
    tables = [(t["summary"]["variant"], len(t["summary"]["seats"])) for t in out["tables"]]
    assert tables == [("standard", 4), ("standard", 5), ("small", 2), ("small", 3),
                      ("simplified", 2), ("simplified", 3), ("simplified", 4),
                      ("simplified", 5)]
    three = report(runner, "dig-it-up", "--matches", "1", "--variant", "all", "--players", "3")
    assert [t["summary"]["variant"] for t in three["tables"]] == ["small", "simplified"]


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_every_bot_plays_every_table_of_every_game_to_its_end(runner, game):
    played = []
    for n in sorted({n for _, n in game.tables()}):
        bots = ("mcts", "greedy", "random", "mcts", "greedy")[:n]
        out = report(runner, game.id, "--matches", "2", "--variant", "all", "--players", str(n),
                     "--bots", ",".join(bots), "--playouts", "4", "--seed", "8")
        for table in out.get("tables", [out]):  # a sweep of one table reports it alone
            played.append((table["summary"]["variant"], len(table["summary"]["seats"])))
            assert tuple(s["bot"] for s in table["summary"]["seats"]) == bots
            assert all(match["winners"] and match["length"] for match in table["matches"])
    assert sorted(played) == sorted(game.tables())


def test_the_last_bot_named_fills_the_seats_left(runner):
    out = report(runner, "dig", "--matches", "1", "--players", "4", "--bots", "greedy,random")
    assert [s["bot"] for s in out["summary"]["seats"]] == ["greedy", "random", "random",
                                                            "random"]


@pytest.mark.parametrize(("args", "message"), [
    (("dig", "--bots", "greedy,oracle"), "oracle: choose bots among random, greedy, mcts"),
    (("dig", "--players", "4", "--bots", "greedy,random,random,random,random"),
     "5 bots for 4 seats"),
    (("dig", "--players", "7"), "standard is played by 2 to 4 players"),
    (("dig", "--variant", "giant"), "DIG has no variant 'giant'"),
    (("dig", "--seed", "-1"), "--seed"),
    (("dig", "--bots", "greedy,"), "'greedy,': a bot's name is missing between its commas."),
    (("dig", "--bots", "greedy,,random"), "a bot's name is missing between its commas."),
])
def test_a_wrong_option_is_refused_with_the_choices(runner, args, message):
    result = simulate(runner, *args, "--matches", "1")
    assert result.exit_code == 2
    assert message in result.stderr


def test_more_matches_than_a_run_can_count_and_a_bot_left_out_are_refused_in_words(runner):
    # 2**63 matches: a traceback (OverflowError) once the run began
    result = runner.invoke(args=["simulate", "dig", "--matches", str(2**63)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{2**63} is not in the range 1<=x<={2**63 - 1}" in " ".join(result.stderr.split())
    # and an arm's bots with a name missing, as --bots's (above): played as random, greedy
    result = runner.invoke(args=["simulate", "dig", "--compare", "bots=random,,greedy",
                                 "--matches", "2"])
    assert result.exit_code == 2 and "'random,,greedy': a bot's name is missing between its " \
        "commas." in " ".join(result.stderr.split())


def test_a_box_file_changes_the_game_for_the_run_only(runner, tmp_path):
    box = tmp_path / "box.json"
    box.write_text(json.dumps({"bowl_points": [50, 40, 30, 20, 10]}))
    changed = report(runner, "dig", "--matches", "4", "--bots", "greedy", "--box", str(box))
    plain = report(runner, "dig", "--matches", "4", "--bots", "greedy")
    assert [m["seed"] for m in changed["matches"]] == [m["seed"] for m in plain["matches"]]
    # Every bone counts ten times as much: the same matches, ten times the points.
    assert [[10 * s for s in m["scores"]] for m in plain["matches"]] == \
        [m["scores"] for m in changed["matches"]]
    assert report(runner, "dig", "--matches", "4", "--bots", "greedy") == plain


def test_a_box_file_is_checked_with_clear_errors(runner, tmp_path):
    box = tmp_path / "box.json"
    box.write_text(json.dumps({"set_table": {"gold": [[3, "ten"]], "rubies": []},
                               "NAME": "Dig It Down", "MISSIONS": [{"id": "astronaut"}]}))
    result = simulate(runner, "dig-it-up", "--matches", "1", "--box", str(box))
    assert result.exit_code == 2
    for message in ("SET_TABLE.gold.0.1: expected a whole number, not \"ten\".",
                    "SET_TABLE: has no 'rubies'; it has gold, bronzeware",
                    "NAME: names the game and cannot change.",
                    "MISSIONS.0: expected an object whose 'id' is one of jack_of_all_trades"):
        assert message in result.stderr
    box.write_text("{not json")
    assert "is not JSON: Expecting property name" in \
        simulate(runner, "dig", "--box", str(box)).stderr


@pytest.mark.parametrize("depth", [900, 1200])
def test_a_box_nested_hundreds_deep_is_refused_in_words(runner, tmp_path, depth):
    # merging and showing a value 900 deep ran out of Python's stack, and reading one 1200 deep
    # did: a traceback (exit 1, the runner keeping the exception), not a refusal (exit 2)
    deep = "[" * depth + "]" * depth
    said = ("HAND_LIMIT: nested more than 8 lists or objects deep; no constant of a box is."
            if depth < 1000 else "nests lists or objects too deeply to be read.")
    box = tmp_path / "box.json"
    box.write_text('{"HAND_LIMIT": ' + deep + "}")
    for args in (["--box", str(box)], ["--compare", f"HAND_LIMIT={deep}"],
                 ["--sweep", f"HAND_LIMIT={deep}"]):
        result = simulate(runner, "dig", "--matches", "2", *args)
        assert result.exit_code == 2, (args[0], result.exception)
        assert said in " ".join(result.stderr.split()), (args[0], result.stderr)


def test_a_box_the_game_cannot_be_played_with_is_refused(runner, tmp_path):
    box = tmp_path / "box.json"
    box.write_text(json.dumps({"HAND_LIMIT": 0}))
    result = simulate(runner, "dig", "--matches", "1", "--box", str(box))
    assert result.exit_code == 2
    assert "HAND_LIMIT: at least 1 (a dog holds the bone it digs), not 0." in result.stderr


def test_wilson_interval_matches_the_textbook():
    low, high = wilson(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)


def test_a_win_share_of_none_or_of_all_lies_within_its_interval():
    """A seat that never won, or always did, has an interval from 0, or to 1, that holds its
    share: Wilson's bounds land a rounding error inside them for about a quarter of counts."""
    for n in (*range(1, 200), 1000, 10_000):
        for wins in (0, n, n / 3, n - 0.5):
            share = wins / n
            low, high = wilson(wins, n)
            assert 0 <= low <= share <= high <= 1, (wins, n, low, high)
        assert wilson(0, n)[0] == 0 and wilson(n, n)[1] == 1


def test_bots_listed_without_players_are_all_seated(runner):
    # "3 bots for 2 seats": a table of the variant's smallest size, whatever --bots listed
    three = report(runner, "dig", "--bots", "greedy,random,random", "--matches", "2")
    assert [seat["bot"] for seat in three["summary"]["seats"]] == ["greedy", "random", "random"]
    two = report(runner, "dig", "--bots", "greedy", "--matches", "2")  # the smallest table
    assert len(two["summary"]["seats"]) == 2
    # or an arm's bots; with --players all, the tables that seat them
    arms = report(runner, "dig", "--compare", "bots=greedy,random,random", "--matches", "2")
    assert [len(arm["summary"]["seats"]) for arm in arms["arms"]] == [3, 3]
    every = report(runner, "dig", "--bots", "greedy,random,random", "--players", "all",
                   "--matches", "2")
    assert [len(table["summary"]["seats"]) for table in every["tables"]] == [3, 4]
    result = simulate(runner, "digging-for-dinos", "--bots", "random," * 4 + "random")
    assert result.exit_code == 2
    assert "5 bots listed, one a seat: Digging for Dinos seats at most 4 players." in \
        " ".join(result.stderr.split())


def test_the_commands_run_as_python_cli_py_too():
    # `python cli.py --help`, where the commands are defined, printed nothing and ran nothing.
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    shown = subprocess.run([sys.executable, "cli.py", "--help"], cwd=root, capture_output=True,
                           text=True, timeout=120, check=True).stdout
    assert {"simulate", "studies", "prune", "db"} <= set(shown.split()), shown
    played = subprocess.run([sys.executable, "cli.py", "simulate", "dig", "--matches", "2",
                             "--seed", "4"], cwd=root, capture_output=True, text=True,
                            timeout=120, check=True).stdout
    assert played.startswith("DIG (standard, 2 players): 2 matches in "), played

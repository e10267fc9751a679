"""Studies (studies/, `flask simulate` with --compare, --sweep, --out, --resume, --shard, --jobs
and `flask studies merge`): arms on common deals with their paired differences, records
streamed with their provenance, a stopped run that keeps its records and resumes to the same
file, shards that merge into one run's file, a local Dask cluster that changes nothing but the
time, the joint test of equal win shares, and the HTML report."""

import html
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import studies
from scoring.bots.simulations import match_seed
from studies import jobs, report
from studies.metrics import Moments, Tally, chi_square_p, equal_shares_test
from tests.server import ENDS_WITH_ITS_TEST, free_port

ROOT = Path(__file__).resolve().parents[2]


def simulate(runner, *args):
    result = runner.invoke(args=["simulate", *args])
    assert result.exit_code == 0, result.output
    return result


def refused(runner, code, *args) -> str:
    """What a command refused with exit `code` said on stderr, its lines joined."""
    result = runner.invoke(args=list(args))
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return " ".join(result.stderr.split())


def test_two_arms_are_played_on_the_same_deals_and_differ_with_an_interval(runner):
    out = json.loads(simulate(runner, "digging-for-dinos", "--matches", "40", "--seed", "5",
                              "--compare", "bots=greedy,random", "--format", "json").stdout)
    base, greedy = out["arms"]
    assert (base["arm"], greedy["arm"]) == ("base", "bots=greedy,random")
    assert [m["seed"] for m in base["matches"]] == [m["seed"] for m in greedy["matches"]] == \
        [match_seed(5, i) for i in range(40)]
    difference = out["study"]["differences"][0]
    assert difference["against"] == "base" and difference["matches"] == 40
    first_seat = difference["seats"][0]
    # greedy in seat 0 wins clearly more than random did in the same seat on the same deals
    assert 0 < first_seat["win_share"]["low"] < first_seat["win_share"]["difference"]
    score = first_seat["score"]
    assert score["low"] < score["difference"] < score["high"]
    shares = [s["win_share"]["value"] for s in greedy["summary"]["seats"]]
    assert shares[0] - [s["win_share"]["value"] for s in base["summary"]["seats"]][0] == \
        pytest.approx(first_seat["win_share"]["difference"])


def test_a_compared_box_is_merged_over_the_first_arm_s_within_each_constant():
    # --compare 'SET_TABLE={"ruby": …}' over --box with gold's table played gold as printed.
    from cli import study_arms
    from scoring.games import GAMES
    from studies.study import Arm

    gold, ruby = [[3, 5], [5, 20], [7, 40]], [[5, 40], [7, 60]]
    base = Arm("base", "small", ("random", "random"), {}, {"SET_TABLE": {"gold": gold}})
    change = f"SET_TABLE={json.dumps({'ruby': ruby})}"
    first, second = study_arms(GAMES["dig-it-up"], base, (change,), ())
    assert first.box == {"SET_TABLE": {"gold": gold}}
    assert second.box["SET_TABLE"]["gold"] == gold and second.box["SET_TABLE"]["ruby"] == ruby


def test_a_sweep_is_a_grid_of_arms_in_order(runner):
    out = json.loads(simulate(runner, "dig-it-up", "--variant", "small", "--players", "2",
                              "--matches", "3", "--sweep", "variant=small,simplified",
                              "--sweep", "playouts=1,2", "--bots", "mcts,random",
                              "--format", "json").stdout)
    assert [arm["label"] for arm in out["study"]["arms"]] == [
        "variant=small;playouts=1", "variant=small;playouts=2",
        "variant=simplified;playouts=1", "variant=simplified;playouts=2"]
    assert [arm["variant"] for arm in out["study"]["arms"]] == ["small", "small", "simplified",
                                                                 "simplified"]
    assert len(out["study"]["differences"]) == 3


def test_a_box_constant_is_swept_and_compared_by_its_name_in_either_case(runner):
    # README: box constants in either case. A sweep of `hand_limit` played the printed box in
    # every arm, each labelled as changed, and two values were refused as alike.
    lower = json.loads(simulate(runner, "dig", "--matches", "4", "--sweep", "hand_limit=1,2",
                                "--compare", "bowl_points=[3,3,3,3,3]", "--format",
                                "json").stdout)
    upper = json.loads(simulate(runner, "dig", "--matches", "4", "--sweep", "HAND_LIMIT=1,2",
                                "--compare", "BOWL_POINTS=[3,3,3,3,3]", "--format",
                                "json").stdout)
    assert [arm["label"] for arm in lower["study"]["arms"]] == [
        "HAND_LIMIT=1", "HAND_LIMIT=2", "bowl_points=[3,3,3,3,3]"]
    assert [arm["matches"] for arm in lower["arms"]] == [arm["matches"] for arm in upper["arms"]]
    printed = json.loads(simulate(runner, "dig", "--matches", "4", "--format", "json").stdout)
    assert lower["arms"][1]["matches"] != printed["matches"]  # the hand limit is 3 as printed


@pytest.mark.parametrize(("args", "said"), [
    (["--sweep", "BOWL_POINTS=[5,4,3,2,1],[1,2,3,4,5]"],
     "Invalid value for '--sweep': BOWL_POINTS=[5,4,3,2,1],[1,2,3,4,5]: a value holding commas "
     "goes in a JSON list of the values, e.g. BOWL_POINTS=[[5,4,3,2,1],[3,3,3,3,3]]."),
    (["--sweep", "HAND_LIMIT=2,2"], "Invalid value for '--sweep': HAND_LIMIT=2: two arms are "
                                    "the same."),
    (["--sweep", "variant=standard,small"], "Invalid value for '--sweep': variant=small: DIG "
                                            "has no variant 'small'; choose one of standard."),
    (["--compare", "playouts=abc"], "Invalid value for '--compare': playouts=abc: playouts takes "
                                    "a whole number of playouts a move, 1 or more, not abc."),
    # held to what --playouts and --think-ms take: 0 playouts was played as the game's budget,
    # labelled 0, and a time below nothing was taken
    (["--bots", "mcts,greedy", "--compare", "playouts=0"], "Invalid value for '--compare': "
     "playouts=0: playouts takes a whole number of playouts a move, 1 or more, not 0."),
    (["--bots", "mcts,greedy", "--sweep", "playouts=20,-3"], "Invalid value for '--sweep': "
     "playouts=-3: playouts takes a whole number of playouts a move, 1 or more, not -3."),
    (["--bots", "mcts,greedy", "--compare", "think-ms=-1"], "Invalid value for '--compare': "
     "think-ms=-1: think-ms takes a number of milliseconds a move, above 0, not -1."),
    (["--bots", "mcts,greedy", "--sweep", "playouts=3,2.5"], "Invalid value for '--sweep': "
     "playouts=2.5: playouts takes a whole number of playouts a move, 1 or more, not 2.5."),
    (["--bots", "mcts,greedy", "--sweep", "playouts=3,true"], "Invalid value for '--sweep': "
     "playouts=true: playouts takes a whole number of playouts a move, 1 or more, not true."),
    # blamed "'--compare' or '--sweep'" with no --sweep given
    (["--compare", "players=3"], "Invalid value for '--compare': PLAYERS: the box has no such "
                                 "constant"),
    # a budget no seat played with was taken silently, and the run labelled by it
    (["--bots", "greedy", "--playouts", "50"], "Invalid value for '--playouts': sets the "
     "search bot's budget, and no seat plays it: add mcts to --bots (or to an arm's bots)."),
    (["--think-ms", "5", "--compare", "bots=greedy,random"], "Invalid value for '--think-ms': "
     "sets the search bot's budget, and no seat plays it"),
    # the constant the box has not was said alone: the other's problem came once it was gone
    (["--compare", "HAND_LIMIT=0;NOPE=1"], "NOPE: the box has no such constant; it has "
     "VARIANTS, DEFAULT_VARIANT, COLOURS, BOWL_POINTS, CARDS_PER_PAIR, PAIR_BONES, MAX_MOVE, "
     "HAND_LIMIT, ACTIONS_PER_TURN. HAND_LIMIT: at least 1 (a dog holds the bone it digs), not "
     "0."),
    # "--compare, --out study one table"
    (["--variant", "all", "--compare", "bots=greedy"], "A run with --compare plays one table: "
     "choose a variant and a number of players."),
    # one setting twice: the last was played, unsaid
    (["--compare", "HAND_LIMIT=0;hand_limit=1"], "Invalid value for '--compare': "
     "'HAND_LIMIT=0;hand_limit=1' names HAND_LIMIT twice; name each setting once."),
    (["--sweep", "HAND_LIMIT=1,2", "--sweep", "hand_limit=3"], "Invalid value for '--sweep': "
     "HAND_LIMIT is swept twice; sweep each setting once, all its values in one --sweep."),
    # two budgets at once: one of them was played, under a label naming both
    (["--bots", "mcts", "--playouts", "5", "--think-ms", "3"], "--playouts and --think-ms are "
     "two budgets for the search bot: give one."),
    (["--bots", "mcts", "--compare", "playouts=5;think-ms=3"], "Invalid value for '--compare': "
     "playouts=5;think-ms=3: playouts and think-ms are two budgets for the search bot: give "
     "one."),
])
def test_a_sweep_or_comparison_refused_says_why_and_where(runner, args, said):
    """They blamed --compare for a sweep, a variant's table for a variant the game has not,
    Python's int() for a budget, and pieces of a value cut at its commas for the box; a
    search budget with no search bot was not refused at all."""
    assert said in refused(runner, 2, "simulate", "dig", "--matches", "2", *args)


def test_a_scheduler_that_cannot_be_reached_is_refused_in_words(runner):
    # a traceback: Dask's ValueError for no address, its OSError after 30 s for no answer
    import dask

    said = refused(runner, 2, "simulate", "dig", "--matches", "2", "--scheduler", "notaurl")
    assert "Invalid value for '--scheduler': 'notaurl' is no scheduler's address (e.g. " \
           "tcp://10.0.0.5:8786): missing port number in address 'notaurl'" in said
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        said = refused(runner, 2, "simulate", "dig", "--matches", "2", "--scheduler",
                       f"tcp://127.0.0.1:{free_port()}")
    assert "Invalid value for '--scheduler': no Dask scheduler answers at 'tcp://127.0.0.1:" \
        in said


def test_a_sweep_value_that_is_one_json_object_is_one_arm(runner):
    # it was cut at its commas: 'SET_TABLE: expected an object with keys among gold, …'
    out = json.loads(simulate(runner, "dig-it-up", "--matches", "2", "--sweep",
                              'SET_TABLE={"gold":[[3,5]]}', "--format", "json").stdout)
    assert [arm["label"] for arm in out["study"]["arms"]] == ['SET_TABLE={"gold":[[3,5]]}']


def test_the_records_are_one_row_per_seat_and_match_with_the_runs_provenance(runner, tmp_path):
    path = tmp_path / "dinos.jsonl"
    simulate(runner, "dig-it-up", "--variant", "small", "--players", "3", "--matches", "4",
             "--bots", "greedy,random", "--out", str(path), "--seed", "2")
    frame = studies.load(path)
    assert len(frame) == 4 * 3
    assert list(frame["match"].unique()) == [0, 1, 2, 3]
    # every seed as decimal text too, as API.md has it wherever a seed is an integer: a 64-bit
    # one is no number JavaScript reads whole
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert all(row["seed_text"] == str(row["seed"]) for row in rows)
    # and loaded as that text, not the float pandas made of it (1.3315442712065755e+19)
    assert list(frame["seed_text"]) == [row["seed_text"] for row in rows]
    csv = tmp_path / "dinos.csv"
    simulate(runner, "dig-it-up", "--variant", "small", "--players", "3", "--matches", "4",
             "--bots", "greedy,random", "--out", str(csv), "--seed", "2")
    assert list(studies.load(csv)["seed_text"]) == [row["seed_text"] for row in rows]
    assert {"arm", "label", "seed", "seat", "seat_order", "bot", "score", "rank", "won",
            "winners", "length", "mission", "mission_achieved", "breakdown.sets.gold",
            "figure.missions_achieved"} <= set(frame.columns)
    assert list(frame["bot"][:3]) == ["greedy", "random", "random"]
    assert (frame.groupby("match")["won"].sum() >= 1).all()
    meta = json.loads(Path(f"{path}.meta.json").read_text())
    assert meta["status"] == "complete" and meta["played"] == 4 and meta["records"] == "jsonl"
    assert meta["study"]["seed"] == 2 and meta["study"]["arms"][0]["bots"] == \
        ["greedy", "random", "random"]
    assert meta["version"]


def test_the_provenance_names_the_playouts_the_search_bot_played_with(runner, tmp_path):
    # Its search settings were the game's whatever the arm's budget: "budget": {"playouts": 3}
    # beside "search": {"playouts": 40, …}.
    path = tmp_path / "search.jsonl"
    simulate(runner, "dig", "--players", "2", "--matches", "2", "--bots", "mcts,random",
             "--playouts", "3", "--compare", "playouts=2", "--out", str(path))
    arms = json.loads(Path(f"{path}.meta.json").read_text())["study"]["arms"]
    assert [(arm["budget"], arm["search"]["playouts"]) for arm in arms] == [
        ({"playouts": 3}, 3), ({"playouts": 2}, 2)]


def test_the_joint_test_of_equal_shares_on_known_tables():
    # 100 matches, four seats: the chi-square of 30/20/25/25 is 2.0 on 3 df (p = 0.5724)
    test = equal_shares_test([30, 20, 25, 25])
    assert test["chi_square"] == pytest.approx(2.0) and test["df"] == 3
    assert test["p_value"] == pytest.approx(0.5724067, abs=1e-6)
    # the 95% critical values of 1 and 4 df
    assert chi_square_p(3.841459, 1) == pytest.approx(0.05, abs=1e-6)
    assert chi_square_p(9.487729, 4) == pytest.approx(0.05, abs=1e-6)
    assert equal_shares_test([60, 40])["p_value"] == pytest.approx(0.0455003, abs=1e-6)


def test_a_stopped_run_keeps_its_records_and_resumes_to_the_same_records(runner, tmp_path):
    stopped, whole = tmp_path / "stopped.jsonl", tmp_path / "whole.jsonl"
    # About a second of matches: the stop comes as the first is written, long before the last.
    args = ["digging-for-dinos", "--matches", "150", "--seed", "9", "--out"]
    command = [sys.executable, "-m", "flask", "--app", "app", "simulate", *args, str(stopped)]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not (stopped.exists() and stopped.stat().st_size) and time.monotonic() < deadline:
        time.sleep(0.01)
    process.send_signal(signal.SIGINT)
    asked = time.monotonic()
    output, errors = process.communicate(timeout=30)
    # A third of a second on an idle machine, over 6 s at a load of 16 on two cores: the bound
    # leaves room for a busy one, and the records below show that the run did not play on to
    # its end.
    assert time.monotonic() - asked < 15
    assert process.returncode == 128 + signal.SIGINT, errors
    assert "Stopped (SIGINT) after" in errors and "--resume" in errors
    # the summary of what was played
    assert output.startswith("Digging for Dinos (standard, 2 players)")
    kept = stopped.read_text().splitlines()
    assert kept and len(kept) % 2 == 0 and len(kept) < 300
    assert json.loads(Path(f"{stopped}.meta.json").read_text())["status"] == "interrupted"
    # its report says so, with how far it got: it read as a whole study of fewer matches
    said = runner.invoke(args=["studies", "report", str(stopped)]).output
    assert said.startswith(f"Unfinished run: {len(kept) // 2} of 150 matches (stopped: "), said

    resumed = simulate(runner, *args, str(stopped), "--resume").output
    # its rate is of the matches it played: it counted the ones it found played before it
    assert f"(the {150 - len(kept) // 2} matches played now: {len(kept) // 2} were resumed " \
           "from the records)" in resumed, resumed
    simulate(runner, *args, str(whole))
    assert stopped.read_text() == whole.read_text()
    meta = json.loads(Path(f"{stopped}.meta.json").read_text())
    assert (meta["status"], meta["played"]) == ("complete", 150)


def cut_to(path: Path, matches: int, rows_per_match: int) -> None:
    """A whole run's records made those of a run stopped after `matches` matches."""
    rows = path.read_text().splitlines(keepends=True)
    header = 1 if path.suffix == ".csv" else 0
    path.write_text("".join(rows[:header + matches * rows_per_match]))
    side = Path(f"{path}.meta.json")
    meta = json.loads(side.read_text())
    side.write_text(json.dumps({**meta, "status": "interrupted", "played": matches}))


@pytest.mark.parametrize("output", ["json", "csv"])
def test_a_resumed_run_prints_every_match_of_the_run_not_only_those_it_played(runner, tmp_path,
                                                                             output):
    # Resumed after 295 of 300 matches, `--format json` printed 5 matches and a summary of 5
    # beside the study's 300; CSV the 5 rows alone.
    args = ["dig", "--matches", "8", "--seed", "4", "--format", output]
    whole, stopped = tmp_path / "whole.jsonl", tmp_path / "stopped.jsonl"
    printed = simulate(runner, *args, "--out", str(whole)).stdout
    simulate(runner, *args, "--out", str(stopped))
    cut_to(stopped, 5, 2)
    resumed = simulate(runner, *args, "--out", str(stopped), "--resume").stdout
    assert stopped.read_text() == whole.read_text()
    if output == "csv":
        assert resumed == printed
    else:
        resumed, printed = json.loads(resumed), json.loads(printed)
        assert len(resumed["matches"]) == 8
        assert (resumed["matches"], resumed["summary"]) == (printed["matches"],
                                                           printed["summary"])


def test_a_run_is_resumed_only_by_the_code_that_began_it(runner, tmp_path):
    # Resumed after a change, its side file named the first code for every match, the rest
    # played by another.
    path = tmp_path / "run.jsonl"
    simulate(runner, "dig", "--matches", "4", "--out", str(path))
    cut_to(path, 2, 2)
    side = Path(f"{path}.meta.json")
    side.write_text(json.dumps({**json.loads(side.read_text()), "version": "0123abc"}))
    said = refused(runner, 2, "simulate", "dig", "--matches", "4", "--out", str(path),
                   "--resume")
    assert "was played by the code at 0123abc, and this is " in said
    assert "Resume it with the code that began it, or play the study again." in said
    assert len(path.read_text().splitlines()) == 4  # nothing played, nothing cut


def test_a_run_stopped_before_its_first_match_prints_its_columns_alone():
    # Its CSV died in an IndexError (exit 1, not the stop's 130): the figures' columns were read
    # from the first match printed.
    from cli import csv_report

    assert csv_report([]) == "variant,players,match,seed,bots,scores,winners,length"
    assert csv_report([{"summary": {"variant": "standard"}, "matches": []}]) == \
        "variant,players,match,seed,bots,scores,winners,length"


def test_a_run_with_no_match_to_play_says_so_and_prints_no_figures(runner):
    """A shard with no match of its own (the second of 2 of a 1-match study) prints what a run
    stopped before its first match prints: its text showed each seat at 0, which read as
    figures, and its CSV died in an IndexError."""
    args = ["simulate", "dig", "--matches", "1", "--shard", "1/2", "--format"]
    said = runner.invoke(args=[*args, "text"])
    assert said.exit_code == 0, said.output
    assert said.stdout == "DIG: no match was played.\n"
    said = runner.invoke(args=[*args, "csv"])
    assert said.exit_code == 0, said.output
    assert said.stdout == "variant,players,match,seed,bots,scores,winners,length\n"


def test_a_study_s_match_is_replayed_move_by_move_as_its_records_say(runner, tmp_path):
    # A designer looking into an outlier had its seed and scores, and no way to see its moves:
    # a match created over HTTP with that seed is played by bots seeded otherwise.
    from scoring.games import GAMES

    path = tmp_path / "run.jsonl"
    simulate(runner, "dig", "--matches", "4", "--seed", "3", "--compare", "bots=greedy,random",
             "--out", str(path))
    replayed = runner.invoke(args=["studies", "replay", str(path), "--match", "2", "--arm",
                                   "bots=greedy,random"])
    assert replayed.exit_code == 0, replayed.output
    log = [json.loads(line) for line in replayed.stdout.splitlines()]
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    recorded = sorted((r for r in rows if r["match"] == 2 and r["arm"] == 1),
                      key=lambda r: r["seat"])
    assert [entry["seq"] for entry in log] == list(range(1, recorded[0]["length"] + 1))
    assert "scores " + ", ".join(str(r["score"]) for r in recorded) + ", as the records say." \
        in replayed.stderr
    # the log is the match: its actions, taken from the deal, end where the records do
    game = GAMES["dig"]
    state = game.setup([f"{r['bot']} {r['seat'] + 1}" for r in recorded], recorded[0]["seed"],
                       "standard")
    for entry in log:
        assert entry["bot"] == recorded[entry["seat"]]["bot"]
        assert game.act(state, entry["seat"], dict(entry["action"])) == entry["events"]
    assert [p["total"] for p in game.result(state)["players"]] == [r["score"]
                                                                   for r in recorded]
    # records another code played are told apart
    path.write_text(path.read_text().replace(f'"score":{recorded[0]["score"]},',
                                             f'"score":{recorded[0]["score"] + 100},'))
    differs = runner.invoke(args=["studies", "replay", str(path), "--match", "2", "--arm", "1"])
    assert differs.exit_code == 1 and "where the records say" in differs.output
    said = refused(runner, 2, "studies", "replay", str(path), "--match", "2", "--arm", "x")
    assert "x: the study's arms are base, bots=greedy,random (or their numbers, 0 to 1)." in said
    said = refused(runner, 2, "studies", "replay", str(path), "--match", "4")
    assert "4: the study plays matches 0 to 3." in said


def test_a_replayed_match_whose_bots_never_end_is_said_so(runner, tmp_path, monkeypatch):
    path = tmp_path / "run.jsonl"
    simulate(runner, "dig", "--matches", "2", "--out", str(path))
    monkeypatch.setattr("studies.play.MOST_ACTIONS", 6)
    said = runner.invoke(args=["studies", "replay", str(path), "--match", "1"])
    assert said.exit_code == 1 and "Traceback" not in said.output
    assert "match 1: the bots (random, random) played 6 actions without an end" in said.output


def test_records_cut_short_since_their_run_ended_are_said_to_be(runner, tmp_path):
    # A copy of a finished run's records cut short read as a whole study of fewer matches: the
    # side file said "complete", and the report believed it.
    path = tmp_path / "run.jsonl"
    simulate(runner, "dig", "--matches", "6", "--compare", "bots=greedy", "--out", str(path))
    whole = runner.invoke(args=["studies", "report", str(path)]).output
    assert whole.startswith("DIG (standard, 2 players) [base]: 6 matches"), whole
    rows = path.read_text().splitlines(keepends=True)
    assert len(rows) == 6 * 2 * 2  # a row a seat, arm and match
    for kept, said in ((10, "2 whole matches "), (4, "1 whole match "), (0, "0 whole matches ")):
        path.write_text("".join(rows[:kept]))
        report_of = tmp_path / "report.html"
        shown = runner.invoke(args=["studies", "report", str(path), "--out", str(report_of)])
        assert shown.exit_code == 0, shown.output
        assert shown.output.startswith(f"Records cut short: {said}of the 6 their side file says "
                                       "were played"), shown.output
        assert "Records cut short" in report_of.read_text()
    path.write_text("".join(rows * 2))  # two copies, one after the other
    shown = runner.invoke(args=["studies", "report", str(path)]).output
    assert shown.startswith("Records changed: 12 whole matches where their side file says 6 "
                            "were played (rows added since)"), shown


def test_a_resume_goes_on_only_with_the_same_run(runner, tmp_path):
    path = tmp_path / "run.jsonl"
    simulate(runner, "dig-it-up", "--variant", "small", "--matches", "2", "--out", str(path))
    refused = runner.invoke(args=["simulate", "dig-it-up", "--variant", "small", "--matches",
                                  "2", "--seed", "2", "--out", str(path), "--resume"])
    # which of the study's settings differ, not "its study"
    assert refused.exit_code == 2 and "holds another run (it differs in its study's seed)" in \
        refused.stderr
    again = runner.invoke(args=["simulate", "dig-it-up", "--variant", "small", "--matches", "2",
                                "--out", str(path)])
    assert again.exit_code == 2 and "already holds records" in again.stderr


@pytest.mark.parametrize("compare", [
    "bots=random,random",  # the first arm's bots, written out
    "HAND_LIMIT=3",  # the printed box's value
    "playouts=40",  # a search budget where no seat searches
    "VARIANTS={}",  # a change that merges into the box as nothing
])
def test_an_arm_that_plays_as_an_earlier_one_is_refused(runner, compare):
    """Its label differed, so it was played: the same matches twice, a difference of zero. A
    budget with no search bot was told to change its budget, the one thing it changed."""
    refused = runner.invoke(args=["simulate", "dig", "--matches", "2", "--bots", "random,random",
                                  "--compare", compare])
    assert refused.exit_code == 2, refused.output
    said = " ".join(refused.stderr.split())
    if compare.startswith("playouts"):
        assert f"{compare}: a search budget changes nothing where no seat plays the search " \
            "bot: add mcts to its bots." in said
    else:
        assert f"{compare}: plays as the first arm does (random, random in standard); " \
            "change its bots, variant, budget or box." in said
    # seated as played: "greedy,greedy" filled to the 3 seats the other arm's list asked for
    refused = runner.invoke(args=["simulate", "dig", "--matches", "2", "--bots", "greedy,greedy",
                                  "--compare", "bots=random,greedy,random",
                                  "--compare", "bots=greedy,greedy,greedy"])
    assert "bots=greedy,greedy,greedy: plays as the first arm does (greedy, greedy, greedy " \
        "in standard)" in " ".join(refused.stderr.split())


def test_shards_merge_into_the_records_of_one_run(runner, tmp_path):
    args = ["dig-it-up", "--variant", "small", "--matches", "25", "--seed", "3",
            "--compare", "bots=greedy", "--records", "csv"]
    shards = [tmp_path / f"shard{k}.csv" for k in range(3)]
    for k, shard in enumerate(shards):
        simulate(runner, *args, "--shard", f"{k}/3", "--out", str(shard))
    assert len(shards[2].read_text().splitlines()) == 1 + 8 * 2 * 2  # header, 8 matches
    merged, whole = tmp_path / "merged.csv", tmp_path / "whole.csv"
    result = runner.invoke(args=["studies", "merge", *map(str, reversed(shards)),
                                 "--out", str(merged)])
    assert result.exit_code == 0, result.output
    simulate(runner, *args, "--out", str(whole))
    assert merged.read_text() == whole.read_text()
    frame = studies.load(merged)
    assert list(frame.sort_values(["match", "arm", "seat"]).index) == list(frame.index)
    first, _ = (json.loads(Path(f"{p}.meta.json").read_text()) for p in (merged, whole))
    assert (first["shard"], first["played"], first["status"]) == (None, 25, "complete")
    missing = runner.invoke(args=["studies", "merge", str(shards[0]), str(shards[1]),
                                  "--out", str(tmp_path / "short.csv")])
    assert missing.exit_code == 1 and "each of the 3 shards once" in missing.output


def test_shards_written_in_both_formats_merge_into_the_records_of_one_run(runner, tmp_path):
    # A CSV shard's rows came back with `seed_text` a number: the merged file was not the one
    # run's, and its seeds lost the digits a JavaScript number cannot hold.
    args = ["dig", "--matches", "9", "--seed", "5"]
    shards = [tmp_path / name for name in ("s0.jsonl", "s1.csv", "s2.jsonl")]
    for k, shard in enumerate(shards):
        simulate(runner, *args, "--shard", f"{k}/3", "--out", str(shard))
    for merged_name in ("merged.jsonl", "merged.csv"):
        merged, whole = tmp_path / merged_name, tmp_path / f"whole{Path(merged_name).suffix}"
        result = runner.invoke(args=["studies", "merge", *map(str, shards), "--out",
                                     str(merged)])
        assert result.exit_code == 0, result.output
        if not whole.exists():
            simulate(runner, *args, "--out", str(whole))
        assert merged.read_text() == whole.read_text()
    rows = [json.loads(line) for line in (tmp_path / "merged.jsonl").read_text().splitlines()]
    assert all(row["seed_text"] == str(row["seed"]) for row in rows)


def test_a_local_dask_cluster_of_two_workers_plays_the_same_records(runner, tmp_path):
    # Arms of other bots and another box: each worker builds the boxed game from the study.
    args = ["digging-for-dinos", "--matches", "30", "--seed", "6",
            "--compare", "bots=greedy,random", "--compare", "DINOSAURS_TO_END=2"]
    here, cluster = tmp_path / "here.jsonl", tmp_path / "cluster.jsonl"
    simulate(runner, *args, "--out", str(here))
    result = simulate(runner, *args, "--out", str(cluster), "--jobs", "2")
    assert "on 2 processes" in result.stdout
    assert here.read_text() == cluster.read_text()
    frame = studies.load(cluster)
    lengths = frame.groupby("label")["length"].mean()
    assert lengths["DINOSAURS_TO_END=2"] < lengths["base"]  # two dinosaurs end it sooner


def test_the_report_is_a_page_with_charts(runner, tmp_path):
    page = tmp_path / "report.html"
    simulate(runner, "digging-for-dinos", "--matches", "12", "--compare", "bots=greedy",
             "--report", str(page))
    text = page.read_text()
    # win shares, scores, lengths and margins, differences
    assert text.count('<img src="data:image/png;base64,') == 4
    assert "<h1>Digging for Dinos: 12 matches, 2 arms</h1>" in text
    assert "all seats equally likely to win?" in text and "Provenance" in text


def test_the_report_draws_the_missions_of_every_arm(runner, tmp_path):
    """Only the first arm's were drawn, so an arm that changed the missions never showed it."""
    page = tmp_path / "report.html"
    simulate(runner, "dig-it-up", "--players", "4", "--matches", "4", "--compare",
             "bots=greedy", "--report", str(page))
    text = page.read_text()
    assert "Missions in [base]: how often each is achieved and its holder wins, and how many " \
        "times it was held; the dashed line is an equal share of the wins." in text
    # labelled with the bots as seated: "bots=greedy" at 4 players
    assert "Missions in [bots=greedy,greedy,greedy,greedy]:" in text
    assert text.count('<img src="data:image/png;base64,') == 4 + 2


def test_the_report_of_a_seat_that_never_won_is_drawn(runner, tmp_path):
    # Seat 1 (random) never wins these 10 matches: its interval starts at its share, 0.
    page = tmp_path / "report.html"
    simulate(runner, "dig", "--bots", "greedy,random", "--players", "2", "--matches", "10",
             "--seed", "7", "--report", str(page))
    assert page.read_text().count('<img src="data:image/png;base64,') == 3


def test_the_report_draws_any_interval_and_labels_as_written():
    """An interval a rounding error off its value is drawn with no bar below nothing, a
    difference with none with no bar at all, and a label that reads as math text (a box
    renaming a card "Lucky $x^^2$ Coin") as written."""
    spec = {"game": "dig", "seed": "7", "matches": 7, "arms": [
        {"label": "base", "variant": "standard", "bots": ["greedy", "random"]},
        {"label": 'CARDS={"lucky":"Lucky $x^^2$ Coin"}', "variant": "standard",
         "bots": ["random", "greedy"]}]}
    study = jobs.study_of(spec)
    tally = Tally(len(study.arms), study.seats)
    rows = [json.loads(line) for line in jobs.play_range(spec, 0, 7)[0].splitlines()]
    for i in range(0, len(rows), study.rows_per_match):
        tally.add(rows[i:i + study.rows_per_match])
    summary = tally.summary(study.describe()["arms"])
    for arm in summary["arms"]:
        for seat in arm["seats"]:
            share = seat["win_share"]
            share["low"], share["high"] = share["value"] + 1e-17, share["value"] - 1e-17
    first, second = summary["differences"][0]["seats"]
    first["score"]["low"] = first["score"]["difference"] + 1e-9
    # a score difference every match gave alike has no interval: drawn with no bar, and said
    second["score"]["low"] = second["score"]["high"] = None
    page = jobs.report_page(summary, study.describe(), 7)
    assert page.count('<img src="data:image/png;base64,') == 4
    assert "Lucky $x^^2$ Coin" in html.unescape(page)
    assert "[no interval: every match gave this difference]" in report.text(summary, "seven")


@pytest.mark.parametrize(("game", "unit"), [("dig-it-up", "₩"), ("dig", "points")])
def test_the_margin_of_victory_is_drawn_in_the_game_s_own_unit(monkeypatch, game, unit):
    # Dig It Up's margin, counted in won, was drawn as "points"
    spec = {"game": game, "seed": "3", "matches": 2, "arms": [
        {"label": "base", "variant": "small" if game == "dig-it-up" else "standard",
         "bots": ["greedy", "random"]}]}
    study = jobs.study_of(spec)
    tally = Tally(len(study.arms), study.seats)
    rows = [json.loads(line) for line in jobs.play_range(spec, 0, 2)[0].splitlines()]
    for i in range(0, len(rows), study.rows_per_match):
        tally.add(rows[i:i + study.rows_per_match])
    figures = []
    monkeypatch.setattr(report, "_png", lambda figure: figures.append(figure) or "")
    summary = tally.summary(study.describe()["arms"])
    page = jobs.report_page(summary, study.describe(), 2)
    titles = [axes.get_title() for figure in figures for axes in figure.axes]
    assert f"margin of victory ({unit})" in titles, titles
    # and what a tie counts in it, which neither said
    assert "a tie&#x27;s margin is 0" in page and "margin of victory (a tie's 0) mean" in \
        report.text(summary, "seven")


def test_the_charts_name_each_seat_under_its_arms_and_keep_the_legend_off_them(monkeypatch):
    """In the chart of differences the seats were named under the first arm's points, the
    second arm's halfway to the next seat; a long label's legend covered bars; each arm's
    differences were drawn in another arm's colour (the first's, for the second); and the two
    titles, each naming the first arm, ran into each other."""
    spec = {"game": "dig", "seed": "3", "matches": 4, "arms": [
        {"label": "base", "variant": "standard", "bots": ["greedy", "random", "random"]},
        {"label": "bots=random,greedy,random", "variant": "standard",
         "bots": ["random", "greedy", "random"]},
        {"label": "bots=random,random,greedy and a label as long as a box change's",
         "variant": "standard", "bots": ["random", "random", "greedy"]}]}
    study = jobs.study_of(spec)
    tally = Tally(len(study.arms), study.seats)
    rows = [json.loads(line) for line in jobs.play_range(spec, 0, 4)[0].splitlines()]
    for i in range(0, len(rows), study.rows_per_match):
        tally.add(rows[i:i + study.rows_per_match])
    figures = []
    monkeypatch.setattr(report, "_png", lambda figure: figures.append(figure) or "")
    report.charts(tally.summary(study.describe()["arms"]))
    for figure in figures:
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        for axes in figure.axes:
            legend = axes.get_legend()
            if legend is not None:  # beside every chart, over none
                assert all(not legend.get_window_extent(renderer).overlaps(
                    other.get_window_extent(renderer)) for other in figure.axes), axes.get_title()
            points = [line for line in axes.get_lines() if line.get_marker() == "o"]
            if "−" in axes.get_title():  # the differences: each seat under its points' middle
                xs = sorted(x for line in points for x in line.get_xdata())
                assert len(xs) == 2 * 3  # two arms against the first, three seats
                middles = [(xs[2 * seat] + xs[2 * seat + 1]) / 2 for seat in range(3)]
                assert list(axes.get_xticks()) == pytest.approx(middles)
                # the second and third arms, in their colours of the win shares' bars
                from matplotlib.colors import to_rgba
                bars = [bar.get_facecolor() for bar in figures[0].axes[0].patches[::3]]
                assert [to_rgba(line.get_color()) for line in points] == bars[1:]
        titles = [axes.title.get_window_extent(renderer) for axes in figure.axes
                  if axes.get_title()]
        assert not any(a.overlaps(b) for i, a in enumerate(titles) for b in titles[i + 1:])
    import matplotlib.pyplot as plt
    plt.close("all")


def test_a_difference_s_interval_is_student_s_and_a_share_s_stays_within_reach():
    """Paired differences at a handful of matches: the normal interval was too narrow (below
    some 30 values), a win-share difference's reached past ±1, and one match gave an interval
    of no width, as if the difference were certain."""
    def moments(values):
        m = Moments()
        for v in values:
            m.add(v)
        return m

    # Five differences, mean 0.4, sample stdev 0.5477: t at 4 degrees of freedom is 2.7764.
    five = moments([1, 0, 1, 0, 0]).interval()
    assert five["low"] == pytest.approx(0.4 - 2.7764 * 0.5477226 / 5 ** 0.5, abs=1e-4)
    assert five["high"] == pytest.approx(0.4 + 2.7764 * 0.5477226 / 5 ** 0.5, abs=1e-4)
    # Two matches, a share difference of 1 then 0: t reaches far past ±1; it stops there.
    assert moments([1, 0]).interval((-1, 1)) == {"difference": 0.5, "low": -1, "high": 1}
    # One match shows no spread: a share difference may be anything it can be.
    assert moments([1]).interval((-1, 1)) == {"difference": 1.0, "low": -1, "high": 1}
    # and a score difference has no bounds: no interval at all (a study stopped after its
    # first match gave -22.00 [-22.00, -22.00], a difference as certain as could be).
    assert moments([-22]).interval() == {"difference": -22.0, "low": None, "high": None}
    # Matches that all gave one difference: Student's t gave 1.00 [1.00, 1.00] from 40, as if
    # the next match could not differ; a share's interval now reaches as far as the share of
    # matches that could (1 − 0.025^(1/40) = 8.8%) could take it, a score's is none at all.
    same = moments([1] * 40).interval((-1, 1))
    assert same == {"difference": 1.0, "low": pytest.approx(1 - 2 * (1 - 0.025 ** (1 / 40))),
                    "high": 1.0}
    assert 0.82 < same["low"] < 0.83
    nothing = moments([0] * 40).interval((-1, 1))
    assert nothing["low"] == pytest.approx(-(1 - 0.025 ** (1 / 40))) == -nothing["high"]
    assert moments([-3] * 40).interval() == {"difference": -3.0, "low": None, "high": None}
    # thirds' running mean left 1.4e-17 where nothing differed
    assert moments([1 / 3, -1 / 3, 2 / 3, -2 / 3, 1 / 3, -1 / 3])\
        .interval((-1, 1))["difference"] == 0.0
    # Many matches: the t quantile meets the normal one.
    many = moments([i % 2 for i in range(10_000)]).interval()
    assert many["high"] - many["difference"] == pytest.approx(1.96 * 0.5 / 100, rel=1e-3)


def test_arms_are_compared_over_two_matches_at_least(runner):
    """From one match each difference had an interval of no width: -3.00 [-3.00, -3.00]."""
    assert "Invalid value for '--matches': Comparing arms takes at least 2 matches" in refused(
        runner, 2, "simulate", "dig", "--matches", "1", "--compare", "HAND_LIMIT=2")
    assert runner.invoke(args=["simulate", "dig", "--matches", "1"]).exit_code == 0


def test_bots_that_never_end_a_match_stop_the_run_naming_the_arm(runner, tmp_path,
                                                                 monkeypatch):
    """A box may leave greedy bots going round in circles: the run ended in a traceback."""
    monkeypatch.setattr("studies.play.MOST_ACTIONS", 6)
    out = tmp_path / "run.jsonl"
    said = refused(runner, 1, "simulate", "dig", "--matches", "2", "--compare", "HAND_LIMIT=2",
                   "--out", str(out))
    assert said.endswith(f"Error: In the arm base, match 0: the bots (random, random) played 6 "
                         "actions without an end. With this box they never finish a match: "
                         "change the box or the bots. The records of the matches played before "
                         f"it are in {out}."), said


def test_records_written_where_they_cannot_be_are_refused_in_words(runner, tmp_path):
    """A folder that is not there gave a FileNotFoundError traceback."""
    out = tmp_path / "missing" / "run.jsonl"
    assert f"Invalid value for '--out': {out} cannot be written: No such file or directory." \
        in refused(runner, 2, "simulate", "dig", "--matches", "2", "--out", str(out))


def test_an_arm_s_unknown_bot_is_told_where_it_was_named(runner):
    assert "Invalid value for '--compare': wizard: choose bots among" in refused(
        runner, 2, "simulate", "dig", "--matches", "2", "--compare", "bots=greedy,wizard")


def test_records_with_no_provenance_beside_them_are_told_where_a_report_comes_from(runner,
                                                                                   tmp_path):
    """Records downloaded from a study over HTTP have no side file: "has no side file" said
    nothing of what to do."""
    downloaded = tmp_path / "records.jsonl"
    downloaded.write_text('{"arm": 0}\n')
    assert (f"{downloaded} has no side file records.jsonl.meta.json, which simulate --out and "
            "studies merge write beside their records (a study played over HTTP has its report "
            "at /api/v1/studies/ID/report).") in refused(runner, 1, "studies", "report",
                                                          str(downloaded))


def test_a_run_s_seed_is_one_a_study_over_http_takes(runner):
    """A seed past 2**63 - 1 was played here, and refused over HTTP: the run could not be
    played again as a study there."""
    assert runner.invoke(args=["simulate", "dig", "--matches", "1", "--seed",
                               str(2**63 - 1)]).exit_code == 0
    assert "Invalid value for '--seed'" in refused(runner, 2, "simulate", "dig", "--matches",
                                                   "1", "--seed", str(2**63))


def test_a_study_stopped_after_its_first_match_claims_no_score_difference():
    """A study cancelled (or failed) with one match stored reported its score difference as
    -22.00 [-22.00, -22.00], an interval of no width that reads as a certain difference."""
    spec = {"game": "digging-for-dinos", "seed": "1", "matches": 6, "arms": [
        {"label": "base", "variant": "standard", "bots": ["mcts", "greedy"]},
        {"label": "bots=greedy,mcts", "variant": "standard", "bots": ["greedy", "mcts"]}]}
    study = jobs.study_of(spec)
    tally = Tally(len(study.arms), study.seats)
    tally.add([json.loads(line) for line in jobs.play_range(spec, 0, 1)[0].splitlines()])
    summary = tally.summary(study.describe()["arms"])
    for seat in summary["differences"][0]["seats"]:
        assert (seat["score"]["low"], seat["score"]["high"]) == (None, None)
        assert (seat["win_share"]["low"], seat["win_share"]["high"]) == (-1, 1)
    said = report.text(summary, "one match")
    assert said.count("[no interval from one match]") == 2, said
    # p = 0.32 from one match, with no word that the test is meaningless at that size
    assert said.count("p = 0.317 (too few matches to trust: each seat is expected to win "
                      "under 5 times)") == 2, said
    page = jobs.report_page(summary, study.describe(), 1)
    assert "paired on the same deals, with its 95% interval" not in page  # nothing to draw


def test_a_cluster_started_as_the_readme_says_plays_a_study(runner, tmp_path):
    """The README's commands gave a cluster on which every match failed: "No module named
    'studies'" (the dask commands do not put the folder they run in on Python's path)."""
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "`PYTHONPATH=. dask scheduler`" in readme
    assert "`PYTHONPATH=. dask worker tcp://HOST:8786 --nthreads 1`" in readme
    dask, port = str(Path(sys.executable).with_name("dask")), free_port()
    env = {**os.environ, "PYTHONPATH": "."}
    local = ["--host", "127.0.0.1", "--dashboard-address", "127.0.0.1:0"]  # listening here only
    cluster = [subprocess.Popen([*ENDS_WITH_ITS_TEST, *command], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for command in ([dask, "scheduler", "--port", str(port), *local],
                               [dask, "worker", f"tcp://127.0.0.1:{port}", "--nthreads", "1",
                                *local])]
    try:
        out = tmp_path / "on-the-cluster.jsonl"
        played = simulate(runner, "dig", "--matches", "3", "--seed", "4", "--scheduler",
                          f"tcp://127.0.0.1:{port}", "--out", str(out)).stdout
        # where it played: "on 1 process" was --jobs's default, not the cluster's workers
        assert f"matches/s on the Dask cluster at tcp://127.0.0.1:{port}\n" in played, played
        here = tmp_path / "here.jsonl"
        simulate(runner, "dig", "--matches", "3", "--seed", "4", "--out", str(here))
        assert out.read_text() == here.read_text()
    finally:
        for process in cluster:
            process.terminate()
        for process in cluster:
            process.wait(30)


def test_a_study_that_ended_early_says_how_in_its_report():
    """A study played over HTTP and cancelled, or failed, was reported as a records file whose
    run was "still being played, or ended before it could write that it stopped"."""
    summary, meta = {"matches": 7}, {"study": {"matches": 20}, "shard": None}
    assert report.unfinished(summary, {**meta, "status": "cancelled",
                                       "error": "Cancelled by its creator."}) == \
        "The study was cancelled after 7 of 20 matches: Cancelled by its creator."
    assert report.unfinished(summary, {**meta, "status": "failed", "error": "Out of time."}) == \
        "The study failed after 7 of 20 matches: Out of time."
    # A records file's run keeps its own words.
    assert "with --resume, plays the rest" in report.unfinished(summary, {**meta,
                                                                        "status": "interrupted"})
    assert report.unfinished({"matches": 20}, {**meta, "status": "complete"}) is None
    assert report.unfinished(summary, {**meta, "status": "complete"}).startswith(
        "Records cut short: 7 whole matches of the 20 ")


def test_a_study_that_rotates_its_seats_tells_a_seat_s_advantage_from_a_bot_s_strength(
        runner, tmp_path):
    """Every study sat each bot in the seat it was listed for: greedy against random read as
    "all seats equally likely to win? p = 2.5e-10", the bot's strength told as the seat's,
    and neither could be had apart. Rotated (Ludii's evaluations rotate their agents), match i
    seats bot k at seat k − i: over 3 matches each bot sits in each seat once, the seats'
    figures are the seats' and each bot's are the bot's, whichever seat it sat in."""
    path = tmp_path / "rotated.jsonl"
    out = json.loads(simulate(runner, "digging-for-dinos", "--matches", "30", "--seed", "3",
                              "--bots", "greedy,random,random", "--players", "3",
                              "--rotate-seats", "--compare", "bots=random,random,random",
                              "--out", str(path), "--format", "json").stdout)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    lineups = {"base": ["greedy", "random", "random"], "bots=random,random,random": ["random"] * 3}
    for row in rows:
        assert row["lineup"] == (row["seat"] + row["match"]) % 3
        assert row["bot"] == lineups[row["label"]][row["lineup"]]
    greedy = [row for row in rows if row["label"] == "base" and row["bot"] == "greedy"]
    assert sorted(row["seat"] for row in greedy) == [0] * 10 + [1] * 10 + [2] * 10

    base, alike = out["study"]["arms"]
    assert [(s["name"], s["bot"]) for s in base["seats"]] == [
        ("seat 0", None), ("seat 1", None), ("seat 2", None)]
    assert [(b["bot_index"], b["name"], b["bot"]) for b in base["bots"]] == [
        (0, "bot 0 (greedy)", "greedy"), (1, "bot 1 (random)", "random"),
        (2, "bot 2 (random)", "random")]
    for place, said in enumerate(base["bots"]):
        held = [row for row in rows if row["label"] == "base" and row["lineup"] == place]
        assert said["wins"] == sum(1 for r in held if r["won"] and r["winners"] == 1)
        assert said["win_share"]["value"] == pytest.approx(
            sum(1 / r["winners"] for r in held if r["won"]) / 30)
        assert said["score"]["mean"] == pytest.approx(sum(r["score"] for r in held) / 30)
    for seat, said in enumerate(base["seats"]):
        held = [row for row in rows if row["label"] == "base" and row["seat"] == seat]
        assert said["win_share"]["value"] == pytest.approx(
            sum(1 / r["winners"] for r in held if r["won"]) / 30)
    # greedy beats random from whichever seat: the bots differ, and the test says so
    assert base["bots"][0]["win_share"]["low"] > 1 / 3 > base["bots"][1]["win_share"]["high"]
    assert base["equal_bot_shares"]["p_value"] < 0.01
    assert "bots" in alike and "bots" in out["study"]["differences"][0]
    first = out["study"]["differences"][0]["bots"][0]["win_share"]
    assert first["high"] < 0  # random in greedy's place wins less, paired on the same deals
    # the batch's own summary names the seats as the study does, not by their first bots
    assert [s["name"] for s in out["arms"][0]["summary"]["seats"]] == ["seat 0", "seat 1",
                                                                        "seat 2"]
    assert [m["bots"] for m in out["arms"][0]["matches"][:2]] == [
        ["greedy", "random", "random"], ["random", "random", "greedy"]]
    assert json.loads(Path(f"{path}.meta.json").read_text())["study"]["rotate_seats"] is True

    text = simulate(runner, "digging-for-dinos", "--matches", "30", "--seed", "3",
                    "--bots", "greedy,random,random", "--players", "3",
                    "--rotate-seats").stdout
    assert "seats rotated" in text and "all bots equally likely to win, whatever their seat?" \
        in text and "no multiple" not in text
    assert "no multiple of the seats" in simulate(
        runner, "digging-for-dinos", "--matches", "4", "--bots", "greedy,random,random",
        "--players", "3", "--rotate-seats").stdout
    # a study that does not rotate is as it was: no bot apart from its seat
    fixed = json.loads(simulate(runner, "digging-for-dinos", "--matches", "3", "--bots",
                                "greedy,random,random", "--players", "3",
                                "--format", "json").stdout)
    assert "bots" not in fixed["study"]["arms"][0]
    assert fixed["study"]["arms"][0]["seats"][0]["name"] == "greedy 1"


def test_a_rotated_run_resumes_only_rotated(runner, tmp_path):
    path = tmp_path / "r.jsonl"
    simulate(runner, "dig", "--matches", "4", "--bots", "greedy,random", "--rotate-seats",
             "--out", str(path))
    said = refused(runner, 2, "simulate", "dig", "--matches", "4", "--bots", "greedy,random",
                   "--out", str(path), "--resume")
    assert "another run" in said and "study" in said


def test_the_report_of_a_rotated_study_draws_each_bot_s_win_share(runner, tmp_path):
    page = tmp_path / "r.html"
    simulate(runner, "dig", "--matches", "6", "--bots", "greedy,random", "--rotate-seats",
             "--report", str(page))
    text = page.read_text()
    assert "Win share per bot of the arms&#x27; lists, whichever seat it sat in" in text
    assert "The seats were rotated: each held every bot in turn." in text
    assert text.count('<img src="data:image/png;base64,') == 4  # seats, bots, scores, lengths


def summed(spec: dict) -> dict:
    """The statistics of a stored study's spec, its matches played here."""
    study = jobs.study_of(spec)
    tally = Tally(len(study.arms), study.seats)
    rows = [json.loads(line) for line in
            jobs.play_range(spec, 0, spec["matches"])[0].splitlines()]
    for i in range(0, len(rows), study.rows_per_match):
        tally.add(rows[i:i + study.rows_per_match])
    return tally.summary(study.describe()["arms"])


def test_each_place_is_named_with_each_arm_s_bot_there(monkeypatch):
    """The per-bot chart named bot 1 by the first arm's bot ("random") over the second arm's
    bar, which was greedy; a fixed seat was "seat 0" with no bot named, and a mixed table's
    seats' test read as the seats' alone. The per-bot differences were never drawn."""
    spec = {"game": "dig", "seed": "3", "matches": 4, "rotate_seats": True, "arms": [
        {"label": "base", "variant": "standard", "bots": ["greedy", "random"]},
        {"label": "bots=random,greedy", "variant": "standard", "bots": ["random", "greedy"]}]}
    figures = []
    monkeypatch.setattr(report, "_png", lambda figure: figures.append(figure) or "")
    summary = summed(spec)
    drawn = report.charts(summary)
    ticks = [[label.get_text() for label in figure.axes[0].get_xticklabels()]
             for figure in figures]
    assert ticks[0] == ["seat 0", "seat 1"]  # rotated: each seat held every bot
    assert ticks[1] == ["bot 0\n(greedy / random)", "bot 1\n(random / greedy)"]
    captions = [caption for caption, _ in drawn]
    assert any("per bot of the arms' lists" in caption for caption in captions)
    assert len([c for c in captions if c.startswith("Each arm's difference")]) == 2
    said = report.text(summary, "DIG")
    assert "seats rotated" in said and "bot 1 (random in the first)" in said
    import matplotlib.pyplot as plt
    plt.close("all")

    figures.clear()
    summary = summed({**spec, "rotate_seats": False})
    report.charts(summary)
    assert [label.get_text() for label in figures[0].axes[0].get_xticklabels()] == [
        "seat 0\n(greedy / random)", "seat 1\n(random / greedy)"]
    said = report.text(summary, "DIG")
    assert "seats not rotated: each seat kept its bot" in said
    assert "this tests the bots as much as the seats" in said
    plt.close("all")

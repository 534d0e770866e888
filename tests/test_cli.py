"""The command line: the contract of docs/design.md, run as a user runs it (a real subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from montecards import games


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "montecards", *args], capture_output=True, text=True, timeout=600,
        env={"MONTECARDS_NO_PROGRESS": "1", "PATH": "/usr/bin:/bin"},
    )


def test_simulate_json_has_the_contract_keys():
    out = run("simulate", "parade", "-n", "2000", "-p", "3", "--seed", "7", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["game"] == "parade" and d["n_games"] == 2000 and d["players"] == 3 and d["seed"] == 7
    assert d["strategies"] == ["greedy"] * 3
    assert d["params"] == {"two_player_margin": 2, "opening_parade": 6, "end_colours": 6, "colours": 6,
                           "values": 11, "hand_size": 5, "discards": 2}
    assert sum(d["win_share"]) == pytest.approx(1.0)
    assert len(d["win_share_ci95"]) == 3
    assert 0 <= d["metrics"]["six_colours"]["mean"] <= 1
    # the mean score's interval, as the Python summary has it (score_low, score_high)
    assert len(d["mean_score_ci95"]) == 3
    for mean, (low, high) in zip(d["mean_score"], d["mean_score_ci95"], strict=True):
        assert low < mean < high


def test_seats_are_numbered_from_one_in_text_and_from_zero_in_json():
    """People count seats from 1 (tables, sentences, plots); JSON lists and Python index from 0."""
    out = run("simulate", "parade", "-n", "300", "-s", "random", "-s", "greedy", "--seed", "1")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    body = lines[lines.index(next(x for x in lines if x.startswith("----"))) + 1:][:2]
    assert [row.split()[:2] for row in body] == [["1", "random"], ["2", "greedy"]]
    seats = run("seats", "parade", "-p", "2", "-n", "300", "--seed", "1", "-s", "random")
    assert seats.returncode == 0, seats.stderr
    table = [x.split() for x in seats.stdout.splitlines() if "random" in x and "seat" not in x]
    assert [row[:3] for row in table] == [["2", "1", "random"], ["2", "random", "300"]]
    assert "the best seat is seat " in seats.stdout
    d = json.loads(run("seats", "parade", "-p", "2", "-n", "300", "--seed", "1", "-s", "random",
                       "--json").stdout)
    assert d["players"]["2"]["strategies"] == ["random", "random"]


def test_simulate_table_is_readable_and_records_the_seed():
    out = run("simulate", "parade", "-n", "1000", "-p", "3")
    assert out.returncode == 0, out.stderr
    assert "seed" in out.stdout and "win share" in out.stdout and "95% CI" in out.stdout
    assert out.stdout.count("greedy") == 3
    assert ("[two_player_margin=2 (unused with 3 players), opening_parade=6, end_colours=6, colours=6, "
            "values=11, hand_size=5, discards=2]" in out.stdout.splitlines()[0])


def test_table_marks_only_parameters_that_do_not_act():
    out = run("simulate", "parade", "-n", "300", "--param", "two_player_margin=1", "--seed", "1")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].endswith("[two_player_margin=1, opening_parade=6, end_colours=6, colours=6, "
                                               "values=11, hand_size=5, discards=2]")


def test_strategy_per_seat_and_param_list():
    out = run("simulate", "parade", "-n", "500", "-s", "random", "-s", "greedy",
              "--param", "two_player_margin=1", "--seed", "1", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["strategies"] == ["random", "greedy"] and d["params"]["two_player_margin"] == 1


def test_same_seed_same_json_numbers_for_any_jobs():
    a = json.loads(run("simulate", "parade", "-n", "3000", "--seed", "5", "-j", "1", "--json").stdout)
    b = json.loads(run("simulate", "parade", "-n", "3000", "--seed", "5", "-j", "2", "--json").stdout)
    for key in ("win_share", "win_share_ci95", "mean_score", "mean_turns", "metrics"):
        assert a[key] == b[key]


@pytest.mark.parametrize("suffix", ["csv", "parquet", "json"])
def test_output_files(tmp_path, suffix):
    path = tmp_path / f"games.{suffix}"
    out = run("simulate", "parade", "-n", "300", "--seed", "3", "-o", str(path))
    assert out.returncode == 0, out.stderr
    if suffix == "csv":
        frame = pd.read_csv(path)
    elif suffix == "parquet":
        frame = pd.read_parquet(path)
    else:
        frame = pd.DataFrame(json.loads(path.read_text())["games"])
    assert len(frame) == 300 and {"turns", "score_0", "win_1"} <= set(frame.columns)


def test_trace_prints_events_and_outcome():
    out = run("trace", "parade", "--seed", "7", "--index", "42", "-p", "3")
    assert out.returncode == 0, out.stderr
    assert "play" in out.stdout and "outcome:" in out.stdout
    note = "(seats here are numbered from 0, as in --json: seat 0 is the first seat)"
    assert out.stdout.strip().endswith(note)  # the raw event table keeps the data's numbering
    j = json.loads(run("trace", "parade", "--seed", "7", "--index", "42", "-p", "3", "--json").stdout)
    assert j["events"] and "turns" in j["outcome"]


def test_games_lists_every_game():
    out = run("games", "--json")
    listed = {g["game"] for g in json.loads(out.stdout)}
    assert listed == set(games.names())


BAD_INPUTS = [
    (["simulate", "chess"], "unknown game"),
    (["simulate", "parade", "-s", "nope"], "unknown strategy"),
    (["simulate", "parade", "-p", "7"], "2 to 6 players"),
    (["simulate", "parade", "-p", "1"], "2 to 6 players"),
    (["simulate", "parade", "-n", "0"], "must be an integer > 0"),
    (["simulate", "parade", "-n", "-3"], "must be an integer > 0"),
    (["simulate", "parade", "--param", "colour=red"], "unknown parameter"),
    (["simulate", "parade", "--param", "two_player_margin=3"], "must be one of 0, 1, 2"),
    (["simulate", "parade", "--param", "two_player_margin"], "KEY=VALUE"),
    (["simulate", "parade", "--param", "two_player_margin=x"], "invalid value"),
    (["simulate", "parade", "-p", "3", "-s", "greedy", "-s", "random"], "one per seat"),
    (["simulate", "parade", "-o", "out.xlsx"], "--output"),
    (["simulate", "parade", "-j", "0"], "jobs"),
    (["simulate", "parade", "--seed", "-1"], "seed"),
    (["simulate", "parade", "--bogus"], "No such option"),
    (["trace", "parade", "--seed", "1", "--index", "-1"], "index"),
    (["trace", "parade", "--index", "1"], "--seed"),
]


@pytest.mark.parametrize("args,message", BAD_INPUTS)
def test_bad_input_exits_2_with_one_clear_line(args, message):
    out = run(*args)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert message in lines[0]
    assert "Traceback" not in out.stderr


def test_simulate_table_does_not_load_pandas():
    """The default table is built without pandas: its import is ~0.4 s of a short run."""
    code = (
        "import sys; from click.testing import CliRunner; from montecards.cli import cli; "
        "r = CliRunner().invoke(cli, ['simulate', 'parade', '-n', '300', '--seed', '1']); "
        "assert r.exit_code == 0, r.output; assert 'win share' in r.output; "
        "print('pandas' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"

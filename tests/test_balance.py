"""``montecards balance`` / ``analysis.balance``: the rules search (issue 33).

Small runs of Parade at greedy strength (the kernel the other Parade tests compile)."""

from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner

from montecards.analysis import balance
from montecards.analysis.balance import Target, measure, pareto_front, parse_target
from montecards.analysis.runs import per_game, setup
from montecards.cli import cli, main
from montecards.engine.spec import InputError

SMALL = dict(players=3, n=300, budget=1200, keep=2, held_out=600, seed=11, jobs=1)


def test_targets_parse_and_score():
    assert parse_target("fair") == Target("fair")
    assert parse_target("balance>=0.9") == Target("balance", low=0.9)
    assert parse_target("length = 30:40") == Target("length", low=30.0, high=40.0)
    assert parse_target("ties<=0.01").high == 0.01
    m = {"players": 3, "spread": 0.05, "first_seat": 0.30, "balance": 0.95, "length": 45.0, "ties": 0.02}
    assert Target("fair").penalty(m) == pytest.approx(0.05)
    assert Target("first_seat").penalty(m) == pytest.approx(1 / 3 - 0.30)
    assert Target("balance", low=0.97).penalty(m) == pytest.approx(0.02)
    assert Target("length", low=30, high=40).penalty(m) == pytest.approx(0.5)
    assert Target("ties", high=0.01).penalty(m) == pytest.approx(0.01)
    assert parse_target("deadlocks<=0.5") == Target("deadlocks", high=0.5)
    assert Target("deadlocks", high=0.5).penalty({**m, "means": {"deadlocks": 0.75}}) == pytest.approx(0.25)
    for bad in ("skill", "balance>=2", "length=5", "ties", "nope"):
        with pytest.raises(InputError):
            parse_target(bad)


def test_pareto_front_keeps_the_undominated():
    assert pareto_front([[1, 5], [2, 2], [3, 3], [5, 1], [1, 5]]) == [0, 1, 3, 4]


def test_measure_gives_every_metric_with_its_interval():
    run = setup("parade", 3, ["greedy"], {}, 5, 1)
    _, rows = run.play(0, 400, keep=True)
    m = measure(per_game(rows, run.layout), 3)
    assert m["games"] == 400 and sum(m["win_share"]) == pytest.approx(1.0)
    for key in ("first_seat", "spread", "balance", "length", "ties"):
        assert m[f"{key}_low"] <= m[key] <= m[f"{key}_high"], key
    assert m["balance"] == pytest.approx(1 - m["spread"])
    hi, lo = m["spread_seats"]
    assert m["spread"] == pytest.approx(m["win_share"][hi] - m["win_share"][lo])


def test_search_halves_confirms_on_held_out_deals_and_resumes(tmp_path, monkeypatch):
    vary = {"opening_parade": "4,6,8", "end_colours": ["5", 6]}
    res = balance("parade", vary, targets=["fair", "length=30:45"], checkpoint=tmp_path / "ck", **SMALL)
    assert len(res.variants) == 6 and res.vary == {"opening_parade": [4, 6, 8], "end_colours": [5, 6]}
    assert [r["variants"] for r in res.rounds] == [6, 3, 2]
    assert [r["games"] for r in res.rounds] == [300, 600, 1200]
    assert res.baseline == "opening_parade=6 end_colours=6"  # the official rules are in the space
    held = [v for v in res.variants if v.held_out]
    assert res.best is held[0] and res.variants[: len(held)] == held
    assert [v.held_out["score"] for v in held] == sorted(v.held_out["score"] for v in held)
    assert all(v.held_out["games"] == 600 for v in held)
    assert all(v.held_out["seed"] == res.held_out_seed != res.seed for v in held)
    assert any(v.label == res.baseline for v in held)
    assert set(res.pareto) <= {v.label for v in res.variants} and res.pareto
    d = json.loads(json.dumps(res.to_dict()))
    assert {"variants", "best", "pareto"} <= set(d)
    assert set(d["variants"][0]) >= {"params", "score", "metrics", "held_out"}
    assert d["best"]["label"] == res.best.label
    # the same search again from its checkpoint: nothing is played, the same answer
    from montecards.analysis.runs import Setup

    def no_games(*args, **kwargs):
        raise AssertionError("a resumed search played a batch again")

    monkeypatch.setattr(Setup, "play", no_games)
    again = balance("parade", vary, targets=["fair", "length=30:45"], checkpoint=tmp_path / "ck", **SMALL)
    assert json.loads(json.dumps(again.to_dict()))["variants"] == d["variants"]
    with pytest.raises(InputError, match="other strategies, parameters"):
        balance("parade", vary, params={"two_player_margin": 1}, checkpoint=tmp_path / "ck", **SMALL)


@pytest.mark.parametrize("args, message", [
    (["--vary", "nope=1,2"], "unknown parameter"),
    (["--vary", "end_colours=0,6"], "end_colours"),
    (["--vary", "end_colours="], "NAME=VALUES"),
    (["--vary", "end_colours=6", "--target", "skill"], "cannot be measured"),
    (["--vary", "end_colours=6:6"], "needs A < B"),
    (["--vary", "end_colours=1:9"], "end_colours"),
    (["--vary", "two_player_margin=0.5:3"], "whole ends"),
    (["--vary", "end_colours=4:6", "--vary", "opening_parade=4,6"], "not both"),
    (["--vary", "end_colours=4:6/5"], "only value"),
    (["--vary", "end_colours=6", "--target", "deadlocks<=0.1"], "cannot be measured for parade"),
    ([], "--vary"),
    (["--vary", "end_colours=5,6", "--retune", "1000"], "reads no weights"),  # greedy
    (["--vary", "end_colours=5,6", "-p", "3", "-s", "tuned", "-s", "greedy", "-s", "tuned", "--retune", "1000"],
     "one strategy at every seat"),
    (["--vary", "end_colours=5,6", "-s", "tuned", "--retune", "50"], "retune"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["montecards", "balance", "parade", *args, "-n", "100"])
    with pytest.raises(SystemExit) as stop:
        main()
    err = capsys.readouterr().err
    assert stop.value.code == 2, err
    assert message in err and len(err.strip().splitlines()) == 1


def test_cli_json_and_plot(tmp_path):
    png = tmp_path / "b.png"
    out = CliRunner().invoke(cli, ["balance", "parade", "--vary", "opening_parade=5..6", "-p", "3",
                                   "-n", "200", "--budget", "400", "--keep", "1", "--held-out", "300",
                                   "--seed", "2", "-j", "1", "--json", "--plot", str(png)])
    assert out.exit_code == 0, out.output
    d = json.loads(out.stdout)
    assert d["analysis"] == "balance" and len(d["variants"]) == 2 and png.stat().st_size > 0


def test_ranges_are_searched_by_cma_es_and_confirmed_on_held_out_deals(tmp_path, monkeypatch):
    """3-player Gift of Tulips (greedy): the first seat wins ~14 % under the official rules
    (reports/tulips). CMA-ES over every seat's starting points finds a compensation whose seat
    spread on held-out deals is far below the official rules' (the search has no list of
    candidates to pick from: it must move towards them)."""
    args = dict(players=3, n=600, evaluations=21, keep=2, held_out=3000, seed=5, jobs=1)
    res = balance("tulips", {"start_points": "0:12"}, targets=["fair"], checkpoint=tmp_path / "ck", **args)
    assert res.search == "cma" and res.vary == {"start_points": ["0:12"]}
    assert sum(r["variants"] for r in res.rounds) >= 21
    assert sum(r["new"] for r in res.rounds) == len(res.variants) - (res.baseline == "official rules")
    labels = [v.label for v in res.variants]
    assert len(labels) == len(set(labels))
    for v in res.variants:
        if v.label != res.baseline:
            assert all(isinstance(x, int) and 0 <= x <= 12 for x in v.params["start_points"]), v.params
    official = next(v for v in res.variants if v.label == res.baseline)
    assert official.held_out is not None and res.best.held_out is not None
    assert res.best.held_out["metrics"][3]["spread"] < official.held_out["metrics"][3]["spread"] - 0.1
    assert json.loads(json.dumps(res.to_dict()))["search"] == "cma"
    # the same search resumed from its checkpoint plays nothing and gives the same answer
    from montecards.analysis.runs import Setup

    def no_games(*a, **k):
        raise AssertionError("a resumed search played a batch again")

    monkeypatch.setattr(Setup, "play", no_games)
    again = balance("tulips", {"start_points": "0:12"}, targets=["fair"], checkpoint=tmp_path / "ck", **args)
    assert [v.to_dict() for v in again.variants] == [v.to_dict() for v in res.variants]


def test_retune_plays_the_finalists_by_the_strength_tuned_for_each(tmp_path, monkeypatch):
    """``retune``: every finalist (and the official rules) is also played on the held-out deals
    by ``tuned`` re-tuned under its rules; those games are exactly the games of the recorded
    re-tuned weights at every seat, and the answer says whether the best is the same."""
    args = dict(players=3, strategies="tuned", n=300, budget=300, keep=2, held_out=600, seed=4, jobs=1)
    res = balance("parade", {"opening_parade": "5,6,7"}, retune=2000, checkpoint=tmp_path / "ck", **args)
    finalists = [v for v in res.variants if v.held_out]
    assert len(finalists) >= 2 and all(v.held_out["retuned"] for v in finalists)
    assert not any(v.held_out is None or "retuned" in v.held_out for v in res.variants if not v.held_out)
    assert res.retuned_best in {v.label for v in finalists}
    for v in finalists:
        re = v.held_out["retuned"]
        label = re["strategies"]["3"]
        assert label.startswith("tuned[") and label != "tuned"
        # the re-tuned score is the held-out games of that label, played again here
        s = setup("parade", 3, [label] * 3, v.params, res.held_out_seed, 1, None)
        _, rows = s.play(0, 600, keep=True)
        again = measure(per_game(rows, s.layout), 3)
        assert again["spread"] == re["metrics"][3]["spread"] and again["length"] == re["metrics"][3]["length"]
    text = res.text()
    assert "Re-tuned per variant (2,000 games of tuning each)" in text and "retuned_score" in text
    d = json.loads(json.dumps(res.to_dict()))
    assert d["retune"] == 2000 and d["retuned_best"] == res.retuned_best
    # resumed from the checkpoint, the held-out games of the re-tuned strength are not played again
    from montecards.analysis.runs import Setup

    def no_games(*a, **k):
        raise AssertionError("a resumed search played a batch again")

    monkeypatch.setattr(Setup, "play", no_games)  # neither the tuning's games nor the held-out ones
    again = balance("parade", {"opening_parade": "5,6,7"}, retune=2000, checkpoint=tmp_path / "ck", **args)
    assert [v.to_dict() for v in again.variants] == [v.to_dict() for v in res.variants]


@pytest.mark.parametrize("vary, players, message", [
    ({"start_points": "0:12"}, [3, 4], "one entry per seat"),
    ({"majority_points": "0:9"}, [3], "a number or a list of numbers"),
    ({"start_points": "-20000:3"}, [3], "start_points"),
])
def test_bad_ranges_are_refused_before_any_game(vary, players, message):
    with pytest.raises(InputError, match=message):
        balance("tulips", vary, players=players, n=100, held_out=100, seed=1, jobs=1)

"""``--luck`` beyond ``simulate`` (docs/luck.md): ``seats``, ``compare`` (matchups and variants)
and ``sweep`` play their games with the luck ledger where it can serve (Parade, 2 players,
built-in strategies, the official rules), and report the luck-adjusted win shares with their
intervals and the variance ratio; everywhere else they refuse in one line, exit 2.

Cheap: Parade's luck kernel at 2 players (compiled once), a few thousand games in all."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import montecards as mc
from montecards.analysis import compare_variants, seat_advantage, sweep
from montecards.analysis.matchups import matchups
from montecards.cli import main

SEED = 20261203
LUCK_KEYS = ("win_share_adjusted", "win_share_adjusted_low", "win_share_adjusted_high", "variance_ratio")


def _agree(plain: float, plain_ci, adjusted: float, adjusted_ci, luck: np.ndarray) -> None:
    """Adjusted and plain estimate one share: their intervals overlap, and they differ by the
    mean luck, which is within 4 standard errors of 0 (the luck terms have mean 0)."""
    assert adjusted_ci[0] < adjusted < adjusted_ci[1]
    assert adjusted_ci[0] < plain_ci[1] and plain_ci[0] < adjusted_ci[1]
    se = luck.std(ddof=1) / np.sqrt(luck.shape[0])
    assert plain - adjusted == pytest.approx(luck.mean(), abs=1e-6)
    assert abs(luck.mean()) < 4 * se


def test_seats_with_luck_agree_with_plain_and_match_simulate():
    sa = seat_advantage("parade", players=2, n=3000, strategy="greedy", seed=SEED, jobs=1, luck=True,
                        keep_games=True)
    res = sa.results[2]
    games = res.games
    for seat in range(2):
        _agree(res.win_share[seat], res.win_share_ci95[seat], res.win_share_adjusted[seat],
               res.win_share_adjusted_ci95[seat], games[f"luck_{seat}"].to_numpy())
    # the same games and numbers as simulate --luck with that seed (one path: Setup with luck)
    sim = mc.simulate("parade", n=3000, players=2, strategies="greedy", seed=SEED, jobs=1, luck=True)
    assert res.win_share_adjusted == pytest.approx(sim.win_share_adjusted)
    assert res.variance_ratio == pytest.approx(sim.variance_ratio)
    assert res.variance_ratio[0] > 1.0
    table = sa.table()
    assert {"win_share_adjusted", "adjusted_low", "adjusted_high", "variance_ratio"} <= set(table.columns)
    assert any("Luck-adjusted" in line and "variance ratio" in line for line in sa.findings())
    out = sa.to_dict()["players"]["2"]
    for key in LUCK_KEYS:
        assert len(out[key]) == 2, key
    assert out["value"].endswith("2p-greedy-greedy.json")


def test_matchups_with_luck_agree_with_plain_over_deals():
    res = matchups("parade", ["greedy", "random"], players=2, n=1500, seed=SEED, jobs=1, luck=True)
    m = res.matchups[0]
    table = res.table().set_index(["strategy", "opponent"])
    for who, row in (("a", ("greedy", "random")), ("b", ("random", "greedy"))):
        plain, adjusted = m.values(who), m.values(who, adjusted=True)
        entry = table.loc[row]
        _agree(entry["win_share"], (entry["low"], entry["high"]), entry["win_share_adjusted"],
               (entry["win_share_adjusted_low"], entry["win_share_adjusted_high"]), plain - adjusted)
        assert entry["variance_ratio"] == pytest.approx(plain.var(ddof=1) / adjusted.var(ddof=1))
    # two players: the seats' adjusted shares add up to one win per deal, as the plain ones
    np.testing.assert_allclose(m.values("a", adjusted=True) + m.values("b", adjusted=True), 1.0, atol=1e-4)
    out = res.to_dict()
    assert out["value"].endswith("2p-greedy-greedy.json")
    for record in out["matchups"]:
        for key in LUCK_KEYS:
            assert key in record
    assert any(line.startswith("Luck-adjusted") for line in res.findings())
    plain = matchups("parade", ["greedy", "random"], players=2, n=1500, seed=SEED, jobs=1)
    assert plain.table()["win_share"].tolist() == pytest.approx(res.table()["win_share"].tolist())
    assert "win_share_adjusted" not in plain.table() and "value" not in plain.to_dict()


def test_variants_and_sweep_with_luck_at_the_official_rules():
    # a variant that restates the official rules is served like any other ...
    cmp = compare_variants("parade", {"a": {"opening_parade": 6}, "b": {"end_colours": 6}}, n=600,
                           players=2, strategies="greedy", seed=SEED, jobs=1, luck=True)
    est = cmp.luck()
    assert set(est) == {"a", "b"}
    for key in LUCK_KEYS:
        assert len(est["a"][key]) == 2
    # ... and the two (identical) variants' adjusted difference is exactly 0, paired
    assert cmp.difference("b", "adjusted_0") == pytest.approx((0.0, 0.0, 0.0), abs=1e-12)
    lo, hi = cmp.level("a", "win_0")[1:]
    adj, adj_lo, adj_hi = cmp.level("a", "adjusted_0")
    assert adj_lo < hi and lo < adj_hi
    assert adj == pytest.approx(est["a"]["win_share_adjusted"][0])
    assert "luck" in cmp.to_dict()
    res = sweep("parade", "opening_parade", ["6"], n=300, players=2, strategies="greedy", seed=SEED, jobs=1,
                luck=True)
    assert "adjusted_0" in res.table("adjusted_0").columns
    assert res.to_dict()["luck"]["opening_parade=6"]["value"].endswith("2p-greedy-greedy.json")


@pytest.mark.parametrize("args, message", [
    (["seats", "marbles", "-p", "5", "-n", "10", "--luck"], "no fitted value for marbles with 5 players"),
    (["seats", "parade", "-n", "10", "--luck"], "no fitted value for parade with 3 players"),
    (["seats", "parade", "-p", "2", "-n", "10", "--luck", "--duplicate"], "--luck with duplicate deals"),
    (["seats", "marbles", "-p", "4", "-n", "10", "--luck", "--param", "teams=pairs"],
     "--luck is not exact under --param teams (its ledger serves the official rules, and decks,"),
    (["compare", "parade", "-s", "greedy", "-s", "random", "-p", "3", "-n", "10", "--luck"],
     "no fitted value for parade with 3 players"),
    (["compare", "marbles", "-s", "greedy", "-s", "random", "-p", "5", "-n", "10", "--luck"],
     "no fitted value for marbles with 5 players"),
    (["compare", "marbles", "-p", "4", "--variant", "teams=none", "--variant", "teams=pairs",
      "-n", "10", "--luck"], "variant teams=pairs: --luck is not exact under --param teams"),
    (["sweep", "marbles", "holes_per_side", "12", "18", "-n", "10", "--luck"],
     "variant holes_per_side=12: --luck is not exact under --param holes_per_side"),
    (["sweep", "anomia", "tie_prob", "0.1", "-n", "10", "--luck"],
     "variant tie_prob=0.1: --luck is not exact under --param tie_prob (its ledger serves the official "
     "rules, and cards_per_symbol"),
    (["sweep", "marbles", "decks", "1", "-p", "5", "-n", "10", "--luck"],
     "no fitted value for marbles with 5 players"),
])
def test_luck_where_the_ledger_cannot_serve_is_one_line_and_exit_2(args, message):
    proc = subprocess.run([sys.executable, "-m", "montecards", *args], capture_output=True, text=True)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_luck_refuses_a_user_strategy_in_matchups(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text("def choose(obs, legal, params, memory, rng):\n    return 0\n")
    with pytest.raises(mc.InputError, match="user strategy"):
        matchups("parade", ["greedy", f"{path}:choose"], players=2, n=10, seed=SEED, luck=True)


def test_cli_json_keys_of_seats_and_compare_with_luck():
    proc = subprocess.run([sys.executable, "-m", "montecards", "seats", "parade", "-p", "2", "-n", "400",
                           "--seed", "5", "-j", "1", "--luck", "--json"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)["players"]["2"]
    for key in LUCK_KEYS:
        assert len(out[key]) == 2, key
    proc = subprocess.run([sys.executable, "-m", "montecards", "compare", "parade", "-s", "greedy", "-s",
                           "random", "-n", "200", "--seed", "5", "-j", "1", "--luck"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "luck-adjusted win share of row strategy" in proc.stdout and "variance ratio" in proc.stdout


# --------------------------------------------------------------------------- luck --versus


def test_luck_versus_gives_the_weaker_share_and_the_stronger_adjusted_margin():
    res = mc.luck("parade", players=2, deals=300, replays=2, seed=SEED, jobs=1, versus=["random", "greedy"])
    v = res.versus
    assert (v["weaker"], v["stronger"]) == ("random", "greedy") and v["settled"]
    assert v["games"] == 600 and v["luck"] is True
    # the same matchup as compare's: its shares and intervals
    m = matchups("parade", ["random", "greedy"], players=2, n=300, seed=SEED, jobs=1, luck=True)
    row = m.table().set_index(["strategy", "opponent"]).loc[("random", "greedy")]
    assert (v["weaker_win_share"], v["weaker_win_share_low"], v["weaker_win_share_high"]) == pytest.approx(
        (row["win_share"], row["low"], row["high"]))
    assert v["weaker_win_share"] + v["stronger_win_share"] == pytest.approx(1.0)  # 2 players: one win a deal
    assert v["weaker_win_share_high"] < 0.5
    adj, lo, hi = (v[f"stronger_win_share_adjusted{s}"] for s in ("", "_low", "_high"))
    assert lo < adj < hi and lo < v["stronger_win_share_high"] and v["stronger_win_share_low"] < hi
    assert v["stronger_margin_adjusted"] == pytest.approx(adj - 0.5)
    assert v["stronger_margin_adjusted_low"] > 0 and v["variance_ratio"] > 0
    assert res.to_dict()["versus"] == v
    assert any("(the weaker) wins" in line for line in res.findings())
    assert any(line.startswith("Luck-adjusted, greedy wins") for line in res.findings())
    assert res.plot.weaker_wins().axes


def test_luck_versus_without_a_value_file_gives_the_raw_share_only():
    # Joker Marbles at 5 players (no value file there; every game has a value now): its kernels
    # compile in a fraction of Gift of Tulips' time (this test took 15 minutes of a loaded CI on
    # Tulips, almost all compiling)
    res = mc.luck("marbles", players=5, deals=60, replays=2, seed=SEED, jobs=1, versus=["greedy", "random"])
    v = res.versus
    assert v["luck"] is False and "stronger_win_share_adjusted" not in v
    assert {v["weaker"], v["stronger"]} == {"greedy", "random"}
    assert v["weaker_win_share_low"] <= v["weaker_win_share"] <= v["weaker_win_share_high"]
    assert "no fitted value for marbles with 5 players" in v["luck_refused"]
    assert any("cannot serve" in line and "no fitted value" in line for line in res.findings())
    assert res.plot.weaker_wins().axes
    with pytest.raises(ValueError, match="versus"):
        mc.luck("marbles", players=5, deals=10, replays=2, seed=SEED, jobs=1).plot.weaker_wins()


@pytest.mark.parametrize("versus, message", [
    ("greedy", "two different strategies"),
    ("greedy,greedy", "two different strategies"),
    ("greedy,nosuch", "nosuch"),
])
def test_luck_versus_bad_input_is_one_line_and_exit_2(versus, message):
    proc = subprocess.run([sys.executable, "-m", "montecards", "luck", "parade", "-p", "2", "-n", "10",
                           "--replays", "2", "--versus", versus], capture_output=True, text=True)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_luck_versus_cli_json_and_plot(tmp_path):
    plot = tmp_path / "weaker.png"
    proc = subprocess.run([sys.executable, "-m", "montecards", "luck", "parade", "-p", "2", "-n", "100",
                           "--replays", "2", "--seed", "6", "-j", "1", "--versus", "greedy,random", "--json",
                           "--plot", str(plot)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    v = json.loads(proc.stdout)["versus"]
    for key in ("weaker", "weaker_win_share", "weaker_win_share_low", "weaker_win_share_high",
                "stronger_win_share_adjusted", "stronger_margin_adjusted", "variance_ratio"):
        assert key in v, key
    assert plot.stat().st_size > 1000


# --------------------------------------------------------------------------- docs/luck.md


def _documented_luck_commands() -> list[str]:
    import re

    from tests.docs_examples import ROOT, fenced_blocks

    lines = [re.sub(r"\s+#.*$", "", line[2:]).strip()
             for lang, code in fenced_blocks((ROOT / "docs" / "luck.md").read_text()) if lang == "console"
             for line in code.splitlines() if line.startswith("$ montecards ")]
    return [line for line in lines if "--versus" in line or ("--luck" in line and " simulate " not in line)]


@pytest.mark.parametrize("line", _documented_luck_commands())
def test_the_documented_luck_commands_run(line, tmp_path):
    from tests.docs_examples import run_command, smaller_command

    args = smaller_command(line)
    if args[0] in ("luck", "sweep"):
        args = [("60" if prev == "-n" else a) for prev, a in zip([""] + args[:-1], args)]
        if args[0] == "luck":
            args += ["--replays", "2"]
    proc = run_command(args, tmp_path)
    refused = any(a.startswith("teams=") and a != "teams=none" for a in args)
    assert proc.returncode == (2 if refused else 0), proc.stderr


def test_tune_with_luck_judges_the_same_games_by_their_adjusted_result():
    """``tune(luck=True)``: the ledger plays the very games of the plain measurement (the plain
    shares are identical), and the held-out block reports the plain gain of those games beside
    the adjusted one, with the variance ratio."""
    from montecards import games
    from montecards.analysis.tune import HOLDOUT, _opponents, derived_seed, measure_candidates, resolve_tuned, tune

    spec = games.get("parade")
    tuned = resolve_tuned(spec, "weighted", None, None)
    opponents = _opponents(spec, 2, None)
    rows = [tuned.x0, tuned.x0 * 0.5]
    (plain,) = measure_candidates(spec, tuned, opponents, {}, 1, rows, 7, 300)
    with_luck = measure_candidates(spec, tuned, opponents, {}, 1, rows, 7, 300, luck=True)
    assert np.array_equal(with_luck[0], plain)
    assert not np.array_equal(with_luck[1], plain)
    res = tune("parade", "weighted", players=2, method="race", candidates=rows, budget=1200, deals=300,
               holdout=400, seed=5, jobs=1, luck=True, progress=False)
    h = res.holdout
    assert h["luck"] and h["variance_ratio"] > 0
    best = np.array(res.best)
    (held,) = measure_candidates(spec, tuned, opponents, res.params, 1, [best, tuned.x0],
                                 derived_seed(res.seed, HOLDOUT), 400)
    assert h["gain_plain"] == pytest.approx(float(np.mean(held[0] - held[1])), abs=1e-12)
    assert "luck-adjusted" in res.text() and "variance ratio of the gain" in res.text()


def test_tune_with_luck_refuses_a_player_count_without_a_value(capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["montecards", "tune", "parade", "-p", "6", "--luck", "--budget", "100"])
    with pytest.raises(SystemExit) as stop:
        main()
    err = capsys.readouterr().err
    assert stop.value.code == 2 and len(err.strip().splitlines()) == 1 and "value" in err, err

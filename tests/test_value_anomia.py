"""Anomia's value and luck ledger (docs/luck.md): the ledger adds up on every game (ties and
tiebreaks included), a run with luck plays the very games of the run without it, the luck terms
have mean 0, the value beats the score-only baseline, and bad input is refused in one line.

Cheap: one compile of Anomia's luck kernel (4 players), a few thousand games."""

from __future__ import annotations

import json

import numpy as np
import pytest

import montecards as mc
from montecards import games
from montecards.analysis.runs import prepare
from montecards.engine.spec import WIN_UNIT, InputError
from montecards.engine.value import ACC_DRIFT, ACC_LUCK, LUCK_UNIT, load_value, values_folder
from montecards.games.anomia import value as anomia_value
from tests.inprocess import run_main

SEED = 20261206


def _luck_rows(n: int, start: int = 0, params=None):
    """Rows and the ledgers' accumulators of ``n`` games of Anomia 4p with luck (``params``: the
    packed rule parameters, default the official ones)."""
    spec, config, _, _ = prepare("anomia", 4, None, None, SEED, luck=True)
    layout = spec.layout(4, luck=True)
    rows = np.zeros((n, layout.width), np.int64)
    ledgers = np.zeros((n, spec.value.ledger_width), np.float64)
    packed = config.params if params is None else params
    spec.value.luck_block(np.uint64(SEED), start, 4, packed, config.strategies, rows,
                          spec.kernel_options(config.strategies), config.luck, 0, ledgers)
    return spec, config, layout, rows, ledgers


def _check_adds_up(config, layout, rows, ledgers):
    win = rows[:, layout.seat_slice("win")] / WIN_UNIT
    vstart = config.luck[:4]
    luck = ledgers[:, ACC_LUCK:ACC_LUCK + 4]
    drift = ledgers[:, ACC_DRIFT:ACC_DRIFT + 4]
    # result - V(start) = luck + drift, per game and seat
    np.testing.assert_allclose(win - vstart, luck + drift, rtol=0, atol=1e-9)
    assert np.abs(luck).max() > 0.3  # the draws and face-offs do move V
    np.testing.assert_array_equal(rows[:, layout.seat_slice("luck")], np.round(luck * LUCK_UNIT))
    np.testing.assert_array_equal(rows[:, layout.seat_slice("adjusted")],
                                  rows[:, layout.seat_slice("win")] * (LUCK_UNIT // WIN_UNIT)
                                  - rows[:, layout.seat_slice("luck")])
    return luck


def test_the_ledger_adds_up_on_every_game():
    _, config, layout, rows, ledgers = _luck_rows(200)
    assert (rows[:, 1] == 0).all()  # every game finished
    _check_adds_up(config, layout, rows, ledgers)


def test_the_ledger_adds_up_with_ties_and_tiebreaks():
    # --luck refuses tie_prob > 0 (official rules only), but the kernel's hooks still serve it
    from montecards.games.anomia.game import pack_params

    packed = pack_params(4, games.get("anomia").resolve_params(4, {"tie_prob": 0.3}))
    _, config, layout, rows, ledgers = _luck_rows(100, params=packed)
    assert rows[:, 6].sum() > 100  # ties happened
    _check_adds_up(config, layout, rows, ledgers)


def test_luck_plays_the_same_games():
    _, _, _, rows, _ = _luck_rows(64, start=1000)
    plain = mc.simulate("anomia", n=1064, players=4, seed=SEED, keep_games=True, jobs=1)
    base = games.get("anomia").layout(4)
    theirs = plain.games.iloc[1000:]
    for k, name in enumerate(base.columns):
        np.testing.assert_allclose(theirs[name].to_numpy(),
                                   rows[:, k] / (WIN_UNIT if name.startswith("win_") else 1))


def test_simulate_with_luck_is_unbiased_and_reduces_variance():
    res = mc.simulate("anomia", n=3000, players=4, seed=SEED, luck=True, jobs=1, keep_games=True)
    out = res.to_dict()
    assert out["value"].endswith("4p-default-default-default-default.json")
    luck = res.games[[f"luck_{s}" for s in range(4)]].to_numpy()
    for seat in range(4):
        # the luck terms have mean 0: adjusted and plain means differ by mean(luck), within its noise
        assert abs(luck[:, seat].mean()) < 4 * luck[:, seat].std() / np.sqrt(len(luck))
        lo, hi = out["win_share_adjusted_low"][seat], out["win_share_adjusted_high"][seat]
        assert lo < out["win_share_adjusted"][seat] < hi
        plain_lo, plain_hi = out["win_share_ci95"][seat]
        assert lo < plain_hi and plain_lo < hi
        # Anomia has no decisions: nearly all of a result is luck (measured ~6 at 20,000 games)
        assert out["variance_ratio"][seat] > 3.0


def test_value_fit_beats_the_score_only_baseline():
    proc = run_main("value", "fit", "anomia", "-p", "4", "-n", "1500", "--seed", "5", "--dry-run", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["lineup"] == ["default"] * 4 and len(out["weights"]) == len(anomia_value.FEATURES)
    fit = out["fit"]
    assert fit["value"]["brier"] < fit["score_only"]["brier"] < fit["constant"]["brier"]
    for b in fit["value"]["bins"]:
        assert abs(b["predicted"] - b["observed"]) < 0.06  # calibrated, bin by bin


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_value_files_are_committed_and_valid(players):
    path = values_folder("montecards.games.anomia.game") / f"{players}p-{'-'.join(['default'] * players)}.json"
    data = load_value(path, "anomia", players, anomia_value.FEATURES)
    assert abs(sum(data["vstart"]) - 1) < 1e-9
    assert data["fit"]["value"]["brier"] < data["fit"]["score_only"]["brier"]


def test_a_value_file_of_another_game_is_refused():
    path = values_folder("montecards.games.parade.game") / "2p-greedy-greedy.json"
    with pytest.raises(InputError, match="is for 'parade', not anomia"):
        load_value(path, "anomia", 2, anomia_value.FEATURES)


@pytest.mark.parametrize("args, message", [
    (["simulate", "anomia", "-n", "10", "--luck", "--param", "tie_prob=0.1"], "not exact under --param tie_prob"),
    (["sweep", "anomia", "tie_prob", "0.1", "-n", "10", "--luck"], "--luck is not exact under --param tie_prob"),
    (["value", "fit", "anomia", "-p", "7"], "7"),
])
def test_bad_luck_input_is_one_line_and_exit_2(args, message):
    proc = run_main(*args)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_luck_serves_the_deck_and_skill_variants_and_refuses_ties():
    """``LEDGER_RULES``: under a changed deck, wild cards and skill model the ledger stays exact
    (every draw's expectation counts this game's own pile; the face-off's probability is the
    state's): ``--luck`` takes them, the luck has mean 0, and the variance still falls. A tie
    probability moves cards within the pile after a tiebreak: refused, in one line."""
    params = {"cards_per_symbol": "8,8,8,8,14,14,14,14", "wild_pairs": "none", "theta": "0.6,0,0,0"}
    res = mc.simulate("anomia", n=3000, players=4, seed=SEED, luck=True, jobs=1, keep_games=True, params=params)
    out = res.to_dict()
    luck = res.games[[f"luck_{s}" for s in range(4)]].to_numpy()
    for seat in range(4):
        assert abs(luck[:, seat].mean()) < 4 * luck[:, seat].std() / np.sqrt(len(luck))
        assert out["variance_ratio"][seat] > 2.0
    plain = mc.simulate("anomia", n=3000, players=4, seed=SEED, jobs=1, params=params).to_dict()
    assert plain["win_share"] == out["win_share"]  # the very games of the plain run
    with pytest.raises(InputError, match="tie_prob"):
        mc.simulate("anomia", n=10, players=4, seed=SEED, luck=True, params={"tie_prob": 0.1})
    proc = run_main("compare", "anomia", "-p", "4", "-n", "2000", "--seed", "3", "--luck", "--json",
                    "--variant", "cards_per_symbol=11,11,11,11,12,12,12,12",
                    "--variant", "cards_per_symbol=8,8,8,8,14,14,14,14")
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads(proc.stdout)["luck"]) == 2

"""Gift of Tulips' value and luck ledger (docs/luck.md): the ledger adds up on every game, a run
with luck plays the very games of the run without it, the luck terms have mean 0, the value
beats the score-only baseline, and bad input is refused in one line.

Cheap: one compile of Gift of Tulips' luck kernel (4 players, greedy), a few thousand games."""

from __future__ import annotations

import json

import numpy as np
import pytest

import montecards as mc
from montecards import games
from montecards.analysis.runs import prepare
from montecards.engine.spec import WIN_UNIT, InputError
from montecards.engine.value import ACC_DRIFT, ACC_LUCK, LUCK_UNIT, ledger_start, load_value, values_folder
from montecards.games.tulips import value as tulips_value
from tests.inprocess import run_main

SEED = 20261206
P = 4


def _luck_rows(n: int, start: int = 0):
    """Rows and the ledgers' accumulators of ``n`` games of Gift of Tulips 4p greedy with luck."""
    spec, config, _, _ = prepare("tulips", P, "greedy", None, SEED, luck=True)
    layout = spec.layout(P, luck=True)
    rows = np.zeros((n, layout.width), np.int64)
    ledgers = np.zeros((n, spec.value.ledger_width), np.float64)
    spec.value.luck_block(np.uint64(SEED), start, P, config.params, config.strategies, rows,
                          spec.kernel_options(config.strategies), config.luck, 0, ledgers)
    return spec, config, layout, rows, ledgers


def test_the_ledger_adds_up_on_every_game():
    spec, config, layout, rows, ledgers = _luck_rows(150)
    win = rows[:, layout.seat_slice("win")] / WIN_UNIT
    vstart = config.luck[:P]
    luck = ledgers[:, ACC_LUCK:ACC_LUCK + P]
    drift = ledgers[:, ACC_DRIFT:ACC_DRIFT + P]
    # result - V(start) = luck + drift, per game and seat
    np.testing.assert_allclose(win - vstart, luck + drift, rtol=0, atol=1e-9)
    assert np.abs(luck).max() > 0.05  # the chance events do move V
    # V is a softmax over the seats and the result a whole win: the seats' luck adds up to 0
    np.testing.assert_allclose(luck.sum(axis=1), 0, atol=1e-9)
    # the row columns: luck in LUCK_UNIT, adjusted = win - luck exactly
    np.testing.assert_array_equal(rows[:, layout.seat_slice("luck")], np.round(luck * LUCK_UNIT))
    np.testing.assert_array_equal(rows[:, layout.seat_slice("adjusted")],
                                  rows[:, layout.seat_slice("win")] * (LUCK_UNIT // WIN_UNIT)
                                  - rows[:, layout.seat_slice("luck")])


def test_luck_plays_the_same_games():
    _, _, _, rows, _ = _luck_rows(40, start=500)
    plain = mc.simulate("tulips", n=540, players=P, strategies="greedy", seed=SEED, keep_games=True, jobs=1)
    base = games.get("tulips").layout(P)
    theirs = plain.games.iloc[500:]
    for k, name in enumerate(base.columns):
        np.testing.assert_allclose(theirs[name].to_numpy(),
                                   rows[:, k] / (WIN_UNIT if name.startswith("win_") else 1))


def test_simulate_with_luck_is_unbiased_and_reduces_variance():
    res = mc.simulate("tulips", n=3000, players=P, strategies="greedy", seed=SEED, luck=True, jobs=1,
                      keep_games=True)
    out = res.to_dict()
    for key in ("win_share_adjusted", "win_share_adjusted_low", "win_share_adjusted_high", "variance_ratio"):
        assert len(out[key]) == P
    assert out["value"].endswith("4p-greedy-greedy-greedy-greedy.json")
    luck = res.games[[f"luck_{s}" for s in range(P)]].to_numpy()
    for seat in range(P):
        # the luck terms have mean 0: within four standard errors
        assert abs(luck[:, seat].mean()) < 4 * luck[:, seat].std() / np.sqrt(len(luck))
        lo, hi = out["win_share_adjusted_low"][seat], out["win_share_adjusted_high"][seat]
        plain_lo, plain_hi = out["win_share_ci95"][seat]
        assert lo < plain_hi and plain_lo < hi  # the two estimates of one quantity overlap
    assert out["variance_ratio"][0] > 1.0  # the target at 4 players


def test_tuned_and_random_lineups_take_luck():
    # tuned has its own value file at 4 players; random falls back to the greedy lineup's
    tuned = mc.simulate("tulips", n=200, players=P, strategies="tuned", seed=SEED, luck=True, jobs=1)
    assert tuned.to_dict()["value"].endswith("4p-tuned-tuned-tuned-tuned.json")
    mixed = mc.simulate("tulips", n=200, players=P, strategies=["random", "greedy", "greedy", "greedy"],
                        seed=SEED, luck=True, jobs=1, keep_games=True)
    assert mixed.to_dict()["value"].endswith("4p-greedy-greedy-greedy-greedy.json")
    np.testing.assert_allclose(mixed.games[[f"luck_{s}" for s in range(P)]].sum(axis=1), 0, atol=1e-3)


def test_value_fit_beats_the_score_only_baseline():
    proc = run_main("value", "fit", "tulips", "-p", "3", "-n", "400", "--seed", "3", "--dry-run", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["game"] == "tulips" and out["players"] == 3 and "file" not in out
    assert len(out["weights"]) == len(tulips_value.FEATURES)
    fit = out["fit"]
    assert sum(b["states"] for b in fit["value"]["bins"]) == fit["held_out_states"] * 3
    assert fit["value"]["brier"] < fit["score_only"]["brier"]
    assert fit["value"]["brier"] < fit["constant"]["brier"]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_common_player_count_has_a_value_file(players):
    path = values_folder("montecards.games.tulips.game") / f"{players}p-{'-'.join(['greedy'] * players)}.json"
    data = load_value(path, "tulips", players, tulips_value.FEATURES)
    assert abs(sum(data["vstart"]) - 1) < 1e-6
    assert data["fit"]["value"]["brier"] < data["fit"]["score_only"]["brier"]


def test_a_value_file_of_another_player_count_is_refused():
    path = values_folder("montecards.games.tulips.game") / "4p-greedy-greedy-greedy-greedy.json"
    with pytest.raises(InputError, match="for 4 players, not 3"):
        load_value(path, "tulips", 3, tulips_value.FEATURES)


@pytest.mark.parametrize("args, message", [
    (["simulate", "tulips", "-p", "7", "-n", "10", "--luck"], "players"),
])
def test_bad_luck_input_is_one_line_and_exit_2(args, message):
    proc = run_main(*args)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("lineup", ["greedy", "ismcts"])
def test_the_draws_expectation_by_kinds_is_the_mean_over_every_unseen_card(lineup):
    # ledger_before_draw weighs each (colour, value) kind of the pool by its count; the same
    # expectation taken card by card over the whole pool (the cards removed at setup included);
    # with ``ismcts`` V reads the drawn card unplayed (value.new_model), with ``greedy`` after
    # greedy's action
    from montecards.games.tulips import kernel, rules
    from montecards.rng import seed_stream

    _, config, _, _ = prepare("tulips", P, "greedy", None, SEED, luck=True)
    g, deck_rng, choice_rng = kernel.new_work()
    rules.init_tables(g, P, config.params)
    seed_stream(deck_rng, np.uint64(SEED), 3, kernel.DECK_STREAM)
    seed_stream(choice_rng, np.uint64(SEED), 3, kernel.CHOICE_STREAM)
    assert kernel.set_up(g, config.strategies, deck_rng, choice_rng, None, None, None) == kernel.ERR_NONE
    _, lucky, _, _ = prepare("tulips", P, lineup, None, SEED, luck=True)
    ledger = tulips_value.new_ledger(lucky.luck, lucky.strategies, lucky.params)
    reading = tulips_value.MODEL_UNPLAYED if lineup == "ismcts" else tulips_value.MODEL_GREEDY
    assert (ledger[8][:P] == reading).all()
    ledger_start(ledger, np.uint64(SEED), 3)
    acc, look = ledger[1], ledger[4]
    drawn, n = g[rules.DRAWN], g[rules.N_DECK]
    for first_class in (-1, rules.KEEP, rules.GIVE):  # a turn's first draw, and its second
        tulips_value.ledger_before_draw(g, 1, first_class, ledger)
        expect = acc[tulips_value.ACC_EXPECT:tulips_value.ACC_EXPECT + P].copy()
        out = np.zeros(6)
        brute = np.zeros(P)
        for j in range(drawn, n):
            tulips_value.pending(g, look, 1, g[rules.DECK + j], first_class, 1, ledger[8])
            tulips_value.look_values(look, ledger, out)
            brute += out[:P] / (n - drawn)
        np.testing.assert_allclose(expect, brute, rtol=0, atol=1e-12)
        assert abs(expect.sum() - 1) < 1e-12


def test_a_search_label_at_its_defaults_finds_the_value_fitted_on_the_bare_name(tmp_path):
    """``ismcts[1000]`` (shown as ``ismcts[1000,0.7,0]``) is ``ismcts`` at its defaults: a value
    fitted with ``-s ismcts`` serves it; other parameters fall back to greedy's value."""
    from montecards.engine.value import find_value, lineup_candidates

    defaults = {"ismcts": (1000.0, 0.7, 0.0), "tuned": (1.0, 2.0)}
    full = ["ismcts[1000,0.7,0]", "ismcts[1000,0.7,0]"]
    assert lineup_candidates(full, 2, defaults) == [full, ["ismcts", "ismcts"], ["greedy", "greedy"]]
    assert lineup_candidates(["ismcts[900,0.7,0]", "tuned"], 2, defaults) == [
        ["ismcts[900,0.7,0]", "tuned"], ["greedy", "greedy"]]
    (tmp_path / "2p-greedy-greedy.json").write_text("{}")
    assert find_value(tmp_path, "tulips", 2, full, defaults).name == "2p-greedy-greedy.json"
    (tmp_path / "2p-ismcts-ismcts.json").write_text("{}")
    assert find_value(tmp_path, "tulips", 2, full, defaults).name == "2p-ismcts-ismcts.json"
    res = mc.simulate("tulips", n=2, players=P, strategies="ismcts[1000]", seed=SEED, luck=True, jobs=1)
    assert res.to_dict()["value"].endswith("4p-ismcts-ismcts-ismcts-ismcts.json")

"""Joker Marbles' value and luck ledger (docs/luck.md): the ledger adds up on every game, a run
with luck plays the very games of the run without it, the luck terms have mean 0, the value
beats the score-only baseline, the draw's expectation by kinds is the mean over every card of
the draw pile, and bad input is refused in one line.

Cheap: one compile of Joker Marbles' luck kernel (4 players, greedy), about two thousand games."""

from __future__ import annotations

import json

import numpy as np
import pytest

import montecards as mc
from montecards import games
from montecards.analysis.runs import prepare
from montecards.engine.spec import WIN_UNIT, InputError
from montecards.engine.value import ACC_DRIFT, ACC_LUCK, LUCK_UNIT, ledger_start, load_value, values_folder
from montecards.games.marbles import value as marbles_value
from tests.inprocess import run_main

SEED = 20261206
P = 4


def _luck_rows(n: int, start: int = 0):
    """Rows and the ledgers' accumulators of ``n`` games of Joker Marbles 4p greedy with luck."""
    spec, config, _, _ = prepare("marbles", P, "greedy", None, SEED, luck=True)
    layout = spec.layout(P, luck=True)
    rows = np.zeros((n, layout.width), np.int64)
    ledgers = np.zeros((n, spec.value.ledger_width), np.float64)
    spec.value.luck_block(np.uint64(SEED), start, P, config.params, config.strategies, rows,
                          spec.kernel_options(config.strategies), config.luck, 0, ledgers)
    return spec, config, layout, rows, ledgers


def test_the_ledger_adds_up_on_every_game():
    spec, config, layout, rows, ledgers = _luck_rows(100)
    win = rows[:, layout.seat_slice("win")] / WIN_UNIT
    assert (rows[:, 1] == 0).all()  # every game finished (column unfinished)
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
    _, _, _, rows, _ = _luck_rows(30, start=500)
    plain = mc.simulate("marbles", n=530, players=P, strategies="greedy", seed=SEED, keep_games=True, jobs=1)
    base = games.get("marbles").layout(P)
    theirs = plain.games.iloc[500:]
    for k, name in enumerate(base.columns):
        np.testing.assert_allclose(theirs[name].to_numpy(),
                                   rows[:, k] / (WIN_UNIT if name.startswith("win_") else 1))


def test_simulate_with_luck_is_unbiased_and_reduces_variance():
    res = mc.simulate("marbles", n=1500, players=P, strategies="greedy", seed=SEED, luck=True, jobs=1,
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
    assert out["variance_ratio"][0] > 1.0


def test_tuned_and_random_lineups_take_luck():
    # tuned has its own value file at 4 players; random falls back to the greedy lineup's
    tuned = mc.simulate("marbles", n=100, players=P, strategies="tuned", seed=SEED, luck=True, jobs=1)
    assert tuned.to_dict()["value"].endswith("4p-tuned-tuned-tuned-tuned.json")
    mixed = mc.simulate("marbles", n=100, players=P, strategies=["random", "greedy", "greedy", "greedy"],
                        seed=SEED, luck=True, jobs=1, keep_games=True)
    assert mixed.to_dict()["value"].endswith("4p-greedy-greedy-greedy-greedy.json")
    np.testing.assert_allclose(mixed.games[[f"luck_{s}" for s in range(P)]].sum(axis=1), 0, atol=1e-3)


def test_value_fit_beats_the_score_only_baseline():
    proc = run_main("value", "fit", "marbles", "-p", "3", "-n", "1500", "--seed", "3", "--dry-run", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["game"] == "marbles" and out["players"] == 3 and "file" not in out
    assert len(out["weights"]) == len(marbles_value.FEATURES)
    fit = out["fit"]
    assert sum(b["states"] for b in fit["value"]["bins"]) == fit["held_out_states"] * 3
    assert fit["value"]["brier"] < fit["score_only"]["brier"]
    assert fit["value"]["brier"] < fit["constant"]["brier"]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_common_player_count_has_a_value_file(players):
    folder = values_folder("montecards.games.marbles.game")
    path = folder / f"{players}p-{'-'.join(['greedy'] * players)}.json"
    data = load_value(path, "marbles", players, marbles_value.FEATURES)
    assert abs(sum(data["vstart"]) - 1) < 1e-6
    assert data["fit"]["value"]["brier"] < data["fit"]["score_only"]["brier"]


def test_a_value_file_of_another_player_count_is_refused():
    path = values_folder("montecards.games.marbles.game") / "4p-greedy-greedy-greedy-greedy.json"
    with pytest.raises(InputError, match="for 4 players, not 3"):
        load_value(path, "marbles", 3, marbles_value.FEATURES)


@pytest.mark.parametrize("args, message", [
    (["simulate", "marbles", "-p", "4", "-n", "10", "--luck", "--param", "teams=pairs"], "not exact under --param teams"),
    (["simulate", "marbles", "-p", "5", "-n", "10", "--luck"], "no fitted value for marbles with 5 players"),
    (["simulate", "marbles", "-p", "7", "-n", "10", "--luck"], "players"),
])
def test_bad_luck_input_is_one_line_and_exit_2(args, message):
    proc = run_main(*args)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_the_draws_expectation_by_kinds_is_the_mean_over_every_card_of_the_pile():
    # ledger_before_draw weighs each (rank, place in the hand) kind of the draw pile by its
    # count; the same expectation taken card by card, each drawn as draw_card draws it
    from montecards.games.marbles import kernel, rules
    from montecards.rng import seed_stream

    _, config, _, _ = prepare("marbles", P, "greedy", None, SEED, luck=True)
    g, deck_rng, _, _, _, _ = kernel.new_work()
    params = config.params
    rules.set_up(g, P, *(np.int64(params[k]) for k in range(kernel.N_PARAMS)))
    seed_stream(deck_rng, np.uint64(SEED), 3, kernel.DECK_STREAM)
    rules.deal(g, P, deck_rng, True, None)
    ledger = marbles_value.new_ledger(config.luck, config.strategies, config.params)
    ledger_start(ledger, np.uint64(SEED), 3)
    acc, look = ledger[1], ledger[4]
    seat = 0
    checked = 0
    for turn in range(30):  # a board with marbles out: every seat plays greedy's moves
        if turn % 10 == 9:
            drawn, pile = g[rules.S_DRAWN], g[rules.S_PILE_N]
            marbles_value.ledger_before_draw(g, seat, ledger)
            expect = acc[marbles_value.ACC_EXPECT:marbles_value.ACC_EXPECT + P].copy()
            out = np.zeros(6)
            brute = np.zeros(P)
            for j in range(drawn, pile):
                marbles_value.copy_state(g, look)
                card = look[rules.pile_at(j)]
                look[rules.pile_at(j)] = look[rules.pile_at(drawn)]
                look[rules.pile_at(drawn)] = card
                look[rules.S_DRAWN] = drawn + 1
                rules.hand_insert(look, seat, card)
                marbles_value.model_play(look, seat)
                marbles_value.look_values(look, (seat + 1) % P, ledger, out)
                brute += out[:P] / (pile - drawn)
            np.testing.assert_allclose(expect, brute, rtol=0, atol=1e-12)
            assert abs(expect.sum() - 1) < 1e-12
            checked += 1
        card = rules.draw_card(g, deck_rng, True)
        rules.hand_insert(g, seat, card)
        marbles_value.model_play(g, seat)
        seat = (seat + 1) % P
    assert checked == 3
    assert sum(rules.at_home(g, s) for s in range(P)) < 5 * P  # marbles came out

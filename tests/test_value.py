"""The value and the luck ledger (docs/luck.md): the ledger adds up on every game, a run with
luck plays the very games of the run without it, the adjusted estimate is unbiased, value
files are checked, and bad input is refused in one line.

Cheap: one compile of Parade's luck kernel (2 players, greedy), a few hundred games."""

from __future__ import annotations

import json

import numpy as np
import pytest

import montecards as mc
from montecards import games
from montecards.analysis.runs import prepare
from montecards.engine.spec import WIN_UNIT, InputError
from montecards.engine.value import ACC_DRIFT, ACC_LUCK, LUCK_UNIT, VALUE_VERSION, load_value, save_value
from montecards.games.parade import value as parade_value
from tests.inprocess import run_main

SEED = 20261202


def _luck_rows(n: int, start: int = 0):
    """Rows and the ledgers' accumulators of ``n`` games of Parade 2p greedy with luck."""
    spec, config, _, _ = prepare("parade", 2, "greedy", None, SEED, luck=True)
    layout = spec.layout(2, luck=True)
    rows = np.zeros((n, layout.width), np.int64)
    ledgers = np.zeros((n, spec.value.ledger_width), np.float64)
    spec.value.luck_block(np.uint64(SEED), start, 2, config.params, config.strategies, rows,
                          spec.kernel_options(config.strategies), config.luck, 0, ledgers)
    return spec, config, layout, rows, ledgers


def test_the_ledger_adds_up_on_every_game():
    spec, config, layout, rows, ledgers = _luck_rows(200)
    win = rows[:, layout.seat_slice("win")] / WIN_UNIT
    vstart = config.luck[:2]
    luck = ledgers[:, ACC_LUCK:ACC_LUCK + 2]
    drift = ledgers[:, ACC_DRIFT:ACC_DRIFT + 2]
    # result - V(start) = luck + drift, per game and seat
    np.testing.assert_allclose(win - vstart, luck + drift, rtol=0, atol=1e-9)
    assert np.abs(luck).max() > 0.05  # the draws do move V
    # the row columns: luck in LUCK_UNIT, adjusted = win - luck exactly
    np.testing.assert_array_equal(rows[:, layout.seat_slice("luck")], np.round(luck * LUCK_UNIT))
    np.testing.assert_array_equal(rows[:, layout.seat_slice("adjusted")],
                                  rows[:, layout.seat_slice("win")] * (LUCK_UNIT // WIN_UNIT)
                                  - rows[:, layout.seat_slice("luck")])


def test_luck_plays_the_same_games():
    _, config, layout, rows, _ = _luck_rows(64, start=1000)
    plain = mc.simulate("parade", n=1064, players=2, strategies="greedy", seed=SEED, keep_games=True, jobs=1)
    base = games.get("parade").layout(2)
    theirs = plain.games.iloc[1000:]
    for k, name in enumerate(base.columns):
        np.testing.assert_allclose(theirs[name].to_numpy(),
                                   rows[:, k] / (WIN_UNIT if name.startswith("win_") else 1))


def test_simulate_with_luck_is_unbiased_and_reports_its_keys():
    res = mc.simulate("parade", n=3000, players=2, strategies="greedy", seed=SEED, luck=True, jobs=1,
                      keep_games=True)
    out = res.to_dict()
    for key in ("win_share_adjusted", "win_share_adjusted_low", "win_share_adjusted_high", "variance_ratio"):
        assert len(out[key]) == 2
    assert out["value"].endswith("2p-greedy-greedy.json")
    # the luck terms have mean 0: adjusted and plain means differ by mean(luck), within its noise
    luck = res.games[["luck_0", "luck_1"]].to_numpy()
    assert abs(luck[:, 0].mean()) < 4 * luck[:, 0].std() / np.sqrt(len(luck))
    np.testing.assert_allclose(res.games["adjusted_0"], res.games["win_0"] - res.games["luck_0"], atol=1e-12)
    for seat in range(2):
        lo, hi = out["win_share_adjusted_low"][seat], out["win_share_adjusted_high"][seat]
        assert lo < out["win_share_adjusted"][seat] < hi
        # the two estimates of one quantity overlap
        plain_lo, plain_hi = out["win_share_ci95"][seat]
        assert lo < plain_hi and plain_lo < hi
    assert out["variance_ratio"][0] > 1.0
    assert "mean_luck" in res.summary().columns and "mean_adjusted" in res.summary().columns


def test_value_files_are_checked(tmp_path):
    features = parade_value.FEATURES
    path = tmp_path / "v.json"
    save_value(path, "parade", 2, ["greedy", "greedy"], features, [0.0] * len(features), [0.5, 0.5], {})
    assert load_value(path, "parade", 2, features)["version"] == VALUE_VERSION
    with pytest.raises(InputError, match="for 2 players, not 3"):
        load_value(path, "parade", 3, features)
    with pytest.raises(InputError, match="is for 'parade', not tulips"):
        load_value(path, "tulips", 2, features)
    with pytest.raises(InputError, match="other features"):
        load_value(path, "parade", 2, features[:-1])
    data = json.loads(path.read_text())
    data["version"] = VALUE_VERSION + 1
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match="refit it"):
        load_value(path, "parade", 2, features)


@pytest.mark.parametrize("args, message", [
    (["simulate", "marbles", "-p", "5", "-n", "10", "--luck"], "no fitted value for marbles with 5 players"),
    (["simulate", "parade", "-p", "5", "-n", "10", "--luck"], "no fitted value for parade with 5 players"),
    (["tournament", "parade", "--luck"], "No such option '--luck'"),
    (["simulate", "marbles", "-p", "4", "-n", "10", "--luck", "--param", "marbles=4"],
     "--luck is not exact under --param marbles"),
])
def test_bad_luck_input_is_one_line_and_exit_2(args, message):
    proc = run_main(*args)  # in this process (a real one: tests/test_deal_share.py's bad input)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [
    ["simulate", "marbles", "-n", "10", "--luck"],
    ["value", "fit", "marbles"],
])
def test_a_game_without_a_value_is_refused_in_one_line(monkeypatch, args):
    # every game has a value now: the refusal's path, on Joker Marbles with its value taken away
    import dataclasses

    import montecards.games.marbles as marbles

    monkeypatch.setattr(marbles, "SPEC", dataclasses.replace(marbles.SPEC, value=None))  # games.get's
    proc = run_main(*args)
    assert proc.returncode == 2, proc.stderr
    assert "marbles has no value yet" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_luck_refuses_a_user_strategy():
    def choose(obs, legal, params, memory, rng):
        return 0

    with pytest.raises(InputError, match="user strategy"):
        mc.simulate("parade", n=5, players=2, strategies=[choose, "greedy"], seed=1, luck=True)


def test_value_fit_reports_calibration_against_the_score_only_baseline():
    args = ["value", "fit", "parade", "-p", "2", "-s", "greedy", "-n", "300", "--seed", "3",
            "--dry-run", "--json"]
    proc = run_main(*args)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["game"] == "parade" and out["players"] == 2 and out["lineup"] == ["greedy", "greedy"]
    assert "file" not in out  # --dry-run writes nothing
    assert len(out["weights"]) == len(parade_value.FEATURES)
    fit = out["fit"]
    assert fit["games"] == 300 and 0 < fit["held_out_states"] < fit["states"]
    for model in ("value", "score_only"):
        bins = fit[model]["bins"]
        assert sum(b["states"] for b in bins) == fit["held_out_states"] * 2  # every (state, seat)
        assert all(0 <= b["predicted"] <= 1 and 0 <= b["observed"] <= 1 for b in bins)
        assert 0 < fit[model]["brier"] < 0.25 + 0.05


def test_luck_shares_for_the_luck_command():
    from montecards.analysis.ledger import luck_shares

    out = luck_shares("parade", 2, "greedy", n=400, seed=SEED, jobs=1)
    res = mc.simulate("parade", n=400, players=2, strategies="greedy", seed=SEED, luck=True, jobs=1)
    for name in ("luck_share", "drift_share"):
        assert out[f"{name}_low"] <= out[name] <= out[f"{name}_high"]
    # 2 players: the seats mirror each other, so the pooled drift share is 1 / the first seat's ratio
    assert out["drift_share"] == pytest.approx(1 / res.to_dict()["variance_ratio"][0], rel=1e-3)
    assert out["luck_share"] + out["drift_share"] + out["covariance_share"] == pytest.approx(1, abs=1e-9)
    assert out["error_per_decision"] == {"greedy": None}  # decision quality: not measured yet


def test_luck_refuses_the_rules_its_ledger_does_not_serve():
    # Joker Marbles' V reads the official board: another side length is refused, in one line
    with pytest.raises(mc.InputError, match="not exact under --param holes_per_side .*official rules, and decks"):
        mc.simulate("marbles", n=10, players=4, strategies="greedy", seed=SEED, luck=True,
                    params={"holes_per_side": 12})


def test_the_luck_command_adds_the_ledger_shares_where_a_value_exists():
    res = mc.luck("parade", players=2, deals=60, replays=2, seed=SEED, jobs=1)
    out = res.to_dict()
    for name in ("deal_share", "luck_share", "drift_share"):
        assert out[f"{name}_low"] <= out[name] <= out[f"{name}_high"], name
    assert "error_per_decision" not in out  # not measured yet: absent, never a made-up number
    assert any(line.startswith("Luck share") for line in res.findings())
    three = mc.luck("parade", players=3, deals=30, replays=2, seed=SEED, jobs=1).to_dict()
    assert "luck_share" not in three and "drift_share" not in three  # no value fitted at 3 players


def _draw_bringing(card_offset: int, pool: int):
    """A fresh random stream whose next lazy draw from ``pool`` cards takes offset ``card_offset``
    (searched over seeds: the rules' own ``finish_turn`` then makes the draw)."""
    from montecards.rng import bounded, new_state, seed_stream

    for k in range(100_000):
        stream = new_state()
        seed_stream(stream, np.uint64(777), k, 0)
        probe = stream.copy()
        if bounded(probe, pool) == card_offset:
            return stream
    raise AssertionError("no stream found")


@pytest.mark.parametrize("lineup", ["greedy", "tuned"])
def test_a_draws_expectation_is_over_the_states_the_game_reaches(lineup):
    """E[V(after a draw) | before], as the ledger takes it, is the mean of V over the states the
    rules' own lazy draw reaches, one per card of the pile. V reads the pile where the end is
    in sight (``end_in_sight``): a copy that only overwrote the top of the pile held the drawn
    card twice and lost the top card (a small bias, fixed: docs/luck.md)."""
    from montecards.engine.value import ACC_EXPECT
    from montecards.games.parade import rules
    from montecards.games.parade.cards import N_CARDS
    from montecards.games.parade.strategies import greedy_play, new_takings
    from montecards.rng import new_state, seed_stream

    no_trace = np.zeros((0, 4), np.int64)
    _, config, _, _ = prepare("parade", 2, lineup, None, SEED, luck=True)
    ledger = parade_value.new_ledger(config.luck, config.strategies, config.params)
    checked = reads_pile = 0
    for index in range(8):
        g = rules.new_state()
        deck = new_state()
        seed_stream(deck, np.uint64(SEED), index, 0)
        rules.set_up(g, 2, 2, deck, True, no_trace)
        seat, done = 0, False
        while not done:
            rules.play_card(g, seat, greedy_play(g, seat, new_takings()), no_trace)
            drawn = rules.n_drawn(g)
            pool = N_CARDS - drawn
            if rules.last_round_left(g) < 0:
                parade_value.ledger_before_draw(g, seat, ledger)
                expect = ledger[1][ACC_EXPECT:ACC_EXPECT + 2].copy()
                mean, old = np.zeros(2), np.zeros(2)
                out = np.zeros(8)
                for j in range(pool):
                    h = g.copy()
                    rules.finish_turn(h, seat, _draw_bringing(j, pool), True, no_trace)
                    assert h[rules.HAND_N + seat] == g[rules.HAND_N + seat] + 1
                    parade_value.values(h, ledger, out)
                    mean += out[:2] / pool
                    h = g.copy()  # the old copy: the top of the pile overwritten, nothing swapped
                    h[rules.DECK + drawn] = g[rules.DECK + drawn + j]
                    rules.finish_turn(h, seat, deck.copy(), False, no_trace)
                    parade_value.values(h, ledger, out)
                    old += out[:2] / pool
                np.testing.assert_allclose(expect, mean, rtol=0, atol=1e-12)
                checked += 1
                reads_pile += not np.allclose(old, mean, rtol=0, atol=1e-12)
            done = rules.finish_turn(g, seat, deck, True, no_trace)
            seat = rules.next_seat(seat, 2)
    assert checked > 100
    assert reads_pile > 0  # the states where the old copy was wrong were among them

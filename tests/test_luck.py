"""The deal option (replayed and duplicate deals, ``engine.options``) and ``analysis.luck``'s
estimator (docs/luck.md). Small: a few traced games per game, a synthetic estimator check."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from montecards.analysis.luck import bootstrap_share, spread, variance_components
from montecards.errors import InputError

# --------------------------------------------------------------------------- traces per game


def parade_trace(seed, index, players, deal):
    from montecards.games.parade import game

    buffer = game._new_trace()
    game.SPEC.play_traced(seed, index, players, None, "greedy", buffer, deal=deal)
    events = game._trace_frame(buffer)
    dealt = events[events.turn == -1]
    hands = [set(dealt[(dealt.event == "deal") & (dealt.seat == s)].card) for s in range(players)]
    plays = events[events.event == "play"]
    first_plays = [plays[plays.seat == s].card.iloc[0] for s in range(players)]
    draws = list(events[events.event == "draw"].card)
    return [tuple(r) for r in dealt.itertuples(index=False)], hands, first_plays, draws


TRACES = {"parade": parade_trace}
"""Per game: ``(deal events, the hands dealt per seat, each seat's first play, later draws)`` of
a traced greedy game played with a deal option."""


@pytest.mark.parametrize("game", sorted(TRACES))
def test_a_replay_keeps_the_deal_and_draws_the_rest_anew(game):
    traced = TRACES[game]
    players = 3
    changed = 0
    for index in range(4):
        plain = traced(11, index, players, None)
        first = traced(11, index, players, (0, 0))
        second = traced(11, index, players, (1, 0))
        assert first[0] == second[0] == plain[0]  # the deal: the same events
        assert traced(11, index, players, (1, 0)) == second  # a replay is a pure function of k
        assert traced(11, index, players, (-1, 0)) == plain  # no replay, no rotation: the game itself
        changed += first[3] != second[3]
    assert changed == 4  # the later draws differ in every game


@pytest.mark.parametrize("game", sorted(TRACES))
def test_duplicate_deals_rotate_the_hands(game):
    traced = TRACES[game]
    players = 3
    for index in range(3):
        plain = traced(5, index, players, None)
        for r in range(players):
            deal, hands, first_plays, draws = traced(5, index, players, (-1, r))
            assert deal == plain[0] and hands == plain[1]  # the same deck dealt the same way
            for seat in range(players):  # seat s plays from the hand dealt to seat s - r
                assert first_plays[seat] in hands[(seat - r) % players]


def test_a_rotation_or_replay_outside_the_range_is_refused():
    from montecards.games import get

    spec = get("parade")
    for deal in [(0, 3), (-2, 0), (0,), "x"]:
        with pytest.raises(InputError, match="deal"):
            spec.check_deal(deal, 3)


# --------------------------------------------------------------------------- the estimator


def synthetic(rng, deals, replays, a=2.0, b=3.0):
    """Whole-win outcomes whose deal decides a known share: the deal's win chance p ~ Beta(a, b),
    each replay won with chance p. Share = Var(p) / (Var(p) + E[p (1 - p)])."""
    p = rng.beta(a, b, size=deals)
    y = (rng.random((deals, replays)) < p[:, None]).astype(float)
    mean = a / (a + b)
    var = a * b / ((a + b) ** 2 * (a + b + 1))
    truth = var / (mean * (1 - mean))  # Var(p) + E[p(1-p)] = mean (1 - mean)
    return y, truth


def test_the_variance_split_recovers_a_known_share_and_its_interval_covers_it():
    rng = np.random.default_rng(3)
    big, truth = synthetic(rng, 40_000, 8)
    assert variance_components(big)["share"] == pytest.approx(truth, abs=0.01)
    covered = 0
    repeats = 120
    for r in range(repeats):
        y, _ = synthetic(rng, 300, 4)
        low, high = bootstrap_share(y, resamples=300, seed=r)
        covered += low <= truth <= high
    assert 0.88 <= covered / repeats <= 0.99


def test_no_deal_effect_is_clipped_at_zero_and_said_so():
    rng = np.random.default_rng(1)
    hits = [variance_components((rng.random((200, 4)) < 0.5).astype(float)) for _ in range(20)]
    assert any(h["clipped"] for h in hits)
    assert all(h["share"] >= 0 and (h["between"] == 0) == h["clipped"] for h in hits)


def test_the_spread_of_per_deal_rates():
    s = spread(np.array([0.0, 0.25, 0.5, 0.5, 1.0]), 4)
    assert s["span"] == 1.0
    assert s["entropy"] == pytest.approx(-(3 * 0.2 * np.log2(0.2) + 0.4 * np.log2(0.4)))
    assert spread(np.full(10, 0.5), 4)["entropy"] == 0.0


# --------------------------------------------------------------------------- the command


@pytest.mark.parametrize("args", [
    ["parade", "--replays", "1"],
    ["parade", "-n", "1"],
    ["nosuch"],
    ["parade", "-p", "9"],
    ["parade", "-s", "nosuch"],
])
def test_bad_input_is_one_line_and_exit_2(args):
    done = subprocess.run([sys.executable, "-m", "montecards", "luck", *args], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith("error:")


def test_luck_json_keys():
    import json

    done = subprocess.run([sys.executable, "-m", "montecards", "luck", "parade", "-n", "60", "--replays", "3",
                           "--seed", "4", "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["deals"] == 60 and out["replays"] == 3 and out["n_games"] == 180
    assert 0 <= out["deal_share_low"] <= out["deal_share"] <= 1
    assert out["deal_share_low"] <= out["deal_share_high"]
    assert "luck_share" not in out and "drift_share" not in out  # no value function: not computed

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
# Per game: ``traced(seed, index, players, deal)`` -> ``(deal, later, from_rotated_hand)``: the
# deal's events, what came later (draws, face-offs, waiting times), and whether every seat's
# first use of a card came from the hand dealt to seat ``s - r`` (``r`` the deal's rotation).


def parade_trace(seed, index, players, deal):
    from montecards.games.parade import game

    events, _ = game.trace(seed, index, players, None, "greedy", deal=deal)
    r = 0 if deal is None else deal[1]
    dealt = events[events.turn == -1]
    hands = [set(dealt[(dealt.event == "deal") & (dealt.seat == s)].card) for s in range(players)]
    plays = events[events.event == "play"]
    ok = all(plays[plays.seat == s].card.iloc[0] in hands[(s - r) % players] for s in range(players))
    return [tuple(x) for x in dealt.itertuples(index=False)], list(events[events.event == "draw"].card), ok


def tulips_trace(seed, index, players, deal):
    from montecards.games.tulips import game

    events, _ = game.trace(seed, index, players, None, "greedy", deal=deal)
    r = 0 if deal is None else deal[1]
    dealt = events[events.event.isin(["opening_festival", "ranking", "deal"]) & (events.turn == 0)]  # setup
    hands = [set(dealt[(dealt.event == "deal") & (dealt.seat == s)].card) for s in range(players)]
    kept = events[events.event == "setup_bouquet"]
    ok = all(kept[kept.seat == s].card.iloc[0] in hands[(s - r) % players] for s in range(players))
    deal_events = list(zip(dealt.event, dealt.seat, dealt.card, strict=True))
    return deal_events, list(events[events.event == "draw"].card), ok


def marbles_trace(seed, index, players, deal):
    from montecards.games.marbles import game

    events, _ = game.trace(seed, index, players, None, "greedy", deal=deal)
    r = 0 if deal is None else deal[1]
    dealt = events[events.event == "deal"]
    hands = [set(dealt[dealt.seat == s].card_id) for s in range(players)]
    draws = events[events.event == "draw"]
    used = events[events.event.isin(["play", "discard"])]
    # a seat draws, then plays or discards: its first card is from its hand or that draw
    ok = all(used[used.seat == s].card_id.iloc[0]
             in hands[(s - r) % players] | {draws[draws.seat == s].card_id.iloc[0]} for s in range(players))
    return list(zip(dealt.seat, dealt.card_id, strict=True)), list(draws.card_id), ok


def wigout_trace(seed, index, players, deal):
    from montecards.games.wigout import game

    events, _ = game.trace(seed, index, players, None, "greedy", deal=deal)
    r = 0 if deal is None else deal[1]
    first = events.iloc[0]
    head, deck = first.detail.split("deck: ")
    hand = int(first.hand)
    deck = deck.split()[: players * hand + 2]  # the round's hands, dealt in blocks, then the starters
    hands = [set(int(c) for c in deck[s * hand : (s + 1) * hand]) for s in range(players)]
    round_one = events[events["round"] == 0]
    ok = True
    for s in range(players):
        mine = round_one[(round_one.seat == s) & round_one.event.isin(["start", "add", "draw"])]
        if len(mine) and mine.event.iloc[0] != "draw":  # its first action, before any draw of its own
            ok &= int(mine.character.iloc[0]) in hands[(s - r) % players]
    return (head, deck), list(events.wait), ok


def anomia_trace(seed, index, players, deal):
    from montecards.games.anomia import game

    events, _ = game.trace(seed, index, players, None, None, deal=deal)
    r = 0 if deal is None else deal[1]
    deck = list(events[events.event == "deck"].card_id)
    face_offs = events[events.event.isin(["face_off", "tiebreak"])]
    first_draw = events[events.event == "draw"].seat.iloc[0]
    return deck, list(zip(face_offs.event, face_offs.seat, face_offs.other, strict=True)), first_draw == r


TRACES = {"parade": parade_trace, "tulips": tulips_trace, "marbles": marbles_trace, "wigout": wigout_trace,
          "anomia": anomia_trace}


@pytest.mark.parametrize("game", sorted(TRACES))
def test_a_replay_keeps_the_deal_and_draws_the_rest_anew(game):
    traced = TRACES[game]
    players = 3 if game != "anomia" else 4
    changed = 0
    for index in range(4):
        plain = traced(11, index, players, None)
        first = traced(11, index, players, (0, 0))
        second = traced(11, index, players, (1, 0))
        assert first[0] == second[0] == plain[0]  # the deal: the same events
        assert traced(11, index, players, (1, 0)) == second  # a replay is a pure function of k
        assert traced(11, index, players, (-1, 0)) == plain  # no replay, no rotation: the game itself
        changed += first[1] != second[1]
    assert changed >= 3  # what comes later is drawn anew


@pytest.mark.parametrize("game", sorted(TRACES))
def test_duplicate_deals_rotate_the_hands(game):
    traced = TRACES[game]
    players = 3 if game != "anomia" else 4
    for index in range(3):
        plain = traced(5, index, players, None)
        assert plain[2]
        for r in range(1, players):
            deal, later, from_rotated_hand = traced(5, index, players, (-1, r))
            assert deal == plain[0]  # the same deck dealt the same way
            assert from_rotated_hand  # seat s plays from the hand dealt to seat s - r


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

    done = subprocess.run([sys.executable, "-m", "montecards", "luck", "parade", "-p", "3", "-n", "60",
                           "--replays", "3", "--seed", "4", "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["deals"] == 60 and out["replays"] == 3 and out["n_games"] == 180
    assert 0 <= out["deal_share_low"] <= out["deal_share"] <= 1
    assert out["deal_share_low"] <= out["deal_share_high"]
    # no value fitted for Parade at 3 players: not computed, not written (2 players: tests/test_value.py)
    assert "luck_share" not in out and "drift_share" not in out


# --------------------------------------------------------------------------- analyses and plots


def test_luck_result_and_its_figures():
    import montecards as mc
    from montecards.plots import deal_shares

    # 3 players: no value fitted, so only the deal kernel test_luck_json_keys compiles too (the
    # luck kernel's shares at 2 players: tests/test_value.py)
    res = mc.luck("parade", players=3, deals=40, replays=3, seed=2, jobs=1)
    assert res.outcomes.shape == (40, 3, 3) and res.n_games == 120
    assert np.allclose(res.outcomes.sum(axis=2), 1.0)  # one win (or its shares) per game
    assert res.to_dict()["deal_share"] == res.deal_share
    assert res.plot.deal_rates().axes and deal_shares([res, res]).axes


def test_duplicate_seat_advantage_plays_every_deal_in_every_rotation():
    from montecards.analysis import seat_advantage

    sa = seat_advantage("parade", players=2, n=101, strategy="greedy", seed=3, duplicate=True,
                        keep_games=True)
    res = sa.results[2]
    assert res.n_games == 102 and res.extra["duplicate"] == {"deals": 51, "rotations": 2}
    games = res.games
    # rotation 1 deals the same deck with the two hands swapped: over a deal's two rotations each
    # seat's wins come from both hands; the shares are the mean over deals, as the interval
    per_deal = (games.win_0.to_numpy()[:51] + games.win_0.to_numpy()[51:]) / 2
    low, high = res.win_share_ci95[0]
    assert res.win_share[0] == pytest.approx(per_deal.mean())
    assert low < per_deal.mean() < high and sa.to_dict()["players"]["2"]["duplicate"]["deals"] == 51
    with pytest.raises(InputError, match="precision"):
        seat_advantage("parade", players=2, precision=0.01, duplicate=True)

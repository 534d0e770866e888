"""Parade's ``weighted`` and ``tuned`` built-ins (strategies.weighted_play / weighted_discard,
docs/strategies/parade.md "weighted and tuned: the features").

* the kernel's choices are the argmax of the weighted features, read here independently in
  plain Python from each logged observation (``parade.decisions``), under random weights; a
  mutated reading of one feature fails that check;
* the default weights play exactly ``greedy`` (the same rows for the same seed), and ``tuned``
  is ``weighted`` with ``TUNED_WEIGHTS``;
* every feature's weight changes play; bad weights are refused (``InputError``; exit 2 on the
  command line), good ones accepted in the name and as strategy params;
* the interface twin ``montecards/strategies/parade_weighted.py`` plays the built-in's games.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import montecards as mc
from montecards.engine.weights import WeightedSeat
from montecards.errors import InputError
from montecards.games import parade
from montecards.games.parade import strategies, view
from montecards.games.parade.game import SPEC
from tests.inprocess import run_main

ROOT = Path(__file__).resolve().parent.parent
TWIN = str(ROOT / "montecards" / "strategies" / "parade_weighted.py") + ":choose"
SEED = 20261202
N_COLOURS = 6
FEATURES = strategies.FEATURES


def random_weights(rng) -> tuple[float, ...]:
    return tuple(float(rng.uniform(lo, hi)) for lo, hi in strategies.WEIGHT_BOUNDS)


def label(weights) -> str:
    return WeightedSeat("weighted", tuple(weights)).label


# --- an independent reading of the features, from the rules page and the observation --------


def colour(card: int) -> int:
    return card // 11


def value(card: int) -> int:
    return card % 11


class Table:
    """What a deciding seat sees, as plain lists: collections per seat and colour, the parade."""

    def __init__(self, obs):
        self.seat = int(obs[view.OBS_SEAT])
        self.players = int(obs[view.OBS_PLAYERS])
        self.margin = int(obs[view.OBS_MARGIN])
        self.draw_pile = int(obs[view.OBS_DRAW_PILE])
        self.last_round = int(obs[view.OBS_LAST_ROUND]) >= 0
        self.hand = [int(obs[view.OBS_HAND + k]) for k in range(int(obs[view.OBS_HAND_N]))]
        self.parade = [int(obs[view.OBS_PARADE + i]) for i in range(int(obs[view.OBS_PARADE_N]))]
        self.counts = [[int(view.obs_collection_count(obs, s, c)) for c in range(N_COLOURS)]
                       for s in range(self.players)]
        self.sums = [[int(view.obs_collection_sum(obs, s, c)) for c in range(N_COLOURS)]
                     for s in range(self.players)]

    def adding(self, cards):
        """(counts, sums) with ``cards`` added to the deciding seat's collection."""
        counts = [list(row) for row in self.counts]
        sums = [list(row) for row in self.sums]
        for card in cards:
            counts[self.seat][colour(card)] += 1
            sums[self.seat][colour(card)] += value(card)
        return counts, sums

    def majority(self, counts, seat, c) -> bool:
        best_other = max(counts[o][c] for o in range(self.players) if o != seat)
        return counts[seat][c] >= 1 and counts[seat][c] - best_other >= self.margin

    def score(self, counts, sums, seat) -> int:
        return sum(counts[seat][c] if self.majority(counts, seat, c) else sums[seat][c]
                   for c in range(N_COLOURS))

    def rival(self, counts, sums, mutation=None) -> int:
        others = [self.score(counts, sums, o) for o in range(self.players) if o != self.seat]
        return sum(others) if mutation == "rival_sum" else min(others)

    def rival_holds(self, counts, c) -> bool:
        return any(self.majority(counts, o, c) for o in range(self.players) if o != self.seat)


def removal(parade, played):
    """(cards taken, parade left) when ``played`` is played on ``parade`` (rules: A turn)."""
    n, v = len(parade), value(played)
    taken = [p for i, p in enumerate(parade) if i < n - v and (colour(p) == colour(played) or value(p) <= v)]
    left = [p for p in parade if p not in taken] + [played]
    return taken, left


def play_features(t: Table, card: int, mutation=None) -> list[float]:
    taken, left = removal(t.parade, card)
    now = t.score(t.counts, t.sums, t.seat)
    counts, sums = t.adding(taken)
    after = t.score(counts, sums, t.seat)
    if mutation == "started_any":
        started = len({colour(p) for p in taken})
    else:
        started = len({colour(p) for p in taken if t.counts[t.seat][colour(p)] == 0})
    gained = sum(t.majority(counts, t.seat, c) and not t.majority(t.counts, t.seat, c) for c in range(N_COLOURS))
    broken = sum(t.rival_holds(t.counts, c) and not t.rival_holds(counts, c) for c in range(N_COLOURS))
    rival_change = t.rival(counts, sums, mutation) - t.rival(t.counts, t.sums, mutation)
    six = not t.last_round and all(counts[t.seat][c] >= 1 for c in range(N_COLOURS))
    lead = t.rival(counts, sums) - after if six else 0
    early = t.draw_pile / (66 - 5 * t.players - 6)
    rest = [h for h in t.hand if h != card]
    next_change = last_change = 0
    if not t.last_round:
        board = t.parade if mutation == "next_on_old_parade" else left
        scores = [t.score(*t.adding(taken + removal(board, h)[0]), t.seat) for h in rest]
        next_change = min(scores) - after
    else:
        keepable = t.hand if mutation == "keep_played_card" else rest
        pairs = [(a, b) for i, a in enumerate(keepable) for b in keepable[i + 1:]]
        last_change = min(t.score(*t.adding(taken + [a, b]), t.seat) for a, b in pairs) - after
    return [after - now, len(taken), sum(value(p) for p in taken), started, gained, broken,
            rival_change, value(card), lead, len(taken) * early, (after - now) * early,
            next_change, last_change]


def discard_features(t: Table, kept) -> list[float]:
    counts, sums = t.adding(kept)
    return [t.score(counts, sums, t.seat) - t.score(t.counts, t.sums, t.seat),
            t.rival(counts, sums) - t.rival(t.counts, t.sums)]


def expected_choices(d, weights, mutation=None) -> set[int]:
    """The indices into ``d.legal`` a weighted seat may choose: the highest weighted sum, and
    among equal sums the tie-break (near-equal sums, 1e-9 apart, are all allowed: the kernel
    adds the terms in a fixed order, this reading with numpy)."""
    t = Table(d.obs)
    w = np.array(weights)
    if view.obs_kind(d.obs) == view.DECISION_PLAY:
        cards = [view.move_card(m) for m in d.legal]
        features = np.array([play_features(t, c, mutation) for c in cards], float)
        totals = features @ w[: strategies.PLAY_FEATURES]
        order = [(-value(c), c) for c in cards]  # greedy's tie-break: highest value, lowest id
    else:
        kept = [sorted(set(t.hand) - {view.discard_low(m), view.discard_high(m)}) for m in d.legal]
        features = np.array([discard_features(t, k) for k in kept], float)
        totals = features @ w[strategies.PLAY_FEATURES:]
        order = [tuple(k) for k in kept]  # keep the pair with the lowest ids
    best = totals.max()
    near = [i for i in range(len(totals)) if totals[i] >= best - 1e-9 * max(1.0, abs(best))]
    exact = [i for i in near if np.array_equal(features[i], features[near[0]])]
    if len(exact) == len(near):  # the same features: the tie-break decides
        return {min(near, key=lambda i: order[i])}
    return set(near)


def logged_weighted_games(games_per_case: int = 8):
    """(weights, decision log) of seeded games, 2-6 players, a weighted seat 0 with random
    weights among greedy and random seats."""
    rng = np.random.default_rng(SEED)
    out = []
    for players in range(2, 7):
        for margin in (0, 1, 2) if players == 2 else (2,):
            for index in range(games_per_case):
                weights = random_weights(rng)
                others = [("greedy", "random")[(s + index) % 2] for s in range(1, players)]
                names = [label(weights), *others]
                log = parade.decisions(SEED, index, players, {"two_player_margin": margin}, names)
                out.append((weights, [d for d in log if d.seat == 0]))
    return out


@pytest.fixture(scope="module")
def logged():
    return logged_weighted_games()


def test_kernel_chooses_the_argmax_of_the_features_read_from_the_observation(logged):
    plays = discards = 0
    for weights, log in logged:
        for d in log:
            allowed = expected_choices(d, weights)
            assert d.choice in allowed, (weights, d)
            if view.obs_kind(d.obs) == view.DECISION_PLAY:
                plays += 1
            else:
                discards += 1
    assert plays > 500 and discards >= 50


@pytest.mark.parametrize("mutation", ["started_any", "rival_sum", "next_on_old_parade", "keep_played_card"])
def test_the_check_fails_for_a_mutated_feature(logged, mutation):
    """Each wrong reading of one feature disagrees with the kernel somewhere: the argmax check
    above sees the features it claims to check."""
    misses = sum(
        d.choice not in expected_choices(d, weights, mutation) for weights, log in logged for d in log
    )
    assert misses > 0


# --- defaults, tuned, weights that change play ---------------------------------------------


CASES = [(2, {"two_player_margin": 2}), (2, {"two_player_margin": 0}), (3, {}), (4, {}), (6, {})]


@pytest.mark.parametrize("players, params", CASES)
def test_default_weights_play_exactly_greedy(players, params):
    for mix in (["weighted"], ["weighted", "random"] * 3):
        names = (mix * players)[:players]
        greedy = [("greedy" if n == "weighted" else n) for n in names]
        mine = mc.simulate("parade", n=1500, seed=SEED, players=players, strategies=names,
                           params=params, keep_games=True)
        theirs = mc.simulate("parade", n=1500, seed=SEED, players=players, strategies=greedy,
                             params=params, keep_games=True)
        assert mine.games.equals(theirs.games)


def test_tuned_is_weighted_with_the_tuned_weights():
    assert SPEC.seat_params["tuned"].default == strategies.TUNED_WEIGHTS
    assert SPEC.seat_params["tuned"].features == SPEC.seat_params["weighted"].features == FEATURES
    assert SPEC.seat_params["tuned"].bounds == SPEC.seat_params["weighted"].bounds
    tuned = mc.simulate("parade", n=800, seed=SEED, players=3, strategies=["tuned", "random", "greedy"],
                        keep_games=True)
    weighted = mc.simulate("parade", n=800, seed=SEED, players=3,
                           strategies=[label(strategies.TUNED_WEIGHTS), "random", "greedy"], keep_games=True)
    assert tuned.games.equals(weighted.games)
    default = strategies.DEFAULT_WEIGHTS
    again = mc.simulate("parade", n=800, seed=SEED, players=3, strategies=["random", "greedy", "tuned"],
                        strategy_params=[None, None, list(default)], keep_games=True)
    greedy = mc.simulate("parade", n=800, seed=SEED, players=3, strategies=["random", "greedy", "greedy"],
                         keep_games=True)
    assert again.games.equals(greedy.games)


def test_spec_declares_both_with_fifteen_documented_features():
    assert SPEC.strategies[3:5] == ("weighted", "tuned")
    assert SPEC.strategies[:3] == ("random", "greedy", "rollout")  # existing codes unmoved
    w = SPEC.seat_params["weighted"]
    assert len(w.features) == 15 and w.default == strategies.DEFAULT_WEIGHTS
    assert all(lo <= d <= hi for d, (lo, hi) in zip(w.default, w.bounds))
    page = (ROOT / "docs" / "strategies" / "parade.md").read_text()
    assert "weighted and tuned: the features" in page
    for name in FEATURES:
        assert f"`{name}`" in page


def test_every_feature_weight_changes_play():
    """Adding weight to one feature at a time (the others at their defaults) changes some game
    of 600 (3 players: every feature acts there)."""
    base = mc.simulate("parade", n=600, seed=SEED, players=3, strategies=["weighted", "greedy", "random"],
                       keep_games=True).games
    for k, name in enumerate(FEATURES):
        weights = list(strategies.DEFAULT_WEIGHTS)
        lo, hi = strategies.WEIGHT_BOUNDS[k]
        weights[k] = hi if abs(hi - weights[k]) >= abs(lo - weights[k]) else lo
        other = mc.simulate("parade", n=600, seed=SEED, players=3,
                            strategies=[label(weights), "greedy", "random"], keep_games=True).games
        assert not other.equals(base), name


# --- bad weights, the command line ------------------------------------------------------------


@pytest.mark.parametrize("kwargs, words", [
    ({"strategies": ["weighted[1,2]", "greedy"]}, "takes 15 weights"),
    ({"strategies": ["weighted", "greedy"], "strategy_params": [[1.0] * 14, None]}, "takes 15 weights"),
    ({"strategies": ["tuned", "greedy"], "strategy_params": [[1.0] * 16, None]}, "takes 15 weights"),
    ({"strategies": ["weighted[" + ",".join(["0"] * 14 + ["nan"]) + "]"]}, "finite"),
    ({"strategies": ["weighted", "greedy"], "strategy_params": [[float("inf")] + [0.0] * 14, None]}, "finite"),
    ({"strategies": ["greedy[1]", "greedy"]}, "takes no weights"),
])
def test_bad_weights_are_refused(kwargs, words):
    with pytest.raises(InputError, match=words):
        mc.simulate("parade", n=10, seed=1, **kwargs)


def test_weights_as_strategy_params_are_the_weights_in_the_name():
    rng = np.random.default_rng(3)
    weights = random_weights(rng)
    by_name = mc.simulate("parade", n=400, seed=2, strategies=[label(weights), "greedy"], keep_games=True)
    by_params = mc.simulate("parade", n=400, seed=2, strategies=["weighted", "greedy"],
                            strategy_params=[list(weights), None], keep_games=True)
    assert by_name.games.equals(by_params.games)
    assert by_params.to_dict()["strategies"][0] == label(weights)


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "montecards", *args], capture_output=True, text=True, timeout=900,
        env={"MONTECARDS_NO_PROGRESS": "1", "PATH": "/usr/bin:/bin", **_env()},
    )


def _env() -> dict[str, str]:
    import os

    return {k: os.environ[k] for k in ("PYTHONPATH", "NUMBA_CACHE_DIR") if k in os.environ}


def test_cli_takes_weights_in_the_name_and_refuses_a_wrong_count():
    weights = ",".join(["-1", "-0.3"] + ["0"] * 11 + ["-1", "0.2"])
    out = cli("simulate", "parade", "-n", "300", "--seed", "1", "-s", f"weighted[{weights}]", "-s", "greedy")
    assert out.returncode == 0, out.stderr
    assert "weighted[-1,-0.3," in out.stdout
    bad = run_main("simulate", "parade", "-n", "300", "-s", "weighted[1,2,3]", "-s", "greedy")
    assert bad.returncode == 2
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and "takes 15 weights" in lines[0], bad.stderr


# --- the interface twin --------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5])
def test_twin_plays_the_builtin_games(players):
    rng = np.random.default_rng(players)
    for weights in (strategies.DEFAULT_WEIGHTS, random_weights(rng), random_weights(rng)):
        others = (["random", "greedy", "weighted"] * 2)[: players - 1]
        mine = mc.simulate("parade", n=300, seed=SEED, players=players, strategies=[TWIN, *others],
                           strategy_params=[list(weights)] + [None] * (players - 1), keep_games=True)
        builtin = mc.simulate("parade", n=300, seed=SEED, players=players,
                              strategies=[label(weights), *others], keep_games=True)
        assert mine.games.equals(builtin.games), weights


def test_twin_without_params_plays_greedy():
    mine = mc.simulate("parade", n=300, seed=SEED, strategies=[TWIN, "random"], keep_games=True)
    greedy = mc.simulate("parade", n=300, seed=SEED, strategies=["greedy", "random"], keep_games=True)
    assert mine.games.equals(greedy.games)

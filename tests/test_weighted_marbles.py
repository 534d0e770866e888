"""Joker Marbles' ``weighted`` and ``tuned`` built-ins (strategies.weighted_choice).

* The kernel's choice is the argmax of the documented features: a plain-Python reading of each
  feature from the logged observation (``plain_features``: its own board stepping, its own
  threat counts) scores every legal move under random weights, and the kernel chose the best
  (ties as greedy's) on every decision of many games, teams and variants included; a mutated
  feature disagrees with it somewhere (so the check can fail).
* ``GREEDY_WEIGHTS`` / ``AGGRESSIVE_WEIGHTS`` play exactly greedy's / aggressive's games.
* Other weights play other games; the defaults beat greedy (one seat against three, every
  seat in turn, 4 players); bad weights are an InputError; the CLI takes ``weighted[...]``.
* ``montecards/strategies/marbles_weighted.py`` (over the decision interface) plays the built-in's
  very games.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import montecards as mc
from montecards.engine.weights import format_weight
from montecards.errors import InputError
from montecards.games import marbles
from montecards.games.marbles import SPEC, kernel, strategies, view
from tests.inprocess import run_main

ROOT = Path(__file__).resolve().parents[1]
SEED = 20261230
TWIN = f"{ROOT / 'montecards' / 'strategies' / 'marbles_weighted.py'}:choose"


def label(weights, name="weighted") -> str:
    return f"{name}[{','.join(format_weight(w) for w in weights)}]"


def random_weights(rng) -> tuple[float, ...]:
    return tuple(round(float(rng.uniform(lo, hi)), 3) for lo, hi in strategies.WEIGHT_BOUNDS)


# --------------------------------------------------------------------------- plain Python


class Board:
    """A plain-Python board read from an observation (offsets of ``view``)."""

    def __init__(self, obs):
        o = [int(x) for x in obs]
        self.players = o[view.OBS_PLAYERS]
        self.L = o[view.OBS_TRACK]
        self.jft = o[view.OBS_JOKER_FROM_TRACK] != 0
        self.team = o[view.OBS_TEAM : view.OBS_TEAM + self.players]
        self.entry = o[view.OBS_ENTRY : view.OBS_ENTRY + self.players]
        self.come_out = o[view.OBS_COMEOUT : view.OBS_COMEOUT + self.players]
        self.pos = [o[view.OBS_POS + 5 * s : view.OBS_POS + 5 * s + 5] for s in range(self.players)]
        self.occ = {}
        for s in range(self.players):
            for m, p in enumerate(self.pos[s]):
                if 0 <= p < view.CASTLE0:
                    self.occ[p] = (s, m)

    def copy(self):
        b = object.__new__(Board)
        b.__dict__ = dict(self.__dict__)
        b.pos = [list(row) for row in self.pos]
        b.occ = dict(self.occ)
        return b

    def at_home(self, s):
        return sum(p == -1 for p in self.pos[s])

    def in_castle(self, s):
        return sum(p > view.CASTLE0 for p in self.pos[s])

    def remaining(self, s, p):
        if p == -1:
            return self.L + 10
        if p > view.CASTLE0:
            return 5 - (p - view.CASTLE0)
        return (self.entry[s] - p) % self.L + 5

    def step(self, owner, m, end):
        """The rules' step: the marble leaves its hole, lands on ``end`` and bumps what is there
        (an opponent home; a teammate to its castle entry, home if that hole is taken)."""
        start = self.pos[owner][m]
        self.occ.pop(start, None)
        if 0 <= end < view.CASTLE0 and end in self.occ:
            vs, vm = self.occ[end]
            dest = -1
            e = self.entry[vs]
            if self.team[vs] == self.team[owner] and e != end and e not in self.occ:
                dest = e
                self.occ[e] = (vs, vm)
            self.pos[vs][vm] = dest
        self.pos[owner][m] = end
        if 0 <= end < view.CASTLE0:
            self.occ[end] = (owner, m)


def moves_exactly(r, d):
    return {1: d == 1, 7: d <= 7, 8: False, 14: False}.get(r, d == 10 if r >= 10 else d == r)


def unseen(obs):
    return {r: int(obs[view.OBS_UNSEEN + r - 1]) for r in range(1, 15)}


def risk_numerator(b: Board, owner, e, u, mutate=None):
    if not 0 <= e < view.CASTLE0:
        return 0
    ways = 0
    joker = b.jft
    for s in range(b.players):
        if b.team[s] == b.team[owner]:
            continue
        if b.at_home(s) > 0:
            joker = True
            if b.come_out[s] == e and mutate != "no_come_out_threat":
                ways += u[1] + u[11] + u[12] + u[13]
        for p in b.pos[s]:
            if 0 <= p < view.CASTLE0:
                d = (e - p) % b.L
                if 1 <= d <= 13:
                    ways += sum(u[r] for r in range(1, 14) if moves_exactly(r, d))
                elif d == b.L - 8:
                    ways += u[8]
    if joker:
        ways += u[14]
    return (b.remaining(owner, -1) - b.remaining(owner, e)) * ways


def attack(b: Board, owner, e, hand_ranks, played, mutate=None):
    if not 0 <= e < view.CASTLE0:
        return 0
    kept = list(hand_ranks)
    if mutate != "attack_keeps_the_played_card":
        kept.remove(played)
    total = 0
    targets = [(e + d) % b.L for d in range(1, 14) if any(moves_exactly(r, d) for r in kept)]
    if 8 in kept:
        targets.append((e - 8) % b.L)
    for h in targets:
        if h in b.occ:
            vs = b.occ[h][0]
            if b.team[vs] != b.team[owner]:
                total += b.remaining(vs, -1) - b.remaining(vs, h)
    return total


def plain_features(obs, move, mutate=None) -> list[float]:
    """The 12 features of ``move`` (docs/strategies/marbles.md) read from ``obs`` alone."""
    move = int(move)
    before = Board(obs)
    owner = int(obs[view.OBS_OWNER])
    card = view.move_card(move)
    r = int(view.card_rank(card))
    hand = obs[view.OBS_HAND : view.OBS_HAND + int(obs[view.OBS_HAND_N])]
    hand_ranks = [int(view.card_rank(int(c))) for c in hand]
    f = [0.0] * 12
    f[7] = 10.0 if r == 14 else 0.0
    f[9] = 10.0 if r == 7 else 0.0
    out_rank = r in (1, 11, 12, 13)
    if view.move_is_discard(move):
        f[8] = 10.0 if out_rank and before.at_home(owner) > 0 else 0.0
        return f
    u = unseen(obs)
    total_unseen = sum(u.values())
    parts = [(view.move_marble(move), view.move_end(move))]
    if view.move_is_split(move):
        parts.append((view.move_marble2(move), view.move_end2(move)))
    after = before.copy()
    progress = risk = att = 0
    for m, e in parts:
        p = before.pos[owner][m]
        progress += before.remaining(owner, p) - before.remaining(owner, e)
        risk -= risk_numerator(before, owner, p, u)
        att -= attack(before, owner, p, hand_ranks, r, mutate)
        after.step(owner, m, e)
    for _m, e in parts:
        risk += risk_numerator(after, owner, e, u, mutate)
        att += attack(after, owner, e, hand_ranks, r, mutate)
    opp = partner = leader = 0
    for s in range(before.players):
        if s == owner:
            continue
        change = sum(after.remaining(s, q) - before.remaining(s, p)
                     for p, q in zip(before.pos[s], after.pos[s], strict=True))
        if before.team[s] == before.team[owner]:
            partner -= change
        else:
            opp += change
            leader += change * (before.in_castle(s) + (1 if mutate == "leader_counts_one_more" else 0))
    blocked = [int(b.at_home(owner) > 0 and b.occ.get(b.come_out[owner], (-1,))[0] == owner)
               for b in (before, after)]
    f[0] = float(progress)
    f[1] = float(opp)
    f[2] = float(partner)
    f[3] = risk / total_unseen if total_unseen > 0 else 0.0
    f[4] = float(att)
    f[5] = 10.0 * (before.at_home(owner) - after.at_home(owner))
    f[6] = 10.0 * (after.in_castle(owner) - before.in_castle(owner))
    f[8] = 10.0 if out_rank and view.move_kind(move) != view.KIND_OUT and after.at_home(owner) > 0 else 0.0
    f[10] = 10.0 * (blocked[1] - blocked[0])
    f[11] = leader / 5
    return f


def plain_choice(obs, legal, weights, mutate=None) -> int:
    """The argmax of the weighted features; ties: the lowest card rank, the lowest first marble,
    the first in the legal order."""
    best = None
    for i, move in enumerate(legal.tolist()):
        score = 0.0
        for w, x in zip(weights, plain_features(obs, move, mutate), strict=True):
            score += w * x
        key = (score, -int(view.card_rank(view.move_card(move))),
               0 if view.move_is_discard(move) else -view.move_marble(move))
        if best is None or key > best[0]:
            best = (key, i)
    return best[1]


CONFIGS = [
    (4, {}, ("A", "greedy", "B", "random")),
    (4, {"teams": "pairs", "nine_split": True}, ("A", "B", "greedy", "A")),
    (3, {"decks": 2, "castle_entry": "optional"}, ("A", "random", "B")),
    (6, {"teams": "two", "joker_from_track": True}, ("A", "greedy", "B", "random", "aggressive", "A")),
    (2, {}, ("A", "B")),
]


def logged(config_index, game):
    players, params, names = CONFIGS[config_index]
    rng = np.random.default_rng(1000 * config_index + game)
    weights = {"A": random_weights(rng), "B": random_weights(rng)}
    seats = [label(weights[n]) if n in weights else n for n in names]
    seat_weights = [weights.get(n) for n in names]
    return seat_weights, marbles.decisions(SEED + config_index, game, players, params, seats)


LOGS = [logged(c, g) for c in range(len(CONFIGS)) for g in range(2)]


def weighted_decisions(stride=1):
    for seat_weights, decisions in LOGS:
        for d in decisions[::stride]:
            if seat_weights[d.seat] is not None:
                yield seat_weights[d.seat], d


def test_the_kernel_plays_the_argmax_of_the_plain_features():
    checked = discards = splits = partners = 0
    for weights, d in weighted_decisions(stride=2):
        got = plain_choice(d.obs, d.legal, weights)
        assert got == d.choice, (weights, d.number, view.move_text(int(d.legal[got])),
                                 view.move_text(int(d.move)))
        checked += 1
        discards += view.obs_kind(d.obs) == view.DECISION_DISCARD
        splits += view.move_is_split(int(d.move))
        partners += view.obs_owner(d.obs) != d.seat
    counts = (checked, discards, splits, partners)
    assert checked > 1000 and discards > 10 and splits > 20 and partners > 0, counts


@pytest.mark.parametrize("mutate", ["no_come_out_threat", "attack_keeps_the_played_card",
                                    "leader_counts_one_more"])
def test_a_mutated_feature_is_caught(mutate):
    wrong = 0
    for weights, d in weighted_decisions(stride=2):
        if plain_choice(d.obs, d.legal, weights, mutate) != d.choice:
            wrong += 1
            if wrong >= 3:
                break
    assert wrong >= 3


def games(strategies, players=4, n=600, params=None, seed=SEED, strategy_params=None):
    return mc.simulate("marbles", n=n, players=players, strategies=strategies, params=params,
                       seed=seed, keep_games=True, jobs=2, strategy_params=strategy_params).games


@pytest.mark.parametrize("players, names, params", [
    (4, ["W", "greedy", "W", "random"], {}),
    (4, ["W", "W", "aggressive", "W"], {"teams": "pairs", "nine_split": True}),
    (6, ["W", "random", "W", "greedy", "W", "W"], {"teams": "two", "joker_from_track": True}),
    (3, ["W", "W", "random"], {"castle_entry": "optional", "decks": 2}),
])
@pytest.mark.parametrize("twin", ["greedy", "aggressive"])
def test_greedy_and_aggressive_weights_play_their_games(players, names, params, twin):
    weights = strategies.GREEDY_WEIGHTS if twin == "greedy" else strategies.AGGRESSIVE_WEIGHTS
    mine = games([label(weights) if n == "W" else n for n in names], players, 500, params)
    theirs = games([twin if n == "W" else n for n in names], players, 500, params)
    assert mine.equals(theirs)


def test_weights_change_play_and_tuned_reads_the_same_table():
    default = games(["weighted", "greedy"], 2, 400)
    assert default.equals(games([label(strategies.DEFAULT_WEIGHTS), "greedy"], 2, 400))
    other = games([label((1, 1, 1, -1, 0.5, 0, 0, 0, 0, 0, 0, 0)), "greedy"], 2, 400)
    assert not default.equals(other)
    assert not default.equals(games(["greedy", "greedy"], 2, 400))
    tuned = games([label(strategies.TUNED_WEIGHTS), "greedy"], 2, 400)
    assert games(["tuned", "greedy"], 2, 400).equals(tuned)
    assert SPEC.seat_params["tuned"].default == strategies.TUNED_WEIGHTS
    assert SPEC.seat_params["weighted"].features == strategies.FEATURES
    assert len(strategies.FEATURES) == len(strategies.WEIGHT_BOUNDS) <= 16
    for (lo, hi), w in zip(strategies.WEIGHT_BOUNDS, strategies.DEFAULT_WEIGHTS, strict=True):
        assert lo <= w <= hi


def test_defaults_beat_greedy_one_seat_against_three():
    """Every seat in turn, 4 players: the default weights win well above the fair 25 %."""
    shares = []
    for seat in range(4):
        names = ["greedy"] * 4
        names[seat] = "weighted"
        shares.append(games(names, 4, 1000, seed=SEED + seat)[f"win_{seat}"].mean())
    assert min(shares) > 0.35, shares
    assert np.mean(shares) > 0.45, shares


@pytest.mark.parametrize("weights, words", [
    ((1.0, 2.0), "takes 12 weights"),
    ((1.0,) * 11 + (float("nan"),), "finite"),
    ((1.0,) * 11 + (float("inf"),), "finite"),
])
def test_bad_weights_are_an_input_error(weights, words):
    with pytest.raises(InputError, match=words):
        mc.simulate("marbles", n=10, players=2, strategies=["weighted", "greedy"], seed=1,
                    strategy_params=[list(weights), None])
    if all(np.isfinite(weights)):
        with pytest.raises(InputError, match=words):
            mc.simulate("marbles", n=10, players=2, strategies=[label(weights), "greedy"], seed=1)


def run_cli(*args):
    env = os.environ | {"MONTECARDS_NO_PROGRESS": "1", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "montecards", *args], capture_output=True,
                          text=True, timeout=900, env=env)


def test_cli_takes_weights_in_the_name():
    ok = run_cli("simulate", "marbles", "-n", "200", "-p", "2", "--seed", "3",
                 "-s", label(strategies.DEFAULT_WEIGHTS), "-s", "greedy")
    assert ok.returncode == 0, ok.stderr
    bad = run_main("simulate", "marbles", "-n", "200", "-p", "2", "-s", "weighted[1,2]", "-s", "greedy")
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "takes 12 weights" in bad.stderr, bad.stderr


@pytest.mark.parametrize("players, names, params", [
    (4, ["T", "greedy", "T", "random"], {}),
    (4, ["T", "W", "greedy", "T"], {"teams": "pairs", "nine_split": True, "joker_from_track": True}),
    (3, ["T", "T", "W"], {"castle_entry": "optional"}),
])
def test_the_interface_twin_plays_the_builtins_games(players, names, params):
    rng = np.random.default_rng(5)
    w = random_weights(rng)
    seat_params = [list(w) if n == "T" else None for n in names]
    mine = games([TWIN if n == "T" else "weighted" if n == "W" else n for n in names], players,
                 300, params, strategy_params=seat_params)
    theirs = games([label(w) if n == "T" else "weighted" if n == "W" else n for n in names],
                   players, 300, params)
    assert mine.equals(theirs)
    # without params the twin plays the defaults
    assert games([TWIN, "greedy"], 2, 300).equals(games(["weighted", "greedy"], 2, 300))


def test_kernel_options_leave_weighted_out_of_runs_without_it():
    assert SPEC.kernel_options(np.array([1, 2, 0, 1])) is None
    assert SPEC.kernel_options(np.array([1, strategies.WEIGHTED])) == (True, None)
    assert SPEC.kernel_options(np.array([strategies.TUNED, 99])) == (True, None)
    assert SPEC.kernel_options(np.array([strategies.ISMCTS, 1])) == (None, True)
    assert SPEC.kernel_options(np.array([strategies.TUNED, strategies.OMNISCIENT])) == (True, True)
    assert [name for name, _ in kernel.OPTIONS] == ["weighted", "search"]
    assert strategies.NAMES[:3] == ("random", "greedy", "aggressive")

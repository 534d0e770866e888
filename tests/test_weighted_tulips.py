"""Gift of Tulips' ``weighted`` and ``tuned`` built-ins (strategies.weighted_choice).

* an independent plain-Python reading of the 14 features (docs/strategies/tulips.md, "weighted
  and tuned: the features") from the decision log's observations: every decision of a
  weighted seat, under random weights, is the argmax of the Python scores (greedy's tie
  order); a mutated feature is caught;
* other weights change the play; the default weights play exactly
  greedy's games (same rows, same seed);
* bad weights are InputErrors through ``mc.simulate``; ``-s 'weighted[...]'`` on the CLI;
* the user-strategy twin ``montecards/strategies/tulips_weighted.py`` plays the built-in's games.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import montecards as mc
from montecards.engine.spec import InputError
from montecards.games import tulips
from montecards.games.tulips import strategies, view
from tests.inprocess import run_main

TWIN = f"{Path(__file__).resolve().parent.parent / 'montecards' / 'strategies' / 'tulips_weighted.py'}:choose"
N = strategies.N_FEATURES


# --- an independent reading of the features, in plain Python, from the observation --------------


class Obs:
    """The observation's fields by name (view's layout, docs/strategies/tulips.md)."""

    def __init__(self, obs):
        o = [int(x) for x in obs]
        self.kind, self.seat, self.players = o[view.OBS_KIND], o[view.OBS_SEAT], o[view.OBS_PLAYERS]
        self.turn, self.step, self.pile = o[view.OBS_TURN], o[view.OBS_STEP], o[view.OBS_PILE]
        self.n_secret, self.paid, self.reveal = o[view.OBS_SECRET_N], o[view.OBS_N_MAJ], o[view.OBS_REVEAL]
        self.hand = [tuple(o[view.OBS_HAND + 3 * k : view.OBS_HAND + 3 * k + 3]) for k in range(2)]
        self.totals = o[view.OBS_TOTALS : view.OBS_TOTALS + 4]
        self.rank = o[view.OBS_RANK : view.OBS_RANK + 4]
        self.give = o[view.OBS_GIVE_BONUS : view.OBS_GIVE_BONUS + 4]
        self.keep = o[view.OBS_KEEP_BONUS : view.OBS_KEEP_BONUS + 4]
        self.maj = [o[view.OBS_MAJ_TABLE + 3 * p : view.OBS_MAJ_TABLE + 3 * p + 3] for p in range(4)]
        self.own_secret = o[view.OBS_OWN_SECRET_VALUE : view.OBS_OWN_SECRET_VALUE + 4]
        base = [view.OBS_SEATS + s * view.SEAT_FIELDS for s in range(self.players)]
        self.points = [o[b + view.S_POINTS] for b in base]
        self.count = [o[b + view.S_COUNT : b + view.S_COUNT + 4] for b in base]
        self.value = [o[b + view.S_VALUE : b + view.S_VALUE + 4] for b in base]


def bouquets(ob, holder, colour, value):
    """(count, value) per seat and colour with the card at ``holder`` (None: nobody)."""
    cnt = [list(c) for c in ob.count]
    val = [list(v) for v in ob.value]
    if holder is not None:
        cnt[holder][colour] += 1
        val[holder][colour] += value
    return cnt, val


def majorities(ob, ranking, cnt, val):
    """Majority points per seat, ``ranking`` = colours 1st place first."""
    out = [0] * ob.players
    for place in range(3):
        c = ranking[place]
        keys = sorted({(cnt[s][c], val[s][c]) for s in range(ob.players) if cnt[s][c] > 0}, reverse=True)
        for s in range(ob.players):
            if cnt[s][c] > 0:
                k = keys.index((cnt[s][c], val[s][c]))
                if k < ob.paid:
                    out[s] += ob.maj[place][k]
    return out


def raised(ob, colour, value):
    """The ranking after opening ``value`` of ``colour`` (the rules' re-ranking)."""
    totals = list(ob.totals)
    totals[colour] += value
    rest = [c for c in ob.rank if c != colour]
    q = 0
    while q < len(rest) and totals[rest[q]] > totals[colour]:
        q += 1
    return rest[:q] + [colour] + rest[q:]


def features(ob, move):
    seat, players = ob.seat, ob.players
    kind = view.move_kind.py_func(move)
    secret_card = None
    opened = None
    n_secret = ob.n_secret
    points = 0
    receiver = None
    ranking = list(ob.rank)
    if kind == view.KIND_SETUP:
        k = 0 if move - view.MOVE_SETUP == ob.hand[0][0] else 1
        _, colour, value = ob.hand[k]
        secret_card = ob.hand[1 - k][1:]
        holder = seat
        n_secret = players
        drawn = 0
    else:
        _, colour, value = ob.hand[0]
        place = ob.rank.index(colour)
        holder = None
        if kind == view.KEEP:
            holder = seat
            points = ob.keep[place]
        elif kind == view.GIVE:
            receiver = holder = move & 7
            points = value + ob.give[place]
        elif kind == view.OPEN:
            ranking = raised(ob, colour, value)
            opened = (colour, value)
        else:
            secret_card = (colour, value)
            n_secret += 1
        drawn = 2 * (ob.turn - 1) + ob.step + 1
    cnt, val = bouquets(ob, holder, colour, value)
    maj = majorities(ob, ranking, cnt, val)
    others = [s for s in range(players) if s != seat]
    rival_total = max(ob.points[s] + maj[s] for s in others)
    p = min(1.0, ob.reveal / n_secret) if n_secret > 0 else 0.0

    def stake(c):
        best = max(cnt[s][c] for s in others)
        return 1 if cnt[seat][c] > best else (-1 if cnt[seat][c] < best else 0)

    raise_stake = value * stake(colour) if kind == view.OPEN else 0.0
    secret_stake = p * secret_card[1] * stake(secret_card[0]) if secret_card is not None else 0.0
    proj = [ob.totals[c] + p * ob.own_secret[c] for c in range(4)]
    if opened is not None:
        proj[opened[0]] += opened[1]
    if secret_card is not None:
        proj[secret_card[0]] += p * secret_card[1]
    projected = sorted(range(4), key=lambda c: (-proj[c], ranking.index(c)))
    pmaj = majorities(ob, projected, cnt, val)
    phase = drawn / (drawn + ob.pile) if drawn + ob.pile > 0 else 1.0
    now = majorities(ob, ob.rank, *bouquets(ob, None, 0, 0))
    rival = max(others, key=lambda s: (ob.points[s] + now[s], -((s - seat) % players)))
    return [
        points,
        maj[seat],
        rival_total,
        sum(maj[s] for s in others) / len(others),
        (ob.points[receiver] - ob.points[seat]) / 10.0 if receiver is not None else 0.0,
        cnt[seat][colour] - max(cnt[s][colour] for s in others),
        raise_stake,
        secret_stake,
        pmaj[seat] - max(pmaj[s] for s in others),
        phase * (maj[seat] - max(maj[s] for s in others)),
        1.0 if holder == seat else 0.0,
        1.0 if receiver is not None and receiver == rival else 0.0,
        1.0 if kind == view.OPEN else 0.0,
        1.0 if kind == view.SECRET else 0.0,
    ]


def python_choice(ob, legal, w, feature_fn=features):
    """The index weighted plays: the highest score; ties by greedy's order."""
    scores = [float(np.dot(w, feature_fn(ob, int(m)))) for m in legal]
    if ob.kind == view.DECISION_SETUP:
        if scores[0] != scores[1]:
            return 0 if scores[0] > scores[1] else 1
        (_, ca, va), (_, cb, vb) = ob.hand
        pa, pb = ob.rank.index(ca), ob.rank.index(cb)
        if pa != pb:
            return 0 if pa < pb else 1
        return 1 if vb > va else 0
    best = 0
    for i in range(1, len(legal)):
        gifts = view.move_kind.py_func(int(legal[i])) == view.GIVE == view.move_kind.py_func(int(legal[best]))
        if scores[i] > scores[best] or (
            scores[i] == scores[best] and gifts
            and ob.points[int(legal[i]) & 7] < ob.points[int(legal[best]) & 7]
        ):
            best = i
    return best


def weighted_decisions(players, seed, games, rng):
    """(decision, weights) of every weighted seat's decision in ``games`` games, each seat with
    its own random weights, against majority and greedy seats."""
    out = []
    for index in range(games):
        lineup, seat_w = [], {}
        for s in range(players):
            if s % 2 == 0:
                w = np.round(rng.uniform(-2, 2, N), 2)
                seat_w[s] = w
                lineup.append(f"weighted[{','.join(map(str, w))}]")
            else:
                lineup.append("majority" if s % 4 == 1 else "greedy")
        for d in tulips.decisions(seed, index, players, None, lineup):
            if d.seat in seat_w:
                out.append((d, seat_w[d.seat]))
    return out


@pytest.mark.parametrize("players", [2, 4, 6])
def test_features_read_in_python_match_the_kernel(players):
    rng = np.random.default_rng(players)
    decided = weighted_decisions(players, 7, 4, rng)
    assert len(decided) > 20 * players
    for d, w in decided:
        ob = Obs(d.obs)
        rival = strategies.rival_seat(d.obs, ob.seat)
        for m in d.legal:
            assert np.allclose(strategies.move_features(d.obs, int(m), rival), features(ob, int(m))), (d, m)
        assert python_choice(ob, d.legal, w) == d.choice


def test_a_mutated_feature_is_caught():
    """The Python reading with one feature changed (projected_margin with the OTHER seats'
    best at the after-move ranking instead of the projected one) no longer agrees."""
    def mutated(ob, move):
        f = features(ob, move)
        f[8] = f[8] + 1.0 if view.move_kind.py_func(move) == view.OPEN else f[8]
        return f

    decided = weighted_decisions(4, 7, 4, np.random.default_rng(1))
    wrong = sum(python_choice(Obs(d.obs), d.legal, w, mutated) != d.choice for d, w in decided)
    assert wrong > 0
    assert all(python_choice(Obs(d.obs), d.legal, w) == d.choice for d, w in decided)


def rows(players, lineup, n=300, seed=5, **kw):
    return mc.simulate("tulips", n=n, players=players, strategies=lineup, seed=seed,
                       keep_games=True, progress=False, **kw).games


@pytest.mark.parametrize("players", [2, 4, 6])
def test_default_weights_play_greedy(players):
    greedy = rows(players, ["greedy"])
    assert greedy.equals(rows(players, ["weighted"]))
    tuned = ",".join(repr(w) for w in strategies.TUNED_WEIGHTS)
    assert rows(players, ["tuned"]).equals(rows(players, [f"weighted[{tuned}]"]))
    assert not greedy.equals(rows(players, ["tuned"]))
    default = ",".join(str(w) for w in strategies.DEFAULT_WEIGHTS)
    assert greedy.equals(rows(players, [f"weighted[{default}]"]))


def test_other_weights_change_play():
    base = rows(4, ["weighted", "majority", "greedy", "majority"])
    other = rows(4, ["weighted[1,1,-1,0,0,0,0,0,0,0,0,0,0,0]", "majority", "greedy", "majority"])
    assert not base.equals(other)
    assert (base["score_0"] != other["score_0"]).any()
    # weights are per seat: another seat's weights leave a default seat's play greedy's
    mixed = rows(4, ["weighted", "majority", "weighted[0,1,0,0,0,0,0,0,0,0,0,0,0,0]", "majority"])
    alone = rows(4, ["greedy", "majority", "weighted[0,1,0,0,0,0,0,0,0,0,0,0,0,0]", "majority"])
    assert mixed.equals(alone)


def test_bad_weights_are_input_errors():
    with pytest.raises(InputError, match="takes 14 weights"):
        mc.simulate("tulips", n=10, seed=1, strategies=["weighted[1,2]"], progress=False)
    with pytest.raises(InputError, match="finite"):
        mc.simulate("tulips", n=10, seed=1, strategies=["weighted[" + ",".join(["nan"] + ["0"] * 13) + "]"],
                    progress=False)
    with pytest.raises(InputError):
        mc.simulate("tulips", n=10, seed=1, strategies=["weighted"], strategy_params=[[1.0, 2.0]],
                    progress=False)


def cli(*args):
    return subprocess.run([sys.executable, "-m", "montecards", *args], capture_output=True, text=True,
                          timeout=900)


def test_cli_takes_weights_in_the_name():
    weights = ",".join(["1", "1", "-1"] + ["0"] * 11)
    ok = cli("simulate", "tulips", "-n", "200", "--seed", "3", "-s", f"weighted[{weights}]", "-s", "majority",
             "-s", "greedy", "-s", "tuned")
    assert ok.returncode == 0, ok.stderr
    bad = run_main("simulate", "tulips", "-n", "20", "-s", "weighted[1,2]")
    assert bad.returncode == 2
    assert len(bad.stderr.strip().splitlines()) == 1, bad.stderr
    assert "14 weights" in bad.stderr


@pytest.mark.parametrize("players, weights", [
    (4, None),
    (4, [1, 1, -1, 0, 0, 0, 0.5, 0.5, 0.5, 1, 0, 0, 0, 0]),
    (3, [0.8, 0.7, -0.9, -0.2, -0.5, 0.3, 0.2, -0.4, 0.6, 0.4, 1.5, -1, -2, 0.5]),
])
def test_the_twin_plays_the_builtins_games(players, weights):
    label = "weighted" if weights is None else f"weighted[{','.join(map(str, weights))}]"
    lineup = [label] + ["majority", "greedy", "majority", "greedy"][: players - 1]
    twin = [TWIN] + lineup[1:]
    params = [weights] + [None] * (players - 1)
    a = rows(players, lineup, n=200)
    b = rows(players, twin, n=200, strategy_params=params if weights is not None else None)
    assert a.equals(b)


"""Joker Marbles' decision interface (montecards/games/marbles/view.py).

Over many logged games (every built-in strategy, 2-6 players, teams and variants): every
decision has a legal choice; the legal ids are unique, decode to the kernel's own move list of
that board (``marbles.legal_moves``) in its order, and the interface twins of ``greedy`` and
``aggressive`` (montecards/strategies/marbles_greedy.py, over ``obs`` and ``legal`` only) make
exactly the logged choices; ``random``'s draw is a uniform index into ``legal``. The
observation shows no hidden card: re-dealing the other hands and the draw pile leaves it as
it was.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from montecards.engine.user_strategies import load_module
from montecards.engine.decisions import NO_CHOICE
from montecards.games import marbles
from montecards.games.marbles import SPEC, kernel, rules, view
from montecards.games.marbles.game import decision_log, pack_params, position
from montecards.rng import bounded, seed_stream

ROOT = Path(__file__).resolve().parents[1]
SEED = 20261201


def load_example():
    path = ROOT / "montecards" / "strategies" / "marbles_greedy.py"
    return load_module(path)  # the strategy loader's module name: numba's cache expects it


EXAMPLE = load_example()
TWINS = {"greedy": EXAMPLE.choose, "aggressive": EXAMPLE.choose_aggressive}
NO_PARAMS = np.zeros(0, np.float64)
NO_MEMORY = np.zeros(0, np.float64)
NO_RNG = np.zeros(4, np.uint64)

CONFIGS = [
    (2, ("greedy", "aggressive"), {}),
    (3, ("random", "greedy", "aggressive"), {}),
    (4, ("greedy", "aggressive", "random", "greedy"), {"teams": "pairs"}),
    (4, ("random",), {"teams": "two", "max_turns": 1500}),
    (5, ("aggressive", "greedy", "random", "aggressive", "greedy"), {}),
    (6, ("greedy", "random", "aggressive"), {"teams": "two"}),
    (4, ("greedy", "random"), {"nine_split": True, "joker_from_track": True}),
    (4, ("aggressive", "greedy", "random", "random"),
     {"castle_entry": "optional", "decks": 2, "nine_split": True}),
    (6, ("random", "aggressive"), {"teams": "pairs", "joker_from_track": True, "max_turns": 1500}),
]
GAMES_PER_CONFIG = 3


def seat_strategies(players, names):
    return [names[k % len(names)] for k in range(players)]


def logged_games():
    for c, (players, names, params) in enumerate(CONFIGS):
        strategies = seat_strategies(players, names)
        for index in range(GAMES_PER_CONFIG):
            seed = SEED + c
            yield seed, index, players, strategies, params, marbles.decisions(
                seed, index, players, params, strategies)


GAMES = list(logged_games())


def board_of(obs):
    players = view.obs_players(obs)
    return [[position(view.obs_position(obs, s, m)) for m in range(rules.MARBLES)]
            for s in range(players)]


def kernel_move_id(card, move):
    """The id of a ``marbles.legal_moves`` (card, oracle move) choice."""
    kind, _owner, steps = move
    codes = []
    for _marble, _start, end, _count in steps:
        codes.append(rules.CASTLE0 + end[1] if end[0] == "castle" else end[1])
    m2, e2 = (steps[1][0], codes[1]) if len(steps) == 2 else (-1, 0)
    return view.encode_move(card, rules.KIND_NAMES.index(kind), steps[0][0], codes[0], m2, e2)


# --------------------------------------------------------------------------- move ids


def test_move_ids_round_trip():
    for card in (0, 6, 52, 215):
        for kind in range(6):
            for marble, end, marble2, end2 in ((0, 0, -1, 0), (4, 215, 3, 1005), (2, 1003, 0, 7)):
                move = view.encode_move(card, kind, marble, end, marble2, end2)
                assert (view.move_card(move), view.move_kind(move), view.move_marble(move),
                        view.move_end(move), view.move_marble2(move), view.move_end2(move)) == (
                    card, kind, marble, end, marble2, end2)
                assert view.move_is_split(move) == (marble2 >= 0)
                assert not view.move_is_discard(move)
        assert view.move_is_discard(view.discard_move(card))
        assert view.move_card(view.discard_move(card)) == card
    assert view.move_text(view.encode_move(45, view.KIND_SPLIT7, 2, 33, 0, 1002)) == (
        "7S split7: marble 2 to track 33, marble 0 to castle 2")
    assert view.move_text(view.discard_move(50)) == "QS discard"


def test_bounds_hold():
    assert view.MAX_LEGAL == 6 * 490
    assert rules.MAX_CARDS <= 1 << view.CARD_BITS
    assert rules.CASTLE0 + rules.CASTLE_HOLES < 1 << view.END_BITS
    assert rules.MAX_TRACK < rules.CASTLE0


# --------------------------------------------------------------------------- logged games


def test_every_decision_is_logged_with_a_legal_choice_and_the_run_row():
    for seed, index, players, strategies, params, decisions in GAMES:
        _events, row = marbles.trace(seed, index, players, params, strategies)
        assert len(decisions) == row[kernel.COL_TURNS]
        for turn, d in enumerate(decisions):
            assert d.seat == turn % players
            n = len(d.legal)
            assert 0 < n <= view.MAX_LEGAL
            assert d.choice != NO_CHOICE and 0 <= d.choice < n
            assert len(set(d.legal.tolist())) == n, "move ids must be unique"
            assert view.obs_seat(d.obs) == d.seat and view.obs_turn(d.obs) == turn
            kinds = {view.move_is_discard(m) for m in d.legal.tolist()}
            assert kinds == {view.obs_kind(d.obs) == view.DECISION_DISCARD}
        _log, logged_row = decision_log(seed, index, players, params, strategies)
        assert logged_row.tolist() == row.tolist(), "logging changed the game"


def test_legal_ids_are_the_kernel_moves_of_the_board_in_order():
    checked = 0
    for _seed, _index, players, _strategies, params, decisions in GAMES:
        for d in decisions[::7]:
            obs = d.obs
            hand = [view.obs_hand_card(obs, k) for k in range(view.obs_hand_size(obs))]
            choices = marbles.legal_moves(board_of(obs), players, d.seat, hand, params)
            if view.obs_kind(obs) == view.DECISION_DISCARD:
                assert choices == []
                assert d.legal.tolist() == [view.discard_move(c) for c in hand]
            else:
                assert d.legal.tolist() == [kernel_move_id(c, m) for c, m in choices]
                assert {m[1] for _c, m in choices} == {view.obs_owner(obs)}
            checked += 1
    assert checked > 1000


def test_greedy_and_aggressive_twins_choose_as_the_kernel():
    counted = {"greedy": 0, "aggressive": 0}
    for _seed, _index, _players, strategies, _params, decisions in GAMES:
        for d in decisions:
            name = strategies[d.seat]
            if name in TWINS:
                got = TWINS[name](d.obs, d.legal, NO_PARAMS, NO_MEMORY, NO_RNG)
                assert got == d.choice, (name, d.number, d.legal[got], d.move)
                counted[name] += 1
    assert min(counted.values()) > 2000


def test_random_draws_a_uniform_index_into_legal():
    """``random`` draws one ``bounded(rng, n)`` from the game's choice stream per decision; in
    the legal order that draw is the logged index itself."""
    counted = 0
    for seed, index, _players, strategies, _params, decisions in GAMES:
        rng = np.zeros(4, np.uint64)
        seed_stream(rng, np.uint64(seed), index, kernel.CHOICE_STREAM)
        for d in decisions:
            if strategies[d.seat] == "random":
                assert bounded(rng, len(d.legal)) == d.choice
                counted += 1
    assert counted > 2000


def test_team_play_shows_partners_and_the_owner():
    played_for_partner = 0
    for _seed, _index, players, _strategies, params, decisions in GAMES:
        teams = SPEC.resolve_params(players, params)["teams"]
        for d in decisions:
            obs = d.obs
            seat, owner = d.seat, view.obs_owner(obs)
            partners = {s for s in range(players) if s != seat and view.obs_same_team(obs, s, seat)}
            if teams == "none":
                assert partners == set() and owner == seat
            elif teams == "pairs":
                assert partners == {(seat + players // 2) % players}
            else:
                assert partners == {s for s in range(players) if s != seat and s % 2 == seat % 2}
            if owner != seat:
                assert view.obs_in_castle(obs, seat) == rules.MARBLES
                assert owner in partners and view.obs_in_castle(obs, owner) < rules.MARBLES
                played_for_partner += 1
    assert played_for_partner > 0


def test_observation_is_consistent():
    for _seed, _index, players, _strategies, params, decisions in GAMES[::3]:
        resolved = SPEC.resolve_params(players, params)
        n_cards = 54 * resolved["decks"]
        for d in decisions[::5]:
            obs = d.obs
            assert obs.shape == (view.OBS_SIZE,)
            assert view.obs_players(obs) == players
            assert view.obs_track_len(obs) == 18 * resolved["sides"]
            for s in range(players):
                places = [view.obs_position(obs, s, m) for m in range(5)]
                assert view.obs_at_home(obs, s) == sum(view.is_home(p) for p in places)
                assert view.obs_in_castle(obs, s) == sum(view.is_castle(p) for p in places)
                for m, p in enumerate(places):
                    if view.is_track(p):
                        assert view.obs_occupant(obs, p) == 5 * s + m
            occupied = [h for h in range(view.obs_track_len(obs)) if view.obs_occupant(obs, h) >= 0]
            assert len(occupied) == sum(
                view.is_track(view.obs_position(obs, s, m)) for s in range(players) for m in range(5))
            seen = view.obs_hand_size(obs) + view.obs_discard_size(obs)
            assert sum(view.obs_unseen(obs, r) for r in range(1, 15)) == n_cards - seen
            hand = [view.obs_hand_card(obs, k) for k in range(view.obs_hand_size(obs))]
            assert hand == sorted(hand) and view.obs_hand_size(obs) == 6


# --------------------------------------------------------------------------- hidden information


def state_at(seed, index, players, strategies, params, turn):
    """The kernel state of a game after ``turn`` turns (played by a run with max_turns=turn)."""
    resolved = SPEC.resolve_params(players, params | {"max_turns": turn})
    packed = pack_params(players, resolved)
    codes = SPEC.strategy_array(strategies)
    st, deck_rng, choice_rng, orders, offsets, script = kernel.new_work()
    row = np.zeros(SPEC.layout(players).width, np.int64)
    kernel.play_one(np.uint64(seed), index, players, packed, codes, st, deck_rng, choice_rng, orders, offsets,
                    script, row, None, None)
    return st


def redeal_hidden(st, players, seat, rng):
    """The same state with the other seats' hands and the draw pile dealt again from the
    cards they hold together (hand sizes kept, hands sorted)."""
    st = st.copy()
    hands = {s: rules.O_HAND + rules.HAND_SLOTS * s for s in range(players) if s != seat}
    sizes = {s: int(st[rules.O_HAND_N + s]) for s in hands}
    lo, hi = int(st[rules.S_DRAWN]), int(st[rules.S_PILE_N])
    hidden = [int(c) for s, b in hands.items() for c in st[b : b + sizes[s]]]
    hidden += st[rules.O_PILE + lo : rules.O_PILE + hi].tolist()
    rng.shuffle(hidden)
    k = 0
    for s, b in hands.items():
        st[b : b + sizes[s]] = sorted(hidden[k : k + sizes[s]])
        k += sizes[s]
    st[rules.O_PILE + lo : rules.O_PILE + hi] = hidden[k:]
    return st


@pytest.mark.parametrize("players,params", [(4, {}), (4, {"teams": "pairs"}), (3, {"decks": 2})])
def test_observation_does_not_change_when_hidden_cards_are_dealt_again(players, params):
    rng = np.random.default_rng(7)
    strategies = seat_strategies(players, ("greedy", "random"))
    changed_elsewhere = 0
    for turn in (1, 17, 90, 211, 400):
        st = state_at(SEED, 3, players, strategies, params, turn)
        seat = turn % players
        obs = np.zeros(view.OBS_SIZE, np.int64)
        again = np.zeros(view.OBS_SIZE, np.int64)
        view.observe(st, seat, view.DECISION_PLAY, obs)
        other = redeal_hidden(st, players, seat, rng)
        view.observe(other, seat, view.DECISION_PLAY, again)
        assert obs.tolist() == again.tolist(), turn
        # the re-deal did change what another seat sees (so this test can fail)
        neighbour = (seat + 1) % players
        view.observe(st, neighbour, view.DECISION_PLAY, obs)
        view.observe(other, neighbour, view.DECISION_PLAY, again)
        changed_elsewhere += obs.tolist() != again.tolist()
    assert changed_elsewhere >= 4


@pytest.mark.parametrize("players,params", [(4, {}), (6, {"teams": "two"}), (2, {"decks": 2})])
def test_observe_again_updates_a_buffer_to_observe(players, params):
    """The user path's ``observe_again`` (a buffer holding an earlier decision's observation of
    the same game) gives ``observe``'s every entry, through reshuffles (the discard pile
    shrinking) and seats taking turns. The states come from runs cut at each turn: their
    ``max_turns`` is set back to one value, as in one game."""
    strategies = seat_strategies(players, ("greedy", "random", "aggressive"))
    buffer = np.zeros(view.OBS_SIZE, np.int64)
    full = np.zeros(view.OBS_SIZE, np.int64)
    shrank = 0
    for turn in range(1, 300, 2):
        st = state_at(SEED, 5, players, strategies, params, turn)
        st[rules.S_MAX_TURNS] = 20000
        seat, kind = turn % players, int(turn % 3 == 0)
        view.observe(st, seat, kind, full)
        if turn == 1:
            view.observe(st, seat, kind, buffer)
        else:
            shrank += view.obs_discard_size(buffer) > st[rules.S_DISC_N]
            view.observe_again(st, seat, kind, buffer)
        assert buffer.tolist() == full.tolist(), turn
    assert shrank > 0


# --------------------------------------------------------------------------- plain Python

PLAIN_REPLAY = """
import json, sys
import numpy as np
import importlib.util
spec = importlib.util.spec_from_file_location("ex", sys.argv[1])
ex = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ex)
data = np.load(sys.argv[2])
z = np.zeros(0)
got = []
for k in range(data["n"].shape[0]):
    fn = ex.choose if data["greedy"][k] else ex.choose_aggressive
    got.append(int(fn(data["obs"][k], data["legal"][k, : data["n"][k]], z, z, z)))
print(json.dumps(got))
"""


def test_twins_in_plain_python(tmp_path):
    """The example runs as plain Python too (NUMBA_DISABLE_JIT=1) and chooses the same."""
    rows = []
    for _seed, _index, _players, strategies, _params, decisions in GAMES[:4]:
        for d in decisions[::4]:
            if strategies[d.seat] in TWINS:
                rows.append((strategies[d.seat] == "greedy", d))
    rows = rows[:300]
    width = max(len(d.legal) for _g, d in rows)
    legal = np.zeros((len(rows), width), np.int64)
    for k, (_g, d) in enumerate(rows):
        legal[k, : len(d.legal)] = d.legal
    path = tmp_path / "decisions.npz"
    np.savez(path, obs=np.array([d.obs for _g, d in rows]), legal=legal,
             n=np.array([len(d.legal) for _g, d in rows]), greedy=np.array([g for g, _d in rows]))
    env = os.environ | {"NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", PLAIN_REPLAY, str(ROOT / "montecards" / "strategies" / "marbles_greedy.py"),
         str(path)], env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [d.choice for _g, d in rows]

"""Wig Out!'s decision interface (montecards/games/wigout/view.py) against the built-ins.

Over many seeded games (2-6 players, mixed strategies, rule variants) every logged decision
has a legal choice, the log agrees with the trace, the built-ins' interface twins (written only
over ``obs`` and ``legal``: montecards/strategies/wigout_*.py, examples/strategies/wigout_singles_first.py) choose exactly what the kernel
chose, ``random``'s draw is a uniform draw over ``legal`` from the game's choice stream, and the
observation does not change when the hidden cards are re-dealt.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numba
import numpy as np
import pytest

from montecards.engine.user_strategies import load_module
from montecards.engine.decisions import NO_CHOICE
from montecards.games import wigout
from montecards.games.wigout import kernel, rules, view
from montecards.games.wigout.game import SPEC, pack_params
from montecards.rng import seed_stream

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "strategies"
TWINS_DIR = Path(__file__).resolve().parent.parent / "montecards" / "strategies"


def _load(name):
    folder = EXAMPLES if name == "singles_first" else TWINS_DIR
    return load_module(folder / f"wigout_{name}.py").choose  # as the strategy loader imports it


TWINS = {name: _load(name) for name in ("greedy", "singles_first", "random")}
COMPILED = {name: numba.njit(f) for name, f in TWINS.items()}
STRATEGIES = ("greedy", "singles_first", "random")


def _configs():
    """(players, strategies, params, seed, index): 30 configurations x 3 games."""
    out = []
    for players in range(2, 7):
        mixes = [
            [STRATEGIES[(players + s) % 3] for s in range(players)],
            [STRATEGIES[(2 * s + players) % 3] for s in range(players)],
            ["greedy"] * (players - 1) + ["singles_first"],
        ]
        variants = [{}, {"characters": 14, "speed": [1.0 + 0.25 * (s == 0) for s in range(players)],
                         "deadlock_counts_as_round": False, "draw_time_factor": 2.0}]
        for m, mix in enumerate(mixes):
            for v, params in enumerate(variants):
                for index in range(3):
                    out.append((players, mix, params, 100 + 10 * m + v, index))
    return out


CONFIGS = _configs()


@pytest.fixture(scope="module")
def logged():
    """Every config's decisions and trace events."""
    games = []
    for players, mix, params, seed, index in CONFIGS:
        ds = wigout.decisions(seed, index, players, params, mix)
        events, _row = wigout.trace(seed, index, players, params, mix)
        games.append((players, mix, params, seed, index, ds, events))
    return games


def test_every_decision_has_a_legal_choice(logged):
    total = several = 0
    for players, _mix, _params, _seed, _index, ds, _events in logged:
        assert ds, "every game has decisions"
        for d in ds:
            n = d.legal.shape[0]
            assert 1 <= n <= view.MAX_LEGAL
            assert d.choice != NO_CHOICE and 0 <= d.choice < n
            assert 0 <= d.seat < players
            assert view.obs_kind(d.obs) == view.DECISION_PLAY and view.obs_seat(d.obs) == d.seat
            assert view.obs_players(d.obs) == players
            assert np.all(np.diff(d.legal) > 0), "legal order: move ids ascending"
            total += 1
            several += n > 1
    assert total > 10_000 and several > 1_000


def test_log_agrees_with_trace(logged):
    """The logged moves are the plays of the trace, in order (decision count = plays)."""
    for _players, _mix, _params, _seed, _index, ds, events in logged:
        plays = events[events["event"].isin(["start", "add"])]
        traced = list(zip(plays["seat"], plays["character"], plays["event"] == "add", strict=True))
        chosen = [(d.seat, int(view.move_character(d.move)), bool(view.is_add(d.move))) for d in ds]
        assert chosen == traced


def test_obs_rebuilds_legal_and_counts_every_card(logged):
    """What the seat sees is enough to list its legal moves, and every card is accounted for."""
    for players, _mix, _params, _seed, _index, ds, _events in logged:
        for d in ds[::7]:
            obs = d.obs
            chars = view.obs_characters(obs)
            legal = []
            for c in range(chars):
                if view.obs_held(obs, c) >= 2:
                    legal.append(int(view.start_move(c)))
                if view.obs_held(obs, c) >= 1 and view.obs_showing(obs, c):
                    legal.append(int(view.add_move(c)))
            assert legal == d.legal.tolist()
            held = sum(view.obs_held(obs, c) for c in range(chars))
            assert held == view.obs_own_hand_size(obs)
            on_table = sum(view.obs_on_table(obs, c) for c in range(chars))
            assert on_table == view.obs_table_cards(obs)
            hands = sum(view.obs_hand_size(obs, s) for s in range(players))
            assert hands + on_table + view.obs_draw_pile(obs) == chars * view.obs_copies(obs)
            assert all(view.obs_unseen(obs, c) >= 0 for c in range(chars))
            assert not obs[view.OBS_HAND_SIZES + players : view.OBS_POINTS].any()


@pytest.mark.parametrize("name", ["greedy", "singles_first"])
def test_interface_twins_choose_what_the_kernel_chose(logged, name):
    params = np.zeros(0, np.float64)
    memory = np.zeros(8, np.float64)
    rng = np.zeros(4, np.uint64)
    compiled, plain = COMPILED[name], TWINS[name]
    checked = 0
    for _players, mix, _params, _seed, _index, ds, _events in logged:
        for k, d in enumerate(ds):
            if mix[d.seat] != name:
                continue
            assert compiled(d.obs, d.legal, params, memory, rng) == d.choice
            if k % 5 == 0:  # plain Python too (the accessors are called through numba)
                assert plain(d.obs, d.legal, params, memory, rng) == d.choice
            checked += 1
    assert checked > 2_000


def test_random_draws_uniformly_over_legal(logged):
    """``random``'s internal draw is a draw over ``legal``: replaying the game's choice stream
    (one uniform per decision of a ``random`` seat, in order) through the twin ``floor(u * n)``
    gives every logged choice of the ``random`` seats."""
    params = np.zeros(0, np.float64)
    memory = np.zeros(8, np.float64)
    checked = 0
    for _players, mix, _params, seed, index, ds, _events in logged:
        if "random" not in mix:
            continue
        rng = np.zeros(4, np.uint64)
        seed_stream(rng, np.uint64(seed), index, kernel.CHOICE_STREAM)
        for d in ds:
            if mix[d.seat] == "random":
                assert COMPILED["random"](d.obs, d.legal, params, memory, rng) == d.choice
                checked += 1
    assert checked > 2_000


# --- the observation hides what it must -------------------------------------------------------

def _apply_random_events(g, players, deck_rng, rng, steps):
    """Random legal actions on a dealt state (a play, or a draw when the seat has none), stopped
    before anyone empties their hand."""
    legal = np.zeros(view.MAX_LEGAL, np.int64)
    for _ in range(steps):
        seat = int(rng.integers(players))
        n = view.legal_moves(g, seat, view.DECISION_PLAY, legal)
        if n > 0:
            move = legal[int(rng.integers(n))]
            if rules.hand_size(g, seat) > 1:
                rules.play_move(g, seat, move)
        elif rules.draw_pile_size(g) > 0:
            rules.draw_card(g, seat, deck_rng, True)


def _redeal_hidden(g, seat, players, rng):
    """Shuffle the other seats' hands and the draw pile together and deal them back (each other
    hand keeps its size, the draw pile its size): a state the seat cannot tell from ``g``."""
    chars = int(g[rules.CHARS])
    pool = []
    others = [s for s in range(players) if s != seat]
    for s in others:
        for c in range(chars):
            pool += [c] * int(rules.held(g, s, c))
    drawn, n = int(g[rules.DRAWN]), int(g[rules.DECK_N])
    pool += [int(c) for c in g[rules.DECK + drawn : rules.DECK + n]]
    pool = list(rng.permutation(pool))
    h = g.copy()
    for s in others:
        for c in range(chars):
            rules.set_held(h, s, c, 0)
        for _ in range(int(rules.hand_size(g, s))):
            c = pool.pop()
            rules.set_held(h, s, c, rules.held(h, s, c) + 1)
    h[rules.DECK + drawn : rules.DECK + n] = pool
    return h


def _dealt_state(players, params, rng):
    """A freshly dealt state from a random deck (the scripted deal: the deck in ``g``)."""
    resolved = SPEC.resolve_params(players, params)
    g = rules.new_state(players, pack_params(players, resolved))
    deck = rng.permutation(np.repeat(np.arange(resolved["characters"]), resolved["copies"]))
    g[rules.SCRIPTED] = 1
    g[rules.DECK : rules.DECK + deck.shape[0]] = deck
    deck_rng = np.zeros(4, np.uint64)
    rules.deal(g, deck_rng, True, np.zeros((0, rules.TRACE_WIDTH), np.float64))
    return g, deck_rng


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_obs_unchanged_when_hidden_cards_are_redealt(players):
    """The seat's obs is the same after the other hands and the draw pile are re-dealt; the
    same re-deal changes the obs of a seat whose hand it changed (so the check can fail)."""
    rng = np.random.default_rng(players)
    obs_a = np.zeros(view.OBS_SIZE, np.int64)
    obs_b = np.zeros(view.OBS_SIZE, np.int64)
    noticed = 0
    for trial in range(60):
        g, deck_rng = _dealt_state(players, {"characters": 12 + 2 * (trial % 2)}, rng)
        _apply_random_events(g, players, deck_rng, rng, int(rng.integers(0, 40)))
        seat = int(rng.integers(players))
        h = _redeal_hidden(g, seat, players, rng)
        view.observe(g, seat, view.DECISION_PLAY, obs_a)
        view.observe(h, seat, view.DECISION_PLAY, obs_b)
        assert np.array_equal(obs_a, obs_b)
        other = (seat + 1) % players
        view.observe(g, other, view.DECISION_PLAY, obs_a)
        view.observe(h, other, view.DECISION_PLAY, obs_b)
        noticed += not np.array_equal(obs_a, obs_b)
    assert noticed > 30


def test_decisions_replay_the_run_game():
    """``decisions`` plays the run's game: its row is the row ``run_chunk`` writes."""
    players, mix = 4, ["random", "greedy", "singles_first", "random"]
    resolved = SPEC.resolve_params(players, None)
    rows = np.zeros((3, SPEC.layout(players).width), np.int64)
    SPEC.run_chunk(np.uint64(7), 0, players, pack_params(players, resolved),
                   SPEC.strategy_array(mix), rows)
    for index in range(3):
        ds = wigout.decisions(7, index, players, None, mix)
        _events, row = wigout.trace(7, index, players, None, mix)
        assert np.array_equal(row, rows[index])
        assert len(ds) == int(row[kernel.COL_TURNS] - row[kernel.COL_DRAWS])


def test_documented_layout_and_move_ids():
    """The offsets and move ids docs/strategies/wigout.md promises to users."""
    assert (view.OBS_HAND_SIZES, view.OBS_POINTS, view.OBS_ROUNDS_WON) == (14, 20, 26)
    assert (view.OBS_HELD, view.OBS_ON_TABLE, view.OBS_SIZE, view.MAX_LEGAL) == (32, 92, 152, 120)
    assert view.start_move(5) == 10 and view.add_move(5) == 11
    assert view.move_character(11) == 5 and view.move_kind(11) == view.MOVE_ADD
    assert view.is_start(10) and not view.is_add(10)

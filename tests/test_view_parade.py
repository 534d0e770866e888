"""Parade's decision interface (montecards/games/parade/view.py, docs/strategies/parade.md).

The decision log of many seeded games (every strategy, 2-6 players): every logged choice is a
legal move and is the move the game played; the interface twin of ``greedy``
(montecards/strategies/parade_greedy.py), given only the logged observation and legal moves,
makes every logged greedy choice, compiled and in plain Python; ``random``'s draws are draws
over the legal list; and the observation hides the other hands and the deck order.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import montecards as mc
from montecards.engine.user_strategies import load_module
from montecards.engine.decisions import NO_CHOICE, choice_index
from montecards.games import parade
from montecards.games.parade import kernel, rules, strategies, view
from montecards.games.parade.cards import N_CARDS, N_COLOURS, card_id
from montecards.rng import bounded, new_state, seed_stream

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "montecards" / "strategies" / "parade_greedy.py"
SEED = 20261201


def load_example():
    return load_module(EXAMPLE)  # the strategy loader's module name: numba's cache expects it


greedy_twin = load_example()
NO_PARAMS = np.zeros(0, np.float64)
MEMORY = np.zeros(128, np.float64)  # the default memory size (the twin uses some as scratch)
RNG = new_state()


def twin_choice(d) -> int:
    return greedy_twin.choose(d.obs, d.legal, NO_PARAMS, MEMORY, RNG)

MIXES = {
    "greedy": lambda p: ["greedy"] * p,
    "random": lambda p: ["random"] * p,
    "mixed": lambda p: [("greedy", "random")[s % 2] for s in range(p)],
    "mixed_other": lambda p: [("random", "greedy")[s % 2] for s in range(p)],
}


def logged_games(games_per_case: int = 12):
    """(players, strategies, margin, index, decisions) for seeded games of every mix."""
    out = []
    for players in range(2, 7):
        for mix in MIXES.values():
            for margin in (0, 1, 2) if players == 2 else (2,):
                names = mix(players)
                for index in range(games_per_case):
                    params = {"two_player_margin": margin}
                    log = parade.decisions(SEED + players, index, players, params, names)
                    out.append((players, names, margin, index, log))
    return out


@pytest.fixture(scope="module")
def games():
    return logged_games()


def test_every_logged_choice_is_legal_and_is_the_move_played(games):
    n_decisions = 0
    for players, names, margin, index, log in games:
        events = mc.trace(
            "parade", seed=SEED + players, index=index, players=players, strategies=names,
            params={"two_player_margin": margin},
        )
        played = [card_id(c) for c in events.loc[events["event"] == "play", "card"]]
        plays = [d for d in log if view.obs_kind(d.obs) == view.DECISION_PLAY]
        discards = [d for d in log if view.obs_kind(d.obs) == view.DECISION_DISCARD]
        assert len(plays) == len(played) and len(discards) == players
        for d in log:
            assert d.choice != NO_CHOICE and 0 <= d.choice < len(d.legal)
            assert len(set(d.legal.tolist())) == len(d.legal) <= view.MAX_LEGAL
            assert view.obs_seat(d.obs) == d.seat and view.obs_players(d.obs) == players
            assert all(view.move_kind(m) == view.obs_kind(d.obs) for m in d.legal)
        for turn, d in enumerate(plays):
            assert d.seat == turn % players
            assert view.obs_turns(d.obs) == turn
            assert view.move_card(d.move) == played[turn]
            hand = [view.obs_hand_card(d.obs, k) for k in range(view.obs_hand_size(d.obs))]
            assert [view.move_card(m) for m in d.legal] == hand
        for s, d in enumerate(discards):
            assert d.seat == s
            gone = {view.discard_low(d.move), view.discard_high(d.move)}
            seat_events = events[events["seat"] == s]
            assert gone == {card_id(c) for c in seat_events.loc[seat_events["event"] == "discard", "card"]}
        n_decisions += len(log)
    assert n_decisions > 10_000


def greedy_decisions(games):
    return [
        d for _, names, _, _, log in games for d in log if names[d.seat] == "greedy"
    ]


def test_greedy_twin_compiled_makes_every_logged_greedy_choice(games):
    decisions = greedy_decisions(games)
    assert len(decisions) > 5_000
    assert sum(view.obs_kind(d.obs) == view.DECISION_DISCARD for d in decisions) > 300
    for d in decisions:
        assert twin_choice(d) == d.choice, d


def test_greedy_twin_in_plain_python_makes_the_logged_choices(games, tmp_path):
    """The same twin with numba's JIT disabled (a subprocess), on a sample of decisions."""
    decisions = greedy_decisions(games)[::7]
    np.savez(
        tmp_path / "log.npz",
        obs=np.array([d.obs for d in decisions]),
        legal=np.array([np.pad(d.legal, (0, view.MAX_LEGAL - len(d.legal))) for d in decisions]),
        n_legal=np.array([len(d.legal) for d in decisions]),
        choices=np.array([d.choice for d in decisions]),
    )
    script = f"""
import importlib.util, json, sys
import numpy as np
spec = importlib.util.spec_from_file_location("twin", {str(EXAMPLE)!r})
twin = importlib.util.module_from_spec(spec); spec.loader.exec_module(twin)
import numba
assert numba.config.DISABLE_JIT and not hasattr(twin.choose, "py_func")
log = np.load({str(tmp_path / "log.npz")!r})
got = [twin.choose(o, l[:n], None, np.zeros(128), None) for o, l, n in zip(log["obs"], log["legal"], log["n_legal"])]
print(json.dumps([int(g) for g in got]))
"""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [d.choice for d in decisions]


def test_random_draws_are_draws_over_the_legal_list(games):
    """``random`` draws its index from the seat's choice stream over exactly the legal list:
    replaying the stream with ``bounded(rng, len(legal))`` at every random seat's decision
    (greedy draws nothing) gives every logged random choice."""
    checked = 0
    for players, names, _margin, index, log in games:
        rng = new_state()
        seed_stream(rng, np.uint64(SEED + players), index, kernel.CHOICE_STREAM)
        for d in log:
            if names[d.seat] == "random":
                assert bounded(rng, len(d.legal)) == d.choice
                checked += 1
    assert checked > 5_000


def test_rollout_games_log_legal_choices():
    for players, index in ((2, 0), (3, 1)):
        names = ["rollout"] + ["greedy"] * (players - 1)
        log = parade.decisions(SEED, index, players, None, names)
        assert len(log) > 20
        for d in log:
            assert 0 <= d.choice < len(d.legal)
            if names[d.seat] == "greedy":
                assert twin_choice(d) == d.choice


def test_final_discards_are_simultaneous(games):
    """Every seat's discard observation shows the collections before any final discard."""
    for *_, log in games:
        discards = [d for d in log if view.obs_kind(d.obs) == view.DECISION_DISCARD]
        first = discards[0].obs
        public = slice(view.OBS_PARADE_N, view.OBS_UNSEEN_N)
        for d in discards:
            assert np.array_equal(d.obs[public], first[public])
            assert view.obs_hand_size(d.obs) == 4 and view.obs_turns_left(d.obs) == 0


def unseen_places(g, seat: int) -> list[int]:
    """The state offsets of the cards ``seat`` cannot see: the draw pile and the other hands."""
    places = list(range(rules.DECK + g[rules.DRAWN], rules.DECK + N_CARDS))
    for other in range(g[rules.PLAYERS]):
        if other != seat:
            places += [int(rules.hand_at(other, k)) for k in range(g[rules.HAND_N + other])]
    return places


def play_random_turns(seed: int, players: int, turns: int):
    """A game state after ``turns`` random turns (or at its end), the seat to move, and whether
    the game is over (the seats then hold their final hands)."""
    g = rules.new_state()
    deck_rng, choice_rng = new_state(), new_state()
    seed_stream(deck_rng, np.uint64(seed), 0, 0)
    seed_stream(choice_rng, np.uint64(seed), 0, 1)
    no_trace = np.zeros((0, 4), np.int64)
    rules.set_up(g, players, 2, deck_rng, True, no_trace)
    seat = 0
    for _ in range(turns):
        rules.play_card(g, seat, bounded(choice_rng, g[rules.HAND_N + seat]), no_trace)
        done = rules.finish_turn(g, seat, deck_rng, True, no_trace)
        seat = (seat + 1) % players
        if done:
            return g, seat, True
    return g, seat, False


@pytest.mark.parametrize("players", range(2, 7))
def test_observation_is_blind_to_other_hands_and_the_deck_order(players):
    """Re-dealing the cards a seat cannot see (draw pile and other hands, as ``rollout``'s
    determinization does) leaves its observation and legal moves unchanged, at play and at
    discard decisions; swapping one of its own hand cards with an unseen one changes them
    (so the test can fail)."""
    obs, again = np.zeros(view.OBS_SIZE, np.int64), np.zeros(view.OBS_SIZE, np.int64)
    legal, legal_again = np.zeros(view.MAX_LEGAL, np.int64), np.zeros(view.MAX_LEGAL, np.int64)
    unseen = np.zeros(N_CARDS, np.int64)
    redeal_rng = new_state()
    checked = 0
    for case in range(40):
        g, seat, over = play_random_turns(100 * players + case, players, turns=case * 3 % 70)
        kind = view.DECISION_DISCARD if over else view.DECISION_PLAY
        for s in range(players) if over else (seat,):
            view.observe(g, s, kind, obs)
            n = view.legal_moves(g, s, kind, legal)
            seed_stream(redeal_rng, np.uint64(case), s, 7)
            redealt = g.copy()
            strategies.determinize(redealt, s, redeal_rng, unseen)
            if not np.array_equal(redealt, g):
                checked += 1
            view.observe(redealt, s, kind, again)
            assert np.array_equal(obs, again)
            assert view.legal_moves(redealt, s, kind, legal_again) == n
            assert np.array_equal(legal[:n], legal_again[:n])
            # control: one of the seat's own cards swapped with an unseen one is seen
            places = unseen_places(g, s)
            assert sorted(g[places].tolist()) == [c for c in range(N_CARDS) if view.obs_unseen(obs, c)]
            swapped = g.copy()
            mine = int(rules.hand_at(s, 0))
            swapped[places[0]], swapped[mine] = g[mine], g[places[0]]
            view.observe(swapped, s, kind, again)
            assert not np.array_equal(obs, again)
    assert checked >= 40


def test_observation_counts_every_card_once():
    """Hand + parade + collections + unseen = the 66 cards, and nothing else is shown."""
    for players in range(2, 7):
        for case in range(10):
            g, seat, over = play_random_turns(7 * players + case, players, turns=case * 5)
            obs = np.zeros(view.OBS_SIZE, np.int64)
            view.observe(g, seat, view.DECISION_DISCARD if over else view.DECISION_PLAY, obs)
            collected = sum(
                view.obs_collection_size(obs, s) for s in range(view.obs_players(obs))
            )
            total = view.obs_hand_size(obs) + view.obs_parade_size(obs) + collected
            assert total + view.obs_unseen_count(obs) == N_CARDS
            assert view.obs_unseen_count(obs) == obs[view.OBS_UNSEEN :].sum()
            shown = [view.obs_hand_card(obs, k) for k in range(view.obs_hand_size(obs))]
            shown += [view.obs_parade_card(obs, i) for i in range(view.obs_parade_size(obs))]
            assert not any(view.obs_unseen(obs, c) for c in shown)
            for colour in range(N_COLOURS):
                best = max(
                    [view.obs_collection_count(obs, s, colour) for s in range(players) if s != seat]
                )
                assert view.obs_best_other_count(obs, colour) == best


def test_move_ids_encode_and_decode():
    for a in range(N_CARDS):
        assert view.move_kind(view.play_move(a)) == view.DECISION_PLAY
        assert view.move_card(view.play_move(a)) == a
        for b in range(N_CARDS):
            if a != b:
                m = view.discard_move(a, b)
                assert m == view.discard_move(b, a)
                assert view.move_kind(m) == view.DECISION_DISCARD
                assert (view.discard_low(m), view.discard_high(m)) == (min(a, b), max(a, b))
    legal = np.array([3, 9, 27], np.int64)
    assert choice_index(legal, 3, 9) == 1 and choice_index(legal, 3, 4) == NO_CHOICE


DOC = ROOT / "docs" / "strategies" / "parade.md"


def test_documented_offsets_are_the_views():
    text = DOC.read_text()
    rows = re.findall(r"`(OBS_[A-Z_]+)[^`]*` \((\d+)(?:\.\.(\d+))?\)", text)
    assert {name for name, _, _ in rows} == {n for n in dir(view) if n.startswith("OBS_")} - {"OBS_SIZE"}
    starts = sorted(int(first) for _, first, _ in rows) + [view.OBS_SIZE]
    for name, first, last in rows:
        assert getattr(view, name) == int(first), name
        following = starts[starts.index(int(first)) + 1]
        assert int(last or first) == following - 1, name  # the table leaves no entry out
    assert f"`view.OBS_SIZE` ({view.OBS_SIZE})" in text and f"`view.MAX_LEGAL` ({view.MAX_LEGAL})" in text


def test_documented_example_makes_legal_choices():
    example = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)[1]
    namespace: dict = {}
    exec(example, namespace)
    for d in parade.decisions(SEED, 0, 3, None, ["greedy", "random", "greedy"]):
        assert 0 <= namespace["choose"](d.obs, d.legal, NO_PARAMS, MEMORY, RNG) < len(d.legal)

"""Wig Out!: the kernel against the naive oracle, game by game, plus the rules' properties.

The oracle (tests/naive/wigout.py) was written from the rules page by someone else; it replays
the kernel's own inputs (each deal's deck, every (actor, waiting time), the ``random`` seats'
uniforms), taken from the kernel's trace, and must reach the same points, rounds won, deadlocks,
draws and actions as the row ``run_chunk`` wrote for that game.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from montecards.engine.spec import WIN_UNIT, InputError
from montecards.games import get, names, wigout
from montecards.games.wigout import SPEC
from montecards.games.wigout.kernel import MAX_DEALS_PER_ROUND

try:
    from tests.naive import wigout as naive
except ImportError:  # pragma: no cover - when tests/ itself is on sys.path
    from naive import wigout as naive

STRATEGIES = ("greedy", "singles_first", "random")


def run(players, strategies="greedy", params=None, n=1000, seed=1, start=0):
    resolved = SPEC.resolve_params(players, params)
    rows = np.zeros((n, SPEC.layout(players).width), dtype=np.int64)
    SPEC.run_chunk(
        np.uint64(seed), start, players, SPEC.pack_params(players, resolved),
        SPEC.strategy_array(SPEC.strategy_codes(players, strategies)), rows,
    )
    return rows


def col(rows, players, name):
    layout = SPEC.layout(players)
    if name in layout.game_columns:
        return rows[:, layout.column(name)]
    return rows[:, layout.seat_slice(name)]


def test_registered():
    assert "wigout" in names()
    assert get("wigout") is SPEC
    assert SPEC.default_players == 4 and SPEC.default_strategy == "greedy"
    assert SPEC.layout(4).columns[:4] == ["turns", "unfinished", "deadlocks", "draws"]
    assert "rounds_won_3" in SPEC.layout(4).columns


# --- the kernel against the oracle -------------------------------------------------------------

def _configs():
    """40 run configurations x 50 games = 2,000 games over 2-6 players and strategy mixes."""
    configs = []
    for players in range(2, 7):
        mixes = [
            ["greedy"] * players,
            ["singles_first"] * players,
            ["random"] * players,
            [STRATEGIES[(players + s) % 3] for s in range(players)],
        ]
        for k, mix in enumerate(mixes):
            configs.append((players, mix, {}))
            variant = {
                "speed": [1.0 + 0.25 * (s == k % players) + 0.1 * (s == players - 1)
                          for s in range(players)],
                "draw_time_factor": (2.0, 0.5, 1.0, 3.0)[k],
                "deadlock_counts_as_round": k % 2 == 0,
            }
            if k == 1:
                variant["characters"] = 14
            if k == 2:
                variant["hand_size"] = 6 if players <= 4 else 4
            if k == 3:
                variant["rounds"] = 3
            configs.append((players, mix, variant))
    return configs


def _oracle(inputs, players, strategies, params):
    resolved = SPEC.resolve_params(players, params)
    return naive.replay(
        inputs["round_decks"], players, inputs["events"], strategies,
        random_choices=inputs["random_choices"], max_deals=resolved["rounds"] * MAX_DEALS_PER_ROUND,
        **resolved,
    )


ORACLE_KEYS = ("points", "rounds_won", "deadlocks", "draws", "actions", "unfinished", "win_share")


def _oracle_summary(job):
    """The oracle's outcome of one game (only the compared keys)."""
    inputs, players, strategies, params = job
    ref = _oracle(inputs, players, strategies, params)
    return {key: ref[key] for key in ORACLE_KEYS}


def test_kernel_matches_oracle_game_by_game():
    jobs = []
    expected = []
    for c, (players, strategies, params) in enumerate(_configs()):
        rows = run(players, strategies, params, n=50, seed=1000 + c)
        for g in range(rows.shape[0]):
            inputs = wigout.scripted_inputs(1000 + c, g, players, params, strategies)
            assert rows[g, 0] == len(inputs["events"])
            jobs.append((inputs, players, strategies, params))
            expected.append((f"config {c} ({players}p {strategies} {params}) game {g}", rows[g]))
    assert len(jobs) >= 2000
    deadlocks = 0
    for (where, row), ref in zip(expected, map(_oracle_summary, jobs), strict=True):
        players = len(ref["points"])
        assert col(row[None], players, "score")[0].tolist() == ref["points"], where
        assert col(row[None], players, "rounds_won")[0].tolist() == ref["rounds_won"], where
        assert row[2] == ref["deadlocks"] and row[3] == ref["draws"], where
        assert row[0] == ref["actions"], where
        assert row[1] == int(ref["unfinished"]), where
        shares = (col(row[None], players, "win")[0] / WIN_UNIT).tolist()
        assert shares == pytest.approx(ref["win_share"]), where
        deadlocks += ref["deadlocks"]
    assert deadlocks > 0  # the comparison covered deadlocked deals too


def test_scripted_entry_point_matches_oracle():
    for c, (players, strategies, params) in enumerate(_configs()[::3]):
        for g in range(3):
            inputs = wigout.scripted_inputs(77, g, players, params, strategies)
            out = wigout.play_scripted(inputs["round_decks"], players, inputs["events"],
                                       strategies, params, inputs["random_choices"])
            ref = _oracle(inputs, players, strategies, params)
            for key in ("points", "rounds_won", "deadlocks", "draws", "actions", "deals",
                        "unfinished"):
                assert out[key] == ref[key], (c, g, key)
            assert out["win_share"] == pytest.approx(ref["win_share"])
            assert out["time"] == pytest.approx(ref["time"])
            _, row = wigout.trace(77, g, players, params, strategies)
            assert out["turns"] == row[0]


def test_play_scripted_replays_script_from_trace():
    """``play_scripted(**script_from_trace(events, ...))`` replays the traced game: the same row
    (points, rounds won, win shares, deadlocks, draws, actions) and the same events."""
    for c, (players, strategies, params) in enumerate(_configs()[::4]):
        for g in range(2):
            events, row = wigout.trace(55, g, players, params, strategies)
            out = wigout.play_scripted(**wigout.script_from_trace(events, players, strategies, params))
            assert out["points"] == col(row[None], players, "score")[0].tolist(), (c, g)
            assert out["rounds_won"] == col(row[None], players, "rounds_won")[0].tolist(), (c, g)
            assert out["win_share"] == (col(row[None], players, "win")[0] / WIN_UNIT).tolist()
            assert (out["turns"], out["deadlocks"], out["draws"]) == (row[0], row[2], row[3])
            assert out["events"].equals(events)
            inputs = wigout.scripted_inputs(55, g, players, params, strategies)
            script = wigout.script_from_trace(events, players, strategies, params)
            assert {k: script[k] for k in inputs} == inputs


# --- the rules page's scenarios, scripted ------------------------------------------------------

SMALL = {"characters": 4, "copies": 3, "hand_size": 4, "rounds": 1}
# hands [2,2,3,3] and [2,3,0,1], starters 0 and 1, draw pile [0, 1]
SCENARIO_DECK = [2, 2, 3, 3, 2, 3, 0, 1, 0, 1, 0, 1]
SCENARIO_EVENTS = [(1, 0.5), (1, 0.25), (1, 1.0), (1, 0.125), (1, 2.0), (1, 0.5),
                   (0, 0.25), (1, 1.5), (0, 0.375)]


def test_scenario_start_add_draw_wait_wigout():
    out = wigout.play_scripted([SCENARIO_DECK], 2, SCENARIO_EVENTS, "greedy", SMALL)
    ev = out["events"]
    acts = ev[ev["event"].isin(["start", "add", "draw"])]
    assert list(zip(acts["seat"], acts["event"], acts["character"])) == [
        (1, "add", 0), (1, "add", 1), (1, "draw", 0), (1, "add", 0), (1, "draw", 1),
        (1, "add", 1), (0, "start", 2), (1, "add", 2), (0, "start", 3),
    ]
    assert acts["cards"].tolist() == [1, 1, 1, 1, 1, 1, 2, 1, 2]
    assert acts["time"].iloc[-1] == pytest.approx(sum(t for _, t in SCENARIO_EVENTS))
    assert out["points"] == [0, 1] and out["rounds_won"] == [1, 0]
    assert out["win_share"] == [1.0, 0.0]
    assert out["turns"] == 9 and out["draws"] == 2 and out["deadlocks"] == 0
    assert ev["event"].iloc[-1] == "wig_out" and ev["seat"].iloc[-1] == 0
    # seat 1 waits (empty draw pile, no play) until seat 0's pile of 2s gives it a play
    bad = SCENARIO_EVENTS[:6] + [(1, 0.25)]
    with pytest.raises(ValueError, match="cannot act"):
        wigout.play_scripted([SCENARIO_DECK], 2, bad, "greedy", SMALL)


def test_stacked_starters_and_random_choice():
    deck = [3, 0, 0, 0, 1, 2, 3, 3, 1, 1, 2, 2]  # starters 3 and 3: one pile of two
    p = {"characters": 4, "copies": 3, "hand_size": 3, "rounds": 1}
    out = wigout.play_scripted([deck], 2, [(0, 1.0), (0, 1.0)], "greedy", p)
    ev = out["events"]
    assert "one pile of two 3s" in ev["detail"].iloc[0]
    assert ev["table"].tolist()[1:3] == [4, 5]
    # random seat 1 with plays [add 0, add 1] (starters 0, 1): u = 0.7 -> add 1
    out = wigout.play_scripted([SCENARIO_DECK], 2, [(1, 1.0), (0, 1.0), (0, 1.0)],
                               ["greedy", "random"], SMALL, random_choices=[0.7])
    acts = out["events"]
    assert (acts["event"].iloc[1], acts["character"].iloc[1], acts["choice"].iloc[1]) == ("add", 1, 0.7)
    assert out["points"] == [0, 3]
    for choices, message in (([], "too few random choices"), ([0.7, 0.1], "too many random")):
        with pytest.raises(ValueError, match=message):
            wigout.play_scripted([SCENARIO_DECK], 2, [(1, 1.0), (0, 1.0), (0, 1.0)],
                                 ["greedy", "random"], SMALL, random_choices=choices)


def test_deadlock_scripted_and_uncounted_deadlock_redealt():
    stuck = [1, 2, 3, 1, 2, 3, 0, 0]  # empty draw pile, nobody can play: deadlock at once
    p = {"characters": 4, "copies": 2, "hand_size": 3, "rounds": 1}
    out = wigout.play_scripted([stuck], 2, [], "greedy", p)
    assert out["deadlocks"] == 1 and out["turns"] == 0 and out["win_share"] == [0.5, 0.5]
    good = [1, 1, 0, 2, 3, 3, 0, 2]
    p["deadlock_counts_as_round"] = False
    with pytest.raises(ValueError, match="too few round decks"):
        wigout.play_scripted([stuck], 2, [], "greedy", p)
    out = wigout.play_scripted([stuck, good], 2, [(0, 1.0), (0, 1.0)], "greedy", p)
    assert out["deadlocks"] == 1 and out["deals"] == 2 and out["points"] == [0, 3]
    p["deadlock_counts_as_round"] = True
    with pytest.raises(ValueError, match="too many round decks"):
        wigout.play_scripted([stuck, good], 2, [(0, 1.0), (0, 1.0)], "greedy", p)


def test_illegal_scripts_raise_value_error():
    ok = ([SCENARIO_DECK], 2, SCENARIO_EVENTS, "greedy", SMALL)
    wigout.play_scripted(*ok)
    cases = [
        (([SCENARIO_DECK[:-1] + [0]],), "copies"),
        (([SCENARIO_DECK[:-1]],), "12 cards"),
        (([[9] + SCENARIO_DECK[1:]],), "not a character"),
    ]
    for (decks,), message in cases:
        with pytest.raises(ValueError, match=message):
            wigout.play_scripted(decks, 2, SCENARIO_EVENTS, "greedy", SMALL)
    for events, message in (
        ([(2, 1.0)], "not a seat"),
        ([(0, -1.0)], "waiting time"),
        ([(0, float("nan"))], "waiting time"),
        ([0.5], "not \\(actor, waiting_time\\)"),
        (SCENARIO_EVENTS[:-1], "too few events"),
        (SCENARIO_EVENTS + [(0, 1.0)], "too many events"),
    ):
        with pytest.raises(ValueError, match=message):
            wigout.play_scripted([SCENARIO_DECK], 2, events, "greedy", SMALL)
    with pytest.raises(ValueError, match="uniform"):
        wigout.play_scripted([SCENARIO_DECK], 2, SCENARIO_EVENTS, "random", SMALL, [1.0])
    with pytest.raises(ValueError, match="strategy"):
        wigout.play_scripted([SCENARIO_DECK], 2, SCENARIO_EVENTS, "clever", SMALL)
    with pytest.raises(ValueError, match="players"):
        wigout.play_scripted([SCENARIO_DECK], 7, SCENARIO_EVENTS, "greedy", SMALL)


# --- properties of whole runs ------------------------------------------------------------------

def test_no_deadlock_with_two_to_four_players():
    for players in (2, 3, 4):
        for strategy in STRATEGIES:
            rows = run(players, strategy, n=4000, seed=players)
            assert col(rows, players, "deadlocks").sum() == 0
            assert (col(rows, players, "rounds_won").sum(axis=1) == 5).all()
            assert (col(rows, players, "unfinished") == 0).all()


def test_deadlocks_occur_with_five_and_six_players():
    for players in (5, 6):
        rows = run(players, "greedy", n=4000, seed=players)
        rate = col(rows, players, "deadlocks").sum() / (5 * rows.shape[0])
        assert 0.05 < rate < 0.35  # the rules page: roughly one round in six with greedy
        won = col(rows, players, "rounds_won").sum(axis=1)
        assert (won + col(rows, players, "deadlocks") == 5).all()
        # uncounted deadlocks are dealt again: every game still has 5 rounds won
        rows = run(players, "random", {"deadlock_counts_as_round": False}, n=1000, seed=9)
        assert (col(rows, players, "rounds_won").sum(axis=1) == 5).all()
        assert col(rows, players, "deadlocks").sum() > 0


def test_deal_cap_marks_game_unfinished():
    params = {"characters": 20, "copies": 1, "hand_size": 3, "rounds": 2,
              "deadlock_counts_as_round": False}
    rows = run(2, "greedy", params, n=20)
    assert (col(rows, 2, "unfinished") == 1).all()
    assert (col(rows, 2, "deadlocks") == 2 * MAX_DEALS_PER_ROUND).all()
    assert (col(rows, 2, "win") == 0).all()


def test_card_conservation_in_traces():
    for g in range(30):
        players = 2 + g % 5
        strategies = [STRATEGIES[(g + s) % 3] for s in range(players)]
        params = {"draw_time_factor": 1.5} if g % 2 else {}
        events, row = wigout.trace(3, g, players, params, strategies)
        resolved = SPEC.resolve_params(players, params)
        n = resolved["characters"] * resolved["copies"]
        hand = resolved["hand_size"]
        score = [0] * players
        for _deal, ev in events.groupby("deal", sort=True):
            first = ev.iloc[0]
            assert first["event"] == "deal"
            deck = [int(x) for x in first["detail"].split("deck: ")[1].split()]
            assert sorted(deck) == sorted(list(range(resolved["characters"])) * resolved["copies"])
            sizes = [hand] * players
            assert players * hand + first["table"] + first["draw_pile"] == n
            for e in ev.iloc[1:].itertuples():
                if e.event in ("start", "add", "draw"):
                    before = sizes[e.seat]
                    sizes[e.seat] = e.hand
                    assert e.hand == before + (1 if e.event == "draw" else -e.cards)
                    assert e.cards >= (2 if e.event == "start" else 1)
                assert sum(sizes) + e.table + e.draw_pile == n, (g, e)
            last = ev.iloc[-1]
            assert last["event"] in ("wig_out", "deadlock")
            if last["event"] == "wig_out":
                assert sizes[last["seat"]] == 0
                for s in range(players):
                    score[s] += sizes[s]
        assert col(row[None], players, "score")[0].tolist() == score


def test_equal_speeds_give_symmetric_seats():
    n = 20_000
    for players, strategy in ((4, "greedy"), (6, "random"), (3, "singles_first")):
        rows = run(players, strategy, n=n, seed=11)
        share = col(rows, players, "win").sum(axis=0) / (WIN_UNIT * n)
        assert share.sum() == pytest.approx(1.0, abs=1e-3)
        half = 4.5 * math.sqrt(share.mean() * (1 - share.mean()) / n)
        assert (abs(share - 1 / players) < half).all(), share
        score = col(rows, players, "score").astype(float)
        spread = 4.5 * score.std(axis=0).max() / math.sqrt(n)
        assert (abs(score.mean(axis=0) - score.mean()) < spread).all()
        won = col(rows, players, "rounds_won").mean(axis=0)
        assert (abs(won - won.mean()) < 4.5 * col(rows, players, "rounds_won").std() / math.sqrt(n)).all()


def test_speed_edge_helps():
    rows = run(4, "greedy", {"speed": [1.25, 1, 1, 1]}, n=5000, seed=5)
    share = col(rows, 4, "win").sum(axis=0) / (WIN_UNIT * 5000)
    assert share[0] > 0.27 and share[0] > share[1:].max()


def test_determinism_chunks_trace_and_common_decks():
    whole = run(5, ["random", "greedy", "singles_first", "random", "greedy"], n=700, seed=42)
    again = run(5, ["random", "greedy", "singles_first", "random", "greedy"], n=700, seed=42)
    assert (whole == again).all()
    first = run(5, ["random", "greedy", "singles_first", "random", "greedy"], n=300, seed=42)
    rest = run(5, ["random", "greedy", "singles_first", "random", "greedy"], n=400, seed=42,
               start=300)
    assert (np.vstack([first, rest]) == whole).all()
    for g in (0, 299, 650):
        _, row = wigout.trace(42, g, 5, None, ["random", "greedy", "singles_first", "random",
                                                "greedy"])
        assert (row == whole[g]).all()
    # each deal has its own deck stream: the same first deck whatever the strategies
    decks = [wigout.scripted_inputs(42, 3, 4, None, s)["round_decks"][0] for s in STRATEGIES]
    assert decks[0] == decks[1] == decks[2]


def test_a_trace_that_overflows_its_buffer_raises_or_is_played_again(monkeypatch):
    """``engine/trace.py``'s rule: events beyond the buffer are counted, and reading the
    buffer raises (never a silently cut trace); ``trace`` then plays the game again with a
    larger buffer and gives the very same events."""
    from montecards.engine.trace import TraceOverflowError, events_of
    from montecards.games.wigout import game, kernel, rules

    strategies = ["random", "greedy", "singles_first", "random"]
    events, row = wigout.trace(42, 7, 4, None, strategies)
    packed = SPEC.pack_params(4, SPEC.resolve_params(4, None))
    codes = SPEC.strategy_array(SPEC.strategy_codes(4, strategies))
    small = np.zeros((11, rules.TRACE_WIDTH), np.float64)
    kernel.trace_one(np.uint64(42), 7, 4, packed, codes, np.zeros_like(row), small, None, None,
                     SPEC.every_option)
    assert small[0, 0] > 10
    with pytest.raises(TraceOverflowError, match="more than its trace buffer's 10"):
        events_of(small)
    made = []

    def tiny_first(players, params):
        made.append(players)
        return np.zeros((11, rules.TRACE_WIDTH), np.float64)

    import dataclasses

    monkeypatch.setattr(game, "SPEC", dataclasses.replace(game.SPEC, new_trace=tiny_first))
    again, row_again = wigout.trace(42, 7, 4, None, strategies)
    assert made == [4]  # one small buffer, then the engine's of the game's length (trace_buffer)
    assert again.equals(events) and (row_again == row).all()


# --- parameters --------------------------------------------------------------------------------

def _bad(players, params, match):
    with pytest.raises(InputError, match=match) as info:
        SPEC.pack_params(players, SPEC.resolve_params(players, params))
    assert "\n" not in str(info.value)


def test_parameters_defaults_and_text():
    assert SPEC.resolve_params(4, None)["hand_size"] == 7
    assert SPEC.resolve_params(5, None)["hand_size"] == 5
    assert SPEC.resolve_params(4, None)["speed"] == [1.0] * 4
    resolved = SPEC.resolve_params(4, {"speed": "1.25,1,1,1", "deadlock_counts_as_round": "false",
                                       "draw_time_factor": "2", "characters": "14"})
    assert resolved["speed"] == [1.25, 1.0, 1.0, 1.0]
    assert resolved["deadlock_counts_as_round"] is False
    packed = SPEC.pack_params(4, resolved)
    assert packed.dtype == np.float64 and packed[-4] == 1.25


def test_bad_parameters():
    _bad(4, {"speed": [1.0, 1.0]}, "speed needs 4 values")
    _bad(4, {"speed": "1.25,1,1"}, "speed needs 4 values")
    _bad(3, {"speed": [1.0, 0.0, 1.0]}, "speed values must be > 0")
    _bad(3, {"speed": [1.0, -2.0, 1.0]}, "speed")
    _bad(3, {"speed": "1,nan,1"}, "finite")
    _bad(6, {"hand_size": 10}, "cannot deal 10 cards to 6 players")
    _bad(2, {"characters": 4, "copies": 3, "hand_size": 6}, "cannot deal")
    _bad(2, {"hand_size": 0}, "hand_size")
    _bad(2, {"draw_time_factor": 0}, "draw_time_factor")
    _bad(2, {"draw_time_factor": "inf"}, "draw_time_factor")
    _bad(2, {"characters": 61}, "characters")
    _bad(2, {"copies": 0}, "copies")
    _bad(2, {"rounds": 0}, "rounds")
    _bad(2, {"deadlock_counts_as_round": "maybe"}, "deadlock_counts_as_round")
    _bad(2, {"colours": 3}, "unknown parameter")
    SPEC.pack_params(6, SPEC.resolve_params(6, {"hand_size": 9}))  # 56 <= 60: fine
    with pytest.raises(InputError, match="strategy"):
        SPEC.strategy_codes(3, ["greedy", "random"])
    with pytest.raises(InputError, match="2 to 6"):
        SPEC.check_players(7)

"""The conformance suite: every registered game must pass it unchanged (pgx-style).

Determinism, invariance to threads and chunk size, win shares that add up, trace
consistency, per-seat strategies, and the bad-input errors of DESIGN.md.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import montecards as mc
from montecards import games
from montecards.engine.runner import RunConfig, play_chunk
from montecards.engine.spec import WIN_UNIT, InputError

GAMES = games.names()
N = 300


def small_n(name: str) -> int:
    return N


def rows_of(name, players=None, strategies=None, seed=123, n=None, jobs=1, chunk_size=1 << 17):
    res = mc.simulate(name, n=n or small_n(name), players=players, strategies=strategies,
                      seed=seed, jobs=jobs, chunk_size=chunk_size, keep_games=True)
    return res


@pytest.mark.parametrize("name", GAMES)
def test_spec_is_complete(name):
    spec = games.get(name)
    assert spec.min_players <= spec.default_players <= spec.max_players
    assert spec.default_strategy in spec.strategies
    layout = spec.layout(spec.default_players)
    assert layout.columns[:2] == ["turns", "unfinished"]
    assert len(layout.columns) == len(set(layout.columns)) == layout.width
    for p in spec.params:
        spec.resolve_params(spec.default_players, {})  # every default passes its own check


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_games_and_other_seed_other_games(name):
    a = rows_of(name).games
    b = rows_of(name).games
    c = rows_of(name, seed=124).games
    assert a.equals(b)
    assert not a.equals(c)


@pytest.mark.parametrize("name", GAMES)
def test_invariant_to_jobs_and_chunk_size(name):
    base = rows_of(name, jobs=1)
    for jobs, chunk in ((2, 1 << 17), (2, 7), (1, 64)):
        other = rows_of(name, jobs=jobs, chunk_size=chunk)
        assert other.games.equals(base.games)
        assert np.array_equal(other.summary_data.sums, base.summary_data.sums)
        assert np.array_equal(other.summary_data.sumsq, base.summary_data.sumsq)
        assert other.to_dict()["win_share"] == base.to_dict()["win_share"]


@pytest.mark.parametrize("name", GAMES)
def test_a_game_is_a_pure_function_of_seed_and_index(name):
    """Game 57 of a run is the same game when played alone as a one-game chunk."""
    spec = games.get(name)
    res = rows_of(name)
    players = res.players
    config = RunConfig(name, res.seed, players, spec.pack_params(players, res.params),
                       spec.strategy_array(res.strategies))
    alone = play_chunk(spec, config, 57, 1)[0]
    layout = spec.layout(players)
    row = res.games.iloc[57]
    assert alone[0] == row["turns"]
    assert list(alone[layout.seat_slice("score")]) == [row[f"score_{k}"] for k in range(players)]


@pytest.mark.parametrize("name", GAMES)
def test_win_shares_add_up(name):
    spec = games.get(name)
    for players in sorted({spec.min_players, spec.max_players}):
        res = rows_of(name, players=players)
        g = res.games
        wins = g[[f"win_{k}" for k in range(players)]].sum(axis=1)
        finished = ~g["unfinished"]
        assert np.allclose(wins[finished], 1.0)
        assert np.allclose(wins[~finished], 0.0)
        assert sum(res.win_share) == pytest.approx(1 - res.unfinished / res.n_games)
        for share, (low, high) in zip(res.win_share, res.win_share_ci95, strict=True):
            assert 0 <= low <= share <= high <= 1
        assert (g["turns"] > 0).all()


@pytest.mark.parametrize("name", GAMES)
def test_every_strategy_runs_at_every_seat(name):
    spec = games.get(name)
    players = spec.default_players
    names = [spec.strategies[k % len(spec.strategies)] for k in range(players)]
    res = mc.simulate(name, n=40, players=players, strategies=names, seed=5, jobs=1)
    assert res.strategies == names
    assert res.n_games == 40


@pytest.mark.parametrize("name", GAMES)
def test_trace_replays_the_run_game(name):
    res = rows_of(name, n=30)
    for index in (0, 17, 29):
        events = mc.trace(name, seed=res.seed, index=index, players=res.players,
                          strategies=res.strategies)
        assert len(events) > 0
        outcome = events.attrs["outcome"]
        row = res.games.iloc[index].to_dict()
        assert outcome == row


@pytest.mark.parametrize("name", GAMES)
def test_json_object_has_the_contract_keys(name):
    d = rows_of(name, n=50).to_dict()
    for key in ("game", "n_games", "players", "seed", "strategies", "params", "win_share",
                "win_share_ci95", "mean_score", "mean_turns", "unfinished", "elapsed_seconds",
                "games_per_second", "metrics"):
        assert key in d
    json.dumps(d)
    for metric in games.get(name).metrics:
        assert set(d["metrics"][metric]) == {"mean", "ci95"}


@pytest.mark.parametrize("name", GAMES)
def test_bad_input_is_refused(name):
    spec = games.get(name)
    bad = [
        dict(players=spec.max_players + 1),
        dict(players=spec.min_players - 1),
        dict(strategies=["no-such-strategy"]),
        dict(strategies=[spec.default_strategy] * (spec.default_players + 1)),
        dict(params={"no_such_param": "1"}),
        dict(n=0),
        dict(n=-5),
    ]
    for kwargs in bad:
        args = dict(n=10, seed=1) | kwargs
        with pytest.raises(InputError):
            mc.simulate(name, **args)


def test_unknown_game_is_refused():
    with pytest.raises(InputError, match="allowed"):
        mc.simulate("chess", n=10)


def test_win_unit_divides_every_tie():
    assert all(WIN_UNIT % k == 0 for k in range(1, 7))

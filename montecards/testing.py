"""The conformance check every registered game passes unchanged (``check_game``).

A new game is done when ``check_game("mygame", oracle=...)`` passes
(``tests/test_conformance.py`` runs it for every registered game, one check at a time)::

    from montecards.testing import check_game
    from tests.naive import parade as naive
    check_game("parade")                              # every check, a few hundred games each
    check_game("parade", oracle=naive.play_script,    # and the kernel against its naive
               oracle_params=[{}, {"two_player_margin": 0}])  # reference, game for game

The checks (each a function of the game's name, raising ``AssertionError`` that says what
broke): the spec is complete; the same seed gives the same games and another seed other
games; the games do not depend on the thread count or chunk size; a game is a pure function
of (seed, index); win shares add up; every strategy plays at every seat; the trace replays
the game the run played; the JSON object has the contract keys; bad input is refused with
``InputError``; the scripted entry point (``spec.play_scripted``, fed by
``spec.script_from_trace``) replays traced games to the same scores and win shares; and,
given an ``oracle``, the kernel agrees with it game for game
(``check_kernel_agrees_with_oracle``).

The oracle interface, the same in every game: every naive reference in ``tests/naive/``
offers ``play_script(**play_scripted_kwargs) -> dict``. It takes exactly the keyword arguments
of the game's ``spec.play_scripted`` -- whatever ``spec.script_from_trace(events, players,
strategies, params)`` produces: the deal, the decisions and the rule ``params`` -- and
returns a dict with at least ``scores`` (ints, one per seat, in the meaning of
``play_scripted``'s ``scores``) and ``win_share`` (floats, one per seat), plus whatever else
it can compare (``turns`` and the game's own outcomes). Every key that both results hold is
compared; an oracle leaves out what it cannot give in the library's meaning (its own event
log, say) and gives a pile without order as a ``collections.Counter``.
"""

from __future__ import annotations

import copy
import json
import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from montecards import games
from montecards.engine.spec import WIN_UNIT
from montecards.errors import InputError
from montecards.run.runner import RunConfig, play_chunk

N = 300
SEED = 123


def _run(name: str, n: int = N, seed: int = SEED, jobs: int = 1, chunk_size: int = 1 << 17,
         players: int | None = None, strategies: Any = None):
    from montecards.api import simulate

    return simulate(name, n=n, players=players, strategies=strategies, seed=seed, jobs=jobs,
                    chunk_size=chunk_size, keep_games=True, progress=False)


def check_spec_is_complete(name: str) -> None:
    spec = games.get(name)
    assert spec.min_players <= spec.default_players <= spec.max_players, "default players out of range"
    assert spec.default_strategy in spec.strategies, "default strategy not among the strategies"
    for players in range(spec.min_players, spec.max_players + 1):
        layout = spec.layout(players)
        assert layout.columns[:2] == ["turns", "unfinished"], "rows must start turns, unfinished"
        assert len(layout.columns) == len(set(layout.columns)) == layout.width, "duplicate columns"
        spec.resolve_params(players, {})  # every default passes its own check


def check_same_seed_same_games(name: str) -> None:
    a = _run(name).games
    b = _run(name).games
    c = _run(name, seed=SEED + 1).games
    assert a.equals(b), "the same seed gave different games"
    assert not a.equals(c), "another seed gave the same games"


def check_invariant_to_jobs_and_chunk_size(name: str) -> None:
    base = _run(name, jobs=1)
    for jobs, chunk in ((2, 1 << 17), (2, 7), (1, 64)):
        other = _run(name, jobs=jobs, chunk_size=chunk)
        assert other.games.equals(base.games), f"rows differ with jobs={jobs}, chunk_size={chunk}"
        assert np.array_equal(other.summary_data.sums, base.summary_data.sums), "sums differ"
        assert np.array_equal(other.summary_data.sumsq, base.summary_data.sumsq), "sums of squares differ"
        assert other.to_dict()["win_share"] == base.to_dict()["win_share"], "win shares differ"


def check_a_game_is_a_pure_function_of_seed_and_index(name: str) -> None:
    spec = games.get(name)
    res = _run(name)
    players = res.players
    config = RunConfig(name, res.seed, players, spec.pack_params(players, res.params),
                       spec.strategy_array(res.strategies), games.GAME_MODULES[name])
    layout = spec.layout(players)
    for index in (0, 57, N - 1):
        alone = play_chunk(spec, config, index, 1)[0]
        assert alone.tolist() == _raw_row(res.games.iloc[index], layout), f"game {index} alone differs"


def _raw_row(row, layout) -> list[int]:
    values = []
    for column in layout.columns:
        value = row[column]
        if column.startswith("win_"):
            value = round(float(value) * WIN_UNIT)
        values.append(int(value))
    return values


def check_win_shares_add_up(name: str) -> None:
    spec = games.get(name)
    for players in sorted({spec.min_players, spec.max_players}):
        res = _run(name, players=players)
        g = res.games
        wins = g[[f"win_{k}" for k in range(players)]].sum(axis=1)
        finished = ~g["unfinished"].astype(bool)
        assert np.allclose(wins[finished], 1.0), f"{players} players: shares of a finished game != 1"
        assert np.allclose(wins[~finished], 0.0), f"{players} players: an unfinished game has a winner"
        assert abs(sum(res.win_share) - (1 - res.unfinished / res.n_games)) < 1e-9, "shares do not add up"
        for share, (low, high) in zip(res.win_share, res.win_share_ci95, strict=True):
            assert 0 <= low <= share <= high <= 1, "a share lies outside its interval"
        assert (g["turns"] > 0).all(), "a game without turns"


def check_every_strategy_runs_at_every_seat(name: str) -> None:
    from montecards.api import simulate

    spec = games.get(name)
    players = spec.default_players
    for shift in range(len(spec.strategies)):
        names = [spec.strategies[(k + shift) % len(spec.strategies)] for k in range(players)]
        # a few games suffice (each seat's strategy decides in every one); a search at its
        # default parameters plays ~2 games a second
        res = simulate(name, n=4, players=players, strategies=names, seed=5, jobs=1, progress=False)
        assert res.strategies == names and res.n_games == 4


def check_trace_replays_the_run_game(name: str) -> None:
    from montecards.api import trace

    res = _run(name, n=30)
    for index in (0, 17, 29):
        events = trace(name, seed=res.seed, index=index, players=res.players, strategies=res.strategies)
        assert len(events) > 0, f"game {index}: an empty trace"
        assert events.attrs["outcome"] == res.games.iloc[index].to_dict(), f"game {index}: trace != run"


def check_json_has_the_contract_keys(name: str) -> None:
    d = _run(name, n=50).to_dict()
    for key in ("game", "n_games", "players", "seed", "strategies", "params", "win_share",
                "win_share_ci95", "mean_score", "mean_turns", "unfinished", "elapsed_seconds",
                "games_per_second", "metrics"):
        assert key in d, f"JSON lacks {key!r}"
    json.dumps(d)
    for metric in games.get(name).metrics:
        assert set(d["metrics"][metric]) == {"mean", "ci95"}, f"metric {metric} lacks mean/ci95"


def check_bad_input_is_refused(name: str) -> None:
    from montecards.api import simulate, trace

    spec = games.get(name)
    bad = [
        dict(players=spec.max_players + 1),
        dict(players=spec.min_players - 1),
        dict(players="3"),
        dict(strategies=["no-such-strategy"]),
        dict(strategies=[spec.default_strategy] * (spec.default_players + 1)),
        dict(params={"no_such_param": "1"}),
        dict(n=0),
        dict(n=-5),
        dict(seed=-1),
        dict(jobs=0),
    ] + [dict(params={p.name: "not a value"}) for p in spec.params]
    for kwargs in bad:
        args = dict(n=10, seed=1) | kwargs
        try:
            simulate(name, progress=False, **args)
        except InputError as exc:
            assert str(exc) and "\n" not in str(exc), f"{kwargs}: the error is not one line"
        else:
            raise AssertionError(f"{kwargs} was accepted")
    try:
        trace(name, seed=1, index=-1)
    except InputError:
        pass
    else:
        raise AssertionError("a negative trace index was accepted")


def check_scripted_replays_traced_games(name: str, games_to_check: int = 10) -> None:
    """``play_scripted(**script_from_trace(trace))`` gives the traced game's scores and shares."""
    from montecards.api import trace

    spec = games.get(name)
    if spec.play_scripted is None or spec.script_from_trace is None:
        raise AssertionError(f"{name}'s spec has no play_scripted / script_from_trace")
    mix = list(spec.quick_strategies or spec.strategies)
    rng = np.random.default_rng(SEED)
    for players in sorted({spec.min_players, spec.default_players, spec.max_players}):
        for index in range(games_to_check):
            names = [mix[int(rng.integers(len(mix)))] for _ in range(players)]
            events = trace(name, seed=SEED, index=index, players=players, strategies=names)
            outcome = events.attrs["outcome"]
            script = spec.script_from_trace(events, players, names, {})
            out = spec.play_scripted(**script)
            scores = [outcome[f"score_{k}"] for k in range(players)]
            shares = [outcome[f"win_{k}"] for k in range(players)]
            assert list(out["scores"]) == scores, f"{players}p game {index}: scripted scores differ"
            assert np.allclose(out["win_share"], shares), f"{players}p game {index}: scripted shares differ"


def check_kernel_agrees_with_oracle(
    name: str,
    oracle: Callable[..., dict],
    games_to_check: int = 100,
    params: Sequence[dict[str, Any]] = ({},),
    seed: int = SEED,
    strategies: Sequence[str] | None = None,
) -> list[str]:
    """The kernel and an oracle play the same scripts to the same outcomes, game for game.

    ``oracle`` (a naive reference's ``play_script``) takes exactly the keyword arguments of
    ``spec.play_scripted`` and returns a dict with at least ``scores`` and ``win_share``. Game
    ``index`` of the run with ``seed`` is traced with the parameters ``params[index %
    len(params)]``, a player count cycling through every count those parameters allow and a
    random mix of the game's strategies; ``spec.script_from_trace`` turns it into a script,
    and both sides play that script. Every key the two results share must be equal (numbers
    as numbers, floats to 1e-9, lists and tuples element by element, a ``Counter`` -- a pile
    the rules give no order -- as a multiset); a difference names the game, its seed, index,
    players, strategies, parameters and the key. Returns the keys compared (in any game).
    ``strategies``: the labels mixed (default: ``spec.quick_strategies``, else the spec's
    built-ins).
    """
    from montecards.api import trace

    spec = games.get(name)
    if spec.play_scripted is None or spec.script_from_trace is None:
        raise AssertionError(f"{name}'s spec has no play_scripted / script_from_trace")
    variants = [dict(v) for v in params]
    mix = list(strategies or spec.quick_strategies or spec.strategies)
    assert variants, "params must hold at least one parameter dict (e.g. {})"
    counts = [_player_counts(spec, variant) for variant in variants]
    rng = np.random.default_rng(seed)
    compared: set[str] = set()
    for index in range(games_to_check):
        k = index % len(variants)
        variant = variants[k]
        players = counts[k][(index // len(variants)) % len(counts[k])]
        names = [mix[int(rng.integers(len(mix)))] for _ in range(players)]
        where = (f"{name} game {index} (seed {seed}, {players} players, strategies {names}, "
                 f"params {variant})")
        events = trace(name, seed=seed, index=index, players=players, strategies=names,
                       params=variant)
        script = spec.script_from_trace(events, players, names, variant)
        want = spec.play_scripted(**copy.deepcopy(script))
        try:
            got = oracle(**copy.deepcopy(script))
        except Exception as exc:  # the kernel played this script: the oracle must too
            raise AssertionError(f"{where}: the oracle refused the script: {exc!r}") from exc
        for key in ("scores", "win_share"):
            assert key in got, f"{where}: the oracle's result has no {key!r}"
        for key in sorted(set(want) & set(got)):
            assert _same(want[key], got[key]), (
                f"{where}: {key!r} differs: kernel {_short(want[key])}, oracle {_short(got[key])}"
            )
            compared.add(key)
    return sorted(compared)


def _player_counts(spec, params: dict[str, Any]) -> list[int]:
    """The player counts whose parameter checks accept ``params``: every ``Param.check`` and
    the spec's ``check_params`` (a rule between parameters), both run by ``resolve_params``."""
    counts = []
    for players in range(spec.min_players, spec.max_players + 1):
        try:
            spec.resolve_params(players, params)
        except InputError:
            continue
        counts.append(players)
    assert counts, f"parameters {params} fit no player count"
    return counts


def _same(a: Any, b: Any) -> bool:
    """Equal as outcomes: a ``Counter`` (a pile without order) as a multiset, sequences element
    by element, floats to 1e-9, anything else by ``==``."""
    if isinstance(a, np.ndarray):
        a = a.tolist()
    if isinstance(b, np.ndarray):
        b = b.tolist()
    if isinstance(a, Counter) or isinstance(b, Counter):  # a pile without order: a multiset
        return (isinstance(a, (Counter, list, tuple)) and isinstance(b, (Counter, list, tuple))
                and Counter(a) == Counter(b))
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b)
                and all(_same(x, y) for x, y in zip(a, b, strict=True)))
    if hasattr(a, "equals") or hasattr(b, "equals"):  # a DataFrame or Series
        return hasattr(a, "equals") and type(a) is type(b) and bool(a.equals(b))
    numbers = (int, float, np.integer, np.floating)
    if isinstance(a, (float, np.floating)) or isinstance(b, (float, np.floating)):
        return isinstance(a, numbers) and isinstance(b, numbers) and math.isclose(
            a, b, rel_tol=1e-9, abs_tol=1e-12)
    return bool(a == b)


def _short(value: Any, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + " ..."


CHECKS: tuple[Callable[[str], None], ...] = (
    check_spec_is_complete,
    check_same_seed_same_games,
    check_invariant_to_jobs_and_chunk_size,
    check_a_game_is_a_pure_function_of_seed_and_index,
    check_win_shares_add_up,
    check_every_strategy_runs_at_every_seat,
    check_trace_replays_the_run_game,
    check_json_has_the_contract_keys,
    check_bad_input_is_refused,
    check_scripted_replays_traced_games,
)


def check_game(
    name: str,
    oracle: Callable[..., dict] | None = None,
    oracle_params: Sequence[dict[str, Any]] = ({},),
) -> None:
    """Run every conformance check on game ``name``, and, given an ``oracle`` (a naive
    reference's ``play_script``), ``check_kernel_agrees_with_oracle`` with the parameter sets
    ``oracle_params``."""
    for check in CHECKS:
        check(name)
    if oracle is not None:
        check_kernel_agrees_with_oracle(name, oracle, params=oracle_params)

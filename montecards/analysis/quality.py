"""Decision quality by the value (issue 30, part 2; docs/luck.md "Decision quality"): at each
decision, ``V(after the chosen move) - max over the legal moves of V(after that move)``, V of
the deciding seat on its **information set**, as backgammon programs report a player's error.

The information-set V of a move is the mean, over ``determinizations`` dealings of what the seat
cannot see (consistent with everything it has seen: its position, ``games/<game>/position.py``),
of the fitted value V of the true state after the move (``value_moves``, the value column of
``montecards analyse``). Every move of a decision is valued on the same determinizations
(common random numbers), so the differences are far less noisy than the values.

A decision's **error** is ``max_m Vbar(m) - Vbar(chosen)`` (>= 0, in win share); a seat's error
per unforced decision is its mean over the decisions with more than one legal move. Two
readings to keep in mind:

* the maximum of noisy means is biased upward, so the error of a perfect player comes out
  slightly above 0 (the larger ``determinizations``, the smaller the bias);
* V is the game's fitted model (docs/luck.md), not the truth: a move V cannot tell apart from
  the best is no error here. The error says how far a strategy's choices fall below V's own
  preference, in V's units: a strategy that V models (V's lineup) is judged by a V fitted on it.

Games: those with positions and a fitted value (Parade at 2 players; Wig Out!; Gift of Tulips); elsewhere the
figure is None with the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from montecards import games
from montecards.analysis.runs import check_count, check_seed, new_seed
from montecards.engine.spec import InputError
from montecards.engine.user_strategies import as_labels

DEFAULT_GAMES = 100
DEFAULT_DETERMINIZATIONS = 64


def decision_errors(game: str, players: int | None = None, strategies: Sequence[str] | str | None = None,
                    n: int = DEFAULT_GAMES, determinizations: int = DEFAULT_DETERMINIZATIONS,
                    seed: int | None = None) -> dict[str, Any]:
    """Per strategy of the lineup, its error per unforced decision (module docstring) over the
    decisions of games ``0 .. n - 1`` of the run with ``seed`` (the very games ``simulate`` plays),
    with a 95 % interval over games (the decisions of one game are not independent):
    ``{"errors": {name: {"error", "error_low", "error_high", "unforced", "decisions"}}, "value",
    "determinizations", "n_games", "seed"}``. InputError where the game has no positions or no
    fitted value for this lineup."""
    from montecards.analysis.moves import _fitted_value, as_trace
    from montecards.analysis.runs import prepare, seat_entries

    n = check_count("n", n, 1)
    determinizations = check_count("determinizations", determinizations, 2)
    seed = new_seed() if seed is None else check_seed(seed)
    spec = games.get(game)
    module = games.positions(spec.name)
    players = spec.check_players(spec.default_players if players is None else players)
    labels = spec.default_strategy if strategies is None else as_labels(strategies)
    names = [labels] if isinstance(labels, str) else [str(s) for s in labels]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise InputError(f"give one strategy for every seat, or one per seat ({players}), got {len(names)}")
    array, note = _fitted_value(spec.name, module, "value_moves", players, {}, names, "this run")
    if array is None:
        raise InputError(f"decision quality needs a value: {note}")
    _, config, labels, resolved = prepare(spec.name, players, names, None, seed, None)
    if config.user:
        raise InputError("decision quality is measured for built-in strategies (V models the lineup)")
    codes, params = config.strategies, config.params  # the run's kernel form: V's model of the seats
    entries_of_run = seat_entries(config, labels)
    per_game: dict[str, list[tuple[float, int]]] = {name: [] for name in dict.fromkeys(names)}
    decisions = {name: 0 for name in per_game}
    for index in range(n):  # the very game ``index`` of the run with ``seed`` (``mc.trace``)
        events, _ = spec.trace(config.seed, index, config.players, resolved, entries_of_run)
        events = as_trace(events, spec.name, config.players, resolved)
        record = module.record_of_trace(events, players, None)
        sums = {name: [0.0, 0] for name in per_game}
        for _, seat, pos, played, _ in module.decisions_of_record(record):
            if getattr(pos, "no_value", None):  # V cannot read it (Gift of Tulips' set-up split): not counted
                continue
            name = names[seat]
            decisions[name] += 1
            legal = pos.legal_moves()
            if len(legal) < 2:
                continue
            dealt = module.State.from_position(pos, seed)
            values = module.value_moves(dealt, pos.seat, legal, array, codes, params, seed,
                                        index * determinizations, determinizations).mean(axis=0)
            canon = [tuple(module.parse_move(m, pos.decision)) for m in legal]
            k = canon.index(tuple(module.parse_move(played, pos.decision)))
            sums[name][0] += float(values.max() - values[k])
            sums[name][1] += 1
        for name, (total, count) in sums.items():
            per_game[name].append((total, count))
    errors = {}
    for name, rows in per_game.items():
        totals = np.array([t for t, _ in rows])
        counts = np.array([c for _, c in rows], dtype=np.float64)
        unforced = int(counts.sum())
        if unforced == 0:
            errors[name] = {"error": None, "error_low": None, "error_high": None, "unforced": 0,
                            "decisions": decisions[name]}
            continue
        # a ratio estimate over games: sum(errors) / sum(decisions), its interval by the delta method
        ratio = float(totals.sum() / unforced)
        resid = totals - ratio * counts
        half = 1.96 * float(np.sqrt(resid.var(ddof=1) * len(rows)) / unforced) if len(rows) > 1 else float("nan")
        # (an error is never negative: the interval's low end is clipped at 0)
        errors[name] = {"error": ratio, "error_low": max(0.0, ratio - half), "error_high": ratio + half,
                        "unforced": unforced, "decisions": decisions[name]}
    return {"errors": errors, "value": note, "determinizations": determinizations, "n_games": n, "seed": seed,
            "players": players, "strategies": names}


def error_sentence(result: dict[str, Any]) -> str:
    """One line: each strategy's error per unforced decision with its interval."""
    parts = []
    for name, e in result["errors"].items():
        if e["error"] is None:
            parts.append(f"{name}: no unforced decision")
        else:
            parts.append(f"{name} {100 * e['error']:.2f} pp [{100 * e['error_low']:.2f}, "
                         f"{100 * e['error_high']:.2f}] over {e['unforced']:,} unforced decisions")
    return (f"Error per unforced decision (V on the information set, {result['determinizations']} "
            f"determinizations, {result['n_games']:,} games): " + "; ".join(parts) + ".")


__all__ = ["decision_errors", "error_sentence"]

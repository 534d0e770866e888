"""The value and the luck ledger, the analysis side (docs/luck.md): fitting a game's value
(``montecards value fit``) and the luck and drift shares of a lineup (``luck_shares``, which
``montecards luck`` adds to its deal's share).

Both go through the game's ``value.py`` (``GameSpec.value``, an ``engine.value.ValueParts``)
and the run layer: the fit plays the lineup's games through the game's ``sample_block`` (the
games of the run with that seed), the shares through a run with ``luck=True``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from montecards.analysis.runs import check_count, check_seed, prepare, setup
from montecards.engine.spec import WIN_UNIT, InputError
from montecards.engine.value import (
    LUCK_UNIT,
    calibration,
    fit_logit,
    save_value,
    softmax_values,
    value_path,
    values_folder,
)

DEFAULT_FIT_GAMES = 20_000
SAMPLE_RATE = 0.25
"""The share of a game's states after a draw that the fit records (states of one game are
alike: a quarter of them is as good as all for a fit, at a quarter of the memory)."""
HELD_OUT = 0.2
"""The last fifth of the fit's games are held out: the calibration report is on them."""


def sample_states(game: str, players: int | None, strategies: Any, n: int, seed: int,
                  rate: float = SAMPLE_RATE) -> dict[str, Any]:
    """States of ``n`` games of the lineup: per recorded state the features of every seat
    (``x``: states x seats x features), its game's index and win shares (``y``)."""
    spec, config, labels, _ = prepare(game, players, strategies, None, seed)
    if spec.value is None:
        raise InputError(f"{game} has no value yet")
    if config.user:
        raise InputError("value fit: built-in strategies only")
    parts = spec.value
    nf = len(parts.features)
    capacity = int(n * 60 * rate) + 1000  # Parade: ~50 draws a game
    rows = np.zeros((n, spec.layout(config.players).width), np.int64)
    while True:
        recorder = parts.new_recorder(parts.array([0.0] * config.players, np.zeros(nf)), capacity, rate,
                                      config.strategies, config.params)
        game_of = np.zeros(capacity, np.int64)
        parts.sample_block(np.uint64(config.seed), 0, config.players, config.params, config.strategies, rows,
                           spec.kernel_options(config.strategies), recorder, game_of)
        count = int(recorder[7][0])
        if count <= capacity:
            break
        capacity = count + 1000
    x = recorder[6][:count].reshape(count, parts.max_players, nf)[:, : config.players, :]
    win = rows[:, spec.layout(config.players).seat_slice("win")] / WIN_UNIT
    return {"spec": spec, "labels": labels, "players": config.players, "x": x, "game": game_of[:count],
            "y": win[game_of[:count]], "wins": win}


def fit_value(game: str, players: int | None = None, strategies: Any = None, n: int = DEFAULT_FIT_GAMES,
              seed: int = 1, write: bool = True, folder: Path | None = None) -> dict[str, Any]:
    """Fit the game's value for a lineup on ``n`` simulated games (``montecards value fit``): the
    conditional logit over the game's features, and the score-only baseline, both fitted on the
    first 80 % of the games and calibrated on the rest (binned predicted vs observed, Brier
    score). ``write``: save the weights to the game's ``values/`` folder (or ``folder``)."""
    n = check_count("n", n, 10)
    seed = check_seed(seed)
    start = time.perf_counter()
    data = sample_states(game, players, strategies, n, seed)
    spec, x, y, which = data["spec"], data["x"], data["y"], data["game"]
    n_train = int(n * (1 - HELD_OUT))
    train = which < n_train
    vstart = data["wins"][:n_train].mean(axis=0)
    weights = fit_logit(x[train], y[train])
    only = list(spec.value.score_only)
    base = fit_logit(x[train][:, :, only], y[train])
    held = ~train
    report = {
        "games": n, "seed": seed, "states": int(x.shape[0]), "held_out_states": int(held.sum()),
        "value": calibration(softmax_values(x[held], weights), y[held]),
        "score_only": calibration(softmax_values(x[held][:, :, only], base), y[held]),
        "constant": {"brier": float(((y[held] - vstart) ** 2).mean())},
        "seconds": round(time.perf_counter() - start, 1),
    }
    out = {"game": spec.name, "players": data["players"], "lineup": data["labels"],
           "features": list(spec.value.features), "weights": [float(w) for w in weights],
           "vstart": [float(v) for v in vstart], "fit": report}
    if write:
        folder = folder or values_folder(spec_module_of(spec.name))
        target = value_path(folder, data["players"], data["labels"])
        save_value(target, spec.name, data["players"], data["labels"], spec.value.features, weights, vstart,
                   report)
        out["file"] = str(target)
    return out


def spec_module_of(game: str) -> str:
    from montecards import games

    return games.GAME_MODULES[games.get(game).name]


def _share_interval(plain: np.ndarray, part: np.ndarray, seed: int, boot: int = 200) -> tuple[float, float]:
    """A bootstrap 95 % interval of ``var(part) / var(plain)`` over games."""
    rng = np.random.default_rng(seed)
    n = plain.shape[0]
    ratios = np.empty(boot)
    for b in range(boot):
        pick = rng.integers(0, n, n)
        ratios[b] = part[pick].var() / max(plain[pick].var(), 1e-300)
    return float(np.quantile(ratios, 0.025)), float(np.quantile(ratios, 0.975))


def luck_shares(game: str, players: int | None = None, strategies: Sequence[str] | str | None = None,
                n: int = 20_000, seed: int = 1, jobs: int | None = None,
                params: dict[str, Any] | None = None) -> dict[str, Any]:
    """The luck share and the drift share of the outcome variance of a lineup (docs/luck.md),
    over ``n`` games played with the ledger, pooled over the seats:

    * ``luck_share``: ``var(luck) / var(result)``, luck the sum of a game's luck terms;
    * ``drift_share``: ``var(drift) / var(result)``, drift = ``result - V(start) - luck``
      (V(start) is a constant per seat, so this is ``1 / variance_ratio``); drift is what the
      value did not foresee under the lineup's own strategies, never "skill";
    * each with ``_low``/``_high`` (bootstrap over games, 95 %). The two need not add up to 1:
      ``2 cov(luck, drift) / var(result)`` is the rest (``covariance_share``).
    * ``error_per_decision``: per strategy, None: decision quality (V after the chosen move
      minus the best legal move's, on the information set) is not measured yet.

    ``params``: rule parameters, those under which the game's ledger stays exact
    (``LEDGER_RULES``; docs/luck.md "Rule variants"), else refused in one line. V keeps the
    official rules' fit, so under a variant the shares read the variant's games through that V
    (compare variants by them knowing that V's fit, not only the rules, can move them).
    """
    n = check_count("n", n, 10)
    run = setup(game, players, strategies, params, seed, jobs, luck=True)
    summary, rows = run.play(0, n, keep=True)
    layout = run.layout
    win = rows[:, layout.seat_slice("win")] / WIN_UNIT
    luck = rows[:, layout.seat_slice("luck")] / LUCK_UNIT
    finished = rows[:, 1] == 0
    result = (win[finished] - win[finished].mean(axis=0)).ravel()
    lk = (luck[finished] - luck[finished].mean(axis=0)).ravel()
    drift = result - lk
    var = result.var()
    out: dict[str, Any] = {"game": run.game, "players": run.players, "strategies": list(run.strategies),
                           "n_games": int(n), "seed": run.seed, "value": run.config.luck_source}
    for name, part in (("luck_share", lk), ("drift_share", drift)):
        out[name] = float(part.var() / var)
        out[f"{name}_low"], out[f"{name}_high"] = _share_interval(result, part, run.seed)
    out["covariance_share"] = float(2 * np.mean(lk * drift) / var)
    out["error_per_decision"] = {name: None for name in dict.fromkeys(run.strategies)}
    return out

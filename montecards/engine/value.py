"""Values and the luck ledger, the engine's part (docs/luck.md): nothing game-specific here.

A game with a value has ``games/<game>/value.py`` (its features, in the rules page's words,
and the ledger's hooks at its chance events) and gives its spec a :class:`ValueParts`. Its
fitted weights are data, one JSON file per player count and lineup in
``games/<game>/values/`` (:func:`save_value`, :func:`load_value`), refit by ``montecards
value fit GAME``.

**The row columns.** A run with ``--luck`` plays the very games of the run without it (the
ledger draws from its own stream) and its rows gain two seat outputs after the game's,
``luck`` and ``adjusted`` (``LUCK_OUTPUTS``), in ``LUCK_UNIT`` per whole win:
``adjusted = win - luck`` exactly in those units (``write_ledger``). The rounding of a
game's luck to a 60,000th of a win moves a mean by at most 1/120,000.

**The kernel argument.** ``value_array``: V(start) per seat (``max_players`` slots), then the
weights, float64: the game's ``luck_block`` takes it as an argument (weights are data: a refit
recompiles nothing).

**The ledger's common part.** Every game's ledger is a tuple: item 0 the value array, item 1
the float accumulator, item 3 the ledger's own random stream (``LUCK_STREAM``), the rest the
game's. The accumulator starts with the same head in every game (``ACC_PREV`` .. ``ACC_RATE``,
``LEDGER_SEATS`` slots per seat part), the game's own slots from ``ACC_GAME`` on. The three
steps every ledger takes are here: :func:`ledger_start` before a game, :func:`ledger_step` at
each chance event (the game's hook has put V(after) in ``ACC_V`` and its expectation in
``ACC_EXPECT``), :func:`ledger_result` at its end. Along the way the head also follows the lead
by V (:func:`lead`: the lead changes, and when the game was decided; docs/metrics.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from montecards.engine.jit import hot
from montecards.errors import InputError
from montecards.rng import seed_stream

LUCK_OUTPUTS = ("luck", "adjusted")
"""The seat outputs a run with ``--luck`` adds after the game's."""
WIN_UNIT = 60
LUCK_UNIT = 60_000
"""A whole win in the ``luck`` and ``adjusted`` columns (1,000 per ``WIN_UNIT``)."""
VALUE_VERSION = 1
"""The value file format; a file of another version is refused (refit it)."""


LEDGER_SEATS = 6
"""Slots per seat part of the accumulator's head: at least every game's ``MAX_PLAYERS``."""
LUCK_STREAM = 0x4C55434B
"""The ledger's random substream (a game's sampled expectations, the fit's state sampling): "LUCK"."""
# the accumulator's head, per seat: V at the last event, luck, drift, E[V(after)], V(after)
ACC_PREV = 0
ACC_LUCK = ACC_PREV + LEDGER_SEATS
ACC_DRIFT = ACC_LUCK + LEDGER_SEATS
ACC_EXPECT = ACC_DRIFT + LEDGER_SEATS
ACC_V = ACC_EXPECT + LEDGER_SEATS
# the lead (docs/metrics.md): per seat the last chance event after which it did not lead; the
# events so far; the seat leading after the last one; the lead changes; at the end, the share of
# the game's events before the winner took the lead for good
ACC_BEHIND = ACC_V + LEDGER_SEATS
ACC_EVENTS = ACC_BEHIND + LEDGER_SEATS
ACC_LEADER = ACC_EVENTS + 1
ACC_CHANGES = ACC_LEADER + 1
ACC_DECIDED = ACC_CHANGES + 1
ACC_RATE = ACC_DECIDED + 1
"""Record mode (the fit's recorder): the share of states recorded; kept by ``ledger_start``."""
ACC_GAME = ACC_RATE + 1
"""The game's own slots start here."""


@hot
def softmax_seats(out, players):
    """The seats' logits in ``out[:players]`` to their softmax, in place: V of every seat
    where a game's fitted model speaks (each game's ``values``)."""
    top = -1e300
    for s in range(players):
        top = max(top, out[s])
    total = 0.0
    for s in range(players):
        out[s] = np.exp(out[s] - top)
        total += out[s]
    for s in range(players):
        out[s] /= total


@njit(cache=True)
def ledger_start(ledger, seed, index):
    """Before game ``index``: the ledger's own stream, and the accumulator cleared (V at the last
    event: V(start), the value array's first ``LEDGER_SEATS`` slots)."""
    value, acc = ledger[0], ledger[1]
    seed_stream(ledger[3], seed, index, LUCK_STREAM)
    rate = acc[ACC_RATE]
    acc[:] = 0.0
    acc[ACC_RATE] = rate
    for s in range(LEDGER_SEATS):
        acc[ACC_PREV + s] = value[s]


@hot
def ledger_step(ledger, players):
    """A chance event has happened: V(after) in ``ACC_V``, its expectation in ``ACC_EXPECT``;
    the event's luck term is their difference, the drift since the last event
    ``E[V(after)] - V(before)``."""
    acc = ledger[1]
    for s in range(players):
        acc[ACC_LUCK + s] += acc[ACC_V + s] - acc[ACC_EXPECT + s]
        acc[ACC_DRIFT + s] += acc[ACC_EXPECT + s] - acc[ACC_PREV + s]
        acc[ACC_PREV + s] = acc[ACC_V + s]
    lead(acc, players, acc[ACC_V:])


@hot
def lead(acc, players, v):
    """The lead after one more chance event (or the result), ``v`` per seat: the leader is the
    seat of the highest V (the lowest such seat on a tie); a change of leader between two
    events is a lead change (the first event's leader is none); every other seat was behind."""
    events = acc[ACC_EVENTS] + 1.0
    acc[ACC_EVENTS] = events
    leader = 0
    for s in range(1, players):
        if v[s] > v[leader]:
            leader = s
    if events > 1.0 and acc[ACC_LEADER] != leader:
        acc[ACC_CHANGES] += 1.0
    acc[ACC_LEADER] = leader
    for s in range(players):
        if s != leader:
            acc[ACC_BEHIND + s] = events


@njit(cache=True)
def ledger_result(ledger, players, row, first_win):
    """At the end of a finished game (its ``row``, whose win block starts at ``first_win``):
    the last drift term, then the row's ``luck`` and ``adjusted`` columns (``write_ledger``)."""
    acc = ledger[1]
    for s in range(players):
        share = row[first_win + s] / WIN_UNIT
        acc[ACC_DRIFT + s] += share - acc[ACC_PREV + s]
        acc[ACC_PREV + s] = share
    write_ledger(row, players, first_win, acc[ACC_LUCK:ACC_LUCK + players])
    # the lead: the result is its last step (its leader the winner, the lowest seat of a shared
    # win); decided: the share of the game's chance events after which the winner did not lead
    # yet (0: it led from the first event on; 1: it took the lead with the result only)
    lead(acc, players, acc[ACC_PREV:])
    acc[ACC_DECIDED] = acc[ACC_BEHIND + np.int64(acc[ACC_LEADER])] / max(acc[ACC_EVENTS] - 1.0, 1.0)


@njit(cache=True)
def write_ledger(row, players, first_win, luck):
    """A finished game's ``luck`` (``luck[s]``, in wins) and ``adjusted`` columns, the row's
    last ``2 * players``, in ``LUCK_UNIT``: ``adjusted = win - luck`` exactly."""
    width = row.shape[0]
    for s in range(players):
        units = np.int64(np.round(luck[s] * LUCK_UNIT))
        row[width - 2 * players + s] = units
        row[width - players + s] = row[first_win + s] * (LUCK_UNIT // WIN_UNIT) - units


@dataclass(frozen=True)
class ValueParts:
    """What a game's value gives the engine (``GameSpec.value``)."""

    features: tuple[str, ...]
    """A seat's features, in the weights' order (``value.FEATURES``)."""
    score_only: tuple[int, ...]
    """The indices of the score-only baseline's features."""
    max_players: int
    luck_block: Callable[..., None]
    """``luck_block(seed, start, players, params, strategies, rows, options, value, block,
    ledgers)``: ``play_block``'s games with the ledger (built-in strategies)."""
    sample_block: Callable[..., None]
    """``sample_block(seed, start, players, params, strategies, rows, options, recorder,
    game_of)``: the fit's samples."""
    new_recorder: Callable[..., Any]
    """``new_recorder(value, capacity, rate, strategies, params)``: the fit's recording ledger (its item 6 the
    ``(capacity, max_players * features)`` records, item 7 their count)."""
    ledger_width: int
    """The ledger's float accumulator (``ledgers``' rows): the engine's head (``ACC_PREV`` ..
    ``ACC_RATE``: V at the last event, luck, drift, ... ``LEDGER_SEATS`` each), then the game's."""
    events: str = ""
    """The game's chance events and how their expectations are taken (docs/luck.md)."""

    def array(self, vstart: Sequence[float], weights: Sequence[float]) -> np.ndarray:
        """The kernel's value argument: V(start) per seat (padded to ``max_players``), weights."""
        start = np.zeros(self.max_players)
        start[: len(vstart)] = vstart
        return np.concatenate([start, np.asarray(weights, np.float64)])


# --- value files ---------------------------------------------------------------------------------


def lineup_slug(lineup: Sequence[str]) -> str:
    """A file name part for a lineup: ``greedy-greedy``, ``ismcts_1000_-greedy``; a slug longer
    than 120 characters (a weighted seat's weights) is cut and ends in a hash of the whole."""
    slug = "-".join(re.sub(r"[^A-Za-z0-9.]+", "_", name) for name in lineup)
    if len(slug) > 120:
        import hashlib

        slug = slug[:100] + "-" + hashlib.sha256(slug.encode()).hexdigest()[:16]
    return slug


def value_path(folder: Path, players: int, lineup: Sequence[str]) -> Path:
    return folder / f"{players}p-{lineup_slug(lineup)}.json"


def save_value(path: Path, game: str, players: int, lineup: Sequence[str], features: Sequence[str],
               weights: Sequence[float], vstart: Sequence[float], fit: dict[str, Any]) -> None:
    """Write a fitted value (weights as data) with what it is for and how it was fitted."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"game": game, "players": players, "lineup": list(lineup), "version": VALUE_VERSION,
            "features": list(features), "weights": [float(w) for w in weights],
            "vstart": [float(v) for v in vstart], "fit": fit}
    path.write_text(json.dumps(data, indent=1) + "\n")


def load_value(path: Path, game: str, players: int, features: Sequence[str]) -> dict[str, Any]:
    """A value file's contents, checked: refused (one-line ``InputError``) when it is for another
    game, player count, format version or feature list."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as error:
        raise InputError(f"cannot read value file {path}: {error}") from None
    if not isinstance(data, dict):
        raise InputError(f"value file {path} is not a value (a JSON object)")
    if data.get("version") != VALUE_VERSION:
        raise InputError(f"value file {path} has version {data.get('version')!r}, this montecards reads "
                         f"version {VALUE_VERSION}: refit it (montecards value fit {game})")
    if data.get("game") != game:
        raise InputError(f"value file {path} is for {data.get('game')!r}, not {game}")
    if data.get("players") != players:
        raise InputError(f"value file {path} is for {data.get('players')} players, not {players}")
    if list(data.get("features", [])) != list(features) or len(data.get("weights", [])) != len(features):
        raise InputError(f"value file {path} has other features than {game}'s value: refit it "
                         f"(montecards value fit {game})")
    if len(data.get("vstart", [])) != players:
        raise InputError(f"value file {path} has no V(start) for each of {players} seats")
    return data


# --- fitting -------------------------------------------------------------------------------------


def softmax_values(x: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """V per state and seat: ``x`` is (states, seats, features)."""
    z = x @ weights
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit_logit(x: np.ndarray, y: np.ndarray, l2: float = 1e-4) -> np.ndarray:
    """Weights of the conditional logit ``V = softmax(x @ w)`` that maximise the likelihood of
    the win shares ``y`` (states, seats), with a small ridge ``l2`` (unused features stay 0)."""
    from scipy.optimize import minimize

    n = x.shape[0]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ w
        z -= z.max(axis=1, keepdims=True)
        log_v = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        v = np.exp(log_v)
        value = -(y * log_v).sum() / n + l2 * (w @ w)
        grad = np.einsum("ns,nsf->f", v - y * 1.0, x) / n + 2 * l2 * w
        return value, grad

    result = minimize(loss, np.zeros(x.shape[2]), jac=True, method="L-BFGS-B",
                      options={"maxiter": 500})
    return result.x


def calibration(predicted: np.ndarray, observed: np.ndarray, bins: int = 10) -> dict[str, Any]:
    """Binned predicted against observed (equal-width bins of the prediction) and the Brier
    score, over every (state, seat)."""
    p = predicted.ravel()
    o = observed.ravel()
    edges = np.linspace(0, 1, bins + 1)
    which = np.clip(np.digitize(p, edges) - 1, 0, bins - 1)
    table = []
    for b in range(bins):
        mask = which == b
        if mask.any():
            table.append({"low": float(edges[b]), "high": float(edges[b + 1]), "states": int(mask.sum()),
                          "predicted": float(p[mask].mean()), "observed": float(o[mask].mean())})
    return {"brier": float(((p - o) ** 2).mean()), "bins": table}


def values_folder(spec_module: str) -> Path:
    """``games/<game>/values/`` of the game whose spec is in module ``spec_module``."""
    import importlib.util

    origin = importlib.util.find_spec(spec_module).origin
    return Path(origin).parent / "values"


def bare_defaults(label: str, defaults: dict[str, Sequence[float]]) -> str:
    """``label`` written bare when its parameters are its built-in's defaults
    (``ismcts[1000,0.7,0]`` is ``ismcts`` where those are ``ismcts``'s), else ``label``."""
    from montecards.engine.weights import parse_label

    parsed = parse_label(label)
    if parsed is None or parsed[0] not in defaults:
        return label
    name, parts = parsed
    try:
        given = tuple(float(p) for p in parts)
    except ValueError:
        return label
    return name if given == tuple(float(d) for d in defaults[name]) else label


def lineup_candidates(lineup: Sequence[str], players: int,
                      defaults: dict[str, Sequence[float]] | None = None) -> list[list[str]]:
    """The lineups whose value files a run of ``lineup`` may use, in order: its own, the same
    with every label at its built-in's defaults written bare (``defaults``: name -> default
    parameters; a value fitted with ``-s ismcts`` serves ``ismcts[1000]`` when 1,000 is the
    default), and greedy's."""
    out = [list(lineup)]
    if defaults:
        out.append([bare_defaults(label, defaults) for label in lineup])
    out.append(["greedy"] * players)
    return [c for k, c in enumerate(out) if c not in out[:k]]


def find_value(folder: Path, game: str, players: int, lineup: Sequence[str],
               defaults: dict[str, Sequence[float]] | None = None) -> Path:
    """The value file a run of ``lineup`` uses: the one fitted on that lineup (its labels as
    written, or at their defaults written bare: :func:`lineup_candidates`), else the greedy
    lineup's (any V keeps the adjusted estimate unbiased: a value fitted on another lineup
    only removes less variance). Refused in one line when there is none."""
    for candidate in lineup_candidates(lineup, players, defaults):
        path = value_path(folder, players, candidate)
        if path.is_file():
            return path
    raise InputError(f"--luck: no fitted value for {game} with {players} players "
                     f"(run: montecards value fit {game} -p {players})")

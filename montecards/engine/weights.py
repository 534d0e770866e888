"""Built-in strategies that read run-time weights: ``weighted``, ``tuned`` (and any other).

A game's ``weighted`` player scores each legal move by a weighted sum of named features; its
weights are data, not code, so a tuner tries thousands of them without one recompile. A game
declares such a built-in with a :class:`Weights` entry in ``GameSpec.seat_params`` (its feature
names, default weights and the bounds a tuner searches within); every other built-in takes no
weights.

How the weights reach the kernel. A run in which some seat plays a weighted built-in gets one
table of ``MAX_SEATS x MAX_WEIGHTS`` floats appended to the game's parameter vector
(:func:`append_table`): seat ``s``'s weight ``k`` is ``params[weight_index(params, s, k)]``,
counted from the vector's end so that no game's own parameter offsets move. Runs in which no
seat plays one keep exactly the game's own vector (same checkpoints, same Dask keys). Seats
that play a weighted built-in without explicit weights get its defaults.

A seat's weights are given per seat in ``strategy_params`` (as for user strategies), or inside
the strategy's name: ``weighted[1,0.5,0]``, which is also the label outputs and analyses show
for it (``WeightedSeat.label``), so two seats with different weights never share a label.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from montecards.engine.user_seats import MAX_SEATS
from montecards.errors import InputError

MAX_WEIGHTS = 16
"""Weights one seat may have (a game's feature count is at most this)."""

TABLE_SIZE = MAX_SEATS * MAX_WEIGHTS
"""Floats the weights table adds at the end of a run's parameter vector."""


@njit(cache=True, inline="always")
def weight_index(params, seat, k):
    """Index into ``params`` of seat ``seat``'s weight ``k`` (the table is the vector's tail)."""
    return params.shape[0] - TABLE_SIZE + seat * MAX_WEIGHTS + k


@dataclass(frozen=True)
class Weights:
    """A built-in strategy that reads weights: its features, defaults and tuning bounds."""

    features: tuple[str, ...]
    """One name per weight, in order (documented in ``docs/strategies/<game>.md``)."""
    default: tuple[float, ...]
    """The weights a seat plays with when none are given."""
    bounds: tuple[tuple[float, float], ...]
    """Per weight the ``(low, high)`` a tuner searches within."""
    doc: str = ""
    validate: Callable[[tuple[float, ...]], str | None] | None = None
    """An extra check of a seat's values (e.g. a search's parameters): the reason they are
    not accepted, or None; ``check`` raises it as an InputError."""
    quick: tuple[float, ...] = ()
    """Cheaper values (a search at few iterations), with which ``montecards.testing``'s replay
    checks play the strategy (``GameSpec.quick_strategies``); empty: its defaults."""
    least: int = 0
    """The fewest weights a label may give (``ismcts[10000]``): the missing trailing ones take
    their defaults. 0: every weight must be given (a weighted player's dozen features)."""

    def __post_init__(self) -> None:
        if not 0 < len(self.features) <= MAX_WEIGHTS:
            raise ValueError(f"a weighted strategy has 1 to {MAX_WEIGHTS} features, got {len(self.features)}")
        if len(self.default) != len(self.features) or len(self.bounds) != len(self.features):
            raise ValueError("default and bounds need one entry per feature")

    def check(self, name: str, weights: Sequence[Any]) -> tuple[float, ...]:
        """``weights`` as floats, or InputError saying what ``name`` takes."""
        try:
            values = tuple(float(w) for w in weights)
        except (TypeError, ValueError):
            raise InputError(
                f"{name} takes {len(self.features)} numbers as weights, got {weights!r}"
            ) from None
        least = self.least or len(self.features)
        if not least <= len(values) <= len(self.features):
            counted = (f"{len(self.features)}" if least == len(self.features)
                       else f"{least} to {len(self.features)}")
            raise InputError(
                f"{name} takes {counted} weights ({', '.join(self.features)}), got {len(values)}"
            )
        values = values + tuple(self.default[len(values):])
        bad = [v for v in values if not math.isfinite(v)]
        if bad:
            raise InputError(f"{name}'s weights must be finite numbers, got {bad[0]}")
        reason = self.validate(values) if self.validate is not None else None
        if reason:
            raise InputError(f"{name}: {reason}")
        return values


def weighted_and_tuned(features: tuple[str, ...], default: tuple[float, ...], tuned: tuple[float, ...],
                       bounds: tuple[tuple[float, float], ...], doc: str) -> dict[str, Weights]:
    """A game's two usual weighted built-ins, for ``GameSpec.seat_params``: ``weighted`` (defaults
    ``default``) and ``tuned``, the same features and bounds with a tuning run's weights."""
    return {
        "weighted": Weights(features, default, bounds, doc),
        "tuned": Weights(features, tuned, bounds, "weighted with a tuning run's weights (TUNED_WEIGHTS)"),
    }


@dataclass(frozen=True)
class WeightedSeat:
    """A seat playing the weighted built-in ``name`` with explicit ``weights``."""

    name: str
    weights: tuple[float, ...]

    @property
    def label(self) -> str:
        return f"{self.name}[{','.join(format_weight(w) for w in self.weights)}]"

    def __str__(self) -> str:
        return self.label


def format_weight(w: float) -> str:
    """A weight as its shortest exact text (``repr`` of the float, ``1`` for ``1.0``)."""
    text = repr(float(w))
    return text[:-2] if text.endswith(".0") else text


_BRACKETED = re.compile(r"^([A-Za-z_][\w-]*)\[(.*)\]$")


def parse_label(text: str) -> tuple[str, list[str]] | None:
    """``("weighted", ["1", "0.5"])`` for ``"weighted[1,0.5]"``, None for anything else."""
    match = _BRACKETED.match(text.strip())
    if match is None:
        return None
    inner = match.group(2).strip()
    return match.group(1), [part.strip() for part in inner.split(",")] if inner else []


def seat_weights(entries: Sequence[Any], weighted: dict[str, Weights]) -> list[tuple[float, ...] | None]:
    """Per seat its weights (explicit, or its built-in's defaults), None for other seats."""
    out: list[tuple[float, ...] | None] = []
    for entry in entries:
        if isinstance(entry, WeightedSeat):
            out.append(entry.weights)
        elif isinstance(entry, str) and entry in weighted:
            out.append(weighted[entry].default)
        else:
            out.append(None)
    return out


def append_table(params: np.ndarray, weights: Sequence[tuple[float, ...] | None]) -> np.ndarray:
    """``params`` with the weights table appended, or ``params`` itself when no seat has weights."""
    if all(w is None for w in weights):
        return params
    table = np.zeros((MAX_SEATS, MAX_WEIGHTS), np.float64)
    for seat, w in enumerate(weights):
        if w is not None:
            table[seat, : len(w)] = w
    return np.concatenate([np.asarray(params, np.float64), table.ravel()])

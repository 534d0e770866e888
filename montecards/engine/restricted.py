"""Restricted play: ``restrict(INNER, never=PATTERN)`` and ``restrict(INNER, first=PATTERN)``
(Jaffe et al., "Evaluating competitive game balance with restricted play", AIIDE 2012;
docs/metrics.md, "Restricted play").

A restricted strategy is a user strategy (``engine/user_strategies.py``) whose compiled function
wraps INNER's:

* ``never=PATTERN``: the legal moves that play a card the pattern names are removed from
  ``legal`` and INNER chooses among the rest; when every legal move matches, the restriction
  cannot apply and INNER chooses among all;
* ``first=PATTERN``: when a legal move plays a matching card, the first such (in legal order)
  is played; otherwise INNER chooses (after any ``never=`` filter).

Several terms may be given (``restrict(greedy, never=red, never=0)``): the ``never`` patterns
are joined (a move matching any is removed), and so are the ``first`` ones.

The engine knows no game: what a pattern names and what "plays" means come from the game's
``montecards.games.<game>.restrict`` module, which has ``PATTERN_SIZE``, ``FORMS`` (the forms
a pattern may take, for messages), ``parse(text) -> mask`` (InputError for a bad pattern) and
the jitted ``plays(obs, move, mask) -> bool``. INNER is a user strategy (``file.py:choose``,
``package.module:choose``) or a built-in with an interface twin in ``montecards.strategies``
(``greedy``, ``weighted``, ``weighted[...]``, ``tuned``, ``random`` where the game has one).

The wrapper is a numba closure over INNER's compiled function and the masks; numba does not
cache closures on disk, so it is compiled in each process that plays it (its compile time is
in docs/metrics.md). It pickles as its label and is rebuilt from it (Dask workers, checkpoints).
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from montecards.engine import user_seats as jit_user
from montecards.engine.user_strategies import UserStrategy
from montecards.engine.weights import WeightedSeat
from montecards.errors import InputError, StrategyError

KEYS = ("never", "first")
PREFIX = "restrict("
TWINS = {"greedy": "greedy", "random": "random", "weighted": "weighted", "tuned": "weighted",
         "aggressive": "greedy"}
"""A built-in and the twin module ``montecards.strategies.<game>_<twin>`` that plays it."""
TWIN_FUNCTION = {"aggressive": "choose_aggressive"}
_BUILT: dict[tuple, RestrictedStrategy] = {}
"""The restricted strategies of this process, by game, label and INNER's source and params."""


def is_restricted(text: Any) -> bool:
    """True for a label of the form ``restrict(...)``."""
    return isinstance(text, str) and text.strip().lower().startswith(PREFIX)


def split_top(text: str) -> list[str]:
    """``text`` split at the commas outside brackets and parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth < 0:
                raise InputError(f"strategy {text!r}: unbalanced brackets")
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if depth != 0:
        raise InputError(f"strategy {text!r}: unbalanced brackets")
    parts.append(text[start:].strip())
    return parts


def parse_label(text: str) -> tuple[str, list[tuple[str, str]]]:
    """``("greedy", [("never", "red-0")])`` for ``restrict(greedy, never=red-0)``; InputError
    naming what is wrong otherwise."""
    body = text.strip()
    if not is_restricted(body) or not body.endswith(")"):
        raise InputError(f"strategy {text!r}: write it restrict(STRATEGY, never=PATTERN, ...)")
    parts = split_top(body[len(PREFIX):-1])
    inner, terms = parts[0], []
    if is_restricted(inner):
        raise InputError(f"strategy {text!r}: restrict(...) inside restrict(...): "
                         "give every term to one")
    if not inner or "=" in inner:
        raise InputError(f"strategy {text!r}: the first argument of restrict(...) is the "
                         "strategy it restricts")
    if len(parts) == 1:
        raise InputError(f"strategy {text!r}: restrict(...) needs at least one term, "
                         "never=PATTERN or first=PATTERN")
    for part in parts[1:]:
        key, sep, value = (s.strip() for s in part.partition("="))
        if not sep or key not in KEYS:
            raise InputError(f"strategy {text!r}: unknown term {part!r} "
                             "(terms are never=PATTERN and first=PATTERN)")
        if not value:
            raise InputError(f"strategy {text!r}: {key}= has an empty pattern")
        terms.append((key, value))
    return inner, terms


def game_module(game: str) -> Any:
    """``montecards.games.<game>.restrict``, or InputError when the game has none."""
    name = f"montecards.games.{game}.restrict"
    if importlib.util.find_spec(name) is None:
        raise InputError(f"{game} has no patterns for restricted play (restrict(...) needs player decisions)")
    return importlib.import_module(name)


@dataclass(eq=False)
class RestrictedStrategy(UserStrategy):
    """INNER restricted by ``never`` and ``first`` masks (from the game's ``restrict`` module)."""

    text: str = ""
    inner: UserStrategy | None = None
    never: np.ndarray | None = field(default=None, repr=False)
    first: np.ndarray | None = field(default=None, repr=False)

    @property
    def name(self) -> str:
        return self.text

    @property
    def reference(self) -> str:
        return self.text

    @property
    def label(self) -> str:
        return self.alias or self.text

    def __reduce__(self):
        self.inner.check_portable()
        return (rebuild, (self.text, self.game))

    def identity(self) -> dict[str, Any]:
        return {"strategy": self.text, "origin": "restrict", "inner": self.inner.identity(),
                "memory": self.memory}

    def bind(self, params: Any) -> UserStrategy:
        if params is None or len(params) == 0:
            return self
        raise StrategyError(
            f"strategy {self.text}: give the weights to the strategy it restricts, e.g. "
            "restrict(weighted[w0,w1,...], never=...)")

    def for_game(self, game: str, has_decisions: bool) -> UserStrategy:
        if game != self.game:
            raise StrategyError(f"strategy {self.text} is built for {self.game}, not for {game}")
        return self

    def compiled(self) -> Any:
        if self._compiled is None:
            self._compiled = _compile(self)
        return self._compiled


def build(text: str, spec: Any) -> RestrictedStrategy:
    """The restricted strategy ``text`` names, for ``spec``'s game (InputError/StrategyError)."""
    inner_text, terms = parse_label(text)
    if not spec.has_decisions:
        raise InputError(f"{spec.name} has no player decisions: restrict(...) cannot play it")
    module = game_module(spec.name)
    masks = {key: np.zeros(module.PATTERN_SIZE, dtype=np.int64) for key in KEYS}
    for key, pattern in terms:
        masks[key] |= module.parse(pattern)
    inner = _inner(inner_text, spec)
    label = f"restrict({inner_text}, {', '.join(f'{k}={v}' for k, v in terms)})"
    key = (spec.name, label, inner.source_hash, inner.params)
    if key in _BUILT:  # compiled once per process (a decision log per game asks again and again)
        return _BUILT[key]
    function = _wrapper(inner.function, module.plays, masks["never"], masks["first"],
                        bool(masks["never"].any()), bool(masks["first"].any()))
    _BUILT[key] = RestrictedStrategy(
        function=function, game=spec.name, memory=inner.memory, params=inner.params,
        origin="restrict", source=label, source_hash=inner.source_hash, declared=inner.declared,
        param_names=inner.param_names, text=label, inner=inner, never=masks["never"],
        first=masks["first"])
    return _BUILT[key]


def rebuild(text: str, game: str) -> RestrictedStrategy:
    """A restricted strategy unpickled (a Dask worker, a checkpoint): built again from its label."""
    games = importlib.import_module("montecards.games")  # by name: the games sit above the engine
    return build(text, games.get(game))


def _inner(text: str, spec: Any) -> UserStrategy:
    """INNER as a user strategy: itself, or the interface twin of a built-in."""
    entry = spec._strategy_entry(text)
    if isinstance(entry, UserStrategy):
        return entry
    name = entry.name if isinstance(entry, WeightedSeat) else entry
    twin = TWINS.get(name)
    reference = f"montecards.strategies.{spec.name}_{twin}"
    if twin is None or importlib.util.find_spec(reference) is None:
        have = [b for b in spec.strategies if b in TWINS
                and importlib.util.find_spec(f"montecards.strategies.{spec.name}_{TWINS[b]}") is not None]
        raise StrategyError(
            f"restrict({text}, ...): {spec.name}'s built-in {name} has no twin over the decision "
            f"interface (built-ins that have one: {', '.join(have)}; or give a user strategy)")
    from montecards.engine.user_strategies import load  # noqa: PLC0415

    found = load(f"{reference}:{TWIN_FUNCTION.get(name, 'choose')}", spec.name)
    if isinstance(entry, WeightedSeat):
        return found.bind(entry.weights)
    if name in spec.seat_params:
        return found.bind(spec.seat_params[name].default)
    return found


def _wrapper(call: Any, plays: Any, never: np.ndarray, first: np.ndarray,
             has_never: bool, has_first: bool) -> Any:
    """The restricted ``choose`` over INNER's function ``call``: plain Python with INNER's
    Python function (it runs as it stands, for trying it out), or compiled by numba with INNER's
    compiled function."""

    def restricted_choose(obs, legal, params, memory, rng):
        n = legal.shape[0]
        if has_first:
            for i in range(n):
                if plays(obs, legal[i], first):
                    return i
        if not has_never:
            return call(obs, legal, params, memory, rng)
        kept = np.empty(n, dtype=np.int64)
        k = 0
        for i in range(n):
            if not plays(obs, legal[i], never):
                kept[k] = i
                k += 1
        if k == 0 or k == n:  # every move matches (forced), or none does
            return call(obs, legal, params, memory, rng)
        if k == 1:  # one move left: no choice for INNER (some twins read a two-move legal by slot)
            return kept[0]
        moves = np.empty(k, dtype=np.int64)
        for j in range(k):
            moves[j] = legal[kept[j]]
        j = call(obs, moves, params, memory, rng)
        if j < 0 or j >= k:
            return n  # outside legal: the kernel reports INNER's bad index
        return kept[j]

    return restricted_choose


def _compile(strategy: RestrictedStrategy) -> Any:
    """The wrapper compiled for :data:`~montecards.engine.user_seats.SIG`, calling INNER's own
    compiled function (numba's disk cache holds INNER; the wrapper is compiled here, each time)."""
    from numba import njit

    module = game_module(strategy.game)
    function = _wrapper(strategy.inner.compiled(), module.plays, strategy.never, strategy.first,
                        bool(strategy.never.any()), bool(strategy.first.any()))
    try:
        dispatcher = njit(function)
        dispatcher.compile(jit_user.SIG)
    except Exception as error:  # noqa: BLE001 - numba's typing errors
        raise StrategyError(
            f"strategy {strategy.text} does not compile: {str(error).splitlines()[0]}") from None
    dispatcher.disable_compile()
    return dispatcher


__all__ = ["RestrictedStrategy", "build", "is_restricted", "parse_label", "rebuild"]

"""One specialisation per jitted function of the package: no copies for integer constants.

When a jitted function calls another with an integer constant (``seed_stream(rng, seed, i,
DECK_STREAM)``, ``majority_action(g, seat, 0, first, -1)``), numba types that argument as a
*literal* (``Literal[int](0)``) and compiles the callee once more for it, next to the
``int64`` copy the other call sites use. Measured on a cold first run: Gift of Tulips compiled
``majority_action`` twice (~4 s each), ``majorities`` three times, Parade ``seed_stream`` and
``field_max`` twice. The copies buy nothing worth their compile time: the constant only
reaches the callee's code when LLVM inlines it (small callees), and then it does so from the
``int64`` copy as well.

:func:`install` makes numba's dispatcher type integer-literal arguments as plain integers
when it compiles a function of this package for a call from jitted code (functions outside
the package, a user's strategy, keep numba's behaviour). Boolean literals and ``None`` keep
theirs: kernels rely on them to compile unused paths out (``lazy``, ``seats=None``).
``MONTECARDS_LITERAL_SPECIALISATION=1`` turns it off (for measuring).
"""

from __future__ import annotations

import os

from numba.core import types
from numba.core.dispatcher import Dispatcher

PREFIX = "montecards."
ENABLED = os.environ.get("MONTECARDS_LITERAL_SPECIALISATION", "").strip().lower() in ("", "0", "false", "no")


def _plain(ty):
    return types.unliteral(ty) if isinstance(ty, types.IntegerLiteral) else ty


def _ours(dispatcher) -> bool:
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
    return module.startswith(PREFIX)


_numba_get_call_template = Dispatcher.get_call_template


def get_call_template(self, args, kws):
    """numba's, with integer literals of a montecards function's arguments made plain."""
    if _ours(self):
        args = tuple(_plain(a) for a in args)
        kws = {k: _plain(v) for k, v in kws.items()}
    return _numba_get_call_template(self, args, kws)


def install() -> None:
    """Patch numba's dispatcher (once; a no-op when turned off)."""
    if ENABLED and Dispatcher.get_call_template is _numba_get_call_template:
        Dispatcher.get_call_template = get_call_template


install()

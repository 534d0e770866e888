"""The decorator for the jitted functions of a game's turn loop.

``hot`` compiles a function with numba's cache and **without reference counting**
(numba's private ``_nrt=False`` option). With reference counting, every call of a small
rule helper whose array use sits in a branch (or that has several returns) costs an atomic
incref/decref pair of the state array; in the Parade and Joker Marbles kernels that was
measured at about half of the run time.

A ``hot`` function must not allocate (no ``np.zeros``/``np.empty``, no array-to-array slice
assignment, which numba implements with a temporary): working arrays are allocated once per
block of games by a normal ``njit`` function and passed in. The option is private to numba;
``tests/test_conformance.py`` runs every kernel, so a numba upgrade that drops it fails there.

The cache is keyed on every source a kernel can reach (``montecards/_cache.py``), so an edit
of a rules module recompiles the kernels that inline it.

``MONTECARDS_SAFE_JIT=1`` turns the private option off: ``hot`` is then plain
``njit(cache=True)`` (and ``engine.borrow`` hands out the arrays themselves), compiled and
cached apart from the fast kernels. Games must be identical either way; CI runs the
conformance check once that way.
"""

from __future__ import annotations

from numba import njit

from montecards._cache import SAFE_JIT

_FAST = {} if SAFE_JIT else {"_nrt": False}

hot = njit(cache=True, **_FAST)

hot_inline = njit(cache=True, inline="always", **_FAST)
"""``hot``, and inlined into its callers by numba (at the IR level).

For the rule functions the game loop calls once per turn (or once per seat at the end) from
one place: numba passes every array argument as seven machine words on the stack, and these
functions are too large for LLVM to inline on its own, so each call cost ~50 instructions of
argument copying. Inlining a function called from many places multiplies its compile time.

Also for a small function with one call site in the kernels (Joker Marbles' ``deal``,
``check_win``, ``random_choice``, ``best_move``, ...): it is one separately compiled function
less. Each costs a cold first run ~50 ms of numba's fixed work (its own pipeline, CPython
wrapper, cache file) plus LLVM's optimisation and machine code of everything it calls, which
numba links into it and compiles again for each caller. Not for a larger function full of
inlined accessors: Marbles' ``gen_card`` and ``marble_info`` inlined into ``gen_hand`` made
``gen_hand`` compile ~1 s slower than the three apart (``benchmarks/compile_profile.py``).
"""

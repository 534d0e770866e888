"""Borrowed array views that numba does not reference-count.

Every jitted call increments and decrements the reference count of each array argument,
and those are atomic operations: in a game kernel that calls small rule functions a few
times per turn they cost more than the rules themselves. A view made by ``borrow`` points
at the same memory but carries no memory-info block, so those operations become no-ops.

The caller must keep the owning array alive for as long as the view is used: numba frees a
local array right after its last use, so a kernel that borrows views of its working arrays
calls ``keep_alive(owner)`` after the loop that uses the views.

With ``MONTECARDS_SAFE_JIT=1`` (``engine/jit.py``) ``borrow`` returns the array itself: plain,
reference-counted numba, which must play exactly the same games.
"""

from __future__ import annotations

import numba
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from montecards._cache import SAFE_JIT


@intrinsic
def _address_as_pointer(typingctx, address):
    """Reinterpret an integer address as ``void*`` (for ``numba.carray``)."""
    sig = types.voidptr(address)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return sig, codegen


@njit(cache=True, inline="always")
def _borrowed(array):
    """A view of a C-contiguous ``array`` without reference counting (keep ``array`` alive)."""
    return numba.carray(_address_as_pointer(array.ctypes.data), array.shape, array.dtype)


@njit(cache=True, inline="always")
def _itself(array):
    """``MONTECARDS_SAFE_JIT=1``: the array itself, reference-counted as usual."""
    return array


borrow = _itself if SAFE_JIT else _borrowed


@njit(cache=True)
def keep_alive(owner):
    """Mark a use of ``owner`` at this point: numba frees a variable after its last use, so a
    function that borrows views of ``owner`` must call this after the views' last use."""
    return owner is not None


def borrow_all(arrays):
    """Borrowed views of a tuple's arrays (``borrow`` each; anything else in the tuple is passed
    as it is); None stays None. Jitted code only.

    Every array is borrowed, an empty one (a zero-size trace or script) too: its type is the
    same either way and nothing is ever read through it, so the view only spares its
    reference counting (the owner's ``keep_alive`` covers it like the others)."""
    raise NotImplementedError("borrow_all is only callable from jitted code")


def _borrow_all_source(kinds: tuple[bool, ...]) -> str:
    """The implementation of ``borrow_all`` for a tuple whose item ``i`` is an array when
    ``kinds[i]``: one function per tuple type, no loop (numba cannot build a tuple in one)."""
    items = "".join(f"borrow(arrays[{i}]), " if array else f"arrays[{i}], "
                    for i, array in enumerate(kinds))
    return f"def borrow_{len(kinds)}(arrays):\n    return ({items})\n"


@overload(borrow_all, jit_options={"cache": True})
def _borrow_all(arrays):
    if isinstance(arrays, types.NoneType):
        return lambda arrays: None
    if isinstance(arrays, types.BaseTuple):
        kinds = tuple(isinstance(t, types.Array) for t in arrays.types)
        scope = {"borrow": borrow, "__name__": __name__}
        # compiled as this file's code, so that numba caches it with the engine's stamp
        exec(compile(_borrow_all_source(kinds), __file__, "exec"), scope)
        return scope[f"borrow_{len(kinds)}"]
    return None

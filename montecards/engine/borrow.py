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
    """Borrowed views of a tuple of arrays (``borrow`` each); None stays None."""
    raise NotImplementedError("borrow_all is only callable from jitted code")


@overload(borrow_all, jit_options={"cache": True})
def _borrow_all(arrays):
    if isinstance(arrays, types.NoneType):
        return lambda arrays: None
    if isinstance(arrays, types.BaseTuple) and len(arrays) == 3:
        return lambda arrays: (borrow(arrays[0]), borrow(arrays[1]), borrow(arrays[2]))
    return None

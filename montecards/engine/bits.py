"""Bit tricks for kernels that keep small sets as 64-bit masks."""

from __future__ import annotations

from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of an integer (one ``popcnt`` instruction on x86-64)."""
    if not isinstance(x, types.Integer):
        return None
    sig = x(x)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen

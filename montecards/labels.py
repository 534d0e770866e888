"""Readable names of per-game quantities, shared by the analysis layer and the plots."""

from __future__ import annotations


def describe(quantity: str) -> str:
    """A readable name of a per-game quantity (``win_0`` → "seat 1 win share")."""
    name, _, k = quantity.rpartition("_")
    if name and k.isdigit():
        label = {"win": "win share", "score": "score"}.get(name, name.replace("_", " "))
        return f"seat {int(k) + 1} {label}"
    return {"shared": "shared-win rate", "unfinished": "unfinished rate"}.get(
        quantity, quantity.replace("_", " ")
    )

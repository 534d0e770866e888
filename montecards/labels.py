"""Readable names of per-game quantities, shared by the analysis layer and the plots."""

from __future__ import annotations


def describe(quantity: str) -> str:
    """A readable name of a per-game quantity (``win_0`` → "seat 1 win share")."""
    name, _, k = quantity.rpartition("_")
    if name and k.isdigit():
        label = {"win": "win share", "score": "score", "adjusted": "luck-adjusted win share"}.get(
            name, name.replace("_", " "))
        return f"seat {int(k) + 1} {label}"
    return {"shared": "shared-win rate", "unfinished": "unfinished rate"}.get(
        quantity, quantity.replace("_", " ")
    )


def short_strategy(label: str, width: int = 22, max_lines: int = 3) -> str:
    """A strategy's label fit for a plot's tick or title: a user strategy's folders dropped
    (``/home/me/work/my_parade.py:choose`` → ``my_parade.py:choose``), weights to 3 significant
    digits, then wrapped into lines of at most ``width`` characters (after a ``:`` or a comma,
    or before a ``[``), at most ``max_lines`` of them, the last ending in "…" when cut. The
    full label is in the text and JSON outputs."""
    head, bracket, weights = label.partition("[")
    path, colon, name = head.rpartition(":")
    tokens = [head]
    if colon:
        tokens = [path.replace("\\", "/").rsplit("/", 1)[-1] + colon, name]
    if bracket:
        numbers = weights.rstrip("]").split(",")
        tokens.append("[")
        for k, number in enumerate(numbers):
            tokens.append(_short_number(number) + ("," if k < len(numbers) - 1 else "]"))
    lines = [""]
    for token in tokens:
        if lines[-1] and len(lines[-1]) + len(token) > width and token != "[":
            lines.append("")
        while len(lines[-1]) + len(token) > width:  # a token longer than a line: cut it
            room = width - len(lines[-1])
            lines[-1] += token[:room]
            token = token[room:]
            lines.append("")
        lines[-1] += token
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1][: width - 1] + "…"
    return "\n".join(lines)


def _short_number(text: str) -> str:
    try:
        value = float(text)
    except ValueError:
        return text
    return str(int(value)) if value.is_integer() and abs(value) < 1e9 else f"{value:.3g}"

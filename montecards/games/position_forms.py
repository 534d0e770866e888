"""What every game's positions share (issue #32): the two written forms and their reading.

A game's ``position.py`` defines its ``Position`` (built from a dict, validated on construction,
with ``to_dict`` and ``to_string``) on :class:`PositionForms`, checks the dict's keys with
:func:`check_keys` and reads text with :func:`parse_position`: a ``Position``, a dict, JSON text, or the one-line form ``<game>
key=value ...``, whose fields the game turns into its dict. Errors are ``InputError``s of one
line (exit 2 on the command line). Parade's position.py predates this module and still has its
own copy of these few functions.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from montecards.engine.spec import InputError


def as_int(value: Any, what: str) -> int:
    """``value`` as an integer (text too; never a bool), else a one-line ``InputError``."""
    if isinstance(value, bool):
        raise InputError(f"position: {what} must be an integer, got {value!r}")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise InputError(f"position: {what} must be an integer, got {value!r}") from None


def check_keys(data: Any, game: str, keys: tuple[str, ...], required: tuple[str, ...]) -> None:
    """A position's dict: an object of known keys, of this game, with every required key."""
    if not isinstance(data, dict):
        raise InputError("position: expected a JSON object")
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise InputError(f"position: unknown key {unknown[0]!r} (keys: {', '.join(keys)})")
    if data.get("game", game) != game:
        raise InputError(f"position: game must be {game!r}, got {data.get('game')!r}")
    for key in required:
        if key not in data:
            raise InputError(f"position: missing {key!r}")


class PositionForms:
    """The written forms of a position: ``to_json``, ``str`` (the one-line form), equality by
    the JSON form. Subclasses define ``game``, ``to_dict`` and ``to_string``."""

    game = ""

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def to_string(self) -> str:
        raise NotImplementedError

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"Position({self.to_string()!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_dict() == other.to_dict()

    __hash__ = None  # mutable, compared by value


def parse_position(text: Any, cls: type, game: str, line_data: Callable[[list[tuple[str, str]]], dict]) -> Any:
    """A ``cls`` position from a ``cls`` (itself), a dict, JSON text or the one-line form (its
    ``key=value`` pairs, in order, made into the dict by ``line_data``)."""
    if isinstance(text, cls):
        return text
    if isinstance(text, dict):
        return cls(text)
    text = str(text).strip()
    if text.startswith("{"):
        try:
            return cls(json.loads(text))
        except json.JSONDecodeError as exc:
            raise InputError(f"position: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    fields = text.split()
    if not fields or fields[0] != game:
        raise InputError(f"position: a one-line {game} position starts with '{game}'")
    pairs = []
    for field_text in fields[1:]:
        key, sep, value = field_text.partition("=")
        if not sep:
            raise InputError(f"position: expected key=value, got {field_text!r}")
        pairs.append((key, value))
    return cls(line_data(pairs))

"""High card's public face: its spec for the engine, trace, decision log and scripted play
(docs/rules/template.md).

This is the file a new game's Python side copies: the parameters (``PARAMS``, with a check
that spans two of them in ``check_deal``, the spec's ``check_params``), the trace buffer, frame
and ``trace``, ``play_scripted`` with its ``script_from_trace``, and the ``SPEC`` naming them
all, built once at the end. The engine makes the rest from the ``kernel`` and ``view`` modules:
the chunk glue, the trace's replay and the decision log (``decisions``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

from montecards.engine.spec import WIN_UNIT, GameSpec, InputError, Param, check_int_range
from montecards.engine.trace import events_of, new_trace
from montecards.games.template import kernel, rules, strategies, view
from montecards.games.template.cards import (
    MAX_DECK,
    MAX_HAND,
    MAX_PLAYERS,
    MIN_DECK,
    MIN_HAND,
    MIN_PLAYERS,
)

EVENT_NAMES = {rules.EV_DEAL: "deal", rules.EV_PLAY: "play", rules.EV_TAKE: "take"}
ERRORS = {
    kernel.ERR_PLAY_NOT_IN_HAND: "card not in that seat's hand",
    kernel.ERR_TOO_FEW_PLAYS: "too few plays",
    kernel.ERR_TOO_MANY_PLAYS: "too many plays",
}

PARAMS = (
    Param("deck_size", 30, f"cards in the deck, numbered 0 .. deck_size - 1 ({MIN_DECK} to {MAX_DECK})",
          int, check_int_range("deck_size", MIN_DECK, MAX_DECK)),
    Param("hand_size", 5, f"cards dealt to each seat, and the number of tricks ({MIN_HAND} to {MAX_HAND})",
          int, check_int_range("hand_size", MIN_HAND, MAX_HAND)),
)


def check_deal(players: int, params: dict[str, Any]) -> None:
    """The deck must hold every hand (rules: Components); raises InputError saying so.

    (A ``Param.check`` sees one parameter; a rule between two is checked here, the spec's
    ``check_params``: ``resolve_params`` calls it, so every run, trace and scripted game is
    refused alike, and ``montecards.testing`` plays no parameter set where it is refused.)
    """
    needed = players * params["hand_size"]
    if needed > params["deck_size"]:
        raise InputError(
            f"{players} hands of hand_size={params['hand_size']} need {needed} cards, more than "
            f"deck_size={params['deck_size']}: raise deck_size or lower hand_size"
        )


def pack_params(players: int, params: dict[str, Any]) -> np.ndarray:
    """The resolved parameters (``SPEC.resolve_params``: checked) as the kernel's float64
    vector (``kernel.PARAM_*``)."""
    return np.array([params["deck_size"], params["hand_size"]], dtype=np.float64)


def _new_trace(players: int, params: dict[str, Any]) -> np.ndarray:
    return new_trace(rules.max_events(players, params["hand_size"]), rules.TRACE_FIELDS)


def _trace_frame(buffer: np.ndarray) -> pd.DataFrame:
    """Readable events from a kernel trace buffer (``engine.trace``): one row per event."""
    records = [
        {"trick": trick if kind != rules.EV_DEAL else -1, "event": EVENT_NAMES[kind], "seat": seat,
         "card": card}
        for kind, seat, card, trick in events_of(buffer).tolist()
    ]
    import pandas as pd  # lazily: workers that only play chunks never load it

    return pd.DataFrame.from_records(records, columns=["trick", "event", "seat", "card"])


def trace(seed: int, index: int, players: int, params: dict[str, Any], strategy_names: Sequence[Any]):
    """Every event of game ``index`` of the run with ``seed`` (the very same game the run played).

    ``strategy_names``: per seat a built-in name or a user strategy (``SPEC.strategy_codes``)."""
    buffer, row = SPEC.trace_buffer(seed, index, players, params, strategy_names)
    return _trace_frame(buffer), row


LOG_CAPACITY = MAX_PLAYERS * MAX_HAND
"""Decisions a game's log holds: one per card played (the engine's ``decisions`` plays a longer
game again with a log of its length)."""


def _card_ids(cards: Sequence[Any], deck_size: int, what: str) -> np.ndarray:
    """The cards as int64 ids; raises ValueError naming the allowed numbers."""
    ids = []
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, (int, np.integer)) or not 0 <= card < deck_size:
            raise ValueError(f"{what}: unknown card {card!r} (cards are the numbers 0 .. {deck_size - 1})")
        ids.append(int(card))
    return np.array(ids, dtype=np.int64)


def play_scripted(
    deck: Sequence[int],
    players: int,
    plays: Sequence[int],
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play one game from an explicit deck order and explicit plays.

    ``deck``: every card ``0 .. deck_size - 1`` once, top first (dealt in blocks as
    docs/rules/template.md says); ``plays``: the card played at each turn, all seats in play
    order; ``params``: the rule parameters (defaults for those not given). Returns ``scores``
    (points per seat), ``win_share``, ``turns``, ``trick_takers`` (the seat that took each
    trick), ``led`` (tricks each seat led) and ``leader_tricks`` (tricks taken by the seat that
    led them); raises ``ValueError`` with a clear message on
    any illegal input.
    """
    players = SPEC.check_players(players)
    resolved = SPEC.resolve_params(players, params)
    deck_size = resolved["deck_size"]
    deck_ids = _card_ids(deck, deck_size, "deck")
    if deck_ids.shape[0] != deck_size or len(set(deck_ids.tolist())) != deck_size:
        raise ValueError(f"deck must hold each of the {deck_size} cards exactly once")
    play_ids = _card_ids(plays, deck_size, "plays")
    buffer = _new_trace(players, resolved)
    row = np.zeros(SPEC.layout(players).width, dtype=np.int64)
    err = kernel.play_script(deck_ids, players, resolved["hand_size"], play_ids, row, buffer)
    if err != kernel.ERR_NONE:
        turn = int((_trace_frame(buffer)["event"] == "play").sum())
        raise ValueError(f"illegal script at turn {turn}: {ERRORS[err]}")
    return _scripted_result(_trace_frame(buffer), row, players)


def _scripted_result(events: pd.DataFrame, row: np.ndarray, players: int) -> dict[str, Any]:
    layout = SPEC.layout(players)
    return {
        "scores": row[layout.seat_slice("score")].tolist(),
        "win_share": (row[layout.seat_slice("win")] / WIN_UNIT).tolist(),
        "turns": int(row[layout.column("turns")]),
        "trick_takers": events.loc[events["event"] == "take", "seat"].tolist(),
        "led": row[layout.seat_slice("led")].tolist(),
        "leader_tricks": int(row[layout.column("leader_tricks")]),
    }


def script_from_trace(events: pd.DataFrame, players: int, params: dict[str, Any] | None) -> dict[str, Any]:
    """The keyword arguments of ``play_scripted`` that replay a traced game.

    ``events``: the trace of one game (``trace`` or ``montecards.trace``; every decision is in
    it, so the strategies are not needed); ``params``: the game's rule parameters (the trace
    does not hold them). The deck is the dealt cards in the order they left it, then the
    cards set aside in id order (they play no part); the plays are the traced ones.
    """
    players = SPEC.check_players(players)
    resolved = SPEC.resolve_params(players, params)
    dealt = events.loc[events["event"] == "deal", "card"].tolist()
    set_aside = sorted(set(range(resolved["deck_size"])) - set(dealt))
    script = {
        "deck": dealt + set_aside,
        "players": players,
        "plays": events.loc[events["event"] == "play", "card"].tolist(),
    }
    if params is not None:
        script["params"] = dict(params)
    return script


SPEC = GameSpec(
    name="template",
    title="High card (template)",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=3,
    strategies=strategies.NAMES,
    default_strategy="greedy",
    params=PARAMS,
    metrics=("leader_tricks",),
    seat_outputs=("led",),
    score_name="points (higher wins)",
    turns_name="cards played",
    kernel=kernel,
    pack_params=pack_params,
    trace=trace,
    check_params=check_deal,
    notes="most points wins; ties share the win",
    # rate_metrics=(...): metrics that are 0/1 per game, reported as rates (Parade's six_colours)
    new_trace=_new_trace,
    log_capacity=LOG_CAPACITY,
    view=view,
    play_scripted=play_scripted,
    script_from_trace=script_from_trace,
)
decisions = SPEC.decisions

__all__ = ["SPEC", "decisions", "play_scripted", "script_from_trace", "trace", "InputError"]

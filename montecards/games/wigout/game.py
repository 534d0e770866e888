"""Wig Out!'s public face: its spec for the engine, the trace, the decision log and the scripted
game (docs/rules/wigout.md). The readings of the rules page this implementation chose are
written once, in ``rules.py``'s docstring.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

from montecards.engine.spec import (
    WIN_UNIT,
    GameSpec,
    InputError,
    Param,
    check_bool,
    check_int_range,
    check_number,
    check_per_seat_floats,
    parse_bool,
    parse_float_list,
)
from montecards.engine.trace import events_of
from montecards.engine.weights import WeightedSeat
from montecards.engine.value import ValueParts
from montecards.games.wigout import kernel, luck, rules, value, view
from montecards.games.wigout.cards import MAX_CHARS, MAX_PLAYERS, default_hand_size
from montecards.games.wigout.strategies import NAMES, WEIGHTS

EVENT_NAMES = {
    rules.EV_DEAL: "deal",
    rules.EV_START: "start",
    rules.EV_ADD: "add",
    rules.EV_DRAW: "draw",
    rules.EV_WIGOUT: "wig_out",
    rules.EV_DEADLOCK: "deadlock",
}
TRACE_COLUMNS = [
    "deal", "round", "event", "seat", "character", "cards", "wait", "time", "choice",
    "hand", "table", "draw_pile", "detail",
]


PARAMS = (
    Param("characters", 12, "characters in the deck (12; an edition has 14)", int,
          check_int_range("characters", 1, MAX_CHARS)),
    Param("copies", 5, "copies of each character", int,
          check_int_range("copies", 1, 1000)),
    Param("hand_size", default_hand_size, "cards dealt to each seat (7 with 2-4 players, 5 with 5-6)",
          int, check_int_range("hand_size", 1)),
    Param("rounds", 5, "counted rounds in a game", int, check_int_range("rounds", 1, 10_000)),
    Param("deadlock_counts_as_round", True,
          "a deadlocked round counts as one of the rounds (else it is replayed; capped at rounds*100 deals)",
          parse_bool, check_bool("deadlock_counts_as_round")),
    Param("speed", lambda players: [1.0] * players,
          "per-seat speed (rate of actions), e.g. 1.25,1,1,1", parse_float_list,
          check_per_seat_floats("speed", positive=True)),
    Param("draw_time_factor", 1.0, "a draw takes this many times as long as a play (rate / factor)",
          float, check_number("draw_time_factor", 0.0, above=True)),
)


def check_deal(players: int, params: dict[str, Any]) -> None:
    """Raise InputError when ``hand_size`` cards per seat plus 2 starters exceed the deck."""
    deck = params["characters"] * params["copies"]
    need = players * params["hand_size"] + 2
    if need > deck:
        raise InputError(
            f"parameter hand_size: cannot deal {params['hand_size']} cards to {players} players "
            f"plus 2 starter cards from a deck of {deck} cards (characters x copies)"
        )


def pack_params(players: int, params: dict[str, Any]) -> np.ndarray:
    """The validated parameters as the kernel's float64 vector (raises InputError)."""
    check_deal(players, params)
    speed = list(params["speed"])
    if len(speed) != players:
        raise InputError(f"parameter speed needs {players} values (one per seat), got {len(speed)}")
    return np.array(
        [
            params["characters"], params["copies"], params["hand_size"], params["rounds"],
            1.0 if params["deadlock_counts_as_round"] else 0.0, params["draw_time_factor"],
            *speed,
        ],
        dtype=np.float64,
    )


def _new_trace(players: int, params: dict[str, Any]) -> np.ndarray:
    """Room for a usual game (an unusually long one is played again in a buffer of its length:
    ``GameSpec.trace_buffer``)."""
    rows = params["rounds"] * (params["characters"] * params["copies"] + 400) + 64
    return np.zeros((rows, rules.TRACE_WIDTH), dtype=np.float64)


def _trace_frame(buffer: np.ndarray) -> pd.DataFrame:
    """Readable events from a kernel trace buffer (the deck of each deal in its ``detail``)."""
    events = events_of(buffer)
    decks: dict[int, list[int]] = {}
    for ev in events[events[:, rules.T_KIND] == rules.EV_CARD]:
        decks.setdefault(int(ev[rules.T_DEAL]), []).append(int(ev[rules.T_CHAR]))
    records = []
    for ev in events:
        kind = int(ev[rules.T_KIND])
        if kind == rules.EV_CARD:
            continue
        deal = int(ev[rules.T_DEAL])
        detail = ""
        character = int(ev[rules.T_CHAR])
        if kind == rules.EV_DEAL:
            a, b = character, int(ev[rules.T_AUX])
            piles = f"one pile of two {a}s" if a == b else f"piles {a} and {b}"
            deck = " ".join(str(c) for c in decks.get(deal, []))
            detail = f"dealer {int(ev[rules.T_SEAT])}; starters: {piles}; deck: {deck}"
        elif kind == rules.EV_DEADLOCK:
            detail = "counts as a round" if ev[rules.T_AUX] else "not counted: dealt again"
        records.append(
            {
                "deal": deal,
                "round": int(ev[rules.T_ROUND]),
                "event": EVENT_NAMES[kind],
                "seat": int(ev[rules.T_SEAT]),
                "character": character,
                "cards": int(ev[rules.T_CARDS]),
                "wait": float(ev[rules.T_WAIT]),
                "time": float(ev[rules.T_TIME]),
                "choice": float(ev[rules.T_CHOICE]),
                "hand": int(ev[rules.T_HAND_AFTER]),
                "table": int(ev[rules.T_TABLE_AFTER]),
                "draw_pile": int(ev[rules.T_PILE_AFTER]),
                "detail": detail,
            }
        )
    import pandas as pd  # lazily: workers that only play chunks never load it
    return pd.DataFrame.from_records(records, columns=TRACE_COLUMNS)


def trace(seed: int, index: int, players: int, params: dict[str, Any] | None = None,
          strategy_names: Sequence[Any] | str | None = None, deal: Any = None):
    """Every event of game ``index`` of the run with ``seed`` (the very game the run played).
    ``strategy_names``: per seat (or one for all) a built-in name or a user strategy
    (``SPEC.strategy_codes``); a user seat's plays show ``choice`` -1, as the other
    non-random built-ins'.

    Returns ``(events, row)``: one row per deal (dealer, starters, the whole deck top first in
    ``detail``), per action (``start``/``add``/``draw`` with ``seat``, ``character``, ``cards``
    moved, ``wait`` and simulated ``time``, the ``random`` strategy's ``choice`` or -1, and
    after it the actor's ``hand`` size, the cards on the ``table`` and the ``draw_pile`` size)
    and per round end (``wig_out`` with the seat, or ``deadlock``); ``row`` is the game's
    output row as ``run_chunk`` writes it. ``deal``: the deal option ``(replay, rotation)``
    (docs/luck.md), or None.
    """
    buffer, row = SPEC.trace_buffer(seed, index, players, params, strategy_names, deal)
    return _trace_frame(buffer), row


def script_from_trace(events: pd.DataFrame | np.ndarray, players: int,
                      strategies: Sequence[str] | str,
                      params: dict[str, Any] | None = None) -> dict[str, Any]:
    """The keyword arguments of :func:`play_scripted` that replay a traced game.

    ``events``: the DataFrame of :func:`trace` (or the kernel's raw trace rows); ``players``,
    ``strategies`` and ``params`` are those of the traced game (a trace does not repeat them).
    ``play_scripted(**script_from_trace(events, players, strategies, params))`` plays it again:
    ``round_decks`` (one full deck per deal, top first), ``events`` (``(actor, waiting_time)``
    per action) and ``random_choices`` (the uniforms the ``random`` seats drew).
    """
    inputs = _inputs_of(events) if isinstance(events, np.ndarray) else _inputs_of_frame(events)
    return {"round_decks": inputs["round_decks"], "players": players, "events": inputs["events"],
            "strategies": strategies, "params": params, "random_choices": inputs["random_choices"]}


def scripted_inputs(seed: int, index: int, players: int, params: dict[str, Any] | None = None,
                    strategy_names: Sequence[str] | str | None = None) -> dict[str, Any]:
    """The explicit inputs of game ``index`` of a run: ``round_decks``, ``events`` and
    ``random_choices`` of :func:`script_from_trace` (the older name, kept for its callers),
    so that ``play_scripted(**scripted_inputs(...), players=..., strategies=..., params=...)``
    replays it."""
    buffer, _row = SPEC.trace_buffer(seed, index, players, params, strategy_names)
    return _inputs_of(events_of(buffer))


def _inputs_of(events: np.ndarray) -> dict[str, Any]:
    """Decks, events and choices from the kernel's raw trace rows."""
    kinds = events[:, rules.T_KIND]
    cards = events[kinds == rules.EV_CARD]
    n_deals = int(kinds[kinds == rules.EV_DEAL].shape[0])
    decks = cards[:, rules.T_CHAR].astype(np.int64).reshape(n_deals, -1)
    actions = events[(kinds == rules.EV_START) | (kinds == rules.EV_ADD) | (kinds == rules.EV_DRAW)]
    choices = actions[:, rules.T_CHOICE]
    return {
        "round_decks": decks.tolist(),
        "events": list(zip(actions[:, rules.T_SEAT].astype(np.int64).tolist(),
                           actions[:, rules.T_WAIT].tolist(), strict=True)),
        "random_choices": choices[choices >= 0].tolist(),
    }


def _inputs_of_frame(frame: pd.DataFrame) -> dict[str, Any]:
    """Decks, events and choices from the trace DataFrame (each deal's deck is in the
    ``detail`` of its ``deal`` row, after ``deck: ``)."""
    deals = frame[frame["event"] == "deal"]
    decks = [[int(c) for c in detail.split("deck: ", 1)[1].split()] for detail in deals["detail"]]
    actions = frame[frame["event"].isin(["start", "add", "draw"])]
    choices = actions["choice"]
    return {
        "round_decks": decks,
        "events": list(zip(actions["seat"].astype(int).tolist(), actions["wait"].tolist(),
                           strict=True)),
        "random_choices": choices[choices >= 0].tolist(),
    }


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _is_real(x: Any) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))


def _check_decks(round_decks: Sequence[Sequence[int]], characters: int, copies: int) -> np.ndarray:
    n = characters * copies
    decks = np.zeros((len(round_decks), n), dtype=np.int64)
    for d, deck in enumerate(round_decks):
        deck = list(deck)
        if len(deck) != n:
            raise ValueError(f"round deck {d} must hold {n} cards, got {len(deck)}")
        held = [0] * characters
        for card in deck:
            if not _is_int(card) or not 0 <= card < characters:
                raise ValueError(f"round deck {d}: card {card!r} is not a character 0..{characters - 1}")
            held[card] += 1
        for c, k in enumerate(held):
            if k != copies:
                raise ValueError(
                    f"round deck {d} must hold {copies} copies of each character; character {c} "
                    f"appears {k} times"
                )
        decks[d] = deck
    return decks


def _check_events(events: Sequence[tuple[int, float]], players: int) -> tuple[np.ndarray, np.ndarray]:
    actors = np.zeros(len(events), dtype=np.int64)
    waits = np.zeros(len(events), dtype=np.float64)
    for e, event in enumerate(events):
        try:
            actor, wait = event
        except (TypeError, ValueError):
            raise ValueError(f"event {e} is not (actor, waiting_time): {event!r}") from None
        if not _is_int(actor) or not 0 <= actor < players:
            raise ValueError(f"event {e}: actor {actor!r} is not a seat 0..{players - 1}")
        if not _is_real(wait) or not math.isfinite(wait) or wait < 0:
            raise ValueError(f"event {e}: waiting time {wait!r} must be a finite number >= 0")
        actors[e] = actor
        waits[e] = wait
    return actors, waits


def _check_choices(choices: Sequence[float] | None) -> np.ndarray:
    values = [] if choices is None else list(choices)
    for k, u in enumerate(values):
        if not _is_real(u) or not 0.0 <= u < 1.0:
            raise ValueError(f"random choice {k} must be a uniform in [0, 1), got {u!r}")
    return np.array(values, dtype=np.float64)


def _script_error(err: int, info: np.ndarray, n_decks: int, n_events: int, n_choices: int,
                  actors: np.ndarray) -> str:
    event, deal, used_choices, used_decks = (int(x) for x in info)
    if err == kernel.ERR_TOO_FEW_DECKS:
        return f"too few round decks: deal {deal} needs a deck, only {n_decks} given"
    if err == kernel.ERR_TOO_MANY_DECKS:
        return f"too many round decks: {n_decks} given, the game used {used_decks}"
    if err == kernel.ERR_TOO_FEW_EVENTS:
        return f"too few events: the game is not over after {n_events} events"
    if err == kernel.ERR_TOO_MANY_EVENTS:
        return f"too many events: {n_events} given, the game ended after {event}"
    if err == kernel.ERR_CANNOT_ACT:
        return (f"event {event}: seat {int(actors[event])} cannot act (no legal play and the draw "
                f"pile is empty; its rate is 0)")
    if err == kernel.ERR_TOO_FEW_CHOICES:
        return f"too few random choices: event {event} needs one, only {n_choices} given"
    return f"too many random choices: {n_choices} given, the game used {used_choices}"


def play_scripted(
    round_decks: Sequence[Sequence[int]],
    players: int,
    events: Sequence[tuple[int, float]],
    strategies: Sequence[str] | str,
    params: dict[str, Any] | None = None,
    random_choices: Sequence[float] | None = None,
) -> dict[str, Any]:
    """Play one game from explicit round decks and explicit event times (docs/design.md).

    ``round_decks``: one deck per deal (characters ``0 .. characters-1``, top first, each a full
    card set), dealt in blocks (``hand_size`` cards to seat 0, then seat 1, ..., then the two
    starters, then the draw pile); with ``deadlock_counts_as_round`` false a deadlocked deal
    takes the next deck. ``events``: ``(actor, waiting_time)`` of every action of the game, in
    order (the actor must have a positive rate then). ``strategies``: one name for all seats or
    one per seat; ``random`` seats take one uniform in [0, 1) from ``random_choices`` per action
    where they have a play.

    Returns a dict: ``points`` (= ``scores``), ``rounds_won``, ``win_share``, ``deadlocks``,
    ``draws``, ``turns`` (= ``actions``), ``deals``, ``unfinished``, ``time`` and ``events`` (the
    trace DataFrame). Any illegal or inconsistent input raises ``ValueError`` (``InputError`` for
    bad parameters) with a clear message.
    """
    players = SPEC.check_players(players)
    resolved = SPEC.resolve_params(players, params)
    entries = SPEC.strategy_codes(players, strategies)
    if not all(isinstance(e, (str, WeightedSeat)) for e in entries):
        raise InputError("play_scripted plays built-in strategies only (" + ", ".join(NAMES)
                         + "): a user strategy has no place in an explicit script")
    packed = SPEC.kernel_params(players, resolved, entries)
    codes = SPEC.strategy_array(entries)
    decks = _check_decks(round_decks, resolved["characters"], resolved["copies"])
    actors, waits = _check_events(events, players)
    choices = _check_choices(random_choices)
    layout = SPEC.layout(players)
    row = np.zeros(layout.width, dtype=np.int64)
    info = np.zeros(4, dtype=np.int64)
    rows = 1 + decks.shape[0] * (decks.shape[1] + 4) + 2 * actors.shape[0] + 8
    buffer = np.zeros((rows, rules.TRACE_WIDTH), dtype=np.float64)
    err = kernel.play_script(players, packed, codes, SPEC.kernel_options(codes), decks, actors,
                             waits, choices, row, buffer, info)
    if err != kernel.ERR_NONE:
        raise ValueError(
            "illegal script: "
            + _script_error(err, info, decks.shape[0], actors.shape[0], choices.shape[0], actors)
        )
    frame = _trace_frame(buffer)
    points = row[layout.seat_slice("score")].tolist()
    return {
        "points": points,
        "scores": points,
        "rounds_won": row[layout.seat_slice("rounds_won")].tolist(),
        "win_share": (row[layout.seat_slice("win")] / WIN_UNIT).tolist(),
        "deadlocks": int(row[kernel.COL_DEADLOCKS]),
        "draws": int(row[kernel.COL_DRAWS]),
        "turns": int(row[kernel.COL_TURNS]),
        "actions": int(row[kernel.COL_TURNS]),
        "deals": int(info[1]),
        "unfinished": bool(row[kernel.COL_UNFINISHED]),
        "time": float(waits.sum()),
        "events": frame,
    }


SPEC = GameSpec(
    name="wigout",
    title="Wig Out!",
    min_players=2,
    max_players=6,
    default_players=4,
    strategies=NAMES,
    default_strategy="greedy",
    params=PARAMS,
    metrics=("deadlocks", "draws"),
    seat_params=WEIGHTS,
    seat_outputs=("rounds_won",),
    score_name="points (lower wins)",
    score_lower_wins=True,
    turns_name="actions",
    kernel=kernel,
    pack_params=pack_params,
    trace=trace,
    notes=(
        "real-time race modelled as competing hazards; lowest total points wins, ties shared; "
        "deadlocks (5-6 players) are tied rounds; unfinished = deal cap (rounds*100) reached "
        "when deadlocks do not count"
    ),
    new_trace=_new_trace,
    # an unusually long game is played again with room for every decision
    log_capacity=lambda players, resolved: 512 * resolved["rounds"],
    view=view,
    play_scripted=play_scripted,
    script_from_trace=script_from_trace,
    value=ValueParts(
        features=value.FEATURES, score_only=value.SCORE_ONLY, max_players=MAX_PLAYERS,
        luck_block=luck.play_luck_block, sample_block=luck.sample_block,
        new_recorder=value.new_recorder, ledger_width=value.ACC_SIZE,
        events="each round's deal (sampled: the mean V of 16 independent deals) and every event "
               "of the race (exact: every seat that can act, by its rate, with its strategy's play "
               "or every card its draw can bring)",
    ),
)
decisions = SPEC.decisions


__all__ = [
    "SPEC", "decisions", "play_scripted", "script_from_trace", "scripted_inputs", "trace", "InputError",
]

"""Parade's public face: its spec for the engine, scripted play and trace (docs/rules/parade.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

from montecards.engine.search import searches_and_weighted
from montecards.engine.spec import WIN_UNIT, GameSpec, InputError, Param, check_choice, check_int_range
from montecards.engine.trace import events_of
from montecards.engine.value import ValueParts
from montecards.games.parade import kernel, luck, rules, search, strategies, value, view
from montecards.games.parade.cards import (
    FINAL_HAND, HAND_SIZE, KEPT_AT_END, MAX_PLAYERS, N_CARDS, N_COLOURS, N_VALUES, OPENING_PARADE,
    card_id, label,
)

TWO_PLAYER_MARGINS = (0, 1, 2)
MAX_OPENING_PARADE = 20
"""With the official deck and hands, at most 6 * 5 + 20 = 50 of the 66 cards leave the deck at
setup; a smaller deck must still leave a draw pile (``check_deck``)."""
OFFICIAL_DISCARDS = FINAL_HAND - KEPT_AT_END
TRIGGER_NAMES = {rules.SIX_COLOURS: "six_colours", rules.DECK_EMPTY: "deck_empty"}
EVENT_NAMES = {
    rules.EV_DEAL: "deal",
    rules.EV_OPENING: "opening_parade",
    rules.EV_PLAY: "play",
    rules.EV_TAKE: "take",
    rules.EV_DRAW: "draw",
    rules.EV_TRIGGER: "last_round",
    rules.EV_DISCARD: "discard",
    rules.EV_KEEP: "keep",
}
ERRORS = {
    kernel.ERR_PLAY_NOT_IN_HAND: "card not in that seat's hand",
    kernel.ERR_TOO_FEW_PLAYS: "too few plays",
    kernel.ERR_TOO_MANY_PLAYS: "too many plays",
    kernel.ERR_DISCARD_NOT_IN_HAND: "discard not two different cards of that seat's final hand",
}


def pack_params(players: int, params: dict[str, Any]) -> np.ndarray:
    return np.array(
        [params["two_player_margin"], params["opening_parade"], params["end_colours"], params["colours"],
         params["values"], params["hand_size"], params["discards"]],
        dtype=np.float64,
    )


def check_deck(players: int, params: dict[str, Any]) -> None:
    """The parameters together (``resolve_params``): the deal must leave a draw pile, and a
    seat cannot discard more cards than its final hand holds. One ``InputError`` line."""
    deck = params["colours"] * params["values"]
    dealt = players * params["hand_size"] + params["opening_parade"]
    if dealt >= deck:
        raise InputError(
            f"deck too small: colours * values = {params['colours']} * {params['values']} = {deck} cards "
            f"must exceed players * hand_size + opening_parade = {players} * {params['hand_size']} + "
            f"{params['opening_parade']} = {dealt} (the draw pile would be empty)"
        )
    final = params["hand_size"] - 1
    if params["discards"] > final:
        raise InputError(
            f"discards must be 0 to hand_size - 1 = {final} (the cards in a final hand), "
            f"got {params['discards']}"
        )


PARAMS = (
    Param(
        "two_player_margin",
        2,
        "2 players: majority needs count - opponent >= margin (2 official, 1 strictly more, 0 as 3-6p)",
        int,
        check_choice("two_player_margin", TWO_PLAYER_MARGINS),
        acts=lambda players: players == 2,
    ),
    Param(
        "opening_parade",
        OPENING_PARADE,
        f"cards in the opening parade (0 to {MAX_OPENING_PARADE}; 6 official)",
        int,
        check_int_range("opening_parade", 0, MAX_OPENING_PARADE),
    ),
    Param(
        "end_colours",
        N_COLOURS,
        f"colours in one collection that start the last round (1 to {N_COLOURS}; 6 official; "
        "at or above colours: every colour)",
        int,
        check_int_range("end_colours", 1, N_COLOURS),
    ),
    Param(
        "colours",
        N_COLOURS,
        f"colours in the deck, the first of red, blue, purple, green, grey, orange (1 to {N_COLOURS}; "
        "6 official)",
        int,
        check_int_range("colours", 1, N_COLOURS),
    ),
    Param(
        "values",
        N_VALUES,
        f"values per colour, 0 to values - 1 (1 to {N_VALUES}; 11 official; colours * values must "
        "exceed players * hand_size + opening_parade)",
        int,
        check_int_range("values", 1, N_VALUES),
    ),
    Param(
        "hand_size",
        HAND_SIZE,
        f"cards dealt to each hand (1 to {HAND_SIZE}; 5 official; the final hand holds one fewer)",
        int,
        check_int_range("hand_size", 1, HAND_SIZE),
    ),
    Param(
        "discards",
        OFFICIAL_DISCARDS,
        f"cards each player discards at the end (0 to hand_size - 1; {OFFICIAL_DISCARDS} official)",
        int,
        check_int_range("discards", 0, HAND_SIZE - 1),
    ),
)


def _new_trace(players: int = 0, params: Any = None) -> np.ndarray:
    """A trace buffer that holds any game (``GameSpec.new_trace``'s arguments are not needed)."""
    return np.zeros((rules.MAX_EVENTS, 4), dtype=np.int64)


def _trace_frame(buffer: np.ndarray, params: Any = None) -> pd.DataFrame:
    """Readable events from a kernel trace buffer (row 0 holds the count; ``SPEC.trace``'s)."""
    events = events_of(buffer)
    records = []
    turn = -1
    for kind, seat, card, aux in events.tolist():
        if kind == rules.EV_PLAY:
            turn = aux
        detail = ""
        if kind == rules.EV_TRIGGER:
            detail = TRIGGER_NAMES[aux]
        records.append(
            {
                "turn": turn if kind not in (rules.EV_DEAL, rules.EV_OPENING) else -1,
                "event": EVENT_NAMES[kind],
                "seat": seat,
                "card": label(card) if card >= 0 else "",
                "detail": detail,
            }
        )
    import pandas as pd  # lazily: workers that only play chunks never load it
    return pd.DataFrame.from_records(records, columns=["turn", "event", "seat", "card", "detail"])


LOG_CAPACITY = 128
"""Decisions a game's log holds: at most 52 turns (2 players, deck empty: 60 - 4P), then
one discard per seat."""


def play_scripted(
    deck: Sequence[str],
    players: int,
    plays: Sequence[str],
    discards: Sequence[Sequence[str]],
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play one game from an explicit deck order and explicit decisions (docs/design.md).

    ``deck``: the deck's labels (the 66 officially; parameters ``colours`` and ``values``: the
    first colours' cards of the lowest values), top first (dealt in blocks as docs/rules/parade.md
    says); ``plays``: the label played at each turn, all seats in turn order; ``discards``: per
    seat, the labels discarded at the end (2 officially, parameter ``discards``). Returns scores,
    collections, turns, end_trigger and win_share; raises ``ValueError`` with a clear message on
    any illegal input.
    """
    players = SPEC.check_players(players)
    resolved = SPEC.resolve_params(players, params)
    cards = deck_cards(resolved)
    deck_ids = np.array([card_id(c) for c in deck], dtype=np.int64)
    if deck_ids.shape[0] != len(cards) or set(deck_ids.tolist()) != set(cards):
        raise ValueError(f"deck must hold each of the {len(cards)} cards exactly once")
    play_ids = np.array([card_id(c) for c in plays], dtype=np.int64)
    n_discards = resolved["discards"]
    if len(discards) != players or any(len(d) != n_discards for d in discards):
        raise ValueError(f"discards must give {n_discards} cards for each of {players} seats")
    discard_ids = np.array([[card_id(c) for c in d] for d in discards], dtype=np.int64).reshape(players, n_discards)
    buffer = _new_trace()
    row = np.zeros(SPEC.layout(players).width, dtype=np.int64)
    err = kernel.play_script(
        deck_ids, players, resolved["two_player_margin"], play_ids, discard_ids, row, buffer,
        resolved["opening_parade"], resolved["end_colours"], resolved["colours"], resolved["values"],
        resolved["hand_size"], n_discards,
    )
    if err != kernel.ERR_NONE:
        events = _trace_frame(buffer)
        turn = int((events["event"] == "play").sum())
        raise ValueError(f"illegal script at turn {turn}: {ERRORS[err]}")
    return _scripted_result(_trace_frame(buffer), row, players)


def deck_cards(params: dict[str, Any]) -> list[int]:
    """The card ids of the deck the resolved ``params`` give, in id order: the first ``colours``
    colours, values ``0 .. values - 1`` (all 66 officially)."""
    return [N_VALUES * c + v for c in range(params["colours"]) for v in range(params["values"])]


def script_from_trace(
    events: pd.DataFrame, players: int, params: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The keyword arguments of ``play_scripted`` that replay a traced game.

    ``events``: the trace of one game (``trace`` or ``montecards.trace``). The deck is the
    dealt, opening and drawn cards in the order they left it, then the cards never drawn (in
    id order: they play no part); the plays and the final discards are the traced ones. The
    trace does not hold the rule parameters: pass the game's ``params`` to have them in the
    script (``play_scripted(**script_from_trace(events, players, params))``).
    """
    players = SPEC.check_players(players)
    left_deck = events["event"].isin(["deal", "opening_parade", "draw"])
    dealt = events.loc[left_deck, "card"].tolist()
    unseen = sorted(set(deck_cards(SPEC.resolve_params(players, params))) - {card_id(c) for c in dealt})
    discards = [
        events.loc[(events["event"] == "discard") & (events["seat"] == seat), "card"].tolist()
        for seat in range(players)
    ]
    script = {
        "deck": dealt + [label(c) for c in unseen],
        "players": players,
        "plays": events.loc[events["event"] == "play", "card"].tolist(),
        "discards": discards,
    }
    if params is not None:
        script["params"] = dict(params)
    return script


def _scripted_result(events: pd.DataFrame, row: np.ndarray, players: int) -> dict[str, Any]:
    layout = SPEC.layout(players)
    collections: list[list[str]] = [[] for _ in range(players)]
    for ev in events.itertuples():
        if ev.event in ("take", "keep"):
            collections[ev.seat].append(ev.card)
    trigger = events.loc[events["event"] == "last_round", "detail"]
    return {
        "scores": row[layout.seat_slice("score")].tolist(),
        "collections": collections,
        "turns": int(row[kernel.COL_TURNS]),
        "end_trigger": str(trigger.iloc[0]),
        "win_share": (row[layout.seat_slice("win")] / WIN_UNIT).tolist(),
    }


def _state_with_collections(collections: Sequence[Sequence[str]], margin: int) -> np.ndarray:
    g = rules.new_state()
    players = len(collections)
    g[rules.PLAYERS] = players
    g[rules.MARGIN] = margin if players == 2 else 0
    for seat, cards in enumerate(collections):
        for c in cards:
            rules.collect(g, seat, card_id(c))
    return g


def score(collections: Sequence[Sequence[str]], two_player_margin: int = 2) -> dict[str, list]:
    """Final scores and win shares of explicit collections (labels), by the kernel's rules."""
    players = SPEC.check_players(len(collections))
    check_choice("two_player_margin", TWO_PLAYER_MARGINS)(two_player_margin, players)
    g = _state_with_collections(collections, two_player_margin)
    scores = np.array([rules.seat_score(g, s) for s in range(players)], dtype=np.int64)
    sizes = np.array([len(c) for c in collections], dtype=np.int64)
    shares = np.zeros(players, dtype=np.int64)
    rules.win_shares(scores, sizes, players, shares)
    return {"scores": scores.tolist(), "win_share": (shares / WIN_UNIT).tolist()}


def removal(parade: Sequence[str], played: str) -> tuple[list[str], list[str]]:
    """The cards ``played`` takes from ``parade`` (front first) and the parade left after it."""
    g = rules.new_state()
    g[rules.PLAYERS] = 2
    ids = [card_id(c) for c in parade]
    if len(set(ids)) != len(ids) or card_id(played) in ids:
        raise ValueError("the parade and the played card must be different cards")
    for i, cid in enumerate(ids):
        g[rules.PARADE + i] = cid
    g[rules.PARADE_N] = len(ids)
    g[rules.hand_at(0, 0)] = card_id(played)
    g[rules.HAND_N] = 1
    buffer = _new_trace()
    rules.play_card(g, 0, 0, buffer)
    taken = [label(int(c)) for kind, _, c, _ in buffer[1 : buffer[0, 0] + 1] if kind == rules.EV_TAKE]
    left = [label(int(c)) for c in g[rules.PARADE : rules.PARADE + g[rules.PARADE_N]]]
    return taken, left


SPEC = GameSpec(
    name="parade",
    title="Parade",
    min_players=2,
    max_players=6,
    default_players=2,
    strategies=strategies.NAMES,
    default_strategy="greedy",
    params=PARAMS,
    check_params=check_deck,
    metrics=("six_colours",),
    seat_outputs=("collected",),
    score_name="score (lower wins)",
    score_lower_wins=True,
    turns_name="turns",
    kernel=kernel,
    pack_params=pack_params,
    trace_frame=_trace_frame,
    rate_metrics=("six_colours",),
    notes="lowest score wins; ties: fewest cards, then shared",
    seat_params=searches_and_weighted(
        search.PARAMETERS, strategies,
        "the move with the highest weighted sum of the features (docs/strategies/parade.md); "
        "the default weights play exactly greedy"),
    new_trace=_new_trace,
    log_capacity=LOG_CAPACITY,
    view=view,
    play_scripted=play_scripted,
    script_from_trace=script_from_trace,
    value=ValueParts(
        features=value.FEATURES, score_only=value.SCORE_ONLY, max_players=MAX_PLAYERS,
        luck_block=luck.play_luck_block, sample_block=luck.sample_block,
        new_recorder=value.new_recorder, ledger_width=value.ACC_SIZE,
        events="the deal (sampled: the mean V of 8 independent deals) and every draw (exact: "
               "every card of the remaining deck)",
    ),
)
trace = SPEC.trace
decisions = SPEC.decisions


__all__ = [
    "SPEC", "decisions", "play_scripted", "script_from_trace", "trace", "score", "removal", "InputError",
]

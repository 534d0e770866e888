"""Anomia's public face: its spec for the engine, parameters, trace frame and scripted play
(docs/rules/anomia.md).

The readings of the rules page are written once, in ``rules.py``'s docstring; the skill model
(how a face-off is decided, and what it draws) in ``strategies.py``'s; the kernel glue that
plays a run, a trace or a scripted game in ``kernel.py``. Anomia has no decisions
(``view.py``): ``decisions`` returns an empty log.
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
    check_number,
    check_per_seat_floats,
    parse_bool,
    parse_float_list,
    parse_int_list,
)
from montecards.engine.trace import events_of
from montecards.engine.value import ValueParts
from montecards.games.anomia import kernel, luck, rules, value
from montecards.games.anomia.cards import (
    DEFAULT_CARDS_PER_SYMBOL,
    DEFAULT_WILD_PAIRS,
    MAX_CARDS_PER_SYMBOL,
    MAX_PLAYERS,
    MAX_WILDS,
    MIN_PLAYERS,
    N_SYMBOLS,
    NOT_IN_PLAY,
    WILD_BASE,
    card_codes,
    card_id,
    cards_in_play,
    default_remove_symbols,
    label,
)

STRATEGIES = ("default",)
METRICS = ("face_offs", "cascades", "longest_cascade", "wild_face_offs", "ties")
EVENT_NAMES = {
    rules.EV_DECK: "deck",
    rules.EV_DRAW: "draw",
    rules.EV_FACE_OFF: "face_off",
    rules.EV_TIEBREAK: "tiebreak",
    rules.EV_CASCADE: "cascade",
    rules.EV_MATCHES: "two_matches",
    rules.EV_TABLE: "table",
}
TRACE_COLUMNS = ["turn", "event", "seat", "other", "card", "card_id", "aux", "detail"]
"""``aux``: deck position (deck), draw number (draw), 1 for a wild match (face_off), insert
position or -1 (tiebreak), chain length (cascade)."""


TRACE_EVENTS_PER_CARD = 4
TRACE_EVENTS_EXTRA = 64
"""First trace buffer size (events): enough for usual games; longer ones are replayed into a
buffer of the exact size (face-up chains have no bound: ``GameSpec.trace_buffer``)."""


class TwoMatchesError(AssertionError):
    """Two matches existed at once, which the rules say cannot happen (an engine bug)."""


# --- parameters ------------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _check_symbol(name: str, value: Any) -> int:
    if not _is_int(value) or not 0 <= value < N_SYMBOLS:
        raise InputError(f"parameter {name}: unknown symbol {value!r} (symbols are 0..{N_SYMBOLS - 1})")
    return int(value)


def _check_cards_per_symbol(value: Any, players: int) -> list[int]:
    values = list(value) if isinstance(value, (list, tuple, np.ndarray)) else [value]
    if len(values) != N_SYMBOLS:
        raise InputError(
            f"parameter cards_per_symbol needs {N_SYMBOLS} counts (one per symbol), got {len(values)}"
        )
    for v in values:
        if not _is_int(v) or not 0 <= v <= MAX_CARDS_PER_SYMBOL:
            raise InputError(
                f"parameter cards_per_symbol: counts must be integers 0..{MAX_CARDS_PER_SYMBOL}, got {v!r}"
            )
    return [int(v) for v in values]


def _parse_wild_pairs(text: str) -> list[list[int]]:
    """``"0-1,1-2"`` (or ``0:1``, ``0/1``), a flat even list ``"0,1,1,2"``, or ``none``."""
    text = text.strip().strip("[]")
    if text.lower() in ("", "none"):
        return []
    items = [item.strip().strip("()") for item in text.split(",")]
    if any(sep in items[0] for sep in "-:/"):
        pairs = []
        for item in items:
            parts = item.replace(":", "-").replace("/", "-").split("-")
            if len(parts) != 2:
                raise ValueError(f"expected pairs like 0-1, got {item!r}")
            pairs.append([int(parts[0]), int(parts[1])])
        return pairs
    flat = [int(x) for x in items]
    if len(flat) % 2:
        raise ValueError("a flat list of wild symbols needs an even length (x1,y1,x2,y2,...)")
    return [flat[k : k + 2] for k in range(0, len(flat), 2)]


def _check_wild_pairs(value: Any, players: int) -> list[list[int]]:
    pairs = []
    for pair in list(value):
        pair = list(pair) if isinstance(pair, (list, tuple, np.ndarray)) else [pair]
        if len(pair) != 2:
            raise InputError(f"parameter wild_pairs: a wild shows two symbols, got {pair!r}")
        x = _check_symbol("wild_pairs", pair[0])
        y = _check_symbol("wild_pairs", pair[1])
        if x == y:
            raise InputError(f"parameter wild_pairs: a wild shows two different symbols, got ({x}, {y})")
        pairs.append([x, y])
    if len(pairs) > MAX_WILDS:
        raise InputError(f"parameter wild_pairs: at most {MAX_WILDS} wilds, got {len(pairs)}")
    return pairs


def _check_remove_symbols(value: Any, players: int) -> list[int]:
    values = list(value) if isinstance(value, (list, tuple, np.ndarray)) else [value]
    return sorted({_check_symbol("remove_symbols", v) for v in values})


def _default_theta(players: int) -> list[float]:
    return [0.0] * players


PARAMS = (
    Param(
        "cards_per_symbol",
        list(DEFAULT_CARDS_PER_SYMBOL),
        "category cards of each of the 8 symbols (default 11,11,11,11,12,12,12,12)",
        parse_int_list,
        _check_cards_per_symbol,
    ),
    Param(
        "wild_pairs",
        [list(p) for p in DEFAULT_WILD_PAIRS],
        "the two symbols of each wild card, e.g. 0-1,1-2,2-3,3-0,4-5,5-6,6-7,7-4 (none: no wilds)",
        _parse_wild_pairs,
        _check_wild_pairs,
    ),
    Param(
        "remove_symbols",
        default_remove_symbols,
        "symbols taken out with every card showing them (default 6,7 for 3 players, none otherwise)",
        parse_int_list,
        _check_remove_symbols,
    ),
    Param(
        "theta",
        _default_theta,
        "per-seat skill (Bradley-Terry: i beats j with prob e^ti / (e^ti + e^tj)), e.g. 0.5,0,0,0",
        parse_float_list,
        check_per_seat_floats("theta"),
    ),
    Param(
        "tie_prob",
        0.0,
        "probability that a face-off ties (then the rulebook tiebreak decides it)",
        float,
        check_number("tie_prob", 0.0, 1.0),
    ),
    Param(
        "winnings_face_up",
        False,
        "house rule: won cards go face up on the winner's play pile (and can start face-offs)",
        parse_bool,
        check_bool("winnings_face_up"),
    ),
)


def _win_probability(theta_a: float, theta_b: float) -> float:
    """Bradley-Terry: the probability that a seat of skill ``theta_a`` beats one of ``theta_b``."""
    try:
        ea, eb = math.exp(theta_a), math.exp(theta_b)
        return ea / (ea + eb)
    except OverflowError:
        return 1.0 / (1.0 + math.exp(max(-700.0, min(700.0, theta_b - theta_a))))


def deck_codes(players: int, params: dict[str, Any]) -> np.ndarray:
    """The code of every card id for these (resolved) parameters; raises InputError if no
    category card is left in play."""
    codes = card_codes(params["cards_per_symbol"], params["wild_pairs"], params["remove_symbols"])
    if not np.any((codes >= 0) & (codes < WILD_BASE)):
        raise InputError(
            "no category card left in play: raise cards_per_symbol or remove fewer symbols "
            f"(cards_per_symbol={params['cards_per_symbol']}, remove_symbols={params['remove_symbols']})"
        )
    return codes


def pack_params(players: int, params: dict[str, Any]) -> np.ndarray:
    """The float64 vector the kernel reads (layout: ``kernel.P_*``)."""
    codes = deck_codes(players, params)
    in_play = np.flatnonzero(codes != NOT_IN_PLAY)
    theta = params["theta"]
    if len(theta) != players:
        raise InputError(f"parameter theta needs {players} values (one per seat), got {len(theta)}")
    packed = np.zeros(kernel.P_CODES + codes.shape[0] + in_play.shape[0], dtype=np.float64)
    packed[kernel.P_TIE_PROB] = params["tie_prob"]
    packed[kernel.P_FACE_UP] = 1.0 if params["winnings_face_up"] else 0.0
    packed[kernel.P_N_PLAY] = in_play.shape[0]
    packed[kernel.P_N_IDS] = codes.shape[0]
    for a in range(players):
        for b in range(players):
            if a != b:
                packed[kernel.P_PWIN + a * MAX_PLAYERS + b] = _win_probability(theta[a], theta[b])
    packed[kernel.P_CODES : kernel.P_CODES + codes.shape[0]] = codes
    packed[kernel.P_CODES + codes.shape[0] :] = in_play
    return packed


def deck_in_play(players: int, params: dict[str, Any] | None = None) -> list[int]:
    """Ids of the cards in play (ascending) for ``players`` seats and these parameters."""
    players = SPEC.check_players(players)
    resolved = SPEC.resolve_params(players, params)
    deck_codes(players, resolved)
    return cards_in_play(resolved["cards_per_symbol"], resolved["wild_pairs"], resolved["remove_symbols"])


# --- trace -----------------------------------------------------------------------------------


def _detail(kind: int, card: int, other: int, extra: int, codes: np.ndarray) -> str:
    if kind == rules.EV_DRAW and codes[card] >= WILD_BASE:
        x, y = divmod(int(codes[card]) - WILD_BASE, N_SYMBOLS)
        return f"wild: symbols {x} and {y} now match; the same seat draws again"
    if kind == rules.EV_FACE_OFF:
        return f"beats seat {other}" + (" (wild match)" if extra else " (symbol match)")
    if kind == rules.EV_TIEBREAK:
        if card < 0:
            return f"tie with seat {other}: no category card in the draw pile, decided without a card"
        return f"tie with seat {other}: tiebreak card back into the draw pile at position {extra}"
    if kind == rules.EV_CASCADE:
        return f"cascade of {extra} face-offs"
    if kind == rules.EV_DECK:
        return f"deck position {extra}"
    if kind == rules.EV_MATCHES:
        return f"{extra} matches at once (one around seat {other}): the game stops"
    if kind == rules.EV_TABLE:
        return f"on the opening table, position {extra}"
    return ""


def _trace_frame(buffer: np.ndarray, codes: np.ndarray) -> pd.DataFrame:
    """Readable events from a kernel trace buffer (row 0 counts the events).

    ``turn`` is the draw number an event belongs to (-1 before the first draw).
    """
    events = events_of(buffer)
    kind, seat, card, other, extra = (events[:, k] for k in range(rules.TRACE_WIDTH))
    turn = np.maximum.accumulate(np.where(kind == rules.EV_DRAW, extra, -1)) if len(kind) else kind
    names = np.array([EVENT_NAMES[k] for k in range(len(EVENT_NAMES))], dtype=object)
    rows = zip(kind.tolist(), card.tolist(), other.tolist(), extra.tolist(), strict=True)
    import pandas as pd  # lazily: workers that only play chunks never load it

    return pd.DataFrame(
        {
            "turn": turn,
            "event": names[kind],
            "seat": seat,
            "other": other,
            "card": [label(c, int(codes[c])) if c >= 0 else "" for c in card.tolist()],
            "card_id": card,
            "aux": extra,
            "detail": [_detail(k, c, o, x, codes) for k, c, o, x in rows],
        }
    )


def _new_trace(events: int) -> np.ndarray:
    return np.zeros((events + 1, rules.TRACE_WIDTH), dtype=np.int64)


def _first_trace(players: int, resolved: dict[str, Any]) -> np.ndarray:
    """The trace buffer a game is played into first (``GameSpec.new_trace``)."""
    return _new_trace(TRACE_EVENTS_PER_CARD * int(pack_params(players, resolved)[kernel.P_N_PLAY])
                      + TRACE_EVENTS_EXTRA)


def trace(
    seed: int,
    index: int,
    players: int,
    params: dict[str, Any] | None = None,
    strategy_names: Sequence[str] | None = None,
    deal: Any = None,
) -> tuple[pd.DataFrame, np.ndarray]:
    """Every event of game ``index`` of the run with ``seed`` (the very game the run played).

    Events: ``deck`` (the shuffled deck, top first), ``draw``, ``tiebreak``, ``face_off``
    (seat = winner, other = loser, card = the card taken) and ``cascade`` (a chain of 2 or more
    ended). Returns ``(events, row)`` with ``row`` the game's per-game output row. ``deal``: the
    deal option ``(replay, rotation)`` (docs/luck.md), or None.
    """
    players = SPEC.check_players(players)
    resolved = SPEC.resolve_params(players, params)
    buffer, row = SPEC.trace_buffer(seed, index, players, resolved, strategy_names, deal)
    return _trace_frame(buffer, deck_codes(players, resolved)), row


def script_from_trace(
    events: pd.DataFrame, players: int, params: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The keyword arguments of ``play_scripted`` that replay a traced game.

    ``play_scripted(**script_from_trace(events, players, params))`` plays the game of
    ``events`` (from ``trace`` or ``play_scripted``) again, given the same ``players`` and
    ``params``. ``tiebreaks`` has one entry per face-off: None, or ``(winner, insert_position)``
    with ``insert_position`` None for a tie decided without a card.
    """
    deck = events.loc[events["event"] == "deck", "card_id"].tolist()
    winners: list[int] = []
    tiebreaks: list[tuple[int, int | None] | None] = []
    pending = None
    for ev in events.itertuples():
        if ev.event == "tiebreak":
            pos = None if ev.card_id < 0 else int(ev.aux)
            pending = (int(ev.seat), pos)
        elif ev.event == "face_off":
            winners.append(int(ev.seat))
            tiebreaks.append(pending)
            pending = None
    return {
        "deck": deck,
        "players": players,
        "face_off_winners": winners,
        "params": params,
        "tiebreaks": tiebreaks,
    }


def replay_inputs(events: pd.DataFrame) -> dict[str, Any]:
    """The old name of ``script_from_trace``, without the game's set-up: ``deck``,
    ``face_off_winners`` and ``tiebreaks`` only."""
    script = script_from_trace(events, 0)
    return {key: script[key] for key in ("deck", "face_off_winners", "tiebreaks")}


# --- scripted play ---------------------------------------------------------------------------


def _script_ties(tiebreaks: Sequence[Any] | None, winners: list[int]) -> np.ndarray:
    ties = np.full(len(winners), kernel.NO_TIE, dtype=np.int64)
    if tiebreaks is None:
        return ties
    tiebreaks = list(tiebreaks)
    if len(tiebreaks) != len(winners):
        raise ValueError(
            f"tiebreaks has {len(tiebreaks)} entries, face_off_winners has {len(winners)}; "
            "give one per face-off (None for no tie)"
        )
    for k, entry in enumerate(tiebreaks):
        if entry is None:
            continue
        entry = tuple(entry)
        if len(entry) != 2:
            raise ValueError(f"tiebreaks[{k}] must be None or (winner, insert_position), got {entry!r}")
        tb_winner, pos = entry
        if not _is_int(tb_winner) or tb_winner != winners[k]:
            raise ValueError(
                f"tiebreaks[{k}]: tiebreak winner {tb_winner!r} differs from "
                f"face_off_winners[{k}] = {winners[k]}"
            )
        if pos is None:
            ties[k] = kernel.TIE_NO_CARD
        elif _is_int(pos) and pos >= 0:
            ties[k] = pos
        else:
            raise ValueError(f"tiebreaks[{k}]: insert_position must be an integer >= 0 or None, got {pos!r}")
    return ties


def _raise_script_error(err: int, st: np.ndarray, n_winners: int) -> None:
    """Turn a kernel error of a scripted game into a clear exception."""
    index, a, b, c = (int(st[k]) for k in (rules.H_ERR_INDEX, rules.H_ERR_A, rules.H_ERR_B, rules.H_ERR_C))
    if err == rules.ERR_TOO_FEW_WINNERS:
        raise ValueError(
            f"face_off_winners too short: face-off {index} (seats {a} and {b}) has no winner; "
            f"only {n_winners} given"
        )
    if err == rules.ERR_BAD_WINNER:
        raise ValueError(
            f"face_off_winners[{index}] = {c}, but face-off {index} is between seats {a} and {b}"
        )
    if err == rules.ERR_TOO_MANY_WINNERS:
        raise ValueError(
            f"face_off_winners too long: the game has {index} face-offs, {n_winners} winners given"
        )
    if err == rules.ERR_BAD_TIEBREAK:
        if c < 0:
            raise ValueError(
                f"tiebreaks[{index}]: the draw pile holds no category card, so the tie is decided "
                "without a card; insert_position must be None"
            )
        raise ValueError(f"tiebreaks[{index}]: insert_position must be in 0..{c} (None is not allowed)")
    if err == rules.ERR_TWO_MATCHES:
        raise TwoMatchesError(
            f"two matches exist at once before face-off {index} ({c} matches around seats {a} and {b}); "
            "the rules say this cannot happen"
        )
    if err != rules.ERR_NONE:
        raise RuntimeError(f"unknown kernel error {err}")


def play_scripted(
    deck: Sequence[int | str],
    players: int,
    face_off_winners: Sequence[int],
    params: dict[str, Any] | None = None,
    tiebreaks: Sequence[Any] | None = None,
    table: Sequence[Sequence[int | str]] | None = None,
) -> dict[str, Any]:
    """Play one game from an explicit deck order and explicit face-off winners.

    ``deck``: every card in play once, top of the draw pile first, as ids (see ``cards.py``) or
    trace labels like ``"s3#35"``. ``face_off_winners``: the seat winning each face-off, in
    order. ``tiebreaks``: None, or one entry per face-off: None (no tie) or
    ``(winner, insert_position)`` (``insert_position`` None when the draw pile holds no category
    card). ``params``: the deck and rule parameters (``theta`` and ``tie_prob`` play no part).
    ``table`` (optional, "what happens from this position"): per seat, the category cards
    already on its play pile, bottom first, as drawn by that seat; ``deck`` then holds the
    other cards, and seat 0 draws first. A match on the table is resolved before the first
    draw (an opening chain); two matches on it at once raise ``TwoMatchesError``.

    Returns ``winnings`` (score per seat), ``win_share``, ``draws`` (= ``turns``), ``face_offs``,
    ``cascades``, ``longest_cascade``, ``wild_face_offs``, ``ties``, ``chains`` (face-offs after
    each draw), ``play_piles`` and ``winnings_cards`` (card ids, bottom/first first),
    ``face_off_winners``, ``tiebreaks`` and ``events`` (the trace). Illegal input raises
    ``ValueError`` with a clear message.
    """
    players = SPEC.check_players(players)
    resolved = SPEC.resolve_params(players, params)
    packed = pack_params(players, resolved)
    codes = deck_codes(players, resolved)
    in_play = cards_in_play(resolved["cards_per_symbol"], resolved["wild_pairs"], resolved["remove_symbols"])
    table = [] if table is None else [list(pile) for pile in table]
    if len(table) > players:
        raise ValueError(f"table gives play piles for {len(table)} seats; there are {players}")
    table_cards = [card_id(c) for pile in table for c in pile]
    table_seats = [seat for seat, pile in enumerate(table) for _ in pile]
    for c in table_cards:
        if 0 <= c < codes.shape[0] and codes[c] >= WILD_BASE:
            raise ValueError(f"table: card {c} is a wild; only category cards go on play piles")
    order = [card_id(c) for c in deck]
    if sorted(table_cards + order) != in_play:
        unknown = sorted(set(table_cards + order) - set(in_play))
        missing = sorted(set(in_play) - set(table_cards + order))
        raise ValueError(
            f"deck (with the table) must hold each of the {len(in_play)} cards in play exactly once "
            f"(got {len(table_cards) + len(order)} cards; not in play: {unknown[:10]}; "
            f"missing: {missing[:10]})"
        )
    winners = []
    for k, w in enumerate(face_off_winners):
        if not _is_int(w):
            raise ValueError(f"face_off_winners[{k}] must be a seat number, got {w!r}")
        winners.append(int(w))
    ties = _script_ties(tiebreaks, winners)
    n = len(in_play)
    buffer = _new_trace(3 * n + 2 * len(winners) + 8)
    rows = np.zeros((1, SPEC.layout(players).width), dtype=np.int64)
    err, st = kernel.play_script(
        np.array(table_cards + order, dtype=np.int64),
        players,
        packed,
        np.array(winners, dtype=np.int64),
        ties,
        np.array(table_seats, dtype=np.int64),
        rows,
        buffer,
    )
    _raise_script_error(int(err), st, len(winners))
    events = _trace_frame(buffer, codes)
    return _scripted_result(events, rows[0], st, players, bool(resolved["winnings_face_up"]))


def _scripted_result(
    events: pd.DataFrame, row: np.ndarray, st: np.ndarray, players: int, face_up: bool
) -> dict[str, Any]:
    layout = SPEC.layout(players)
    o_piles, cap = int(st[rules.H_PILES]), int(st[rules.H_CAP])
    piles = [
        [
            int(e) >> rules.ENTRY_CARD_SHIFT
            for e in st[o_piles + s * cap : o_piles + s * cap + st[rules.PILE_N + s]]
        ]
        for s in range(players)
    ]
    winnings_cards: list[list[int]] = [[] for _ in range(players)]
    chains: list[int] = []
    for ev in events.itertuples():
        if ev.event == "draw":
            chains.append(0)
        elif ev.event == "face_off":
            if not chains:  # a match on an opening table
                chains.append(0)
            chains[-1] += 1
            if not face_up:
                winnings_cards[ev.seat].append(int(ev.card_id))
    inputs = script_from_trace(events, players)
    return {
        "winnings": row[layout.seat_slice("score")].tolist(),
        "scores": row[layout.seat_slice("score")].tolist(),  # the spec's common key: cards won
        "win_share": (row[layout.seat_slice("win")] / WIN_UNIT).tolist(),
        "draws": int(row[kernel.COL_TURNS]),
        "turns": int(row[kernel.COL_TURNS]),
        "face_offs": int(row[kernel.COL_FACE_OFFS]),
        "cascades": int(row[kernel.COL_CASCADES]),
        "longest_cascade": int(row[kernel.COL_LONGEST]),
        "wild_face_offs": int(row[kernel.COL_WILD_FACE_OFFS]),
        "ties": int(row[kernel.COL_TIES]),
        "chains": chains,
        "play_piles": piles,
        "winnings_cards": winnings_cards,
        "face_off_winners": inputs["face_off_winners"],
        "tiebreaks": inputs["tiebreaks"],
        "events": events,
    }


SPEC = GameSpec(
    name="anomia",
    title="Anomia",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=4,
    strategies=STRATEGIES,
    default_strategy="default",
    params=PARAMS,
    metrics=METRICS,
    seat_outputs=("won",),
    score_name="cards won",
    skill_param="theta",
    turns_name="draws",
    kernel=kernel,
    pack_params=pack_params,
    trace=trace,
    notes="no card choices: face-offs decided by a Bradley-Terry skill model (theta); "
    "most cards won wins, ties share",
    new_trace=_first_trace,
    play_scripted=play_scripted,
    script_from_trace=script_from_trace,
    value=ValueParts(
        features=value.FEATURES, score_only=value.SCORE_ONLY, max_players=MAX_PLAYERS,
        luck_block=luck.play_luck_block, sample_block=luck.sample_block,
        new_recorder=value.new_recorder, ledger_width=value.ACC_SIZE,
        events="every draw (exact: every code left in the draw pile, by its count) and every "
               "face-off with its tie and tie-break (exact: its two winners, by the skill model's "
               "probability); the deal's term is 0 (V does not read the draw pile's order)",
    ),
)
decisions = SPEC.decisions
"""The decision log of a game: always empty (every game offers this call; Anomia's seats make no
decisions, ``view.py``: face-offs are decided by the skill model, a parameter). The arguments
are checked as for ``trace``."""


__all__ = [
    "SPEC",
    "InputError",
    "TwoMatchesError",
    "decisions",
    "deck_in_play",
    "play_scripted",
    "replay_inputs",
    "script_from_trace",
    "trace",
]

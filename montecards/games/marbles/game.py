"""Joker Marbles' public face: its spec for the engine, scripted play and trace (docs/rules/marbles.md).

Positions and moves are given in the terms of the naive oracle (tests/naive/marbles.py):
a position is ``("home",)``, ``("track", hole)`` or ``("castle", k)``; a move is
``(kind, owner, steps)`` with ``kind`` in out/forward/backward/split7/split9/joker, ``owner``
the seat whose marbles move, and ``steps`` a tuple of ``(marble, start, end, count)``
(``count`` > 0 forward, < 0 backward, 0 for out and joker). Cards are ids, see ``cards.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

from montecards.engine.search import searches_and_weighted
from montecards.engine.spec import (
    WIN_UNIT,
    GameSpec,
    InputError,
    Param,
    check_bool,
    check_choice,
    parse_bool,
)
from montecards.engine.value import ValueParts
from montecards.games.marbles import kernel, luck, rules, search, strategies, value, view
from montecards.games.marbles.cards import CARDS_PER_DECK, label, rank_of

TEAM_MODES = ("none", "pairs", "two")
CASTLE_ENTRY = ("auto", "optional")
MAX_SIDE_HOLES = 2 * rules.SIDE_HOLES
MAX_TURNS_LIMIT = 10_000_000

EVENT_NAMES = {
    rules.EV_DEAL: "deal",
    rules.EV_RESHUFFLE: "reshuffle",
    rules.EV_DRAW: "draw",
    rules.EV_PLAY: "play",
    rules.EV_STEP: "step",
    rules.EV_BUMP: "bump",
    rules.EV_DISCARD: "discard",
    rules.EV_WIN: "win",
    rules.EV_UNDRAWN: "undrawn",
}
ERRORS = {
    kernel.ERR_NO_DECISION: "ran out of decisions",
    kernel.ERR_CARD_NOT_IN_HAND: "card not in that seat's hand",
    kernel.ERR_ILLEGAL_MOVE: "illegal move for that card",
    kernel.ERR_MUST_PLAY: "discard although a legal move exists",
    kernel.ERR_NO_ORDER: "a reshuffle is needed but no further deck order was given",
    kernel.ERR_BAD_ORDER: "reshuffle order is not a permutation of the discard pile",
    kernel.ERR_EXTRA_DECISIONS: "more decisions given than turns played",
    kernel.ERR_EXTRA_ORDERS: "more reshuffle orders given than reshuffles",
    kernel.ERR_BAD_DECISION: "unknown decision",
    kernel.ERR_USER: "a user strategy chose an index outside its legal moves",
}


# --------------------------------------------------------------------------- parameters


def _default_sides(players: int) -> int:
    return 4 if players <= 4 else 6


def _check_teams(value: Any, players: int) -> str:
    check_choice("teams", TEAM_MODES)(value, players)
    if value != "none" and players not in (4, 6):
        raise InputError(f"parameter teams={value} needs 4 or 6 players, got {players}")
    return value


def _check_sides(value: Any, players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InputError(f"parameter sides must be an integer, got {value!r}")
    if not players <= value <= rules.MAX_SIDES:
        raise InputError(
            f"parameter sides must be from {players} (the players) to {rules.MAX_SIDES}, got {value}"
        )
    return int(value)


def _int_check(name: str, low: int, high: int):
    def check(value: Any, players: int) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise InputError(f"parameter {name} must be an integer, got {value!r}")
        if not low <= value <= high:
            raise InputError(f"parameter {name} must be from {low} to {high}, got {value}")
        return int(value)

    return check


PARAMS = (
    Param("teams", "none", "none | pairs (partners opposite) | two (alternate seats); 4 or 6 players",
          str, _check_teams),
    Param("sides", _default_sides,
          "board sides of holes_per_side holes (default 4 for 2-4 players, 6 for 5-6)", int, _check_sides),
    Param("holes_per_side", rules.SIDE_HOLES,
          f"track holes per side ({rules.MIN_SIDE_HOLES}-{MAX_SIDE_HOLES}; castle entry hole 3, come-out "
          f"hole 8 of each side; holes_per_side x sides at most {rules.MAX_TRACK})", int,
          _int_check("holes_per_side", rules.MIN_SIDE_HOLES, MAX_SIDE_HOLES)),
    Param("marbles", rules.CASTLE_HOLES,
          f"marbles per player, and holes in each castle (1-{rules.MARBLES})", int,
          _int_check("marbles", 1, rules.MARBLES)),
    Param("decks", 1, "decks of 52 cards + 2 jokers (1-4)", int,
          _int_check("decks", 1, rules.MAX_DECKS)),
    Param("nine_split", False, "a 9 may be split into one marble forward, another backward",
          parse_bool, check_bool("nine_split")),
    Param("joker_from_track", False, "a marble on the track may jump with the joker",
          parse_bool, check_bool("joker_from_track")),
    Param("castle_entry", "auto", "auto (must enter when it fits) | optional", str,
          check_choice("castle_entry", CASTLE_ENTRY)),
    Param("max_turns", 20000, "turns after which a game is recorded unfinished", int,
          _int_check("max_turns", 1, MAX_TURNS_LIMIT)),
)


def check_board(players: int, resolved: dict[str, Any]) -> None:
    """The rule between ``sides`` and ``holes_per_side``: the track fits the state layout."""
    track = resolved["sides"] * resolved["holes_per_side"]
    if track > rules.MAX_TRACK:
        raise InputError(
            f"parameters sides x holes_per_side must be at most {rules.MAX_TRACK} track holes, got "
            f"{resolved['sides']} x {resolved['holes_per_side']} = {track}"
        )


def track_length(resolved: dict[str, Any]) -> int:
    """Track holes ``L = holes_per_side * sides`` of resolved parameters."""
    return int(resolved["holes_per_side"]) * int(resolved["sides"])


def pack_params(players: int, params: dict[str, Any]) -> np.ndarray:
    packed = np.zeros(kernel.N_PARAMS, dtype=np.float64)
    packed[kernel.P_TEAMS] = TEAM_MODES.index(params["teams"])
    packed[kernel.P_SIDES] = params["sides"]
    packed[kernel.P_DECKS] = params["decks"]
    packed[kernel.P_NINE] = int(params["nine_split"])
    packed[kernel.P_JFT] = int(params["joker_from_track"])
    packed[kernel.P_OPTIONAL] = CASTLE_ENTRY.index(params["castle_entry"])
    packed[kernel.P_MAX_TURNS] = params["max_turns"]
    packed[kernel.P_SIDE_HOLES] = params["holes_per_side"]
    packed[kernel.P_MARBLES] = params["marbles"]
    return packed


# --------------------------------------------------------------------------- positions, moves


def position(code: int) -> tuple:
    """Oracle position tuple of a kernel position code."""
    if code == rules.HOME:
        return ("home",)
    if code >= rules.CASTLE0:
        return ("castle", int(code - rules.CASTLE0))
    return ("track", int(code))


def position_text(code: int) -> str:
    if code < -1:
        return ""
    return " ".join(str(x) for x in position(code))


def position_code(pos: Any, track_len: int, castle: int = rules.CASTLE_HOLES) -> int:
    """Kernel code of an oracle position (``castle``: the castle's holes, the ``marbles``
    parameter); ValueError on anything else."""
    try:
        where = pos[0]
        if where == "home" and len(pos) == 1:
            return rules.HOME
        if where == "track" and len(pos) == 2 and 0 <= int(pos[1]) < track_len:
            return int(pos[1])
        if where == "castle" and len(pos) == 2 and 1 <= int(pos[1]) <= castle:
            return rules.CASTLE0 + int(pos[1])
    except (TypeError, IndexError, ValueError):
        pass
    raise ValueError(
        f"bad position {pos!r}: expected ('home',), ('track', 0..{track_len - 1}) or ('castle', 1..{castle})"
    )


def board_codes(positions, players: int, track_len: int, marbles: int = rules.MARBLES) -> np.ndarray:
    """Kernel codes of a board given as ``marbles`` oracle positions per seat; ValueError when
    it is not a board (wrong shape, a bad position, two marbles on one hole or castle hole)."""
    rows = [list(row) for row in positions]
    if len(rows) != players or any(len(row) != marbles for row in rows):
        raise ValueError(f"a board holds {marbles} positions for each of {players} seats")
    board = np.array([[position_code(p, track_len, marbles) for p in row] for row in rows], dtype=np.int64)
    track = board[(board >= 0) & (board < rules.CASTLE0)]
    if len(set(track.tolist())) != track.size:
        raise ValueError("two marbles on one track hole")
    for seat, row in enumerate(board.tolist()):
        castle = [c for c in row if c > rules.CASTLE0]
        if len(set(castle)) != len(castle):
            raise ValueError(f"two marbles of seat {seat} in one castle hole")
    return board


def move_tuple(record: Sequence[int], owner: int, board_pos: np.ndarray) -> tuple:
    """Oracle move of a kernel move record (``MW`` fields) on the board before the move."""
    kind = rules.KIND_NAMES[record[rules.MV_KIND]]
    m1 = int(record[rules.MV_M1])
    steps = [(m1, position(board_pos[owner, m1]), position(record[rules.MV_E1]),
              int(record[rules.MV_C1]))]
    m2 = int(record[rules.MV_M2])
    if m2 >= 0:
        steps.append((m2, position(board_pos[owner, m2]), position(record[rules.MV_E2]),
                      int(record[rules.MV_C2])))
    return (kind, owner, tuple(steps))


def _resolve(players: int, params: dict[str, Any] | None) -> tuple[int, dict[str, Any]]:
    players = SPEC.check_players(players)
    return players, SPEC.resolve_params(players, params)


def legal_moves(positions, players: int, seat: int, hand: Sequence[int],
                params: dict[str, Any] | None = None, strategy: str | None = None):
    """The kernel's legal (card, move) choices of ``hand`` for ``seat`` on a given board.

    ``positions``: per seat, ``marbles`` oracle positions (5 official). Returns the list of
    ``(card, move)`` in the kernel's order (cards by id, each card's moves in generation order) and, when
    ``strategy`` is greedy or aggressive, that strategy's choice as ``("play", card, move)`` or
    ``("discard", card)``.
    """
    players, resolved = _resolve(players, params)
    packed = pack_params(players, resolved)
    track_len = track_length(resolved)
    board = board_codes(positions, players, track_len, resolved["marbles"])
    weight = {"greedy": 1, "aggressive": 3}.get(strategy, -1)
    hand_arr = np.array(sorted(hand), dtype=np.int64)
    recs, pick, owner = kernel.board_moves(players, packed, board, seat, hand_arr, weight)
    choices = [(int(r[0]), move_tuple(r[1:], int(owner), board)) for r in recs]
    if strategy is None:
        return choices
    if pick >= 0:
        return choices, ("play",) + choices[pick]
    ranks = [(rank_of(c), c) for c in hand]
    return choices, ("discard", min(ranks)[1])


def apply_move(positions, players: int, move: Any, params: dict[str, Any] | None = None):
    """Make ``move`` (oracle form) on a given board with the kernel's rules, without checking
    that it is legal; returns ``(positions, bumps)`` with bumps as
    ``(seat, marble, hole, destination position)``."""
    players, resolved = _resolve(players, params)
    track_len = track_length(resolved)
    board = board_codes(positions, players, track_len, resolved["marbles"])
    kind, owner, steps = move
    if len(steps) not in (1, 2):
        raise ValueError(f"a move has 1 or 2 steps, got {len(steps)}")
    ms = [int(s[0]) for s in steps] + [-1]
    es = [position_code(s[2], track_len, resolved["marbles"]) for s in steps] + [rules.NONE]
    out, bumps = kernel.board_apply(players, pack_params(players, resolved), board, int(owner),
                                    ms[0], es[0], ms[1], es[1])
    return (
        [[position(c) for c in row] for row in out.tolist()],
        [(s, m, h, position(d)) for s, m, h, d in bumps.tolist() if s >= 0],
    )


# --------------------------------------------------------------------------- trace


def _new_trace(players: int, resolved: dict[str, Any]) -> np.ndarray:
    """Room for every event: a turn makes at most 8 (reshuffle, draw, play, two steps, two
    bumps, win), the deal and the undrawn pile at most ``MAX_CARDS``."""
    rows = 8 * resolved["max_turns"] + rules.MAX_CARDS + 64
    return np.zeros((rows, rules.TRACE_WIDTH), dtype=np.int64)


def _position_texts() -> dict[int, str]:
    texts = {rules.NONE: "", rules.HOME: "home"}
    texts.update({h: f"track {h}" for h in range(rules.MAX_TRACK)})
    texts.update({rules.CASTLE0 + k: f"castle {k}" for k in range(1, rules.CASTLE_HOLES + 1)})
    return texts


POSITION_TEXT = _position_texts()
EVENT_COLUMNS = ["turn", "event", "seat", "card", "card_id", "owner", "marble", "start", "end",
                 "count", "detail"]


def _trace_frame(buffer: np.ndarray, decks: int) -> pd.DataFrame:
    """Readable events from a kernel trace buffer (row 0 holds the count)."""
    if buffer[0, 0] >= buffer.shape[0]:
        raise RuntimeError(f"the game made {buffer[0, 0]} trace events, more than the buffer's "
                           f"{buffer.shape[0] - 1}")
    ev = buffer[1 : buffer[0, 0] + 1]
    kinds = ev[:, 0].tolist()
    moving = (ev[:, 0] == rules.EV_STEP) | (ev[:, 0] == rules.EV_BUMP)
    labels = [label(c, decks) for c in range(CARDS_PER_DECK * decks)]
    cards = ev[:, 3].tolist()
    starts = np.where(moving, ev[:, 6], rules.NONE).tolist()
    ends = np.where(moving, ev[:, 7], rules.NONE).tolist()
    counts = np.where(moving | (ev[:, 0] == rules.EV_RESHUFFLE), ev[:, 8], 0)
    detail = [rules.KIND_NAMES[v] if k == rules.EV_PLAY else ""
              for k, v in zip(kinds, ev[:, 8].tolist(), strict=True)]
    import pandas as pd  # lazily: workers that only play chunks never load it
    return pd.DataFrame(
        {
            "turn": ev[:, 1],
            "event": [EVENT_NAMES[k] for k in kinds],
            "seat": ev[:, 2],
            "card": [labels[c] if c >= 0 else "" for c in cards],
            "card_id": ev[:, 3],
            "owner": ev[:, 4],
            "marble": np.where(ev[:, 0] == rules.EV_DEAL, -1, ev[:, 5]),
            "start": [POSITION_TEXT[p] for p in starts],
            "end": [POSITION_TEXT[p] for p in ends],
            "count": counts,
            "detail": detail,
        },
        columns=EVENT_COLUMNS,
    )


def trace(seed: int, index: int, players: int, params: dict[str, Any], strategy_names: Sequence[Any],
          deal: Any = None):
    """Every event of game ``index`` of the run with ``seed`` (the very same game the run played).
    ``strategy_names``: per seat a built-in name or a user strategy (``SPEC.strategy_codes``).

    Events: ``deal`` (seat, card), ``reshuffle`` (count = cards in the new draw pile), ``draw``,
    ``play`` (seat, card, owner whose marbles move, detail = move kind), ``step`` (owner, marble,
    start, end, count), ``bump`` (owner = the bumped marble's seat, marble, start = the hole,
    end = where it went), ``discard``, ``win`` (seat, owner), ``undrawn`` (the draw pile left at
    the end, top first). Positions read ``home``, ``track h``, ``castle k``. ``deal``: the deal
    option ``(replay, rotation)`` (docs/luck.md), or None.
    """
    players, resolved = _resolve(players, params)
    buffer, row = SPEC.trace_buffer(seed, index, players, resolved, strategy_names, deal)
    return _trace_frame(buffer, resolved["decks"]), row


LOG_CAPACITY = 1024
"""Decisions a log holds at first; a longer game is played again with a log of its length."""


def _parse_position(text: str) -> tuple:
    parts = text.split()
    return (parts[0],) if len(parts) == 1 else (parts[0], int(parts[1]))


def script_from_trace(events: pd.DataFrame, players: int | None = None,
                      params: dict[str, Any] | None = None) -> dict[str, Any]:
    """The keyword arguments of ``play_scripted`` that replay a traced game:
    ``play_scripted(**script_from_trace(events, params=params))`` plays it again.

    ``deck_orders``: the first is the dealt and drawn cards up to the first reshuffle, then
    the draw pile left (when the game ended before a reshuffle); each reshuffle's order is the
    cards drawn from it (the last one completed by the undrawn pile). ``decisions``: one per
    turn. ``players`` defaults to the seats dealt in the trace; pass the game's ``params``
    (the trace does not hold them).
    """
    orders: list[list[int]] = [[]]
    decisions: list = []
    steps: list = []
    columns = [events[c].tolist() for c in ("event", "card_id", "owner", "marble", "start", "end",
                                            "count", "detail")]
    for event, card, owner, marble, start, end, count, detail in zip(*columns, strict=True):
        if event in ("deal", "draw", "undrawn"):
            orders[-1].append(card)
        elif event == "step":
            steps.append((marble, _parse_position(start), _parse_position(end), count))
        elif event == "play":
            steps = []
            decisions.append(("play", card, (detail, owner, steps)))
        elif event == "discard":
            decisions.append(("discard", card))
        elif event == "reshuffle":
            orders.append([])
    out = [
        ("play", d[1], (d[2][0], d[2][1], tuple(d[2][2]))) if d[0] == "play" else d
        for d in decisions
    ]
    if players is None:
        players = int(events.loc[events["event"] == "deal", "seat"].max()) + 1
    return {"deck_orders": orders, "players": players, "decisions": out, "params": params}


# --------------------------------------------------------------------------- scripted play


def _encode_decision(turn: int, dec: Any, track_len: int, marbles: int) -> list[int]:
    row = [0] * kernel.D_WIDTH
    if not isinstance(dec, (list, tuple)) or not dec:
        raise ValueError(f"turn {turn}: bad decision {dec!r}")
    if dec[0] == "discard":
        if len(dec) != 2:
            raise ValueError(f"turn {turn}: discard decision must be ('discard', card)")
        row[kernel.D_TYPE] = kernel.DISCARD
        row[kernel.D_CARD] = _card(turn, dec[1])
        return row
    if dec[0] != "play" or len(dec) != 3:
        raise ValueError(f"turn {turn}: decision must be ('play', card, move) or ('discard', card)")
    row[kernel.D_TYPE] = kernel.PLAY
    row[kernel.D_CARD] = _card(turn, dec[1])
    try:
        kind, owner, steps = dec[2]
        steps = list(steps)
        if kind not in rules.KIND_NAMES or not 1 <= len(steps) <= 2:
            raise ValueError
        row[kernel.D_KIND] = rules.KIND_NAMES.index(kind)
        row[kernel.D_OWNER] = int(owner)
        row[kernel.D_M2] = -1
        for i, step in enumerate(steps):
            marble, start, end, count = step
            base = kernel.D_M1 if i == 0 else kernel.D_M2
            row[base] = int(marble)
            row[base + 1] = position_code(start, track_len, marbles)
            row[base + 2] = position_code(end, track_len, marbles)
            row[base + 3] = int(count)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"turn {turn}: bad move {dec[2]!r}: expected (kind, owner, steps) with 1 or 2 steps "
            f"(marble, start, end, count){': ' + str(exc) if str(exc) else ''}"
        ) from None
    return row


def _card(turn: int, card: Any) -> int:
    if isinstance(card, bool) or not isinstance(card, (int, np.integer)):
        raise ValueError(f"turn {turn}: card must be a card id, got {card!r}")
    return int(card)


def play_scripted(
    deck_orders: Sequence[Sequence[int]],
    players: int,
    decisions: Sequence[Any],
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play one game from explicit deck orders and decisions (the oracle's terms).

    ``deck_orders[0]``: the deck, top first (seat k is dealt cards 5k .. 5k+4, the rest is the
    draw pile); ``deck_orders[i]``: the new draw pile, top first, at the i-th reshuffle (a
    permutation of the discard pile then). ``decisions[t]``: ``("play", card, move)`` or
    ``("discard", card)`` for turn t. Every deck order and decision must be used. Returns
    ``winner_seats, win_share, turns, castle, bumps_made, bumps_suffered, discards,
    unfinished, final_positions, events``; raises ``ValueError`` on illegal input.
    """
    players, resolved = _resolve(players, params)
    packed = pack_params(players, resolved)
    track_len = track_length(resolved)
    n_cards = CARDS_PER_DECK * resolved["decks"]
    deck_orders = [list(o) for o in deck_orders]
    if not deck_orders:
        raise ValueError("deck_orders must contain at least the initial deck order")
    if sorted(deck_orders[0]) != list(range(n_cards)):
        raise ValueError(f"deck order must be a permutation of 0..{n_cards - 1}")
    for i, order in enumerate(deck_orders[1:], 1):
        if any(isinstance(c, bool) or not isinstance(c, (int, np.integer)) for c in order):
            raise ValueError(f"reshuffle order {i} must hold card ids")
    orders = np.array([c for o in deck_orders for c in o], dtype=np.int64)
    offsets = np.cumsum([0] + [len(o) for o in deck_orders]).astype(np.int64)
    script = np.array([_encode_decision(t, d, track_len, resolved["marbles"])
                       for t, d in enumerate(decisions)],
                      dtype=np.int64).reshape(-1, kernel.D_WIDTH)
    buffer = _new_trace(players, resolved)
    row = np.zeros(SPEC.layout(players).width, dtype=np.int64)
    final = np.zeros((players, resolved["marbles"]), dtype=np.int64)
    err, turn = kernel.play_script(players, packed, orders, offsets, script, row, buffer, final)
    if err != kernel.ERR_NONE:
        raise ValueError(f"illegal script at turn {turn}: {ERRORS[err]}")
    layout = SPEC.layout(players)
    win = row[layout.seat_slice("win")]
    return {
        "winner_seats": [s for s in range(players) if win[s] > 0],
        "win_share": (win / WIN_UNIT).tolist(),
        "turns": int(row[kernel.COL_TURNS]),
        "castle": row[layout.seat_slice("score")].tolist(),
        "scores": row[layout.seat_slice("score")].tolist(),  # the spec's common key: marbles home
        "bumps_made": row[layout.seat_slice("bumps_made")].tolist(),
        "bumps_suffered": row[layout.seat_slice("bumps_suffered")].tolist(),
        "discards": row[layout.seat_slice("discards")].tolist(),
        "unfinished": bool(row[kernel.COL_UNFINISHED]),
        "final_positions": [[position(c) for c in r] for r in final.tolist()],
        "events": _trace_frame(buffer, resolved["decks"]),
    }


SPEC = GameSpec(
    name="marbles",
    title="Joker Marbles (Pegs and Jokers)",
    min_players=2,
    max_players=6,
    default_players=4,
    strategies=strategies.NAMES,
    default_strategy="greedy",
    params=PARAMS,
    metrics=("bumps", "discards"),
    seat_outputs=("bumps_made", "bumps_suffered", "discards"),
    score_name="marbles in castle",
    turns_name="turns",
    kernel=kernel,
    pack_params=pack_params,
    check_params=check_board,
    trace=trace,
    notes="first player (or team) with all its marbles (5; parameter marbles) in the castle wins; "
          "a team of m shares 1/m each",
    new_trace=_new_trace,
    log_capacity=LOG_CAPACITY,
    view=view,
    play_scripted=play_scripted,
    script_from_trace=script_from_trace,
    seat_params=searches_and_weighted(
        search.PARAMETERS, strategies,
        "each legal move scored by a weighted sum of features (docs/strategies/marbles.md); "
        "defaults: greedy's score less the risk of being bumped"),
    value=ValueParts(
        features=value.FEATURES, score_only=value.SCORE_ONLY, max_players=rules.MAX_PLAYERS,
        luck_block=luck.play_luck_block, sample_block=luck.sample_block,
        new_recorder=value.new_recorder, ledger_width=value.ACC_SIZE,
        events=f"the deal (sampled: the mean V of {value.DEAL_SAMPLES} independent deals) and every draw "
               "(exact: every kind of card in the draw pile, by its count; a reshuffle draws nothing by "
               "itself)",
    ),
)
decisions = SPEC.decisions
decision_log = SPEC.decision_log


__all__ = [
    "SPEC", "InputError", "apply_move", "decisions", "legal_moves", "play_scripted",
    "script_from_trace", "trace",
]

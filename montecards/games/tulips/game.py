"""Gift of Tulips' public face: its spec for the engine, scripted play and trace (docs/rules/tulips.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

from montecards.engine.decisions import new_log, read_log
from montecards.engine.search import searches_and_weighted
from montecards.engine.spec import (
    WIN_UNIT,
    GameSpec,
    InputError,
    Param,
    check_int_range,
    parse_int_list,
)
from montecards.engine.trace import events_of
from montecards.engine.value import ValueParts
from montecards.games.tulips import kernel, luck, rules, search, strategies, value, view
from montecards.games.tulips.cards import (
    COLOURS,
    MAX_PER_COLOUR,
    MAX_VALUES,
    N_COLOURS,
    N_MAJORITY_COLS,
    N_PLACES,
    card_value,
    cards_per_colour,
    deck_ids,
    label,
)

MAX_VALUE = 1000
MAX_BONUS = 10_000
ACTION_CODES = {"keep": rules.KEEP, "give": rules.GIVE, "open": rules.OPEN, "secret": rules.SECRET_ACTION}
PLACE_NAMES = ("1st", "2nd", "3rd", "4th")
EVENT_NAMES = {
    rules.EV_FESTIVAL: "opening_festival",
    rules.EV_RANKING: "ranking",
    rules.EV_DEAL: "deal",
    rules.EV_SETUP: "setup_bouquet",  # and a "setup_secret" row
    rules.EV_TURN: "turn",
    rules.EV_DRAW: "draw",
    rules.EV_KEEP: "keep",
    rules.EV_GIVE: "give",
    rules.EV_OPEN: "open",
    rules.EV_SECRET: "secret",
    rules.EV_REVEAL: "reveal",
    rules.EV_DISCARD: "discard",
    rules.EV_REMOVED: "removed",
    rules.EV_MAJORITY: "majority",
    rules.EV_END: "final",
}
ERRORS = {
    kernel.ERR_FESTIVAL_COLOUR: "the two festival cards have the same colour",
    kernel.ERR_OPENING_ORDER: "opening_order must be the 4 colours sorted by festival total (highest first)",
    kernel.ERR_SETUP_CHOICE: "a setup choice must be 0 or 1 (the hand index going to the bouquet)",
    kernel.ERR_TOO_FEW_DECISIONS: "decisions ran out before the draw pile",
    kernel.ERR_TOO_MANY_DECISIONS: "decisions left over after the game ended",
    kernel.ERR_BAD_ACTION: "unknown action",
    kernel.ERR_SAME_ACTION: (
        "the second action of a turn repeats the first (open and secret are both festival)"
    ),
    kernel.ERR_BAD_RECEIVER: "a gift needs a receiver that is another seat (and only a gift takes one)",
    kernel.ERR_USER: "a user strategy chose an index outside its legal moves",
    kernel.ERR_REVEAL: (
        "secret_reveal_order must be min(secret festival size, secret_reveal) distinct "
        "secret-festival cards"
    ),
}


# --- parameters ---------------------------------------------------------------------------------


def _int_list(name: str, value: Any, length: int | None, low: int, high: int) -> list[int]:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise InputError(f"parameter {name} must be a list of integers, got {value!r}")
    out = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise InputError(f"parameter {name} must be a list of integers, got {list(value)!r}")
        if not low <= v <= high:
            raise InputError(f"parameter {name} values must be from {low} to {high}, got {list(value)!r}")
        out.append(int(v))
    if length is not None and len(out) != length:
        raise InputError(f"parameter {name} needs {length} integers, got {len(out)}")
    return out


def _check_values(value: Any, players: int) -> list[int]:
    out = _int_list("values", value, None, 0, MAX_VALUE)
    if not 1 <= len(out) <= MAX_VALUES:
        raise InputError(f"parameter values needs 1 to {MAX_VALUES} card values, got {len(out)}")
    return out


def _list_check(name: str, length: int, low: int, high: int):
    def check(value: Any, players: int) -> list[int]:
        return _int_list(name, value, length, low, high)

    return check


def _check_majority_points(value: Any, players: int) -> list[list[int]]:
    """A 4 x 3 table ``[place][k]`` (points of the (k+1)-th majority of the colour in that
    place); a flat place-major list of 12 (or 9: places 1st-3rd) is accepted."""
    name = "majority_points"
    rows = list(value) if hasattr(value, "__iter__") and not isinstance(value, (str, bytes)) else None
    if rows is None:
        raise InputError(f"parameter {name} must be a 4 x 3 table (or a flat list of 12), got {value!r}")
    if rows and all(hasattr(r, "__iter__") and not isinstance(r, (str, bytes)) for r in rows):
        flat = [x for r in rows for x in _int_list(name, r, N_MAJORITY_COLS, -MAX_BONUS, MAX_BONUS)]
    else:
        flat = _int_list(name, rows, None, -MAX_BONUS, MAX_BONUS)
    if len(flat) == 3 * N_MAJORITY_COLS:
        flat += [0] * N_MAJORITY_COLS  # 4th place never pays
    if len(flat) != N_PLACES * N_MAJORITY_COLS:
        raise InputError(
            f"parameter {name} needs 4 places x 3 majorities (12 numbers, place-major; "
            f"9 for places 1st-3rd), got {len(flat)}"
        )
    return [flat[p * N_MAJORITY_COLS : (p + 1) * N_MAJORITY_COLS] for p in range(N_PLACES)]


def _parse_table(text: str) -> list[int]:
    return parse_int_list(text.replace(";", ",").replace("[", "").replace("]", ""))


def _start_points_check(value: Any, players: int) -> list[int]:
    return _int_list("start_points", value, players, -MAX_BONUS, MAX_BONUS)


PARAMS = (
    Param("values", [2, 3, 4], "card values of each colour", parse_int_list, _check_values),
    Param("base_per_value", 6, "base cards per value and colour (2-6 players)", int,
          check_int_range("base_per_value", 1, MAX_PER_COLOUR)),
    Param("marked_per_value", 2, "cards marked 5-6 players per value and colour", int,
          check_int_range("marked_per_value", 0, MAX_PER_COLOUR)),
    Param("removed", [18, 4, 6, 14, 10], "cards removed face down at setup, for 2..6 players",
          parse_int_list, _list_check("removed", 5, 0, 4 * MAX_PER_COLOUR)),
    Param("give_bonus", [3, 2, 1, 0], "give bonus by place 1st..4th", parse_int_list,
          _list_check("give_bonus", N_PLACES, -MAX_BONUS, MAX_BONUS)),
    Param("keep_bonus", [0, 0, 1, 2], "keep bonus by place 1st..4th", parse_int_list,
          _list_check("keep_bonus", N_PLACES, -MAX_BONUS, MAX_BONUS)),
    Param("majority_points", [[15, 10, 5], [10, 7, 4], [5, 3, 1], [0, 0, 0]],
          "majority points [place][1st/2nd/3rd majority], place-major (12 numbers)",
          _parse_table, _check_majority_points),
    Param("secret_reveal", 5, "secret-festival cards revealed at the end (at most)", int,
          check_int_range("secret_reveal", 0)),
    Param("start_points", lambda players: [0] * players,
          f"points each seat starts with, e.g. 2,1,0 (a seat compensation; -{MAX_BONUS} to {MAX_BONUS})",
          parse_int_list, _start_points_check),
)


def check_model(players: int, p: dict[str, Any]) -> None:
    """Checks across parameters: deck size and room for the removed cards, festival and deal."""
    cpc = cards_per_colour(p["values"], p["base_per_value"], p["marked_per_value"])
    if cpc > MAX_PER_COLOUR:
        raise InputError(
            f"at most {MAX_PER_COLOUR} cards per colour: len(values) * (base_per_value + "
            f"marked_per_value) = {cpc}"
        )
    n = len(deck_ids(players, p["values"], p["base_per_value"], p["marked_per_value"]))
    removed = p["removed"][players - 2]
    if removed + 2 + 2 * players > n:
        raise InputError(
            f"parameter removed: {removed} removed cards leave too few of the {n} cards for "
            f"the 2 festival cards and 2 per seat with {players} players (at most {n - 2 - 2 * players})"
        )


def pack_params(players: int, params: dict[str, Any]) -> np.ndarray:
    """The validated parameters as the kernel's float64 vector (offsets ``rules.P_*``)."""
    check_model(players, params)
    v = np.zeros(rules.N_PARAMS, dtype=np.float64)
    values = params["values"]
    v[rules.P_NVALUES] = len(values)
    v[rules.P_VALUES : rules.P_VALUES + len(values)] = values
    v[rules.P_BASE] = params["base_per_value"]
    v[rules.P_MARKED] = params["marked_per_value"]
    v[rules.P_REMOVED : rules.P_REMOVED + 5] = params["removed"]
    v[rules.P_GIVE : rules.P_GIVE + N_PLACES] = params["give_bonus"]
    v[rules.P_KEEP : rules.P_KEEP + N_PLACES] = params["keep_bonus"]
    v[rules.P_MAJ : rules.P_MAJ + N_PLACES * N_MAJORITY_COLS] = [
        x for row in params["majority_points"] for x in row
    ]
    v[rules.P_REVEAL] = params["secret_reveal"]
    v[rules.P_START : rules.P_START + players] = params["start_points"]
    return v


# --- trace --------------------------------------------------------------------------------------


def _new_trace(players: int = 0, params: Any = None) -> np.ndarray:
    """A trace buffer that holds any game (``GameSpec.new_trace``'s arguments are not needed)."""
    return np.zeros((rules.MAX_EVENTS, rules.TRACE_COLS), dtype=np.int64)


def ranking_names(code: int) -> list[str]:
    return [COLOURS[(code >> (2 * p)) & 3] for p in range(N_PLACES)]


def _trace_frame(events: np.ndarray, p: dict[str, Any]) -> pd.DataFrame:
    """Readable events from raw kernel events (see :func:`kernel_trace`).

    Columns: ``turn`` (1-based; 0 during setup, -1 at the end), ``event``, ``seat``, ``card``
    (id, -1 when none), ``label``, ``receiver`` (gifts), ``points``, ``total`` (the colour's
    festival total after an open/reveal), ``ranking`` (colours 1st place first, after the
    event), ``changed`` (the ranking order changed) and ``detail``.
    """
    spec = (p["values"], p["base_per_value"], p["marked_per_value"])
    records = []
    turn = 0
    for kind, seat, card, a, b, c in events.tolist():
        if kind == rules.EV_TURN:
            turn = a
        if kind in (rules.EV_DISCARD, rules.EV_REMOVED, rules.EV_MAJORITY, rules.EV_END, rules.EV_REVEAL):
            turn = -1
        rec = {
            "turn": turn, "event": EVENT_NAMES[kind], "seat": seat, "card": card,
            "label": label(card, *spec) if card >= 0 else "", "receiver": -1, "points": 0,
            "total": -1, "ranking": "", "changed": False, "detail": "",
        }
        if kind == rules.EV_FESTIVAL or kind in (rules.EV_OPEN, rules.EV_REVEAL):
            rec["total"] = a
        elif kind == rules.EV_RANKING:
            rec["ranking"] = ">".join(ranking_names(a))
            rec["changed"] = bool(b)
        elif kind == rules.EV_DEAL:
            rec["detail"] = f"hand {a}"
        elif kind == rules.EV_SETUP:
            rec["event"] = "setup_bouquet"
            rec["detail"] = f"hand {b}"
            records.append(rec)
            rec = dict(rec, event="setup_secret", card=a, label=label(a, *spec), detail=f"hand {1 - b}")
        elif kind == rules.EV_DRAW:
            rec["detail"] = f"action {a + 1} of the turn"
        elif kind == rules.EV_KEEP:
            rec["points"] = a
        elif kind == rules.EV_GIVE:
            rec["points"] = a
            rec["receiver"] = b
        elif kind == rules.EV_MAJORITY:
            rec["points"] = a
            rec["detail"] = f"{COLOURS[b]} ({PLACE_NAMES[c // 8]} place), majority {c % 8 + 1}"
        elif kind == rules.EV_END:
            rec["points"] = a
            rec["detail"] = f"tulips {b}, win share {c}/{WIN_UNIT}"
        records.append(rec)
    columns = ["turn", "event", "seat", "card", "label", "receiver", "points", "total",
               "ranking", "changed", "detail"]
    import pandas as pd  # lazily: workers that only play chunks never load it
    return pd.DataFrame.from_records(records, columns=columns)


def kernel_trace(seed: int, index: int, players: int, params: dict[str, Any] | None,
                 strategy_names: Sequence[Any], deal: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """Game ``index`` of the run with ``seed`` as raw kernel events ``(n, 6)`` int64 rows
    ``(kind, seat, card, a, b, c)`` (kinds ``rules.EV_*``) and its output row.

    ``strategy_names``: per seat a built-in name or a user strategy (``SPEC.strategy_codes``);
    a user strategy's fault raises ``StrategyError``. ``deal``: the deal option ``(replay,
    rotation)`` (docs/luck.md), or None."""
    buffer, row = SPEC.trace_buffer(seed, index, players, params, strategy_names, deal)
    return events_of(buffer).copy(), row


def trace(seed: int, index: int, players: int, params: dict[str, Any] | None, strategy_names: Sequence[Any],
          deal: Any = None):
    """Every event of game ``index`` of the run with ``seed`` (the very same game the run played):
    every draw, action, gift receiver and ranking change; ``(events DataFrame, row)``.
    ``strategy_names``: per seat a built-in name or a user strategy (``SPEC.strategy_codes``).
    ``deal``: the deal option ``(replay, rotation)`` (docs/luck.md), or None."""
    players = SPEC.check_players(players)
    resolved = SPEC.resolve_params(players, params)
    events, row = kernel_trace(seed, index, players, resolved, strategy_names, deal)
    return _trace_frame(events, resolved), row


def script_from_trace(
    events: pd.DataFrame | np.ndarray, players: int, params: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The keyword arguments of :func:`play_scripted` that replay a traced game, so that
    ``play_scripted(**script_from_trace(events, players, params))`` plays it again:
    ``deck`` (ids, top first: removed, festival, 2 per seat, pile), ``players``,
    ``opening_order``, ``setup_choices``, ``decisions``, ``secret_reveal_order`` and
    ``params`` (as given: the trace does not hold them). ``events``: the DataFrame of
    :func:`trace` or the raw events of :func:`kernel_trace`."""
    raw = events if isinstance(events, np.ndarray) else _raw_from_frame(events)
    removed, festival, deal, pile, reveal = [], [], [], [], []
    opening: list[int] | None = None
    setup = [0] * players
    decisions: list[tuple] = []
    for kind, seat, card, a, b, _c in raw.tolist():
        if kind == rules.EV_REMOVED:
            removed.append(card)
        elif kind == rules.EV_FESTIVAL:
            festival.append(card)
        elif kind == rules.EV_DEAL:
            deal.append(card)
        elif kind == rules.EV_DRAW:
            pile.append(card)
        elif kind == rules.EV_REVEAL:
            reveal.append(card)
        elif kind == rules.EV_RANKING and opening is None:
            opening = [(a >> (2 * p)) & 3 for p in range(N_PLACES)]
        elif kind == rules.EV_SETUP:
            setup[seat] = b
        elif kind == rules.EV_KEEP:
            decisions.append(("keep",))
        elif kind == rules.EV_GIVE:
            decisions.append(("give", b))
        elif kind == rules.EV_OPEN:
            decisions.append(("open",))
        elif kind == rules.EV_SECRET:
            decisions.append(("secret",))
    return {
        "deck": removed + festival + deal + pile,
        "players": players,
        "opening_order": opening,
        "setup_choices": setup,
        "decisions": decisions,
        "secret_reveal_order": reveal,
        "params": params,
    }


def _raw_from_frame(ev: pd.DataFrame) -> np.ndarray:
    """The raw events script_from_trace needs, rebuilt from a trace DataFrame."""
    kinds = {name: kind for kind, name in EVENT_NAMES.items()}
    out = []
    for r in ev.itertuples():
        if r.event == "setup_secret":
            continue
        kind = kinds[r.event]
        a = b = 0
        if kind == rules.EV_RANKING:
            a = sum(COLOURS.index(c) << (2 * p) for p, c in enumerate(r.ranking.split(">")))
        elif kind == rules.EV_SETUP:
            b = int(r.detail.split()[-1])
        elif kind == rules.EV_GIVE:
            b = r.receiver
        out.append((kind, r.seat, r.card, a, b, 0))
    return np.array(out, dtype=np.int64).reshape(-1, rules.TRACE_COLS)


# --- scripted play ------------------------------------------------------------------------------


def _decision(d: Any, k: int) -> tuple[int, int]:
    if isinstance(d, str):
        d = (d,)
    if not isinstance(d, (tuple, list)) or not d or d[0] not in ACTION_CODES:
        raise ValueError(
            f"decision {k}: {d!r} is not ('keep',), ('give', seat), ('open',) or ('secret',)"
        )
    action = ACTION_CODES[d[0]]
    if action == rules.GIVE:
        if len(d) != 2 or isinstance(d[1], bool) or not isinstance(d[1], (int, np.integer)):
            raise ValueError(f"decision {k}: a gift needs a receiver seat, got {tuple(d)!r}")
        return action, int(d[1])
    if len(d) != 1:
        raise ValueError(f"decision {k}: {d[0]} takes no argument, got {tuple(d)!r}")
    return action, -1


def play_scripted(
    deck: Sequence[int],
    players: int,
    opening_order: Sequence[int],
    setup_choices: Sequence[int],
    decisions: Sequence[Any],
    secret_reveal_order: Sequence[int],
    params: dict[str, Any] | None = None,
    log_decisions: bool = False,
) -> dict[str, Any]:
    """Play one game from an explicit deck and every decision (the inputs of the naive
    oracle's ``replay``).

    ``deck``: card ids (``colour * cards_per_colour + index``, see ``tulips.cards``), top
    first: the removed cards, the 2 festival cards, 2 per seat in seat order, the draw pile.
    ``opening_order``: the 4 colours (0 purple, 1 blue, 2 pink, 3 orange), 1st place first,
    sorted by festival total (it fixes the order of ties). ``setup_choices``: per seat, the
    hand index (0/1) going to the bouquet. ``decisions``: per action in play order (two per
    turn) ``("keep",)``, ``("give", seat)``, ``("open",)`` or ``("secret",)``.
    ``secret_reveal_order``: the revealed secret-festival card ids in reveal order.

    Returns scores, keep/give/majority points, tulips, win_share, turns, final_ranking,
    totals, bouquets (card ids per seat) and the events (and, with ``log_decisions``,
    ``decisions``: every decision as the decision interface shows it, see :func:`decisions`);
    raises ``ValueError`` with a clear message on any illegal input (``InputError`` for bad
    parameters).
    """
    players = SPEC.check_players(players)
    p = SPEC.resolve_params(players, params)
    spec3 = (p["values"], p["base_per_value"], p["marked_per_value"])
    ids = deck_ids(players, *spec3)
    deck = [int(c) for c in deck]
    if sorted(deck) != ids:
        raise ValueError(
            f"deck must hold each of the {len(ids)} cards used with {players} players exactly once "
            f"(ids {ids[0]}..{ids[-1]}{', base cards only' if players < 5 else ''})"
        )
    r = p["removed"][players - 2]
    drawing = np.array(deck[r:] + deck[:r], dtype=np.int64)  # kernel order: removed last
    opening = [int(c) for c in opening_order]
    if len(opening) != N_COLOURS:
        raise ValueError(f"opening_order must list the {N_COLOURS} colours, got {opening}")
    setup = [int(c) for c in setup_choices]
    if len(setup) != players:
        raise ValueError(f"setup_choices needs one hand index (0/1) per seat ({players}), got {len(setup)}")
    dec = np.array([_decision(d, k) for k, d in enumerate(decisions)], dtype=np.int64).reshape(-1, 2)
    reveal = np.array([int(c) for c in secret_reveal_order], dtype=np.int64)
    if len(set(reveal.tolist())) != reveal.shape[0]:
        raise ValueError(f"secret_reveal_order repeats a card: {reveal.tolist()}")
    buffer = _new_trace()
    row = np.zeros(SPEC.layout(players).width, dtype=np.int64)
    err_at = np.zeros(1, dtype=np.int64)
    log = new_log(view.LOG_CAPACITY, view.OBS_SIZE, view.MAX_LEGAL) if log_decisions else None
    err = kernel.play_script(
        drawing, players, pack_params(players, p), np.array(opening, np.int64),
        np.array(setup, np.int64), dec, reveal, row, buffer, err_at, log,
    )
    if err != kernel.ERR_NONE:
        where = ""
        if err in (kernel.ERR_BAD_ACTION, kernel.ERR_SAME_ACTION, kernel.ERR_BAD_RECEIVER,
                   kernel.ERR_TOO_FEW_DECISIONS, kernel.ERR_TOO_MANY_DECISIONS):
            where = f" (at decision {err_at[0]})"
        elif err == kernel.ERR_SETUP_CHOICE:
            where = f" (seat {err_at[0]})"
        raise ValueError(f"illegal script: {ERRORS[err]}{where}")
    out = _scripted_result(events_of(buffer), row, players, p)
    if log is not None:
        out["decisions"] = read_log(log)
    return out


def _scripted_result(raw: np.ndarray, row: np.ndarray, players: int, p: dict[str, Any]) -> dict[str, Any]:
    layout = SPEC.layout(players)
    spec3 = (p["values"], p["base_per_value"], p["marked_per_value"])
    cpc = cards_per_colour(*spec3)
    bouquets: list[list[int]] = [[] for _ in range(players)]
    totals = [0] * N_COLOURS
    final = 0
    for kind, seat, card, a, b, _c in raw.tolist():
        if kind in (rules.EV_SETUP, rules.EV_KEEP):
            bouquets[seat].append(card)
        elif kind == rules.EV_GIVE:
            bouquets[b].append(card)
        elif kind in (rules.EV_FESTIVAL, rules.EV_OPEN, rules.EV_REVEAL):
            totals[card // cpc] += card_value(card, *spec3)
        elif kind == rules.EV_RANKING:
            final = a

    def seat(name: str) -> list[int]:
        return row[layout.seat_slice(name)].tolist()

    return {
        "scores": seat("score"),
        "keep_points": seat("keep_points"),
        "give_points": seat("give_points"),
        "majority_points": seat("majority_points"),
        "tulips": seat("tulips"),
        "win_share": (row[layout.seat_slice("win")] / WIN_UNIT).tolist(),
        "turns": int(row[kernel.COL_TURNS]),
        "final_ranking": [(final >> (2 * q)) & 3 for q in range(N_PLACES)],
        "totals": totals,
        "bouquets": bouquets,
        "events": _trace_frame(raw, p),
    }


SPEC = GameSpec(
    name="tulips",
    title="Gift of Tulips",
    min_players=2,
    max_players=6,
    default_players=4,
    strategies=strategies.NAMES,
    default_strategy="greedy",
    params=PARAMS,
    metrics=("keep_points", "give_points", "majority_points"),
    seat_outputs=("keep_points", "give_points", "majority_points", "tulips"),
    score_name="points",
    turns_name="player turns",
    kernel=kernel,
    pack_params=pack_params,
    trace=trace,
    check_params=check_model,
    notes=(
        "most points wins; ties: most tulips in bouquet, then shared. Metrics keep_points, "
        "give_points, majority_points are stored per game as integer SUMS over seats; the "
        "rules' per-game value (mean over seats) is the sum / players"
    ),
    new_trace=_new_trace,
    log_capacity=view.LOG_CAPACITY,
    view=view,
    play_scripted=play_scripted,
    script_from_trace=script_from_trace,
    seat_params=searches_and_weighted(
        search.PARAMETERS, strategies,
        "scores every legal move by a weighted sum of features (docs/strategies/tulips.md); "
        "the defaults make greedy's choices"),
    value=ValueParts(
        features=value.FEATURES, score_only=value.SCORE_ONLY, max_players=6,
        luck_block=luck.play_luck_block, sample_block=luck.sample_block,
        new_recorder=value.new_recorder, ledger_width=value.ACC_SIZE,
        events="the deal (sampled: the mean V of 8 independent deals), every draw (exact: every "
               "kind of unseen card, by its count) and the secret reveal (sampled: the mean result "
               "of 16 independent reveals)",
    ),
)
decisions = SPEC.decisions


__all__ = [
    "SPEC", "InputError", "decisions", "kernel_trace", "pack_params", "play_scripted",
    "script_from_trace", "trace",
]

"""Wig Out!'s kernel: rules, strategies and the competing-hazards event simulation (docs/rules/wigout.md).

The whole game lives in ONE flat int64 array ``st`` with the named offsets below (no tuples of
arrays, no slicing in the hot loop), plus a small float64 array ``fw`` for the rates, speeds and
the clock. A hand is kept as per-character counts plus two bit masks per seat (characters held
at least once / at least twice) and one mask for the characters showing on the table: a seat
has a legal play iff ``m2 != 0 or m1 & table != 0``, so rates cost a few instructions a seat.

Random streams of game ``i`` of a run with seed ``s`` (``rng.seed_stream``):

* substream ``EVENT_STREAM``: per event, the waiting time (one ``exponential``) then the actor
  (one ``uniform`` times the total rate, first seat whose cumulative rate exceeds it);
* substream ``CHOICE_STREAM``: one ``uniform`` per action of a ``random`` seat that has a play;
* substream ``DECK_STREAM + deal``: the deck of that deal, a fresh uniform shuffle of all cards
  drawn lazily (only the cards dealt or drawn), from the sorted deck.

Each deal has its own deck stream, so deal ``d`` of game ``i`` shows the same cards whatever the
strategies, speeds or earlier deals did: strategy and speed comparisons run on common random
numbers. Outside trace mode the waiting time's uniform is consumed but its logarithm is not taken
(no output depends on the clock), which changes nothing else.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange
from numba.cpython.unsafe.numbers import trailing_zeros

from montecards.engine.bits import popcount
from montecards.engine.borrow import borrow, keep_alive
from montecards.engine.kernel import block_count, block_start
from montecards.engine.spec import WIN_UNIT
from montecards.games.wigout.rules import (
    F_DRAW_SPEED,
    F_RATE,
    F_SPEED,
    F_TIME,
    MAX_CHARS,
    MAX_DEALS_PER_ROUND,
    N_FLOATS,
    O_DECK,
    O_HAND,
    O_HANDN,
    O_M1,
    O_M2,
    O_POINTS,
    O_WON,
    P_CHARACTERS,
    P_COPIES,
    P_DEADLOCK_COUNTS,
    P_DRAW_TIME_FACTOR,
    P_HAND_SIZE,
    P_ROUNDS,
    P_SPEED,
    S_ACTIONS,
    S_CHARS,
    S_CHOICE,
    S_COPIES,
    S_DCAR,
    S_DEADLOCKS,
    S_DEAL,
    S_DECK_ROW,
    S_DRAWN,
    S_DRAWS,
    S_ERR_EVENT,
    S_EVENT,
    S_HAND,
    S_MAX_DEALS,
    S_N,
    S_PLAYERS,
    S_ROUND,
    S_ROUNDS,
    S_SCRIPTED,
    S_TABLE,
    S_TABLE_CARDS,
    S_UNFINISHED,
)
from montecards.games.wigout.view import DECISION_PLAY, log_decision
from montecards.rng import bounded, exponential, next_u64, seed_stream, uniform

# strategy codes (index into NAMES); kept here so the kernel has no import cycle
GREEDY = 0
SINGLES_FIRST = 1
RANDOM = 2
NAMES = ("greedy", "singles_first", "random")

EVENT_STREAM = 0
CHOICE_STREAM = 1
DECK_STREAM = 2  # + deal

# plays, as returned by the strategies: 2 * character + ADD (a start when the low bit is 0)
ADD = 1
NO_PLAY = -1

# per-game row: turns, unfinished, deadlocks, draws, then seat blocks win, score, rounds_won
COL_TURNS = 0
COL_UNFINISHED = 1
COL_DEADLOCKS = 2
COL_DRAWS = 3
FIRST_SEAT_COL = 4

# trace rows (float64): row 0 holds the event count in column 0
EV_DEAL = 0
EV_CARD = 1
EV_START = 2
EV_ADD = 3
EV_DRAW = 4
EV_WIGOUT = 5
EV_DEADLOCK = 6
T_KIND = 0
T_DEAL = 1
T_ROUND = 2
T_SEAT = 3
T_CHAR = 4
T_CARDS = 5
T_WAIT = 6
T_TIME = 7
T_CHOICE = 8
T_HAND_AFTER = 9
T_TABLE_AFTER = 10
T_PILE_AFTER = 11
T_AUX = 12
TRACE_WIDTH = 13

ERR_NONE = 0
ERR_TOO_FEW_DECKS = 1
ERR_TOO_MANY_DECKS = 2
ERR_TOO_FEW_EVENTS = 3
ERR_TOO_MANY_EVENTS = 4
ERR_CANNOT_ACT = 5
ERR_TOO_FEW_CHOICES = 6
ERR_TOO_MANY_CHOICES = 7


def state_size(characters: int, copies: int) -> int:
    return O_DECK + characters * copies


@njit(cache=True)
def new_state(players, params):
    """The flat game state, sized for these parameters, with the fixed scalars filled in."""
    chars = np.int64(params[P_CHARACTERS])
    copies = np.int64(params[P_COPIES])
    st = np.zeros(O_DECK + chars * copies, np.int64)
    st[S_PLAYERS] = players
    st[S_CHARS] = chars
    st[S_COPIES] = copies
    st[S_N] = chars * copies
    st[S_HAND] = np.int64(params[P_HAND_SIZE])
    st[S_ROUNDS] = np.int64(params[P_ROUNDS])
    st[S_DCAR] = 1 if params[P_DEADLOCK_COUNTS] != 0.0 else 0
    st[S_MAX_DEALS] = st[S_ROUNDS] * MAX_DEALS_PER_ROUND
    return st


@njit(cache=True)
def new_floats(players, params):
    fw = np.zeros(N_FLOATS, np.float64)
    for s in range(players):
        fw[F_SPEED + s] = params[P_SPEED + s]
        fw[F_DRAW_SPEED + s] = params[P_SPEED + s] / params[P_DRAW_TIME_FACTOR]
    return fw


@njit(cache=True, inline="always")
def record(trace, kind, st, seat, char, cards, wait, time, choice, aux):
    """Append an event (a no-op when tracing is off: empty buffer). Row 0 counts every event,
    also those beyond the buffer, so the caller can retry with a larger one."""
    if trace.shape[0] == 0:
        return
    k = np.int64(trace[0, 0]) + 1
    trace[0, 0] = k
    if k < trace.shape[0]:
        trace[k, T_KIND] = kind
        trace[k, T_DEAL] = st[S_DEAL]
        trace[k, T_ROUND] = st[S_ROUND]
        trace[k, T_SEAT] = seat
        trace[k, T_CHAR] = char
        trace[k, T_CARDS] = cards
        trace[k, T_WAIT] = wait
        trace[k, T_TIME] = time
        trace[k, T_CHOICE] = choice
        trace[k, T_HAND_AFTER] = st[O_HANDN + seat] if seat >= 0 else -1
        trace[k, T_TABLE_AFTER] = st[S_TABLE_CARDS]
        trace[k, T_PILE_AFTER] = st[S_N] - st[S_DRAWN]
        trace[k, T_AUX] = aux


@njit(cache=True, inline="always")
def set_held(st, seat, char, n):
    """Seat holds ``n`` copies of ``char``: the count and both masks."""
    st[O_HAND + seat * MAX_CHARS + char] = n
    bit = np.int64(1) << char
    m1 = st[O_M1 + seat] | bit
    m2 = st[O_M2 + seat] | bit
    if n < 2:
        m2 ^= bit
        if n < 1:
            m1 ^= bit
    st[O_M1 + seat] = m1
    st[O_M2 + seat] = m2


@njit(cache=True, inline="always")
def next_card(st, deck_rng, scripted):
    """The top card of this deal's deck: the next in order (scripted) or a lazy Fisher-Yates
    draw among the undrawn cards (the same draws as ``rng.draw_lazy``)."""
    d = st[S_DRAWN]
    if scripted:
        card = st[O_DECK + d]
    else:
        j = O_DECK + d + bounded(deck_rng, st[S_N] - d)
        card = st[j]
        st[j] = st[O_DECK + d]
        st[O_DECK + d] = card
    st[S_DRAWN] = d + 1
    return card


@njit(cache=True, inline="always")
def has_play(st, seat):
    return st[O_M2 + seat] != 0 or (st[O_M1 + seat] & st[S_TABLE]) != 0


@njit(cache=True, inline="always")
def lowest_bit(mask):
    """Index of the lowest set bit of a non-zero mask."""
    return np.int64(trailing_zeros(mask))


@njit(cache=True, inline="always")
def count_bits(mask):
    return popcount(mask)


@njit(cache=True, inline="always")
def greedy_play(st, seat):
    """``greedy``: start a pile with all copies of the most numerous character held >= 2 times
    (even if it has a pile already); else add one card of the lowest-index character that has
    a pile; ties: lowest character index. Called only when the seat has a play."""
    m2 = st[O_M2 + seat]
    if m2 != 0:
        best = -1
        best_n = 1
        base = O_HAND + seat * MAX_CHARS
        while m2 != 0:  # the characters held >= 2 times, lowest first
            c = lowest_bit(m2)
            n = st[base + c]
            if n > best_n:
                best = c
                best_n = n
            m2 &= m2 - 1
        return 2 * best
    return 2 * lowest_bit(st[O_M1 + seat] & st[S_TABLE]) + ADD


@njit(cache=True, inline="always")
def singles_first_play(st, seat):
    """``singles_first``: add one card of the lowest-index character that has a pile; else
    start a pile with all copies of the lowest-index character held >= 2 times."""
    addable = st[O_M1 + seat] & st[S_TABLE]
    if addable != 0:
        return 2 * lowest_bit(addable) + ADD
    return 2 * lowest_bit(st[O_M2 + seat])


@njit(cache=True, inline="always")
def random_play(st, seat, u):
    """``random``: play ``floor(u * n)`` of the ``n`` legal plays listed by character ascending,
    "start" (held >= 2 times) before "add" (a pile of it shows)."""
    m2 = st[O_M2 + seat]
    addable = st[O_M1 + seat] & st[S_TABLE]
    k = np.int64(u * (count_bits(m2) + count_bits(addable)))
    either = m2 | addable
    while True:  # the characters with a play, lowest first
        c = lowest_bit(either)
        bit = either & -either
        if m2 & bit:
            if k == 0:
                return 2 * c
            k -= 1
        if addable & bit:
            if k == 0:
                return 2 * c + ADD
            k -= 1
        either ^= bit


@njit(cache=True)
def deal_round(st, deck_rng, seed, index, scripted, script_decks, trace):
    """Deal a round: the deck, ``hand_size`` cards to each seat in blocks (seat 0 first), then
    two starter cards (one pile of two when equal); the rest is the draw pile. Returns False
    when a scripted game has run out of decks."""
    players = st[S_PLAYERS]
    chars = st[S_CHARS]
    copies = st[S_COPIES]
    n = st[S_N]
    deal = st[S_DEAL]
    if scripted:
        row = st[S_DECK_ROW]
        if row >= script_decks.shape[0]:
            return False
        for k in range(n):
            st[O_DECK + k] = script_decks[row, k]
        st[S_DECK_ROW] = row + 1
    else:
        seed_stream(deck_rng, seed, index, DECK_STREAM + deal)
        k = 0
        for c in range(chars):
            for _ in range(copies):
                st[O_DECK + k] = c
                k += 1
    st[S_DRAWN] = 0
    hand = st[S_HAND]
    for s in range(players):
        base = O_HAND + s * MAX_CHARS
        for c in range(chars):
            st[base + c] = 0
        for _ in range(hand):
            c = next_card(st, deck_rng, scripted)
            st[base + c] += 1
        m1 = np.int64(0)
        m2 = np.int64(0)
        for c in range(chars):
            held = st[base + c]
            if held >= 1:
                m1 |= np.int64(1) << c
                if held >= 2:
                    m2 |= np.int64(1) << c
        st[O_M1 + s] = m1
        st[O_M2 + s] = m2
        st[O_HANDN + s] = hand
    a = next_card(st, deck_rng, scripted)
    b = next_card(st, deck_rng, scripted)
    st[S_TABLE] = (np.int64(1) << a) | (np.int64(1) << b)
    st[S_TABLE_CARDS] = 2
    record(trace, EV_DEAL, st, deal % players, a, 2, 0.0, 0.0, -1.0, b)
    return True


@njit(cache=True)
def record_deck(st, deck_rng, scripted, trace):
    """Trace only: the deal's whole deck, top first. A run's lazy shuffle is completed from the
    deal's own deck stream first (nothing else reads that stream afterwards)."""
    if trace.shape[0] == 0:
        return
    n = st[S_N]
    if not scripted:
        for d in range(st[S_DRAWN], n - 1):
            j = O_DECK + d + bounded(deck_rng, n - d)
            card = st[j]
            st[j] = st[O_DECK + d]
            st[O_DECK + d] = card
    for k in range(n):
        record(trace, EV_CARD, st, -1, st[O_DECK + k], 0, 0.0, 0.0, -1.0, k)


@njit(cache=True)
def play_round(st, fw, strategies, ev_rng, ch_rng, deck_rng, scripted, script_actors,
               script_waits, script_choices, trace, log):
    """Events until a seat wigs out (returns the seat), a deadlock (returns -1) or an illegal
    script (returns -2 - ERR_*). ``log``: a decision log (``engine.decisions``) that gets every
    play decision, or None (runs): numba then compiles the logging out."""
    players = st[S_PLAYERS]
    n = st[S_N]
    tracing = trace.shape[0] != 0
    while True:
        table = st[S_TABLE]
        pile_left = st[S_DRAWN] < n
        total = 0.0
        for s in range(players):
            if st[O_M2 + s] != 0 or (st[O_M1 + s] & table) != 0:
                r = fw[F_SPEED + s]
            elif pile_left:
                r = fw[F_DRAW_SPEED + s]
            else:
                r = 0.0
            fw[F_RATE + s] = r
            total += r
        if total == 0.0:
            return -1  # deadlock: the draw pile is empty and nobody can play
        if scripted:
            e = st[S_EVENT]
            if e >= script_actors.shape[0]:
                return -2 - ERR_TOO_FEW_EVENTS
            actor = script_actors[e]
            wait = script_waits[e]
            if fw[F_RATE + actor] == 0.0:
                st[S_ERR_EVENT] = e
                return -2 - ERR_CANNOT_ACT
            st[S_EVENT] = e + 1
        else:
            if tracing:
                wait = exponential(ev_rng, total)
            else:
                next_u64(ev_rng)  # the same draw, without the logarithm nobody reads
                wait = 0.0
            target = uniform(ev_rng) * total
            actor = 0
            cum = 0.0
            for s in range(players):
                r = fw[F_RATE + s]
                if r > 0.0:
                    cum += r
                    actor = s
                    if target < cum:
                        break
        fw[F_TIME] += wait
        st[S_ACTIONS] += 1
        u = -1.0
        if has_play(st, actor):
            strategy = strategies[actor]
            if strategy == GREEDY:
                play = greedy_play(st, actor)
            elif strategy == SINGLES_FIRST:
                play = singles_first_play(st, actor)
            else:
                if scripted:
                    k = st[S_CHOICE]
                    if k >= script_choices.shape[0]:
                        st[S_ERR_EVENT] = st[S_EVENT] - 1
                        return -2 - ERR_TOO_FEW_CHOICES
                    u = script_choices[k]
                    st[S_CHOICE] = k + 1
                else:
                    u = uniform(ch_rng)
                play = random_play(st, actor, u)
            if log is not None:
                log_decision(st, actor, DECISION_PLAY, play, log)
            c = play >> 1
            idx = O_HAND + actor * MAX_CHARS + c
            if play & ADD:
                moved = 1
                kind = EV_ADD
            else:
                moved = st[idx]
                kind = EV_START
                st[S_TABLE] = table | (np.int64(1) << c)
            set_held(st, actor, c, st[idx] - moved)
            st[O_HANDN + actor] -= moved
            st[S_TABLE_CARDS] += moved
            record(trace, kind, st, actor, c, moved, wait, fw[F_TIME], u, 0)
            if st[O_HANDN + actor] == 0:
                return actor  # Wig Out!
        else:  # forced draw (the rate is > 0 only while the draw pile is not empty)
            c = next_card(st, deck_rng, scripted)
            set_held(st, actor, c, st[O_HAND + actor * MAX_CHARS + c] + 1)
            st[O_HANDN + actor] += 1
            st[S_DRAWS] += 1
            record(trace, EV_DRAW, st, actor, c, 1, wait, fw[F_TIME], u, 0)


@njit(cache=True)
def play_game(st, fw, seed, index, strategies, ev_rng, ch_rng, deck_rng,
              script_decks, script_actors, script_waits, script_choices, trace, log):
    """One whole game on ``st`` (fixed scalars already set); returns an ``ERR_*`` code.

    ``st[S_SCRIPTED]`` chooses the source of the inputs: the game's random streams, or the
    explicit decks, events and choices of a script (one compiled function serves both)."""
    players = st[S_PLAYERS]
    scripted = st[S_SCRIPTED] != 0
    for k in range(S_DRAWN, O_HAND):  # clear all but the fixed scalars (deal_round clears hands)
        st[k] = 0
    fw[F_TIME] = 0.0
    if not scripted:
        seed_stream(ev_rng, seed, index, EVENT_STREAM)
        seed_stream(ch_rng, seed, index, CHOICE_STREAM)
    rounds = st[S_ROUNDS]
    while st[S_ROUND] < rounds:
        if st[S_DEAL] >= st[S_MAX_DEALS]:
            st[S_UNFINISHED] = 1
            break
        if not deal_round(st, deck_rng, seed, index, scripted, script_decks, trace):
            return ERR_TOO_FEW_DECKS
        winner = play_round(st, fw, strategies, ev_rng, ch_rng, deck_rng, scripted,
                            script_actors, script_waits, script_choices, trace, log)
        if winner <= -2:
            return -2 - winner
        record_deck(st, deck_rng, scripted, trace)
        if winner >= 0:
            for s in range(players):
                if s != winner:
                    st[O_POINTS + s] += st[O_HANDN + s]
            st[O_WON + winner] += 1
            record(trace, EV_WIGOUT, st, winner, -1, 0, 0.0, fw[F_TIME], -1.0, 0)
            st[S_ROUND] += 1
        else:
            st[S_DEADLOCKS] += 1
            record(trace, EV_DEADLOCK, st, -1, -1, 0, 0.0, fw[F_TIME], -1.0, st[S_DCAR])
            if st[S_DCAR]:
                st[S_ROUND] += 1
        st[S_DEAL] += 1
    if scripted:
        if st[S_DECK_ROW] != script_decks.shape[0]:
            return ERR_TOO_MANY_DECKS
        if st[S_EVENT] != script_actors.shape[0]:
            return ERR_TOO_MANY_EVENTS
        if st[S_CHOICE] != script_choices.shape[0]:
            return ERR_TOO_MANY_CHOICES
    return ERR_NONE


@njit(cache=True)
def write_row(st, row):
    """Lowest total wins, ties share the win (``WIN_UNIT // k`` each); unfinished: no winner."""
    players = st[S_PLAYERS]
    row[COL_TURNS] = st[S_ACTIONS]
    row[COL_UNFINISHED] = st[S_UNFINISHED]
    row[COL_DEADLOCKS] = st[S_DEADLOCKS]
    row[COL_DRAWS] = st[S_DRAWS]
    best = st[O_POINTS]
    for s in range(1, players):
        best = min(best, st[O_POINTS + s])
    tied = 0
    for s in range(players):
        if st[O_POINTS + s] == best:
            tied += 1
    for s in range(players):
        won = st[S_UNFINISHED] == 0 and st[O_POINTS + s] == best
        row[FIRST_SEAT_COL + s] = WIN_UNIT // tied if won else 0
        row[FIRST_SEAT_COL + players + s] = st[O_POINTS + s]
        row[FIRST_SEAT_COL + 2 * players + s] = st[O_WON + s]


@njit(cache=True)
def play_one(seed, index, players, params, strategies, st, fw, ev_rng, ch_rng, deck_rng, row,
             trace, log):
    """Game ``index`` of the run with ``seed``, from its own streams, into ``row`` (``log``:
    a decision log or None)."""
    no_decks = np.zeros((0, 0), np.int64)
    no_actors = np.zeros(0, np.int64)
    no_floats = np.zeros(0, np.float64)
    play_game(st, fw, seed, index, strategies, ev_rng, ch_rng, deck_rng,
              no_decks, no_actors, no_floats, no_floats, trace, log)
    write_row(st, row)


@njit(cache=True)
def play_block(seed, start, players, params, strategies, rows):
    """Play every game of ``rows`` in order (game ``start + g`` into ``rows[g]``), allocating
    the working arrays once. The games run on borrowed views (``engine.borrow``) of the
    block's arrays, kept alive here: no reference counting in the per-deal calls."""
    owned_st = new_state(players, params)
    owned_fw = new_floats(players, params)
    owned_rng = np.zeros((3, 4), np.uint64)
    st = borrow(owned_st)
    fw = borrow(owned_fw)
    ev_rng = borrow(owned_rng[0])
    ch_rng = borrow(owned_rng[1])
    deck_rng = borrow(owned_rng[2])
    seat_strategies = borrow(strategies)
    no_decks = np.zeros((0, 0), np.int64)
    no_actors = np.zeros(0, np.int64)
    no_floats = np.zeros(0, np.float64)
    no_trace = np.zeros((0, TRACE_WIDTH), np.float64)
    for g in range(rows.shape[0]):
        play_game(st, fw, seed, start + g, seat_strategies, ev_rng, ch_rng, deck_rng,
                  no_decks, no_actors, no_floats, no_floats, no_trace, None)
        write_row(st, rows[g])
    # numba frees an array right after its last use: these uses keep the owners of the
    # borrowed views alive until every game of the block is played
    keep_alive(owned_st)
    keep_alive(owned_fw)
    keep_alive(owned_rng)


@njit(cache=True, parallel=True)
def run_chunk(seed, start, players, params, strategies, rows):
    """Play games ``start .. start + len(rows) - 1`` of the run into ``rows`` (one per game)."""
    n = rows.shape[0]
    blocks = block_count(n)
    for b in prange(blocks):
        lo = block_start(n, blocks, b)
        hi = block_start(n, blocks, b + 1)
        play_block(seed, start + lo, players, params, strategies, rows[lo:hi])


@njit(cache=True)
def trace_one(seed, index, players, params, strategies, row, trace, log):
    """The same game as ``run_chunk`` plays (same streams), recording its events into
    ``trace`` (an empty buffer: none) and its decisions into ``log`` (None: none)."""
    st = new_state(players, params)
    fw = new_floats(players, params)
    ev_rng = np.zeros(4, np.uint64)
    ch_rng = np.zeros(4, np.uint64)
    deck_rng = np.zeros(4, np.uint64)
    if trace.shape[0] > 0:
        trace[0, 0] = 0
    play_one(seed, index, players, params, strategies, st, fw, ev_rng, ch_rng, deck_rng, row,
             trace, log)


@njit(cache=True)
def play_script(players, params, strategies, decks, actors, waits, choices, row, trace, info):
    """Scripted game: explicit round decks (top first), (actor, waiting time) per event and the
    ``random`` seats' uniforms. Returns an ``ERR_*`` code; ``info`` gets (event, deal)."""
    st = new_state(players, params)
    fw = new_floats(players, params)
    rng = np.zeros(4, np.uint64)
    trace[0, 0] = 0
    st[S_SCRIPTED] = 1
    err = play_game(st, fw, np.uint64(0), np.int64(0), strategies, rng, rng, rng,
                    decks, actors, waits, choices, trace, None)
    info[0] = st[S_ERR_EVENT] if err in (ERR_CANNOT_ACT, ERR_TOO_FEW_CHOICES) else st[S_EVENT]
    info[1] = st[S_DEAL]
    info[2] = st[S_CHOICE]
    info[3] = st[S_DECK_ROW]
    write_row(st, row)
    return err

"""Anomia's rules kernel (docs/rules/anomia.md): one game on one flat int64 state array.

Game ``i`` of a run with seed ``s`` uses two streams of ``montecards.rng``: substream
``DECK_STREAM`` shuffles the cards in play (a complete Fisher-Yates, the very draws of
``rng.shuffle`` on the ascending ids of the cards in play), substream ``FACE_OFF_STREAM`` feeds
the face-offs. Per face-off between seats ``a < b`` it consumes, in this order:

* when ``tie_prob > 0`` one uniform ``u_tie``; the face-off ties iff ``u_tie < tie_prob``;
* one uniform ``u``; seat ``a`` wins (the face-off, or its tiebreak) iff ``u < p_a`` with
  ``p_a = exp(theta_a) / (exp(theta_a) + exp(theta_b))`` (Bradley-Terry);
* only for a tie while the draw pile holds a category card: one uniform ``v``; the tiebreak
  card goes back at position ``min(floor(v * (n + 1)), n)`` of the draw pile (0 = top, ``n``
  cards left after taking it out).

Keeping the deck apart from the face-offs means the same seed deals the same deck whatever the
skills and rule variants (common random numbers).

Readings of the rules page built in here (also in ``game.py``):

* Seats draw 0, 1, 2, ... (clockwise); after a wild the same seat draws again once all
  face-offs are resolved; the game ends when the draw pile is empty (all face-offs resolved).
* Only top cards count; an empty play pile matches nothing; a wild never goes on a play pile.
* Two tops match when they show the same symbol or the two symbols of the active wild. A face-off
  is *wild* (``wild_face_offs``) when the two tops show different symbols.
* Chains are the face-offs between one draw and the next (a wild draw is a draw; the face-offs
  after the last draw are the last chain). ``cascades`` counts chains of 2 or more,
  ``longest_cascade`` is the longest chain (1 if every chain is a single face-off, 0 if the game
  had none) -- the rules page's words, and the naive reference's reading.
* A tie (``tie_prob``) is one face-off: the tiebreak winner takes the loser's top card exactly
  as in a face-off; the tiebreak card (the first *category* card from the top of the draw pile,
  wilds above it stay) goes back at a uniform position; without a category card in the draw
  pile the skill model decides alone. A tiebreak is not a draw and does not end a chain.
* ``winnings_face_up``: the won card goes on top of the winner's play pile; a seat scores the
  cards on its play pile that it did not draw itself (a card won back by the seat that drew it
  does not score).

At most one match exists at any time: the only matches a change can create involve the seats
whose top changed (a draw, a face-off's loser, and its winner with face-up winnings) or, for a
new wild, the seats showing its two symbols; two seats matching the same new top would already
have matched each other. The kernel still counts every match a change creates and stops with
``ERR_TWO_MATCHES`` if there are two (a run marks the game unfinished; scripted play raises).
No valid deck can trigger it; the tests reach it through an impossible opening table
(``play_scripted(..., table=...)``).

``play_game`` indexes the state through ``U(i)`` (the index as unsigned): every index is >= 0,
and numba then skips its negative-index fix-up, about a fifth of the kernel's time.

Face-off draws are compared in integer form (``u53 < ceil(p * 2**53)``, see ``threshold``),
which is exactly ``uniform(rng) < p`` on the same draw.

State layout (one flat int64 array): the ``H_*`` header scalars; per seat ``TOP`` (symbol shown
or ``NO_CARD``), ``PILE_N``, ``SCORE``, ``WON``; per symbol slot ``PARTNER`` (the active wild's
other symbol) and ``SHOWING`` (bitset of the seats whose top shows it: a new top's matches are
``SHOWING[x] | SHOWING[PARTNER[x]]``); the ``LOWEST`` bit table and the face-off ``THRESHOLD``
table; then, at offsets that depend on the deck size, the card codes (``CODES``), the deck
template (cards in play, ascending), the deck (top first) and the play piles (``cap`` entries
per seat, bottom first; an entry is ``card * 64 + symbol * 8 + drawer``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from montecards.engine.borrow import borrow, keep_alive
from montecards.engine.kernel import block_count, block_start
from montecards.engine.spec import WIN_UNIT
from montecards.games.anomia.cards import MAX_PLAYERS, N_SYMBOLS, WILD_BASE
from montecards.rng import bounded, next_u64, seed_stream, uniform

DECK_STREAM = 0
FACE_OFF_STREAM = 1

# symbol slots: the 8 symbols, then two slots that never show a match
NO_WILD = N_SYMBOLS  # PARTNER of a symbol on no active wild; nobody ever shows it
NO_CARD = N_SYMBOLS + 1  # TOP of an empty play pile (its SHOWING bits are never read)
N_SLOTS = N_SYMBOLS + 2

# --- the packed float64 parameter vector (built by game.pack_params) ------------------------
P_TIE_PROB = 0
P_FACE_UP = 1
P_N_PLAY = 2  # cards in play
P_N_IDS = 3  # every card id of the composition, removed ones included
P_PWIN = 4  # MAX_PLAYERS x MAX_PLAYERS: p[a, b] = P(a beats b)
P_CODES = P_PWIN + MAX_PLAYERS * MAX_PLAYERS  # code of each id, then the ids in play

# --- the flat int64 game state --------------------------------------------------------------
H_PLAYERS = 0
H_N = 1  # cards in play
H_IDS = 2
H_FACE_UP = 3
H_DRAWN = 4
H_FACE_OFFS = 5
H_CASCADES = 6
H_LONGEST = 7
H_WILD_FACE_OFFS = 8
H_TIES = 9
H_WILD_X = 10
H_WILD_Y = 11
H_ERR_INDEX = 12  # face-off index of an error
H_ERR_A = 13
H_ERR_B = 14
H_ERR_C = 15
H_GAME_FIRST = H_DRAWN  # H_GAME_FIRST .. H_GAME_END are reset every game
H_GAME_END = 16
H_TIE_THRESHOLD = 16  # a face-off ties iff u53 < this (see THRESHOLD)
H_SCRIPTED = 17  # 1: explicit deck order and face-off winners (play_deck), 0: a run
TOP = 20  # the symbol each seat's top card shows, or NO_CARD (empty play pile)
PILE_N = TOP + MAX_PLAYERS
SCORE = PILE_N + MAX_PLAYERS
WON = SCORE + MAX_PLAYERS  # face-offs won
PARTNER = WON + MAX_PLAYERS  # per symbol slot: the other symbol of the active wild, or NO_WILD
SHOWING = PARTNER + N_SLOTS  # per symbol slot: bitset of the seats whose top shows it
LOWEST = SHOWING + N_SLOTS  # LOWEST[m]: the lowest seat in the bitset m (m = 1..63)
THRESHOLD = LOWEST + (1 << MAX_PLAYERS)  # [a * MAX_PLAYERS + b]: a beats b iff u53 < this
CODES = THRESHOLD + MAX_PLAYERS * MAX_PLAYERS

SEAT_BITS = 3
SEAT_MASK = 7
SYMBOL_MASK = 7
ENTRY_CARD_SHIFT = 6

# --- scripted ties (play_deck): one entry per face-off ---------------------------------------
NO_TIE = -1
TIE_NO_CARD = -2  # a tie decided without a card (no category card in the draw pile)

# --- errors ----------------------------------------------------------------------------------
ERR_NONE = 0
ERR_TWO_MATCHES = 1
ERR_TOO_FEW_WINNERS = 2
ERR_BAD_WINNER = 3
ERR_TOO_MANY_WINNERS = 4
ERR_BAD_TIEBREAK = 5

# --- trace events: (kind, seat, card, other, extra) ------------------------------------------
EV_DECK = 0  # card at deck position `extra` (0 = top), before the first draw
EV_DRAW = 1  # seat draws card; extra = draw number (wild cards included)
EV_FACE_OFF = 2  # seat (winner) takes card from other (loser); extra = 1 if through the wild
EV_TIEBREAK = 3  # the face-off tied; seat won the tiebreak; card goes back at extra (-1: none)
EV_CASCADE = 4  # a chain of extra >= 2 face-offs after seat's draw ended
EV_MATCHES = 5  # two matches at once (seat/other and card/extra): the game stops
EV_TABLE = 6  # scripted opening table: card starts on seat's play pile
TRACE_WIDTH = 5

# --- per-game row: turns, unfinished, metrics, then seat blocks win, score, won --------------
COL_TURNS = 0
COL_UNFINISHED = 1
COL_FACE_OFFS = 2
COL_CASCADES = 3
COL_LONGEST = 4
COL_WILD_FACE_OFFS = 5
COL_TIES = 6
FIRST_SEAT_COL = 7


@njit(cache=True)
def U(i):
    """An index as unsigned: numba skips the negative-index fix-up (all our indices are >= 0)."""
    return np.uint64(i)


@njit(cache=True)
def threshold(p):
    """The integer form of ``uniform(rng) < p``: ``u53(rng) < ceil(p * 2**53)``, exactly.

    ``uniform`` returns ``k * 2**-53`` with ``k = next_u64 >> 11``; scaling by a power of two
    is exact, so ``k * 2**-53 < p`` iff ``k < p * 2**53`` iff ``k < ceil(p * 2**53)``.
    """
    return np.int64(np.ceil(p * 9007199254740992.0))


@njit(cache=True)
def u53(rng):
    """The 53 random bits behind ``rng.uniform`` (the same draw, as an integer)."""
    return np.int64(next_u64(rng) >> np.uint64(11))


@njit(cache=True)
def new_state(players, params):
    """The state array of one thread's block of games, its static tables filled from ``params``."""
    n_ids = np.int64(params[P_N_IDS])
    n = np.int64(params[P_N_PLAY])
    st = np.zeros(CODES + n_ids + 2 * n + players * max(n, 1), np.int64)
    st[H_PLAYERS] = players
    st[H_N] = n
    st[H_IDS] = n_ids
    st[H_FACE_UP] = 1 if params[P_FACE_UP] != 0.0 else 0
    st[H_TIE_THRESHOLD] = threshold(params[P_TIE_PROB])
    for k in range(MAX_PLAYERS * MAX_PLAYERS):
        st[THRESHOLD + k] = threshold(params[P_PWIN + k])
    for m in range(1, 1 << MAX_PLAYERS):
        low = 0
        while not (m >> low) & 1:
            low += 1
        st[LOWEST + m] = low
    for k in range(n_ids):
        st[CODES + k] = np.int64(params[P_CODES + k])
    for k in range(n):
        st[CODES + n_ids + k] = np.int64(params[P_CODES + n_ids + k])
    return st


@njit("void(int64[:, ::1], int64, int64, int64, int64, int64)", cache=True)
def record(trace, kind, seat, card, other, extra):
    """Append an event; events beyond the buffer are counted (``trace[0, 0]``) but not kept.

    (An explicit signature: one compiled version, not one per literal event kind.)"""
    k = trace[0, 0] + 1
    if k < trace.shape[0]:
        trace[k, 0] = kind
        trace[k, 1] = seat
        trace[k, 2] = card
        trace[k, 3] = other
        trace[k, 4] = extra
    trace[0, 0] = k


@njit(cache=True)
def tiebreak(st, fo_rng, scripted, script_tie, index, winner, loser, drawn, o_deck, tracing, trace):
    """The rulebook tiebreak's effect on the draw pile; returns an ``ERR_*`` code.

    The tiebreak card is the first category card from the top of the draw pile (``drawn`` cards
    are gone); it goes back at a uniform position among the ``n + 1`` (scripted: the given
    one). No category card: no card is used and nothing moves. A bad scripted position is
    recorded in the ``H_ERR_*`` slots (``H_ERR_C``: the largest position allowed, -1: none).
    """
    n = st[H_N]
    t = drawn
    while t < n and st[CODES + st[o_deck + t]] >= WILD_BASE:
        t += 1
    if t == n:
        if scripted and script_tie != TIE_NO_CARD:
            st[H_ERR_INDEX] = index
            st[H_ERR_A] = winner
            st[H_ERR_B] = loser
            st[H_ERR_C] = -1
            return ERR_BAD_TIEBREAK
        if tracing:
            record(trace, EV_TIEBREAK, winner, -1, loser, -1)
        return ERR_NONE
    left = n - drawn - 1  # draw pile size once the tiebreak card is out
    if scripted:
        pos = script_tie
        if pos < 0 or pos > left:
            st[H_ERR_INDEX] = index
            st[H_ERR_A] = winner
            st[H_ERR_B] = loser
            st[H_ERR_C] = left
            return ERR_BAD_TIEBREAK
    else:
        pos = np.int64(uniform(fo_rng) * (left + 1))
        if pos > left:
            pos = left
    card = st[o_deck + t]
    target = drawn + pos
    if target < t:
        for k in range(t, target, -1):
            st[o_deck + k] = st[o_deck + k - 1]
    else:
        for k in range(t, target):
            st[o_deck + k] = st[o_deck + k + 1]
    st[o_deck + target] = card
    if tracing:
        record(trace, EV_TIEBREAK, winner, card, loser, pos)
    return ERR_NONE


@njit(cache=True)
def count_bits(m):
    """Seats in a bitset."""
    count = 0
    while m:
        m &= m - 1
        count += 1
    return count


@njit(cache=True)
def pile_entry(card, symbol, drawer):
    """A play pile entry: the card, the symbol it shows and the seat that drew it."""
    return (card << ENTRY_CARD_SHIFT) | (symbol << SEAT_BITS) | drawer


@njit(cache=True)
def play_game(st, deck_rng, fo_rng, script_winners, script_ties, table_seats, trace):
    """Play one whole game on ``st``; return an ``ERR_*`` code.

    A run (``H_SCRIPTED`` 0) shuffles the cards in play from ``deck_rng`` and draws the face-offs
    from ``fo_rng``; scripted play (``H_SCRIPTED`` 1: the deck region already holds the explicit
    order, top first) reads face-off winners and ties from ``script_winners``/``script_ties``.
    (A flag in the state, not an argument: one compiled version serves both.) ``table_seats``
    (scripted positions; empty in a run): the first ``k`` cards of the deck start face up on the
    play pile of seat ``table_seats[k]``, as drawn by it, and drawing starts after them with
    seat 0. Errors leave their details in the ``H_ERR_*`` slots.
    ``trace``: an event buffer (row 0 counts the events), or an empty one when not tracing.

    Matches are found through ``SHOWING`` (per symbol, the seats whose top shows it): after a
    change, ``match_a`` holds the seats matching the changed seat ``seat_a`` (a face-off's
    loser, or the drawer), ``match_b`` those matching ``seat_b`` (a face-up winner) other than
    ``seat_a``; together they are every match the change made. One loop: resolve a match as a
    face-off, or, when there is none, close the chain and draw. Counters live in locals.
    """
    players = st[U(H_PLAYERS)]
    n = st[U(H_N)]
    o_template = CODES + st[U(H_IDS)]
    o_deck = o_template + n
    o_piles = o_deck + n
    cap = max(n, 1)
    face_up = st[U(H_FACE_UP)] != 0
    tie_threshold = st[U(H_TIE_THRESHOLD)]
    scripted = st[U(H_SCRIPTED)] != 0
    tracing = trace.shape[0] > 0
    for k in range(H_GAME_FIRST, H_GAME_END):  # a fresh table
        st[U(k)] = 0
    st[U(H_WILD_X)] = -1
    st[U(H_WILD_Y)] = -1
    for k in range(MAX_PLAYERS):
        st[U(TOP + k)] = NO_CARD
        st[U(PILE_N + k)] = 0
        st[U(SCORE + k)] = 0
        st[U(WON + k)] = 0
    for k in range(N_SLOTS):
        st[U(PARTNER + k)] = NO_WILD
        st[U(SHOWING + k)] = 0
    if not scripted:
        for k in range(n):
            st[U(o_deck + k)] = st[U(o_template + k)]
        for k in range(n - 1):  # the draws of rng.shuffle
            j = o_deck + k + bounded(deck_rng, n - k)
            card = st[U(j)]
            st[U(j)] = st[U(o_deck + k)]
            st[U(o_deck + k)] = card
    drawn = table_seats.shape[0]  # deck position of the next draw
    first = drawn
    if tracing:
        for k in range(drawn):
            record(trace, EV_TABLE, table_seats[k], st[U(o_deck + k)], -1, k)
        for k in range(drawn, n):
            record(trace, EV_DECK, -1, st[U(o_deck + k)], -1, k - drawn)
    face_offs = 0
    cascades = 0
    longest = 0
    wild_face_offs = 0
    ties = 0
    err = ERR_NONE
    err_a = -1
    err_b = -1
    err_c = -1
    seat = 0
    chain_seat = -1  # the seat whose draw started the current chain
    chain = 0
    seat_a = 0
    seat_b = 0
    match_a = 0
    match_b = 0
    if drawn > 0:  # an opening table: its cards are on the piles, some pair may match
        for k in range(drawn):
            holder = table_seats[k]
            card = st[U(o_deck + k)]
            size = st[U(PILE_N + holder)]
            st[U(o_piles + holder * cap + size)] = pile_entry(card, st[U(CODES + card)], holder)
            st[U(PILE_N + holder)] = size + 1
            st[U(SHOWING + st[U(TOP + holder)])] &= ~(1 << holder)
            st[U(TOP + holder)] = st[U(CODES + card)]
            st[U(SHOWING + st[U(CODES + card)])] |= 1 << holder
    scan_all = drawn > 0
    while True:
        if scan_all:  # after a new wild or on an opening table: every match on the table
            scan_all = False
            count = 0
            a = -1
            b = -1
            for x in range(N_SYMBOLS):  # pairs showing one symbol (none at rest)
                showing = st[U(SHOWING + x)]
                k = count_bits(showing)
                if k >= 2:
                    count += k * (k - 1) // 2
                    a = st[U(LOWEST + showing)]
                    b = st[U(LOWEST + (showing & (showing - 1)))]
            if st[U(H_WILD_X)] >= 0:  # pairs showing the wild's two symbols
                with_x = st[U(SHOWING + st[U(H_WILD_X)])]
                with_y = st[U(SHOWING + st[U(H_WILD_Y)])]
                if with_x != 0 and with_y != 0:
                    count += count_bits(with_x) * count_bits(with_y)
                    a = st[U(LOWEST + with_x)]
                    b = st[U(LOWEST + with_y)]
            if count > 1:
                if tracing:
                    record(trace, EV_MATCHES, a, -1, b, count)
                err, err_a, err_b, err_c = ERR_TWO_MATCHES, a, b, count
                break
            seat_a = a
            match_a = (1 << b) if count == 1 else 0
            match_b = 0
        if match_a != 0 or match_b != 0:
            if (
                (match_a & (match_a - 1)) != 0
                or (match_b & (match_b - 1)) != 0
                or (match_a != 0 and match_b != 0)
            ):
                count = count_bits(match_a) + count_bits(match_b)
                if tracing:
                    record(trace, EV_MATCHES, seat_a, -1, seat_b, count)
                err, err_a, err_b, err_c = ERR_TWO_MATCHES, seat_a, seat_b, count
                break
            if match_a != 0:
                a = seat_a
                b = st[U(LOWEST + match_a)]
            else:
                a = seat_b
                b = st[U(LOWEST + match_b)]
            # a face-off between a and b: the winner takes the loser's top card
            lo = min(a, b)
            hi = max(a, b)
            tie = False
            script_tie = NO_TIE
            if scripted:
                if face_offs >= script_winners.shape[0]:
                    err, err_a, err_b, err_c = ERR_TOO_FEW_WINNERS, lo, hi, 0
                    break
                winner = script_winners[face_offs]
                if winner != lo and winner != hi:
                    err, err_a, err_b, err_c = ERR_BAD_WINNER, lo, hi, winner
                    break
                script_tie = script_ties[face_offs]
                tie = script_tie != NO_TIE
            else:
                if tie_threshold > 0:
                    tie = u53(fo_rng) < tie_threshold
                winner = lo if u53(fo_rng) < st[U(THRESHOLD + lo * MAX_PLAYERS + hi)] else hi
            loser = lo + hi - winner
            if tie:
                ties += 1
                err = tiebreak(
                    st, fo_rng, scripted, script_tie, face_offs, winner, loser, drawn, o_deck, tracing, trace
                )
                if err != ERR_NONE:
                    break
            wild = 1 if st[U(TOP + lo)] != st[U(TOP + hi)] else 0
            wild_face_offs += wild
            # the loser's next card shows (or its pile is empty)
            base = o_piles + loser * cap
            left = st[U(PILE_N + loser)] - 1
            entry = st[U(base + left)]
            st[U(PILE_N + loser)] = left
            loser_bit = 1 << loser
            st[U(SHOWING + st[U(TOP + loser)])] &= ~loser_bit
            shown = (st[U(base + left - 1)] >> SEAT_BITS) & SYMBOL_MASK if left > 0 else NO_CARD
            st[U(TOP + loser)] = shown
            if face_up:  # the won card goes on top of the winner's pile
                size = st[U(PILE_N + winner)]
                st[U(o_piles + winner * cap + size)] = entry
                st[U(PILE_N + winner)] = size + 1
                taken = (entry >> SEAT_BITS) & SYMBOL_MASK
                winner_bit = 1 << winner
                st[U(SHOWING + st[U(TOP + winner)])] &= ~winner_bit
                st[U(TOP + winner)] = taken
                st[U(SHOWING + taken)] |= winner_bit
                drawer = entry & SEAT_MASK
                if drawer != winner:
                    st[U(SCORE + winner)] += 1
                if drawer != loser:
                    st[U(SCORE + loser)] -= 1
                seat_b = winner
                match_b = (st[U(SHOWING + taken)] | st[U(SHOWING + st[U(PARTNER + taken)])]) & ~(
                    winner_bit | loser_bit
                )
            else:
                st[U(SCORE + winner)] += 1
            # a cascade: the loser's new top may match anyone
            seat_a = loser
            if shown != NO_CARD:
                st[U(SHOWING + shown)] |= loser_bit
                match_a = (st[U(SHOWING + shown)] | st[U(SHOWING + st[U(PARTNER + shown)])]) & ~loser_bit
            else:
                match_a = 0
            st[U(WON + winner)] += 1
            face_offs += 1
            if tracing:
                record(trace, EV_FACE_OFF, winner, entry >> ENTRY_CARD_SHIFT, loser, wild)
            chain += 1
            continue
        # no match: the chain (if any) is over
        if chain > 0:
            if chain >= 2:
                cascades += 1
                if tracing:
                    record(trace, EV_CASCADE, chain_seat, -1, -1, chain)
            longest = max(longest, chain)
            chain = 0
        if drawn == n:
            break
        card = st[U(o_deck + drawn)]
        if tracing:
            record(trace, EV_DRAW, seat, card, -1, drawn - first)
        drawn += 1
        chain_seat = seat
        code = st[U(CODES + card)]
        if code >= WILD_BASE:
            # the wild replaces the active one; the same seat draws again
            if st[U(H_WILD_X)] >= 0:
                st[U(PARTNER + st[U(H_WILD_X)])] = NO_WILD
                st[U(PARTNER + st[U(H_WILD_Y)])] = NO_WILD
            x = (code - WILD_BASE) // N_SYMBOLS
            y = (code - WILD_BASE) % N_SYMBOLS
            st[U(H_WILD_X)] = x
            st[U(H_WILD_Y)] = y
            st[U(PARTNER + x)] = y
            st[U(PARTNER + y)] = x
            scan_all = True
        else:
            size = st[U(PILE_N + seat)]
            st[U(o_piles + seat * cap + size)] = pile_entry(card, code, seat)
            st[U(PILE_N + seat)] = size + 1
            bit = 1 << seat
            st[U(SHOWING + st[U(TOP + seat)])] &= ~bit
            st[U(TOP + seat)] = code
            st[U(SHOWING + code)] |= bit
            seat_a = seat
            match_a = (st[U(SHOWING + code)] | st[U(SHOWING + st[U(PARTNER + code)])]) & ~bit
            seat += 1
            if seat == players:
                seat = 0
        match_b = 0
    st[U(H_DRAWN)] = drawn - first  # draws (the opening table's cards were not drawn)
    st[U(H_FACE_OFFS)] = face_offs
    st[U(H_CASCADES)] = cascades
    st[U(H_LONGEST)] = longest
    st[U(H_WILD_FACE_OFFS)] = wild_face_offs
    st[U(H_TIES)] = ties
    if err == ERR_NONE and scripted and face_offs != script_winners.shape[0]:
        err, err_a, err_b, err_c = ERR_TOO_MANY_WINNERS, -1, -1, script_winners.shape[0]
    if err != ERR_NONE and err != ERR_BAD_TIEBREAK:  # (tiebreak records its own)
        st[U(H_ERR_INDEX)] = face_offs
        st[U(H_ERR_A)] = err_a
        st[U(H_ERR_B)] = err_b
        st[U(H_ERR_C)] = err_c
    return err


@njit(cache=True)
def write_row(st, err, rows, g):
    """Outputs of a finished game into ``rows[g]``: most cards won wins, ties share."""
    players = st[H_PLAYERS]
    rows[g, COL_TURNS] = st[H_DRAWN]
    rows[g, COL_UNFINISHED] = 1 if err != ERR_NONE else 0
    rows[g, COL_FACE_OFFS] = st[H_FACE_OFFS]
    rows[g, COL_CASCADES] = st[H_CASCADES]
    rows[g, COL_LONGEST] = st[H_LONGEST]
    rows[g, COL_WILD_FACE_OFFS] = st[H_WILD_FACE_OFFS]
    rows[g, COL_TIES] = st[H_TIES]
    best = st[SCORE]
    for s in range(1, players):
        best = max(best, st[SCORE + s])
    tied = 0
    for s in range(players):
        if st[SCORE + s] == best:
            tied += 1
    for s in range(players):
        win = WIN_UNIT // tied if st[SCORE + s] == best and err == ERR_NONE else 0
        rows[g, FIRST_SEAT_COL + s] = win
        rows[g, FIRST_SEAT_COL + players + s] = st[SCORE + s]
        rows[g, FIRST_SEAT_COL + 2 * players + s] = st[WON + s]


@njit(cache=True)
def play_one(seed, index, st, deck_rng, fo_rng, no_script, trace, rows, g):
    """Game ``index`` of the run with ``seed``, from its own streams, into ``rows[g]``."""
    seed_stream(deck_rng, seed, index, DECK_STREAM)
    seed_stream(fo_rng, seed, index, FACE_OFF_STREAM)
    err = play_game(st, deck_rng, fo_rng, no_script, no_script, no_script, trace)
    write_row(st, err, rows, g)


@njit(cache=True)
def play_block(seed, start, players, params, rows):
    """Play every game of ``rows`` in order on working arrays allocated once.

    The games run on borrowed views (``engine.borrow``) of the block's arrays, kept alive by
    ``keep_alive`` after the loop: no reference counting in the per-game calls.
    """
    st_owned = new_state(players, params)
    deck_owned = np.zeros(4, np.uint64)
    fo_owned = np.zeros(4, np.uint64)
    empty_owned = np.zeros(1, np.int64)
    no_trace_owned = np.zeros((0, TRACE_WIDTH), np.int64)
    st = borrow(st_owned)
    deck_rng = borrow(deck_owned)
    fo_rng = borrow(fo_owned)
    no_script = borrow(empty_owned)[:0]
    no_trace = borrow(no_trace_owned)
    game_rows = borrow(rows)
    for g in range(rows.shape[0]):
        play_one(seed, start + g, st, deck_rng, fo_rng, no_script, no_trace, game_rows, g)
    keep_alive(st_owned)
    keep_alive(deck_owned)
    keep_alive(fo_owned)
    keep_alive(empty_owned)
    keep_alive(no_trace_owned)
    keep_alive(rows)


@njit(cache=True, parallel=True)
def run_chunk(seed, start, players, params, strategies, rows):
    """Play games ``start .. start + len(rows) - 1`` of the run into ``rows`` (one per game).

    ``strategies`` is accepted for the contract; Anomia's only strategy is ``default``.
    """
    n = rows.shape[0]
    blocks = block_count(n)
    for b in prange(blocks):
        lo = block_start(n, blocks, b)
        hi = block_start(n, blocks, b + 1)
        play_block(seed, start + lo, players, params, rows[lo:hi])


@njit(cache=True)
def trace_one(seed, index, players, params, rows, trace):
    """The same game as ``play_one`` in a run (same streams), recording events into ``trace``
    and its row into ``rows[0]``. The arrays are borrowed as in a run, so that the very same
    compiled game serves runs, traces and scripted play."""
    st = new_state(players, params)
    deck_rng = np.zeros(4, np.uint64)
    fo_rng = np.zeros(4, np.uint64)
    empty = np.zeros(1, np.int64)
    play_one(
        seed,
        index,
        borrow(st),
        borrow(deck_rng),
        borrow(fo_rng),
        borrow(empty)[:0],
        borrow(trace),
        borrow(rows),
        rows.shape[0] - 1,
    )
    keep_alive(st)
    keep_alive(deck_rng)
    keep_alive(fo_rng)
    keep_alive(empty)
    keep_alive(trace)
    keep_alive(rows)
    return st


@njit(cache=True)
def play_deck(deck, players, params, winners, ties, table_seats, rows, trace):
    """Scripted game: explicit deck order (top first), face-off winners and ties.

    ``table_seats``: the first cards of ``deck`` start on those seats' play piles (see
    ``play_game``; empty for a game from the start). Returns ``(err, state)``; the state holds
    the error's details and the final play piles; the row goes into ``rows[0]``.
    """
    st = new_state(players, params)
    st[H_SCRIPTED] = 1
    o_deck = CODES + st[H_IDS] + st[H_N]
    for k in range(deck.shape[0]):
        st[o_deck + k] = deck[k]
    rng = np.zeros(4, np.uint64)
    err = play_game(
        borrow(st),
        borrow(rng),
        borrow(rng),
        borrow(winners),
        borrow(ties),
        borrow(table_seats),
        borrow(trace),
    )
    write_row(borrow(st), err, borrow(rows), rows.shape[0] - 1)
    keep_alive(st)
    keep_alive(rng)
    keep_alive(winners)
    keep_alive(ties)
    keep_alive(table_seats)
    keep_alive(trace)
    keep_alive(rows)
    return err, st

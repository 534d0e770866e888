"""Anomia's kernel (docs/rules/anomia.md): glue around the rules (``rules.py``) and the skill
model (``strategies.py``): one game, a block of games, the chunk, the trace, the scripted game.

Game ``i`` of a run with seed ``s`` uses two streams of ``montecards.rng``: substream
``DECK_STREAM`` shuffles the cards in play (``rules.shuffle_deck``), substream
``FACE_OFF_STREAM`` feeds the face-offs (``strategies.py`` says what each one draws). Keeping
the deck apart from the face-offs means the same seed deals the same deck whatever the skills
and rule variants (common random numbers).

Scripted play (``play_script``) takes the deck order, the face-off winners and the ties
instead of the streams; it is the same compiled game (a flag in the state, ``H_SCRIPTED``, not
an argument), so runs, traces and scripted play share one kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.borrow import borrow, borrow_all, keep_alive
from montecards.engine.jit import hot, hot_inline
from montecards.engine.options import dealt, later_stream, rotation
from montecards.engine.rows import SCORE_BLOCK, seat_column, share_win
from montecards.engine.trace import tracing
from montecards.games.anomia.cards import MAX_PLAYERS
from montecards.games.anomia.rules import (
    ERR_BAD_TIEBREAK,
    ERR_BAD_WINNER,
    ERR_NONE,
    ERR_TOO_FEW_WINNERS,
    ERR_TOO_MANY_WINNERS,
    ERR_TWO_MATCHES,
    EV_CASCADE,
    EV_DECK,
    EV_DRAW,
    EV_FACE_OFF,
    EV_MATCHES,
    EV_TABLE,
    EV_TIEBREAK,
    H_CASCADES,
    H_FACE_OFFS,
    H_LONGEST,
    H_TIES,
    H_WILD_FACE_OFFS,
    activate_wild,
    add_to,
    cards_in_play,
    clear_table,
    code_of,
    count,
    count_bits,
    deck_card,
    draw_card,
    draw_pile_empty,
    draws,
    end_chain,
    entry_card,
    face_offs_won,
    face_up,
    fail,
    is_wild,
    lay_opening_table,
    lowest_seat,
    matches_of,
    next_position,
    pile_entry,
    players_of,
    put_back_tiebreak_card,
    put_on_pile,
    record,
    resolve_face_off,
    score,
    scripted,
    set_deck_card,
    set_scripted,
    shuffle_deck,
    table_matches,
    tiebreak_card,
    tiebreak_room,
)
from montecards.games.anomia.rules import new_state as new_rules_state
from montecards.games.anomia.value import ledger_after_event, ledger_before_draw, ledger_before_face_off
from montecards.games.anomia.strategies import face_off_winner, set_skills, tiebreak_position, ties
from montecards.rng import seed_stream

DECK_STREAM = 0
FACE_OFF_STREAM = 1

# --- the packed float64 parameter vector (built by game.pack_params) ------------------------
P_TIE_PROB = 0
P_FACE_UP = 1
P_N_PLAY = 2  # cards in play
P_N_IDS = 3  # every card id of the composition, removed ones included
P_PWIN = 4  # MAX_PLAYERS x MAX_PLAYERS: p[a, b] = P(a beats b)
P_CODES = P_PWIN + MAX_PLAYERS * MAX_PLAYERS  # code of each id, then the ids in play

# --- scripted ties (play_script): one entry per face-off -------------------------------------
NO_TIE = -1
TIE_NO_CARD = -2  # a tie decided without a card (no category card in the draw pile)

# --- per-game row: turns, unfinished, metrics, then seat blocks win, score, won --------------
COL_TURNS = 0
COL_UNFINISHED = 1
COL_FACE_OFFS = 2
COL_CASCADES = 3
COL_LONGEST = 4
COL_WILD_FACE_OFFS = 5
COL_TIES = 6
FIRST_SEAT_COL = 7
WON_BLOCK = SCORE_BLOCK + 1  # the seat output after win and score (``SPEC.seat_outputs``)

@njit(cache=True)
def new_state(players, params):
    """The state of one thread's block of games, its static tables filled from ``params``."""
    n_ids = np.int64(params[P_N_IDS])
    n = np.int64(params[P_N_PLAY])
    first_id = P_CODES
    first_in_play = P_CODES + n_ids
    g = new_rules_state(
        players,
        n_ids,
        n,
        params[P_FACE_UP] != 0.0,
        params[first_id : first_id + n_ids],
        params[first_in_play : first_in_play + n],
    )
    set_skills(g, params[P_TIE_PROB], params[P_PWIN : P_PWIN + MAX_PLAYERS * MAX_PLAYERS])
    return g


@hot_inline
def face_off_outcome(g, lo, hi, face_off_rng, is_scripted, script_winners, script_ties):
    """``(err, winner, tie, script_tie)`` of the face-off between seats ``lo < hi``: from the
    skill model in a run, from the script in scripted play (``is_scripted``)."""
    if is_scripted:
        k = count(g, H_FACE_OFFS)
        if k >= script_winners.shape[0]:
            return fail(g, ERR_TOO_FEW_WINNERS, lo, hi, 0), lo, False, NO_TIE
        winner = script_winners[k]
        if winner != lo and winner != hi:
            return fail(g, ERR_BAD_WINNER, lo, hi, winner), lo, False, NO_TIE
        script_tie = script_ties[k]
        return ERR_NONE, winner, script_tie != NO_TIE, script_tie
    tie = ties(g, face_off_rng)
    return ERR_NONE, face_off_winner(g, lo, hi, face_off_rng), tie, NO_TIE


@hot
def tiebreak(g, face_off_rng, script_tie, winner, loser, trace):
    """The rulebook tiebreak's effect on the draw pile; returns an ``ERR_*`` code.

    The tiebreak card goes back at a uniform position (scripted: the given one). Without a
    category card in the draw pile nothing moves; a scripted position is then an error.
    """
    t = tiebreak_card(g)
    if t == cards_in_play(g):
        if scripted(g) and script_tie != TIE_NO_CARD:
            return fail(g, ERR_BAD_TIEBREAK, winner, loser, -1)
        if tracing(trace):
            record(trace, EV_TIEBREAK, winner, -1, loser, -1)
        return ERR_NONE
    room = tiebreak_room(g)
    if scripted(g):
        pos = script_tie
        if pos < 0 or pos > room:
            return fail(g, ERR_BAD_TIEBREAK, winner, loser, room)
    else:
        pos = tiebreak_position(face_off_rng, room)
    card = put_back_tiebreak_card(g, t, pos)
    if tracing(trace):
        record(trace, EV_TIEBREAK, winner, card, loser, pos)
    return ERR_NONE


@hot
def record_deck(g, table_seats, trace):
    """Trace events of the opening table and the shuffled deck, top first."""
    start = table_seats.shape[0]
    for k in range(start):
        record(trace, EV_TABLE, table_seats[k], deck_card(g, k), -1, k)
    for k in range(start, cards_in_play(g)):
        record(trace, EV_DECK, -1, deck_card(g, k), -1, k - start)


@hot_inline
def more_than_one(match_a, match_b):
    """True if the two bitsets of new matches hold two matches or more."""
    return (match_a & (match_a - 1)) != 0 or (match_b & (match_b - 1)) != 0 or (match_a != 0 and match_b != 0)


@hot
def play_game(g, deck_rng, face_off_rng, script_winners, script_ties, table_seats, trace, deal_option=None,
              ledger=None):
    """Play one whole game on ``g``; return an ``ERR_*`` code (details in ``H_ERR_*``).

    A run shuffles the deck from ``deck_rng`` and draws the face-offs from ``face_off_rng``;
    scripted play (``H_SCRIPTED``: the deck already holds the explicit order, top first) reads
    the face-off winners and ties from ``script_winners``/``script_ties``. ``table_seats``
    (scripted; empty in a run): deck card ``k`` starts on seat ``table_seats[k]``'s play pile.
    ``trace``: an event buffer (row 0 counts the events), or None when not tracing (runs: the
    recording compiled out; a decision log's empty buffer records nothing either).

    One loop: resolve a match as a face-off, or, when there is none, end the chain and draw.
    After a change, ``match_a`` holds the seats matching seat ``seat_a`` (a face-off's loser,
    or the drawer), ``match_b`` those matching ``seat_b`` (a face-up winner) other than
    ``seat_a``: together every match the change made (``rules``: at most one).

    ``deal_option``: the game's deal option (``engine.options.game_deal``), or None (ordinary
    runs: compiled out). Anomia has no decisions; its deal is the order of the whole deck,
    shuffled before the first draw (rules: Setup). The players' part is the face-offs: with
    the option they and their tie-breaks come from the replay's streams, and the rotation
    moves every draw to the seat ``r`` places on (seat ``r`` draws first, with the same deck).

    ``ledger``: the luck ledger (``value.py``: hooks before and after every draw and face-off),
    or None (every run but ``luck.py``'s: compiled out).
    """
    traced = tracing(trace)
    clear_table(g)
    if not scripted(g):
        shuffle_deck(g, deck_rng)
    if traced:
        record_deck(g, table_seats, trace)
    lay_opening_table(g, table_seats)
    players = players_of(g)
    is_scripted = scripted(g)
    winnings_face_up = face_up(g)
    seat = 0
    if deal_option is not None:
        seat = rotation(deal_option)
        later_stream(deal_option, deck_rng, DECK_STREAM)
        later_stream(deal_option, face_off_rng, FACE_OFF_STREAM)
    chain_seat = -1  # the seat whose draw started the current chain
    chain = 0
    seat_a = 0
    seat_b = 0
    match_a = 0
    match_b = 0
    scan_table = table_seats.shape[0] > 0  # an opening table: some pair may match
    while True:
        if scan_table:  # after a new wild or on an opening table: every match on the table
            scan_table = False
            matches, a, b = table_matches(g)
            if matches > 1:
                if traced:
                    record(trace, EV_MATCHES, a, -1, b, matches)
                return fail(g, ERR_TWO_MATCHES, a, b, matches)
            seat_a = a
            match_a = (1 << b) if matches == 1 else 0
            match_b = 0
        if match_a != 0 or match_b != 0:  # a face-off
            if more_than_one(match_a, match_b):
                matches = count_bits(match_a) + count_bits(match_b)
                if traced:
                    record(trace, EV_MATCHES, seat_a, -1, seat_b, matches)
                return fail(g, ERR_TWO_MATCHES, seat_a, seat_b, matches)
            if match_a != 0:
                a = seat_a
                b = lowest_seat(g, match_a)
            else:
                a = seat_b
                b = lowest_seat(g, match_b)
            lo = min(a, b)
            hi = max(a, b)
            if ledger is not None:
                ledger_before_face_off(g, lo, hi, ledger)
            err, winner, tie, script_tie = face_off_outcome(
                g, lo, hi, face_off_rng, is_scripted, script_winners, script_ties
            )
            if err != ERR_NONE:
                return err
            loser = lo + hi - winner
            if tie:
                add_to(g, H_TIES, 1)
                err = tiebreak(g, face_off_rng, script_tie, winner, loser, trace)
                if err != ERR_NONE:
                    return err
            entry, wild = resolve_face_off(g, winner, loser, winnings_face_up)
            if ledger is not None:
                ledger_after_event(g, ledger)
            if winnings_face_up:  # the won card on top of the winner's pile may match
                seat_b = winner
                match_b = matches_of(g, winner) & ~(1 << loser)
            seat_a = loser  # the cascade: the loser's next card may match anyone
            match_a = matches_of(g, loser)
            if traced:
                record(trace, EV_FACE_OFF, winner, entry_card(entry), loser, wild)
            chain += 1
            continue
        if chain > 0:  # no match: the chain is over
            if end_chain(g, chain) and traced:
                record(trace, EV_CASCADE, chain_seat, -1, -1, chain)
            chain = 0
        if draw_pile_empty(g):
            break
        if traced:
            record(trace, EV_DRAW, seat, deck_card(g, next_position(g)), -1, draws(g))
        if ledger is not None:
            ledger_before_draw(g, seat, ledger)
        card = draw_card(g)
        chain_seat = seat
        code = code_of(g, card)
        if is_wild(code):  # the wild replaces the active one; the same seat draws again
            activate_wild(g, code)
            scan_table = True
        else:
            put_on_pile(g, seat, pile_entry(card, code, seat))
            seat_a = seat
            match_a = matches_of(g, seat)
            seat += 1
            if seat == players:
                seat = 0
        if ledger is not None:
            ledger_after_event(g, ledger)
        match_b = 0
    if is_scripted and count(g, H_FACE_OFFS) != script_winners.shape[0]:
        return fail(g, ERR_TOO_MANY_WINNERS, -1, -1, script_winners.shape[0])
    return ERR_NONE


@hot
def write_row(g, players, err, row):
    """Outputs of a finished game into ``row``: the most cards won wins, ties share
    (``engine.rows.share_win``, in place: the key, lowest best, is minus the cards won); a game
    stopped by an error (``err``, ``play_game``'s result) has no winner."""
    row[COL_TURNS] = draws(g)
    row[COL_UNFINISHED] = 1 if err != ERR_NONE else 0
    row[COL_FACE_OFFS] = count(g, H_FACE_OFFS)
    row[COL_CASCADES] = count(g, H_CASCADES)
    row[COL_LONGEST] = count(g, H_LONGEST)
    row[COL_WILD_FACE_OFFS] = count(g, H_WILD_FACE_OFFS)
    row[COL_TIES] = count(g, H_TIES)
    wins = row[FIRST_SEAT_COL : FIRST_SEAT_COL + players]
    for s in range(players):
        wins[s] = -score(g, s)
        row[seat_column(FIRST_SEAT_COL, players, SCORE_BLOCK, s)] = score(g, s)
        row[seat_column(FIRST_SEAT_COL, players, WON_BLOCK, s)] = face_offs_won(g, s)
    share_win(wins, players, err == ERR_NONE, wins)


@njit(cache=True)
def play_one(seed, index, g, deck_rng, face_off_rng, no_script, trace, rows, r, deal_option=None):
    """Game ``index`` of the run with ``seed``, from its own streams, into ``rows[r]``
    (``deal_option``: the game's deal option, ``play_game``, or None)."""
    seed_stream(deck_rng, seed, index, DECK_STREAM)
    seed_stream(face_off_rng, seed, index, FACE_OFF_STREAM)
    err = play_game(g, deck_rng, face_off_rng, no_script, no_script, no_script, trace, deal_option)
    write_row(g, players_of(g), err, rows[r])


@njit(cache=True, inline="always")
def new_work(players, params):
    """``(owned, work)``: a game state, the deck and face-off streams and an empty script
    (``owned``), and ``work``, borrowed views of them (``engine.borrow``: no reference counting
    in the per-game calls; the caller keeps ``owned`` alive after its last use of ``work``)."""
    owned = (new_state(players, params), np.zeros(4, np.uint64), np.zeros(4, np.uint64), np.zeros(1, np.int64))
    g, deck_rng, face_off_rng, empty = borrow_all(owned)
    return owned, (g, deck_rng, face_off_rng, empty[:0])


@njit(cache=True, nogil=True)
def play_block(seed, start, players, params, strategies, rows, options, fns, user, block, deal=None):
    """Play every game of ``rows`` in order on working arrays allocated once (``new_work``).

    The chunk glue's arguments (``engine/CONTRACT.md``) are accepted as in every game:
    ``strategies`` (Anomia's only strategy is ``default``), ``options`` (None: Anomia has no
    optional compiled parts), and ``fns``/``user``/``block`` (always None and unused: Anomia
    has no player decisions, so no user strategy can play it). ``deal``: the deal option
    ``(replay, rotation)`` (``engine.options``), or left out (ordinary runs: compiled out).
    """
    owned, work = new_work(players, params)
    g, deck_rng, face_off_rng, no_script = work
    game_rows = borrow(rows)
    for k in range(rows.shape[0]):
        # play_one, written out: one compiled level less in runs (its own LLVM pass over the
        # whole game cost the cold first run)
        seed_stream(deck_rng, seed, start + k, DECK_STREAM)
        seed_stream(face_off_rng, seed, start + k, FACE_OFF_STREAM)
        err = play_game(g, deck_rng, face_off_rng, no_script, no_script, no_script, None,
                        dealt(deal, seed, start + k))
        write_row(g, players, err, game_rows[k])
    keep_alive(owned)
    keep_alive(rows)


@njit(cache=True)
def trace_one(seed, index, players, params, strategies, row, trace, log, user, options, deal=None):
    """The same game as ``play_one`` in a run (same streams), recording events into ``trace``
    and its row into ``row``. The arrays are borrowed as in a run, so that the very same
    compiled game serves runs, traces and scripted play. ``strategies``, ``log``, ``user`` and
    ``options``: every game's arguments (``engine/CONTRACT.md``), unused (Anomia has no
    decisions and no optional parts); ``deal`` as for ``play_block``."""
    rows = row.reshape(1, row.shape[0])
    owned, work = new_work(players, params)
    g, deck_rng, face_off_rng, no_script = work
    play_one(seed, index, g, deck_rng, face_off_rng, no_script, borrow(trace), borrow(rows), 0,
             dealt(deal, seed, index))
    keep_alive(owned)
    keep_alive(trace)
    keep_alive(rows)


@njit(cache=True)
def play_script(deck, players, params, winners, ties, table_seats, rows, trace):
    """Scripted game: explicit deck order (top first), face-off winners and ties.

    ``table_seats``: the first cards of ``deck`` start on those seats' play piles (see
    ``play_game``; empty for a game from the start). Returns ``(err, state)``; the state holds
    the error's details and the final play piles; the row goes into the last row of ``rows``.
    """
    g = new_state(players, params)
    set_scripted(g)
    for k in range(deck.shape[0]):
        set_deck_card(g, k, deck[k])
    owned = (g, np.zeros(4, np.uint64), winners, ties, table_seats, trace, rows)
    state, rng, script_winners, script_ties, seats, events, game_rows = borrow_all(owned)
    err = play_game(state, rng, rng, script_winners, script_ties, seats, events, None)  # a run's play_game
    write_row(state, players, err, game_rows[rows.shape[0] - 1])
    keep_alive(owned)
    return err, g

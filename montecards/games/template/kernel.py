"""High card's kernel: one game from its own random streams, a block of games, the trace and
the scripted game (the engine makes the chunk glue from ``play_block``: ``engine/CONTRACT.md``).
Glue only: the rules are in ``rules``, the choices in ``strategies`` and ``view``.

Game ``i`` of a run with seed ``s`` uses two streams: substream 0 shuffles the deck (lazily,
only the cards that are dealt), substream 1 feeds the built-in strategies' choices (a user
strategy has its own, ``engine.user_seats``). Keeping them apart means the same seed deals the same
cards whatever the strategies, so strategy comparisons run on common random numbers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.decisions import log_choice, log_slot
from montecards.engine.jit import hot, hot_inline
from montecards.engine.options import dealt, later_stream, rotation
from montecards.engine.rows import COL_TURNS, COL_UNFINISHED, SCORE_BLOCK, seat_column, share_win
from montecards.engine.user_seats import (
    USER,
    ask,
    end_block,
    legal_buffer,
    obs_buffer,
    open_seats,
    start_game,
    stopped,
    user_parts,
)
from montecards.games.template.rules import (
    DECK,
    STATE_SIZE,
    game_over,
    hand_card,
    hand_count,
    leader,
    leader_tricks,
    next_seat,
    play_card,
    points,
    rotate_hands,
    set_up,
    take_trick,
    tricks_led,
    turns,
)
from montecards.games.template.strategies import GREEDY, RANDOM, SCRIPTED, greedy_play
from montecards.games.template.view import (
    DECISION_PLAY,
    MAX_LEGAL,
    OBS_SIZE,
    legal_moves,
    move_card,
    observe,
    play_move,
)
from montecards.rng import bounded, seed_stream

DECK_STREAM = 0
CHOICE_STREAM = 1

# the float64 parameter vector (``game.pack_params``)
PARAM_DECK_SIZE = 0
PARAM_HAND_SIZE = 1

# per-game row: turns, unfinished, leader_tricks, then the seat blocks win, score, led
COL_LEADER_TRICKS = 2
FIRST_SEAT_COL = 3
LED_BLOCK = 2

ERR_NONE = 0
ERR_PLAY_NOT_IN_HAND = 1
ERR_TOO_FEW_PLAYS = 2
ERR_TOO_MANY_PLAYS = 3
ERR_USER = 4


@njit(cache=True)
def new_work():
    """A block's working arrays: (game state, deck stream, choice stream, empty script plays).
    Runs pass None for the trace (tracing off)."""
    return (
        np.zeros(STATE_SIZE, np.int64),
        np.zeros(4, np.uint64),
        np.zeros(4, np.uint64),
        np.zeros(0, np.int64),
    )


@hot
def find_in_hand(g, seat, card):
    """The hand index of ``card`` in the seat's hand, or -1."""
    for k in range(hand_count(g, seat)):
        if hand_card(g, seat, k) == card:
            return k
    return -1


@hot
def ask_user(g, seat, kind, seats):
    """The legal move (``view``) the seat's user strategy chooses at a ``kind`` decision, or
    -1 when it chose an index outside the legal moves (``engine.user_seats.ask``)."""
    observe(g, seat, kind, obs_buffer(seats))
    legal = legal_buffer(seats)
    k = ask(seats, seat, legal_moves(g, seat, kind, legal))
    return -1 if k < 0 else legal[k]


@hot_inline
def choose_play(g, seat, strategy, choice_rng, script_plays, seats):
    """Hand index of the card the seat plays (or -1 for an illegal scripted play, or a user
    strategy's index outside the legal moves).

    ``seats``: the user seats, or None in kernels compiled without them (runs of built-in
    strategies only).
    """
    if seats is not None and strategy == USER:
        move = ask_user(g, seat, DECISION_PLAY, seats)
        return -1 if move < 0 else find_in_hand(g, seat, move_card(move))
    if strategy == RANDOM:
        return bounded(choice_rng, hand_count(g, seat))
    if strategy == GREEDY:
        return greedy_play(g, seat)
    return find_in_hand(g, seat, script_plays[turns(g)])  # SCRIPTED


@hot
def log_decision(g, seat, kind, log):
    """Log the seat's observation and legal moves at a decision; return its log row (or -1
    once the log is full: it keeps counting, and ``decisions.read_log`` reports it)."""
    slot = log_slot(log)
    if slot >= 0:
        _, seats, obs, legal, n_legal, _ = log
        seats[slot] = seat
        observe(g, seat, kind, obs[slot])
        n_legal[slot] = legal_moves(g, seat, kind, legal[slot])
    return slot


@hot
def play_game(g, players, deck_size, hand_size, strategies, deck_rng, choice_rng, lazy, trace,
              script_plays, seats=None, log=None, deal=None):
    """Play one whole game in state ``g``; return an ``ERR_*`` code.

    ``lazy``: deal from the deck stream (a run); otherwise ``g`` already holds the explicit
    deck order (scripted play). Seats whose strategy is ``SCRIPTED`` read their plays from
    ``script_plays`` (one card per turn, all seats). ``seats``: the user seats
    (``engine.user_seats.open_seats``), or None: no seat plays a user strategy, and numba compiles
    that path out. ``log``: a decision log (``engine.decisions.new_log``) to fill, or None:
    runs pass None, and numba then compiles the logging out. A user strategy's index outside
    the legal moves stops the game (``ERR_USER``; the block's fault record says which and why).
    ``deal``: the game's deal option (``engine.options.game_deal``: replayed and duplicate
    deals), or None (ordinary runs: compiled out). The deal is the rules' Setup, every hand;
    High card draws nothing later, so a replay redraws only the strategies' random choices.
    """
    set_up(g, players, deck_size, hand_size, deck_rng, lazy, trace)
    if deal is not None:
        rotate_hands(g, players, rotation(deal))
        later_stream(deal, deck_rng, DECK_STREAM)
        later_stream(deal, choice_rng, CHOICE_STREAM)
    while not game_over(g):
        seat = leader(g)
        for _ in range(players):
            strategy = strategies[seat]
            if strategy == SCRIPTED and turns(g) >= script_plays.shape[0]:
                return ERR_TOO_FEW_PLAYS
            if log is not None:
                slot = log_decision(g, seat, DECISION_PLAY, log)
            k = choose_play(g, seat, strategy, choice_rng, script_plays, seats)
            if k < 0:
                return ERR_USER if strategy == USER else ERR_PLAY_NOT_IN_HAND
            if log is not None:
                log_choice(log, slot, play_move(hand_card(g, seat, k)))
            play_card(g, seat, k, trace)
            seat = next_seat(seat, players)
        take_trick(g, trace)
    if strategies[0] == SCRIPTED and turns(g) != script_plays.shape[0]:
        return ERR_TOO_MANY_PLAYS
    return ERR_NONE


@hot_inline
def write_row(g, players, err, row):
    """Turns, the metric and the seat blocks (win, score, led) into the game's row (called for
    a finished game only: ``err``, ``play_game``'s result, is ``ERR_NONE``).

    Most points wins: the result key of ``engine.rows.share_win`` (lowest best) is minus the
    points, written into the win block and shared there in place; tied seats share the win.
    """
    wins = row[FIRST_SEAT_COL : FIRST_SEAT_COL + players]
    for s in range(players):
        wins[s] = -points(g, s)
    share_win(wins, players, err == ERR_NONE, wins)
    row[COL_TURNS] = turns(g)
    row[COL_UNFINISHED] = 0
    row[COL_LEADER_TRICKS] = leader_tricks(g)
    for s in range(players):
        row[seat_column(FIRST_SEAT_COL, players, SCORE_BLOCK, s)] = points(g, s)
        row[seat_column(FIRST_SEAT_COL, players, LED_BLOCK, s)] = tricks_led(g, s)


@hot
def play_one(seed, index, players, params, strategies, work, row, trace, seats=None, log=None, deal=None):
    """Game ``index`` of the run with ``seed``, from its own streams, into ``row``; returns
    ``ERR_NONE``, or ``ERR_USER`` when a user strategy stopped it.

    ``trace``: the event buffer (``trace_one``), or None: runs, the recording compiled out.
    ``seats`` (user seats) and ``log`` (a decision log to fill, ``trace_one``): runs of built-in
    strategies leave both out. numba then types them ``Omitted(None)`` and compiles their paths
    out; ``play_game`` is therefore called without the arguments it lacks. ``deal``: the game's
    deal option (``play_game``), or None.
    """
    g, deck_rng, choice_rng, no_plays = work
    seed_stream(deck_rng, seed, index, DECK_STREAM)
    seed_stream(choice_rng, seed, index, CHOICE_STREAM)
    deck_size = np.int64(params[PARAM_DECK_SIZE])
    hand_size = np.int64(params[PARAM_HAND_SIZE])
    if seats is None and log is None and deal is None:
        err = play_game(g, players, deck_size, hand_size, strategies, deck_rng, choice_rng, True,
                        trace, no_plays)
    else:
        start_game(seats, seed, index, players, strategies)
        err = play_game(g, players, deck_size, hand_size, strategies, deck_rng, choice_rng, True,
                        trace, no_plays, seats, log, deal)
    if err == ERR_NONE:
        write_row(g, players, err, row)
    return err


@njit(cache=True, nogil=True)
def play_block(seed, start, players, params, strategies, rows, options, fns, user, block, deal=None):
    """Play every game of ``rows`` in order, allocating the working arrays once.

    ``options``: ``engine.options.kernel_options``' value, always None here: the template
    declares no ``OPTIONS``, the optional strategies compiled only into the kernels of runs in
    which a seat plays them (a game whose strategy is too large to compile into every kernel
    names it with its codes, Parade ``OPTIONS = (("rollout", {ROLLOUT}), ...)``, and builds its
    scratch through ``engine.options.gated``: ``engine/options.py``).
    Tracing is off (a trace None). ``fns`` and ``user``: the user
    strategies (``engine.user_seats``), or None; a fault of one stops the block. (Parade's block
    also runs its games on borrowed views, a speed convention of ``docs/performance.md``.)
    ``deal``: the deal option ``(replay, rotation)`` (``engine.options``), or left out
    (ordinary runs: the deal's code compiled out).
    """
    work = new_work()
    seats = open_seats(fns, user, block, OBS_SIZE, MAX_LEGAL)
    for k in range(rows.shape[0]):
        if fns is None and deal is None:  # (arguments: numba prunes the other branches)
            play_one(seed, start + k, players, params, strategies, work, rows[k], None)
        elif play_one(
            seed, start + k, players, params, strategies, work, rows[k], None, seats, None,
            dealt(deal, seed, start + k),  # the deal option (engine.options.dealt: None or a game's)
        ) != ERR_NONE or stopped(seats):
            break
    end_block(seats)


@njit(cache=True)
def trace_one(seed, index, players, params, strategies, row, trace, log, user, options, deal=None):
    """The same game as ``play_one`` (same streams), recording its events into ``trace`` and,
    unless ``log`` is None, every decision into ``log`` (``engine.decisions.new_log``).
    ``user``: the user strategies (``engine.user_seats``), or None; ``options``: the optional parts'
    ``kernel_options`` value (every one on: ``GameSpec.play_traced``); ``deal`` as for
    ``play_block``. Returns ``ERR_*``. The signature is every game's (``engine/CONTRACT.md``)."""
    fns, data = user_parts(user)
    seats = open_seats(fns, data, 0, OBS_SIZE, MAX_LEGAL)
    err = play_one(seed, index, players, params, strategies, new_work(), row, trace, seats, log,
                   dealt(deal, seed, index))
    end_block(seats)
    return err


@njit(cache=True)
def play_script(deck, players, hand_size, plays, row, trace):
    """Scripted game: explicit deck order (top first, every card once) and every play; returns
    ``ERR_*``.

    ``plays``: the card id played at each turn, all seats in play order
    (``game.play_scripted`` checks the input).
    """
    g, deck_rng, choice_rng, _ = new_work()
    deck_size = deck.shape[0]
    g[DECK : DECK + deck_size] = deck
    strategies = np.full(players, SCRIPTED, np.int64)
    err = play_game(g, players, deck_size, hand_size, strategies, deck_rng, choice_rng, False,
                    trace, plays)
    if err == ERR_NONE:
        write_row(g, players, err, row)
    return err


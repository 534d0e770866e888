"""Parade's kernel: one game from its own random streams, and the chunk runner.

Game ``i`` of a run with seed ``s`` uses two streams: substream 0 shuffles the deck (lazily,
only the cards that are dealt or drawn), substream 1 feeds the strategies' choices. Keeping
them apart means the same seed deals the same cards whatever the strategies, so strategy
and rule-variant comparisons run on common random numbers. The tree searches (``ismcts``,
``omniscient``: ``search.py``) draw from streams of their own, one per decision.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.borrow import borrow, borrow_all, keep_alive
from montecards.engine.decisions import log_choice, log_slot
from montecards.engine.jit import hot, hot_inline
from montecards.engine.options import dealt, gated, later_stream, rotation
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
from montecards.games.parade.cards import HAND_SIZE, MAX_PLAYERS, N_CARDS
from montecards.games.parade.rules import (
    CHOICES,
    DECK,
    DISCARDS,
    SIX_COLOURS,
    STATE_SIZE,
    collection_size,
    discard_set,
    finish_turn,
    official_discard,
    keep_cards,
    next_seat,
    play_card,
    rotate_hands,
    seat_score,
    set_up,
    win_shares,
    hand_card,
    hand_len,
    trigger_of,
    turn_count,
)
from montecards.games.parade import search as tree_search
from montecards.games.parade.search import new_search_space, set_key
from montecards.games.parade.strategies import (
    GREEDY,
    ISMCTS,
    OMNISCIENT,
    RANDOM,
    ROLLOUT,
    SCRIPTED,
    TUNED,
    WEIGHTED,
    any_greedy_discard,
    greedy_play,
    new_takings,
    rollout_play,
    weighted_discard,
    weighted_play,
)
from montecards.games.parade.value import ledger_after_turn, ledger_before_draw, ledger_deal
from montecards.games.parade.view import (
    MAX_LEGAL,
    OBS_SIZE,
    DECISION_DISCARD,
    DECISION_PLAY,
    discard_high,
    discard_low,
    legal_moves,
    move_card,
    observe,
    play_move,
)
from montecards.rng import bounded, seed_stream

DECK_STREAM = 0
CHOICE_STREAM = 1
PARAM_MARGIN = 0
PARAM_OPENING = 1
PARAM_END_COLOURS = 2
PARAM_COLOURS = 3
PARAM_VALUES = 4
PARAM_HAND = 5
PARAM_DISCARDS = 6

# per-game row: turns, unfinished, six_colours, then seat blocks win, score, collected
COL_TURNS = 0
COL_SIX_COLOURS = 2
FIRST_SEAT_COL = 3

OPTIONS = (("rollout", {ROLLOUT}), ("weighted", {WEIGHTED, TUNED}), ("search", {ISMCTS, OMNISCIENT}))
"""The optional strategies, compiled only into the kernels of runs in which a seat plays them
(``engine/options.py``). ``rollout`` (determinized play-outs) is as much code as the rest of
the kernel together: leaving it out of the kernels that do not need it halves the first run's
compile time. The weighted built-ins added ~4 s (CPU) to a cold compile of the default kernel;
the tree search allocates its tree only in the kernels that search."""

ERR_NONE = 0
ERR_PLAY_NOT_IN_HAND = 1
ERR_TOO_FEW_PLAYS = 2
ERR_TOO_MANY_PLAYS = 3
ERR_DISCARD_NOT_IN_HAND = 4
ERR_USER = 5

# rows of the per-seat scratch table
SEAT_DISCARD = 0


@njit(cache=True)
def new_work():
    """(game state, deck stream, choice stream, per-seat scratch table, empty script plays,
    empty script discards, the strategies' takings table). Runs pass None for the trace."""
    return (
        np.zeros(STATE_SIZE, np.int64),
        np.zeros(4, np.uint64),
        np.zeros(4, np.uint64),
        np.zeros((1, MAX_PLAYERS), np.int64),
        np.zeros(0, np.int64),
        np.zeros((0, 2), np.int64),
        new_takings(),
    )


@njit(cache=True, inline="always")
def new_rollout_space():
    """``rollout``'s scratch: two spare states, the unseen cards, one total per hand card."""
    return (
        np.zeros((2, STATE_SIZE), np.int64),
        np.zeros(N_CARDS, np.int64),
        np.zeros(HAND_SIZE, np.int64),
    )


rollout_space = gated(OPTIONS, "rollout", new_rollout_space)
weighted_option = gated(OPTIONS, "weighted")
search_space = gated(OPTIONS, "search", new_search_space)


@hot
def find_in_hand(g, seat, card):
    for k in range(hand_len(g, seat)):
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
def choose_play(g, seat, strategy, params, choice_rng, rollout, weighted, search, deck_rng, script_plays,
                seats, takings):
    """Hand index of the card the seat plays (or -1 for an illegal scripted play, or a user
    strategy's index outside the legal moves). ``params``: the run's parameter vector (the
    weighted built-ins read their seat's weights from its end, ``engine.weights``).

    ``rollout`` is ``rollout``'s scratch, or None in kernels compiled without it (runs in
    which no seat plays ``rollout``: ``OPTIONS``); ``weighted`` is True, or None in kernels
    compiled without ``weighted`` and ``tuned`` (``weighted_option``);
    ``search`` the tree search's space (``search.py``), or None likewise; ``deck_rng`` is read
    by ``omniscient`` alone; ``seats`` the user seats, or None in kernels compiled without them
    (runs of built-in strategies only); ``takings`` the strategies' table
    (``strategies.new_takings``).
    """
    if seats is not None:  # (a test of the argument alone: numba prunes it in runs of built-ins)
        if strategy == USER:
            move = ask_user(g, seat, DECISION_PLAY, seats)
            return -1 if move < 0 else find_in_hand(g, seat, move_card(move))
    if strategy == RANDOM:
        return bounded(choice_rng, hand_len(g, seat))
    if strategy == GREEDY:
        return greedy_play(g, seat, takings)
    if strategy == SCRIPTED:
        return find_in_hand(g, seat, script_plays[turn_count(g)])
    if weighted is not None:
        if strategy == WEIGHTED or strategy == TUNED:
            return weighted_play(g, seat, params, takings)
    if search is not None:
        if strategy == ISMCTS or strategy == OMNISCIENT:
            return tree_search.play(g, seat, strategy == OMNISCIENT, params, search, deck_rng)
    if rollout is None:
        return -1
    spare, unseen, totals = rollout
    return rollout_play(g, seat, choice_rng, spare, unseen, totals, takings, None)  # play-outs untraced


@hot
def choice_of(g, gone):
    """The final-discard choice (an index into ``PAIRS``, or into the ways of
    ``rules.discard_set``) that discards the hand positions of the bit mask ``gone`` (-1: none)."""
    for p in range(g[CHOICES]):
        if discard_set(g, p) == gone:
            return p
    return -1


@hot
def pair_of(g, seat, cards):
    """The final-discard choice that discards the seat's hand cards ``cards`` (-1: not all
    held, or not all different)."""
    gone = 0
    for card in cards:
        k = find_in_hand(g, seat, card)
        if k < 0 or (gone >> k) & 1:
            return -1
        gone |= 1 << k
    return choice_of(g, gone)


@hot
def two_of(g, seat, first, second):
    """The final-discard choice that discards the seat's hand cards ``first`` and ``second``
    (the same card twice: that one card, when the parameter ``discards`` is 1)."""
    a = find_in_hand(g, seat, first)
    b = find_in_hand(g, seat, second)
    if a < 0 or b < 0 or (a == b and g[DISCARDS] != 1):
        return -1
    return choice_of(g, (1 << a) | (1 << b))


@hot_inline
def choose_discard(g, seat, strategy, params, weighted, search, deck_rng, choice_rng, script_discards,
                   seats):
    """Index into ``PAIRS`` of the two hand cards the seat discards (-1: illegal script, or a
    user strategy's index outside the legal moves). ``params`` and ``weighted`` as for
    ``choose_play``."""
    if seats is not None:
        if strategy == USER:
            move = ask_user(g, seat, DECISION_DISCARD, seats)
            if move < 0:
                return -1
            return two_of(g, seat, discard_low(move), discard_high(move))
    if strategy == RANDOM:
        return bounded(choice_rng, g[CHOICES])
    if strategy == SCRIPTED:
        return pair_of(g, seat, script_discards[seat])
    if weighted is not None:
        if strategy == WEIGHTED or strategy == TUNED:
            return weighted_discard(g, seat, params)
    if search is not None:
        if strategy == ISMCTS or strategy == OMNISCIENT:
            if official_discard(g):  # the search knows the official discard (2 of 4) alone
                return tree_search.discard(g, seat, strategy == OMNISCIENT, params, search, deck_rng)
    return any_greedy_discard(g, seat)


@hot
def log_decision(g, seat, kind, log):
    """Log the seat's observation and legal moves at a decision; return its log row (or -1
    once the log is full: it keeps counting, and ``decisions.read_log`` reports it)."""
    slot = log_slot(log)
    if slot >= 0:
        _, seats, obs, legal, n_legal, choices = log
        seats[slot] = seat
        observe(g, seat, kind, obs[slot])
        n_legal[slot] = legal_moves(g, seat, kind, legal[slot])
    return slot


@hot
def play_game(
    g, players, margin, strategies, params, deck_rng, choice_rng, lazy, rollout, weighted, search,
    seat_tmp, takings, trace, script_plays, script_discards, seats=None, log=None, deal=None, ledger=None,
):
    """Play one whole game in state ``g``; return an ``ERR_*`` code.

    ``params``, ``rollout`` and ``weighted``: as for ``choose_play``. ``lazy``: deal from the
    deck stream (a run); otherwise ``g`` already holds the explicit deck order (scripted play).
    Seats whose strategy is ``SCRIPTED`` read their decisions from ``script_plays`` (one card
    per turn, all seats) and ``script_discards``.
    ``seats``: the user seats (``engine.user_seats.open_seats``), or None: no seat plays a user
    strategy, and numba compiles that path out. ``log``: a decision log
    (``engine.decisions.new_log``) to fill, or None: runs pass None, and numba then compiles
    the logging out. A user strategy's index outside the legal moves stops the game
    (``ERR_USER``; the block's fault record says which and why). ``deal``: the game's deal
    option (``engine.options.game_deal``), or None (ordinary runs: compiled out). The deal is
    the rules' Setup: the hands and the opening parade; with the option the hands rotate
    among the seats and the draws after it (and the strategies' choices) come from the replay's
    streams. ``ledger``: the luck ledger (``value.new_ledger``: runs with ``--luck``,
    ``play_luck_block``), or None: every other kernel omits it, and numba compiles its hooks out.
    """
    set_up(g, players, margin, deck_rng, lazy, trace, np.int64(params[PARAM_OPENING]),
           np.int64(params[PARAM_END_COLOURS]), np.int64(params[PARAM_COLOURS]),
           np.int64(params[PARAM_VALUES]), np.int64(params[PARAM_HAND]), np.int64(params[PARAM_DISCARDS]))
    if deal is not None:
        rotate_hands(g, players, rotation(deal))
        later_stream(deal, deck_rng, DECK_STREAM)
        later_stream(deal, choice_rng, CHOICE_STREAM)
    if ledger is not None:
        ledger_deal(g, players, margin, ledger)
    return play_from(
        g, 0, False, players, strategies, params, deck_rng, choice_rng, lazy, rollout, weighted, search,
        seat_tmp, takings, trace, script_plays, script_discards, seats, log, ledger,
    )


@hot_inline
def play_from(
    g, seat, done, players, strategies, params, deck_rng, choice_rng, lazy, rollout, weighted, search,
    seat_tmp, takings, trace, script_plays, script_discards, seats=None, log=None, ledger=None,
):
    """Play game ``g`` on from ``seat``'s turn to its end; return an ``ERR_*`` code. ``g`` is any
    full state (``set_up``'s, or a position's with one dealing of its unseen cards:
    ``position.py``); ``done``: the last turn has been played (the final discards are next).
    The other arguments as for ``play_game``, which is ``set_up`` and then this from seat 0."""
    while not done:
        strategy = strategies[seat]
        if strategy == SCRIPTED and turn_count(g) >= script_plays.shape[0]:
            return ERR_TOO_FEW_PLAYS
        if log is not None:
            slot = log_decision(g, seat, DECISION_PLAY, log)
        k = choose_play(
            g, seat, strategy, params, choice_rng, rollout, weighted, search, deck_rng, script_plays,
            seats, takings,
        )
        if k < 0:
            return ERR_USER if strategy == USER else ERR_PLAY_NOT_IN_HAND
        if log is not None:
            log_choice(log, slot, play_move(hand_card(g, seat, k)))
        play_card(g, seat, k, trace)
        if ledger is not None:
            ledger_before_draw(g, seat, ledger)
        done = finish_turn(g, seat, deck_rng, lazy, trace)
        if ledger is not None:
            ledger_after_turn(g, ledger)
        seat = next_seat(seat, players)
    if strategies[0] == SCRIPTED and turn_count(g) != script_plays.shape[0]:
        return ERR_TOO_MANY_PLAYS
    for s in range(players):  # simultaneous: every choice is made before any is applied
        if log is not None:
            slot = log_decision(g, s, DECISION_DISCARD, log)
        seat_tmp[SEAT_DISCARD, s] = choose_discard(
            g, s, strategies[s], params, weighted, search, deck_rng, choice_rng, script_discards, seats
        )
        if seat_tmp[SEAT_DISCARD, s] < 0:
            return ERR_USER if strategies[s] == USER else ERR_DISCARD_NOT_IN_HAND
        if log is not None:
            legal = log[3][slot]  # the move of the choice: legal_moves lists them in choice order
            log_choice(log, slot, legal[seat_tmp[SEAT_DISCARD, s]])
    for s in range(players):
        keep_cards(g, s, seat_tmp[SEAT_DISCARD, s], trace)
    return ERR_NONE


@hot_inline
def write_row(g, players, err, row):
    """Scores, collection sizes and win shares of a finished game into its output row: the
    scores and sizes go into their seat blocks, from which ``win_shares`` writes the win block
    (called for a finished game only: ``err``, ``play_game``'s result, is ``ERR_NONE``)."""
    scores = row[FIRST_SEAT_COL + players : FIRST_SEAT_COL + 2 * players]
    sizes = row[FIRST_SEAT_COL + 2 * players : FIRST_SEAT_COL + 3 * players]
    for s in range(players):
        scores[s] = seat_score(g, s)
        sizes[s] = collection_size(g, s)
    win_shares(scores, sizes, players, row[FIRST_SEAT_COL : FIRST_SEAT_COL + players])
    row[COL_TURNS] = turn_count(g)
    row[COL_SIX_COLOURS] = 1 if trigger_of(g) == SIX_COLOURS else 0


@hot
def seed_game(work, seed, index, search):
    """Seed game ``index``'s streams (and the search's key, unless ``search`` is None)."""
    seed_stream(work[1], seed, index, DECK_STREAM)
    seed_stream(work[2], seed, index, CHOICE_STREAM)
    if search is not None:
        set_key(search, seed, index)


@hot
def play_one(seed, index, players, params, strategies, work, rollout, weighted, search, row, trace,
             seats=None, log=None, deal=None):
    """Game ``index`` of the run with ``seed``, from its own streams, into ``row``; returns
    ``ERR_NONE``, or ``ERR_USER`` when a user strategy stopped it.

    ``rollout`` and ``weighted``: as for ``choose_play``. ``seats`` (user seats), ``log`` (a
    decision log to fill, ``trace_one``) and ``deal`` (the game's deal option): as for
    ``play_game``. Runs of built-in strategies do not call it (``play_block``).
    """
    g, deck_rng, choice_rng, seat_tmp, no_plays, no_discards, takings = work
    seed_game(work, seed, index, search)
    start_game(seats, seed, index, players, strategies)
    err = play_game(
        g, players, np.int64(params[PARAM_MARGIN]), strategies, params, deck_rng, choice_rng, True, rollout,
        weighted, search, seat_tmp, takings, trace, no_plays, no_discards, seats, log, deal,
    )
    if err == ERR_NONE:
        write_row(g, players, err, row)
    return err


@njit(cache=True, inline="always")
def block_work(options):
    """A block's working arrays and optional strategies' spaces: ``(owned, work, rollout,
    weighted, search)``, where ``work`` (``new_work``'s), ``rollout`` and ``search`` (their
    gates', ``OPTIONS``) are borrowed views (``engine.borrow``) of ``owned``'s arrays, which
    the block keeps alive after its loop (``keep_alive(owned)``)."""
    owned = (new_work(), rollout_space(options), search_space(options))
    return owned, borrow_all(owned[0]), borrow_all(owned[1]), weighted_option(options), borrow_all(owned[2])


@njit(cache=True, nogil=True)
def play_block(seed, start, players, params, strategies, rows, options, fns, user, block, deal=None):
    """Play every game of ``rows`` in order, allocating the working arrays once (``block_work``:
    no reference counting in the per-turn calls). ``user``: the user strategies (``fns`` and
    ``user``: ``engine.user_seats``), or None; a fault of one stops the block. ``options``:
    ``engine.options.kernel_options``' value (the optional strategies compiled in). ``deal``:
    the deal option ``(replay, rotation)`` (``engine.options``), or left out (ordinary runs:
    the deal's code compiled out).
    """
    owned, work, rollout, weighted, search = block_work(options)
    seat_strategies = borrow(strategies)
    seats = open_seats(fns, user, block, OBS_SIZE, MAX_LEGAL)
    for g in range(rows.shape[0]):
        if fns is None:  # (an argument: numba prunes the other branch in runs of built-ins)
            # play_one's built-in path, written out: play_one is then not compiled into runs of
            # built-ins (one compiled level less: its own LLVM pass over the whole game cost the
            # default run's cold compile ~0.5 s); seats, log and ledger are left out (no argument)
            seed_game(work, seed, start + g, search)
            if play_game(
                work[0], players, np.int64(params[PARAM_MARGIN]), seat_strategies, params, work[1], work[2],
                True, rollout, weighted, search, work[3], work[6], None, work[4], work[5],
                deal=dealt(deal, seed, start + g),
            ) == ERR_NONE:
                write_row(work[0], players, ERR_NONE, rows[g])
        else:
            err = play_one(
                seed, start + g, players, params, seat_strategies, work, rollout, weighted, search,
                rows[g], None, seats, None, dealt(deal, seed, start + g),
            )
            if err != ERR_NONE or stopped(seats):
                break
    end_block(seats)
    keep_alive(owned)
    keep_alive(strategies)


@njit(cache=True)
def trace_one(seed, index, players, params, strategies, row, trace, log, user, options, deal=None):
    """The same game as ``play_one`` (same streams), recording its events into ``trace`` and,
    unless ``log`` is None, every decision into ``log`` (``engine/CONTRACT.md``); ``deal`` as
    for ``play_block``. Returns ``ERR_*``."""
    fns, data = user_parts(user)
    seats = open_seats(fns, data, 0, OBS_SIZE, MAX_LEGAL)
    err = play_one(
        seed, index, players, params, strategies, new_work(), rollout_space(options), weighted_option(options),
        search_space(options), row, trace, seats, log, dealt(deal, seed, index),
    )
    end_block(seats)
    return err


@njit(cache=True)
def play_script(deck, players, margin, plays, discards, row, trace, opening=6, end_colours=6, colours=6,
                values=11, hand=5, n_discards=2):
    """Scripted game: explicit deck order (top first) and every decision; returns ERR_*.

    ``deck``: the ``colours * values`` card ids; ``plays``: the card id played at each turn,
    all seats in turn order; ``discards``: per seat, the ``n_discards`` card ids it discards at
    the end (``game.play_scripted`` checks the input); ``opening``, ``end_colours``,
    ``colours``, ``values``, ``hand``, ``n_discards``: the parameters ``opening_parade``,
    ``end_colours``, ``colours``, ``values``, ``hand_size`` and ``discards``.
    """
    g, deck_rng, choice_rng, seat_tmp, _, _, takings = new_work()
    g[DECK + N_CARDS - deck.shape[0] : DECK + N_CARDS] = deck  # a smaller deck ends where 66 do
    strategies = np.full(players, SCRIPTED, np.int64)
    vector = np.array([margin, opening, end_colours, colours, values, hand, n_discards], np.float64)
    err = play_game(
        g, players, margin, strategies, vector, deck_rng,
        choice_rng, False, None, None, None, seat_tmp, takings, trace, plays, discards,
    )
    if err == ERR_NONE:
        write_row(g, players, err, row)
    return err

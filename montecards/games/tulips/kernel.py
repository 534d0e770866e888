"""Gift of Tulips' kernel: one game from its own random streams, and the chunk runner.

Game ``i`` of a run with seed ``s`` uses two streams. Substream 0 (the table) draws, in this
order: the deck (a lazy Fisher-Yates in drawing order; the two festival cards are redrawn
until their colours differ, which is exact rejection sampling of the whole deck), the
opening tie order (a random permutation of the colours, stably sorted by total), the rest of
the deck as it is dealt and drawn, then the secret-festival reveal (which cards and their
order). Substream 1 feeds the ``random`` strategy. So the same seed deals the same cards
whatever the strategies (common random numbers); only the reveal depends on how many cards
went to the secret festival.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from montecards.engine.borrow import borrow, borrow_all, keep_alive
from montecards.engine.jit import hot
from montecards.engine.options import dealt, gated, later_stream, rotation
from montecards.engine.rows import SCORE_BLOCK, WIN_BLOCK, seat_column
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
from montecards.engine.weights import weight_index
from montecards.games.tulips import search as tree_search
from montecards.games.tulips.rules import (
    ACTIONS,
    DECK,
    DRAWN,
    ERR_AT,
    EV_DEAL,
    EV_DRAW,
    EV_RANKING,
    EV_SETUP,
    EV_TURN,
    GIVE,
    KEEP,
    N_DECK,
    PILE_END,
    PLAYERS,
    SECRET_ACTION,
    SETUP_CHOICE,
    TURNS,
    action_class,
    actions_done,
    apply_action,
    dealt_card,
    draw_festival,
    final_scores,
    give_total,
    init_tables,
    keep_total,
    majority_total,
    next_card,
    open_festival_setup,
    player_count,
    random_opening,
    rank_code,
    record,
    reset_game,
    reveal_secret,
    rotate_dealt,
    score,
    set_ranking,
    to_bouquet,
    to_secret,
    tulips,
    turns_begun,
    win_share,
)
from montecards.games.tulips.search import new_search_space, set_key
from montecards.games.tulips.strategies import (
    GREEDY,
    ISMCTS,
    MAJORITY,
    OMNISCIENT,
    SCRIPTED,
    TUNED,
    WEIGHTED,
    WORK_SIZE,
    greedy_action,
    greedy_setup,
    majority_action,
    majority_setup,
    random_action,
    random_setup,
    weighted_choice,
)
from montecards.games.tulips.value import (
    ledger_after_draw,
    ledger_before_draw,
    ledger_before_reveal,
    ledger_deal,
    ledger_end,
)
from montecards.games.tulips.view import (
    DECISION_ACTION,
    DECISION_SETUP,
    MAX_LEGAL,
    NO_CLASS,
    OBS_SIZE,
    legal_moves,
    log_decision,
    move_action,
    move_card,
    move_receiver,
    observe_constants,
    observe_decision,
    setup_move,
)
from montecards.rng import bounded, seed_stream

DECK_STREAM = 0
CHOICE_STREAM = 1

# per-game row: turns, unfinished, keep_points, give_points, majority_points (sums over
# seats), then seat blocks win, score, keep_points, give_points, majority_points, tulips
COL_TURNS = 0
COL_UNFINISHED = 1
COL_KEEP = 2
COL_GIVE = 3
COL_MAJ = 4
FIRST_SEAT_COL = 5
# the seat outputs after win and score, in ``SPEC.seat_outputs``' order
KEEP_BLOCK, GIVE_BLOCK, MAJORITY_BLOCK, TULIPS_BLOCK = range(SCORE_BLOCK + 1, SCORE_BLOCK + 5)

ERR_NONE = 0
ERR_FESTIVAL_COLOUR = 1
ERR_OPENING_ORDER = 2
ERR_SETUP_CHOICE = 3
ERR_TOO_FEW_DECISIONS = 4
ERR_TOO_MANY_DECISIONS = 5
ERR_BAD_ACTION = 6
ERR_SAME_ACTION = 7
ERR_BAD_RECEIVER = 8
ERR_REVEAL = 9
ERR_USER = 10

OPTIONS = (("majority", {MAJORITY}), ("weighted", {WEIGHTED, TUNED}), ("search", {ISMCTS, OMNISCIENT}))
"""The optional strategies, compiled only into the kernels of runs in which a seat plays them
(``engine/options.py``): ``majority``'s look-ahead (about 4 s of the cold compile), the
weighted built-ins' scoring, the search's tree."""


def search_arg(space, params):
    """``(space, params)`` for the tree searches (``search.py``), or None when ``space`` is
    None (no seat searches: compiled out). Jitted code only."""
    raise NotImplementedError("search_arg is only callable from jitted code")


@overload(search_arg, jit_options={"cache": True})
def _search_arg(space, params):
    if isinstance(space, types.NoneType):
        return lambda space, params: None
    return lambda space, params: (space, params)


@hot
def ask_user(g, seat, kind, first_class, seats):
    """The legal move (``view``) the seat's user strategy chooses at a ``kind`` decision, or
    -1 when it chose an index outside the legal moves (``engine.user_seats.ask``). The observation
    is ``view.observe``'s: its entries that are the same all block long were written by
    :func:`open_user_seats`. ``hot`` (no reference counting, ``engine/jit.py``): it allocates
    nothing, and with reference counting each call increfs and decrefs the buffers it takes
    out of ``seats``."""
    observe_decision(g, seat, kind, first_class, obs_buffer(seats))
    legal = legal_buffer(seats)
    k = ask(seats, seat, legal_moves(g, seat, kind, first_class, legal))
    return -1 if k < 0 else legal[k]


@njit(cache=True)
def weighting_arrays(params, g):
    """``weighted``/``tuned``'s working arrays: ``(params, observation, legal moves)``, the
    observation's block constants written (``g``: the block's state, its tables set)."""
    obs = np.zeros(OBS_SIZE, np.int64)
    observe_constants(g, obs)
    return params, obs, np.zeros(MAX_LEGAL, np.int64)


majority_option = gated(OPTIONS, "majority")
open_weighting = gated(OPTIONS, "weighted", weighting_arrays)  # (options, params, g)
search_space = gated(OPTIONS, "search", new_search_space)


@njit(cache=True)
def weighted_move(g, seat, kind, first_class, weighting):
    """The move (``view`` id) a ``weighted`` or ``tuned`` seat makes: the seat's observation and
    legal moves (as a user strategy gets them), scored by ``strategies.weighted_choice`` with the
    seat's weights from the table at the end of ``params`` (``engine.weights``).
    ``weighting``: :func:`open_weighting`'s arrays (the observation's block constants written)."""
    params, obs, legal = weighting
    observe_decision(g, seat, kind, first_class, obs)
    n = legal_moves(g, seat, kind, first_class, legal)
    return legal[weighted_choice(obs, legal[:n], params, weight_index(params, seat, 0))]


@njit(cache=True)
def open_user_seats(fns, user, block, g):
    """``engine.user_seats.open_seats`` for this game's decision interface, with the entries of the
    observation that stay the same all block long (``view.observe_constants``) written once;
    None when ``fns`` is None. ``g``: the block's state, its tables set (``init_tables``)."""
    seats = open_seats(fns, user, block, OBS_SIZE, MAX_LEGAL)
    if fns is not None:  # an argument: numba prunes the branch when it is None
        observe_constants(g, obs_buffer(seats))
    return seats


@njit(cache=True)
def scripted_move(g, seat, kind, first_class, choice, receiver):
    """The legal move (``view.legal_moves``) a script names, or ``-ERR_*`` when it names none.
    At set-up ``choice`` is the hand index going to the bouquet; at an action, the action and
    ``receiver`` the gift's receiver (-1 for every other action)."""
    legal = np.empty(MAX_LEGAL, np.int64)
    n = legal_moves(g, seat, kind, first_class, legal)
    if kind == DECISION_SETUP:
        return legal[choice] if 0 <= choice < n else -ERR_SETUP_CHOICE
    for i in range(n):
        action = move_action(legal[i])
        if action == choice and (move_receiver(legal[i]) if action == GIVE else -1) == receiver:
            return legal[i]
    if choice < KEEP or choice > SECRET_ACTION:
        return -ERR_BAD_ACTION
    if action_class(choice) == first_class:
        return -ERR_SAME_ACTION
    return -ERR_BAD_RECEIVER


@njit(cache=True, inline="always")
def choose_setup(g, seat, strategy, deck_rng, choice_rng, script_setup, seats, log, weighting, majority,
                 search):
    """Hand index (0/1) of the seat's dealt card that goes to its bouquet, or ``-ERR_*`` (a
    user strategy's index outside its legal moves; a script's choice that is not one,
    ``g[ERR_AT]`` the seat); logged unless ``log`` is None. Every option None (``seats``,
    ``log``, ``weighting``, ``majority``, ``search``, ``script_setup``: see :func:`set_up`)
    compiles its path out."""
    a = dealt_card(g, seat, 0)
    b = dealt_card(g, seat, 1)
    if seats is not None and strategy == USER:
        move = ask_user(g, seat, DECISION_SETUP, NO_CLASS, seats)
        if move < 0:
            return -ERR_USER
        k = 0 if move_card(move) == a else 1
    elif weighting is not None and (strategy == WEIGHTED or strategy == TUNED):
        k = 0 if move_card(weighted_move(g, seat, DECISION_SETUP, NO_CLASS, weighting)) == a else 1
    elif majority is not None and strategy == MAJORITY:
        k = majority_setup(g, seat, a, b)
    elif search is not None and (strategy == ISMCTS or strategy == OMNISCIENT):
        k = tree_search.setup(g, seat, strategy == OMNISCIENT, search[1], search[0], deck_rng)
    elif script_setup is not None and strategy == SCRIPTED:
        move = scripted_move(g, seat, DECISION_SETUP, NO_CLASS, script_setup[seat], -1)
        if move < 0:
            g[ERR_AT] = seat
            return move
        k = 0 if move_card(move) == a else 1
    elif strategy == GREEDY:
        k = greedy_setup(g, a, b)
    else:
        k = random_setup(choice_rng)
    if log is not None:
        log_decision(log, g, seat, DECISION_SETUP, NO_CLASS, setup_move(a if k == 0 else b))
    return k


@njit(cache=True, inline="always")
def choose_action(g, seat, step, card, first_class, strategy, deck_rng, choice_rng, script_dec, seats,
                  log, weighting, majority, search):
    """The move (``view`` id) the seat makes with ``card``, the turn's action ``step`` (0, 1;
    the first of class ``first_class``), or ``-ERR_*`` (a user strategy's index outside its
    legal moves; a script that ran out or names an illegal move, ``g[ERR_AT]`` the action's
    number); logged unless ``log`` is None. The options as for :func:`choose_setup`."""
    if script_dec is not None and strategy == SCRIPTED:
        at = actions_done(g)
        if at >= script_dec.shape[0]:
            move = -ERR_TOO_FEW_DECISIONS
        else:
            move = scripted_move(g, seat, DECISION_ACTION, first_class, script_dec[at, 0], script_dec[at, 1])
        if move < 0:
            g[ERR_AT] = at
            return move
    elif seats is not None and strategy == USER:
        move = ask_user(g, seat, DECISION_ACTION, first_class, seats)
        if move < 0:
            return -ERR_USER
    elif weighting is not None and (strategy == WEIGHTED or strategy == TUNED):
        move = weighted_move(g, seat, DECISION_ACTION, first_class, weighting)
    elif majority is not None and strategy == MAJORITY:
        move = majority_action(g, seat, card, first_class)
    elif search is not None and (strategy == ISMCTS or strategy == OMNISCIENT):
        move = tree_search.action(g, seat, step, first_class, strategy == OMNISCIENT, search[1], search[0],
                                  deck_rng)
    elif strategy == GREEDY:
        move = greedy_action(g, seat, card, first_class)
    else:
        move = random_action(g, seat, first_class, choice_rng)
    if log is not None:
        log_decision(log, g, seat, DECISION_ACTION, first_class, move)
    return move


@njit(cache=True)
def set_up(
    g, strategies, deck_rng, choice_rng, trace, script_open, script_setup,
    seats=None, log=None, weighting=None, majority=None, search=None, deal=None,
):
    """Setup 2-4 of the rules: festival, opening ranking, deal and bouquet/secret choice.

    ``deal``: the game's deal option (``engine.options.game_deal``), or None (ordinary runs:
    compiled out). The deal is what Setup draws before the bouquet/secret choice, the first
    decision: the festival, the opening ranking and the two cards of every seat. With the
    option those cards rotate among the seats and everything after (the draw pile's order, the
    reveal, ``random``'s choices) comes from the replay's streams.

    ``script_open`` and ``script_setup``: the scripted game's opening ranking and setup
    choices, or None (runs and traces: the deck and the opening tie order come from the deck
    stream, and numba compiles the scripted paths out).

    ``majority``: True, or None (``majority``'s look-ahead compiled out: no seat plays it);
    ``search``: the tree searches' ``(space, params)`` (``search_arg``), or None likewise.

    ``weighting``: ``weighted``/``tuned``'s arrays (:func:`open_weighting`), or None (compiled
    out: no seat plays them). ``seats``: the user seats (``engine.user_seats.open_seats``), or None
    (runs of built-in strategies: compiled out). ``log``: the decision log (``view.log_decision``), or None
    (runs: compiled out).
    """
    players = g[PLAYERS]
    lazy = script_open is None  # (a test of an argument: numba prunes the branches on it)
    reset_game(g, lazy)
    if not draw_festival(g, deck_rng, lazy):
        return ERR_FESTIVAL_COLOUR
    open_festival_setup(g, trace)
    if lazy:
        random_opening(g, deck_rng)
    elif not set_ranking(g, script_open):
        return ERR_OPENING_ORDER
    record(trace, EV_RANKING, -1, -1, rank_code(g), 0, 0)
    for seat in range(players):
        for k in range(2):
            card = next_card(g, deck_rng, lazy)
            record(trace, EV_DEAL, seat, card, k, 0, 0)
    if deal is not None:
        rotate_dealt(g, players, rotation(deal))
        later_stream(deal, deck_rng, DECK_STREAM)
        later_stream(deal, choice_rng, CHOICE_STREAM)
    for seat in range(players):  # simultaneous: every choice is made before any is applied
        k = choose_setup(g, seat, strategies[seat], deck_rng, choice_rng, script_setup, seats, log,
                         weighting, majority, search)
        if k < 0:
            return -k
        g[SETUP_CHOICE + seat] = k
    for seat in range(players):
        a = dealt_card(g, seat, 0)
        b = dealt_card(g, seat, 1)
        keep = a if g[SETUP_CHOICE + seat] == 0 else b
        hide = b if g[SETUP_CHOICE + seat] == 0 else a
        to_bouquet(g, seat, keep)
        to_secret(g, seat, hide)
        record(trace, EV_SETUP, seat, keep, hide, g[SETUP_CHOICE + seat], 0)
    return ERR_NONE


@njit(cache=True)
def play_game(
    g, strategies, deck_rng, choice_rng, trace,
    script_open, script_setup, script_dec, script_reveal, seats=None, log=None, weighting=None,
    majority=None, search=None, deal=None, ledger=None,
):
    """Play one whole game in state ``g`` (tables set by init_tables); return an ``ERR_*``.

    ``weighting``: ``weighted``/``tuned``'s arrays (:func:`open_weighting`), or None: no seat
    plays them, and numba compiles that path out. ``majority`` (True) and ``search`` (the tree
    searches' ``(space, params)``) likewise, for ``majority`` and ``ismcts``/``omniscient``.

    ``script_*`` None (runs and traces): shuffle from the deck stream, and numba compiles the
    scripted paths out; otherwise ``g`` already holds the deck in drawing order and every
    choice comes from the ``script_*`` arrays (seats ``SCRIPTED``).
    ``seats``: the user seats (``engine.user_seats.open_seats``), or None: no seat plays a user
    strategy, and numba compiles that path out. ``log``: the decision log filled at every
    decision, or None (runs: compiled out). A user strategy's index outside the legal moves
    stops the game (``ERR_USER``; the block's fault record says which and why).
    ``ledger``: the luck ledger (``value.new_ledger``: runs with ``--luck``, ``luck.py``), or
    None: every other kernel omits it, and numba compiles its hooks out.
    """
    if (seats is None and log is None and weighting is None and majority is None and search is None
            and deal is None):
        # runs of greedy and random: no argument at all (Omitted)
        err = set_up(g, strategies, deck_rng, choice_rng, trace, script_open, script_setup)
    else:
        err = set_up(
            g, strategies, deck_rng, choice_rng, trace, script_open, script_setup,
            seats, log, weighting, majority, search, deal,
        )
    if err != ERR_NONE:
        return err
    if ledger is not None:
        ledger_deal(g, ledger)
    lazy = script_dec is None  # (a test of an argument: numba prunes the branches on it)
    players = g[PLAYERS]
    pile_end = g[PILE_END]
    n_deck = g[N_DECK]
    drawn = g[DRAWN]
    turns = 0
    seat = 0
    while drawn < pile_end:
        turns += 1
        g[TURNS] = turns
        record(trace, EV_TURN, seat, -1, turns, 0, 0)
        strategy = strategies[seat]
        first_class = NO_CLASS
        for step in range(2):
            if drawn >= pile_end:
                break
            if ledger is not None:
                ledger_before_draw(g, seat, first_class, ledger)
            if lazy:  # next_card with the counter in a register
                j = drawn + bounded(deck_rng, n_deck - drawn)
                card = g[DECK + j]
                g[DECK + j] = g[DECK + drawn]
                g[DECK + drawn] = card
            else:
                card = g[DECK + drawn]
            drawn += 1
            g[DRAWN] = drawn
            if ledger is not None:
                ledger_after_draw(g, seat, card, first_class, ledger)
            record(trace, EV_DRAW, seat, card, step, 0, 0)
            move = choose_action(g, seat, step, card, first_class, strategy, deck_rng, choice_rng,
                                 script_dec, seats, log, weighting, majority, search)
            if move < 0:
                return -move
            action = move_action(move)
            apply_action(g, seat, card, action, move_receiver(move), trace)
            first_class = action_class(action)
        seat += 1
        if seat == players:
            seat = 0
    if script_dec is not None and g[ACTIONS] != script_dec.shape[0]:
        g[ERR_AT] = g[ACTIONS]
        return ERR_TOO_MANY_DECISIONS
    if ledger is not None:
        ledger_before_reveal(g, ledger)
    if not reveal_secret(g, deck_rng, script_reveal, trace):
        return ERR_REVEAL
    final_scores(g, trace)
    if ledger is not None:
        ledger_end(g, ledger)
    return ERR_NONE


@njit(cache=True)
def write_row(g, players, err, row):
    """Points (with their split), tulips and win shares of a finished game into ``row`` (a game
    always ends: ``err``, ``play_game``'s result, is not read)."""
    row[COL_TURNS] = turns_begun(g)
    row[COL_UNFINISHED] = 0  # a game always ends (the draw pile empties)
    keep = 0
    give = 0
    maj = 0
    for s in range(players):
        keep += keep_total(g, s)
        give += give_total(g, s)
        maj += majority_total(g, s)
        row[seat_column(FIRST_SEAT_COL, players, WIN_BLOCK, s)] = win_share(g, s)
        row[seat_column(FIRST_SEAT_COL, players, SCORE_BLOCK, s)] = score(g, s)
        row[seat_column(FIRST_SEAT_COL, players, KEEP_BLOCK, s)] = keep_total(g, s)
        row[seat_column(FIRST_SEAT_COL, players, GIVE_BLOCK, s)] = give_total(g, s)
        row[seat_column(FIRST_SEAT_COL, players, MAJORITY_BLOCK, s)] = majority_total(g, s)
        row[seat_column(FIRST_SEAT_COL, players, TULIPS_BLOCK, s)] = tulips(g, s)
    row[COL_KEEP] = keep
    row[COL_GIVE] = give
    row[COL_MAJ] = maj


@njit(cache=True)
def new_work():
    """(game state and strategy scratch, deck stream, choice stream). Runs pass None for the
    trace, runs and traces None for the scripts (``play_game``)."""
    return (
        np.zeros(WORK_SIZE, np.int64),
        np.zeros(4, np.uint64),
        np.zeros(4, np.uint64),
    )


@hot
def seed_game(deck_rng, choice_rng, search, seed, index):
    """Seed game ``index``'s streams (and the search's key, unless ``search`` is None: an
    argument, so numba prunes the test; ``play_block``'s ``search`` is a local)."""
    seed_stream(deck_rng, seed, index, DECK_STREAM)
    seed_stream(choice_rng, seed, index, CHOICE_STREAM)
    if search is not None:
        set_key(search[0], seed, index)


@njit(cache=True)
def play_one(
    seed, index, strategies, g, deck_rng, choice_rng, rows, k, trace,
    seats=None, log=None, weighting=None, majority=None, search=None, deal=None,
):
    """Game ``index`` of the run with ``seed``, from its own streams, into ``rows[k]``; returns
    ``ERR_NONE``, or ``ERR_USER`` when a user strategy stopped it (its row is then not written).
    ``trace``: the event buffer (``trace_one``), or None (runs: the recording compiled out).

    ``seats`` (user seats) and ``log`` (a decision log): runs of built-in strategies leave both
    out, as Parade's ``play_one`` explains (numba's ``Omitted``: no argument at all); so do
    runs in which no seat plays ``weighted``/``tuned`` with ``weighting`` (``open_weighting``),
    ``majority`` with ``majority`` and a search with ``search`` (``kernel_options``). ``deal``:
    the game's deal option (``set_up``), or None.
    """
    seed_game(deck_rng, choice_rng, search, seed, index)
    if seats is None and log is None and deal is None:
        if weighting is None and majority is None and search is None:
            play_game(g, strategies, deck_rng, choice_rng, trace, None, None, None, None)
        else:
            play_game(
                g, strategies, deck_rng, choice_rng, trace, None, None, None, None,
                None, None, weighting, majority, search,
            )
        write_row(g, player_count(g), ERR_NONE, rows[k])
        return ERR_NONE
    start_game(seats, seed, index, player_count(g), strategies)
    err = play_game(
        g, strategies, deck_rng, choice_rng, trace, None, None, None, None,
        seats, log, weighting, majority, search, deal,
    )
    if err == ERR_NONE:
        write_row(g, player_count(g), err, rows[k])
    return err


@njit(cache=True, nogil=True)
def play_block(seed, start, players, params, strategies, rows, options, fns, user, block, deal=None):
    """Play every game of ``rows`` in order, allocating the working arrays once.

    The games run on borrowed views (``engine.borrow``) of the block's arrays, which
    ``owned`` keeps alive: no reference counting in the per-action calls. ``options``:
    ``engine.options.kernel_options``' value (the optional strategies compiled in; None:
    only ``greedy`` and ``random``). ``user``: the user strategies
    (``fns`` and ``user``: ``engine.user_seats``), or None; a fault of one stops the block.
    """
    owned = new_work()
    init_tables(owned[0], players, params)
    g = borrow(owned[0])
    deck_rng = borrow(owned[1])
    choice_rng = borrow(owned[2])
    seat_strategies = borrow(strategies)
    out = borrow(rows)
    seats = open_user_seats(fns, user, block, g)
    weighting_owned = open_weighting(options, params, owned[0])
    weighting = borrow_all(weighting_owned)
    majority = majority_option(options)
    search_owned = search_space(options)
    search = search_arg(borrow_all(search_owned), params)
    for k in range(rows.shape[0]):
        if fns is None and deal is None:  # (arguments: numba prunes the other branches)
            # play_one's built-in paths, written out: play_one is then not compiled into runs of
            # built-ins (one compiled level less, as Parade's play_block: numba optimises and
            # emits the whole game again in every caller); play_game gets the very arguments
            # play_one gives it, so these are the same specialisations
            seed_game(deck_rng, choice_rng, search, seed, start + k)
            if options is None:
                play_game(g, seat_strategies, deck_rng, choice_rng, None, None, None, None, None)
            else:
                play_game(
                    g, seat_strategies, deck_rng, choice_rng, None, None, None, None, None,
                    None, None, weighting, majority, search,
                )
            write_row(g, players, ERR_NONE, out[k])
        elif play_one(
            seed, start + k, seat_strategies, g, deck_rng, choice_rng, out, k,
            None, seats, None, weighting, majority, search, dealt(deal, seed, start + k),
        ) != ERR_NONE or stopped(seats):
            break
    end_block(seats)
    keep_alive(search_owned)
    keep_alive(weighting_owned)
    keep_alive(owned)
    keep_alive(strategies)
    keep_alive(rows)


@njit(cache=True)
def trace_one(seed, index, players, params, strategies, row, trace, log, user, options, deal=None):
    """The same game as ``play_one`` (same streams), recording its events into ``trace``
    and, unless ``log`` is None, every decision into ``log`` (``engine/CONTRACT.md``); ``deal``
    as for ``play_block``. Returns ``ERR_*``."""
    g, deck_rng, choice_rng = new_work()
    init_tables(g, players, params)
    fns, data = user_parts(user)
    seats = open_user_seats(fns, data, 0, g)
    weighting = open_weighting(options, params, g)
    majority = majority_option(options)
    search = search_arg(search_space(options), params)
    err = play_one(
        seed, index, strategies, g, deck_rng, choice_rng, row.reshape(1, -1), 0,
        trace, seats, log, weighting, majority, search, dealt(deal, seed, index),
    )
    end_block(seats)
    return err


@njit(cache=True)
def play_script(deck, players, params, opening, setup, decisions, reveal, row, trace, err_at, log=None):
    """Scripted game: the deck in drawing order (festival, deal, pile, removed) and every
    decision; returns ``ERR_*`` (``err_at[0]``: the action or seat at fault). ``log``: a
    decision log filled at every decision (the scripted moves), or None."""
    g, deck_rng, choice_rng = new_work()
    init_tables(g, players, params)
    for k in range(deck.shape[0]):
        g[DECK + k] = deck[k]
    strategies = np.full(players, SCRIPTED, np.int64)
    err = play_game(
        g, strategies, deck_rng, choice_rng, trace, opening, setup, decisions, reveal,
        None, log,
    )
    err_at[0] = g[ERR_AT]
    if err == ERR_NONE:
        write_row(g, players, err, row)
    return err

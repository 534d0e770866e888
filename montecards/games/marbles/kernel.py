"""Joker Marbles kernel (glue): one game from its own random streams, the chunk runner, the
trace and decision log of one game (``trace_one``), the scripted game (``play_script``) and the
board helpers behind ``game.legal_moves`` / ``game.apply_move``.

Game ``i`` of a run with seed ``s`` uses two streams: substream 0 orders the cards (the deck,
then each reshuffled discard pile, all by lazy Fisher-Yates as cards are drawn), substream 1
feeds the ``random`` strategy (one draw per turn of a random seat). The same seed therefore
deals the same deck whatever the strategies (common random numbers).

``turns`` counts every seat turn, plays and discards; a game still without a winner after
``max_turns`` turns is unfinished (row column ``unfinished`` = 1, no win shares; a win on turn
``max_turns`` counts). ``bumps`` counts one per bumped marble (opponents', teammates' and
joker bumps), credited to the seat whose turn it is (``bumps_made``) and to the marble's owner
(``bumps_suffered``); ``discards`` counts turns without a legal move. ``score`` is the number of
the seat's marbles in its castle at the end.

Cards: seat k is dealt deck cards 5k .. 5k+4 (top first), the rest is the draw pile; a draw
from an empty pile first turns the whole discard pile into the new draw pile.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.borrow import borrow_all, keep_alive
from montecards.engine.jit import hot, hot_inline
from montecards.engine.options import dealt, gated, later_stream, rotation
from montecards.engine.rows import SCORE_BLOCK, seat_column, share_win
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
from montecards.games.marbles import search as tree_search
from montecards.games.marbles.moves import WORK_SIZE, gen_hand
from montecards.games.marbles.rules import (
    EV_DRAW,
    EV_RESHUFFLE,
    EV_UNDRAWN,
    EV_WIN,
    MARBLES,
    MAX_CARDS,
    MV_C1,
    MV_C2,
    MW,
    O_POS,
    S_BUMPS,
    S_DISC_N,
    S_DISCARDS,
    S_DRAWN,
    S_NCARDS,
    S_PILE_N,
    S_RESHUFFLES,
    S_TURNS,
    S_VDEST,
    S_WON,
    apply_step,
    deal,
    disc_at,
    discard_card,
    discarded_at,
    draw_card,
    group_end,
    group_of,
    group_start,
    hand_card,
    hand_insert,
    hand_n_at,
    hand_size,
    in_castle,
    made_at,
    move_at,
    mover,
    pile_at,
    place_marbles,
    play_card,
    position,
    record,
    reshuffle_lazy,
    rotate_hands,
    set_up,
    suffered_at,
    winner_at,
)
from montecards.games.marbles.search import new_search_space, set_key
from montecards.games.marbles.strategies import (
    ISMCTS,
    OMNISCIENT,
    SCRIPTED,
    TUNED,
    WEIGHTED,
    best_move,
    best_slot,
    choose,
    score_weight,
    weighted_choice,
)
from montecards.games.marbles.value import ledger_after_draw, ledger_before_draw, ledger_deal
from montecards.games.marbles.view import (
    DECISION_DISCARD,
    DECISION_PLAY,
    MAX_LEGAL,
    OBS_SIZE,
    legal_moves,
    listed_moves,
    log_decision,
    move_card,
    move_end,
    move_end2,
    move_kind,
    move_marble,
    move_marble2,
    observe,
    observe_again,
)
from montecards.rng import seed_stream

DECK_STREAM = 0
CHOICE_STREAM = 1

# packed parameters (game.pack_params)
P_TEAMS = 0
P_SIDES = 1
P_DECKS = 2
P_NINE = 3
P_JFT = 4
P_OPTIONAL = 5
P_MAX_TURNS = 6
P_SIDE_HOLES = 7
P_MARBLES = 8
N_PARAMS = 9

# per-game row: turns, unfinished, bumps, discards, then seat blocks
# win, score, bumps_made, bumps_suffered, discards
COL_TURNS = 0
COL_UNFINISHED = 1
COL_BUMPS = 2
COL_DISCARDS = 3
FIRST_SEAT_COL = 4
# the seat outputs after win and score, in ``SPEC.seat_outputs``' order
MADE_BLOCK, SUFFERED_BLOCK, DISCARDS_BLOCK = range(SCORE_BLOCK + 1, SCORE_BLOCK + 4)

# scripted decisions: one row per turn
D_TYPE = 0  # 1 play, 2 discard
D_CARD = 1
D_KIND = 2
D_OWNER = 3
D_M1 = 4
D_S1 = 5
D_E1 = 6
D_C1 = 7
D_M2 = 8
D_S2 = 9
D_E2 = 10
D_C2 = 11
D_WIDTH = 12
PLAY = 1
DISCARD = 2

OPTIONS = (("weighted", {WEIGHTED, TUNED}), ("search", {ISMCTS, OMNISCIENT}))
"""The optional strategies, compiled only into the kernels of runs in which a seat plays them
(``engine/options.py``): ``strategies.weighted_choice`` and its helpers cost a cold compile of
the default kernel several seconds; the search allocates its tree only in the kernels that
search."""
weighted_option = gated(OPTIONS, "weighted")
search_space = gated(OPTIONS, "search", new_search_space)

ERR_NONE = 0
ERR_NO_DECISION = 1
ERR_CARD_NOT_IN_HAND = 2
ERR_ILLEGAL_MOVE = 3
ERR_MUST_PLAY = 4
ERR_NO_ORDER = 5
ERR_BAD_ORDER = 6
ERR_EXTRA_DECISIONS = 7
ERR_EXTRA_ORDERS = 8
ERR_BAD_DECISION = 9
ERR_USER = 10


@njit(cache=True)
def new_work():
    """Working arrays of one thread's block of games (allocated once per block). Runs and
    traces have no scripted deck orders, offsets or decisions: None (``play_game`` then
    compiles the scripted game's path out; ``play_script`` passes its own). Runs pass None
    for the trace too (``rules.record``: the event recording compiled out)."""
    return (
        np.zeros(WORK_SIZE, np.int64),  # the state: the rules', then the strategies' and moves' scratch
        np.zeros(4, np.uint64),  # deck stream
        np.zeros(4, np.uint64),  # choice stream
        None,  # no scripted deck orders
        None,  # their offsets
        None,  # no scripted decisions
    )


@hot
def scripted_reshuffle(g, orders, offsets, used):
    """The discard pile becomes the draw pile in the order ``orders[used]``; returns ERR_*.

    The order must be the discard pile's cards, each once. The draw pile is empty here (every
    card of it drawn), so its slots serve as the check's marks, one per card id, before the
    order is written into it."""
    if used + 1 >= offsets.shape[0]:
        return ERR_NO_ORDER
    lo = offsets[used]
    hi = offsets[used + 1]
    n = g[S_DISC_N]
    if hi - lo != n:
        return ERR_BAD_ORDER
    n_cards = g[S_NCARDS]
    for c in range(n_cards):
        g[pile_at(c)] = 0
    for i in range(n):
        g[pile_at(g[disc_at(i)])] = 1
    ok = True
    for i in range(lo, hi):
        c = orders[i]
        if c < 0 or c >= n_cards or g[pile_at(c)] != 1:
            ok = False
        else:
            g[pile_at(c)] = 0
    if not ok:
        return ERR_BAD_ORDER
    for i in range(n):
        g[pile_at(i)] = orders[lo + i]
    g[S_PILE_N] = n
    g[S_DRAWN] = 0
    g[S_DISC_N] = 0
    g[S_RESHUFFLES] += 1
    return ERR_NONE


@hot
def chosen_move(g, seat, total, k):
    """``(slot, move)`` of the generated list (``O_MOVES``) for index ``k`` into the legal
    moves: ``view.listed_moves`` lists each hand slot's group of moves in slot order, so
    ``legal[k]`` is move ``k`` of that concatenation (its id's card, ``view.move_card``, is
    the slot's card); a discard (``total`` 0) lists one move per slot."""
    if total == 0:
        return k, -1
    for slot in range(hand_size(g, seat)):
        grp = group_of(g, slot)
        count = group_end(g, grp) - group_start(g, grp)
        if k < count:
            return slot, group_start(g, grp) + k
        k -= count
    return -1, -1


@hot
def turn_moves(g, seat, total, legal):
    """``view.legal_moves`` of the turn (``legal[:n]``; returns ``n``) from the moves it
    generated: its plays, or when ``total`` is 0 its discards."""
    if total > 0:  # the turn generated the moves as legal_moves does (no scores: the weight -1)
        return listed_moves(g, seat, legal)
    return legal_moves(g, seat, DECISION_DISCARD, legal)


@hot
def scripted_move(g, seat, owner, total, script, turn):
    """``(slot, move)`` of the scripted decision of ``turn`` (move -1: a discard), the one of
    the turn's legal moves (``turn_moves``) that it names, or ``(-ERR_*, -1)``. ``script``:
    the decision rows and a buffer for the legal moves."""
    rows, legal = script
    if turn >= rows.shape[0]:
        return -ERR_NO_DECISION, -1
    row = rows[turn]
    card = row[D_CARD]
    held = False
    for k in range(hand_size(g, seat)):
        held |= hand_card(g, seat, k) == card
    if not held:
        return -ERR_CARD_NOT_IN_HAND, -1
    kind = row[D_TYPE]
    if kind == DISCARD:
        if total > 0:
            return -ERR_MUST_PLAY, -1
    elif kind != PLAY:
        return -ERR_BAD_DECISION, -1
    elif row[D_OWNER] != owner or total == 0:
        return -ERR_ILLEGAL_MOVE, -1
    m2 = row[D_M2]
    for k in range(turn_moves(g, seat, total, legal)):
        move = legal[k]
        if move_card(move) == card and (kind == DISCARD or (
            move_kind(move) == row[D_KIND] and move_marble(move) == row[D_M1]
            and move_end(move) == row[D_E1] and move_marble2(move) == m2
            and (m2 < 0 or move_end2(move) == row[D_E2])
        )):
            slot, i = chosen_move(g, seat, total, k)
            if kind == DISCARD or (  # the steps' starts and lengths, which the id leaves out
                position(g, owner, row[D_M1]) == row[D_S1] and g[move_at(i, MV_C1)] == row[D_C1]
                and (m2 < 0 or (position(g, owner, m2) == row[D_S2] and g[move_at(i, MV_C2)] == row[D_C2]))
            ):
                return slot, i
            break
    return -ERR_ILLEGAL_MOVE, -1


@hot_inline
def first_user_turn(strategies, seat, turn):
    """Is this the game's first user decision (the lowest user seat's first turn)?"""
    if turn != seat:  # (only in the first round)
        return False
    for s in range(seat):
        if strategies[s] == USER:
            return False
    return True


@hot_inline
def ask_user(g, seat, total, seats, first):
    """``(slot, move)`` the seat's user strategy chooses, as ``strategies.choose`` returns a
    built-in's (move -1: discard the card in ``slot``); ``(-1, -1)`` when it chose an index
    outside the legal moves (``engine.user_seats.ask``). ``total``: the hand's legal choices (0: the
    decision is a discard); ``first``: the game's first user decision (the observation buffer
    is then written whole, later only what changed: ``view.observe_again``)."""
    legal = legal_buffer(seats)
    kind = DECISION_PLAY if total > 0 else DECISION_DISCARD
    if first:
        observe(g, seat, kind, obs_buffer(seats))
    else:
        observe_again(g, seat, kind, obs_buffer(seats))
    k = ask(seats, seat, turn_moves(g, seat, total, legal))
    if k < 0:
        return -1, -1
    return chosen_move(g, seat, total, k)


@hot_inline
def choose_move(g, seat, owner, total, strategies, params, deck_rng, choice_rng, script, turn, log, seats,
                weighted, search):
    """``(slot, move)`` the seat plays on the turn's generated moves (``moves.gen_hand``; move
    -1: discard the card in ``slot``, as ``strategies.choose`` returns), or ``(-ERR_*, -1)``
    (a user strategy's index outside its legal moves, an illegal script); logged unless ``log``
    is None. ``script``, ``seats``, ``weighted`` and ``search`` None: their paths compiled out
    (``play_game``)."""
    strategy = strategies[seat]
    if seats is not None and strategy == USER:
        slot, mv = ask_user(g, seat, total, seats, first_user_turn(strategies, seat, turn))
        if slot < 0:
            return -ERR_USER, -1
    elif weighted is not None and (strategy == WEIGHTED or strategy == TUNED):
        slot, mv = weighted_choice(g, seat, owner, total, params)
    elif search is not None and (strategy == ISMCTS or strategy == OMNISCIENT):
        slot, mv = tree_search.choose_searched(g, seat, owner, total, strategy == OMNISCIENT, params,
                                               search, deck_rng)
    elif script is None or strategy != SCRIPTED:
        slot, mv = choose(g, seat, strategy, total, choice_rng)
    else:
        slot, mv = scripted_move(g, seat, owner, total, script, turn)
        if slot < 0:
            return slot, mv
    if log is not None:
        log_decision(g, seat, slot, mv, log)
    return slot, mv


@hot
def play_game(g, deck_rng, choice_rng, players, params, strategies, orders, offsets, script, trace, log,
              seats=None, weighted=None, search=None, deal_option=None, ledger=None):
    """Play one whole game on ``g`` (streams already seeded); return an ``ERR_*`` code.

    A run or trace (``orders``, ``offsets`` and ``script`` None: numba compiles the scripted
    path out) draws its cards from the deck stream; a scripted game has its deck orders in
    ``orders`` (the first, then one per reshuffle; ``offsets`` delimit them; ``offsets`` of
    length 1: the deck stream as in a run) and every seat's decisions in ``script`` (one row
    per turn, and a buffer for the legal moves: ``play_script``'s pair). ``trace``: the event
    buffer (``trace_one``, ``play_script``), or None (runs:
    ``rules.record`` then compiles the event recording out). ``log`` is a
    decision log (``engine.decisions.new_log``) filled at every decision, or None: numba then
    types it ``NoneType`` and compiles the logging out (runs and traces). ``seats``: the user
    seats (``engine.user_seats.open_seats``), or left out: no seat plays a user strategy, and numba
    compiles that path out. A user strategy's index outside the legal moves stops the game
    (``ERR_USER``; the block's fault record says which and why). ``weighted``: True when a seat
    may play ``weighted``/``tuned`` (``kernel_options``), or None: their code is compiled out.
    ``search``: the tree search's space (``search.py``) when a seat plays ``ismcts`` or
    ``omniscient``, or None likewise (``omniscient`` reads the deck stream ``deck_rng``).
    ``deal_option``: the game's deal option (``engine.options.game_deal``), or None (ordinary
    runs: compiled out). The deal is the rules' five cards to each seat (the board starts
    empty); with the option the hands rotate among the seats and every draw after it (and
    reshuffle, and ``random``'s choices) comes from the replay's streams. ``ledger``: the luck
    ledger (``value.new_ledger``: runs with ``--luck``, ``luck.py``), or None: its hooks (after
    the deal, before and after every draw) compiled out.
    """
    set_up(
        g, players, np.int64(params[P_TEAMS]), np.int64(params[P_SIDES]),
        np.int64(params[P_DECKS]), np.int64(params[P_NINE]), np.int64(params[P_JFT]),
        np.int64(params[P_OPTIONAL]), np.int64(params[P_MAX_TURNS]),
        np.int64(params[P_SIDE_HOLES]), np.int64(params[P_MARBLES]),
    )
    lazy = True
    if script is not None:
        lazy = offsets.shape[0] < 2
        if not lazy:
            for i in range(offsets[1] - offsets[0]):
                g[pile_at(i)] = orders[offsets[0] + i]
    max_turns = np.int64(params[P_MAX_TURNS])
    used = 1
    deal(g, players, deck_rng, lazy, trace)
    if deal_option is not None:
        rotate_hands(g, players, rotation(deal_option))
        later_stream(deal_option, deck_rng, DECK_STREAM)
        later_stream(deal_option, choice_rng, CHOICE_STREAM)
    if ledger is not None:
        ledger_deal(g, ledger)
    seat = 0
    turn = 0
    err = ERR_NONE
    while turn < max_turns:
        g[S_TURNS] = turn
        if g[S_DRAWN] == g[S_PILE_N]:
            if script is None or lazy:
                reshuffle_lazy(g)
            else:
                err = scripted_reshuffle(g, orders, offsets, used)
                used += 1
            record(trace, EV_RESHUFFLE, turn, -1, -1, -1, -1, -1, -1, g[S_PILE_N])
        if err != ERR_NONE:
            break
        if ledger is not None:
            ledger_before_draw(g, seat, ledger)
        card = draw_card(g, deck_rng, lazy)
        hand_insert(g, seat, card)
        if ledger is not None:
            ledger_after_draw(g, seat, ledger)
        record(trace, EV_DRAW, turn, seat, card, -1, -1, -1, -1, 0)
        owner = mover(g, seat)
        total = gen_hand(g, seat, owner, score_weight(strategies[seat]))
        slot, mv = choose_move(g, seat, owner, total, strategies, params, deck_rng, choice_rng, script, turn,
                               log, seats, weighted, search)
        if slot < 0:
            err = -slot
            break
        won = False
        if mv >= 0:
            won = play_card(g, seat, owner, slot, mv, turn, trace)
        else:
            discard_card(g, seat, slot, turn, trace)
        turn += 1
        if won:
            record(trace, EV_WIN, turn - 1, seat, -1, owner, -1, -1, -1, 0)
            break
        seat += 1
        if seat == players:
            seat = 0
    if err == ERR_NONE:
        g[S_TURNS] = turn
        for i in range(g[S_DRAWN], g[S_PILE_N]):
            record(trace, EV_UNDRAWN, turn, -1, g[pile_at(i)], -1, -1, -1, -1, 0)
        if script is not None and not lazy:
            if turn != script[0].shape[0]:
                err = ERR_EXTRA_DECISIONS
            elif used != offsets.shape[0] - 1:
                err = ERR_EXTRA_ORDERS
    return err


@hot
def write_row(g, players, err, row):
    """The finished game's row. The winners (the seat, or the team, that finished first) share
    the win (``engine.rows.share_win``, in place: the key, lowest best, is 0 for a winner and 1
    for the others); an unfinished game has no winner (the state says which game is: ``err``,
    ``play_game``'s result, is not read)."""
    won = g[S_WON]
    row[COL_TURNS] = g[S_TURNS]
    row[COL_UNFINISHED] = 1 - won
    row[COL_BUMPS] = g[S_BUMPS]
    row[COL_DISCARDS] = g[S_DISCARDS]
    wins = row[FIRST_SEAT_COL : FIRST_SEAT_COL + players]
    for s in range(players):
        wins[s] = 1 - g[winner_at(s)]
        row[seat_column(FIRST_SEAT_COL, players, SCORE_BLOCK, s)] = in_castle(g, s)
        row[seat_column(FIRST_SEAT_COL, players, MADE_BLOCK, s)] = g[made_at(s)]
        row[seat_column(FIRST_SEAT_COL, players, SUFFERED_BLOCK, s)] = g[suffered_at(s)]
        row[seat_column(FIRST_SEAT_COL, players, DISCARDS_BLOCK, s)] = g[discarded_at(s)]
    share_win(wins, players, won != 0, wins)


@hot
def seed_game(deck_rng, choice_rng, seed, index, search):
    """Seed game ``index``'s deck and choice streams (and the search's key, unless ``search`` is
    None: a test of an argument, which numba prunes in runs that do not search)."""
    seed_stream(deck_rng, seed, index, DECK_STREAM)
    seed_stream(choice_rng, seed, index, CHOICE_STREAM)
    if search is not None:
        set_key(search, seed, index)


@njit(cache=True)
def play_one(seed, index, players, params, strategies, g, deck_rng, choice_rng, orders, offsets, script,
             row, trace, log, seats=None, weighted=None, search=None, deal_option=None):
    """Game ``index`` of the run with ``seed``, from its own streams, into ``row`` (``log``:
    a decision log, or None in runs); returns ``ERR_NONE``, or ``ERR_USER`` when a user
    strategy stopped it (its row is then not written).

    ``seats``: the user seats (``engine.user_seats.open_seats``), or None (traces of built-ins:
    the user path compiled out; runs of built-ins call ``play_game`` directly, ``play_block``).
    ``weighted``: ``weighted_option``'s flag (None: ``weighted``/``tuned`` compiled out);
    ``search``: the search space, or None (``ismcts``/``omniscient`` compiled out).
    ``deal_option``: the game's deal option (``play_game``), or None.
    """
    seed_game(deck_rng, choice_rng, seed, index, search)
    start_game(seats, seed, index, players, strategies)
    err = play_game(g, deck_rng, choice_rng, players, params, strategies, orders, offsets, script, trace,
                    log, seats, weighted, search, deal_option)
    if err == ERR_NONE:
        write_row(g, players, err, row)
    return err


@njit(cache=True, nogil=True)
def play_block(seed, start, players, params, strategies, rows, options, fns, user, block, deal=None):
    """Play every game of ``rows`` in order, allocating the working arrays once. ``user``: the
    user strategies (``fns`` and ``user``: ``engine.user_seats``), or None; a fault of one stops the
    block. ``options``: ``kernel_options`` (None: ``weighted``/``tuned`` and the search
    compiled out). ``deal``: the deal option ``(replay, rotation)`` (``engine.options``), or
    left out (ordinary runs: compiled out)."""
    g, deck_rng, choice_rng, orders, offsets, script = new_work()
    seats = open_seats(fns, user, block, OBS_SIZE, MAX_LEGAL)
    weighted = weighted_option(options)
    search_owned = search_space(options)
    search = borrow_all(search_owned)
    for game in range(rows.shape[0]):
        if fns is None:  # (an argument: numba prunes the other branch in runs of built-ins)
            # play_one's built-in path, written out: one compiled level less (play_one is not
            # compiled at all in runs of built-ins; its own copy of LLVM's work on the whole
            # game cost the default run ~0.8 s of its cold compile)
            seed_game(deck_rng, choice_rng, seed, start + game, search)
            err = play_game(g, deck_rng, choice_rng, players, params, strategies, orders, offsets,
                            script, None, None, None, weighted, search, dealt(deal, seed, start + game))
            write_row(g, players, err, rows[game])
        elif play_one(
            seed, start + game, players, params, strategies, g, deck_rng, choice_rng, orders, offsets, script,
            rows[game], None, None, seats, weighted, search, dealt(deal, seed, start + game),
        ) != ERR_NONE or stopped(seats):
            break
    end_block(seats)
    keep_alive(search_owned)


@njit(cache=True)
def trace_one(seed, index, players, params, strategies, row, trace, log, user, options, deal=None):
    """The same game as ``play_one`` (same streams), recording its events into ``trace``
    and, unless ``log`` is None, every decision into ``log`` (``view.log_decision``;
    ``engine/CONTRACT.md``); ``deal`` as for ``play_block``. Returns ``ERR_*``."""
    g, deck_rng, choice_rng, orders, offsets, script = new_work()
    fns, data = user_parts(user)
    seats = open_seats(fns, data, 0, OBS_SIZE, MAX_LEGAL)
    err = play_one(seed, index, players, params, strategies, g, deck_rng, choice_rng, orders, offsets,
                   script, row, trace, log, seats, weighted_option(options), search_space(options),
                   dealt(deal, seed, index))
    end_block(seats)
    return err


@njit(cache=True)
def play_script(players, params, orders, offsets, script, row, trace, positions):
    """Scripted game: explicit deck orders and every decision; returns ``(ERR_*, turn)`` and
    leaves the final marble positions in ``positions`` (``(players, marbles)``)."""
    g, deck_rng, choice_rng, _o, _f, _s = new_work()
    strategies = np.full(players, SCRIPTED, np.int64)
    err = play_game(g, deck_rng, choice_rng, players, params, strategies, orders, offsets,
                    (script, np.zeros(MAX_LEGAL, np.int64)), trace, None)
    if err == ERR_NONE:
        write_row(g, players, err, row)
    for s in range(players):
        for m in range(positions.shape[1]):
            positions[s, m] = g[O_POS + MARBLES * s + m]
    return err, g[S_TURNS]


@njit(cache=True)
def board_moves(players, params, positions, seat, hand, weight):
    """Legal (card, move) list of ``hand`` for ``seat`` on a given board (tests, analysts).

    ``positions`` is ``(players, marbles)`` in the kernel's encoding. Returns the move records
    (one row per (card, move) with the card in column 0, ``MW`` fields after it) and the
    seat's greedy pick (-1 when there is no legal move) for ``weight >= 0``.
    """
    g, deck_rng, choice_rng, _o, _f, _s = new_work()
    set_up(
        g, players, np.int64(params[P_TEAMS]), np.int64(params[P_SIDES]),
        np.int64(params[P_DECKS]), np.int64(params[P_NINE]), np.int64(params[P_JFT]),
        np.int64(params[P_OPTIONAL]), np.int64(params[P_MAX_TURNS]),
        np.int64(params[P_SIDE_HOLES]), np.int64(params[P_MARBLES]),
    )
    place_marbles(g, players, positions)
    g[hand_n_at(seat)] = 0
    for c in hand:
        hand_insert(g, seat, c)
    owner = mover(g, seat)
    out = np.zeros((MAX_CARDS * 8, MW + 1), np.int64)
    if owner < 0:
        return out[:0], -1, owner
    total = gen_hand(g, seat, owner, weight)
    n = 0
    for k in range(hand_size(g, seat)):
        grp = group_of(g, k)
        for i in range(group_start(g, grp), group_end(g, grp)):
            out[n, 0] = hand_card(g, seat, k)
            for f in range(MW):
                out[n, 1 + f] = g[move_at(i, f)]
            n += 1
    assert n == total
    pick = -1
    if weight >= 0 and total > 0:
        mv = best_move(g, seat)
        slot = best_slot(g, mv)
        # the row of the pick: that move listed under the card greedy plays
        n = 0
        for k in range(hand_size(g, seat)):
            grp = group_of(g, k)
            for i in range(group_start(g, grp), group_end(g, grp)):
                if i == mv and k == slot:
                    pick = n
                n += 1
    return out[:total], pick, owner


@njit(cache=True)
def board_apply(players, params, positions, owner, m1, e1, m2, e2):
    """Make a move's steps on a given board (no legality check); returns the new positions
    ``(players, marbles)`` and the bumps, one row ``(seat, marble, hole, destination)`` per step
    (-1 rows: no bump)."""
    g, deck_rng, choice_rng, _o, _f, _s = new_work()
    set_up(
        g, players, np.int64(params[P_TEAMS]), np.int64(params[P_SIDES]),
        np.int64(params[P_DECKS]), np.int64(params[P_NINE]), np.int64(params[P_JFT]),
        np.int64(params[P_OPTIONAL]), np.int64(params[P_MAX_TURNS]),
        np.int64(params[P_SIDE_HOLES]), np.int64(params[P_MARBLES]),
    )
    place_marbles(g, players, positions)
    bumps = np.full((2, 4), -1, np.int64)
    for k in range(2):
        m = m1 if k == 0 else m2
        e = e1 if k == 0 else e2
        if m >= 0:
            v = apply_step(g, owner, m, e)
            if v >= 0:
                bumps[k, 0] = v // MARBLES
                bumps[k, 1] = v % MARBLES
                bumps[k, 2] = e
                bumps[k, 3] = g[S_VDEST]
    out = np.empty((players, positions.shape[1]), np.int64)
    for s in range(players):
        for m in range(positions.shape[1]):
            out[s, m] = position(g, s, m)
    return out, bumps

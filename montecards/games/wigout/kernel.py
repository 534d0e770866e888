"""Wig Out!'s kernel: the competing-hazards event loop, one game, a block, the chunk, the trace
and the scripted game (docs/rules/wigout.md). The rules are in ``rules.py``, the strategies in
``strategies.py``, the decision interface in ``view.py``.

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
from numba import njit

from montecards.engine.borrow import borrow, keep_alive
from montecards.engine.options import dealt, gated, later_stream, rotation
from montecards.engine.rows import SCORE_BLOCK, seat_column, share_win
from montecards.engine.trace import tracing
from montecards.engine.user_seats import (
    USER,
    ask,
    borrow_seats,
    end_block,
    legal_buffer,
    obs_buffer,
    open_seats,
    start_game,
    stopped,
    user_parts,
)
from montecards.games.wigout.rules import (
    ACTIONS,
    ADD,
    CHOICE,
    DEADLOCKS,
    DEAL,
    DECK,
    DECK_N,
    DECK_ROW,
    DRAWN,
    DRAWS,
    ERR_EVENT,
    EV_CARD,
    EV_DRAW,
    EV_START,
    EVENT,
    F_DRAW_SPEED,
    F_RATE,
    F_SPEED,
    F_TIME,
    HELD_ONCE,
    HELD_TWICE,
    MAX_DEALS,
    MAX_DEALS_PER_ROUND,  # noqa: F401 (for tests)
    PLAYERS,
    POINTS,
    ROUND,
    ROUNDS,
    SCRIPTED,
    TABLE,
    UNFINISHED,
    clear_game,
    deal,
    draw_card,
    end_round,
    hand_size,
    has_play,
    new_floats,
    new_state,
    play_move,
    points,
    rate,
    record,
    rotate_hands,
    rounds_won,
    sorted_deck,
)
from montecards.games.wigout.strategies import RANDOM, TUNED, WEIGHTED, choose_play, weighted_play
from montecards.games.wigout.value import ledger_after_event, ledger_before_event, ledger_deal
from montecards.games.wigout.view import (
    DECISION_PLAY,
    MAX_LEGAL,
    OBS_SIZE,
    legal_moves,
    log_decision,
    observe,
)
from montecards.rng import bounded, exponential, next_u64, seed_stream, uniform

EVENT_STREAM = 0
CHOICE_STREAM = 1
DECK_STREAM = 2  # + deal

# per-game row: turns, unfinished, deadlocks, draws, then seat blocks win, score, rounds_won
COL_TURNS = 0
COL_UNFINISHED = 1
COL_DEADLOCKS = 2
COL_DRAWS = 3
FIRST_SEAT_COL = 4
ROUNDS_WON_BLOCK = SCORE_BLOCK + 1  # the seat output after win and score (``SPEC.seat_outputs``)

ERR_NONE = 0
ERR_TOO_FEW_DECKS = 1
ERR_TOO_MANY_DECKS = 2
ERR_TOO_FEW_EVENTS = 3
ERR_TOO_MANY_EVENTS = 4
ERR_CANNOT_ACT = 5
ERR_TOO_FEW_CHOICES = 6
ERR_TOO_MANY_CHOICES = 7
ERR_USER = 8

OPTIONS = (("weighted", {WEIGHTED, TUNED}),)
"""The optional strategies, compiled only into the kernels of runs in which a seat plays them
(``engine/options.py``): the weighted built-ins' scoring would add about a second to the first
compile of every kernel."""
weighted_option = gated(OPTIONS, "weighted")


@njit(cache=True)
def load_deck(g, deck_rng, seed, index, scripted, script_decks):
    """This deal's deck: the script's next one, or the sorted deck and the deal's own deck
    stream (shuffled lazily as cards are dealt). False when a script has run out of decks."""
    if scripted:
        row = g[DECK_ROW]
        if row >= script_decks.shape[0]:
            return False
        for k in range(g[DECK_N]):
            g[DECK + k] = script_decks[row, k]
        g[DECK_ROW] = row + 1
    else:
        seed_stream(deck_rng, seed, index, DECK_STREAM + g[DEAL])
        sorted_deck(g)
    return True


@njit(cache=True)
def record_deck(g, deck_rng, scripted, trace):
    """Trace only: the deal's whole deck, top first. A run's lazy shuffle is completed from the
    deal's own deck stream first (nothing else reads that stream afterwards)."""
    if not tracing(trace):
        return
    n = g[DECK_N]
    if not scripted:
        for d in range(g[DRAWN], n - 1):
            j = DECK + d + bounded(deck_rng, n - d)
            card = g[j]
            g[j] = g[DECK + d]
            g[DECK + d] = card
    for k in range(n):
        record(trace, EV_CARD, g, -1, g[DECK + k], 0, 0.0, 0.0, -1.0, k)


@njit(cache=True, inline="always")
def ask_user(g, seat, seats):
    """The play (``view`` move id, the kernel's own play code) the seat's user strategy
    chooses, or -1 when it chose an index outside the legal moves (``engine.user_seats.ask``)."""
    observe(g, seat, DECISION_PLAY, obs_buffer(seats))
    legal = legal_buffer(seats)
    k = ask(seats, seat, legal_moves(g, seat, DECISION_PLAY, legal))
    return np.int64(-1) if k < 0 else legal[k]


@njit(cache=True)
def play_round(g, fw, strategies, params, weighted, event_rng, choice_rng, deck_rng, scripted,
               script_actors, script_waits, script_choices, trace, log, seats=None, ledger=None):
    """Events until a seat wigs out (returns the seat), a deadlock (returns -1) or an illegal
    script or a user strategy's index outside the legal moves (returns -2 - ERR_*). ``log``: a
    decision log (``engine.decisions``) that gets every play decision, or None (runs): numba
    then compiles the logging out. ``seats``: the user seats (``engine.user_seats.open_seats``), or
    None (left out): no seat plays a user strategy, and numba compiles that path out.
    ``params``: the run's parameter vector (``weighted`` / ``tuned`` read their weights in its
    tail); ``weighted``: True when a seat plays one of them (``kernel_options``), or None: numba
    then compiles their path out. ``ledger``: the luck ledger (``value.new_ledger``: runs with
    ``--luck``, ``luck.py``), or None: numba then compiles its hooks out."""
    players = g[PLAYERS]
    n = g[DECK_N]
    timed = tracing(trace)  # the waiting times are drawn for a trace only
    while True:
        # the rates (rules: Timing model): speed with a play, speed / draw_time_factor when the
        # seat must draw, 0 when it waits; written out here rather than as a rule function,
        # which cost ~10 % of the time per game (rules.py, "the timing model")
        table = g[TABLE]
        pile_left = g[DRAWN] < n
        total = 0.0
        for s in range(players):
            if g[HELD_TWICE + s] != 0 or (g[HELD_ONCE + s] & table) != 0:
                r = fw[F_SPEED + s]
            elif pile_left:
                r = fw[F_DRAW_SPEED + s]
            else:
                r = 0.0
            fw[F_RATE + s] = r
            total += r
        if total == 0.0:
            return -1  # deadlock: the draw pile is empty and nobody can play
        if ledger is not None:
            ledger_before_event(g, fw, total, weighted, ledger)
        if scripted:
            e = g[EVENT]
            if e >= script_actors.shape[0]:
                return -2 - ERR_TOO_FEW_EVENTS
            actor = script_actors[e]
            wait = script_waits[e]
            if rate(fw, actor) == 0.0:
                g[ERR_EVENT] = e
                return -2 - ERR_CANNOT_ACT
            g[EVENT] = e + 1
        else:
            if timed:
                wait = exponential(event_rng, total)
            else:
                next_u64(event_rng)  # the same draw, without the logarithm nobody reads
                wait = 0.0
            target = uniform(event_rng) * total  # the actor: first seat whose cumulative rate exceeds it
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
        g[ACTIONS] += 1
        u = -1.0
        # the one decision, written out here: as a choose_play dispatcher (inlined, returning
        # the play and the uniform) it cost 7.8 % more instructions per game (71,365 -> 76,915,
        # greedy, 4 players: benchmarks/README.md, "issue 29, the rest")
        if has_play(g, actor):
            strategy = strategies[actor]
            if seats is not None and strategy == USER:
                play = ask_user(g, actor, seats)
                if play < 0:
                    return -2 - ERR_USER
            else:
                if strategy == RANDOM:
                    if scripted:
                        k = g[CHOICE]
                        if k >= script_choices.shape[0]:
                            g[ERR_EVENT] = g[EVENT] - 1
                            return -2 - ERR_TOO_FEW_CHOICES
                        u = script_choices[k]
                        g[CHOICE] = k + 1
                    else:
                        u = uniform(choice_rng)
                play = np.int64(-1)
                if weighted is not None:  # compiled only into kernels of runs that use it
                    if strategy == WEIGHTED or strategy == TUNED:
                        play = weighted_play(g, actor, params)
                if play < 0:
                    play = choose_play(g, actor, strategy, u)
            if log is not None:
                log_decision(g, actor, DECISION_PLAY, play, log)
            moved = play_move(g, actor, play)
            record(trace, EV_START + (play & ADD), g, actor, play >> 1, moved, wait, fw[F_TIME],
                   u, 0)
            if ledger is not None:
                ledger_after_event(g, ledger)
            if hand_size(g, actor) == 0:
                return actor  # Wig Out!
        else:  # forced draw (the rate is > 0 only while the draw pile is not empty)
            c = draw_card(g, actor, deck_rng, scripted)
            record(trace, EV_DRAW, g, actor, c, 1, wait, fw[F_TIME], -1.0, 0)
            if ledger is not None:
                ledger_after_event(g, ledger)


@njit(cache=True)
def play_game(g, fw, seed, index, strategies, params, weighted, event_rng, choice_rng, deck_rng,
              script_decks, script_actors, script_waits, script_choices, trace, log, seats=None,
              deal_option=None, ledger=None):
    """One whole game on ``g`` (fixed scalars already set); returns an ``ERR_*`` code.

    ``g[SCRIPTED]`` chooses the source of the inputs: the game's random streams, or the
    explicit decks, events and choices of a script (one compiled function serves both).
    ``seats``: the user seats (``engine.user_seats.open_seats``), or None (left out: runs of built-in
    strategies, whose kernels then compile the user path out). A user strategy's index outside
    the legal moves stops the game (``ERR_USER``; the block's fault record says which and why).

    ``deal_option``: the game's deal option (``engine.options.game_deal``), or None (ordinary
    runs: compiled out). The deal is the first round's Round setup (every hand and the two
    starters); with the option every round's hands rotate among the seats, and everything
    after the first deal (the events and their timing, the draws, the later rounds' decks,
    ``random``'s choices) comes from the replay's streams.

    ``ledger``: the luck ledger (``value.new_ledger``: ``luck.play_luck_block``, runs with
    ``--luck``), or None (every other run: its hooks are compiled out)."""
    scripted = g[SCRIPTED] != 0
    clear_game(g, fw)
    if not scripted:
        seed_stream(event_rng, seed, index, EVENT_STREAM)
        seed_stream(choice_rng, seed, index, CHOICE_STREAM)
    rounds = g[ROUNDS]
    while g[ROUND] < rounds:
        if g[DEAL] >= g[MAX_DEALS]:
            g[UNFINISHED] = 1
            break
        if not load_deck(g, deck_rng, seed, index, scripted, script_decks):
            return ERR_TOO_FEW_DECKS
        if deal_option is not None:
            if g[DEAL] > 0:  # a later round's deck: the replay's
                later_stream(deal_option, deck_rng, DECK_STREAM + g[DEAL])
        deal(g, deck_rng, scripted, trace)
        if deal_option is not None:
            rotate_hands(g, rotation(deal_option))
            if g[DEAL] == 0:  # after the deal: the replay's streams
                later_stream(deal_option, deck_rng, DECK_STREAM)
                later_stream(deal_option, event_rng, EVENT_STREAM)
                later_stream(deal_option, choice_rng, CHOICE_STREAM)
        if ledger is not None:
            ledger_deal(g, ledger)
        winner = play_round(g, fw, strategies, params, weighted, event_rng, choice_rng, deck_rng, scripted,
                            script_actors, script_waits, script_choices, trace, log, seats, ledger)
        if winner <= -2:
            return -2 - winner
        record_deck(g, deck_rng, scripted, trace)
        end_round(g, winner, fw[F_TIME], trace)
    if scripted:
        if g[DECK_ROW] != script_decks.shape[0]:
            return ERR_TOO_MANY_DECKS
        if g[EVENT] != script_actors.shape[0]:
            return ERR_TOO_MANY_EVENTS
        if g[CHOICE] != script_choices.shape[0]:
            return ERR_TOO_MANY_CHOICES
    return ERR_NONE


@njit(cache=True)
def write_row(g, players, err, row):
    """Lowest total wins, ties share the win (``engine.rows.share_win``: the key is the seat's
    points, lowest best); unfinished: no winner (the state says which game is: ``err``,
    ``play_game``'s result, is not read)."""
    row[COL_TURNS] = g[ACTIONS]
    row[COL_UNFINISHED] = g[UNFINISHED]
    row[COL_DEADLOCKS] = g[DEADLOCKS]
    row[COL_DRAWS] = g[DRAWS]
    share_win(g[POINTS : POINTS + players], players, g[UNFINISHED] == 0,
              row[FIRST_SEAT_COL : FIRST_SEAT_COL + players])
    for s in range(players):
        row[seat_column(FIRST_SEAT_COL, players, SCORE_BLOCK, s)] = points(g, s)
        row[seat_column(FIRST_SEAT_COL, players, ROUNDS_WON_BLOCK, s)] = rounds_won(g, s)


@njit(cache=True)
def play_one(seed, index, players, params, strategies, weighted, g, fw, event_rng, choice_rng,
             deck_rng, row, trace, log, seats=None, deal_option=None):
    """Game ``index`` of the run with ``seed``, from its own streams, into ``row`` (``log``:
    a decision log or None; ``seats``: the user seats or None); returns ``ERR_NONE``, or
    ``ERR_USER`` when a user strategy stopped it (``row`` is then not written). ``deal_option``:
    the game's deal option (``play_game``), or None."""
    no_decks = np.zeros((0, 0), np.int64)
    no_actors = np.zeros(0, np.int64)
    no_floats = np.zeros(0, np.float64)
    start_game(seats, seed, index, players, strategies)
    err = play_game(g, fw, seed, index, strategies, params, weighted, event_rng, choice_rng, deck_rng,
                    no_decks, no_actors, no_floats, no_floats, trace, log, seats, deal_option)
    if err == ERR_NONE:
        write_row(g, players, err, row)
    return err


@njit(cache=True, nogil=True)
def play_block(seed, start, players, params, strategies, rows, options, fns, user, block, deal=None):
    """Play every game of ``rows`` in order (game ``start + k`` into ``rows[k]``), allocating
    the working arrays once. The games run on borrowed views (``engine.borrow``) of the
    block's arrays, kept alive here: no reference counting in the per-deal calls.

    ``options``: ``engine.options.kernel_options``' value (``weighted_option``: True when a
    seat plays ``weighted`` / ``tuned``; None: their path is compiled out). ``user``:
    the user strategies (``fns`` and ``user``: ``engine.user_seats``), or None; a fault of one stops
    the block. ``deal``: the deal option ``(replay, rotation)`` (``engine.options``), or left out
    (ordinary runs: compiled out)."""
    owned_g = new_state(players, params)
    owned_fw = new_floats(players, params)
    owned_rng = np.zeros((3, 4), np.uint64)
    g = borrow(owned_g)
    fw = borrow(owned_fw)
    event_rng = borrow(owned_rng[0])
    choice_rng = borrow(owned_rng[1])
    deck_rng = borrow(owned_rng[2])
    seat_strategies = borrow(strategies)
    run_params = borrow(params)  # weighted / tuned read their weights in its tail
    no_decks = np.zeros((0, 0), np.int64)
    no_actors = np.zeros(0, np.int64)
    no_floats = np.zeros(0, np.float64)
    owned_seats = open_seats(fns, user, block, OBS_SIZE, MAX_LEGAL)
    seats = borrow_seats(owned_seats)
    weighted = weighted_option(options)
    for k in range(rows.shape[0]):
        if fns is None:  # (an argument: numba prunes the other branch in runs of built-ins)
            err = play_game(g, fw, seed, start + k, seat_strategies, run_params, weighted, event_rng,
                            choice_rng, deck_rng, no_decks, no_actors, no_floats, no_floats, None, None,
                            deal_option=dealt(deal, seed, start + k))
            write_row(g, players, err, rows[k])
        else:
            start_game(seats, seed, start + k, players, strategies)
            err = play_game(g, fw, seed, start + k, seat_strategies, run_params, weighted, event_rng,
                            choice_rng, deck_rng, no_decks, no_actors, no_floats, no_floats, None,
                            None, seats, dealt(deal, seed, start + k))
            if err != ERR_NONE or stopped(seats):
                break
            write_row(g, players, err, rows[k])
    end_block(seats)
    keep_alive(owned_seats)
    # numba frees an array right after its last use: these uses keep the owners of the
    # borrowed views alive until every game of the block is played
    keep_alive(owned_g)
    keep_alive(owned_fw)
    keep_alive(owned_rng)
    keep_alive(params)


@njit(cache=True)
def trace_one(seed, index, players, params, strategies, row, trace, log, user, options, deal=None):
    """The same game as ``run_chunk`` plays (same streams), recording its events into
    ``trace`` (an empty buffer: none) and its decisions into ``log`` (None: none)
    (``engine/CONTRACT.md``); ``deal`` as for ``play_block``. Returns ``ERR_*``."""
    g = new_state(players, params)
    fw = new_floats(players, params)
    event_rng = np.zeros(4, np.uint64)
    choice_rng = np.zeros(4, np.uint64)
    deck_rng = np.zeros(4, np.uint64)
    if trace.shape[0] > 0:
        trace[0, 0] = 0
    fns, data = user_parts(user)
    seats = open_seats(fns, data, 0, OBS_SIZE, MAX_LEGAL)
    err = play_one(seed, index, players, params, strategies, weighted_option(options), g, fw, event_rng,
                   choice_rng, deck_rng, row, trace, log, seats, dealt(deal, seed, index))
    end_block(seats)
    return err


@njit(cache=True)
def play_script(players, params, strategies, options, decks, actors, waits, choices, row, trace,
                info):
    """Scripted game: explicit round decks (top first), (actor, waiting time) per event and the
    ``random`` seats' uniforms (``options``: ``kernel_options``' value). Returns an ``ERR_*`` code;
    ``info`` gets (event, deal, choices used, decks used)."""
    g = new_state(players, params)
    fw = new_floats(players, params)
    rng = np.zeros(4, np.uint64)
    trace[0, 0] = 0
    g[SCRIPTED] = 1
    err = play_game(g, fw, np.uint64(0), np.int64(0), strategies, params, weighted_option(options),
                    rng, rng, rng, decks, actors, waits, choices, trace, None)
    info[0] = g[ERR_EVENT] if err in (ERR_CANNOT_ACT, ERR_TOO_FEW_CHOICES) else g[EVENT]
    info[1] = g[DEAL]
    info[2] = g[CHOICE]
    info[3] = g[DECK_ROW]
    write_row(g, players, err, row)
    return err

"""Wig Out!'s value: ``V(state, seat)``, the chance that the seat wins from a state, and the luck
ledger's hooks at the game's chance events (docs/luck.md, docs/rules/wigout.md).

**V** has two regimes:

* **the game is over** (the last counted round has just ended: a seat emptied its hand, or a
  deadlock, in the last round): V is the win shares of the final points, exactly (lowest
  total wins, ties share);
* **before**: a conditional logit over features in the words of the rules page, fitted on
  simulated games of one lineup (``montecards value fit wigout``): each seat gets ``z = w .
  f(state, seat)`` and ``V(state, seat) = exp(z_seat) / sum over seats of exp(z)``, so the
  values of a state add up to one win, as the win shares do.

A state whose round has just ended (a seat wigged out, or a deadlock) is read as scored
(``settle``): every other seat's cards in hand are added to its points (rules: End of a
round), the round counts as played, and the hand features are 0 until the next deal.

The features of a seat (``FEATURES``) are fifteen readings of the rules page, each also
multiplied by the share of the rounds played and by "the last round is being played" (the
same points lead decides more the nearer the end), and the seat's place:

* ``points``: the seat's points so far (rules: End of a round; lower wins);
* ``cards in hand``: what the round costs the seat if another seat wigs out now;
* ``characters held``: the fewest actions that can empty the hand (one start or one add per
  character, at best);
* ``singles without a pile``: characters held once with no pile showing them: the seat cannot
  shed them until someone starts a pile or it draws a second copy (rules: Actions);
* ``can play``: the seat has a legal play now (its rate is its speed: rules: Timing model);
* ``piles it can start``: characters held at least twice;
* ``cards in hand x draw pile empty`` and ``singles x draw pile empty``: the same once nobody
  can draw (a stuck seat waits: rules: Actions);
* ``points / sqrt(rounds left)`` and ``cards in hand / sqrt(rounds left)``: the same lead
  weighed against the spread of the rounds still to play (rounds left counting this one);
* ``wigs out with its next play``: the seat holds one character and can play it (a start
  takes every copy held, an add the one card): its next action ends the round;
* ``two plays from wigging out``: two characters held, neither a single without a pile;
* ``no singles without a pile``: every character held can be shed without a draw;
* ``cards in hand x another seat wigs out with its next play``: the points the seat stands to
  take when the round is about to end;
* ``cards in hand x another seat two plays from wigging out``: the same one step earlier.

**The ledger** (``new_ledger``, ``ledger_deal``, ``ledger_before_event``,
``ledger_after_event``, ``ledger_result``): the kernel's ``play_game`` calls these hooks only
when it is handed a ledger (``luck.play_luck_block``: runs with ``--luck``); every other kernel
compiles none of it. Wig Out!'s chance events are each round's deal and every event of the
race:

* an **event** (rules: Timing model): which seat acts is drawn with probability its rate over
  the total rate; a seat with a play makes its strategy's play (``greedy``,
  ``singles_first``, ``weighted``, ``tuned``: deterministic; ``random``: each of its legal
  plays with equal chance), a seat without one draws the top card of the draw pile. The
  expectation is **exact**: the sum over every seat with a positive rate, and for a draw over
  every character of the draw pile weighted by its copies there (the true state's unseen pool,
  ``DECK + DRAWN ..``: the lazy shuffle keeps it there), and for ``random`` over each legal
  play: at most ``players x characters`` values of V an event. The waiting time is drawn too,
  but no result depends on it;
* the **deal** (7 cards to each seat and two starters from 60 cards: too many deals to
  enumerate): an **unbiased sampled estimate**, the mean of V over ``DEAL_SAMPLES`` deals
  drawn from the ledger's own random stream, independent of the game's (the game's streams
  are untouched: a run with ``--luck`` plays the very games of the run without it).

So every random input of a game of built-in strategies has its luck term; the strategies'
own plays are inside the event's expectation, and drift is only what V did not foresee (it
would be 0 for a V that were the true win chance under the lineup's strategies).

At each chance event ``luck += V(after) - E[V(after) | before]`` and ``drift += E[V(after) |
before] - V(previous event)``; at the end ``drift += result - V(last event)``, so that
``result - V(start) = luck + drift`` holds per game and seat (``V(start)``: the lineup's mean
win share in the fit, ``value[VSTART + seat]``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.jit import hot
from montecards.engine.value import (  # the ledger's common part (its accumulator's head)
    ACC_EXPECT,
    ACC_GAME,
    ACC_RATE,
    ACC_V,
    LEDGER_SEATS,
    ledger_step,
    softmax_seats,
)
from montecards.games.wigout.cards import MAX_CHARS, MAX_PLAYERS
from montecards.games.wigout.rules import (
    ADD,
    CHARS,
    DEADLOCK_COUNTS,
    DECK,
    DECK_N,
    DRAWN,
    F_RATE,
    HAND_N,
    P_CHARACTERS,
    P_COPIES,
    PLAYERS,
    ROUND,
    ROUNDS,
    TABLE,
    TABLE_CARDS,
    at,
    count_bits,
    deal,
    draw_pile_size,
    has_play,
    held,
    held_once,
    held_twice,
    hand_size,
    points,
    set_held,
    sorted_deck,
)
from montecards.games.wigout.strategies import RANDOM, TUNED, WEIGHTED, choose_play, random_play, weighted_play
from montecards.rng import uniform

BASE = ("points", "cards in hand", "characters held", "singles without a pile", "can play",
        "piles it can start", "cards in hand x draw pile empty", "singles x draw pile empty",
        "points / sqrt(rounds left)", "cards in hand / sqrt(rounds left)", "wigs out with its next play",
        "two plays from wigging out", "no singles without a pile",
        "cards in hand x another seat wigs out with its next play",
        "cards in hand x another seat two plays from wigging out")
N_BASE = len(BASE)
FEATURES = (
    BASE
    + tuple(f"{name} x rounds played" for name in BASE)
    + tuple(f"{name} x last round" for name in BASE)
    + tuple(f"seat {k}" for k in range(1, MAX_PLAYERS))
)
"""The names of a seat's features, in the order of ``features`` (the fitted weights' order)."""
N_FEATURES = len(FEATURES)
SCORE_ONLY = (0, N_BASE, 2 * N_BASE)
"""The score-only baseline's features (``montecards value fit``): the points alone, with their
two readings by the rounds played (points are 0 through the first round whatever the cards)."""

# the value array (``engine.value``): V(start) per seat, then the weights
VSTART = 0
COEF = MAX_PLAYERS
VALUE_SIZE = COEF + N_FEATURES

DEAL_SAMPLES = 16
"""Deals drawn to estimate E[V(after the deal)] (unbiased: independent of the game's deal)."""
RECORD_SHARE = 0.2
"""Record mode keeps ``rate x RECORD_SHARE`` of the states after an event (a game has ~240
events, Parade ~50 draws: the fit's buffer, sized for Parade, then holds them)."""
# the ledger's float accumulator: the engine's head (``engine.value``: per seat V at the last event,
# luck, drift, expectation, V; the record rate), then the game's own slots
assert MAX_PLAYERS <= LEDGER_SEATS
ACC_FEAT = ACC_GAME
ACC_SIZE = ACC_FEAT + N_FEATURES

# integer scratch: per seat the settled points, then the draw pile's copies per character
INT_POINTS = 0
INT_PILE = MAX_PLAYERS
INT_SIZE = INT_PILE + MAX_CHARS


@njit(cache=True)
def new_recorder(value, capacity, rate, strategies, params):
    """A ledger (``new_ledger``) that records the features of every seat at sampled states (the
    fit's, ``luck.sample_block``) instead of taking luck: ``rate x RECORD_SHARE`` of the states
    after an event or a deal where V is the logit."""
    size = DECK + np.int64(params[P_CHARACTERS]) * np.int64(params[P_COPIES])  # rules.state_size
    ledger = (value, np.zeros(ACC_SIZE, np.float64), np.zeros(size, np.int64), np.zeros(4, np.uint64),
              strategies.copy(), params.copy(),
              np.zeros((capacity, MAX_PLAYERS * N_FEATURES), np.float64), np.zeros(1, np.int64),
              np.zeros(INT_SIZE, np.int64), np.zeros(MAX_PLAYERS, np.float64))
    ledger[1][ACC_RATE] = rate
    return ledger


@njit(cache=True)
def new_ledger(value, strategies, params):
    """A block's ledger: (value array, accumulator, spare state (of the game's size),
    random stream, the seats' strategies, the run's parameters (``weighted`` / ``tuned`` read
    their weights there), record buffer (empty: not recording), record count, integer scratch,
    float scratch). ``value`` is ``engine.value``'s array: V(start) per seat, then the
    weights."""
    return new_recorder(value, 0, 0.0, strategies, params)


@hot
def settle(g, ints):
    """The state as scored if its round has just ended (module docstring): the seats' points
    into ``ints[INT_POINTS:]``; returns (rounds played, round over)."""
    players = g[PLAYERS]
    winner = -1
    for s in range(players):
        if hand_size(g, s) == 0:
            winner = s
    over = winner >= 0
    if not over and draw_pile_size(g) == 0:
        over = True
        for s in range(players):
            if has_play(g, s):
                over = False
                break
    played = g[ROUND]
    if winner >= 0:
        played += 1
    elif over:
        played += g[DEADLOCK_COUNTS]
    for s in range(players):
        ints[INT_POINTS + s] = points(g, s) + (hand_size(g, s) if winner >= 0 else 0)
    return played, over


@hot
def features(g, seat, played, over, ints, out):
    """The seat's ``FEATURES`` into ``out[:N_FEATURES]`` (``played``, ``over``, ``ints``:
    ``settle``'s)."""
    rounds = g[ROUNDS]
    progress = played / rounds
    last = 1.0 if played == rounds - 1 else 0.0
    out[0] = ints[INT_POINTS + seat] / 10.0
    if over:
        for k in range(1, N_BASE):
            out[k] = 0.0
    else:
        once = held_once(g, seat)
        twice = held_twice(g, seat)
        singles = count_bits(once & ~twice & ~g[TABLE])
        empty = 1.0 if draw_pile_size(g) == 0 else 0.0
        cards = hand_size(g, seat) / 10.0
        out[1] = cards
        out[2] = count_bits(once) / 10.0
        out[3] = singles / 10.0
        out[4] = 1.0 if has_play(g, seat) else 0.0
        out[5] = count_bits(twice) / 10.0
        out[6] = cards * empty
        out[7] = singles / 10.0 * empty
    scale = 1.0 / np.sqrt(max(rounds - played, 1))
    out[8] = out[0] * scale
    out[9] = out[1] * scale
    out[10] = 0.0
    out[11] = 0.0
    out[12] = 0.0
    out[13] = 0.0
    out[14] = 0.0
    if not over:
        chars = count_bits(held_once(g, seat))
        free = out[3] == 0.0  # every character held can be shed without a draw
        out[10] = 1.0 if out[4] == 1.0 and chars == 1 else 0.0
        out[11] = 1.0 if free and chars == 2 else 0.0
        out[12] = 1.0 if free else 0.0
        for other in range(g[PLAYERS]):
            if other == seat:
                continue
            others = count_bits(held_once(g, other))
            if has_play(g, other) and others == 1:
                out[13] = out[1]
            if others == 2 and (held_once(g, other) & ~held_twice(g, other) & ~g[TABLE]) == 0:
                out[14] = out[1]
    for k in range(N_BASE):
        out[N_BASE + k] = out[k] * progress
        out[2 * N_BASE + k] = out[k] * last
    for k in range(1, MAX_PLAYERS):
        out[3 * N_BASE + k - 1] = 1.0 if seat == k else 0.0


@hot
def values(g, ledger, out):
    """V of every seat into ``out[:players]``: the final win shares once the game is over, else
    a softmax of the seats' linear scores over their features (``settle``: a round just ended
    reads as scored)."""
    value, acc, ints = ledger[0], ledger[1], ledger[8]
    players = g[PLAYERS]
    played, over = settle(g, ints)
    if over and played >= g[ROUNDS]:
        best = ints[INT_POINTS]
        for s in range(1, players):
            best = min(best, ints[INT_POINTS + s])
        tied = 0
        for s in range(players):
            tied += 1 if ints[INT_POINTS + s] == best else 0
        for s in range(players):
            out[s] = 1.0 / tied if ints[INT_POINTS + s] == best else 0.0
        return
    feats = acc[ACC_FEAT:]
    for s in range(players):
        features(g, s, played, over, ints, feats)
        z = 0.0
        for k in range(N_FEATURES):
            z += value[COEF + k] * feats[k]
        out[s] = z
    softmax_seats(out, players)


@hot
def record_state(g, ledger):
    """Record mode: the features of every seat at this state (where V is the logit), with
    probability ``ACC_RATE x RECORD_SHARE``."""
    acc, rng, record, count, ints = ledger[1], ledger[3], ledger[6], ledger[7], ledger[8]
    played, over = settle(g, ints)
    if (over and played >= g[ROUNDS]) or np.float64(uniform(rng)) >= acc[ACC_RATE] * RECORD_SHARE:
        return
    row = count[0]
    count[0] = row + 1
    if row >= record.shape[0]:
        return  # counted past the buffer: the fit reads the count and plays again with more room
    for s in range(g[PLAYERS]):
        features(g, s, played, over, ints, acc[ACC_FEAT:])
        for k in range(N_FEATURES):
            record[row, s * N_FEATURES + k] = acc[ACC_FEAT + k]


@njit(cache=True)
def ledger_deal(g, ledger):
    """After a deal (its hands and starters): its luck term, against the mean V of
    ``DEAL_SAMPLES`` deals sampled from the ledger's stream on the spare state (the same
    points and rounds, a fresh deck)."""
    acc, spare, rng, record = ledger[1], ledger[2], ledger[3], ledger[6]
    if record.shape[0] > 0:
        record_state(g, ledger)
        return
    players = g[PLAYERS]
    for s in range(players):
        acc[ACC_EXPECT + s] = 0.0
    for k in range(g.shape[0]):
        spare[k] = g[k]
    for _ in range(DEAL_SAMPLES):
        sorted_deck(spare)
        deal(spare, rng, False, None)
        values(spare, ledger, acc[ACC_V:])
        for s in range(players):
            acc[ACC_EXPECT + s] += acc[ACC_V + s] / DEAL_SAMPLES
    values(g, ledger, acc[ACC_V:])
    ledger_step(ledger, players)


@hot
def add_value(spare, ledger, weight):
    """``ACC_EXPECT += weight x V(spare)``."""
    acc = ledger[1]
    values(spare, ledger, acc[ACC_V:])
    for s in range(spare[PLAYERS]):
        acc[ACC_EXPECT + s] += weight * acc[ACC_V + s]


@hot
def seat_play(g, seat, strategy, params, weighted):
    """The play the seat's (deterministic) strategy makes now, as the kernel chooses it."""
    if weighted is not None:
        if strategy == WEIGHTED or strategy == TUNED:
            return weighted_play(g, seat, params)
    return choose_play(g, seat, strategy, 0.0)


@hot
def expect_play(g, spare, seat, play, ledger, weight):
    """``weight x V`` after the seat makes ``play``, on ``spare`` (a copy of ``g``, restored)."""
    c = play >> 1
    n = held(g, seat, c)
    moved = 1 if play & ADD else n
    if not play & ADD:
        spare[TABLE] = g[TABLE] | (np.int64(1) << c)
    set_held(spare, seat, c, n - moved)
    spare[at(HAND_N, seat)] = hand_size(g, seat) - moved
    spare[TABLE_CARDS] = g[TABLE_CARDS] + moved
    add_value(spare, ledger, weight)
    set_held(spare, seat, c, n)
    spare[at(HAND_N, seat)] = hand_size(g, seat)
    spare[TABLE] = g[TABLE]
    spare[TABLE_CARDS] = g[TABLE_CARDS]


@njit(cache=True)
def ledger_before_event(g, fw, total, weighted, ledger):
    """Before an event (``total``: the rates' sum, > 0; each seat's rate at ``fw[F_RATE:]``):
    ``E[V(after)]`` over who acts and what it does (module docstring), exactly, into
    ``ACC_EXPECT``."""
    acc, spare, strategies, params, record, ints = ledger[1], ledger[2], ledger[4], ledger[5], ledger[6], ledger[8]
    if record.shape[0] > 0:
        return
    players = g[PLAYERS]
    for s in range(players):
        acc[ACC_EXPECT + s] = 0.0
    for k in range(g.shape[0]):
        spare[k] = g[k]
    pile = draw_pile_size(g)
    counted = False
    for seat in range(players):
        r = fw[F_RATE + seat]
        if r <= 0.0:
            continue
        p = r / total
        if has_play(g, seat):
            strategy = strategies[seat]
            if strategy == RANDOM:
                n = count_bits(held_twice(g, seat)) + count_bits(held_once(g, seat) & g[TABLE])
                for k in range(n):
                    expect_play(g, spare, seat, random_play(g, seat, (k + 0.5) / n), ledger, p / n)
            else:
                expect_play(g, spare, seat, seat_play(g, seat, strategy, params, weighted), ledger, p)
        else:  # a forced draw: every character of the draw pile, by its copies there
            if not counted:
                for c in range(g[CHARS]):
                    ints[INT_PILE + c] = 0
                for k in range(g[DRAWN], g[DECK_N]):
                    ints[INT_PILE + g[DECK + k]] += 1
                counted = True
            spare[DRAWN] = g[DRAWN] + 1
            spare[at(HAND_N, seat)] = hand_size(g, seat) + 1
            for c in range(g[CHARS]):
                copies = ints[INT_PILE + c]
                if copies == 0:
                    continue
                n = held(g, seat, c)
                set_held(spare, seat, c, n + 1)
                add_value(spare, ledger, p * copies / pile)
                set_held(spare, seat, c, n)
            spare[DRAWN] = g[DRAWN]
            spare[at(HAND_N, seat)] = hand_size(g, seat)


@njit(cache=True)
def ledger_after_event(g, ledger):
    """After an event (a play or a draw): its luck term (record mode: maybe record the state)."""
    if ledger[6].shape[0] > 0:
        record_state(g, ledger)
        return
    values(g, ledger, ledger[1][ACC_V:])
    ledger_step(ledger, g[PLAYERS])


LEDGER_RULES = ("characters", "copies", "hand_size", "rounds", "deadlock_counts_as_round", "speed",
                "draw_time_factor")
"""The rule parameters under which the ledger stays exact at any value (``--luck`` takes them,
``analysis.runs.rules_beyond_ledger``): every one. A deal's term samples deals of the state's
own deck and hand size (``sorted_deck`` and ``deal`` on a copy of the state), a draw's
expectation counts the state's own pile, and the race's timing is drift, not a luck term (it
keeps no chance event of V's). V itself was fitted under the official rules; under others it
removes less variance, it never biases (measured: mean luck |z| < 2 on 10,000-60,000 games of
each of five variants; docs/luck.md)."""

__all__ = ["FEATURES", "N_FEATURES", "VALUE_SIZE", "LEDGER_RULES"]

"""Wig Out! played on from a position: the move analysis' play-outs (montecards issue #32).

A position (``position.py``) is what one seat knows when it acts with a play. ``evaluate``
plays every one of the seat's candidate plays on from it, on common determinizations:
determinization ``d`` deals the seat's unseen cards (every copy not in its hand or on the
table: the other hands, whose sizes are public, and the draw pile) from its own stream, then
every candidate play is made on that same deal and the game is finished by the kernel's own
event loop (``kernel.play_round`` for the rest of this round, then the later rounds as
``kernel.play_game`` deals them) with the same event, choice and deck streams for every play.
The true hidden cards are never read: the template's other hands and draw pile are overwritten
before any play (``fresh``), except for the ``omniscient`` column, which keeps the true hands and
the true draw pile's cards (drawn in random order: the order of the events is random anyway).

Set-up and play are split here rather than in the kernel: ``set_up`` is the position's state
(``position.State``), ``play_from`` the kernel's round loop from a state in the middle of a round.

``value_moves`` is the analysis' value column: V (``value.py``, docs/luck.md) of the seat after
each play, on the same determinizations.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.rows import share_win
from montecards.games.wigout.kernel import DECK_STREAM, load_deck, play_round, weighted_option
from montecards.games.wigout.rules import (
    CHARS,
    DEAL,
    DECK,
    DECK_N,
    DRAWN,
    HAND_N,
    HELD_ONCE,
    HELD_TWICE,
    MAX_DEALS,
    PLAYERS,
    POINTS,
    ROUND,
    ROUNDS,
    UNFINISHED,
    deal,
    end_round,
    hand_size,
    held_at,
    new_floats,
    play_move,
)
from montecards.games.wigout.value import new_ledger, values
from montecards.rng import bounded, seed_stream

EVENT_STREAM = 0
CHOICE_STREAM = 1
DEAL_STREAM = 1_000_000
"""The determinization's stream (the unseen cards' dealing): far above the deck streams
(``kernel.DECK_STREAM + deal``)."""
PILE_STREAM = 1_000_001
"""The current round's draw pile (drawn lazily) in a play-out."""

ERR_NONE = 0


@njit(cache=True)
def refresh_masks(g, seat):
    """The seat's held-once / held-twice masks and hand size from its per-character counts."""
    m1 = np.int64(0)
    m2 = np.int64(0)
    n = np.int64(0)
    for c in range(g[CHARS]):
        k = g[held_at(seat, c)]
        n += k
        if k >= 1:
            m1 |= np.int64(1) << c
            if k >= 2:
                m2 |= np.int64(1) << c
    g[HELD_ONCE + seat] = m1
    g[HELD_TWICE + seat] = m2
    g[HAND_N + seat] = n


@njit(cache=True)
def deal_unseen(g, seat, unseen, n_unseen, buf, rng):
    """Deal the seat's unseen cards (``unseen[:n_unseen]``, characters) uniformly: the other
    seats get as many as they hold now (seat order), the rest is the draw pile (the deck's
    undrawn tail). Every count the seat sees is kept."""
    for k in range(n_unseen):
        buf[k] = unseen[k]
    for k in range(n_unseen - 1, 0, -1):  # Fisher-Yates
        j = bounded(rng, k + 1)
        t = buf[k]
        buf[k] = buf[j]
        buf[j] = t
    m = 0
    for s in range(g[PLAYERS]):
        if s == seat:
            continue
        size = g[HAND_N + s]
        for c in range(g[CHARS]):
            g[held_at(s, c)] = 0
        for _ in range(size):
            g[held_at(s, buf[m])] += 1
            m += 1
        refresh_masks(g, s)
    pile = n_unseen - m
    n = g[DECK_N]
    for k in range(pile):
        g[DECK + n - pile + k] = buf[m + k]
    g[DRAWN] = n - pile


@njit(cache=True)
def play_from(g, fw, seed, index, strategies, params, weighted, event_rng, choice_rng, deck_rng, mover):
    """Finish the game from ``g``, just after ``mover``'s play: the rest of this round by the
    event loop (unless the play wigged the mover out), then every later round as
    ``kernel.play_game`` deals and plays them (decks from the streams of ``seed`` and
    ``index``). Returns an error code of the kernel (0: none)."""
    no_decks = np.zeros((0, 0), np.int64)
    no_actors = np.zeros(0, np.int64)
    no_floats = np.zeros(0, np.float64)
    if hand_size(g, mover) == 0:
        winner = mover
    else:
        winner = play_round(g, fw, strategies, params, weighted, event_rng, choice_rng, deck_rng, False,
                            no_actors, no_floats, no_floats, None, None)
        if winner <= -2:
            return -2 - winner
    end_round(g, winner, 0.0, None)
    while g[ROUND] < g[ROUNDS]:
        if g[DEAL] >= g[MAX_DEALS]:
            g[UNFINISHED] = 1
            break
        load_deck(g, deck_rng, seed, index, False, no_decks)
        deal(g, deck_rng, False, None)
        winner = play_round(g, fw, strategies, params, weighted, event_rng, choice_rng, deck_rng, False,
                            no_actors, no_floats, no_floats, None, None)
        if winner <= -2:
            return -2 - winner
        end_round(g, winner, 0.0, None)
    return ERR_NONE


@njit(cache=True)
def shares_of(g, shares):
    """Every seat's win share (``WIN_UNIT`` units) of a finished game: lowest points win, ties
    share; an unfinished game has no winner."""
    players = g[PLAYERS]
    share_win(g[POINTS : POINTS + players], players, g[UNFINISHED] == 0, shares)


@njit(cache=True)
def evaluate(template, seat, moves, unseen, n_unseen, seed, first, n_dets, strategies, params, options, fresh,
             out):
    """``out[d, m]``: the seat's win share (``WIN_UNIT`` units) when it makes play ``moves[m]``
    (``view`` move ids) on determinization ``first + d`` of the run ``seed``; returns the first
    error code met (0 if none). ``fresh``: deal the unseen cards afresh (a position's evaluation)
    or keep the template's (the omniscient column: the true hands and draw pile)."""
    return evaluate_in(template, seat, moves, unseen, n_unseen, seed, first, n_dets, strategies, params,
                       weighted_option(options), fresh, out)


@njit(cache=True)
def evaluate_in(template, seat, moves, unseen, n_unseen, seed, first, n_dets, strategies, params, weighted,
                fresh, out):
    players = template[PLAYERS]
    w = template.copy()
    g = template.copy()
    fw = new_floats(players, params)
    buf = np.zeros(max(1, n_unseen), np.int64)
    deal_rng = np.zeros(4, np.uint64)
    event0 = np.zeros(4, np.uint64)
    choice0 = np.zeros(4, np.uint64)
    pile0 = np.zeros(4, np.uint64)
    event_rng = np.zeros(4, np.uint64)
    choice_rng = np.zeros(4, np.uint64)
    deck_rng = np.zeros(4, np.uint64)
    shares = np.zeros(players, np.int64)
    failed = 0
    for d in range(n_dets):
        index = first + d
        w[:] = template
        if fresh:
            seed_stream(deal_rng, seed, index, DEAL_STREAM)
            deal_unseen(w, seat, unseen, n_unseen, buf, deal_rng)
        seed_stream(event0, seed, index, EVENT_STREAM)
        seed_stream(choice0, seed, index, CHOICE_STREAM)
        seed_stream(pile0, seed, index, PILE_STREAM)
        for m in range(moves.shape[0]):
            g[:] = w
            event_rng[:] = event0
            choice_rng[:] = choice0
            deck_rng[:] = pile0
            play_move(g, seat, moves[m])
            err = play_from(g, fw, seed, index, strategies, params, weighted, event_rng, choice_rng, deck_rng,
                            seat)
            if err != 0 and failed == 0:
                failed = err
            shares_of(g, shares)
            out[d, m] = shares[seat]
    return failed


@njit(cache=True)
def value_moves(template, seat, moves, unseen, n_unseen, seed, first, n_dets, value, strategies, params, out):
    """``out[d, m]``: V of the seat (a float in [0, 1], ``value.values``) just after it makes play
    ``moves[m]`` on determinization ``first + d`` of the run ``seed``, dealt as ``evaluate``
    deals it. ``value``: ``engine.value``'s array (V(start) per seat, the weights)."""
    ledger = new_ledger(value, strategies, params)
    players = template[PLAYERS]
    w = template.copy()
    g = template.copy()
    buf = np.zeros(max(1, n_unseen), np.int64)
    deal_rng = np.zeros(4, np.uint64)
    vals = np.zeros(players, np.float64)
    for d in range(n_dets):
        w[:] = template
        seed_stream(deal_rng, seed, first + d, DEAL_STREAM)
        deal_unseen(w, seat, unseen, n_unseen, buf, deal_rng)
        for m in range(moves.shape[0]):
            g[:] = w
            play_move(g, seat, moves[m])
            values(g, ledger, vals)
            out[d, m] = vals[seat]


__all__ = ["DECK_STREAM", "deal_unseen", "evaluate", "play_from", "refresh_masks", "shares_of", "value_moves"]

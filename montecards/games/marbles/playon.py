"""Joker Marbles played on from a position: the move analysis' play-outs (montecards issue #32).

A position (``position.py``) is what one seat knows at its decision: the board (every marble
is public), its hand of six cards just after its draw, the discard pile since the last
reshuffle, the turn. ``evaluate`` plays every one of the seat's candidate moves on from it, on
common determinizations: determinization ``d`` deals the seat's unseen cards (every card not in
its hand or the discard pile) from its own stream, five to each other seat in seat order and
the rest to the draw pile (drawn lazily, so its order is the deck stream's), then every
candidate is made on that same deal and the game is finished by ``play_from``, a copy of
``kernel.play_game``'s turn loop that starts at the next seat's turn instead of the deal, with
the same deck and choice streams for every candidate. The true hidden cards are never read
(``fresh``): the template's other hands and draw pile are overwritten before any move, except
for the ``omniscient`` column, which keeps the true hands and the true draw pile's cards (drawn
in random order, as in a run).

Set-up and play are split here rather than in the kernel: the set-up is the position's state
(``position.State``), the play ``play_from``; ``kernel.py`` is not changed, so no game is.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.borrow import borrow_all, keep_alive
from montecards.engine.rows import share_win
from montecards.games.marbles.kernel import (
    P_MAX_TURNS,
    choose_move,
    chosen_move,
    search_space,
    weighted_option,
)
from montecards.games.marbles.moves import WORK_SIZE, gen_hand
from montecards.games.marbles.rules import (
    HAND_SIZE,
    S_DRAWN,
    S_PILE_N,
    S_TURNS,
    S_WON,
    discard_card,
    draw_card,
    hand_insert,
    hand_n_at,
    mover,
    pile_at,
    play_card,
    reshuffle_lazy,
    winner_at,
)
from montecards.games.marbles.search import set_key
from montecards.games.marbles.strategies import score_weight
from montecards.rng import bounded, seed_stream

CHOICE_STREAM = 1
PILE_STREAM = 1_000_001
"""A play-out's draws (the draw pile, drawn lazily, and every reshuffle): far above the run's
streams (``kernel.DECK_STREAM``, ``kernel.CHOICE_STREAM``)."""
DEAL_STREAM = 1_000_000
"""The determinization's stream (the unseen cards' dealing)."""

ERR_NONE = 0


@njit(cache=True)
def deal_unseen(g, seat, players, unseen, n_unseen, buf, rng):
    """Deal the seat's unseen cards (``unseen[:n_unseen]``, card ids) uniformly: five to each
    other seat (seat order; a hand is kept sorted), the rest is the draw pile, which play
    draws lazily (its order does not matter)."""
    for k in range(n_unseen):
        buf[k] = unseen[k]
    for k in range(n_unseen - 1, 0, -1):  # Fisher-Yates
        j = bounded(rng, k + 1)
        t = buf[k]
        buf[k] = buf[j]
        buf[j] = t
    m = 0
    for s in range(players):
        if s == seat:
            continue
        g[hand_n_at(s)] = 0
        for _ in range(HAND_SIZE):
            hand_insert(g, s, buf[m])
            m += 1
    pile = n_unseen - m
    for k in range(pile):
        g[pile_at(k)] = buf[m + k]
    g[S_PILE_N] = pile
    g[S_DRAWN] = 0


@njit(cache=True)
def play_from(g, seat, turn, players, params, strategies, deck_rng, choice_rng, weighted, search):
    """Finish the game from ``g`` at the start of ``seat``'s turn ``turn`` (before its draw):
    ``kernel.play_game``'s turn loop without the deal, the script, the trace, the log and the
    user seats. Returns an ``ERR_*`` code of the kernel."""
    max_turns = np.int64(params[P_MAX_TURNS])
    err = ERR_NONE
    while turn < max_turns:
        g[S_TURNS] = turn
        if g[S_DRAWN] == g[S_PILE_N]:
            reshuffle_lazy(g)
        card = draw_card(g, deck_rng, True)
        hand_insert(g, seat, card)
        owner = mover(g, seat)
        total = gen_hand(g, seat, owner, score_weight(strategies[seat]))
        slot, mv = choose_move(g, seat, owner, total, strategies, params, deck_rng, choice_rng, None, turn,
                               None, None, weighted, search)
        if slot < 0:
            err = -slot
            break
        won = False
        if mv >= 0:
            won = play_card(g, seat, owner, slot, mv, turn, None)
        else:
            discard_card(g, seat, slot, turn, None)
        turn += 1
        if won:
            break
        seat += 1
        if seat == players:
            seat = 0
    g[S_TURNS] = turn
    return err


@njit(cache=True)
def make_choice(g, seat, k):
    """Make choice ``k`` of the seat's legal moves (``view.legal_moves``' order, a discard's
    index when it has none) on ``g`` at its decision; True if it wins the game."""
    owner = mover(g, seat)
    total = gen_hand(g, seat, owner, -1)
    slot, mv = chosen_move(g, seat, total, k)
    if mv >= 0:
        return play_card(g, seat, owner, slot, mv, g[S_TURNS], None)
    discard_card(g, seat, slot, g[S_TURNS], None)
    return False


@njit(cache=True)
def shares_of(g, players, shares):
    """Every seat's win share (``WIN_UNIT`` units) of a finished game (``kernel.write_row``'s):
    the winners share; an unfinished game has no winner."""
    for s in range(players):
        shares[s] = 1 - g[winner_at(s)]
    share_win(shares, players, g[S_WON] != 0, shares)


@njit(cache=True)
def evaluate(template, seat, choices, unseen, n_unseen, seed, first, n_dets, strategies, params, options,
             fresh,
             out):
    """``out[d, m]``: the seat's win share (``WIN_UNIT`` units) when it makes choice
    ``choices[m]`` (an index into its legal moves) on determinization ``first + d`` of the run
    ``seed``; returns the first error code met (0 if none). ``fresh``: deal the unseen cards
    afresh (a position's evaluation) or keep the template's (the omniscient column)."""
    search_owned = search_space(options)
    err = evaluate_in(template, seat, choices, unseen, n_unseen, seed, first, n_dets, strategies, params,
                      weighted_option(options), borrow_all(search_owned), fresh, out)
    keep_alive(search_owned)
    return err


@njit(cache=True)
def evaluate_in(template, seat, choices, unseen, n_unseen, seed, first, n_dets, strategies, params, weighted,
                search, fresh, out):
    players = strategies.shape[0]
    w = np.zeros(WORK_SIZE, np.int64)
    g = np.zeros(WORK_SIZE, np.int64)
    n = template.shape[0]
    buf = np.zeros(max(1, n_unseen), np.int64)
    deal_rng = np.zeros(4, np.uint64)
    choice0 = np.zeros(4, np.uint64)
    pile0 = np.zeros(4, np.uint64)
    choice_rng = np.zeros(4, np.uint64)
    deck_rng = np.zeros(4, np.uint64)
    shares = np.zeros(players, np.int64)
    turn = template[S_TURNS]
    after = seat + 1 if seat + 1 < players else 0
    failed = 0
    for d in range(n_dets):
        index = first + d
        w[:n] = template
        if fresh:
            seed_stream(deal_rng, seed, index, DEAL_STREAM)
            deal_unseen(w, seat, players, unseen, n_unseen, buf, deal_rng)
        seed_stream(choice0, seed, index, CHOICE_STREAM)
        seed_stream(pile0, seed, index, PILE_STREAM)
        for m in range(choices.shape[0]):
            g[:] = w
            choice_rng[:] = choice0
            deck_rng[:] = pile0
            if search is not None:
                set_key(search, seed, index)
            won = make_choice(g, seat, choices[m])
            if not won:
                err = play_from(g, after, turn + 1, players, params, strategies, deck_rng, choice_rng,
                                weighted,
                                search)
                if err != 0 and failed == 0:
                    failed = err
            shares_of(g, players, shares)
            out[d, m] = shares[seat]
    return failed


__all__ = ["deal_unseen", "evaluate", "make_choice", "play_from", "shares_of"]

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

``value_moves`` is the analysis' value column: V (``value.py``, docs/luck.md) of the seat after
each move, on the same determinizations: the exact expectation of V over the next seat's draw
(``value.ledger_before_draw``, after the reshuffle when the draw pile is empty), the win shares
when the move wins, and 0 when the game ends unfinished (``max_turns``). ``search_root`` is the
IS-MCTS root evaluator (``search.py``'s tree at the position's decision); ``ledger_event`` calls
the luck ledger's hooks for a recorded game replayed by ``position.State`` (the review's luck).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.borrow import borrow_all, keep_alive
from montecards.engine.rows import share_win
from montecards.engine.search import REWARD, S_STATS, VISITS, new_tree
from montecards.engine.value import ACC_EXPECT, ACC_V, ledger_start
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
    S_MAX_TURNS,
    S_PILE_N,
    S_TURNS,
    S_WON,
    discard_card,
    draw_card,
    group_of,
    hand_insert,
    hand_n_at,
    mover,
    pile_at,
    play_card,
    reshuffle_lazy,
    winner_at,
)
from montecards.games.marbles.search import (
    HASH_SIZE,
    S_CARDS,
    S_HASH_STAMP,
    S_RNG,
    S_STATES,
    copy_game,
    discard_key,
    find_child,
    iterate,
    move_key,
    new_search_space,
    seed_decision,
    set_key,
    unseen_cards,
)
from montecards.games.marbles.search import deal_unseen as search_deal_unseen
from montecards.games.marbles.strategies import score_weight
from montecards.games.marbles.value import (
    ledger_after_draw,
    ledger_before_draw,
    ledger_deal,
    look_values,
    new_ledger,
)
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


@njit(cache=True)
def value_moves(template, seat, choices, unseen, n_unseen, seed, first, n_dets, value, strategies, params,
                out):
    """``out[d, m]``: V of the seat (a float in [0, 1]) just after it makes choice ``choices[m]``
    on determinization ``first + d`` of the run ``seed``, dealt as ``evaluate`` deals it: the
    exact mean of V over the next seat's draw (the discard pile reshuffled first when the draw
    pile is empty), the win shares when the move wins, 0 when the game then ends unfinished
    (``max_turns``: no winner). ``value``: ``engine.value``'s array."""
    ledger = new_ledger(value, strategies, params)
    acc = ledger[1]
    players = strategies.shape[0]
    w = np.zeros(WORK_SIZE, np.int64)
    g = np.zeros(WORK_SIZE, np.int64)
    n = template.shape[0]
    buf = np.zeros(max(1, n_unseen), np.int64)
    deal_rng = np.zeros(4, np.uint64)
    turn = template[S_TURNS]
    max_turns = template[S_MAX_TURNS]
    after = seat + 1 if seat + 1 < players else 0
    for d in range(n_dets):
        w[:n] = template
        seed_stream(deal_rng, seed, first + d, DEAL_STREAM)
        deal_unseen(w, seat, players, unseen, n_unseen, buf, deal_rng)
        for m in range(choices.shape[0]):
            g[:] = w
            make_choice(g, seat, choices[m])
            if g[S_WON] != 0:
                look_values(g, after, ledger, acc[ACC_V:])
                out[d, m] = acc[ACC_V + seat]
            elif turn + 1 >= max_turns:
                out[d, m] = 0.0
            else:
                g[S_TURNS] = turn + 1
                if g[S_DRAWN] == g[S_PILE_N]:
                    reshuffle_lazy(g)
                ledger_before_draw(g, after, ledger)
                out[d, m] = acc[ACC_EXPECT + seat]


@njit(cache=True)
def search_root(template, seat, choices, iterations, exploration, policy, cutoff, seed, index, visits,
                rewards):
    """The IS-MCTS root evaluator: ``search.py``'s ``ismcts`` at the template's decision (its
    ``search_choice``, the tree keyed by ``seed`` and ``index``), per choice of ``choices`` (an
    index into the seat's legal moves) the root child's visits and summed win shares of the seat,
    into ``visits`` and ``rewards``. The search determinizes the seat's unseen cards itself
    (``search.unseen_cards``, a function of what the seat sees): the template's hidden cards are
    never read. Every decision is searched, even one with a single distinct move."""
    space = new_search_space()
    set_key(space, seed, index)
    g = np.zeros(WORK_SIZE, np.int64)
    g[: template.shape[0]] = template
    owner = mover(g, seat)
    total = gen_hand(g, seat, owner, -1)
    stamps = space[S_HASH_STAMP]
    stamps[HASH_SIZE] += 1
    seed_decision(space, g, seat)
    rng = space[S_RNG][0]
    states = space[S_STATES]
    start = states[0]
    w = states[1]
    copy_game(g, start)
    cards = space[S_CARDS]
    n = unseen_cards(g, seat, cards[0], cards[1])
    n_nodes = new_tree(space)
    for _ in range(iterations):
        copy_game(start, w)
        search_deal_unseen(w, seat, cards[0], n, cards[1], rng)
        n_nodes = iterate(space, w, seat, exploration, policy, cutoff, rng, rng, n_nodes)
    stats = space[S_STATS]
    for m in range(choices.shape[0]):
        slot, mv = chosen_move(g, seat, total, choices[m])
        key = move_key(g, group_of(g, slot), mv) if total > 0 else discard_key(g, group_of(g, slot))
        child = find_child(space, 0, key)
        visits[m] = stats[child, VISITS] if child != 0 else 0.0
        rewards[m] = stats[child, REWARD] if child != 0 else 0.0


LEDGER_DEAL = 0
LEDGER_BEFORE_DRAW = 1
LEDGER_AFTER_DRAW = 2


@njit(cache=True)
def luck_ledger(value, strategies, params, seed, index):
    """The ledger of ``--luck`` (``value.new_ledger``) started for game ``index`` of ``seed``
    (``engine.value.ledger_start``: its own stream, the deal's samples drawn from it)."""
    ledger = new_ledger(value, strategies, params)
    ledger_start(ledger, seed, index)
    return ledger


@njit(cache=True)
def ledger_event(event, g, seat, ledger):
    """The ledger hook ``kernel.play_game`` calls at this point of a game: after the deal
    (``LEDGER_DEAL``), before the seat's draw (after any reshuffle), after it (the card in hand)."""
    if event == LEDGER_DEAL:
        ledger_deal(g, ledger)
    elif event == LEDGER_BEFORE_DRAW:
        ledger_before_draw(g, seat, ledger)
    else:
        ledger_after_draw(g, seat, ledger)


__all__ = ["deal_unseen", "evaluate", "ledger_event", "luck_ledger", "make_choice", "play_from",
           "search_root", "shares_of", "value_moves"]

"""Gift of Tulips played on from a position: the move analysis' play-outs (montecards issue #32).

A position (``position.py``) is what one seat knows when it acts with the card it just drew.
``evaluate`` plays every one of the seat's candidate actions on from it, on common
determinizations: determinization ``d`` deals the seat's unseen cards (the other seats' secret
festival cards, then the rest back as the undrawn cards: draw pile and removed cards together,
drawn from by lazy shuffle) from its own stream with ``search.deal_unseen`` (the very dealing
``ismcts`` uses), then every candidate action is made on that same deal and the game is finished
by ``play_from`` with the same deck, choice and search streams for every action. The true
hidden cards are never read: the template's are overwritten before any action (``fresh``),
except for the ``omniscient`` column, which keeps the true secret cards and undrawn cards (drawn
in random order, as the kernel draws them anyway).

Set-up and play are split here rather than in the kernel (kernel.py is unchanged):
``set_up`` is the position's state (``position.State``), ``play_from`` the kernel's turn loop
(``kernel.play_game``'s, with its ``choose_action``) from the middle of a turn.

The **set-up split** (``evaluate_setup``): determinization ``d`` deals the other seats' two dealt
cards and the undrawn cards from the seat's unseen cards (``deal_unseen`` at set-up); for every
candidate split, on the same streams, the other seats split by their strategies (the kernel's
``choose_setup``, seat by seat, none seeing the seat's split: simultaneous), every split is
placed (``kernel.set_up``'s order) and ``play_from`` plays the game from seat 0's first action.
``search_setup_root`` is ``ismcts``'s own set-up search (flat Monte Carlo over both splits,
``search.py``) with its per-split totals.

``value_moves`` is the analysis' value column: V (``value.py``, docs/luck.md) of the seat after
each action, on the same determinizations: the exact expectation of V over the next draw
(``value.ledger_before_draw``), or of the result over the secret reveal once the pile is empty.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.search import REWARD, S_STATS, VISITS
from montecards.engine.value import ACC_EXPECT, ACC_LUCK, ledger_result, ledger_start
from montecards.games.tulips.kernel import CHOICE_STREAM as CHOICE_STREAM
from montecards.games.tulips.kernel import DECK_STREAM as DECK_STREAM
from montecards.games.tulips.kernel import (
    ERR_NONE,
    FIRST_SEAT_COL,
    choose_action,
    choose_setup,
    majority_option,
    new_work,
    open_weighting,
    play_game,
    search_arg,
    search_space,
    seed_game,
    write_row,
)
from montecards.games.tulips.rules import (
    DECK,
    DRAWN,
    PILE_END,
    PLAYERS,
    SETUP_CHOICE,
    SHARE,
    TURNS,
    action_class,
    apply_action,
    dealt_card,
    final_scores,
    init_tables,
    next_card,
    reveal_secret,
    to_bouquet,
    to_secret,
)
from montecards.games.tulips.search import (
    S_CHILDREN,
    S_TOTALS,
    deal_unseen,
    new_search_space,
    search_action,
    search_setup,
    set_key,
)
from montecards.games.tulips.strategies import SCRIPTED
from montecards.games.tulips.value import (
    ledger_before_draw,
    ledger_before_reveal,
    new_ledger,
)
from montecards.games.tulips.view import NO_CLASS, move_action, move_receiver
from montecards.rng import seed_stream

DEAL_STREAM = 1_000_000
"""The determinization's stream (the unseen cards' dealing), apart from the game's streams."""


@njit(cache=True)
def play_move(g, seat, card, move):
    """The seat's action ``move`` (a ``view`` move id) with ``card``; returns its class."""
    action = move_action(move)
    apply_action(g, seat, card, action, move_receiver(move), None)
    return action_class(action)


@njit(cache=True)
def play_from(g, seat, step, first_class, strategies, deck_rng, choice_rng, weighting, majority, search):
    """Finish the game from ``g``, just after ``seat``'s action number ``step`` (0, 1) of its turn
    (of class ``first_class``): ``kernel.play_game``'s turn loop (its ``choose_action``, the same
    order of draws), then the secret reveal and the scores. Returns an error code of the kernel
    (0: none)."""
    players = g[PLAYERS]
    pile_end = g[PILE_END]
    player = seat
    if step == 0 and g[DRAWN] < pile_end:
        card = next_card(g, deck_rng, True)
        move = choose_action(g, player, 1, card, first_class, strategies[player], deck_rng, choice_rng, None,
                             None, None, weighting, majority, search)
        if move < 0:
            return -move
        play_move(g, player, card, move)
    while True:
        player += 1
        if player == players:
            player = 0
        if g[DRAWN] >= pile_end:
            break
        g[TURNS] += 1
        first = NO_CLASS
        for k in range(2):
            if g[DRAWN] >= pile_end:
                break
            card = next_card(g, deck_rng, True)
            move = choose_action(g, player, k, card, first, strategies[player], deck_rng, choice_rng, None,
                                 None, None, weighting, majority, search)
            if move < 0:
                return -move
            first = play_move(g, player, card, move)
    reveal_secret(g, deck_rng, None, None)
    final_scores(g, None)
    return ERR_NONE


@njit(cache=True)
def evaluate(template, seat, step, first_class, moves, unseen, n_unseen, seed, first, n_dets, strategies,
             params, options, fresh, out):
    """``out[d, m]``: the seat's win share (``WIN_UNIT`` units) when it makes action ``moves[m]``
    (``view`` move ids) with its drawn card on determinization ``first + d`` of the run ``seed``;
    returns the first error code met (0 if none). ``fresh``: deal the unseen cards afresh (a
    position's evaluation) or keep the template's (the omniscient column)."""
    weighting = open_weighting(options, params, template)
    majority = majority_option(options)
    space = search_space(options)
    search = search_arg(space, params)
    w = template.copy()
    g = template.copy()
    buf = np.zeros(max(1, n_unseen), np.int64)
    deal_rng = np.zeros(4, np.uint64)
    deck_rng = np.zeros(4, np.uint64)
    choice_rng = np.zeros(4, np.uint64)
    card = template[DECK + template[DRAWN] - 1]
    failed = 0
    for d in range(n_dets):
        index = first + d
        w[:] = template
        if fresh:
            seed_stream(deal_rng, seed, index, DEAL_STREAM)
            deal_unseen(w, seat, False, unseen, n_unseen, buf, deal_rng)
        for m in range(moves.shape[0]):
            g[:] = w
            seed_game(deck_rng, choice_rng, search, seed, index)  # the same streams for every move
            cls = play_move(g, seat, card, moves[m])
            err = play_from(g, seat, step, cls, strategies, deck_rng, choice_rng,
                            weighting, majority, search)
            if err != 0 and failed == 0:
                failed = err
            out[d, m] = g[SHARE + seat]
    return failed


@njit(cache=True)
def value_moves(template, seat, step, first_class, moves, unseen, n_unseen, seed, first, n_dets, value,
                strategies, params, out):
    """``out[d, m]``: V of the seat (a float in [0, 1]) just after it makes action ``moves[m]`` on
    determinization ``first + d`` of the run ``seed``, dealt as ``evaluate`` deals it: the exact
    mean of V over the next draw (the next action's seat and class), or of the result over the
    secret reveal when the pile is empty. ``value``: ``engine.value``'s array."""
    ledger = new_ledger(value, strategies, params)
    acc = ledger[1]
    players = template[PLAYERS]
    w = template.copy()
    g = template.copy()
    buf = np.zeros(max(1, n_unseen), np.int64)
    deal_rng = np.zeros(4, np.uint64)
    card = template[DECK + template[DRAWN] - 1]
    for d in range(n_dets):
        w[:] = template
        seed_stream(deal_rng, seed, first + d, DEAL_STREAM)
        deal_unseen(w, seat, False, unseen, n_unseen, buf, deal_rng)
        for m in range(moves.shape[0]):
            g[:] = w
            cls = play_move(g, seat, card, moves[m])
            if g[DRAWN] >= g[PILE_END]:
                ledger_before_reveal(g, ledger)
            elif step == 0:
                ledger_before_draw(g, seat, cls, ledger)
            else:
                nxt = seat + 1 if seat + 1 < players else 0
                ledger_before_draw(g, nxt, NO_CLASS, ledger)
            out[d, m] = acc[ACC_EXPECT + seat]


@njit(cache=True)
def search_root(template, seat, step, first_class, moves, iterations, exploration, policy, seed, index,
                visits, rewards):
    """The IS-MCTS root evaluator (``search.py``'s ``ismcts`` at the template's decision, its tree
    keyed by ``seed`` and ``index``): per move of ``moves`` the root child's visits and summed win
    shares of the seat, into ``visits`` and ``rewards``. The search determinizes the seat's unseen
    cards itself (``search.prepare``): the template's hidden cards are never read."""
    space = new_search_space()
    set_key(space, seed, index)
    deck_rng = np.zeros(4, np.uint64)
    g = template.copy()
    search_action(g, seat, step, first_class, False, iterations, exploration, policy, space, deck_rng)
    stats = space[S_STATS]
    children = space[S_CHILDREN]
    for m in range(moves.shape[0]):
        child = children[0, moves[m]]
        visits[m] = stats[child, VISITS] if child != 0 else 0.0
        rewards[m] = stats[child, REWARD] if child != 0 else 0.0




@njit(cache=True)
def split_and_play(g, seat, k, strategies, deck_rng, choice_rng, weighting, majority, search):
    """From the set-up (every seat holding its two dealt cards): ``seat`` puts hand card ``k`` in
    its bouquet, every other seat splits by its strategy (``kernel.choose_setup``, seat by seat,
    before any split is placed), the splits are placed and the game is played from seat 0's first
    action (``play_from``). Returns an error code of the kernel (0: none)."""
    players = g[PLAYERS]
    for s in range(players):
        if s == seat:
            g[SETUP_CHOICE + s] = k
            continue
        c = choose_setup(g, s, strategies[s], deck_rng, choice_rng, None, None, None, weighting, majority,
                         search)
        if c < 0:
            return -c
        g[SETUP_CHOICE + s] = c
    for s in range(players):
        a = dealt_card(g, s, 0)
        b = dealt_card(g, s, 1)
        keep = a if g[SETUP_CHOICE + s] == 0 else b
        to_bouquet(g, s, keep)
        to_secret(g, s, b if keep == a else a)
    g[TURNS] = 0
    return play_from(g, players - 1, 1, NO_CLASS, strategies, deck_rng, choice_rng, weighting, majority,
                     search)


@njit(cache=True)
def evaluate_setup(template, seat, splits, unseen, n_unseen, seed, first, n_dets, strategies, params, options,
                   fresh, out):
    """``out[d, m]``: the seat's win share (``WIN_UNIT`` units) when it puts hand card
    ``splits[m]`` (0, 1) in its bouquet, on determinization ``first + d`` of the run ``seed``
    (``split_and_play``, the same streams for every split); returns the first error code met.
    ``fresh``: deal the other seats' dealt cards and the undrawn cards afresh from ``unseen`` (a
    position's evaluation) or keep the template's (the omniscient column)."""
    weighting = open_weighting(options, params, template)
    majority = majority_option(options)
    space = search_space(options)
    search = search_arg(space, params)
    w = template.copy()
    g = template.copy()
    buf = np.zeros(max(1, n_unseen), np.int64)
    deal_rng = np.zeros(4, np.uint64)
    deck_rng = np.zeros(4, np.uint64)
    choice_rng = np.zeros(4, np.uint64)
    failed = 0
    for d in range(n_dets):
        index = first + d
        w[:] = template
        if fresh:
            seed_stream(deal_rng, seed, index, DEAL_STREAM)
            deal_unseen(w, seat, True, unseen, n_unseen, buf, deal_rng)
        for m in range(splits.shape[0]):
            g[:] = w
            seed_game(deck_rng, choice_rng, search, seed, index)  # the same streams for every split
            err = split_and_play(g, seat, splits[m], strategies, deck_rng, choice_rng, weighting, majority,
                                 search)
            if err != 0 and failed == 0:
                failed = err
            out[d, m] = g[SHARE + seat]
    return failed


@njit(cache=True)
def search_setup_root(template, seat, iterations, policy, seed, index, totals):
    """``ismcts``'s set-up search (``search.search_setup``, its stream keyed by ``seed`` and
    ``index``) at the template's set-up: the summed win shares (``WIN_UNIT`` units) of hand card
    0 and 1 into ``totals``; returns the determinizations each split was played on. The search
    deals the seat's unseen cards itself: the template's hidden cards are never read."""
    space = new_search_space()
    set_key(space, seed, index)
    deck_rng = np.zeros(4, np.uint64)
    g = template.copy()
    search_setup(g, seat, False, iterations, policy, space, deck_rng)
    totals[0] = space[S_TOTALS][0]
    totals[1] = space[S_TOTALS][1]
    return max(1, iterations // 2)


@njit(cache=True)
def luck_of_script(drawing, players, params, opening, setup, decisions, reveal, value, strategies, seed,
                   index, row, luck):
    """A recorded game's luck per seat into ``luck`` (wins), by the ledger of ``--luck`` (``value.py``,
    docs/luck.md) at the very hooks ``kernel.play_game`` calls: the game is the kernel's scripted one
    (``kernel.play_script``'s: ``drawing`` the deck in drawing order, every choice given), its row into
    ``row``. The deal's and the reveal's expectations sample from the ledger's own stream (``seed``,
    game ``index``); ``strategies``: V's lineup (every seat's code). Returns the kernel's error code."""
    g, deck_rng, choice_rng = new_work()
    init_tables(g, players, params)
    for k in range(drawing.shape[0]):
        g[DECK + k] = drawing[k]
    scripted = np.full(players, SCRIPTED, np.int64)
    ledger = new_ledger(value, strategies, params)
    ledger_start(ledger, seed, index)
    err = play_game(g, scripted, deck_rng, choice_rng, None, opening, setup, decisions, reveal, None, None,
                    None, None, None, None, ledger)
    if err == ERR_NONE:
        write_row(g, players, err, row)
        ledger_result(ledger, players, row, FIRST_SEAT_COL)
        for s in range(players):
            luck[s] = ledger[1][ACC_LUCK + s]
    return err


__all__ = ["DEAL_STREAM", "evaluate", "evaluate_setup", "luck_of_script", "play_from", "search_root",
           "search_setup_root", "split_and_play", "value_moves"]

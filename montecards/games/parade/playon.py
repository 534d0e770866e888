"""Parade played on from a position: the move analysis' play-outs (montecards issue #32).

A position (``position.py``) is what one seat knows at one decision. ``evaluate`` plays every
one of the seat's candidate moves on from it, on common determinizations: determinization
``d`` deals the seat's unseen cards (the other hands and the draw pile, ``search.deal_unseen``:
uniform, every count kept; nothing else constrains them in Parade, since no hidden card is
ever shown) from its own stream, then every candidate move is played from that same deal with
the same deck and choice streams, and the game is finished by ``kernel.play_from`` with the
given strategies (the seat's own later decisions by its play-out strategy, the other seats by
theirs). The true hidden cards are never read: the template's other hands and draw pile are
overwritten before any play (``deal``), except for the ``omniscient`` column, which is played
on the true state itself (``deal`` False, the draw pile in its true order: ``lazy`` False).

``value_moves`` is the analysis' value column: V (``value.py``, docs/luck.md) of the seat after
each candidate move on the very determinizations ``evaluate`` plays on (the same deal and deck
streams: the move's draw is the play-out's), so that its mean over them is the information-set
reading of V: the mean of the true-state V over dealings consistent with what the seat knows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.search import REWARD, S_STATS, VISITS
from montecards.engine.spec import WIN_UNIT
from montecards.engine.value import ACC_LUCK, ledger_start
from montecards.games.parade.kernel import (
    find_in_hand,
    new_work,
    play_from,
    rollout_space,
    search_space,
    weighted_option,
)
from montecards.games.parade.rules import (
    DISCARD,
    MARGIN,
    PAIRS,
    PLAYERS,
    STATE_SIZE,
    collection_size,
    finish_turn,
    hand_card,
    keep_cards,
    next_seat,
    play_card,
    seat_score,
    turn_count,
    win_shares,
)
from montecards.games.parade.search import (
    S_CHILDREN,
    S_TOTALS,
    deal_unseen,
    new_search_space,
    search_discard,
    search_play,
    set_key,
)
from montecards.games.parade.strategies import SCRIPTED
from montecards.games.parade.value import (
    ledger_after_turn,
    ledger_before_draw,
    ledger_deal,
    model_discard,
    new_ledger,
    values,
)
from montecards.games.parade.view import DECISION_PLAY
from montecards.rng import seed_stream

DEAL_STREAM = 0
DECK_STREAM = 1
CHOICE_STREAM = 2


@njit(cache=True)
def evaluate(template, seat, kind, moves, unseen, n_unseen, seed, first, n_dets, strategies, params,
             options, deal, lazy, out):
    """``out[d, m]``: the seat's win share (``WIN_UNIT`` units) when it makes move ``m`` on
    determinization ``first + d`` of the run ``seed``; returns the first ``ERR_*`` other than
    ``ERR_NONE`` met (0 if none).

    ``template``: the full state at the decision (``kind``: ``view.DECISION_PLAY`` or
    ``DECISION_DISCARD``); ``moves``: card ids to play, or ``(n, 2)``-shaped pairs of card ids
    to discard (a play's second column is unused); ``unseen[:n_unseen]``: the seat's unseen
    cards in id order; ``deal``: deal them afresh (a position's evaluation) or keep the
    template's (the omniscient column); ``lazy``: draw the pile by lazy shuffle (a dealt pile
    is in id order) or in the template's order (the true order)."""
    return evaluate_in(template, seat, kind, moves, unseen, n_unseen, seed, first, n_dets, strategies,
                       params, deal, lazy, out, rollout_space(options), weighted_option(options),
                       search_space(options))


@njit(cache=True)
def evaluate_in(template, seat, kind, moves, unseen, n_unseen, seed, first, n_dets, strategies, params,
                deal, lazy, out, rollout, weighted, search):
    """``evaluate`` with the optional strategies' spaces as arguments (None: compiled out, as in
    ``kernel.play_block``)."""
    g, deck_rng, choice_rng, seat_tmp, _, _, takings = new_work()
    no_trace = None  # runs record no events (kernel.new_work)
    w = np.zeros(STATE_SIZE, np.int64)
    buf = np.zeros(unseen.shape[0], np.int64)
    deal_rng = np.zeros(4, np.uint64)
    deck0 = np.zeros(4, np.uint64)
    choice0 = np.zeros(4, np.uint64)
    players = template[PLAYERS]
    scores = np.zeros(players, np.int64)
    sizes = np.zeros(players, np.int64)
    shares = np.zeros(players, np.int64)
    script_plays = np.zeros(turn_count(template), np.int64)
    script_discards = np.zeros((players, 2), np.int64)
    discarding = strategies.copy()
    discarding[seat] = SCRIPTED
    failed = 0
    for d in range(n_dets):
        index = first + d
        w[:] = template
        if deal:
            seed_stream(deal_rng, seed, index, DEAL_STREAM)
            deal_unseen(w, seat, unseen, n_unseen, buf, deal_rng)
        seed_stream(deck0, seed, index, DECK_STREAM)
        seed_stream(choice0, seed, index, CHOICE_STREAM)
        for m in range(moves.shape[0]):
            g[:] = w
            deck_rng[:] = deck0
            choice_rng[:] = choice0
            if search is not None:
                set_key(search, seed, index)
            if kind == DECISION_PLAY:
                play_card(g, seat, find_in_hand(g, seat, moves[m, 0]), no_trace)
                done = finish_turn(g, seat, deck_rng, lazy, no_trace)
                err = play_from(
                    g, next_seat(seat, players), done, players, strategies, params, deck_rng, choice_rng,
                    lazy, rollout, weighted, search, seat_tmp, takings, no_trace, script_plays,
                    script_discards,
                )
            else:  # the final discards: the seat's is scripted, the others' chosen by their strategies
                script_discards[seat, 0] = moves[m, 0]
                script_discards[seat, 1] = moves[m, 1]
                err = play_from(
                    g, seat, True, players, discarding, params, deck_rng, choice_rng, lazy, rollout,
                    weighted, search, seat_tmp, takings, no_trace, script_plays, script_discards,
                )
            if err != 0 and failed == 0:
                failed = err
            for s in range(players):
                scores[s] = seat_score(g, s)
                sizes[s] = collection_size(g, s)
            win_shares(scores, sizes, players, shares)
            out[d, m] = shares[seat]
    return failed


@njit(cache=True)
def value_moves(template, seat, kind, moves, pairs, unseen, n_unseen, seed, first, n_dets, value, strategies,
                params, out):
    """``out[d, m]``: V of the seat (a float in [0, 1]) after its move ``m`` on determinization
    ``first + d`` of the run ``seed`` (dealt as ``evaluate`` deals it). A play: the card is
    played and the turn finished with the determinization's draw (``evaluate``'s deck stream),
    then ``value.values`` of the state (V's model of the seats: ``value.new_model`` of
    ``strategies``). The final discard: the seat's pair (``pairs[m]``, an index into
    ``rules.PAIRS``) and the other seats' by V's model, then the win shares of the finished game.
    ``value``: ``engine.value``'s array (V(start) per seat, the weights)."""
    ledger = new_ledger(value, strategies, params)
    model = ledger[11]
    g = np.zeros(STATE_SIZE, np.int64)
    w = np.zeros(STATE_SIZE, np.int64)
    buf = np.zeros(unseen.shape[0], np.int64)
    deal_rng = np.zeros(4, np.uint64)
    deck_rng = np.zeros(4, np.uint64)
    deck0 = np.zeros(4, np.uint64)
    players = template[PLAYERS]
    vals = np.zeros(players, np.float64)
    chosen = np.zeros(players, np.int64)
    for d in range(n_dets):
        index = first + d
        w[:] = template
        seed_stream(deal_rng, seed, index, DEAL_STREAM)
        deal_unseen(w, seat, unseen, n_unseen, buf, deal_rng)
        seed_stream(deck0, seed, index, DECK_STREAM)
        for m in range(moves.shape[0]):
            g[:] = w
            if kind == DECISION_PLAY:
                deck_rng[:] = deck0
                play_card(g, seat, find_in_hand(g, seat, moves[m, 0]), None)
                finish_turn(g, seat, deck_rng, True, None)
                values(g, ledger, vals)
                out[d, m] = vals[seat]
                continue
            for s in range(players):
                chosen[s] = pairs[m] if s == seat else model_discard(g, s, model)
            for s in range(players):
                keep_cards(g, s, chosen[s], None)
            out[d, m] = shares_of(g)[0][seat] / WIN_UNIT


@njit(cache=True)
def luck_of_game(g, plays, value, strategies, params, seed, index, luck):
    """A recorded game's luck per seat into ``luck`` (wins), by the ledger of ``--luck``
    (``value.py``, docs/luck.md) with its hooks where the kernel's ``play_game`` calls them:
    ``g`` is the state just dealt (``rules.set_up`` from the record's deck), ``plays`` every
    turn's card in order (seats in turn from seat 0); the draws read the deck in its recorded
    order. The deal's expectation samples deals from the ledger's own stream (``seed``, game
    ``index``: a run's game ``index`` of ``seed`` gets the very luck of that run with ``--luck``);
    the final discards are no chance event."""
    ledger = new_ledger(value, strategies, params)
    ledger_start(ledger, seed, index)
    players = g[PLAYERS]
    ledger_deal(g, players, g[MARGIN], ledger)
    deck_rng = np.zeros(4, np.uint64)
    seat = 0
    for i in range(plays.shape[0]):
        play_card(g, seat, find_in_hand(g, seat, plays[i]), None)
        ledger_before_draw(g, seat, ledger)
        finish_turn(g, seat, deck_rng, False, None)
        ledger_after_turn(g, ledger)
        seat = next_seat(seat, players)
    for s in range(players):
        luck[s] = ledger[1][ACC_LUCK + s]


@njit(cache=True)
def step_play(g, seat, card, deck_rng, lazy):
    """``mc.state``'s play: ``seat`` plays ``card`` (in its hand), then its draw and the end
    triggers (``rules.finish_turn``); returns True once the last turn has been played."""
    play_card(g, seat, find_in_hand(g, seat, card), None)
    return finish_turn(g, seat, deck_rng, lazy, None)


@njit(cache=True)
def step_discards(g, players):
    """``mc.state``'s final discards, once every seat has chosen (``rules.DISCARD + seat``
    holds its pair index): the other two cards of each seat join its collection."""
    for s in range(players):
        keep_cards(g, s, g[DISCARD + s], np.zeros((0, 4), np.int64))


@njit(cache=True)
def shares_of(g):
    """Every seat's win share (``WIN_UNIT`` units) of a finished game ``g``."""
    players = g[PLAYERS]
    scores = np.zeros(players, np.int64)
    sizes = np.zeros(players, np.int64)
    shares = np.zeros(players, np.int64)
    for s in range(players):
        scores[s] = seat_score(g, s)
        sizes[s] = collection_size(g, s)
    win_shares(scores, sizes, players, shares)
    return shares, scores




@njit(cache=True)
def search_root(template, seat, kind, moves, iterations, exploration, policy, seed, index, visits, rewards):
    """The IS-MCTS root evaluator (``search.py``'s ``ismcts`` at the template's decision, its
    tree keyed by ``seed`` and ``index``): per move of ``moves`` (as ``evaluate`` takes them)
    the root child's visits and summed win shares of the seat (``WIN_UNIT`` units / unit = 1),
    into ``visits`` and ``rewards``. A discard is ``ismcts``' flat search: every pair scored on
    the same ``max(1, iterations // 6)`` determinizations."""
    space = new_search_space()
    set_key(space, seed, index)
    deck_rng = np.zeros(4, np.uint64)
    g = template.copy()
    stats = space[S_STATS]
    if kind == DECISION_PLAY:
        search_play(g, seat, False, iterations, exploration, policy, space, deck_rng)
        children = space[S_CHILDREN]
        for m in range(moves.shape[0]):
            child = children[0, moves[m, 0]]
            visits[m] = stats[child, VISITS] if child != 0 else 0.0
            rewards[m] = stats[child, REWARD] if child != 0 else 0.0
        return
    search_discard(g, seat, False, iterations, space, deck_rng)
    deals = max(1, iterations // PAIRS.shape[0])
    totals = space[S_TOTALS]
    for m in range(moves.shape[0]):
        for p in range(PAIRS.shape[0]):
            a = hand_card(g, seat, PAIRS[p, 0])
            b = hand_card(g, seat, PAIRS[p, 1])
            if (a == moves[m, 0] and b == moves[m, 1]) or (a == moves[m, 1] and b == moves[m, 0]):
                visits[m] = deals
                rewards[m] = totals[0, p] / WIN_UNIT

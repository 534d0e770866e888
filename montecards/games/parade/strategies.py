"""Parade strategies, as integer codes dispatched inside the kernel.

Each strategy sees only what its seat sees at the table (rules: What a strategy may see):
its hand, the parade, every collection, the size of the draw pile and, in the last round,
the turns left. ``rollout`` also uses the set of unseen cards (draw pile and other hands
together), which a player can work out from what is on the table.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.games.parade.cards import N_CARDS, N_COLOURS, colour_of, value_of
from montecards.games.parade.rules import (
    DECK,
    BASE_SCORE,
    DRAWN,
    GAIN_COUNT,
    GAIN_SUM,
    HAND_N,
    MARGIN,
    OTHER_BEST,
    PAIRS,
    PARADE,
    PARADE_N,
    PLAYERS,
    best_other_count,
    colour_score,
    count_at,
    finish_turn,
    hand_at,
    is_taken,
    keep_cards,
    play_card,
    seat_score,
    vsum_at,
)
from montecards.rng import shuffle

RANDOM = 0
GREEDY = 1
ROLLOUT = 2
NAMES = ("random", "greedy", "rollout")
SCRIPTED = -1  # decisions read from a script (play_scripted and the oracle tests)

ROLLOUTS_PER_DECISION = 6
"""Determinizations sampled per decision by ``rollout`` (the same ones for every candidate)."""


@njit(cache=True, inline="always")
def better_card(card, held):
    """Greedy's tie-break between two cards: the higher value, then the lower id."""
    return value_of(card) > value_of(held) or (value_of(card) == value_of(held) and card < held)


@njit(cache=True)
def prepare_scoring(g, seat):
    """Fill ``OTHER_BEST`` and ``BASE_SCORE`` for ``seat``; return its current score."""
    total = 0
    for c in range(N_COLOURS):
        other = best_other_count(g, seat, c)
        g[OTHER_BEST + c] = other
        points = colour_score(g[count_at(seat, c)], g[vsum_at(seat, c)], other, g[MARGIN])
        g[BASE_SCORE + c] = points
        total += points
    return total


@njit(cache=True)
def score_after_play(g, seat, played, current):
    """The seat's score as if the game ended right after playing ``played`` and taking.

    ``current`` is the seat's score now (from ``prepare_scoring``); only the colours the play
    takes change.
    """
    for c in range(N_COLOURS):
        g[GAIN_COUNT + c] = 0
        g[GAIN_SUM + c] = 0
    parade_n = g[PARADE_N]
    for i in range(parade_n - value_of(played)):  # the cards in removal mode
        card = g[PARADE + i]
        if is_taken(card, played, parade_n, i):
            g[GAIN_COUNT + colour_of(card)] += 1
            g[GAIN_SUM + colour_of(card)] += value_of(card)
    total = current
    for c in range(N_COLOURS):
        if g[GAIN_COUNT + c] > 0:
            own_count = g[count_at(seat, c)] + g[GAIN_COUNT + c]
            own_sum = g[vsum_at(seat, c)] + g[GAIN_SUM + c]
            total += colour_score(own_count, own_sum, g[OTHER_BEST + c], g[MARGIN])
            total -= g[BASE_SCORE + c]
    return total


@njit(cache=True)
def greedy_play(g, seat):
    """Hand index of the card minimising the seat's score after taking.

    Ties: the highest value, then the lowest card id.
    """
    current = prepare_scoring(g, seat)
    best = 0
    best_score = score_after_play(g, seat, g[hand_at(seat, 0)], current)
    for k in range(1, g[HAND_N + seat]):
        card = g[hand_at(seat, k)]
        score = score_after_play(g, seat, card, current)
        if score < best_score or (score == best_score and better_card(card, g[hand_at(seat, best)])):
            best = k
            best_score = score
    return best


@njit(cache=True)
def score_keeping(g, seat, a, b):
    """The seat's score if it kept cards ``a`` and ``b`` and the game ended now."""
    total = 0
    for c in range(N_COLOURS):
        own_count = g[count_at(seat, c)]
        own_sum = g[vsum_at(seat, c)]
        for card in (a, b):
            if colour_of(card) == c:
                own_count += 1
                own_sum += value_of(card)
        total += colour_score(own_count, own_sum, best_other_count(g, seat, c), g[MARGIN])
    return total


@njit(cache=True)
def kept_cards(g, seat, pair):
    """The two hand cards kept when the cards of ``PAIRS[pair]`` are discarded, lower id first."""
    a = -1
    b = -1
    for k in range(4):
        if k != PAIRS[pair, 0] and k != PAIRS[pair, 1]:
            if a < 0:
                a = g[hand_at(seat, k)]
            else:
                b = g[hand_at(seat, k)]
    return (a, b) if a < b else (b, a)


@njit(cache=True)
def greedy_discard(g, seat):
    """Index into ``PAIRS`` of the two cards to **discard**.

    The kept pair minimises the seat's score as if the game ended now, against the other
    collections as they stand before the final discard (choices are simultaneous, so nobody's
    kept cards are known). Ties: keep the pair with the lowest ids (compared as sorted pairs).
    """
    best = 0
    best_keep = kept_cards(g, seat, 0)
    best_score = score_keeping(g, seat, best_keep[0], best_keep[1])
    for p in range(1, PAIRS.shape[0]):
        keep = kept_cards(g, seat, p)
        score = score_keeping(g, seat, keep[0], keep[1])
        if score < best_score or (score == best_score and keep < best_keep):
            best = p
            best_score = score
            best_keep = keep
    return best


@njit(cache=True)
def determinize(g, seat, rng, unseen):
    """Deal the unseen cards (draw pile and other hands) afresh, keeping every count."""
    n = 0
    for k in range(g[DRAWN], N_CARDS):
        unseen[n] = g[DECK + k]
        n += 1
    for other in range(g[PLAYERS]):
        if other != seat:
            for k in range(g[HAND_N + other]):
                unseen[n] = g[hand_at(other, k)]
                n += 1
    shuffle(unseen[:n], rng)
    n = 0
    for k in range(g[DRAWN], N_CARDS):
        g[DECK + k] = unseen[n]
        n += 1
    for other in range(g[PLAYERS]):
        if other != seat:
            for k in range(g[HAND_N + other]):
                g[hand_at(other, k)] = unseen[n]
                n += 1


@njit(cache=True)
def play_out_greedy(g, seat, rng, no_trace):
    """Finish the game from ``g`` with every seat greedy (no shuffling: draws in order)."""
    players = g[PLAYERS]
    done = finish_turn(g, seat, rng, False, no_trace)
    while not done:
        seat = (seat + 1) % players
        play_card(g, seat, greedy_play(g, seat), no_trace)
        done = finish_turn(g, seat, rng, False, no_trace)
    pairs = np.empty(players, np.int64)
    for s in range(players):
        pairs[s] = greedy_discard(g, s)
    for s in range(players):
        keep_cards(g, s, pairs[s], no_trace)


@njit(cache=True)
def rollout_play(g, seat, rng, spare, unseen, no_trace):
    """Determinized Monte Carlo: the hand card with the best mean margin over greedy play-outs.

    For each of ``ROLLOUTS_PER_DECISION`` deals of the unseen cards (the same deals for every
    candidate, so candidates are compared on common random numbers), each candidate card is
    played and the game finished with every seat greedy; the margin is the best opponent's
    final score minus the seat's own (higher is better). Ties: greedy's tie-break.
    ``spare`` holds two scratch states (rows 0 and 1).
    """
    sample = spare[0]
    trial = spare[1]
    n_cards = g[HAND_N + seat]
    totals = np.zeros(n_cards, np.int64)
    for _ in range(ROLLOUTS_PER_DECISION):
        sample[:] = g
        determinize(sample, seat, rng, unseen)
        for k in range(n_cards):
            trial[:] = sample
            play_card(trial, seat, k, no_trace)
            play_out_greedy(trial, seat, rng, no_trace)
            best_other = -1
            for other in range(g[PLAYERS]):
                if other != seat:
                    s = seat_score(trial, other)
                    if best_other < 0 or s < best_other:
                        best_other = s
            totals[k] += best_other - seat_score(trial, seat)
    best = 0
    for k in range(1, n_cards):
        if totals[k] > totals[best] or (
            totals[k] == totals[best] and better_card(g[hand_at(seat, k)], g[hand_at(seat, best)])
        ):
            best = k
    return best

"""Parade strategies, as integer codes dispatched inside the kernel.

Each strategy sees only what its seat sees at the table (rules: What a strategy may see):
its hand, the parade, every collection, the size of the draw pile and, in the last round,
the turns left. ``rollout`` also uses the set of unseen cards (draw pile and other hands
together), which a player can work out from what is on the table.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.bits import popcount
from montecards.engine.jit import hot
from montecards.games.parade.cards import N_CARDS, N_COLOURS, N_VALUES, colour_of, value_of
from montecards.games.parade.rules import (
    AT_MOST_MASK,
    BASE_SCORE,
    COLOUR_MASK,
    DECK,
    DISCARD,
    DRAWN,
    HAND_N,
    MARGIN,
    OTHER_BEST,
    PAIRS,
    PARADE,
    PARADE_N,
    PLAYERS,
    VALUE_BIT_MASK,
    VALUE_BITS,
    colour_score,
    count_at,
    fill_other_best,
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


@hot
def prepare_scoring(g, seat):
    """Fill the scratch a decision of ``seat`` needs; return the seat's current score.

    ``OTHER_BEST`` and ``BASE_SCORE`` per colour, and the parade as position masks
    (``COLOUR_MASK``, ``AT_MOST_MASK``, ``VALUE_BIT_MASK``: see ``rules``).
    """
    fill_other_best(g, seat)
    total = 0
    for c in range(N_COLOURS):
        points = colour_score(
            g[count_at(seat, c)], g[vsum_at(seat, c)], g[OTHER_BEST + c], g[MARGIN]
        )
        g[BASE_SCORE + c] = points
        total += points
        g[COLOUR_MASK + c] = 0
    for v in range(N_VALUES):
        g[AT_MOST_MASK + v] = 0
    bits0 = bits1 = bits2 = bits3 = 0  # VALUE_BIT_MASK, kept in registers while built
    for i in range(g[PARADE_N]):
        card = g[PARADE + i]
        value = value_of(card)
        position = np.int64(1) << i
        g[COLOUR_MASK + colour_of(card)] |= position
        g[AT_MOST_MASK + value] |= position  # "exactly": made cumulative below
        bits0 |= position * (value & 1)
        bits1 |= position * ((value >> 1) & 1)
        bits2 |= position * ((value >> 2) & 1)
        bits3 |= position * (value >> 3)
    g[VALUE_BIT_MASK + 0] = bits0
    g[VALUE_BIT_MASK + 1] = bits1
    g[VALUE_BIT_MASK + 2] = bits2
    g[VALUE_BIT_MASK + 3] = bits3
    for v in range(1, N_VALUES):
        g[AT_MOST_MASK + v] |= g[AT_MOST_MASK + v - 1]
    return total


@hot
def score_after_play(g, seat, played, current):
    """The seat's score as if the game ended right after playing ``played`` and taking.

    ``current`` is the seat's score now and the masks come from ``prepare_scoring``. The
    cards taken are a mask: the positions in removal mode (the first ``n - v``) holding the
    played colour or a value ``<= v``; each colour's count and value sum are popcounts, and
    a colour the play takes nothing of keeps its points, so every colour is simply re-scored.
    """
    v = value_of(played)
    in_removal_mode = max(g[PARADE_N] - v, 0)
    taken = ((np.int64(1) << in_removal_mode) - 1) & (
        g[COLOUR_MASK + colour_of(played)] | g[AT_MOST_MASK + v]
    )
    total = current
    for c in range(N_COLOURS):
        taken_c = taken & g[COLOUR_MASK + c]
        gained_sum = 0
        for b in range(VALUE_BITS):
            gained_sum += popcount(taken_c & g[VALUE_BIT_MASK + b]) << b
        own_count = g[count_at(seat, c)] + popcount(taken_c)
        own_sum = g[vsum_at(seat, c)] + gained_sum
        total += colour_score(own_count, own_sum, g[OTHER_BEST + c], g[MARGIN])
        total -= g[BASE_SCORE + c]
    return total


@hot
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


@hot
def score_keeping(g, seat, a, b):
    """The seat's score if it kept cards ``a`` and ``b`` and the game ended now
    (``OTHER_BEST`` filled by ``fill_other_best``)."""
    total = 0
    for c in range(N_COLOURS):
        own_count = g[count_at(seat, c)]
        own_sum = g[vsum_at(seat, c)]
        for card in (a, b):
            if colour_of(card) == c:
                own_count += 1
                own_sum += value_of(card)
        total += colour_score(own_count, own_sum, g[OTHER_BEST + c], g[MARGIN])
    return total


@hot
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


@hot
def greedy_discard(g, seat):
    """Index into ``PAIRS`` of the two cards to **discard**.

    The kept pair minimises the seat's score as if the game ended now, against the other
    collections as they stand before the final discard (choices are simultaneous, so nobody's
    kept cards are known). Ties: keep the pair with the lowest ids (compared as sorted pairs).
    """
    fill_other_best(g, seat)
    best = -1
    best_keep = (0, 0)
    best_score = 0
    for p in range(PAIRS.shape[0]):
        keep = kept_cards(g, seat, p)
        score = score_keeping(g, seat, keep[0], keep[1])
        if best < 0 or score < best_score or (score == best_score and keep < best_keep):
            best = p
            best_score = score
            best_keep = keep
    return best


@hot
def copy_state(source, target):
    """``target[:] = source`` (written as a loop: a ``hot`` function may not allocate)."""
    for i in range(source.shape[0]):
        target[i] = source[i]


@hot
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


@hot
def play_out_greedy(g, seat, rng, no_trace):
    """Finish the game from ``g`` with every seat greedy (no shuffling: draws in order)."""
    players = g[PLAYERS]
    done = finish_turn(g, seat, rng, False, no_trace)
    while not done:
        seat = (seat + 1) % players
        play_card(g, seat, greedy_play(g, seat), no_trace)
        done = finish_turn(g, seat, rng, False, no_trace)
    for s in range(players):  # simultaneous: every choice is made before any is applied
        g[DISCARD + s] = greedy_discard(g, s)
    for s in range(players):
        keep_cards(g, s, g[DISCARD + s], no_trace)


@hot
def rollout_play(g, seat, rng, spare, unseen, totals, no_trace):
    """Determinized Monte Carlo: the hand card with the best mean margin over greedy play-outs.

    For each of ``ROLLOUTS_PER_DECISION`` deals of the unseen cards (the same deals for every
    candidate, so candidates are compared on common random numbers), each candidate card is
    played and the game finished with every seat greedy; the margin is the best opponent's
    final score minus the seat's own (higher is better). Ties: greedy's tie-break.
    ``spare`` holds two scratch states (rows 0 and 1), ``totals`` one margin per hand card.
    """
    sample = spare[0]
    trial = spare[1]
    n_cards = g[HAND_N + seat]
    totals[:n_cards] = 0
    for _ in range(ROLLOUTS_PER_DECISION):
        copy_state(g, sample)
        determinize(sample, seat, rng, unseen)
        for k in range(n_cards):
            copy_state(sample, trial)
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

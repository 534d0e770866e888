"""Parade strategies, as integer codes dispatched inside the kernel.

Each strategy sees only what its seat sees at the table (rules: What a strategy may see):
its hand, the parade, every collection, the size of the draw pile and, in the last round,
the turns left. ``rollout`` also uses the set of unseen cards (draw pile and other hands
together), which a player can work out from what is on the table. ``ismcts`` (``search.py``)
samples the unseen cards the same way; its ``omniscient`` twin alone sees the true state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.jit import hot, hot_inline
from montecards.games.parade.cards import HAND_SIZE, N_CARDS, N_VALUES, VALUE_OF, value_of
from montecards.games.parade.packed import (
    card_count,
    card_tally,
    card_value,
    colour_field,
    majority_threshold,
    packed_score,
    score_against,
    tally_counts,
    tally_sums,
)
from montecards.games.parade.rules import (
    COUNTS,
    DECK,
    DISCARD,
    DRAWN,
    HAND_N,
    MARGIN,
    PAIRS,
    PARADE,
    PARADE_N,
    PLAYERS,
    SCRATCH,
    SUMS,
    at,
    complement,
    finish_turn,
    hand_at,
    keep_cards,
    next_seat,
    other_best,
    play_card,
    removal_end,
    seat_score,
)
from montecards.rng import shuffle

RANDOM = 0
GREEDY = 1
ROLLOUT = 2
ISMCTS = 3  # information-set MCTS, and its twin that sees the true state (``search.py``)
OMNISCIENT = 4
NAMES = ("random", "greedy", "rollout", "ismcts", "omniscient")
SCRIPTED = -1  # decisions read from a script (play_scripted and the oracle tests)

ROLLOUTS_PER_DECISION = 6
"""Determinizations sampled per decision by ``rollout`` (the same ones for every candidate)."""


HAND_INDEX_MASK = 7  # the low bits of greedy's keys: a hand index (< 5) or a PAIRS index (< 6)


TIE_BREAK = np.array(
    [((N_VALUES - 1 - VALUE_OF[card]) << 11) | (card << 3) for card in range(N_CARDS)], np.int64
)
"""Greedy's tie-break as bits 3..15 of its key: the highest value, then the lowest card id."""


@njit(cache=True, inline="always")
def greedy_key(score, card, hand_index):
    """Greedy's order as one integer, smallest best: the lowest score, then the highest value,
    then the lowest card id (``TIE_BREAK``); the hand index rides in the low bits. (Taking the
    minimum of keys compiles without the unpredictable branches of a comparison chain.)"""
    return (score << 16) | TIE_BREAK[np.uint64(card)] | hand_index


# What any play would take from the parade, tabulated once per decision as tallies (``packed``:
# counts and value sums in one word) in the state's scratch
PREFIX = SCRATCH  # [k]: the first k parade cards
BY_VALUE = PREFIX + N_CARDS + 1  # [v]: the cards a play of value v takes by value


@hot_inline
def tabulate_takings(g):
    """Fill the tables from which ``score_after_play`` reads what a play would take.

    A play of value ``v`` takes from the first ``n - v`` parade cards those of its colour
    (``PREFIX[n - v]``, one colour's field of it) and those of value ``<= v``
    (``BY_VALUE[v]``). The card at position ``i`` with value ``w`` is taken by value for
    every ``v`` in ``w .. n - i - 1``: it is added to a difference table at ``w`` and removed
    at ``n - i``, and a running sum over ``v`` gives every ``BY_VALUE[v]`` at once. (Tallies
    add like integers, so the difference table may pass through negative fields.)
    """
    parade_n = g[PARADE_N]
    for v in range(N_VALUES + 1):
        g[BY_VALUE + v] = 0
    running = 0
    g[PREFIX] = 0
    i = 0
    while i < g[PARADE_N]:  # re-read on every pass: not unrolled (see rules.play_card)
        card = g[PARADE + i]
        tally = card_tally(card)
        running += tally
        g[at(PREFIX, i + 1)] = running
        first = value_of(card)
        stop = min(parade_n - i, N_VALUES)  # from this value on, position i is safe
        in_range = -np.int64(first < stop)  # all ones, or zero (branch-free)
        g[at(BY_VALUE, first)] += tally & in_range
        g[at(BY_VALUE, stop)] -= tally & in_range
        i += 1
    for v in range(1, N_VALUES):
        g[BY_VALUE + v] += g[BY_VALUE + v - 1]


@hot
def score_after_play(g, played, counts, sums, threshold):
    """The seat's score as if the game ended right after playing ``played`` and taking.

    ``counts`` and ``sums`` are the seat's collection as packed words, ``threshold`` its
    majority thresholds (``packed.majority_threshold``). What the play takes (rules: Removal)
    comes from the tables of ``tabulate_takings``: in the played colour's field, every card of
    that colour in removal mode; in the other fields, the cards in removal mode of value
    ``<= v``.
    """
    own_colour = colour_field(played)
    gained = (g[at(BY_VALUE, value_of(played))] & ~own_colour) | (
        g[at(PREFIX, removal_end(g[PARADE_N], played))] & own_colour
    )
    return score_against(counts + tally_counts(gained), sums + tally_sums(gained), threshold)


@hot_inline
def greedy_play(g, seat):
    """Hand index of the card minimising the seat's score after taking.

    Ties: the highest value, then the lowest card id. Every one of the ``HAND_SIZE`` hand
    slots is scored (a fixed count: the loop is unrolled, with no branch to mispredict);
    slots past the hand hold stale card ids (hands start zeroed and only ever hold cards),
    and a high bit in their key keeps them from winning.
    """
    tabulate_takings(g)
    counts = g[at(COUNTS, seat)]
    sums = g[at(SUMS, seat)]
    threshold = majority_threshold(other_best(g, seat), g[MARGIN])
    hand_n = g[at(HAND_N, seat)]
    best = np.int64(1) << 62
    for k in range(HAND_SIZE):  # a fixed count, unrolled; slots past the hand never win
        card = g[hand_at(seat, k)]
        score = score_after_play(g, card, counts, sums, threshold)
        best = min(best, greedy_key(score, card, k) | (np.int64(k >= hand_n) << 61))
    return best & HAND_INDEX_MASK


@hot
def score_keeping(g, seat, a, b, others):
    """The seat's score if it kept cards ``a`` and ``b`` and the game ended now (``others``:
    the best other counts, ``rules.other_best``)."""
    counts = g[COUNTS + seat] + card_count(a) + card_count(b)
    sums = g[SUMS + seat] + card_value(a) + card_value(b)
    return packed_score(counts, sums, others, g[MARGIN])


@hot
def greedy_discard(g, seat):
    """Index into ``PAIRS`` of the two cards to **discard**.

    The kept pair minimises the seat's score as if the game ended now, against the other
    collections as they stand before the final discard (choices are simultaneous, so nobody's
    kept cards are known). Ties: keep the pair with the lowest ids (compared as sorted pairs),
    as the minimum of one integer key. The pair kept when ``PAIRS[p]`` is discarded is
    ``PAIRS[complement(p)]``.
    """
    others = other_best(g, seat)
    best = np.int64(1) << 62
    for p in range(PAIRS.shape[0]):
        a = g[hand_at(seat, PAIRS[complement(p), 0])]
        b = g[hand_at(seat, PAIRS[complement(p), 1])]
        score = score_keeping(g, seat, a, b, others)
        best = min(best, (score << 17) | (min(a, b) << 10) | (max(a, b) << 3) | p)
    return best & HAND_INDEX_MASK


@hot
def copy_state(source, target):
    """Copy a game state, not its scratch (a loop: a ``hot`` function may not allocate)."""
    for i in range(SCRATCH):
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
        seat = next_seat(seat, players)
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
    final score minus the seat's own (higher is better). Ties: greedy's tie-break (``greedy_key``).
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
    best = np.int64(1) << 62
    for k in range(n_cards):
        best = min(best, greedy_key(-totals[k], g[hand_at(seat, k)], k))
    return best & HAND_INDEX_MASK

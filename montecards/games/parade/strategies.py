"""Parade strategies, as integer codes dispatched inside the kernel.

Each strategy sees only what its seat sees at the table (rules: What a strategy may see):
its hand, the parade, every collection, the size of the draw pile and, in the last round,
the turns left. ``rollout`` also uses the set of unseen cards (draw pile and other hands
together), which a player can work out from what is on the table. ``weighted`` and ``tuned``
score every move by a weighted sum of the features ``FEATURES`` (docs/strategies/parade.md,
"weighted and tuned: the features"), with the seat's weights read from the run's parameter
vector (``engine.weights``). ``ismcts`` (``search.py``) samples the unseen cards as ``rollout``
does; its ``omniscient`` twin alone sees the true state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.jit import hot, hot_inline
from montecards.engine.weights import weight_index
from montecards.games.parade.cards import HAND_SIZE, N_CARDS, N_VALUES, OPENING_PARADE, VALUE_OF, value_of
from montecards.games.parade.packed import (
    card_count,
    card_tally,
    card_value,
    colour_field,
    every_field_set,
    field_max,
    field_total,
    fields_set,
    majority_fields,
    nonzero_fields,
    majority_threshold,
    packed_score,
    score_against,
    tally_counts,
    tally_sums,
)
from montecards.games.parade.rules import (
    CHOICES,
    DECK,
    DISCARD,
    DISCARDS,
    HAND_FULL,
    deck_size,
    discard_set,
    official_discard,
    PAIRS,
    STATE_SIZE,
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
    taken_mask,
    counts_word,
    deck_card,
    hand_card,
    hand_len,
    last_round_left,
    margin_in_force,
    n_drawn,
    parade_card,
    parade_len,
    player_count,
    sums_word,
)
from montecards.rng import shuffle

RANDOM = 0
GREEDY = 1
ROLLOUT = 2
WEIGHTED = 3
TUNED = 4
ISMCTS = 5  # information-set MCTS, and its twin that sees the true state (``search.py``)
OMNISCIENT = 6
NAMES = ("random", "greedy", "rollout", "weighted", "tuned", "ismcts", "omniscient")
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
# counts and value sums in one word) in the strategies' own per-block array ``t``
# (``new_takings``), not in the rules' state
PREFIX = 0  # [k]: the first k parade cards
BY_VALUE = PREFIX + N_CARDS + 1  # [v]: the cards a play of value v takes by value
TAKINGS_SIZE = BY_VALUE + N_VALUES + 1


@njit(cache=True)
def new_takings():
    """The takings table greedy and weighted fill at each decision (``tabulate_takings``):
    one per block of games, allocated once."""
    return np.zeros(TAKINGS_SIZE, np.int64)


@hot_inline
def tabulate_takings(g, t):
    """Fill the tables from which ``score_after_play`` reads what a play would take.

    A play of value ``v`` takes from the first ``n - v`` parade cards those of its colour
    (``PREFIX[n - v]``, one colour's field of it) and those of value ``<= v``
    (``BY_VALUE[v]``). The card at position ``i`` with value ``w`` is taken by value for
    every ``v`` in ``w .. n - i - 1``: it is added to a difference table at ``w`` and removed
    at ``n - i``, and a running sum over ``v`` gives every ``BY_VALUE[v]`` at once. (Tallies
    add like integers, so the difference table may pass through negative fields.)
    """
    parade_n = parade_len(g)
    for v in range(N_VALUES + 1):
        t[BY_VALUE + v] = 0
    running = 0
    t[PREFIX] = 0
    i = 0
    while i < parade_len(g):  # re-read on every pass: not unrolled (see rules.play_card)
        card = parade_card(g, i)
        tally = card_tally(card)
        running += tally
        t[at(PREFIX, i + 1)] = running
        first = value_of(card)
        stop = min(parade_n - i, N_VALUES)  # from this value on, position i is safe
        in_range = -np.int64(first < stop)  # all ones, or zero (branch-free)
        t[at(BY_VALUE, first)] += tally & in_range
        t[at(BY_VALUE, stop)] -= tally & in_range
        i += 1
    for v in range(1, N_VALUES):
        t[BY_VALUE + v] += t[BY_VALUE + v - 1]


@hot
def score_after_play(t, parade_n, played, counts, sums, threshold):
    """The seat's score as if the game ended right after playing ``played`` and taking.

    ``counts`` and ``sums`` are the seat's collection as packed words, ``threshold`` its
    majority thresholds (``packed.majority_threshold``). What the play takes (rules: Removal)
    comes from the tables ``t`` of ``tabulate_takings`` (for a parade of ``parade_n`` cards):
    in the played colour's field, every card of that colour in removal mode; in the other
    fields, the cards in removal mode of value ``<= v``.
    """
    own_colour = colour_field(played)
    gained = (t[at(BY_VALUE, value_of(played))] & ~own_colour) | (
        t[at(PREFIX, removal_end(parade_n, played))] & own_colour
    )
    return score_against(counts + tally_counts(gained), sums + tally_sums(gained), threshold)


@hot_inline
def greedy_play(g, seat, t):
    """Hand index of the card minimising the seat's score after taking (``t``: the takings
    table, ``new_takings``).

    Ties: the highest value, then the lowest card id. Every one of the ``HAND_SIZE`` hand
    slots is scored (a fixed count: the loop is unrolled, with no branch to mispredict);
    slots past the hand hold stale card ids (hands start zeroed and only ever hold cards),
    and a high bit in their key keeps them from winning.
    """
    tabulate_takings(g, t)
    counts = counts_word(g, seat)
    sums = sums_word(g, seat)
    threshold = majority_threshold(other_best(g, seat), margin_in_force(g))
    hand_n = hand_len(g, seat)
    parade_n = parade_len(g)
    best = np.int64(1) << 62
    for k in range(HAND_SIZE):  # a fixed count, unrolled; slots past the hand never win
        card = hand_card(g, seat, k)
        score = score_after_play(t, parade_n, card, counts, sums, threshold)
        best = min(best, greedy_key(score, card, k) | (np.int64(k >= hand_n) << 61))
    return best & HAND_INDEX_MASK


@hot
def score_keeping(g, seat, a, b, others):
    """The seat's score if it kept cards ``a`` and ``b`` and the game ended now (``others``:
    the best other counts, ``rules.other_best``)."""
    counts = counts_word(g, seat) + card_count(a) + card_count(b)
    sums = sums_word(g, seat) + card_value(a) + card_value(b)
    return packed_score(counts, sums, others, margin_in_force(g))


@hot
def kept_of(g, seat, choice):
    """The cards the seat keeps with the final-discard choice ``choice`` (``rules.discard_set``)
    as ``(counts, sums, ids)``: packed count and value-sum words, and the kept ids sorted as
    7-bit digits, lowest id most significant (a lexicographic order of the sorted kept cards)."""
    gone = discard_set(g, choice)
    n = hand_len(g, seat)
    counts = np.int64(0)
    sums = np.int64(0)
    ids = np.int64(0)
    kept_n = n - g[DISCARDS]
    for k in range(n):
        if not (gone >> k) & 1:
            card = hand_card(g, seat, k)
            counts += card_count(card)
            sums += card_value(card)
            below = 0  # the kept cards with a lower id: this card's place in the sorted list
            for j in range(n):
                if not (gone >> j) & 1 and hand_card(g, seat, j) < card:
                    below += 1
            ids |= card << (7 * (kept_n - 1 - below))
    return counts, sums, ids


@hot
def general_greedy_discard(g, seat):
    """``greedy_discard`` for any final discard (parameters ``hand_size`` and ``discards``): the
    kept cards minimise the score as if the game ended now; ties: keep the cards with the lowest
    ids (compared as sorted lists). Returns an index into the ways of ``rules.discard_set``."""
    others = other_best(g, seat)
    kept_n = hand_len(g, seat) - g[DISCARDS]
    best = np.int64(1) << 62
    for p in range(g[CHOICES]):
        counts, sums, ids = kept_of(g, seat, p)
        score = packed_score(counts_word(g, seat) + counts, sums_word(g, seat) + sums, others,
                             margin_in_force(g))
        best = min(best, (score << (7 * kept_n + 3)) | (ids << 3) | p)
    return best & HAND_INDEX_MASK


@hot_inline
def any_greedy_discard(g, seat):
    """``greedy_discard`` for any final discard: ``PAIRS``' index officially (2 of 4), else
    ``general_greedy_discard``'s (the official function is left as it was, for its speed)."""
    if official_discard(g):
        return greedy_discard(g, seat)
    return general_greedy_discard(g, seat)


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
        a = hand_card(g, seat, PAIRS[complement(p), 0])
        b = hand_card(g, seat, PAIRS[complement(p), 1])
        score = score_keeping(g, seat, a, b, others)
        best = min(best, (score << 17) | (min(a, b) << 10) | (max(a, b) << 3) | p)
    return best & HAND_INDEX_MASK


@hot
def copy_state(source, target):
    """Copy a game state (a loop: a ``hot`` function may not allocate)."""
    for i in range(STATE_SIZE):
        target[i] = source[i]


@hot
def determinize(g, seat, rng, unseen):
    """Deal the unseen cards (draw pile and other hands) afresh, keeping every count."""
    n = 0
    for k in range(n_drawn(g), N_CARDS):
        unseen[n] = deck_card(g, k)
        n += 1
    for other in range(player_count(g)):
        if other != seat:
            for k in range(hand_len(g, other)):
                unseen[n] = hand_card(g, other, k)
                n += 1
    shuffle(unseen[:n], rng)
    n = 0
    for k in range(n_drawn(g), N_CARDS):
        g[DECK + k] = unseen[n]
        n += 1
    for other in range(player_count(g)):
        if other != seat:
            for k in range(hand_len(g, other)):
                g[hand_at(other, k)] = unseen[n]
                n += 1


@hot
def play_out_greedy(g, seat, rng, t, no_trace):
    """Finish the game from ``g`` with every seat greedy (no shuffling: draws in order; ``t``:
    greedy's takings table)."""
    players = player_count(g)
    done = finish_turn(g, seat, rng, False, no_trace)
    while not done:
        seat = next_seat(seat, players)
        play_card(g, seat, greedy_play(g, seat, t), no_trace)
        done = finish_turn(g, seat, rng, False, no_trace)
    for s in range(players):  # simultaneous: every choice is made before any is applied
        g[DISCARD + s] = any_greedy_discard(g, s)
    for s in range(players):
        keep_cards(g, s, g[DISCARD + s], no_trace)


@hot
def rollout_play(g, seat, rng, spare, unseen, totals, t, no_trace):
    """Determinized Monte Carlo: the hand card with the best mean margin over greedy play-outs.

    For each of ``ROLLOUTS_PER_DECISION`` deals of the unseen cards (the same deals for every
    candidate, so candidates are compared on common random numbers), each candidate card is
    played and the game finished with every seat greedy; the margin is the best opponent's
    final score minus the seat's own (higher is better). Ties: greedy's tie-break (``greedy_key``).
    ``spare`` holds two scratch states (rows 0 and 1), ``totals`` one margin per hand card,
    ``t`` greedy's takings table.
    """
    sample = spare[0]
    trial = spare[1]
    n_cards = hand_len(g, seat)
    totals[:n_cards] = 0
    for _ in range(ROLLOUTS_PER_DECISION):
        copy_state(g, sample)
        determinize(sample, seat, rng, unseen)
        for k in range(n_cards):
            copy_state(sample, trial)
            play_card(trial, seat, k, no_trace)
            play_out_greedy(trial, seat, rng, t, no_trace)
            best_other = -1
            for other in range(player_count(g)):
                if other != seat:
                    s = seat_score(trial, other)
                    if best_other < 0 or s < best_other:
                        best_other = s
            totals[k] += best_other - seat_score(trial, seat)
    best = np.int64(1) << 62
    for k in range(n_cards):
        best = min(best, greedy_key(-totals[k], hand_card(g, seat, k), k))
    return best & HAND_INDEX_MASK


# --- weighted and tuned: a weighted sum of features (docs/strategies/parade.md) ---------------

FEATURES = (
    "score_change",
    "cards_taken",
    "points_taken",
    "colours_started",
    "majorities_gained",
    "rival_majorities_broken",
    "rival_score_change",
    "played_value",
    "six_colours_lead",
    "early_cards_taken",
    "early_score_change",
    "next_play_change",
    "last_keep_change",
    "keep_score_change",
    "keep_rival_score_change",
)
"""The features ``weighted`` and ``tuned`` weigh, in weight order: 0-12 score a play, 13-14 a
final discard (docs/strategies/parade.md, "weighted and tuned: the features")."""

F_SCORE_CHANGE = 0
F_CARDS_TAKEN = 1
F_POINTS_TAKEN = 2
F_COLOURS_STARTED = 3
F_MAJORITIES_GAINED = 4
F_RIVAL_MAJORITIES_BROKEN = 5
F_RIVAL_SCORE_CHANGE = 6
F_PLAYED_VALUE = 7
F_SIX_COLOURS_LEAD = 8
F_EARLY_CARDS_TAKEN = 9
F_EARLY_SCORE_CHANGE = 10
F_NEXT_PLAY_CHANGE = 11
F_LAST_KEEP_CHANGE = 12
F_KEEP_SCORE_CHANGE = 13
F_KEEP_RIVAL_SCORE_CHANGE = 14
PLAY_FEATURES = 13
"""Features 0 .. 12 score a play, the rest a final discard."""

DEFAULT_WEIGHTS = (-1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0)
"""``weighted``'s defaults: greedy exactly (minus the score change, same tie-breaks)."""

WEIGHT_BOUNDS = (
    (-3.0, 1.0),  # score_change
    (-2.0, 2.0),  # cards_taken
    (-1.0, 1.0),  # points_taken
    (-3.0, 3.0),  # colours_started
    (-3.0, 3.0),  # majorities_gained
    (-3.0, 3.0),  # rival_majorities_broken
    (-2.0, 2.0),  # rival_score_change
    (-1.0, 1.0),  # played_value
    (-1.0, 1.0),  # six_colours_lead
    (-3.0, 3.0),  # early_cards_taken
    (-2.0, 2.0),  # early_score_change
    (-2.0, 2.0),  # next_play_change
    (-2.0, 2.0),  # last_keep_change
    (-3.0, 1.0),  # keep_score_change
    (-2.0, 2.0),  # keep_rival_score_change
)
"""Per feature the range a tuner searches (wide enough for every sign that makes sense)."""

TUNED_WEIGHTS = (
    -3.0,
    1.0911394493469282,
    -1.0,
    3.0,
    -2.5823766194189575,
    3.0,
    2.0,
    0.5945829132468456,
    1.0,
    3.0,
    -0.20853803779797264,
    -2.0,
    0.7316722334607371,
    -2.453967706518192,
    2.0,
)
"""``tuned``'s weights: the winner of ``python scripts/tune_builtins.py --game parade`` (record:
``docs/tuning/parade.json``), against greedy at 2 players: held out on 100,000 deals x 2
seatings it wins 66.76 % [66.56, 66.96], +16.76 points over ``weighted``'s defaults (paired)."""

NO_RIVAL = np.int64(1) << 30  # above any score (at most 6 x 55 + 10)


@njit(cache=True, inline="always")
def weight(params, seat, k):
    """The seat's weight ``k`` (the weights table at the end of the run's parameter vector)."""
    return params[weight_index(params, seat, k)]


@hot
def rival_standing(g, seat, mine):
    """Against the other seats, if the seat's collection had the packed counts ``mine`` and the
    game ended now: (the lowest score among them, the colours any of them holds in majority as
    a field mask, ``packed.majority_fields``)."""
    players = player_count(g)
    margin = margin_in_force(g)
    lowest = NO_RIVAL
    held = np.int64(0)
    for other in range(players):
        if other != seat:
            against = mine
            for third in range(players):
                if third != seat and third != other:
                    against = field_max(against, counts_word(g, third))
            threshold = majority_threshold(against, margin)
            counts = counts_word(g, other)
            lowest = min(lowest, score_against(counts, sums_word(g, other), threshold))
            held |= majority_fields(counts, threshold)
    return lowest, held


@hot
def next_play_change(g, seat, k, played, taken, counts, sums, after, threshold):
    """Feature ``next_play_change``: the lowest score change among the seat's other hand cards
    played next on the parade that playing hand card ``k`` (``played``, taking ``taken`` cards)
    leaves, with the collection ``counts``/``sums`` it then has (score ``after``). The other
    seats' turns and the seat's draw in between are left out. 0 with no other hand card.

    The parade left is the old one without the cards taken, closed up, and ``played`` at its
    end; a card's new position is the count of cards kept before it.
    """
    parade_n = parade_len(g)
    end = removal_end(parade_n, played)
    left = parade_n - taken + 1
    lowest = NO_RIVAL
    for r in range(hand_len(g, seat)):
        if r != k:
            card = hand_card(g, seat, r)
            stop = max(left - value_of(card), 0)  # new positions before this are in removal mode
            got = card_tally(played) & taken_mask(card, played) & -np.int64(left - 1 < stop)
            j = 0
            for i in range(parade_n):
                old = parade_card(g, i)
                kept = ~(taken_mask(played, old) & -np.int64(i < end))  # all ones, or zero
                got += card_tally(old) & kept & taken_mask(card, old) & -np.int64(j < stop)
                j += kept & 1
            score = score_against(counts + tally_counts(got), sums + tally_sums(got), threshold)
            lowest = min(lowest, score)
    return 0 if lowest == NO_RIVAL else lowest - after


@hot
def last_keep_change(g, seat, k, counts, sums, after, threshold):
    """Feature ``last_keep_change``: the lowest score change of keeping two of the hand cards
    left after playing hand card ``k`` (the seat's final hand, in the last round), from the
    collection ``counts``/``sums`` the play leaves (score ``after``). 0 with fewer than two."""
    hand_n = hand_len(g, seat)
    lowest = NO_RIVAL
    for a in range(hand_n):
        for b in range(a + 1, hand_n):
            if a != k and b != k:
                x = hand_card(g, seat, a)
                y = hand_card(g, seat, b)
                score = score_against(
                    counts + card_count(x) + card_count(y), sums + card_value(x) + card_value(y),
                    threshold,
                )
                lowest = min(lowest, score)
    return 0 if lowest == NO_RIVAL else lowest - after


@hot
def weighted_play(g, seat, params, t):
    """Hand index of the card whose play features (``FEATURES`` 0 .. 12) have the highest
    weighted sum, with the seat's weights; ties: greedy's (the highest value, then the lowest
    card id). A feature of weight 0 is not computed (its term is 0 whatever its value).
    ``t``: the takings table (``new_takings``)."""
    tabulate_takings(g, t)
    counts = counts_word(g, seat)
    sums = sums_word(g, seat)
    threshold = majority_threshold(other_best(g, seat), margin_in_force(g))
    now = score_against(counts, sums, threshold)
    held_now = majority_fields(counts, threshold)
    started_now = nonzero_fields(counts)
    w_score = weight(params, seat, F_SCORE_CHANGE)
    w_taken = weight(params, seat, F_CARDS_TAKEN)
    w_points = weight(params, seat, F_POINTS_TAKEN)
    w_started = weight(params, seat, F_COLOURS_STARTED)
    w_gained = weight(params, seat, F_MAJORITIES_GAINED)
    w_broken = weight(params, seat, F_RIVAL_MAJORITIES_BROKEN)
    w_rival = weight(params, seat, F_RIVAL_SCORE_CHANGE)
    w_value = weight(params, seat, F_PLAYED_VALUE)
    w_six = weight(params, seat, F_SIX_COLOURS_LEAD)
    w_early_taken = weight(params, seat, F_EARLY_CARDS_TAKEN)
    w_early_score = weight(params, seat, F_EARLY_SCORE_CHANGE)
    w_next = weight(params, seat, F_NEXT_PLAY_CHANGE)
    w_last = weight(params, seat, F_LAST_KEEP_CHANGE)
    rivals = w_broken != 0.0 or w_rival != 0.0 or w_six != 0.0
    rival_now = np.int64(0)
    rival_held_now = np.int64(0)
    if rivals:
        rival_now, rival_held_now = rival_standing(g, seat, counts)
    early = (N_CARDS - n_drawn(g)) / max(deck_size(g) - g[HAND_FULL] * player_count(g) - OPENING_PARADE, 1)
    last_round = last_round_left(g) >= 0
    look_next = w_next != 0.0 and not last_round
    look_last = w_last != 0.0 and last_round
    parade_n = parade_len(g)
    best = 0
    best_sum = 0.0
    best_tie = np.int64(0)
    for k in range(hand_len(g, seat)):
        card = hand_card(g, seat, k)
        own_colour = colour_field(card)
        gained = (t[at(BY_VALUE, value_of(card))] & ~own_colour) | (
            t[at(PREFIX, removal_end(parade_n, card))] & own_colour
        )
        got_counts = tally_counts(gained)
        c1 = counts + got_counts
        s1 = sums + tally_sums(gained)
        after = score_against(c1, s1, threshold)
        change = after - now
        taken = field_total(got_counts)
        broken = np.int64(0)
        rival_change = np.int64(0)
        lead = np.int64(0)
        if rivals:
            rival_after, held_after = rival_standing(g, seat, c1)
            broken = fields_set(rival_held_now & ~held_after)
            rival_change = rival_after - rival_now
            if not last_round and every_field_set(c1):  # the play starts the last round
                lead = rival_after - after
        next_change = np.int64(0)
        if look_next:
            next_change = next_play_change(g, seat, k, card, taken, c1, s1, after, threshold)
        last_change = np.int64(0)
        if look_last:
            last_change = last_keep_change(g, seat, k, c1, s1, after, threshold)
        total = (
            w_score * change
            + w_taken * taken
            + w_points * field_total(tally_sums(gained))
            + w_started * fields_set(nonzero_fields(got_counts) & ~started_now)
            + w_gained * fields_set(majority_fields(c1, threshold) & ~held_now)
            + w_broken * broken
            + w_rival * rival_change
            + w_value * value_of(card)
            + w_six * lead
            + w_early_taken * (taken * early)
            + w_early_score * (change * early)
            + w_next * next_change
            + w_last * last_change
        )
        tie = TIE_BREAK[np.uint64(card)]
        if k == 0 or total > best_sum or (total == best_sum and tie < best_tie):
            best = k
            best_sum = total
            best_tie = tie
    return best


@hot
def general_weighted_discard(g, seat, params):
    """``weighted_discard`` over the ways of any final discard (``rules.discard_set``); ties:
    keep the cards with the lowest ids (compared as sorted lists)."""
    counts = counts_word(g, seat)
    sums = sums_word(g, seat)
    threshold = majority_threshold(other_best(g, seat), margin_in_force(g))
    now = score_against(counts, sums, threshold)
    w_keep = weight(params, seat, F_KEEP_SCORE_CHANGE)
    w_rival = weight(params, seat, F_KEEP_RIVAL_SCORE_CHANGE)
    rival_now = np.int64(0)
    if w_rival != 0.0:
        rival_now = rival_standing(g, seat, counts)[0]
    best = 0
    best_sum = 0.0
    best_tie = np.int64(0)
    for p in range(g[CHOICES]):
        kept_counts, kept_sums, tie = kept_of(g, seat, p)
        c1 = counts + kept_counts
        change = score_against(c1, sums + kept_sums, threshold) - now
        rival_change = np.int64(0)
        if w_rival != 0.0:
            rival_change = rival_standing(g, seat, c1)[0] - rival_now
        total = w_keep * change + w_rival * rival_change
        if p == 0 or total > best_sum or (total == best_sum and tie < best_tie):
            best = p
            best_sum = total
            best_tie = tie
    return best


@hot
def weighted_discard(g, seat, params):
    """Index into ``PAIRS`` of the two cards to discard: the kept pair whose features 13 - 14
    (``keep_score_change``, ``keep_rival_score_change``) have the highest weighted sum; ties:
    greedy's (keep the pair with the lowest ids). Any other final discard (parameters
    ``hand_size``, ``discards``): the same over its ways (``rules.discard_set``)."""
    if not official_discard(g):
        return general_weighted_discard(g, seat, params)
    counts = counts_word(g, seat)
    sums = sums_word(g, seat)
    threshold = majority_threshold(other_best(g, seat), margin_in_force(g))
    now = score_against(counts, sums, threshold)
    w_keep = weight(params, seat, F_KEEP_SCORE_CHANGE)
    w_rival = weight(params, seat, F_KEEP_RIVAL_SCORE_CHANGE)
    rival_now = np.int64(0)
    if w_rival != 0.0:
        rival_now = rival_standing(g, seat, counts)[0]
    best = 0
    best_sum = 0.0
    best_tie = np.int64(0)
    for p in range(PAIRS.shape[0]):
        a = hand_card(g, seat, PAIRS[complement(p), 0])
        b = hand_card(g, seat, PAIRS[complement(p), 1])
        c1 = counts + card_count(a) + card_count(b)
        change = score_against(c1, sums + card_value(a) + card_value(b), threshold) - now
        rival_change = np.int64(0)
        if w_rival != 0.0:
            rival_change = rival_standing(g, seat, c1)[0] - rival_now
        total = w_keep * change + w_rival * rival_change
        tie = (min(a, b) << 8) | max(a, b)
        if p == 0 or total > best_sum or (total == best_sum and tie < best_tie):
            best = p
            best_sum = total
            best_tie = tie
    return best

"""Parade's rules as jitted functions over one flat int64 game state (docs/rules/parade.md).

The whole state of a game lives in one int64 array ``g`` (offsets below): one array means
no reference counting between calls, and copying a game (for rollouts) is one memcpy.

* ``DECK``: the 66 card ids; the first ``n_drawn(g)`` are dealt or drawn, in order (top first)
  (a smaller deck, parameters ``colours`` and ``values``, fills the last places: ``set_up``);
* ``HANDS + seat * HAND_SIZE + k`` for ``k < hand_len(g, seat)``: each player's hand;
* ``PARADE + i`` for ``i < parade_len(g)``: the parade, front first, end last;
* ``COUNTS + seat`` / ``SUMS + seat``: each collection as its number of cards and sum of
  printed values per colour (all that scoring needs), one packed word each (``packed``: one
  10-bit field per colour; ``count_of`` and ``sum_of`` read a colour);
* ``DISCARD + seat``: each seat's final-discard choice, made before any is applied.

The strategies keep their working space out of the state, in arrays of their own
(``strategies.new_takings``).

The turn-loop functions are ``hot`` (no reference counting, no allocation) and the removal
loops are branch-free: whether a parade card is taken is data, not control flow, because
the processor cannot predict it.

Readings of the rules page, made once here:

* hand order: a played card's place in hand is taken by the last hand card and a drawn card
  is appended (``play_card``, ``finish_turn``); the order matters only to strategies that
  pick by position (``random``; the legal order of ``view``);
* the final discard is two hand positions (``PAIRS``); the kept cards join the collection
  in hand order; every seat's choice is made before any is applied (``kernel.play_game``);
* a run deals lazily (``next_card``: a Fisher-Yates draw when a card leaves the deck), which
  gives the same deals as shuffling first; a scripted game reads an explicit deck order;
* the end triggers are checked after the turn's draw, six colours first, so a turn that
  fires both records ``SIX_COLOURS``; a trigger in the last round changes nothing;
* scoring "as if the game ended now" (greedy, rollout's margins) uses the other collections
  as they stand and the majority margin in force (``MARGIN``: 0 with 3-6 players).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.jit import hot, hot_inline
from montecards.engine.rows import share_win
from montecards.engine.trace import tracing
from montecards.games.parade.cards import (
    COLOUR_OF,
    FINAL_HAND,
    HAND_SIZE,
    KEPT_AT_END,
    MAX_PLAYERS,
    N_CARDS,
    N_COLOURS,
    N_VALUES,
    OPENING_PARADE,
    VALUE_OF,
    value_of,
)
from montecards.games.parade.packed import (
    card_count,
    card_tally,
    card_value,
    every_field_set,
    field,
    field_max,
    field_total,
    tally_counts,
    tally_sums,
)
from montecards.rng import bounded

DECK = 0
HANDS = DECK + N_CARDS
HAND_N = HANDS + MAX_PLAYERS * HAND_SIZE
PARADE = HAND_N + MAX_PLAYERS
COUNTS = PARADE + N_CARDS
SUMS = COUNTS + MAX_PLAYERS
DRAWN = SUMS + MAX_PLAYERS
PARADE_N = DRAWN + 1
TURNS = DRAWN + 2
LAST_ROUND_LEFT = DRAWN + 3  # turns left in the last round; -1 before it begins
TRIGGER = DRAWN + 4
PLAYERS = DRAWN + 5
MARGIN = DRAWN + 6  # the majority margin in force: two_player_margin with 2 players, else 0
DISCARD = DRAWN + 7
END_COLOURS = DISCARD + MAX_PLAYERS  # colours in a collection that start the last round (6 official)
# the deck's shape, read once from the rule parameters at set-up (``set_up``)
DECK_N = END_COLOURS + 1  # cards in the deck: colours * values (66 official)
HAND_FULL = DECK_N + 1  # cards dealt to each hand (parameter ``hand_size``, 5 official)
FINAL_N = DECK_N + 2  # cards in each hand at the final discard: HAND_FULL - 1 (4 official)
DISCARDS = DECK_N + 3  # cards each seat discards at the end (parameter ``discards``, 2 official)
CHOICES = DECK_N + 4  # the final discard's choices: C(FINAL_N, DISCARDS) (6 official)
DECK_COLOURS = DECK_N + 5  # colours in the deck (parameter ``colours``, 6 official)
DECK_VALUES = DECK_N + 6  # values per colour (parameter ``values``, 11 official)
STATE_SIZE = DECK_VALUES + 1

NO_TRIGGER = 0
SIX_COLOURS = 1
DECK_EMPTY = 2

# trace events: (kind, seat, card, aux); row 0 of a trace buffer holds the event count
EV_DEAL = 0
EV_OPENING = 1
EV_PLAY = 2
EV_TAKE = 3
EV_DRAW = 4
EV_TRIGGER = 5
EV_DISCARD = 6
EV_KEEP = 7
MAX_EVENTS = 512

PAIRS = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]], dtype=np.int64)
"""The 6 ways to choose 2 of the final 4 hand cards (by hand position), listed so that
complements mirror: ``PAIRS[5 - p]`` holds the two positions ``PAIRS[p]`` leaves."""


MAX_CHOICES = PAIRS.shape[0]
"""The most ways to choose the final discard (2 of 4): every final hand has at most 4 cards."""


def _discard_sets() -> tuple[np.ndarray, np.ndarray]:
    """Every final discard as a bit mask of hand positions: ``DISCARD_SETS[m, d, p]`` is the
    ``p``-th way (``itertools.combinations`` order) to discard ``d`` of ``m`` cards;
    ``N_CHOICES[m, d]`` how many ways there are. For 2 of 4 they are ``PAIRS``, in its order."""
    from itertools import combinations

    sets = np.zeros((HAND_SIZE, HAND_SIZE, MAX_CHOICES), np.int64)
    counts = np.zeros((HAND_SIZE, HAND_SIZE), np.int64)
    for m in range(HAND_SIZE):
        for d in range(m + 1):
            ways = list(combinations(range(m), d))
            counts[m, d] = len(ways)
            for p, way in enumerate(ways):
                sets[m, d, p] = sum(1 << k for k in way)
    return sets, counts


DISCARD_SETS, N_CHOICES = _discard_sets()
assert [DISCARD_SETS[4, 2, p] for p in range(6)] == [(1 << a) | (1 << b) for a, b in PAIRS.tolist()]


@njit(cache=True, inline="always")
def official_discard(g):
    """Is the final discard the official one, 2 of 4 cards (``PAIRS``)?"""
    return g[FINAL_N] == 4 and g[DISCARDS] == 2


@njit(cache=True, inline="always")
def discard_set(g, choice):
    """The hand positions (a bit mask) the final-discard choice ``choice`` discards."""
    return DISCARD_SETS[np.uint64(g[FINAL_N]), np.uint64(g[DISCARDS]), np.uint64(choice)]


@njit(cache=True, inline="always")
def deck_size(g):
    """Cards in the deck (``DECK_N``: colours * values, 66 official)."""
    return g[DECK_N]


@njit(cache=True, inline="always")
def complement(pair):
    """The index into ``PAIRS`` of the two positions ``PAIRS[pair]`` leaves."""
    return PAIRS.shape[0] - 1 - pair


# The offsets of per-seat entries are unsigned: numba then indexes without the fix-up for
# negative indices (they are all >= 0), a measurable saving in the turn loop.


@njit(cache=True, inline="always")
def hand_at(seat, k):
    return np.uint64(HANDS + seat * HAND_SIZE + k)


@njit(cache=True, inline="always")
def at(offset, i):
    """State offset ``offset + i`` as an unsigned integer (no negative-index fix-up)."""
    return np.uint64(offset + i)


# Named reads of the state: inlined one-liners on constant offsets, with the unsigned cast
# inside (writes keep ``g[at(...)] = ...``). They compile to the very loads they replace.


@njit(cache=True, inline="always")
def hand_card(g, seat, k):
    """The card at position ``k`` of the seat's hand."""
    return g[hand_at(seat, k)]


@njit(cache=True, inline="always")
def hand_len(g, seat):
    """How many cards the seat holds."""
    return g[at(HAND_N, seat)]


@njit(cache=True, inline="always")
def parade_card(g, i):
    """The parade's card at position ``i`` (0: the front)."""
    return g[at(PARADE, i)]


@njit(cache=True, inline="always")
def parade_len(g):
    """How many cards the parade holds."""
    return g[PARADE_N]


@njit(cache=True, inline="always")
def deck_card(g, k):
    """The ``k``-th card of the deck order (the first ``n_drawn`` are dealt or drawn)."""
    return g[at(DECK, k)]


@njit(cache=True, inline="always")
def n_drawn(g):
    """How many cards of the deck are dealt or drawn."""
    return g[DRAWN]


@njit(cache=True, inline="always")
def counts_word(g, seat):
    """The seat's collection as its packed per-colour counts (``packed``)."""
    return g[at(COUNTS, seat)]


@njit(cache=True, inline="always")
def sums_word(g, seat):
    """The seat's collection as its packed per-colour value sums (``packed``)."""
    return g[at(SUMS, seat)]


@njit(cache=True, inline="always")
def turn_count(g):
    """Turns played so far."""
    return g[TURNS]


@njit(cache=True, inline="always")
def player_count(g):
    return g[PLAYERS]


@njit(cache=True, inline="always")
def margin_in_force(g):
    """The majority margin in force (``two_player_margin`` with 2 players, else 0)."""
    return g[MARGIN]


@njit(cache=True, inline="always")
def last_round_left(g):
    """Turns left in the last round; -1 before it begins."""
    return g[LAST_ROUND_LEFT]


@njit(cache=True, inline="always")
def trigger_of(g):
    """What ended the game: ``NO_TRIGGER``, ``SIX_COLOURS`` or ``DECK_EMPTY``."""
    return g[TRIGGER]


@njit(cache=True, inline="always")
def count_of(g, seat, colour):
    """How many cards of ``colour`` the seat has collected."""
    return field(counts_word(g, seat), colour)


@njit(cache=True, inline="always")
def sum_of(g, seat, colour):
    """The sum of the printed values of the seat's collected cards of ``colour``."""
    return field(sums_word(g, seat), colour)


@njit(cache=True, inline="always")
def collect(g, seat, card):
    """Add ``card`` to the seat's collection."""
    g[COUNTS + seat] += card_count(card)
    g[SUMS + seat] += card_value(card)


@njit(cache=True, inline="always")
def record(trace, kind, seat, card, aux):
    """Append an event to the trace buffer, by ``engine/trace.py``'s rule: a no-op when tracing
    is off (``trace`` None, pruned by numba: runs; or a decision log's empty buffer), counted
    but dropped when the buffer is full (reading it with ``events_of`` then raises). Written out
    here rather than through ``trace_slot``: measured 14,747 against 15,116 instructions per
    2-player ``random`` game (``benchmarks/instructions.py``)."""
    if trace is None:
        return
    if trace.shape[0] == 0:
        return
    k = trace[0, 0] + 1
    trace[0, 0] = k
    if k < trace.shape[0]:
        trace[k, 0] = kind
        trace[k, 1] = seat
        trace[k, 2] = card
        trace[k, 3] = aux


@njit(cache=True, inline="always")
def next_card(g, rng, lazy):
    """The top card of the draw pile: drawn by lazy shuffle from ``rng``, or the next in order."""
    drawn = n_drawn(g)
    if lazy:  # lazy Fisher-Yates over the undrawn part of the deck
        j = DECK + drawn + bounded(rng, N_CARDS - drawn)
        card = g[j]
        g[j] = deck_card(g, drawn)
        g[DECK + drawn] = card
    else:
        card = deck_card(g, drawn)
    g[DRAWN] = drawn + 1
    return card


@hot
def deal_other(g, players, rng, lazy, trace, colours, values, hand):
    """``set_up``'s deal for a deck or hands other than the official: the deck's ``colours *
    values`` cards fill the last places of ``DECK`` (the first ``66 - n`` count as drawn), then
    ``hand`` cards to each seat in blocks."""
    start = N_CARDS - colours * values  # a smaller deck ends where the official one does
    g[DRAWN] = start
    if lazy:
        for c in range(colours):
            for v in range(values):
                g[DECK + start + c * values + v] = c * N_VALUES + v
    for seat in range(players):
        for k in range(hand):
            card = next_card(g, rng, lazy)
            g[hand_at(seat, k)] = card
            record(trace, EV_DEAL, seat, card, k)
        g[HAND_N + seat] = hand


@hot_inline
def set_up(g, players, margin, rng, lazy, trace, opening=OPENING_PARADE, end_colours=N_COLOURS,
           colours=N_COLOURS, values=N_VALUES, hand=HAND_SIZE, discards=HAND_SIZE - 1 - KEPT_AT_END):
    """Deal ``hand`` cards to each seat in blocks, then the ``opening``-card opening parade
    (rules: Setup; parameters ``hand_size``, 5 official, and ``opening_parade``, 6 official).
    ``end_colours``: the colours a collection must hold to start the last round (parameter
    ``end_colours``, at most ``colours``; 6 official). The deck holds the first ``colours``
    colours' cards of values ``0 .. values - 1`` (ids ``11 * colour + value``, in id order);
    ``discards``: the cards each seat discards at the end (2 official). The parameters are
    read here, once, into the state.

    A deck of ``n = colours * values`` cards fills the last ``n`` places of ``DECK`` and the
    first ``66 - n`` count as drawn (``DRAWN``), so the turn loop, the draw and the searches
    read the deck's end as the constant 66 whatever its size. With ``lazy`` the deck is
    shuffled from ``rng`` as cards are needed; otherwise ``g[DECK + 66 - n : DECK + 66]``
    already holds the explicit deck order.
    """
    g[DECK + N_CARDS : STATE_SIZE] = 0
    g[LAST_ROUND_LEFT] = -1
    g[PLAYERS] = players
    g[MARGIN] = margin if players == 2 else 0
    g[END_COLOURS] = min(end_colours, colours)
    g[DECK_N] = colours * values
    g[DECK_COLOURS] = colours
    g[DECK_VALUES] = values
    g[HAND_FULL] = hand
    g[FINAL_N] = hand - 1
    g[DISCARDS] = discards
    g[CHOICES] = N_CHOICES[np.uint64(hand - 1), np.uint64(discards)]
    if colours * values == N_CARDS and hand == HAND_SIZE:
        # the official deck and hands: loops of constant length, as before the parameters (the
        # variable-length loops below cost ~1,000 instructions a game, ``benchmarks/README.md``)
        if lazy:
            for k in range(N_CARDS):
                g[DECK + k] = k
        for seat in range(players):
            for k in range(HAND_SIZE):
                card = next_card(g, rng, lazy)
                g[hand_at(seat, k)] = card
                record(trace, EV_DEAL, seat, card, k)
            g[HAND_N + seat] = HAND_SIZE
    else:
        deal_other(g, players, rng, lazy, trace, colours, values, hand)
    for k in range(opening):
        card = next_card(g, rng, lazy)
        g[PARADE + k] = card
        record(trace, EV_OPENING, -1, card, k)
    g[PARADE_N] = opening


@njit(cache=True)
def rotate_hands(g, players, r):
    """Duplicate deals: the hand dealt to seat s goes to seat (s + r) % players (the opening
    parade stays). Called right after ``set_up``, when every hand holds ``HAND_FULL`` cards; the
    trace's deal events keep the seats the deck dealt to."""
    for _ in range(r):
        for k in range(g[HAND_FULL]):
            last = g[hand_at(players - 1, k)]
            for seat in range(players - 1, 0, -1):
                g[hand_at(seat, k)] = g[hand_at(seat - 1, k)]
            g[hand_at(0, k)] = last


def taken_in_removal_mode(played: int, card: int) -> bool:
    """Removal rule: a parade card in removal mode is taken iff it has the colour of the
    played card or a value ``<= v`` (``v`` the played card's value)."""
    return COLOUR_OF[card] == COLOUR_OF[played] or VALUE_OF[card] <= VALUE_OF[played]


TAKEN = np.array(
    [-int(taken_in_removal_mode(p, c)) for p in range(N_CARDS) for c in range(N_CARDS)], np.int8
)
"""``taken_in_removal_mode`` as a table: ``TAKEN[66 * played + card]`` is -1 (all ones) or 0."""


@njit(cache=True, inline="always")
def taken_mask(played, card):
    """All ones if ``card`` in removal mode is taken by ``played``, else 0 (``TAKEN``).

    A mask rather than a comparison: whether a card is taken is unpredictable, so the
    removal loop uses it as data (``&``), never as a branch.
    """
    return np.int64(TAKEN[np.uint64(N_CARDS * played + card)])


@njit(cache=True, inline="always")
def removal_end(parade_n, played):
    """Positions before this one are in removal mode: all but the last ``v`` parade cards
    (``v`` the played value; none when the parade has ``v`` cards or fewer)."""
    return max(parade_n - value_of(played), 0)


@hot_inline
def play_card(g, seat, hand_index, trace):
    """Play a hand card to the end of the parade and take the cards it removes."""
    played = hand_card(g, seat, hand_index)
    n = hand_len(g, seat) - 1
    g[hand_at(seat, hand_index)] = hand_card(g, seat, n)
    g[at(HAND_N, seat)] = n
    record(trace, EV_PLAY, seat, played, turn_count(g))
    parade_n = parade_len(g)
    end = removal_end(parade_n, played)
    if tracing(trace):
        for i in range(end):
            if taken_mask(played, parade_card(g, i)):
                record(trace, EV_TAKE, seat, parade_card(g, i), 0)
    kept = 0
    takings = 0  # a tally (``packed``): counts and value sums in one word
    # Branch-free: a taken card is overwritten by the next one kept. The bound is re-read on
    # every pass (the stores may change it, as far as the compiler knows), so the loop is not
    # unrolled: an unrolled loop's leftover passes cost a branch the processor mispredicts.
    i = 0
    while i < parade_len(g):
        card = parade_card(g, i)
        in_removal_mode = -np.int64(i < end)  # all ones, or zero: the last v cards are safe
        taken = taken_mask(played, card) & in_removal_mode
        takings += card_tally(card) & taken
        g[at(PARADE, kept)] = card
        kept += 1 + taken
        i += 1
    g[at(COUNTS, seat)] += tally_counts(takings)
    g[at(SUMS, seat)] += tally_sums(takings)
    g[at(PARADE, kept)] = played
    g[PARADE_N] = kept + 1


@hot
def has_six_colours(g, seat):
    """Does the seat's collection hold the colours that start the last round (``END_COLOURS``:
    all six officially, one test on the packed word; fewer by parameter ``end_colours``)?"""
    word = counts_word(g, seat)
    need = g[END_COLOURS]
    if need == N_COLOURS:
        return every_field_set(word)
    held = 0
    for c in range(N_COLOURS):
        if field(word, c) > 0:
            held += 1
    return held >= need


@hot_inline
def finish_turn(g, seat, rng, lazy, trace):
    """Draw (unless the last round has begun), then check the end triggers (rules: End).

    Returns True when the game's last turn has just been played.
    """
    g[TURNS] += 1
    if last_round_left(g) >= 0:
        g[LAST_ROUND_LEFT] -= 1
        return last_round_left(g) == 0
    if n_drawn(g) < N_CARDS:
        card = next_card(g, rng, lazy)
        g[hand_at(seat, hand_len(g, seat))] = card
        g[at(HAND_N, seat)] += 1
        record(trace, EV_DRAW, seat, card, 0)
    trigger = NO_TRIGGER
    if has_six_colours(g, seat):
        trigger = SIX_COLOURS
    elif n_drawn(g) == N_CARDS:
        trigger = DECK_EMPTY
    if trigger != NO_TRIGGER:
        g[TRIGGER] = trigger
        g[LAST_ROUND_LEFT] = player_count(g)  # the next seat .. the triggering seat
        record(trace, EV_TRIGGER, seat, -1, trigger)
    return False


@njit(cache=True, inline="always")
def next_seat(seat, players):
    """The seat to the left: ``(seat + 1) % players`` without a division."""
    following = seat + 1
    return 0 if following == players else following


@hot_inline
def other_best(g, seat):
    """The most cards of each colour in any other seat's collection (a packed word).

    The other seats are visited from the next one round the table, so the loop has no
    test for the seat itself (with 2 players, no loop at all).
    """
    players = player_count(g)
    other = next_seat(seat, players)
    best = counts_word(g, other)
    for _ in range(players - 2):
        other = next_seat(other, players)
        best = field_max(best, counts_word(g, other))
    return best


@njit(cache=True, inline="always")
def colour_score(own_count, own_sum, other_best, margin):
    """Points of one colour: 1 per card in majority, else printed values (rules: Scoring).

    Majority iff ``own_count >= 1`` and ``own_count - other_best >= margin``, where
    ``other_best`` is the opponent's count (2 players, margin = two_player_margin) or the best
    other count (3-6 players, margin 0: every tied player has the majority). Written as one
    comparison, ``own_count >= max(1, other_best + margin)``, so it compiles without a branch.
    """
    in_majority = own_count >= max(1, other_best + margin)
    return own_count if in_majority else own_sum


@hot
def seat_score(g, seat):
    """The seat's score if the game ended now, against the other collections as they stand."""
    best = other_best(g, seat)
    total = 0
    for c in range(N_COLOURS):
        total += colour_score(count_of(g, seat, c), sum_of(g, seat, c), field(best, c), margin_in_force(g))
    return total


@hot
def keep_other(g, seat, pair, trace):
    """``keep_cards`` for a final discard other than 2 of 4: ``pair`` indexes ``discard_set``."""
    gone = discard_set(g, pair)
    for k in range(hand_len(g, seat)):
        discarded = (gone >> k) & 1
        record(trace, EV_DISCARD if discarded else EV_KEEP, seat, hand_card(g, seat, k), 0)
        if not discarded:
            collect(g, seat, hand_card(g, seat, k))
    g[HAND_N + seat] = 0


@hot_inline
def keep_cards(g, seat, pair, trace):
    """Final discard: the hand cards of the choice ``pair`` go, the others are kept.

    Officially (2 of 4) ``pair`` indexes ``PAIRS`` and the kept pair is
    ``PAIRS[complement(pair)]``, so keeping needs no per-card test; otherwise it indexes the
    ways to discard (``discard_set``: a bit mask of hand positions).
    """
    if not official_discard(g):
        keep_other(g, seat, pair, trace)
        return
    if tracing(trace):
        for k in range(hand_len(g, seat)):
            discarded = k == PAIRS[pair, 0] or k == PAIRS[pair, 1]
            record(trace, EV_DISCARD if discarded else EV_KEEP, seat, hand_card(g, seat, k), 0)
    kept = complement(pair)
    collect(g, seat, hand_card(g, seat, PAIRS[kept, 0]))
    collect(g, seat, hand_card(g, seat, PAIRS[kept, 1]))
    g[HAND_N + seat] = 0


@hot
def collection_size(g, seat):
    return field_total(counts_word(g, seat))


@njit(cache=True, inline="always")
def rank(score, size):
    """A seat's place as one integer, lower is better: score, then collection size (< 67)."""
    return score * (N_CARDS + 1) + size


@hot
def win_shares(scores, sizes, players, shares):
    """Lowest score wins; then the fewest cards; still tied: ``WIN_UNIT // k`` each (rules:
    Scoring). Each seat's result key is its ``rank`` (one integer, lowest best), written into
    ``shares`` and shared there by ``engine.rows.share_win``, whose comparisons compile without
    branches (which seat wins is unpredictable).
    """
    for seat in range(players):
        shares[seat] = rank(scores[seat], sizes[seat])
    share_win(shares, players, True, shares)


def new_state() -> np.ndarray:
    """An empty state with the official rule in force (``set_up`` sets the game's own)."""
    g = np.zeros(STATE_SIZE, dtype=np.int64)
    g[END_COLOURS] = N_COLOURS
    g[DECK_N] = N_CARDS
    g[DECK_COLOURS] = N_COLOURS
    g[DECK_VALUES] = N_VALUES
    g[HAND_FULL] = HAND_SIZE
    g[FINAL_N] = FINAL_HAND
    g[DISCARDS] = FINAL_HAND - KEPT_AT_END
    g[CHOICES] = MAX_CHOICES
    return g

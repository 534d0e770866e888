"""Parade's value: ``V(state, seat)``, the chance that the seat wins from a state, and the luck
ledger's hooks at the game's chance events (docs/luck.md).

**V** has three regimes, from the end backwards:

* **the last round** (no draw is left): V is the win shares of the game played to its end by
  V's model of the seats (``play_out``), exact for a lineup of deterministic built-ins;
* **the end in sight** (the model's play at the next turn gives that seat its sixth colour,
  or its draw empties the deck: that draw is the game's last): V is the mean of those
  play-outs over every card the draw can bring (``end_in_sight``);
* **before**: a conditional logit over features in the words of the rules page
  (``docs/rules/parade.md``), read two plays ahead (``look_ahead``: the next two seats play
  the model's card, without drawing), fitted on simulated games of one lineup
  (``montecards value fit parade``): each seat gets ``z = w . f(state, seat)`` and
  ``V(state, seat) = exp(z_seat) / sum over seats of exp(z)``, so the values of a state add
  up to one win, as the win shares do.

V models the next moves with each seat's own strategy where it is a deterministic built-in
(``greedy``, ``weighted``, ``tuned``: ``new_model``), else with ``greedy``: any V keeps the luck-adjusted
estimate unbiased, a V whose model is further from the lineup's play only removes less
variance. The features of a seat (``FEATURES``) are eleven readings of the rules page, each
also multiplied by the deck's progress and by "the last round has begun" (the same score
difference decides more the nearer the end), and the seat's place:

* ``score``: the seat's score if the game ended now (rules: Scoring, majorities included);
* ``cards collected``: the tie-break (rules: Scoring);
* ``best play``: the fewest points a play from the seat's hand would add now (rules: A turn,
  Removal: the card that takes least from the parade as it stands);
* ``two lowest in hand``: the sum of the two lowest printed values in the seat's hand (the
  final discard keeps two of the four last cards; rules: End of the game);
* ``plays next`` and ``plays next x parade``: the seat plays the next turn, and that times the
  parade's length / 10 (a long parade takes more);
* ``colours in majority``: colours in which the seat holds the majority now;
* ``hand values``: the sum of the printed values in the seat's hand;
* ``colours collected``: how near the seat is to the six-colours trigger (rules: End);
* ``points saved by majorities``: over the colours in majority, printed values minus cards
  (what losing those majorities would cost);
* ``points one card from a majority``: the same over the colours one card short of it.

**The ledger** (``new_ledger``, ``ledger_deal``, ``ledger_before_draw``, ``ledger_after_turn``,
``ledger_close``): the kernel's ``play_game`` calls these hooks only when it is handed a
ledger (``luck.play_luck_block``: runs with ``--luck``); every other kernel compiles none of
it. Parade's chance events are the deal and every draw:

* a **draw**: the expectation is **exact**: every card of the remaining deck (the true
  state's unseen pool, ``DECK + n_drawn .. DECK + 66``: the lazy shuffle keeps it there) is
  put on top of a spare copy of the state in turn, the turn is finished with it
  (``rules.finish_turn``, reading the deck in order) and V is evaluated: at most 55 values
  a draw;
* the **deal** (25-41 cards from 66: too many deals to enumerate): an **unbiased sampled
  estimate**, the mean of V over ``DEAL_SAMPLES`` deals drawn from the ledger's own random
  stream, independent of the game's (the game's streams are untouched: a run with ``--luck``
  plays the very games of the run without it).

At each chance event ``luck += V(after) - E[V(after) | before]`` and ``drift += E[V(after) |
before] - V(previous event)``; at the end ``drift += result - V(last event)``, so that
``result - V(start) = luck + drift`` holds per game and seat (``V(start)``: the lineup's mean
win share in the fit, ``value[VSTART + seat]``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.jit import hot
from montecards.engine.spec import WIN_UNIT
from montecards.engine.value import (  # the ledger's common part (its accumulator's head)
    ACC_EXPECT,
    ACC_GAME,
    ACC_RATE,
    ACC_V,
    LEDGER_SEATS,
    ledger_step,
    softmax_seats,
)
from montecards.games.parade.cards import HAND_SIZE, MAX_PLAYERS, N_CARDS, N_COLOURS, VALUE_OF
from montecards.games.parade.packed import (
    field,
    fields_set,
    majority_fields,
    majority_threshold,
    nonzero_fields,
)
from montecards.games.parade.rules import (
    DECK_COLOURS,
    DECK_VALUES,
    DISCARDS,
    END_COLOURS,
    HAND_FULL,
    PARADE_N,
    deck_size,
    DECK,
    DRAWN,
    HAND_N,
    LAST_ROUND_LEFT,
    STATE_SIZE,
    TRIGGER,
    TURNS,
    collection_size,
    counts_word,
    finish_turn,
    hand_card,
    hand_len,
    has_six_colours,
    keep_cards,
    last_round_left,
    margin_in_force,
    n_drawn,
    other_best,
    parade_len,
    play_card,
    player_count,
    seat_score,
    set_up,
    sums_word,
    win_shares,
)
from montecards.games.parade.strategies import (
    GREEDY,
    TUNED,
    WEIGHTED,
    any_greedy_discard,
    greedy_play,
    new_takings,
    score_after_play,
    tabulate_takings,
    weighted_discard,
    weighted_play,
)
from montecards.rng import uniform

BASE = ("score", "cards collected", "best play", "two lowest in hand", "plays next",
        "plays next x parade", "colours in majority", "hand values", "colours collected",
        "points saved by majorities", "points one card from a majority")
N_BASE = len(BASE)
FEATURES = (
    BASE
    + tuple(f"{name} x deck progress" for name in BASE)
    + tuple(f"{name} x last round" for name in BASE)
    + tuple(f"seat {k}" for k in range(1, MAX_PLAYERS))
)
"""The names of a seat's features, in the order of ``features`` (the fitted weights' order)."""
N_FEATURES = len(FEATURES)
SCORE_ONLY = (0,)
"""The score-only baseline's features (``montecards value fit --baseline``): the score alone."""

# the value array (``engine.value``): V(start) per seat, then the weights
VSTART = 0
COEF = MAX_PLAYERS
VALUE_SIZE = COEF + N_FEATURES

DEAL_SAMPLES = 8
"""Deals drawn to estimate E[V(after the deal)] (unbiased: independent of the game's deal)."""
# the ledger's float accumulator: the engine's head (``engine.value``: per seat V at the last event,
# luck, drift, expectation, V; the record rate), then the game's own slots
assert MAX_PLAYERS <= LEDGER_SEATS
ACC_FEAT = ACC_GAME
ACC_DREW = ACC_FEAT + N_FEATURES  # 1.0 when ledger_before_draw saw a draw coming
ACC_SIZE = ACC_DREW + 1


MODEL_GREEDY = 0
MODEL_WEIGHTED = 1


@njit(cache=True)
def new_model(strategies, params):
    """How V models each seat's next moves (``look_ahead``, ``play_out``): the seat's own
    strategy where it is a deterministic built-in (``greedy``; ``weighted`` and ``tuned`` with
    the run's weights, ``params``), else ``greedy``; and whether every seat is so modelled
    (only then does V play out the end: a play-out by a model that is not the seat's strategy
    gives hard 0/1 values that are often wrong, adding variance; measured with ``ismcts`` in
    both seats, a variance ratio of 0.85)."""
    codes = np.zeros(MAX_PLAYERS, np.int64)
    exact = np.ones(1, np.int64)
    for s in range(strategies.shape[0]):
        codes[s] = MODEL_WEIGHTED if strategies[s] == WEIGHTED or strategies[s] == TUNED else MODEL_GREEDY
        if strategies[s] != GREEDY and strategies[s] != WEIGHTED and strategies[s] != TUNED:
            exact[0] = 0
    return codes, params.copy(), exact


@hot
def model_play(g, seat, t, model):
    """The hand index V's model of the seat plays (``new_model``)."""
    if model[0][seat] == MODEL_WEIGHTED:
        return weighted_play(g, seat, model[1], t)
    return greedy_play(g, seat, t)


@hot
def model_discard(g, seat, model):
    """The final discard (an index into ``PAIRS``) of V's model of the seat."""
    if model[0][seat] == MODEL_WEIGHTED:
        return weighted_discard(g, seat, model[1])
    return any_greedy_discard(g, seat)


@njit(cache=True)
def new_recorder(value, capacity, rate, strategies, params):
    """A ledger (``new_ledger``) that records the features of every seat at sampled states (the
    fit's, ``luck.sample_block``) instead of taking luck: ``rate`` of the states after a draw
    before the last round."""
    ledger = (value, np.zeros(ACC_SIZE, np.float64), np.zeros(STATE_SIZE, np.int64), np.zeros(4, np.uint64),
              new_takings(), np.zeros((0, 4), np.int64),
              np.zeros((capacity, MAX_PLAYERS * N_FEATURES), np.float64), np.zeros(1, np.int64),
              np.zeros(STATE_SIZE, np.int64), np.zeros(3 * MAX_PLAYERS, np.int64),
              np.zeros(STATE_SIZE, np.int64), new_model(strategies, params))
    ledger[1][ACC_RATE] = rate
    return ledger


@njit(cache=True)
def new_ledger(value, strategies, params):
    """A block's ledger: (value array, accumulator, spare state, random stream, takings table,
    empty trace, record buffer (empty: not recording), record count, look-ahead state, integer
    scratch, play-out state, V's model of the seats: ``new_model``). ``value`` is
    ``engine.value``'s array: V(start) per seat, then the weights; ``strategies`` and
    ``params``: the run's."""
    return new_recorder(value, 0, 0.0, strategies, params)


@hot
def best_play_points(g, seat, t):
    """The fewest points a play from the seat's hand would add to its score now (``t``: the
    takings table, filled for this parade by ``tabulate_takings``)."""
    counts = counts_word(g, seat)
    threshold = majority_threshold(other_best(g, seat), margin_in_force(g))
    now = seat_score(g, seat)
    sums = sums_word(g, seat)
    best = 1 << 20
    for k in range(hand_len(g, seat)):
        after = score_after_play(t, parade_len(g), hand_card(g, seat, k), counts, sums, threshold)
        best = min(best, after - now)
    return 0 if best == 1 << 20 else best


@hot
def two_lowest(g, seat):
    """The sum of the two lowest printed values in the seat's hand (0 for an empty hand)."""
    low = 99
    second = 99
    n = hand_len(g, seat)
    for k in range(n):
        v = VALUE_OF[np.uint64(hand_card(g, seat, k))]
        if v < low:
            second = low
            low = v
        elif v < second:
            second = v
    if n == 0:
        return 0
    return low + (second if n > 1 else 0)


@hot
def next_to_play(g):
    """The seat that plays the next turn (turns go round from seat 0)."""
    return turn_count(g) % player_count(g)


@njit(cache=True, inline="always")
def turn_count(g):
    return g[TURNS]


@hot
def features(g, seat, t, out):
    """The seat's ``FEATURES`` into ``out[:N_FEATURES]`` (``t`` filled by ``tabulate_takings``)."""
    progress = (n_drawn(g) - (N_CARDS - deck_size(g))) / deck_size(g)  # the deck ends at N_CARDS
    last = 1.0 if last_round_left(g) >= 0 else 0.0
    plays_next = 1.0 if next_to_play(g) == seat else 0.0
    threshold = majority_threshold(other_best(g, seat), margin_in_force(g))
    out[0] = seat_score(g, seat) / 10.0
    out[1] = collection_size(g, seat) / 10.0
    out[2] = best_play_points(g, seat, t) / 10.0
    out[3] = two_lowest(g, seat) / 10.0
    out[4] = plays_next
    out[5] = plays_next * parade_len(g) / 10.0
    counts = counts_word(g, seat)
    out[6] = fields_set(majority_fields(counts, threshold))
    hand = 0
    for k in range(hand_len(g, seat)):
        hand += VALUE_OF[np.uint64(hand_card(g, seat, k))]
    out[7] = hand / 10.0
    out[8] = fields_set(nonzero_fields(counts))
    saved = 0
    near = 0
    for c in range(N_COLOURS):
        count = field(counts, c)
        points = field(sums_word(g, seat), c) - count
        need = field(threshold, c)
        saved += points if count >= need else 0
        near += points if count + 1 == need else 0
    out[9] = saved / 10.0
    out[10] = near / 10.0
    for k in range(N_BASE):
        out[N_BASE + k] = out[k] * progress
        out[2 * N_BASE + k] = out[k] * last
    for k in range(1, MAX_PLAYERS):
        out[3 * N_BASE + k - 1] = 1.0 if seat == k else 0.0


@hot
def model_turn(look, t, no_trace, model):
    """The seat to play plays its model's card (``model_play``) and ends its turn without
    drawing (V may be any function of the state)."""
    seat = next_to_play(look)
    if hand_len(look, seat) == 0:
        return
    play_card(look, seat, model_play(look, seat, t, model), no_trace)
    look[TURNS] += 1
    if last_round_left(look) > 0:
        look[LAST_ROUND_LEFT] -= 1


@hot
def play_out(look, t, rng, no_trace, ints, model):
    """In place: ``look``, its last round begun (no draw is left), played to its end by
    V's model (every turn, then the final discard); every seat's win share, in ``WIN_UNIT``,
    into ``ints[:players]``."""
    players = player_count(look)
    while last_round_left(look) > 0:
        seat = next_to_play(look)
        play_card(look, seat, model_play(look, seat, t, model), no_trace)
        finish_turn(look, seat, rng, False, no_trace)
    for s in range(players):
        ints[s] = model_discard(look, s, model)
    for s in range(players):
        keep_cards(look, s, ints[s], no_trace)
    for s in range(players):
        ints[MAX_PLAYERS + s] = seat_score(look, s)
        ints[2 * MAX_PLAYERS + s] = collection_size(look, s)
    win_shares(ints[MAX_PLAYERS:], ints[2 * MAX_PLAYERS:], players, ints)


@hot
def end_in_sight(g, look, ends, t, rng, no_trace, ints, out, model):
    """When the model's play at the next turn triggers the end (its draw is then the game's
    last): V exactly, the mean over every card that draw can bring of the play-out's win shares
    (``play_out``), into ``out``; returns True. Else False (``out`` untouched)."""
    for k in range(STATE_SIZE):
        look[k] = g[k]
    seat = next_to_play(look)
    play_card(look, seat, model_play(look, seat, t, model), no_trace)
    drawn = n_drawn(look)
    if not has_six_colours(look, seat) and drawn != N_CARDS - 1:
        return False
    players = player_count(g)
    for s in range(players):
        out[s] = 0.0
    for j in range(drawn, N_CARDS):
        for k in range(STATE_SIZE):
            ends[k] = look[k]
        ends[DECK + drawn] = look[DECK + j]
        finish_turn(ends, seat, rng, False, no_trace)
        play_out(ends, t, rng, no_trace, ints, model)
        for s in range(players):
            out[s] += ints[s] / (WIN_UNIT * (N_CARDS - drawn))
    return True


@hot
def look_ahead(g, look, t, no_trace, model):
    """``look``: ``g`` after the next two turns' plays by V's model (``model_turn``)."""
    for k in range(STATE_SIZE):
        look[k] = g[k]
    model_turn(look, t, no_trace, model)
    model_turn(look, t, no_trace, model)
    tabulate_takings(look, t)


@hot
def values(g, ledger, out):
    """V of every seat into ``out[:players]``: in the last round, the model's play-out win
    shares (``play_out``); when the next turn triggers the end, their mean over its draw
    (``end_in_sight``); before, a softmax of the seats' linear scores over the features of
    the state two model plays ahead (``look_ahead``)."""
    value, acc, _, rng, t, no_trace, _, _, look, ints, ends, model = ledger
    if model[2][0] == 0:
        pass  # a seat V cannot model: the fitted logit in every regime
    elif last_round_left(g) >= 0:
        for k in range(STATE_SIZE):
            look[k] = g[k]
        play_out(look, t, rng, no_trace, ints, ledger[11])
        for s in range(player_count(g)):
            out[s] = ints[s] / WIN_UNIT
        return
    elif end_in_sight(g, look, ends, t, rng, no_trace, ints, out, ledger[11]):
        return
    look_ahead(g, look, t, no_trace, ledger[11])
    feats = acc[ACC_FEAT:]
    players = player_count(g)
    for s in range(players):
        features(look, s, t, feats)
        z = 0.0
        for k in range(N_FEATURES):
            z += value[COEF + k] * feats[k]
        out[s] = z
    softmax_seats(out, players)


@hot
def record_state(g, ledger):
    """Record mode: the features of every seat at this state, with probability ``ACC_RATE``."""
    _, acc, _, rng, t, no_trace, record, count, look, _, _, _ = ledger
    if last_round_left(g) >= 0 or np.float64(uniform(rng)) >= acc[ACC_RATE]:
        return
    row = count[0]
    count[0] = row + 1
    if row >= record.shape[0]:
        return  # counted past the buffer: the fit reads the count and plays again with more room
    look_ahead(g, look, t, no_trace, ledger[11])
    for s in range(player_count(g)):
        features(look, s, t, acc[ACC_FEAT:])
        for k in range(N_FEATURES):
            record[row, s * N_FEATURES + k] = acc[ACC_FEAT + k]


@hot
def ledger_deal(g, players, margin, ledger):
    """After the deal: its luck term, against the mean V of ``DEAL_SAMPLES`` sampled deals."""
    acc, spare, rng, no_trace, record = ledger[1], ledger[2], ledger[3], ledger[5], ledger[6]
    if record.shape[0] > 0:
        record_state(g, ledger)
        return
    for s in range(players):
        acc[ACC_EXPECT + s] = 0.0
    for _ in range(DEAL_SAMPLES):
        set_up(spare, players, margin, rng, True, no_trace, g[PARADE_N], g[END_COLOURS], g[DECK_COLOURS],
               g[DECK_VALUES], g[HAND_FULL], g[DISCARDS])  # the deal's own rules (just set up)
        values(spare, ledger, acc[ACC_V:])
        for s in range(players):
            acc[ACC_EXPECT + s] += acc[ACC_V + s] / DEAL_SAMPLES
    values(g, ledger, acc[ACC_V:])
    ledger_step(ledger, players)


@hot
def ledger_before_draw(g, seat, ledger):
    """Before ``finish_turn``: when it will draw, E[V(after)] over every card of the deck."""
    acc, spare, rng, no_trace, record = ledger[1], ledger[2], ledger[3], ledger[5], ledger[6]
    drawn = n_drawn(g)
    if last_round_left(g) >= 0 or drawn >= N_CARDS:
        acc[ACC_DREW] = 0.0
        return
    acc[ACC_DREW] = 1.0
    if record.shape[0] > 0:
        return
    players = player_count(g)
    for k in range(STATE_SIZE):
        spare[k] = g[k]
    for s in range(players):
        acc[ACC_EXPECT + s] = 0.0
    pool = N_CARDS - drawn
    for j in range(drawn, N_CARDS):
        # the draw brings card j as the lazy shuffle does, swapped to the top: the spare's pile
        # then holds the very cards of the state the game reaches (``end_in_sight`` reads them)
        spare[DECK + drawn] = g[DECK + j]
        spare[DECK + j] = g[DECK + drawn]
        finish_turn(spare, seat, rng, False, no_trace)
        values(spare, ledger, acc[ACC_V:])
        for s in range(players):
            acc[ACC_EXPECT + s] += acc[ACC_V + s] / pool
        # what finish_turn and the swap changed, restored
        spare[DECK + j] = g[DECK + j]
        spare[TURNS] = g[TURNS]
        spare[DRAWN] = g[DRAWN]
        spare[LAST_ROUND_LEFT] = g[LAST_ROUND_LEFT]
        spare[TRIGGER] = g[TRIGGER]
        spare[HAND_N + seat] = g[HAND_N + seat]


@hot
def ledger_after_turn(g, ledger):
    """After ``finish_turn``: the draw's luck term (nothing when the turn drew no card)."""
    acc, record = ledger[1], ledger[6]
    if acc[ACC_DREW] == 0.0:
        return
    if record.shape[0] > 0:
        record_state(g, ledger)
        return
    values(g, ledger, acc[ACC_V:])
    ledger_step(ledger, player_count(g))


LEDGER_RULES = ("two_player_margin", "opening_parade", "end_colours", "colours", "values", "hand_size",
                "discards")
"""The rule parameters under which the ledger stays exact at any value (``--luck`` takes them,
``analysis.runs.rules_beyond_ledger``): every one. The deal's term samples its deals with the
game's own rules (``set_up`` with the state's opening parade, end trigger, deck, hand and
discards), a draw's expectation enumerates the game's own deck (a smaller deck ends where 66
cards do), and the play-outs and ``finish_turn`` play by the state's rules. V itself was fitted
under the official rules; under others it removes less variance, it never biases (measured:
mean luck |z| < 1.1 on 20,000 games of each of three variants; docs/luck.md)."""

__all__ = ["FEATURES", "N_FEATURES", "VALUE_SIZE", "HAND_SIZE", "N_COLOURS", "LEDGER_RULES"]

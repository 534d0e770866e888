"""Gift of Tulips' value: ``V(state, seat)``, the chance that the seat wins from a state, and the
luck ledger's hooks at the game's chance events (docs/luck.md).

**V** is a conditional logit over features in the words of the rules page
(``docs/rules/tulips.md``), fitted on simulated games of one lineup (``montecards value fit
tulips``): each seat gets ``z = w . f(state, seat)`` and ``V(state, seat) = exp(z_seat) / sum
over seats of exp(z)``, so the values of a state add up to one win, as the win shares do. V
reads the true state (the secret festival's faces included). A state in which a seat holds a
drawn card it has not played yet (after a draw, before its action) is read after ``greedy``'s
action on it (``strategies.greedy_action``), or, for a seat that searches, with the card unplayed
and described by the "drawn: ..." features (``new_model``: no built-in models a search's action
well); after the deal, before the bouquet/secret choices, after ``greedy``'s set-up choice. Any V
keeps the luck-adjusted estimate unbiased: a model further from the lineup's play only removes
less variance.

The features of a seat (``FEATURES``), each also multiplied by the draw pile's progress (the
same lead decides more the nearer the end), and the seat's place:

* ``points if the game ended now``: points so far plus the majorities at the current ranking
  (rules: End of the game, Majorities);
* ``points so far``: start, keep and give points (rules: A turn);
* ``majority points now``: the majorities at the current ranking;
* ``majority points after the secret reveal``: the majorities at the ranking the secret
  festival would make, its first ``secret_reveal`` cards opened in the order they were placed
  (rules: End of the game: the reveal re-ranks the colours);
* ``tulips``: cards in the bouquet (the tie-break);
* ``cards of the top three colours``: bouquet cards whose colour pays majorities now;
* ``lowest points so far``: 1 for the seat with the fewest points so far (``greedy`` gives
  its gifts to that seat: rules, Strategies);
* ``has played this round``: 1 when the seat's turn of the current round is over;
* ``drawn: holds it``, ``drawn: give points``, ``drawn: keep points``, ``drawn: value``,
  ``drawn: own cards of its colour, top three``: for the seat holding a drawn card unplayed
  (only a seat that searches: ``new_model``; 0 otherwise and for the other seats): 1, the points
  a gift of it would score now (value + give bonus; 0 when the turn's first action was a gift:
  rules, A turn), the keep bonus (0 when it was a keep), its value, and the seat's bouquet cards
  of its colour when that colour is in the top three places.

**The ledger** (``new_ledger``, ``ledger_deal``, ``ledger_before_draw``, ``ledger_after_draw``,
``ledger_before_reveal``, ``ledger_end``, ``ledger_result``): the kernel's ``play_game``
calls these hooks only when it is handed a ledger (``luck.play_luck_block``: runs with
``--luck``); every other kernel compiles none of it. The game's chance events:

* the **deal** (the festival cards, the opening tie order and two cards per seat: far too
  many to enumerate): an **unbiased sampled estimate**, the mean of V over ``DEAL_SAMPLES``
  deals drawn from the ledger's own random stream, independent of the game's;
* every **draw**: the expectation is **exact**. The lazy shuffle keeps every unseen card
  (the draw pile and the removed cards, ``DECK + drawn .. DECK + n_deck``) where the next
  draw picks uniformly among them; V after a draw reads only the drawn card's colour and
  value, so E[V(after)] is the mean over the distinct (colour, value) kinds of the pool (at
  most 12 with the default cards), each weighted by its count;
* the **secret reveal** (which cards when more than ``secret_reveal``, and their order): V
  after it is the game's result, and E[result | before] is an **unbiased sampled estimate**,
  the mean result of ``REVEAL_SAMPLES`` reveals drawn from the ledger's stream (exact when
  the secret festival holds one card or none). Enumerating is possible for a small secret
  festival (4! orders with 4 players) but not in general (5 of 10 cards: 30,240 ordered
  choices), and the sample costs 16 scorings.

The game's streams are untouched: a run with ``--luck`` plays the very games of the run
without it. At each chance event ``luck += V(after) - E[V(after) | before]`` and ``drift +=
E[V(after) | before] - V(previous event)``; at the end ``drift += result - V(last event)``
(0: the reveal's V(after) is the result), so that ``result - V(start) = luck + drift`` holds
per game and seat (``V(start)``: the lineup's mean win share in the fit, ``value[VSTART +
seat]``).
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
from montecards.games.tulips.cards import MAX_PLAYERS, N_COLOURS
from montecards.games.tulips.rules import (
    COUNT,
    DECK,
    DRAWN,
    GIVE,
    KEEP,
    N_DECK,
    N_SECRET,
    PILE_END,
    SHARE,
    STATE_SIZE,
    TULIPS,
    TURNS,
    VSUM,
    apply_action,
    bouquet_count,
    colour_at,
    colour_of,
    dealt_card,
    draw_festival,
    final_scores,
    give_points,
    keep_points,
    majorities,
    next_card,
    open_festival_setup,
    place_of,
    player_count,
    raise_colour,
    random_opening,
    reset_game,
    reveal_secret,
    reveal_size,
    secret_card,
    secret_size,
    so_far,
    to_bouquet,
    to_secret,
    tulips,
    value_of,
)
from montecards.games.tulips.strategies import ISMCTS, OMNISCIENT, WORK_SIZE, greedy_action, greedy_setup
from montecards.games.tulips.view import move_action, move_receiver
from montecards.rng import uniform

BASE = ("points if the game ended now", "points so far", "majority points now",
        "majority points after the secret reveal", "tulips", "cards of the top three colours",
        "lowest points so far", "has played this round",
        "drawn: holds it", "drawn: give points", "drawn: keep points", "drawn: value",
        "drawn: own cards of its colour, top three")
N_BASE = len(BASE)
FEATURES = (
    BASE
    + tuple(f"{name} x pile progress" for name in BASE)
    + tuple(f"seat {k}" for k in range(1, MAX_PLAYERS))
)
"""The names of a seat's features, in the order of ``features`` (the fitted weights' order)."""
N_FEATURES = len(FEATURES)
SCORE_ONLY = (0,)
"""The score-only baseline's features (``montecards value fit``): the points if the game ended now."""

# the value array (``engine.value``): V(start) per seat, then the weights
VSTART = 0
COEF = MAX_PLAYERS
VALUE_SIZE = COEF + N_FEATURES

DEAL_SAMPLES = 8
"""Deals drawn to estimate E[V(after the deal)] (unbiased: independent of the game's deal)."""
REVEAL_SAMPLES = 16
"""Secret reveals drawn to estimate E[result | before the reveal] (unbiased likewise)."""
# the ledger's float accumulator: the engine's head (``engine.value``: per seat V at the last event,
# luck, drift, expectation, V; the record rate), then the game's own slots
assert MAX_PLAYERS <= LEDGER_SEATS
ACC_FEAT = ACC_GAME
ACC_TMP = ACC_FEAT + N_FEATURES  # V of one kind of card (the draw's expectation)
ACC_SIZE = ACC_TMP + MAX_PLAYERS

# scratch after the rules' state in ``look`` (V's working copy)
MAJ_NOW = STATE_SIZE
MAJ_AFTER = MAJ_NOW + MAX_PLAYERS
PEND_SEAT = MAJ_AFTER + MAX_PLAYERS  # the seat holding a drawn card unplayed (-1: none), the card,
PEND_CARD = PEND_SEAT + 1  # and the class of the turn's first action (``pending``)
PEND_FIRST = PEND_SEAT + 2

MODEL_GREEDY = 0
MODEL_UNPLAYED = 1


@njit(cache=True)
def new_model(strategies):
    """How V reads a seat's drawn card (``pending``): after ``greedy``'s action on it
    (``MODEL_GREEDY``), or unplayed, through the "drawn: ..." features (``MODEL_UNPLAYED``),
    for a seat that searches (``ismcts``, ``omniscient``): no built-in is a close model of a
    search (it chooses ``tuned``'s move 48 % of the time, ``greedy``'s 45 %), and a V that
    commits to a wrong action moves too much (docs/luck.md: the first seat's variance ratio
    1.21 with ``greedy``'s action, 1.09 with ``majority``'s, 1.34 unplayed)."""
    model = np.zeros(MAX_PLAYERS, np.int64)
    for s in range(strategies.shape[0]):
        if strategies[s] == ISMCTS or strategies[s] == OMNISCIENT:
            model[s] = MODEL_UNPLAYED
    return model
MAX_KINDS = 256  # distinct (colour, value) kinds in the pool: at most 4 colours x 16 values


@njit(cache=True)
def new_recorder(value, capacity, rate, strategies, params):
    """A ledger (``new_ledger``) that records the features of every seat at sampled states (the
    fit's, ``luck.sample_block``) instead of taking luck: ``rate`` of the states after the
    deal and after a draw."""
    size = max(WORK_SIZE, PEND_FIRST + 1)
    ledger = (value, np.zeros(ACC_SIZE, np.float64), np.zeros(size, np.int64), np.zeros(4, np.uint64),
              np.zeros(size, np.int64), np.zeros(2 * MAX_KINDS, np.int64),
              np.zeros((capacity, MAX_PLAYERS * N_FEATURES), np.float64), np.zeros(1, np.int64),
              new_model(strategies))
    ledger[1][ACC_RATE] = rate
    return ledger


@njit(cache=True)
def new_ledger(value, strategies, params):
    """A block's ledger: (value array, accumulator, spare state, random stream, V's working
    copy, the pool's kinds (card, count), record buffer (empty: not recording), record count,
    how V reads each seat's drawn card: ``new_model``). ``value`` is ``engine.value``'s array:
    V(start) per seat, then the weights; ``strategies`` and ``params``: the run's (``params``
    unused)."""
    return new_recorder(value, 0, 0.0, strategies, params)


@hot
def features(look, seat, out):
    """The seat's ``FEATURES`` into ``out[:N_FEATURES]``; ``look`` holds the majorities now and
    after the secret reveal at ``MAJ_NOW``/``MAJ_AFTER`` (``read_state``)."""
    players = player_count(look)
    progress = look[DRAWN] / max(look[PILE_END], 1)
    lowest = 1.0
    for s in range(players):
        if s != seat and (so_far(look, s) < so_far(look, seat)
                          or (so_far(look, s) == so_far(look, seat) and s < seat)):
            lowest = 0.0
    top = 0
    for place in range(3):
        top += bouquet_count(look, seat, colour_at(look, place))
    out[0] = (so_far(look, seat) + look[MAJ_NOW + seat]) / 10.0
    out[1] = so_far(look, seat) / 10.0
    out[2] = look[MAJ_NOW + seat] / 10.0
    out[3] = look[MAJ_AFTER + seat] / 10.0
    out[4] = tulips(look, seat) / 10.0
    out[5] = top / 10.0
    out[6] = lowest
    out[7] = 1.0 if seat < look[TURNS] % players else 0.0
    out[8] = 0.0
    out[9] = 0.0
    out[10] = 0.0
    out[11] = 0.0
    out[12] = 0.0
    if look[PEND_SEAT] == seat:
        card = look[PEND_CARD]
        first = look[PEND_FIRST]
        out[8] = 1.0
        out[9] = give_points(look, card) / 10.0 if first != GIVE else 0.0
        out[10] = keep_points(look, card) / 10.0 if first != KEEP else 0.0
        out[11] = value_of(look, card) / 10.0
        colour = colour_of(look, card)
        out[12] = bouquet_count(look, seat, colour) / 10.0 if place_of(look, colour) < 3 else 0.0
    for k in range(N_BASE):
        out[N_BASE + k] = out[k] * progress
    for k in range(1, MAX_PLAYERS):
        out[2 * N_BASE + k - 1] = 1.0 if seat == k else 0.0


@hot
def read_state(look):
    """In place: the majorities now into ``look[MAJ_NOW:]``, then the secret festival's first
    ``secret_reveal`` cards opened (the ranking changes) and the majorities into
    ``look[MAJ_AFTER:]``."""
    majorities(look, MAJ_NOW, None)
    for i in range(min(secret_size(look), reveal_size(look))):
        card = secret_card(look, i)
        raise_colour(look, colour_of(look, card), value_of(look, card))
    majorities(look, MAJ_AFTER, None)


@hot
def look_values(look, ledger, out):
    """V of every seat of ``look`` (V's working copy, changed) into ``out[:players]``."""
    value, acc = ledger[0], ledger[1]
    read_state(look)
    feats = acc[ACC_FEAT:]
    players = player_count(look)
    for s in range(players):
        features(look, s, feats)
        z = 0.0
        for k in range(N_FEATURES):
            z += value[COEF + k] * feats[k]
        out[s] = z
    softmax_seats(out, players)


@hot
def look_record(look, ledger):
    """Record mode: the features of every seat of ``look`` (changed), with probability ``ACC_RATE``."""
    acc, rng, record, count = ledger[1], ledger[3], ledger[6], ledger[7]
    if np.float64(uniform(rng)) >= acc[ACC_RATE]:
        return
    row = count[0]
    count[0] = row + 1
    if row >= record.shape[0]:
        return  # counted past the buffer: the fit reads the count and plays again with more room
    read_state(look)
    for s in range(player_count(look)):
        features(look, s, acc[ACC_FEAT:])
        for k in range(N_FEATURES):
            record[row, s * N_FEATURES + k] = acc[ACC_FEAT + k]


@hot
def copy_state(g, look):
    for k in range(STATE_SIZE):
        look[k] = g[k]


@hot
def pending(g, look, seat, card, first_class, bump, model):
    """``look``: ``g`` with ``card`` drawn by ``seat`` (``bump``: count the draw, when ``g`` is
    the state before it), then played by ``greedy``'s action, or held unplayed for the
    "drawn: ..." features (``new_model``)."""
    copy_state(g, look)
    look[DRAWN] += bump
    if model[seat] == MODEL_UNPLAYED:
        look[PEND_SEAT] = seat
        look[PEND_CARD] = card
        look[PEND_FIRST] = first_class
        return
    look[PEND_SEAT] = -1
    move = greedy_action(look, seat, card, first_class)
    apply_action(look, seat, card, move_action(move), move_receiver(move), None)


@hot
def model_setup(look):
    """In place: the bouquets and the secret festival emptied, then every seat's dealt cards
    placed by V's model (``greedy_setup``)."""
    players = player_count(look)
    look[PEND_SEAT] = -1
    for i in range(MAX_PLAYERS * N_COLOURS):
        look[COUNT + i] = 0
        look[VSUM + i] = 0
    for s in range(MAX_PLAYERS):
        look[TULIPS + s] = 0
    look[N_SECRET] = 0
    for seat in range(players):
        a = dealt_card(look, seat, 0)
        b = dealt_card(look, seat, 1)
        k = greedy_setup(look, a, b)
        to_bouquet(look, seat, a if k == 0 else b)
        to_secret(look, seat, b if k == 0 else a)


@hot
def ledger_deal(g, ledger):
    """After ``set_up``: the deal's luck term, V after the deal (read after V's model's set-up
    choices) against its mean over ``DEAL_SAMPLES`` deals sampled from the ledger's stream."""
    acc, spare, rng, look, record = ledger[1], ledger[2], ledger[3], ledger[4], ledger[6]
    players = player_count(g)
    copy_state(g, look)
    model_setup(look)
    if record.shape[0] > 0:
        look_record(look, ledger)
        return
    for s in range(players):
        acc[ACC_EXPECT + s] = 0.0
    copy_state(g, spare)
    for _ in range(DEAL_SAMPLES):
        reset_game(spare, True)
        draw_festival(spare, rng, True)
        open_festival_setup(spare, None)
        random_opening(spare, rng)
        for _seat in range(players):
            next_card(spare, rng, True)
            next_card(spare, rng, True)
        copy_state(spare, look)
        model_setup(look)
        look_values(look, ledger, acc[ACC_V:])
        for s in range(players):
            acc[ACC_EXPECT + s] += acc[ACC_V + s] / DEAL_SAMPLES
    copy_state(g, look)
    model_setup(look)
    look_values(look, ledger, acc[ACC_V:])
    ledger_step(ledger, players)


@hot
def ledger_before_draw(g, seat, first_class, ledger):
    """Before a draw: E[V(after)], exactly, over every unseen card (by kinds: ``module doc``)."""
    acc, look, kinds, record = ledger[1], ledger[4], ledger[5], ledger[6]
    if record.shape[0] > 0:
        return
    players = player_count(g)
    drawn = g[DRAWN]
    pool = g[N_DECK] - drawn
    n = 0
    for j in range(drawn, g[N_DECK]):
        card = g[DECK + j]
        found = -1
        for i in range(n):
            other = kinds[2 * i]
            if colour_of(g, other) == colour_of(g, card) and value_of(g, other) == value_of(g, card):
                found = i
                break
        if found < 0:
            kinds[2 * n] = card
            kinds[2 * n + 1] = 1
            n += 1
        else:
            kinds[2 * found + 1] += 1
    for s in range(players):
        acc[ACC_EXPECT + s] = 0.0
    for i in range(n):
        pending(g, look, seat, kinds[2 * i], first_class, 1, ledger[8])
        look_values(look, ledger, acc[ACC_TMP:])
        for s in range(players):
            acc[ACC_EXPECT + s] += acc[ACC_TMP + s] * kinds[2 * i + 1] / pool


@hot
def ledger_after_draw(g, seat, card, first_class, ledger):
    """After a draw (``card``, before the seat plays it): the draw's luck term."""
    acc, look, record = ledger[1], ledger[4], ledger[6]
    pending(g, look, seat, card, first_class, 0, ledger[8])
    if record.shape[0] > 0:
        look_record(look, ledger)
        return
    look_values(look, ledger, acc[ACC_V:])
    ledger_step(ledger, player_count(g))


@hot
def ledger_before_reveal(g, ledger):
    """Before the secret reveal: E[result], the mean win shares of ``REVEAL_SAMPLES`` reveals
    drawn from the ledger's stream (one scoring when at most one secret card: no chance)."""
    acc, spare, rng, record = ledger[1], ledger[2], ledger[3], ledger[6]
    if record.shape[0] > 0:
        return
    players = player_count(g)
    samples = REVEAL_SAMPLES if secret_size(g) > 1 and reveal_size(g) > 0 else 1
    for s in range(players):
        acc[ACC_EXPECT + s] = 0.0
    for _ in range(samples):
        copy_state(g, spare)
        reveal_secret(spare, rng, None, None)
        final_scores(spare, None)
        for s in range(players):
            acc[ACC_EXPECT + s] += spare[SHARE + s] / (WIN_UNIT * samples)


@hot
def ledger_end(g, ledger):
    """After ``final_scores``: the reveal's luck term (V after it is the result)."""
    acc, record = ledger[1], ledger[6]
    if record.shape[0] > 0:
        return
    players = player_count(g)
    for s in range(players):
        acc[ACC_V + s] = g[SHARE + s] / WIN_UNIT
    ledger_step(ledger, players)


LEDGER_RULES = ("values", "base_per_value", "marked_per_value", "removed", "give_bonus", "keep_bonus",
                "majority_points", "secret_reveal", "start_points")
"""The rule parameters under which the ledger stays exact at any value (``--luck`` takes them,
``analysis.runs.rules_beyond_ledger``): every one. The deal's term samples set-ups of the
state's own deck (``reset_game`` on a copy of the state), a draw's expectation counts the
state's own pile, and the reveal's samples and the scoring read the state's bonuses, majority
points and start points. V itself was fitted under the official rules; under others it removes
less variance, it never biases (measured: mean luck |z| < 1.4 on 20,000 games of each of seven
variants; docs/luck.md)."""

__all__ = ["FEATURES", "N_FEATURES", "VALUE_SIZE", "LEDGER_RULES"]

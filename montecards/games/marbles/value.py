"""Joker Marbles' value: ``V(state, seat)``, the chance that the seat wins from a state, and the
luck ledger's hooks at the game's chance events (docs/luck.md, docs/rules/marbles.md).

**V** is a conditional logit over features in the words of the rules page, fitted on simulated
games of one lineup (``montecards value fit marbles``): each seat gets ``z = w . f(state,
seat)`` and ``V(state, seat) = exp(z_seat) / sum over seats of exp(z)``, so the values of a
state add up to one win, as the win shares do. A state in which the game is won is valued
exactly: the win shares (a team of m shares it, 1/m each). V reads the true state (every hand).
A state in which a seat holds a drawn card it has not played yet (after a draw, before its
move) is read after V's model plays it: ``greedy``'s move, or its discard when no card has a
legal move (``strategies.choose``). Any V keeps the luck-adjusted estimate unbiased: a model
further from the lineup's play only removes less variance.

The features of a seat (``FEATURES``), and the seat's place:

* ``marbles in the castle`` (rules: Winning; the score-only baseline), and its square;
* ``marbles at home``: each needs an out card (A, J, Q, K) or a joker before it moves;
* ``distance to go`` and its square: the holes the seat's marbles still have to travel to the
  castle's last hole, a marble at home counted as the track's length plus 10 (the distance
  ``greedy`` scores: rules, Strategies), over five such marbles; and ``the last marble's
  distance to go`` (the game is won when the last one is in), over one;
* ``marbles within 13 holes of the castle entry``: one forward card can take each in;
* ``out cards in hand, up to the marbles at home``: A, J, Q, K and jokers held, at most one
  per marble at home (rules: Card effects);
* ``jokers in hand``;
* ``marbles an opponent can reach``: track marbles with another team's marble 1 to 13 holes
  behind (a single card of 13 at most brings it there: rules, Bumping);
* ``turns until it plays``: the seats to play before this one, over the player count.

**The ledger** (``new_ledger``, ``ledger_deal``, ``ledger_before_draw``, ``ledger_after_draw``;
the engine's ``ledger_start``, ``ledger_step``, ``ledger_result``): the kernel's ``play_game`` calls these hooks only when it is handed a
ledger (``luck.play_luck_block``: runs with ``--luck``); every other kernel compiles none of
it. Joker Marbles' chance events are the deal and every draw:

* the **deal** (five cards to each seat from 54: far too many deals to enumerate): an
  **unbiased sampled estimate**, the mean of V over ``DEAL_SAMPLES`` deals drawn from the
  ledger's own random stream, independent of the game's;
* every **draw**: the expectation is **exact**. The lazy shuffle keeps every card not yet
  drawn in the draw pile (``pile_at(S_DRAWN) .. pile_at(S_PILE_N)``), and the next draw picks
  uniformly among them; V after a draw reads the drawn card only through its rank and its
  place in the sorted hand (``greedy``'s choice and the hand features), so E[V(after)] is
  the mean over the distinct (rank, place) kinds of the pile (at most 14 x 6), each weighted
  by its count. A **reshuffle** (the discard pile becomes the draw pile when a seat must
  draw from an empty one) draws nothing by itself: the lazy shuffle orders the new pile one
  draw at a time, so its chance is every later draw's, each taken exactly as above.

The game's streams are untouched: a run with ``--luck`` plays the very games of the run
without it. At each chance event ``luck += V(after) - E[V(after) | before]`` and ``drift +=
E[V(after) | before] - V(previous event)``; at the end ``drift += result - V(last event)``,
so that ``result - V(start) = luck + drift`` holds per game and seat (``V(start)``: the
lineup's mean win share in the fit, ``value[VSTART + seat]``).

The fit (``montecards value fit``) records ``RATE_SCALE`` times the engine's share of the
states after a draw: a game of Joker Marbles has hundreds of turns (about 500 with 4 players),
ten times Parade's, and its states are alike.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.jit import hot
from montecards.engine.value import (  # the ledger's common part (its accumulator's head)
    ACC_EXPECT,
    ACC_GAME,
    ACC_RATE,
    ACC_V,
    LEDGER_SEATS,
    ledger_step,
    softmax_seats,
)
from montecards.games.marbles.moves import WORK_SIZE, gen_hand
from montecards.games.marbles.rules import (
    CASTLE0,
    HOME,
    MARBLES,
    MAX_PLAYERS,
    O_MOVES,
    S_DRAWN,
    S_HOME_DIST,
    S_L,
    S_MARBLES,
    S_NCARDS,
    S_PILE_N,
    S_PLAYERS,
    S_WON,
    at_home,
    deal,
    discard_card,
    dist,
    entry,
    hand_card,
    hand_insert,
    hand_size,
    in_castle,
    mover,
    occupant,
    pile_at,
    play_card,
    position,
    rank,
    team,
    winner_at,
)
from montecards.games.marbles.strategies import GREEDY, best_move, best_slot, lowest_rank_slot, score_weight
from montecards.rng import uniform

BASE = ("marbles in the castle", "marbles at home", "distance to go", "distance to go, squared",
        "marbles within 13 holes of the castle entry", "out cards in hand, up to the marbles at home",
        "jokers in hand", "marbles an opponent can reach", "turns until it plays",
        "the last marble's distance to go", "marbles in the castle, squared")
N_BASE = len(BASE)
FEATURES = BASE + tuple(f"seat {k}" for k in range(1, MAX_PLAYERS))
"""The names of a seat's features, in the order of ``features`` (the fitted weights' order)."""
N_FEATURES = len(FEATURES)
SCORE_ONLY = (0,)
"""The score-only baseline's features (``montecards value fit``): the marbles in the castle."""

REACH = 13
"""The farthest a single card moves a marble forward (K: 10, but a split 7 or the 9 less), as
``strategies.REACH``: the holes behind a marble from which another can bump it."""

# the value array (``engine.value``): V(start) per seat, then the weights
VSTART = 0
COEF = MAX_PLAYERS
VALUE_SIZE = COEF + N_FEATURES

DEAL_SAMPLES = 16
"""Deals drawn to estimate E[V(after the deal)] (unbiased: independent of the game's deal)."""
RATE_SCALE = 0.1
"""The fit records this times the engine's share of the states after a draw (module doc)."""
# the ledger's float accumulator: the engine's head (``engine.value``: per seat V at the last event,
# luck, drift, expectation, V; the lead; the record rate), then the game's own slots
assert MAX_PLAYERS <= LEDGER_SEATS
ACC_FEAT = ACC_GAME
ACC_TMP = ACC_FEAT + N_FEATURES  # V of one kind of card (the draw's expectation)
ACC_SIZE = ACC_TMP + MAX_PLAYERS

MAX_KINDS = 15 * 8  # (rank, place in the hand) kinds of a draw: key rank * 8 + place


@njit(cache=True)
def new_recorder(value, capacity, rate, strategies, params):
    """A ledger (``new_ledger``) that records the features of every seat at sampled states (the
    fit's, ``luck.sample_block``) instead of taking luck: ``rate * RATE_SCALE`` of the states
    after a draw."""
    ledger = (value, np.zeros(ACC_SIZE, np.float64), np.zeros(WORK_SIZE, np.int64), np.zeros(4, np.uint64),
              np.zeros(WORK_SIZE, np.int64), np.zeros(3 * MAX_KINDS, np.int64),
              np.zeros((capacity, MAX_PLAYERS * N_FEATURES), np.float64), np.zeros(1, np.int64))
    ledger[1][ACC_RATE] = rate * RATE_SCALE
    return ledger


@njit(cache=True)
def new_ledger(value, strategies, params):
    """A block's ledger: (value array, accumulator, spare state, random stream, V's working
    copy, the pile's kinds (key, card, count), record buffer (empty: not recording), record
    count). ``value`` is ``engine.value``'s array: V(start) per seat, then the weights;
    ``strategies`` and ``params``: the run's (V models every seat by ``greedy``: unused)."""
    return new_recorder(value, 0, 0.0, strategies, params)


@hot
def reachable(look, seat, p):
    """Is another team's track marble 1 to ``REACH`` holes behind track hole ``p``?"""
    L = look[S_L]
    for back in range(1, REACH + 1):
        h = p - back
        if h < 0:
            h += L
        v = occupant(look, h)
        if v >= 0 and team(look, v // MARBLES) != team(look, seat):
            return True
    return False


@hot
def features(look, seat, next_seat, out):
    """The seat's ``FEATURES`` into ``out[:N_FEATURES]``; ``next_seat``: the seat to play next."""
    players = look[S_PLAYERS]
    L = look[S_L]
    home = at_home(look, seat)
    togo = 0
    last = 0
    near = 0
    reach = 0
    nm = look[S_MARBLES]
    for m in range(nm):
        p = position(look, seat, m)
        d = dist(look, seat, p)
        togo += d
        last = max(last, d)
        if p != HOME and p < CASTLE0:
            ahead = entry(look, seat) - p
            if ahead < 0:
                ahead += L
            if ahead <= REACH:
                near += 1
            if reachable(look, seat, p):
                reach += 1
    outs = 0
    jokers = 0
    for k in range(hand_size(look, seat)):
        r = rank(hand_card(look, seat, k))
        if r == 1 or r >= 11:
            outs += 1
        if r == 14:
            jokers += 1
    home_dist = float(look[S_HOME_DIST])
    share = togo / (nm * home_dist)
    out[0] = in_castle(look, seat) / nm
    out[1] = home / nm
    out[2] = share
    out[3] = share * share
    out[4] = near / nm
    out[5] = min(outs, home) / nm
    out[6] = jokers
    out[7] = reach / nm
    wait = seat - next_seat
    if wait < 0:
        wait += players
    out[8] = wait / players
    out[9] = last / home_dist
    out[10] = out[0] * out[0]
    for k in range(1, MAX_PLAYERS):
        out[N_BASE + k - 1] = 1.0 if seat == k else 0.0


@hot
def look_values(look, next_seat, ledger, out):
    """V of every seat of ``look`` into ``out[:players]``: the win shares when the game is won,
    else the softmax of the logit."""
    value, acc = ledger[0], ledger[1]
    players = look[S_PLAYERS]
    if look[S_WON] != 0:
        winners = 0
        for s in range(players):
            winners += look[winner_at(s)]
        for s in range(players):
            out[s] = look[winner_at(s)] / winners
        return
    feats = acc[ACC_FEAT:]
    for s in range(players):
        features(look, s, next_seat, feats)
        z = 0.0
        for k in range(N_FEATURES):
            z += value[COEF + k] * feats[k]
        out[s] = z
    softmax_seats(out, players)


@hot
def record_look(look, next_seat, ledger):
    """Record mode: the features of every seat of ``look`` (a state not won) into the buffer."""
    acc, record, count = ledger[1], ledger[6], ledger[7]
    row = count[0]
    count[0] = row + 1
    if row >= record.shape[0]:
        return  # counted past the buffer: the fit reads the count and plays again with more room
    for s in range(look[S_PLAYERS]):
        features(look, s, next_seat, acc[ACC_FEAT:])
        for k in range(N_FEATURES):
            record[row, s * N_FEATURES + k] = acc[ACC_FEAT + k]


@hot
def copy_state(g, look):
    """The game a turn starts from (the state before ``O_MOVES``: the move list is made anew)."""
    for k in range(O_MOVES):
        look[k] = g[k]


@hot
def model_play(look, seat):
    """In place: the seat (holding its drawn card) makes ``greedy``'s move, or its discard."""
    owner = mover(look, seat)
    total = gen_hand(look, seat, owner, score_weight(GREEDY))
    if total > 0:  # strategies.choose's greedy branch (written out: no random stream here)
        mv = best_move(look, seat)
        play_card(look, seat, owner, best_slot(look, mv), mv, 0, None)
    else:
        discard_card(look, seat, lowest_rank_slot(look, seat), 0, None)


@hot
def next_of(look, seat):
    nxt = seat + 1
    return 0 if nxt == look[S_PLAYERS] else nxt


@hot
def ledger_deal(g, ledger):
    """After the deal: the deal's luck term, V after the deal (seat 0 to play) against its mean
    over ``DEAL_SAMPLES`` deals of the whole deck sampled from the ledger's stream."""
    acc, spare, rng, record = ledger[1], ledger[2], ledger[3], ledger[6]
    if record.shape[0] > 0:
        return  # the fit records states after draws only
    players = g[S_PLAYERS]
    for s in range(players):
        acc[ACC_EXPECT + s] = 0.0
    copy_state(g, spare)
    n_cards = g[S_NCARDS]
    for _ in range(DEAL_SAMPLES):
        for c in range(n_cards):
            spare[pile_at(c)] = c
        spare[S_PILE_N] = n_cards
        spare[S_DRAWN] = 0
        deal(spare, players, rng, True, None)
        look_values(spare, 0, ledger, acc[ACC_V:])
        for s in range(players):
            acc[ACC_EXPECT + s] += acc[ACC_V + s] / DEAL_SAMPLES
    look_values(g, 0, ledger, acc[ACC_V:])
    ledger_step(ledger, players)


@hot
def ledger_before_draw(g, seat, ledger):
    """Before a draw: E[V(after)], exactly, over every card of the draw pile (by kinds: the
    module doc)."""
    acc, look, kinds, record = ledger[1], ledger[4], ledger[5], ledger[6]
    if record.shape[0] > 0:
        return
    players = g[S_PLAYERS]
    drawn = g[S_DRAWN]
    pool = g[S_PILE_N] - drawn
    hn = hand_size(g, seat)
    n = 0
    for j in range(drawn, g[S_PILE_N]):
        card = g[pile_at(j)]
        place = 0
        for k in range(hn):
            if hand_card(g, seat, k) < card:
                place += 1
        key = rank(card) * 8 + place
        found = -1
        for i in range(n):
            if kinds[3 * i] == key:
                found = i
                break
        if found < 0:
            kinds[3 * n] = key
            kinds[3 * n + 1] = j
            kinds[3 * n + 2] = 1
            n += 1
        else:
            kinds[3 * found + 2] += 1
    for s in range(players):
        acc[ACC_EXPECT + s] = 0.0
    for i in range(n):
        copy_state(g, look)
        j = kinds[3 * i + 1]
        card = look[pile_at(j)]  # drawn as draw_card draws it: swapped to the top, counted
        look[pile_at(j)] = look[pile_at(drawn)]
        look[pile_at(drawn)] = card
        look[S_DRAWN] = drawn + 1
        hand_insert(look, seat, card)
        model_play(look, seat)
        look_values(look, next_of(look, seat), ledger, acc[ACC_TMP:])
        for s in range(players):
            acc[ACC_EXPECT + s] += acc[ACC_TMP + s] * kinds[3 * i + 2] / pool


@hot
def ledger_after_draw(g, seat, ledger):
    """After a draw (the card in the seat's hand, before its move): the draw's luck term, V
    read after V's model plays (``model_play``). Record mode: the features, at the sampled
    share of these states."""
    acc, look, rng, record = ledger[1], ledger[4], ledger[3], ledger[6]
    if record.shape[0] > 0 and np.float64(uniform(rng)) >= acc[ACC_RATE]:
        return
    copy_state(g, look)
    model_play(look, seat)
    if record.shape[0] > 0:
        if look[S_WON] == 0:
            record_look(look, next_of(look, seat), ledger)
        return
    look_values(look, next_of(look, seat), ledger, acc[ACC_V:])
    ledger_step(ledger, g[S_PLAYERS])


LEDGER_RULES = ("decks", "nine_split", "joker_from_track", "castle_entry", "max_turns")
"""The rule parameters under which the ledger stays exact (``--luck`` takes them,
``analysis.runs.rules_beyond_ledger``): the deal's term samples deals of the state's own cards
(``S_NCARDS``: any number of decks), a draw's expectation counts the state's own pile, and the
moves V's model plays follow the state's rules. Not the board (``sides``, ``holes_per_side``,
``marbles``: V's features read the official board) and not ``teams``: V values each seat on its
own, and a team's shared win makes the adjusted estimate noisier than the plain one (variance
ratio 0.5 measured with ``teams=pairs``), though still unbiased. Measured: mean luck |z| < 2.1
on 4,000-12,000 games of each of four variants (docs/luck.md)."""

__all__ = ["FEATURES", "N_FEATURES", "VALUE_SIZE", "LEDGER_RULES"]

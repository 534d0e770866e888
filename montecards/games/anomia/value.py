"""Anomia's value: ``V(state, seat)``, the chance that the seat wins from a state, and the luck
ledger's hooks at the game's chance events (docs/luck.md).

Anomia's seats make no decisions (``view.py``): everything that happens is a chance event of
the skill model (``strategies.py``) or of the deck, so the ledger splits a game almost wholly
into luck, and what is left (the drift) is only what V fails to foresee.

**V** has two regimes:

* **the end** (the draw pile is empty and no face-off is pending: the game is over): the win
  shares themselves (most cards won wins, ties share; rules: End of the game);
* **before**: a conditional logit over features in the words of the rules page
  (``docs/rules/anomia.md``), fitted on simulated games (``montecards value fit anomia``):
  each seat gets ``z = w . f(state, seat)`` and ``V(state, seat) = exp(z_seat) / sum over
  seats of exp(z)``, so the values of a state add up to one win, as the win shares do.

V reads the state as a player at the table sees it: the play piles, the cards won, the active
wild, the pending face-off (at most one match exists at a time: ``rules.py``) and the draw
pile **as a multiset** (how many cards of each symbol are left), never its order. The
features of a seat (``FEATURES``):

* ``cards won``: the score (rules: Scoring), also times the deck's progress, and divided by
  the cards left to draw plus 4 (the same lead decides more the nearer the end);
* ``play pile``: the cards on the seat's play pile (what the others can still win from it),
  also times the deck's progress;
* ``face-off: chance to win`` and ``face-off: chance to lose``: in a pending face-off, the
  skill model's chance that the seat takes, or gives, the card at stake (0 when the seat is in
  none);
* ``top symbol left``: the category cards left to draw that match the seat's top card (its
  symbol, or the active wild's other symbol): the chance of being drawn into a face-off;
* ``seat k``: the seat's place.

**The ledger** (``new_ledger``, ``ledger_before_draw``, ``ledger_after_draw``,
``ledger_before_face_off``, ``ledger_after_face_off``, ``ledger_result``): the kernel's
``play_game`` calls these hooks only when it is handed a ledger (``luck.play_luck_block``:
runs with ``--luck``); every other kernel compiles none of it. Anomia's chance events:

* the **deal** (the shuffle of the whole deck before the first draw): V never reads the draw
  pile's order, so V after the shuffle is V of the empty table whatever the order: its luck
  term is exactly 0 and the ledger takes none (the difference V(empty table) - V(start) goes to
  the drift of the first draw);
* every **draw**: the expectation is **exact**: every code (symbol or wild) left in the draw
  pile, weighted by its count, is put on the drawer's play pile (or made the active wild) on a
  spare copy of the state and V is evaluated: at most 16 values a draw. Conditional on what V
  reads, the shuffled draw pile is a uniform order of its multiset, so the next card is each
  card left with equal chance;
* every **face-off** (who reacts first): the expectation is **exact** over its two outcomes,
  the lower seat winning with the skill model's probability ``p`` (``strategies.py``: the
  integer threshold / 2**53, the very probability of the kernel's comparison), the other with
  ``1 - p``; the spare state is resolved both ways (``rules.resolve_face_off``). A face-off
  that **ties** (``tie_prob``) and its **tie-break** are part of the same event: the tiebreak
  is won with the same probability ``p`` and moves only the tiebreak card within the draw pile,
  which V does not read, so the tie and the card's new position have a luck term of exactly 0
  given the winner. (``--luck`` plays the official rules only, where ``tie_prob`` is 0: see
  docs/luck.md for why a draw after a tiebreak would not be exact.)

At each chance event ``luck += V(after) - E[V(after) | before]`` and ``drift += E[V(after) |
before] - V(previous event)``; at the end ``drift += result - V(last event)``, so that
``result - V(start) = luck + drift`` holds per game and seat (``V(start)``: the lineup's mean
win share in the fit, ``value[VSTART + seat]``).
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
from montecards.games.anomia.cards import MAX_PLAYERS, N_SYMBOLS, WILD_BASE
from montecards.games.anomia.rules import (
    CODES,
    H_NEXT,
    NO_CARD,
    NO_WILD,
    THRESHOLD,
    activate_wild,
    cards_in_play,
    code_of,
    deck_card,
    face_up,
    is_wild,
    next_position,
    partner,
    pile_entry,
    pile_size,
    players_of,
    put_on_pile,
    resolve_face_off,
    score,
    table_matches,
    top,
)
from montecards.rng import uniform

BASE = ("cards won", "cards won x deck progress", "cards won per card left", "play pile",
        "play pile x deck progress", "face-off: chance to win", "face-off: chance to lose",
        "top symbol left")
N_BASE = len(BASE)
FEATURES = BASE + tuple(f"seat {k}" for k in range(1, MAX_PLAYERS))
"""The names of a seat's features, in the order of ``features`` (the fitted weights' order)."""
N_FEATURES = len(FEATURES)
SCORE_ONLY = (0,)
"""The score-only baseline's features (``montecards value fit --baseline``): the cards won alone."""

# the value array (``engine.value``): V(start) per seat, then the weights
VSTART = 0
COEF = MAX_PLAYERS
VALUE_SIZE = COEF + N_FEATURES

N_CODES = WILD_BASE + N_SYMBOLS * N_SYMBOLS
"""Card codes (``cards.py``): the symbols, then every wild."""
LEFT_TOTAL = N_CODES
"""``left[LEFT_TOTAL]``: the cards left to draw (``left[c]``: those of code ``c``)."""
TWO53 = 9007199254740992.0

# the ledger's float accumulator: the engine's head (``engine.value``: per seat V at the last event,
# luck, drift, expectation, V; the record rate), then the game's own slots
assert MAX_PLAYERS <= LEDGER_SEATS
ACC_FEAT = ACC_GAME
ACC_SIZE = ACC_FEAT + N_FEATURES


@njit(cache=True)
def state_size(params):
    """The size of a game state for ``params`` (``kernel.P_*``) at ``MAX_PLAYERS`` seats (the
    spare state holds any player count)."""
    n_ids = np.int64(params[3])  # kernel.P_N_IDS
    n = np.int64(params[2])  # kernel.P_N_PLAY
    return CODES + n_ids + 2 * n + MAX_PLAYERS * max(n, 1)


@njit(cache=True)
def new_recorder(value, capacity, rate, strategies, params):
    """A ledger (``new_ledger``) that records the features of every seat at sampled states (the
    fit's, ``luck.sample_block``) instead of taking luck: ``rate`` of the states after a chance
    event (draw or face-off) before the end."""
    ledger = (value, np.zeros(ACC_SIZE, np.float64), np.zeros(state_size(params), np.int64),
              np.zeros(4, np.uint64), np.zeros(N_CODES + 1, np.int64), np.zeros(N_CODES + 1, np.int64),
              np.zeros((capacity, MAX_PLAYERS * N_FEATURES), np.float64), np.zeros(1, np.int64))
    ledger[1][ACC_RATE] = rate
    return ledger


@njit(cache=True)
def new_ledger(value, strategies, params):
    """A block's ledger: (value array, accumulator, spare state, random stream, the codes left
    in the true draw pile, the same for a hypothetical outcome, record buffer (empty: not
    recording), record count). ``value`` is ``engine.value``'s array: V(start) per seat, then
    the weights; ``strategies`` (Anomia's only one is ``default``) and ``params``: the run's."""
    return new_recorder(value, 0, 0.0, strategies, params)


@hot
def count_left(g, left):
    """The draw pile as a multiset: ``left[c]`` cards of code ``c``, ``left[LEFT_TOTAL]`` in all."""
    left[:] = 0
    n = cards_in_play(g)
    for k in range(next_position(g), n):
        left[code_of(g, deck_card(g, k))] += 1
    left[LEFT_TOTAL] = n - next_position(g)


@hot
def lower_wins(g, lo, hi):
    """The skill model's probability that seat ``lo`` beats seat ``hi > lo`` (its threshold /
    2**53: exactly the chance of the kernel's integer comparison)."""
    return g[THRESHOLD + lo * MAX_PLAYERS + hi] / TWO53


@hot
def features(g, seat, left, pending, a, b, out):
    """The seat's ``FEATURES`` into ``out[:N_FEATURES]``; ``left``: the draw pile's codes
    (``count_left``); ``pending``: 1 if seats ``a``, ``b`` face off next."""
    n = cards_in_play(g)
    cards_left = left[LEFT_TOTAL]
    progress = 1.0 - cards_left / n
    won = score(g, seat)
    out[0] = won / 10.0
    out[1] = won / 10.0 * progress
    out[2] = won / (cards_left + 4.0)
    pile = pile_size(g, seat) / 10.0
    out[3] = pile
    out[4] = pile * progress
    out[5] = 0.0
    out[6] = 0.0
    if pending == 1 and (seat == a or seat == b):
        lo = min(a, b)
        hi = max(a, b)
        p = lower_wins(g, lo, hi)
        win = p if seat == lo else 1.0 - p
        out[5] = win
        out[6] = 1.0 - win
    symbol = top(g, seat)
    near = 0
    if symbol != NO_CARD:
        near = left[symbol]
        other = partner(g, symbol)
        if other != NO_WILD:
            near += left[other]
    out[7] = near / 10.0
    for k in range(1, MAX_PLAYERS):
        out[N_BASE + k - 1] = 1.0 if seat == k else 0.0


@hot
def values(g, left, ledger, out):
    """V of every seat into ``out[:players]``: at the end the win shares, before it a softmax
    of the seats' linear scores over their features (``left``: the draw pile's codes)."""
    value, acc = ledger[0], ledger[1]
    players = players_of(g)
    pending, a, b = table_matches(g)
    if left[LEFT_TOTAL] == 0 and pending == 0:
        best = -1
        for s in range(players):
            best = max(best, score(g, s))
        k = 0
        for s in range(players):
            k += 1 if score(g, s) == best else 0
        for s in range(players):
            out[s] = 1.0 / k if score(g, s) == best else 0.0
        return
    feats = acc[ACC_FEAT:]
    for s in range(players):
        features(g, s, left, pending, a, b, feats)
        z = 0.0
        for k in range(N_FEATURES):
            z += value[COEF + k] * feats[k]
        out[s] = z
    softmax_seats(out, players)


@hot
def record_state(g, ledger):
    """Record mode: the features of every seat at this state, with probability ``ACC_RATE``."""
    acc, rng, left, record, count = ledger[1], ledger[3], ledger[4], ledger[6], ledger[7]
    count_left(g, left)
    pending, a, b = table_matches(g)
    if (left[LEFT_TOTAL] == 0 and pending == 0) or np.float64(uniform(rng)) >= acc[ACC_RATE]:
        return
    row = count[0]
    count[0] = row + 1
    if row >= record.shape[0]:
        return  # counted past the buffer: the fit reads the count and plays again with more room
    for s in range(players_of(g)):
        features(g, s, left, pending, a, b, acc[ACC_FEAT:])
        for k in range(N_FEATURES):
            record[row, s * N_FEATURES + k] = acc[ACC_FEAT + k]


@hot
def copy_state(g, spare):
    """``spare[:len(g)]``: a copy of ``g`` (the spare state fits every player count)."""
    for k in range(g.shape[0]):
        spare[k] = g[k]


@hot
def ledger_before_draw(g, seat, ledger):
    """Before ``draw_card`` by ``seat``: E[V(after the draw)], exact, over every code left in
    the draw pile weighted by its count."""
    acc, spare, left, other, record = ledger[1], ledger[2], ledger[4], ledger[5], ledger[6]
    if record.shape[0] > 0:
        return
    players = players_of(g)
    count_left(g, left)
    total = left[LEFT_TOTAL]
    state = spare[: g.shape[0]]
    for s in range(players):
        acc[ACC_EXPECT + s] = 0.0
    for c in range(N_CODES):
        if left[c] == 0:
            continue
        copy_state(g, state)
        state[H_NEXT] += 1
        if is_wild(c):
            activate_wild(state, c)
        else:
            put_on_pile(state, seat, pile_entry(0, c, seat))
        for k in range(N_CODES + 1):
            other[k] = left[k]
        other[c] -= 1
        other[LEFT_TOTAL] -= 1
        values(state, other, ledger, acc[ACC_V:])
        for s in range(players):
            acc[ACC_EXPECT + s] += acc[ACC_V + s] * left[c] / total


@hot
def ledger_after_event(g, ledger):
    """After a draw (the card on its pile, or the new active wild) or a face-off (its card
    taken): the event's luck term (record mode: the state's features, sampled)."""
    record, left = ledger[6], ledger[4]
    if record.shape[0] > 0:
        record_state(g, ledger)
        return
    count_left(g, left)
    values(g, left, ledger, ledger[1][ACC_V:])
    ledger_step(ledger, players_of(g))


@hot
def ledger_before_face_off(g, lo, hi, ledger):
    """Before the face-off of seats ``lo < hi``: E[V(after)], exact over its two outcomes (a tie
    and its tiebreak change only the draw pile's order, which V does not read)."""
    acc, spare, left, record = ledger[1], ledger[2], ledger[4], ledger[6]
    if record.shape[0] > 0:
        return
    players = players_of(g)
    count_left(g, left)
    p = lower_wins(g, lo, hi)
    state = spare[: g.shape[0]]
    winnings_face_up = face_up(g)
    for s in range(players):
        acc[ACC_EXPECT + s] = 0.0
    for outcome in range(2):
        winner = lo if outcome == 0 else hi
        chance = p if outcome == 0 else 1.0 - p
        copy_state(g, state)
        resolve_face_off(state, winner, lo + hi - winner, winnings_face_up)
        values(state, left, ledger, acc[ACC_V:])
        for s in range(players):
            acc[ACC_EXPECT + s] += acc[ACC_V + s] * chance


LEDGER_RULES = ("cards_per_symbol", "wild_pairs", "remove_symbols", "theta", "winnings_face_up")
"""The rule parameters under which the ledger stays exact at any value (``--luck`` takes them,
``analysis.runs.rules_beyond_ledger``): every draw's expectation counts the codes left in this
game's own pile, a face-off's takes the skill model's probability and the face-up rule from the
state, and the deal's term is 0 whatever the deck. Not ``tie_prob``: a tiebreak moves a card
within the draw pile, and a draw after it is no longer uniform over what V can see. V itself was
fitted under the official rules; under others it removes less variance, it never biases."""

__all__ = ["FEATURES", "N_FEATURES", "VALUE_SIZE", "SCORE_ONLY", "ACC_SIZE", "LEDGER_RULES"]

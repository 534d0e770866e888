"""Joker Marbles strategies, as integer codes dispatched inside the kernel.

A strategy sees what its seat sees at the table: its hand, the whole board, the discard pile
and the number of cards left to draw (``view.py`` is that view, as a strategy written outside
the kernel gets it; ``montecards/strategies/marbles_greedy.py`` is greedy written over it, and
``tests/test_view_marbles.py`` shows both make the same choices). All of them share the
kernel's legal-move generator (``moves.gen_hand``), which lists the hand's (card, move)
choices and, for greedy and aggressive, scores them as it goes (``step_score``,
``consider_move``); ``weighted`` and ``tuned`` score the listed moves afterwards
(``weighted_choice``: each move made on the state and undone, ``apply_step``/``undo_step``).
A seat only ever reads what it sees: ``weighted``'s unseen cards are counted from its hand and
the discard pile.

The strategies' scratch (greedy's running best ``BEST`` .. ``BEST_M1``, ``weighted``'s tables
``W_*``) is no part of the rules' state: it follows it in the same array (``rules.STATE_SIZE``
up to ``SCRATCH_END``), and move generation's working space follows it (``moves.WORK_SIZE``).

* ``random``: uniform over the legal (card, move) choices, every card of the hand counted
  separately (two 5s give each 5-move twice), each 7-split order and first part its own
  choice, the joker one choice per (source, target); with no legal move, a uniform card of
  the hand is discarded.
* ``greedy``: the choice with the highest score = distance taken off the team's marbles
  (remaining distance, c the marbles per player: home -> L + c + 5, track -> holes to the
  entry + c, castle k -> c - k; L + 10, + 5 and 5 - k on the official board; a bumped teammate
  counts as the team's) + distance its bumps add to opponents. Ties: the
  lowest card rank (A = 1 .. K = 13, joker = 14), then the lowest marble index (the marble of
  the move's first step), then the lowest card id, then the first move in generation order.
  With no legal move: discard the lowest-ranked card (ties: lowest id).
* ``aggressive``: the same with the distance added to opponents by bumps weighted 3x.
* ``weighted`` and ``tuned``: every legal move scored by a weighted sum of the ``FEATURES``
  below (weights per seat, run-time data: ``engine/weights.py``; ``tuned``'s defaults are
  ``TUNED_WEIGHTS``), the highest score played; ties as greedy's (the lowest card rank, then
  the lowest first marble, then the first move generated), the card played for a move being
  greedy's (the lowest rank, then id, of its group). With no legal move, the discard with the
  highest score of its card features (``joker_spent``, ``out_card_spent``, ``seven_spent``:
  discarding a card spends it), ties: the lowest rank, then id (greedy's discard). The
  features are read on the board before the move and the board after it (both parts of a
  split made, bumps included); ``docs/strategies/marbles.md`` documents each, with its scale.
  With ``GREEDY_WEIGHTS`` it makes exactly greedy's choices. Its code (``weighted_choice``)
  is compiled only into kernels of runs in which a seat plays it (``kernel.OPTIONS``).
"""

from __future__ import annotations

from montecards.engine.jit import hot, hot_inline
from montecards.engine.weights import weight_index
from montecards.games.marbles.cards import CARDS_PER_DECK
from montecards.games.marbles.rules import (
    CASTLE0,
    HOME,
    K_OUT,
    MARBLES,
    MAX_TRACK,
    MV_E1,
    MV_E2,
    MV_KIND,
    MV_M1,
    MV_M2,
    MV_SLOT,
    S_DISC_N,
    S_HOME_DIST,
    S_JFT,
    S_L,
    S_MARBLES,
    S_NCARDS,
    S_PLAYERS,
    S_VDEST,
    STATE_SIZE,
    apply_step,
    at_home,
    come_out,
    disc_at,
    dist,
    entry,
    group_best,
    group_end,
    group_of,
    group_rank,
    group_start,
    hand_card,
    hand_size,
    in_castle,
    move_at,
    occupant,
    position,
    rank,
    team,
    undo_step,
)
from montecards.rng import bounded

RANDOM = 0
GREEDY = 1
AGGRESSIVE = 2
WEIGHTED = 3
TUNED = 4
ISMCTS = 5  # information-set MCTS, and its twin that sees the true state (``search.py``)
OMNISCIENT = 6
NAMES = ("random", "greedy", "aggressive", "weighted", "tuned", "ismcts", "omniscient")
SCRIPTED = -1  # decisions read from a script (play_scripted and the oracle tests)

# --- the strategies' scratch: not fields of the rules' state, but the same array, right after
# it (an array of its own would be one more argument through the whole turn loop: Gift of
# Tulips measured +5 % time per game); move generation's working space follows (``moves.py``)
#
# greedy's running best over the generated moves: the move (-1: none yet), its score, its
# group's rank, its first marble
BEST = STATE_SIZE
BEST_SCORE = BEST + 1
BEST_RANK = BEST + 2
BEST_M1 = BEST + 3


@hot_inline
def score_weight(strategy):
    """Weight of opponents' bump distance in the score (-1: the strategy needs no scores)."""
    if strategy == GREEDY:
        return 1
    if strategy == AGGRESSIVE:
        return 3
    return -1


@hot
def step_score(g, owner, m, end, weight):
    """Distance the step takes off the owner's team, plus ``weight`` x the distance its bump
    adds to an opponent (a bumped teammate counts as the team's own), on the current board."""
    p = position(g, owner, m)
    score = dist(g, owner, p) - dist(g, owner, end)
    if end >= 0 and end < CASTLE0:
        v = occupant(g, end)
        if v >= 0:
            vs = v // MARBLES
            before = dist(g, vs, end)
            home = g[S_HOME_DIST]
            if team(g, vs) == team(g, owner):
                e = entry(g, vs)
                if e != end and (occupant(g, e) < 0 or e == p):
                    score += before - g[S_MARBLES]
                else:
                    score += before - home
            else:
                score += weight * (home - before)
    return score


@hot_inline
def reset_best(g):
    """No best move yet (before a hand's moves are generated)."""
    g[BEST] = -1


@hot_inline
def consider_move(g, n, slot, m1, score):
    """Greedy's running best over the generated moves: move ``n`` (hand group ``slot``, first
    marble ``m1``) replaces the best so far on a higher score, then a lower group rank, then a
    lower first marble; on a full tie the first generated stays (the tie rules above)."""
    best_score = g[BEST_SCORE]
    r = group_rank(g, slot)
    if g[BEST] < 0 or score > best_score or (
        score == best_score
        and (r < g[BEST_RANK] or (r == g[BEST_RANK] and m1 < g[BEST_M1]))
    ):
        g[BEST] = n
        g[BEST_SCORE] = score
        g[BEST_RANK] = r
        g[BEST_M1] = m1


@hot_inline
def best_move(g, seat):
    """Index of the best-scored move of the hand (greedy/aggressive; tie rules above), as
    ``moves.gen_hand`` with scores found it (``consider_move``); -1 when there is none."""
    return g[BEST]


@hot_inline
def best_slot(g, move):
    """Hand slot of the card greedy plays for ``move``: the lowest rank (then id) of its group."""
    return group_best(g, g[move_at(move, MV_SLOT)])


@hot_inline
def lowest_rank_slot(g, seat):
    """Hand slot of the lowest-ranked card (ties: the lowest id, the hand being sorted)."""
    best = 0
    for k in range(1, hand_size(g, seat)):
        if rank(hand_card(g, seat, k)) < rank(hand_card(g, seat, best)):
            best = k
    return best


@hot_inline
def random_choice(g, seat, total, rng):
    """``(slot, move)`` uniform over the ``total`` (card, move) choices of the hand."""
    r = bounded(rng, total)
    slot = -1
    move = -1
    for k in range(hand_size(g, seat)):
        grp = group_of(g, k)
        count = group_end(g, grp) - group_start(g, grp)
        if slot < 0:
            if r < count:
                slot = k
                move = group_start(g, grp) + r
            r -= count
    return slot, move


@hot_inline
def choose(g, seat, strategy, total, rng):
    """``(slot, move)`` of a built-in strategy: the hand slot of the card to play and the
    move of the list (``moves.gen_hand``, which scored it when the strategy needs scores),
    or move -1 and the slot of the card to discard when ``total`` (the hand's legal
    choices) is 0."""
    slot = -1
    mv = -1
    if strategy == GREEDY or strategy == AGGRESSIVE:
        if total > 0:
            mv = best_move(g, seat)
            slot = best_slot(g, mv)
        else:
            slot = lowest_rank_slot(g, seat)
    elif strategy == RANDOM:
        if total > 0:
            slot, mv = random_choice(g, seat, total, rng)
        else:
            slot = bounded(rng, hand_size(g, seat))
    return slot, mv


# --------------------------------------------------------------------------- weighted, tuned
# Features of a move (docs/strategies/marbles.md, "weighted and tuned: the features"). B is the
# board before the move, A the board after it (both parts of a split made, bumps included);
# "moved marbles" are the owner's marbles the move moves (one, or a split's two).

FEATURES = (
    "progress",          # remaining distance taken off the owner's moved marbles (holes)
    "bump_opponents",    # remaining distance added to opponents' marbles by bumps (holes)
    "bump_partners",     # remaining distance taken off bumped teammates' marbles (holes)
    "risk",              # change of the moved marbles' expected loss to a bump (holes)
    "attack",            # change of what the moved marbles threaten with the hand kept (holes)
    "leave_home",        # 10 per owner's marble that leaves home (out, or the joker from home)
    "enter_castle",      # 10 per owner's marble that enters its castle
    "joker_spent",       # 10 when the card is a joker
    "out_card_spent",    # 10 when an A/J/Q/K moves forward while marbles wait at home
    "seven_spent",       # 10 when the card is a 7
    "start_blocked",     # 10 x change of "an own marble sits on the come-out hole, others wait"
    "bump_leader",       # bump_opponents, each bump x (its victim's marbles in castle) / 5
)
F_PROGRESS = 0
F_BUMP_OPPONENTS = 1
F_BUMP_PARTNERS = 2
F_RISK = 3
F_ATTACK = 4
F_LEAVE_HOME = 5
F_ENTER_CASTLE = 6
F_JOKER = 7
F_OUT_CARD = 8
F_SEVEN = 9
F_START_BLOCKED = 10
F_BUMP_LEADER = 11
N_FEATURES = len(FEATURES)

GREEDY_WEIGHTS = (1.0, 1.0, 1.0) + (0.0,) * (N_FEATURES - 3)
"""The weights with which ``weighted`` makes exactly ``greedy``'s choices (tests prove it)."""
AGGRESSIVE_WEIGHTS = (1.0, 3.0, 1.0) + (0.0,) * (N_FEATURES - 3)
"""The weights with which it makes ``aggressive``'s."""
DEFAULT_WEIGHTS = (1.0, 1.0, 1.0, -1.0) + (0.0,) * (N_FEATURES - 4)
"""``weighted``'s defaults: greedy's score minus the change of risk (plays better than greedy
with more than two players: docs/strategies/marbles.md)."""
TUNED_WEIGHTS = (
    1.9243226324590408,
    -1.0,
    -0.2896014739687356,
    -2.106495006972602,
    -0.0266213445083201,
    -2.0,
    2.989645736080723,
    -2.6007227542624762,
    2.0,
    1.0052875243364285,
    -2.9063775694007083,
    4.41203522127373,
)
"""``tuned``'s weights: the winner of ``python scripts/tune_builtins.py --game marbles`` (record:
``docs/tuning/marbles.json``), against greedy at 4 players: held out on 20,000 deals x 4
seatings it wins 85.54 % [85.30, 85.78], +24.93 points over ``weighted``'s defaults (paired)."""
WEIGHT_BOUNDS = (
    (0.0, 3.0),   # progress
    (-1.0, 5.0),  # bump_opponents
    (-1.0, 3.0),  # bump_partners
    (-5.0, 1.0),  # risk
    (-1.0, 2.0),  # attack
    (-2.0, 3.0),  # leave_home
    (-2.0, 3.0),  # enter_castle
    (-3.0, 2.0),  # joker_spent
    (-3.0, 2.0),  # out_card_spent
    (-3.0, 2.0),  # seven_spent
    (-3.0, 2.0),  # start_blocked
    (-2.0, 5.0),  # bump_leader
)
COUNT_SCALE = 10
"""Count features (a marble, a card) are worth this many holes each: about one card's move."""
REACH = 13
"""The farthest one card moves a marble forward (the joker aside); the threat looks this far."""
OUT_RANKS_MASK = (1 << 1) | (1 << 11) | (1 << 12) | (1 << 13)

# weighted's per-decision tables (``prepare_weighted``), in the strategies' scratch after greedy's
W_UNSEEN = BEST + 4  # rank r (1..14) at W_UNSEEN + r - 1: cards this seat has not seen
W_UNSEEN_TOTAL = W_UNSEEN + 15
W_HIT = W_UNSEEN + 16  # d = 1..13 at W_HIT + d - 1: hand cards moving exactly d forward
W_HIT8 = W_HIT + 13  # the hand's 8s
W_WAYS = W_HIT + 16  # d = 1..13 at W_WAYS + d - 1: unseen cards moving exactly d forward
W_WAYS8 = W_WAYS + 13  # unseen 8s
W_WAYS_JOKER = W_WAYS + 14  # unseen jokers
W_WAYS_OUT = W_WAYS + 15  # unseen A, J, Q, K
W_THREAT = W_WAYS + 16  # per track hole: unseen cards with which an opponent's marble lands there
SCRATCH_END = W_THREAT + MAX_TRACK
"""One past the strategies' scratch: where move generation's working space begins."""


@hot
def moves_exactly(r, d):
    """Does a card of rank ``r`` move a marble exactly ``d`` (1..13) holes forward (a whole
    move, or one part of a 7 split)?"""
    if r == 1:
        return d == 1
    if r == 7:
        return d <= 7
    if r >= 10 and r <= 13:
        return d == 10
    if r == 8 or r == 14:
        return False
    return d == r


@hot
def prepare_weighted(g, seat, owner):
    """The per-decision tables: what the seat has not seen (its hand and the discard pile
    aside), its hand by distance, and per track hole the unseen cards that bring an opponent's
    track marble onto it (forward 1..13 from behind, or backward 8 from 8 holes ahead)."""
    decks = g[S_NCARDS] // CARDS_PER_DECK
    for r in range(1, 15):
        g[W_UNSEEN + r - 1] = (2 if r == 14 else 4) * decks
    for d in range(16):
        g[W_HIT + d] = 0
    for k in range(hand_size(g, seat)):
        r = rank(hand_card(g, seat, k))
        g[W_UNSEEN + r - 1] -= 1
        for d in range(1, REACH + 1):
            if moves_exactly(r, d):
                g[W_HIT + d - 1] += 1
        if r == 8:
            g[W_HIT8] += 1
    for i in range(g[S_DISC_N]):
        g[W_UNSEEN + rank(g[disc_at(i)]) - 1] -= 1
    total = 0
    for r in range(1, 15):
        total += g[W_UNSEEN + r - 1]
    g[W_UNSEEN_TOTAL] = total
    for d in range(1, REACH + 1):
        ways = 0
        for r in range(1, 14):
            if moves_exactly(r, d):
                ways += g[W_UNSEEN + r - 1]
        g[W_WAYS + d - 1] = ways
    g[W_WAYS8] = g[W_UNSEEN + 7]
    g[W_WAYS_JOKER] = g[W_UNSEEN + 13]
    g[W_WAYS_OUT] = g[W_UNSEEN] + g[W_UNSEEN + 10] + g[W_UNSEEN + 11] + g[W_UNSEEN + 12]
    L = g[S_L]
    for h in range(L):
        g[W_THREAT + h] = 0
    mine = team(g, owner)
    for s in range(g[S_PLAYERS]):
        if team(g, s) != mine:
            for m in range(MARBLES):  # (marbles past S_MARBLES stand at NONE, -2)
                p = position(g, s, m)
                if p >= 0 and p < CASTLE0:
                    for d in range(1, REACH + 1):
                        h = p + d
                        if h >= L:
                            h -= L
                        g[W_THREAT + h] += g[W_WAYS + d - 1]
                    h = p - 8
                    if h < 0:
                        h += L
                    g[W_THREAT + h] += g[W_WAYS8]


@hot
def threat_from(g, v, e):
    """Unseen cards with which an opponent's marble on hole ``v`` lands on hole ``e``."""
    L = g[S_L]
    d = e - v
    if d < 0:
        d += L
    if d >= 1 and d <= REACH:
        return g[W_WAYS + d - 1]
    if d == L - 8:
        return g[W_WAYS8]
    return 0


@hot
def risk_at(g, owner, e, gone1, gone2):
    """Expected-loss numerator of an owner's marble on ``e`` on the current board: the holes it
    would lose, home again, x the unseen cards that bring an opponent there (the threat table
    of the board ``prepare_weighted`` saw, less what opponents' marbles bumped from holes
    ``gone1``/``gone2`` threatened, -1: none; plus the jokers while an opponent has a marble
    at home or ``joker_from_track``, plus the out cards on the come-out hole of an opponent with
    a marble at home). Divided by the unseen cards, it is ``risk``'s expected loss."""
    if e < 0 or e >= CASTLE0:
        return 0
    ways = g[W_THREAT + e]
    if gone1 >= 0:
        ways -= threat_from(g, gone1, e)
    if gone2 >= 0:
        ways -= threat_from(g, gone2, e)
    mine = team(g, owner)
    joker = g[S_JFT] != 0
    for s in range(g[S_PLAYERS]):
        if team(g, s) != mine and at_home(g, s) > 0:
            joker = True
            if come_out(g, s) == e:
                ways += g[W_WAYS_OUT]
    if joker:
        ways += g[W_WAYS_JOKER]
    return (dist(g, owner, HOME) - dist(g, owner, e)) * ways


@hot
def loss_of_opponent(g, owner, h):
    """Holes an opponent's marble on track hole ``h`` would lose, home again (0: no opponent's
    marble there)."""
    v = occupant(g, h)
    if v < 0:
        return 0
    vs = v // MARBLES
    if team(g, vs) == team(g, owner):
        return 0
    return dist(g, vs, HOME) - dist(g, vs, h)


@hot
def attack_at(g, owner, e, played):
    """Holes the opponents' marbles in reach of an owner's marble on ``e`` would lose, home
    again, counting each that a card the hand keeps (all but one card of the ``played`` rank)
    moves it onto: forward exactly 1..13, or backward 8."""
    if e < 0 or e >= CASTLE0:
        return 0
    L = g[S_L]
    total = 0
    for d in range(1, REACH + 1):
        if g[W_HIT + d - 1] - (1 if moves_exactly(played, d) else 0) > 0:
            h = e + d
            if h >= L:
                h -= L
            total += loss_of_opponent(g, owner, h)
    if g[W_HIT8] - (1 if played == 8 else 0) > 0:
        h = e - 8
        if h < 0:
            h += L
        total += loss_of_opponent(g, owner, h)
    return total


@hot
def start_blocked(g, owner):
    """1 when an owner's marble stands on its come-out hole while others wait at home."""
    v = occupant(g, come_out(g, owner))
    return 1 if at_home(g, owner) > 0 and v >= 0 and v // MARBLES == owner else 0


@hot
def weighted_sum(params, seat, f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11):
    """Seat ``seat``'s weights times the features, added in feature order."""
    s = params[weight_index(params, seat, 0)] * f0
    s += params[weight_index(params, seat, 1)] * f1
    s += params[weight_index(params, seat, 2)] * f2
    s += params[weight_index(params, seat, 3)] * f3
    s += params[weight_index(params, seat, 4)] * f4
    s += params[weight_index(params, seat, 5)] * f5
    s += params[weight_index(params, seat, 6)] * f6
    s += params[weight_index(params, seat, 7)] * f7
    s += params[weight_index(params, seat, 8)] * f8
    s += params[weight_index(params, seat, 9)] * f9
    s += params[weight_index(params, seat, 10)] * f10
    s += params[weight_index(params, seat, 11)] * f11
    return s


@hot
def bump_effect(g, owner, victim, hole):
    """``(to_opponents, to_partners, to_leader)`` of the marble ``victim`` bumped from ``hole``
    (``S_VDEST``: where it went); the leader's share times 5 (divided at the end)."""
    if victim < 0:
        return 0, 0, 0
    vs = victim // MARBLES
    change = dist(g, vs, g[S_VDEST]) - dist(g, vs, hole)
    if team(g, vs) == team(g, owner):
        return 0, -change, 0
    return change, 0, change * in_castle(g, vs)


@hot
def weighted_score(g, seat, owner, i, r, params):
    """Score of move ``i`` of the list, played with a card of rank ``r`` (its group's)."""
    kind = g[move_at(i, MV_KIND)]
    m1 = g[move_at(i, MV_M1)]
    e1 = g[move_at(i, MV_E1)]
    m2 = g[move_at(i, MV_M2)]
    e2 = g[move_at(i, MV_E2)]
    p1 = position(g, owner, m1)
    p2 = position(g, owner, m2) if m2 >= 0 else HOME
    home_before = at_home(g, owner)
    castle_before = in_castle(g, owner)
    blocked_before = start_blocked(g, owner)
    progress = dist(g, owner, p1) - dist(g, owner, e1)
    risk = -risk_at(g, owner, p1, -1, -1)
    attack = -attack_at(g, owner, p1, r)
    if m2 >= 0:
        progress += dist(g, owner, p2) - dist(g, owner, e2)
        risk -= risk_at(g, owner, p2, -1, -1)
        attack -= attack_at(g, owner, p2, r)
    # the board after the move
    v1 = apply_step(g, owner, m1, e1)
    d1 = g[S_VDEST]
    opp, partner, leader = bump_effect(g, owner, v1, e1)
    gone1 = e1 if v1 >= 0 and team(g, v1 // MARBLES) != team(g, owner) else -1
    v2 = -1
    d2 = HOME
    gone2 = -1
    if m2 >= 0:
        v2 = apply_step(g, owner, m2, e2)
        d2 = g[S_VDEST]
        o2, pa2, le2 = bump_effect(g, owner, v2, e2)
        opp += o2
        partner += pa2
        leader += le2
        if v2 >= 0 and team(g, v2 // MARBLES) != team(g, owner):
            gone2 = e2
    left = home_before - at_home(g, owner)
    entered = in_castle(g, owner) - castle_before
    blocked = start_blocked(g, owner) - blocked_before
    risk += risk_at(g, owner, e1, gone1, gone2)
    attack += attack_at(g, owner, e1, r)
    if m2 >= 0:
        risk += risk_at(g, owner, e2, gone1, gone2)
        attack += attack_at(g, owner, e2, r)
    waiting = at_home(g, owner) > 0
    if m2 >= 0:
        undo_step(g, owner, m2, p2, v2, d2)
    undo_step(g, owner, m1, p1, v1, d1)
    unseen = g[W_UNSEEN_TOTAL]
    risk_f = risk / unseen if unseen > 0 else 0.0
    out_card = COUNT_SCALE if (OUT_RANKS_MASK >> r) & 1 and kind != K_OUT and waiting else 0
    return weighted_sum(
        params, seat, float(progress), float(opp), float(partner), risk_f, float(attack),
        float(COUNT_SCALE * left), float(COUNT_SCALE * entered),
        float(COUNT_SCALE if r == 14 else 0), float(out_card),
        float(COUNT_SCALE if r == 7 else 0), float(COUNT_SCALE * blocked), leader / 5,
    )


@hot
def weighted_discard(g, seat, owner, params):
    """Hand slot of ``weighted``'s discard: the highest score of the card features (the board
    features are 0: nothing moves), ties: the lowest rank, then the lowest id."""
    waiting = at_home(g, owner) > 0
    best = 0
    best_score = 0.0
    best_rank = 0
    for k in range(hand_size(g, seat)):
        r = rank(hand_card(g, seat, k))
        out_card = COUNT_SCALE if (OUT_RANKS_MASK >> r) & 1 and waiting else 0
        s = weighted_sum(params, seat, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                         float(COUNT_SCALE if r == 14 else 0), float(out_card),
                         float(COUNT_SCALE if r == 7 else 0), 0.0, 0.0)
        if k == 0 or s > best_score or (s == best_score and r < best_rank):
            best = k
            best_score = s
            best_rank = r
    return best


@hot
def weighted_choice(g, seat, owner, total, params):
    """``(slot, move)`` of ``weighted``/``tuned`` for the seat (its weights in ``params``'s
    table), on the move list ``moves.gen_hand`` generated without scores; move -1 and the
    slot to discard when ``total`` is 0. Ties as greedy's (``consider_move``)."""
    if total == 0:
        return weighted_discard(g, seat, owner, params), -1
    prepare_weighted(g, seat, owner)
    best = -1
    best_grp = 0
    best_score = 0.0
    best_rank = 0
    best_m1 = 0
    for k in range(hand_size(g, seat)):
        if group_of(g, k) == k:
            r = group_rank(g, k)
            for i in range(group_start(g, k), group_end(g, k)):
                s = weighted_score(g, seat, owner, i, r, params)
                m1 = g[move_at(i, MV_M1)]
                if best < 0 or s > best_score or (
                    s == best_score and (r < best_rank or (r == best_rank and m1 < best_m1))
                ):
                    best = i
                    best_grp = k
                    best_score = s
                    best_rank = r
                    best_m1 = m1
    return group_best(g, best_grp), best

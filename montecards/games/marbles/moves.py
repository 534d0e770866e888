"""Joker Marbles move generation: the legal (card, move) list of a hand (docs/rules/marbles.md).

``gen_hand`` lists, for the seat's hand (sorted by card id), every legal move of each group
of cards with the same moves (same rank; J, Q and K together) into the state's move list
``O_MOVES`` (``MW`` fields ``MV_*`` per move), once per group; the readings of the rules it
follows are those of ``rules.py``'s docstring. The order of the list is the documented legal
order of ``view.py``.

Generation can score as it goes (``weight >= 0``): a split's second part is scored on the
board its first part leaves, and the generator is the one place that board exists, so the
scores (``strategies.step_score``) and greedy's running best (``strategies.consider_move``)
are computed here; with ``weight < 0`` (``random``, scripts, the view) they are skipped.

The move list and its groups are the rules' state (``play_card`` plays from it); what only the
generator uses, the mover's marble table ``O_INFO`` (``I_*``) and the sorted holes
``O_TARGETS``, is its working space, defined here after the strategies' scratch; it ends the
state array, ``WORK_SIZE`` ints, which the kernel and the search allocate.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.jit import hot
from montecards.games.marbles.cards import JOKER_RANK
from montecards.games.marbles.rules import (
    CASTLE0,
    CASTLE_HOLES,
    HOME,
    K_BACKWARD,
    K_FORWARD,
    K_JOKER,
    K_OUT,
    K_SPLIT7,
    K_SPLIT9,
    MARBLES,
    MAX_PLAYERS,
    MV_C1,
    MV_C2,
    MV_E1,
    MV_E2,
    MV_KIND,
    MV_M1,
    MV_M2,
    MV_SCORE,
    MV_SLOT,
    NONE,
    S_JFT,
    S_L,
    S_NINE,
    S_OPTIONAL,
    S_PLAYERS,
    S_VDEST,
    apply_step,
    at_home,
    castle_bit,
    castle_holes,
    castle_mask,
    come_out,
    entry,
    group_at,
    group_best_at,
    group_class,
    group_class_at,
    group_end,
    group_end_at,
    group_of,
    group_rank,
    group_rank_at,
    group_start,
    group_start_at,
    hand_card,
    hand_size,
    lowest_home,
    move_at,
    move_class,
    occupant,
    position,
    rank,
    undo_step,
)
from montecards.games.marbles.strategies import SCRATCH_END, consider_move, reset_best, step_score

# --- move generation's working space: not the rules' state, but the same array, after the
# strategies' scratch (``rules.py``'s docstring says why one array); written by each
# ``gen_hand`` before it is read, so nothing of it outlives a turn
#
# the mover's marble table, ``IW`` fields per marble (``marble_info``)
I_P = 0  # position
I_D = 1  # holes to the castle entry (track marbles)
I_G1 = 2  # holes to the nearest own track marble ahead (L: none)
I_W1 = 3  # which marble that is
I_G2 = 4  # ... the second nearest ahead
I_B1 = 5  # holes to the nearest own track marble behind
I_BW1 = 6
I_B2 = 7
IW = 8
O_INFO = SCRATCH_END
O_TARGETS = O_INFO + MARBLES * IW  # the owner's track marbles by hole; the joker's target holes
WORK_SIZE = O_TARGETS + MAX_PLAYERS * MARBLES
"""Size of the kernel's state array: the rules' state (``rules.STATE_SIZE``), the strategies'
scratch, then this working space."""


@njit(cache=True, inline="always")
def info_at(m, field):
    """Offset of field ``I_*`` of the mover's marble ``m`` in the per-turn table."""
    return np.uint64(O_INFO + IW * m + field)


@njit(cache=True, inline="always")
def target_at(i):
    return np.uint64(O_TARGETS + i)


@njit(cache=True)
def route_ends(p, d, gap, cm, n, L, optional):
    """``(castle_end, track_end)`` of a marble at ``p`` moved forward ``n`` (NONE: not legal).

    ``d``: holes to its castle entry (track marbles); ``gap``: holes to the nearest own track
    marble ahead (``L`` if none); ``cm``: the owner's occupied castle holes (bits ``1 << k``),
    the holes past a castle of fewer than ``CASTLE_HOLES`` (the ``marbles`` parameter) set as
    taken (``rules.set_up``): the castle's size needs no test of its own here.
    """
    ce = NONE
    te = NONE
    if p >= CASTLE0:
        k = p - CASTLE0
        t = k + n
        if t <= CASTLE_HOLES and (cm & castle_holes(k, t)) == 0:
            ce = CASTLE0 + t
    elif p != HOME:
        if d < n and n <= d + CASTLE_HOLES and d < gap:
            if (cm & castle_holes(0, n - d)) == 0:
                ce = CASTLE0 + n - d
        if n < gap and (ce == NONE or optional != 0):
            te = p + n
            if te >= L:
                te -= L
    return ce, te


@hot
def marble_info(g, owner):
    """Fill the owner's marble table ``O_INFO``: position, holes to the entry, and the
    nearest and second-nearest own track marbles ahead and behind (distance ``L``: none)."""
    L = g[S_L]
    entry_hole = entry(g, owner)
    # the owner's track marbles sorted by hole, in O_TARGETS
    k = 0
    for m in range(MARBLES):  # (a constant bound: marbles past S_MARBLES stand at NONE, -2)
        p = position(g, owner, m)
        g[info_at(m, I_P)] = p
        g[info_at(m, I_G1)] = L
        g[info_at(m, I_W1)] = -1
        g[info_at(m, I_G2)] = L
        g[info_at(m, I_B1)] = L
        g[info_at(m, I_BW1)] = -1
        g[info_at(m, I_B2)] = L
        if p >= 0 and p < CASTLE0:
            d = entry_hole - p
            if d < 0:
                d += L
            g[info_at(m, I_D)] = d
            j = k
            while j > 0 and position(g, owner, g[target_at(j - 1)]) > p:
                g[target_at(j)] = g[target_at(j - 1)]
                j -= 1
            g[target_at(j)] = m
            k += 1
        else:
            g[info_at(m, I_D)] = 0
    # in circular order, the next ones are ahead and the previous ones behind
    for i in range(k if k > 1 else 0):
        m = g[target_at(i)]
        p = position(g, owner, m)
        j = i + 1 if i + 1 < k else 0
        q = g[target_at(j)]
        d = position(g, owner, q) - p
        if d < 0:
            d += L
        g[info_at(m, I_G1)] = d
        g[info_at(m, I_W1)] = q
        j = i - 1 if i > 0 else k - 1
        q = g[target_at(j)]
        d = p - position(g, owner, q)
        if d < 0:
            d += L
        g[info_at(m, I_B1)] = d
        g[info_at(m, I_BW1)] = q
        if k > 2:
            j = i + 2 if i + 2 < k else i + 2 - k
            d = position(g, owner, g[target_at(j)]) - p
            if d < 0:
                d += L
            g[info_at(m, I_G2)] = d
            j = i - 2 if i >= 2 else i - 2 + k
            d = p - position(g, owner, g[target_at(j)])
            if d < 0:
                d += L
            g[info_at(m, I_B2)] = d


@hot
def add_move(g, n, slot, kind, m1, e1, c1, m2, e2, c2, score, weight):
    """Write move ``n`` of the list; when scoring (``weight >= 0``) let greedy consider it
    (``strategies.consider_move``). Returns ``n + 1``."""
    g[move_at(n, MV_SLOT)] = slot
    g[move_at(n, MV_KIND)] = kind
    g[move_at(n, MV_M1)] = m1
    g[move_at(n, MV_E1)] = e1
    g[move_at(n, MV_C1)] = c1
    g[move_at(n, MV_M2)] = m2
    g[move_at(n, MV_E2)] = e2
    g[move_at(n, MV_C2)] = c2
    g[move_at(n, MV_SCORE)] = score
    if weight >= 0:
        consider_move(g, n, slot, m1, score)
    return n + 1


@hot
def gen_forward(g, owner, slot, kind, n_steps, n, weight):
    """Whole forward moves by ``n_steps``: marble ascending, castle end before track end."""
    L = g[S_L]
    cm = castle_mask(g, owner)
    optional = g[S_OPTIONAL]
    for m in range(MARBLES):
        p = g[info_at(m, I_P)]
        if p >= 0:  # on the track or in the castle (not HOME, not NONE: no such marble)
            ce, te = route_ends(p, g[info_at(m, I_D)], g[info_at(m, I_G1)], cm, n_steps, L, optional)
            for which in range(2):
                e = ce if which == 0 else te
                if e != NONE:
                    s = step_score(g, owner, m, e, weight) if weight >= 0 else 0
                    n = add_move(g, n, slot, kind, m, e, n_steps, -1, 0, 0, s, weight)
    return n


@hot
def gen_backward(g, owner, slot, n, weight):
    """The 8: each own track marble backward 8, marble ascending."""
    L = g[S_L]
    for m in range(MARBLES):
        p = g[info_at(m, I_P)]
        if p >= 0 and p < CASTLE0 and 8 < g[info_at(m, I_B1)]:
            e = p - 8
            if e < 0:
                e += L
            s = step_score(g, owner, m, e, weight) if weight >= 0 else 0
            n = add_move(g, n, slot, K_BACKWARD, m, e, -8, -1, 0, 0, s, weight)
    return n


@hot
def gen_split(g, owner, slot, total, n, weight):
    """Splits of ``total`` (7: both parts forward; 9: the second part backward, track marbles
    only): (first marble, first part 1..total-1, its end, second marble, its end), the second
    part checked and scored on the board the first part left."""
    backward = total == 9
    kind = K_SPLIT9 if backward else K_SPLIT7
    L = g[S_L]
    cm = castle_mask(g, owner)
    optional = g[S_OPTIONAL]
    last = MARBLES if at_home(g, owner) <= MARBLES - 2 else 0  # two marbles out needed (at most)
    for m1 in range(last):
        p1 = g[info_at(m1, I_P)]
        if p1 < 0:  # at home, or no such marble (NONE)
            continue
        for a in range(1, total):
            if p1 >= CASTLE0 and p1 - CASTLE0 + a > CASTLE_HOLES:
                break
            ce, te = route_ends(p1, g[info_at(m1, I_D)], g[info_at(m1, I_G1)], cm, a, L, optional)
            for which in range(2):
                e1 = ce if which == 0 else te
                if e1 == NONE:
                    continue
                # the owner's castle holes once the first part is made
                cm2 = cm
                if p1 >= CASTLE0:
                    cm2 &= ~castle_bit(p1)
                e1_track = e1 < CASTLE0
                if not e1_track:
                    cm2 |= castle_bit(e1)
                # legality of the second part needs only the table and cm2; its score needs
                # the board the first part leaves (bumps included)
                scoring = weight >= 0
                s1 = 0
                victim = -1
                vdest = HOME
                if scoring:
                    s1 = step_score(g, owner, m1, e1, weight)
                    victim = apply_step(g, owner, m1, e1)
                    vdest = g[S_VDEST]
                b = total - a
                for m2 in range(MARBLES):
                    p2 = g[info_at(m2, I_P)]
                    if m2 == m1 or p2 < 0 or (backward and p2 >= CASTLE0):
                        continue
                    # the nearest own track marble ahead (behind for the 9), the first marble
                    # at its new hole
                    if backward:
                        gap = g[info_at(m2, I_B2)] if g[info_at(m2, I_BW1)] == m1 else g[info_at(m2, I_B1)]
                        de = p2 - e1
                    else:
                        gap = g[info_at(m2, I_G2)] if g[info_at(m2, I_W1)] == m1 else g[info_at(m2, I_G1)]
                        de = e1 - p2
                    if e1_track and p2 < CASTLE0:
                        if de < 0:
                            de += L
                        if de < gap:
                            gap = de
                    if backward:
                        ce2 = NONE
                        te2 = NONE
                        if b < gap:
                            te2 = p2 - b
                            if te2 < 0:
                                te2 += L
                        c2 = -b
                    else:
                        ce2, te2 = route_ends(p2, g[info_at(m2, I_D)], gap, cm2, b, L, optional)
                        c2 = b
                    for which2 in range(2):
                        e2 = ce2 if which2 == 0 else te2
                        if e2 != NONE:
                            s2 = step_score(g, owner, m2, e2, weight) if scoring else 0
                            n = add_move(g, n, slot, kind, m1, e1, a, m2, e2, c2, s1 + s2, weight)
                if scoring:
                    undo_step(g, owner, m1, p1, victim, vdest)
    return n


@hot
def gen_out(g, owner, slot, n, weight):
    if at_home(g, owner) > 0:
        c = come_out(g, owner)
        v = occupant(g, c)
        if v < 0 or v // MARBLES != owner:
            m = lowest_home(g, owner)
            s = step_score(g, owner, m, c, weight) if weight >= 0 else 0
            n = add_move(g, n, slot, K_OUT, m, c, 0, -1, 0, 0, s, weight)
    return n


@hot
def gen_joker(g, owner, slot, n, weight):
    """Sources (the home source, then track marbles with ``joker_from_track``) x target holes
    ascending (every track marble of another player)."""
    has_home = at_home(g, owner) > 0
    jft = g[S_JFT] != 0
    nt = 0
    if has_home or jft:
        for s in range(g[S_PLAYERS]):
            if s != owner:
                for j in range(MARBLES):
                    h = position(g, s, j)
                    if h >= 0 and h < CASTLE0:
                        k = nt
                        while k > 0 and g[target_at(k - 1)] > h:
                            g[target_at(k)] = g[target_at(k - 1)]
                            k -= 1
                        g[target_at(k)] = h
                        nt += 1
    if nt > 0:
        first = lowest_home(g, owner) if has_home else -1
        last = MARBLES if jft else 0
        for src in range(-1, last):
            m = first
            if src >= 0:
                p = position(g, owner, src)
                m = src if p >= 0 and p < CASTLE0 else -1
            if m >= 0:
                for i in range(nt):
                    h = g[target_at(i)]
                    s = step_score(g, owner, m, h, weight) if weight >= 0 else 0
                    n = add_move(g, n, slot, K_JOKER, m, h, 0, -1, 0, 0, s, weight)
    return n


@hot
def gen_card(g, owner, slot, rank, n, weight):
    """Append the legal moves of a card of ``rank`` for ``owner`` (documented order)."""
    if rank == 1 or (rank >= 11 and rank <= 13):
        n = gen_out(g, owner, slot, n, weight)
    if rank == JOKER_RANK:
        n = gen_joker(g, owner, slot, n, weight)
    elif rank == 8:
        n = gen_backward(g, owner, slot, n, weight)
    else:
        steps = 1 if rank == 1 else (10 if rank >= 10 else rank)
        n = gen_forward(g, owner, slot, K_FORWARD, steps, n, weight)
        if rank == 7 or (rank == 9 and g[S_NINE] != 0):
            n = gen_split(g, owner, slot, rank, n, weight)
    return n


@hot
def gen_hand(g, seat, owner, weight):
    """Legal moves of the seat's hand (sorted by id) into ``O_MOVES``, ``weight < 0``: no scores.

    Cards with the same moves (same rank; J, Q and K together) form a group, generated once
    at its first (lowest-id) slot ``grp = group_of(g, k)``: its moves are
    ``[group_start(g, grp), group_end(g, grp))``; ``group_rank(g, grp)`` / ``group_best(g, grp)``
    are the lowest rank in the group and the slot of the card greedy plays (lowest rank, then
    lowest id).
    With scores, ``strategies.best_move`` is then the greedy/aggressive choice (-1: none).
    Returns the number of (card, move) choices, every card counted separately.
    """
    hn = hand_size(g, seat)
    for k in range(hn):
        r = rank(hand_card(g, seat, k))
        cls = move_class(r)
        g[group_class_at(k)] = cls
        grp = k
        for j in range(k - 1, -1, -1):
            if group_class(g, j) == cls:
                grp = j
        g[group_at(k)] = grp
        if grp == k:
            g[group_rank_at(k)] = r
            g[group_best_at(k)] = k
        elif r < group_rank(g, grp):
            g[group_rank_at(grp)] = r
            g[group_best_at(grp)] = k
    marble_info(g, owner)
    reset_best(g)
    n = 0
    total = 0
    for k in range(hn):
        grp = group_of(g, k)
        if grp == k:
            g[group_start_at(k)] = n
            n = gen_card(g, owner, k, group_class(g, k), n, weight)
            g[group_end_at(k)] = n
        total += group_end(g, grp) - group_start(g, grp)
    return total

"""Joker Marbles move generation: the legal (card, move) list of a hand (docs/rules/marbles.md).

``gen_hand`` lists, for the seat's hand (sorted by card id), every legal move of each group
of cards with the same moves (same rank; J, Q and K together) into the state's move list
``O_MOVES`` (``MW`` fields ``MV_*`` per move), once per group; the readings of the rules it
follows are those of ``rules.py``'s docstring. The order of the list is the documented legal
order of ``view.py``.

Generation can score as it goes (``weight >= 0``): a split's second part is scored on the
board its first part leaves, and the generator is the one place that board exists, so the
scores (``strategies.step_score``) and greedy's running best (``strategies.consider_move``)
are computed here, compiled out of nothing but skipped at run time for ``random``.
"""

from __future__ import annotations

from numba import njit

from montecards.engine.jit import hot
from montecards.games.marbles.cards import JOKER_RANK
from montecards.games.marbles.rules import (
    CASTLE0,
    CASTLE_HOLES,
    HAND_SLOTS,
    HOME,
    I_B1,
    I_B2,
    I_BW1,
    I_D,
    I_G1,
    I_G2,
    I_P,
    I_W1,
    IW,
    K_BACKWARD,
    K_FORWARD,
    K_JOKER,
    K_OUT,
    K_SPLIT7,
    K_SPLIT9,
    MARBLES,
    MOVE_CLASS,
    MV_C1,
    MV_C2,
    MV_E1,
    MV_E2,
    MV_KIND,
    MV_M1,
    MV_M2,
    MV_SCORE,
    MV_SLOT,
    MW,
    NONE,
    O_CMASK,
    O_COMEOUT,
    O_ENTRY,
    O_GBEST,
    O_GCLASS,
    O_GEND,
    O_GRANK,
    O_GROUP,
    O_GSTART,
    O_HAND,
    O_HAND_N,
    O_INFO,
    O_MOVES,
    O_NHOME,
    O_OCC,
    O_POS,
    O_TARGETS,
    RANK,
    S_JFT,
    S_L,
    S_NINE,
    S_OPTIONAL,
    S_PLAYERS,
    S_VDEST,
    U,
    apply_step,
    lowest_home,
    undo_step,
)
from montecards.games.marbles.strategies import consider_move, reset_best, step_score


@njit(cache=True)
def route_ends(p, d, gap, cm, n, L, optional):
    """``(castle_end, track_end)`` of a marble at ``p`` moved forward ``n`` (NONE: not legal).

    ``d``: holes to its castle entry (track marbles); ``gap``: holes to the nearest own track
    marble ahead (``L`` if none); ``cm``: the owner's occupied castle holes (bits ``1 << k``).
    """
    ce = NONE
    te = NONE
    if p >= CASTLE0:
        k = p - CASTLE0
        t = k + n
        if t <= CASTLE_HOLES and (cm & (((1 << (t + 1)) - 1) ^ ((1 << (k + 1)) - 1))) == 0:
            ce = CASTLE0 + t
    elif p != HOME:
        if d < n and n <= d + CASTLE_HOLES and d < gap:
            if (cm & ((1 << (n - d + 1)) - 2)) == 0:
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
    L = g[U(S_L)]
    base = O_POS + MARBLES * owner
    entry = g[U(O_ENTRY + owner)]
    # the owner's track marbles sorted by hole, in O_TARGETS
    k = 0
    for m in range(MARBLES):
        p = g[U(base + m)]
        ib = O_INFO + IW * m
        g[U(ib + I_P)] = p
        g[U(ib + I_G1)] = L
        g[U(ib + I_W1)] = -1
        g[U(ib + I_G2)] = L
        g[U(ib + I_B1)] = L
        g[U(ib + I_BW1)] = -1
        g[U(ib + I_B2)] = L
        if p >= 0 and p < CASTLE0:
            d = entry - p
            if d < 0:
                d += L
            g[U(ib + I_D)] = d
            j = k
            while j > 0 and g[U(base + g[U(O_TARGETS + j - 1)])] > p:
                g[U(O_TARGETS + j)] = g[U(O_TARGETS + j - 1)]
                j -= 1
            g[U(O_TARGETS + j)] = m
            k += 1
        else:
            g[U(ib + I_D)] = 0
    # in circular order, the next ones are ahead and the previous ones behind
    for i in range(k if k > 1 else 0):
        m = g[U(O_TARGETS + i)]
        p = g[U(base + m)]
        ib = O_INFO + IW * m
        j = i + 1 if i + 1 < k else 0
        q = g[U(O_TARGETS + j)]
        d = g[U(base + q)] - p
        if d < 0:
            d += L
        g[U(ib + I_G1)] = d
        g[U(ib + I_W1)] = q
        j = i - 1 if i > 0 else k - 1
        q = g[U(O_TARGETS + j)]
        d = p - g[U(base + q)]
        if d < 0:
            d += L
        g[U(ib + I_B1)] = d
        g[U(ib + I_BW1)] = q
        if k > 2:
            j = i + 2 if i + 2 < k else i + 2 - k
            d = g[U(base + g[U(O_TARGETS + j)])] - p
            if d < 0:
                d += L
            g[U(ib + I_G2)] = d
            j = i - 2 if i >= 2 else i - 2 + k
            d = p - g[U(base + g[U(O_TARGETS + j)])]
            if d < 0:
                d += L
            g[U(ib + I_B2)] = d


@hot
def add_move(g, n, slot, kind, m1, e1, c1, m2, e2, c2, score, weight):
    """Write move ``n`` of the list; when scoring (``weight >= 0``) let greedy consider it
    (``strategies.consider_move``). Returns ``n + 1``."""
    b = O_MOVES + MW * n
    g[U(b + MV_SLOT)] = slot
    g[U(b + MV_KIND)] = kind
    g[U(b + MV_M1)] = m1
    g[U(b + MV_E1)] = e1
    g[U(b + MV_C1)] = c1
    g[U(b + MV_M2)] = m2
    g[U(b + MV_E2)] = e2
    g[U(b + MV_C2)] = c2
    g[U(b + MV_SCORE)] = score
    if weight >= 0:
        consider_move(g, n, slot, m1, score)
    return n + 1


@hot
def gen_forward(g, owner, slot, kind, n_steps, n, weight):
    """Whole forward moves by ``n_steps``: marble ascending, castle end before track end."""
    L = g[U(S_L)]
    cm = g[U(O_CMASK + owner)]
    optional = g[U(S_OPTIONAL)]
    for m in range(MARBLES):
        ib = O_INFO + IW * m
        p = g[U(ib + I_P)]
        if p != HOME:
            ce, te = route_ends(p, g[U(ib + I_D)], g[U(ib + I_G1)], cm, n_steps, L, optional)
            for which in range(2):
                e = ce if which == 0 else te
                if e != NONE:
                    s = step_score(g, owner, m, e, weight) if weight >= 0 else 0
                    n = add_move(g, n, slot, kind, m, e, n_steps, -1, 0, 0, s, weight)
    return n


@hot
def gen_backward(g, owner, slot, n, weight):
    """The 8: each own track marble backward 8, marble ascending."""
    L = g[U(S_L)]
    for m in range(MARBLES):
        ib = O_INFO + IW * m
        p = g[U(ib + I_P)]
        if p >= 0 and p < CASTLE0 and 8 < g[U(ib + I_B1)]:
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
    L = g[U(S_L)]
    cm = g[U(O_CMASK + owner)]
    optional = g[U(S_OPTIONAL)]
    last = MARBLES if g[U(O_NHOME + owner)] <= MARBLES - 2 else 0  # two marbles out needed
    for m1 in range(last):
        ib1 = O_INFO + IW * m1
        p1 = g[U(ib1 + I_P)]
        if p1 == HOME:
            continue
        for a in range(1, total):
            if p1 >= CASTLE0 and p1 - CASTLE0 + a > CASTLE_HOLES:
                break
            ce, te = route_ends(p1, g[U(ib1 + I_D)], g[U(ib1 + I_G1)], cm, a, L, optional)
            for which in range(2):
                e1 = ce if which == 0 else te
                if e1 == NONE:
                    continue
                # the owner's castle holes once the first part is made
                cm2 = cm
                if p1 >= CASTLE0:
                    cm2 &= ~(1 << (p1 - CASTLE0))
                e1_track = e1 < CASTLE0
                if not e1_track:
                    cm2 |= 1 << (e1 - CASTLE0)
                # legality of the second part needs only the table and cm2; its score needs
                # the board the first part leaves (bumps included)
                scoring = weight >= 0
                s1 = 0
                victim = -1
                vdest = HOME
                if scoring:
                    s1 = step_score(g, owner, m1, e1, weight)
                    victim = apply_step(g, owner, m1, e1)
                    vdest = g[U(S_VDEST)]
                b = total - a
                for m2 in range(MARBLES):
                    ib2 = O_INFO + IW * m2
                    p2 = g[U(ib2 + I_P)]
                    if m2 == m1 or p2 == HOME or (backward and p2 >= CASTLE0):
                        continue
                    # the nearest own track marble ahead (behind for the 9), the first marble
                    # at its new hole
                    if backward:
                        gap = g[U(ib2 + I_B2)] if g[U(ib2 + I_BW1)] == m1 else g[U(ib2 + I_B1)]
                        de = p2 - e1
                    else:
                        gap = g[U(ib2 + I_G2)] if g[U(ib2 + I_W1)] == m1 else g[U(ib2 + I_G1)]
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
                        ce2, te2 = route_ends(p2, g[U(ib2 + I_D)], gap, cm2, b, L, optional)
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
    if g[U(O_NHOME + owner)] > 0:
        c = g[U(O_COMEOUT + owner)]
        v = g[U(O_OCC + c)]
        if v < 0 or v // MARBLES != owner:
            m = lowest_home(g, owner)
            s = step_score(g, owner, m, c, weight) if weight >= 0 else 0
            n = add_move(g, n, slot, K_OUT, m, c, 0, -1, 0, 0, s, weight)
    return n


@hot
def gen_joker(g, owner, slot, n, weight):
    """Sources (the home source, then track marbles with ``joker_from_track``) x target holes
    ascending (every track marble of another player)."""
    has_home = g[U(O_NHOME + owner)] > 0
    jft = g[U(S_JFT)] != 0
    nt = 0
    if has_home or jft:
        for s in range(g[U(S_PLAYERS)]):
            if s != owner:
                for j in range(MARBLES):
                    h = g[U(O_POS + MARBLES * s + j)]
                    if h >= 0 and h < CASTLE0:
                        k = nt
                        while k > 0 and g[U(O_TARGETS + k - 1)] > h:
                            g[U(O_TARGETS + k)] = g[U(O_TARGETS + k - 1)]
                            k -= 1
                        g[U(O_TARGETS + k)] = h
                        nt += 1
    if nt > 0:
        base = O_POS + MARBLES * owner
        first = lowest_home(g, owner) if has_home else -1
        last = MARBLES if jft else 0
        for src in range(-1, last):
            m = first
            if src >= 0:
                p = g[U(base + src)]
                m = src if p >= 0 and p < CASTLE0 else -1
            if m >= 0:
                for i in range(nt):
                    h = g[U(O_TARGETS + i)]
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
        if rank == 7 or (rank == 9 and g[U(S_NINE)] != 0):
            n = gen_split(g, owner, slot, rank, n, weight)
    return n


@hot
def gen_hand(g, seat, owner, weight):
    """Legal moves of the seat's hand (sorted by id) into ``O_MOVES``, ``weight < 0``: no scores.

    Cards with the same moves (same rank; J, Q and K together) form a group, generated once
    at its first (lowest-id) slot ``grp = g[U(O_GROUP + k)]``: its moves are
    ``[g[U(O_GSTART + grp)], g[U(O_GEND + grp)])``; ``O_GRANK + grp`` / ``O_GBEST + grp`` hold the lowest
    rank in the group and the slot of the card greedy plays (lowest rank, then lowest id).
    With scores, ``strategies.best_move`` is then the greedy/aggressive choice (-1: none).
    Returns the number of (card, move) choices, every card counted separately.
    """
    hb = O_HAND + HAND_SLOTS * seat
    hn = g[U(O_HAND_N + seat)]
    for k in range(hn):
        r = RANK[U(g[U(hb + k)])]
        cls = MOVE_CLASS[U(r)]
        g[U(O_GCLASS + k)] = cls
        grp = k
        for j in range(k - 1, -1, -1):
            if g[U(O_GCLASS + j)] == cls:
                grp = j
        g[U(O_GROUP + k)] = grp
        if grp == k:
            g[U(O_GRANK + k)] = r
            g[U(O_GBEST + k)] = k
        elif r < g[U(O_GRANK + grp)]:
            g[U(O_GRANK + grp)] = r
            g[U(O_GBEST + grp)] = k
    marble_info(g, owner)
    reset_best(g)
    n = 0
    total = 0
    for k in range(hn):
        grp = g[U(O_GROUP + k)]
        if grp == k:
            g[U(O_GSTART + k)] = n
            n = gen_card(g, owner, k, g[U(O_GCLASS + k)], n, weight)
            g[U(O_GEND + k)] = n
        total += g[U(O_GEND + grp)] - g[U(O_GSTART + grp)]
    return total

"""Joker Marbles rules as jitted functions over ONE flat int64 state array ``g`` (docs/rules/marbles.md).

The rules read the state through the accessors below (``position(g, seat, m)``,
``occupant(g, hole)``, ``hand_card(g, seat, k)``, ...) and write it as ``g[pos_at(seat, m)]``;
move generation is ``moves.py``, the strategies and their scoring ``strategies.py``.

State layout (named offsets below): the rules' state only, ``STATE_SIZE`` ints: scalars
``S_*``, then per-seat blocks ``O_*``:

* ``O_POS + 5 * seat + m``: marble ``m`` of ``seat`` at ``HOME`` (-1), a track hole
  ``0 <= h < L`` (``L = holes_per_side * sides``), or castle hole ``k`` (1..marbles) encoded
  ``CASTLE0 + k``; ``NONE`` for ``m >= marbles`` (``S_MARBLES``);
* ``O_OCC + h``: marble id (``5 * seat + m``) on track hole ``h``, or -1;
* ``O_CMASK + seat``: the seat's occupied castle holes as bits ``1 << k``, and the holes past
  its castle (``marbles + 1 .. 5``, ``castle_holes(marbles, CASTLE_HOLES)``) always set: a move
  into them is blocked as by an own marble, which the rules treat alike (the marble goes on
  around the track), so move generation needs no castle size of its own;
* ``O_HAND + 6 * seat``: the hand, kept sorted by card id; ``O_PILE``: the draw pile (cards
  ``[S_DRAWN, S_PILE_N)`` still to draw, top first); ``O_DISC``: the discard pile, oldest first;
* ``S_VDEST``: where the marble that ``apply_step`` last bumped went (home, or its entry
  hole): the rule's second result, kept in the state as the trace, the undo and the
  strategies' scores read it;
* ``O_MOVES``: the turn's legal (card, move) list (``MW`` ints per move, fields ``MV_*``),
  which ``moves.gen_hand`` writes and ``play_card`` plays a move of, then the hand's groups
  of cards with the same moves (``O_GROUP`` .. ``O_GBEST``). Everything before ``O_MOVES``
  is the game a turn starts from; the list and its groups are made anew every turn.

The same array goes on past ``STATE_SIZE`` with what is no rule's: the strategies' scratch
(``strategies.py``: greedy's running best, ``weighted``'s per-decision tables), then move
generation's working space (``moves.py``: the mover's marble table), ``moves.WORK_SIZE`` ints
in all, which the kernel allocates. It is one array, not three, because each extra array is
one more argument through the whole turn loop (Gift of Tulips measured +5 % time per game).

Readings of the rules page (the same as the naive oracle's R1-R14, which are sensible):

* A forward track move by ``n`` from hole ``h`` passes holes ``h+1 .. h+n``. With
  ``d = (entry - h) mod L`` the castle route exists when ``d < n <= d + c`` (``c`` the castle's
  holes, the ``marbles`` parameter, 5 official; a marble standing on its own entry, ``d = 0``,
  may enter with 1..c): holes ``h+1 .. h+d`` then castle holes
  ``1 .. n-d``. Any own marble on a route blocks it; other players' marbles never do. ``auto``:
  the castle route is taken whenever it is open; otherwise (overshoot, or blocked way in) the
  marble goes on around the track if that route is open. ``optional``: both are moves.
* Castle marbles move forward only, by any forward count, staying within hole ``c`` and passing
  no own castle marble. The 8 (and a 9 split's backward part) moves track marbles only, never
  into or out of the castle; own track marbles on the way block it.
* No hole is protected (come-out holes neither). "Out" and the joker's home source take the
  lowest-indexed marble at home. Joker targets: every track marble of another player
  (teammates included), one move per (source, target hole); a jumping track marble vacates
  its hole first.
* A 7 split: parts ``a + (7 - a)`` on two different marbles of the owner, in each order; the
  second part is checked and scored on the board left by the first (its bump included). A 9
  split (``nine_split``): forward part ``a = 1..8`` first, then another own track marble
  backward ``9 - a``.
* Bumping: an opponent's marble goes home; a teammate's (relative to the owner of the moving
  marbles) goes to its own entry hole, or home if that hole holds any marble once the mover
  has landed (the mover's vacated hole counts as free).
* Team play: a seat whose marbles are all in its castle plays, for its whole turn, for the first
  unfinished teammate in seat order k+1, k+2, ...; a win is checked after each complete move.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.jit import hot, hot_inline
from montecards.engine.trace import trace_slot
from montecards.games.marbles.cards import CARDS_PER_DECK
from montecards.rng import bounded

MARBLES = 5
"""Marbles per player the state layout holds (marble id ``5 * seat + m``): the most the
``marbles`` parameter allows. A game with fewer uses marbles ``0 .. marbles-1`` of each seat
(``S_MARBLES``); the slots past them hold ``NONE`` and no loop of the rules reads them."""
CASTLE_HOLES = 5
"""Castle holes of the official board (= ``marbles``' default): a castle has as many holes as
a player has marbles, ``S_MARBLES`` at run time."""
SIDE_HOLES = 18
"""Holes per side of the official board (``holes_per_side``' default; ``S_SIDE_HOLES``)."""
MIN_SIDE_HOLES = 10
"""The shortest side ``holes_per_side`` allows: the castle entry (hole 3 of the side) and the
come-out hole (hole 8) on it, and at least one hole after the come-out hole."""
ENTRY_OFFSET = 3
COME_OUT_OFFSET = 8
HOME_EXTRA = 10
"""A marble at home is ``HOME_EXTRA`` holes further from its castle than one on its come-out
hole (rules: Strategies, ``L + marbles + 5`` in all; ``L + 10`` on the official board)."""
HAND_SIZE = 5
HAND_SLOTS = 6
MAX_PLAYERS = 6
MAX_SIDES = 12
MAX_TRACK = SIDE_HOLES * MAX_SIDES
MAX_DECKS = 4
MAX_CARDS = CARDS_PER_DECK * MAX_DECKS
RANK = np.array([14 if c % CARDS_PER_DECK >= 52 else c % CARDS_PER_DECK % 13 + 1
                 for c in range(MAX_CARDS)], dtype=np.int64)
"""Rank of each card id (A = 1 .. K = 13, joker = 14), a constant table for the kernel."""
MOVE_CLASS = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11, 11, 14], dtype=np.int64)
"""Cards whose moves are the same share a class: J, Q and K (out, or forward 10)."""

HOME = -1
CASTLE0 = 1000
"""Castle hole ``k`` of a marble's owner is position ``CASTLE0 + k``."""
NONE = -2
"""No end position (the route is not legal)."""

TEAMS_NONE = 0
TEAMS_PAIRS = 1
TEAMS_TWO = 2

# move kinds
K_OUT = 0
K_FORWARD = 1
K_BACKWARD = 2
K_SPLIT7 = 3
K_SPLIT9 = 4
K_JOKER = 5
KIND_NAMES = ("out", "forward", "backward", "split7", "split9", "joker")

# fields of one move record
MV_SLOT = 0  # hand slot of the card (the lowest-id card of its rank)
MV_KIND = 1
MV_M1 = 2
MV_E1 = 3
MV_C1 = 4
MV_M2 = 5  # -1 when the move has one step
MV_E2 = 6
MV_C2 = 7
MV_SCORE = 8
MW = 9
MAX_MOVES = 1024
"""Bound on the moves of one hand: generated once per distinct rank, at most 490 (7 with
``optional``) + 330 (9 split) + 125 (joker from track, 6 players) + 3 * 11."""

# scalar slots
S_PLAYERS = 0
S_L = 1
S_TEAMS = 2
S_NINE = 3
S_JFT = 4
S_OPTIONAL = 5
S_NCARDS = 6
S_MAX_TURNS = 7
S_TURNS = 8
S_PILE_N = 9
S_DRAWN = 10
S_DISC_N = 11
S_WON = 12
S_BUMPS = 13
S_DISCARDS = 14
S_RESHUFFLES = 15
S_SIDES = 16
S_VDEST = 17  # where the last bumped marble went (``apply_step``'s second result)
S_MARBLES = 18  # marbles per player (= castle holes)
S_HOME_DIST = 19  # remaining distance of a marble at home: L + marbles + 5
S_SIDE_HOLES = 20  # holes per side
N_SCALARS = 24

O_ENTRY = N_SCALARS
O_COMEOUT = O_ENTRY + MAX_PLAYERS
O_TEAM = O_COMEOUT + MAX_PLAYERS
O_POS = O_TEAM + MAX_PLAYERS
O_CMASK = O_POS + MAX_PLAYERS * MARBLES
O_INCASTLE = O_CMASK + MAX_PLAYERS
O_NHOME = O_INCASTLE + MAX_PLAYERS
O_HAND_N = O_NHOME + MAX_PLAYERS
O_HAND = O_HAND_N + MAX_PLAYERS
O_MADE = O_HAND + MAX_PLAYERS * HAND_SLOTS
O_SUFFERED = O_MADE + MAX_PLAYERS
O_DISCARDED = O_SUFFERED + MAX_PLAYERS
O_WINNER = O_DISCARDED + MAX_PLAYERS
O_OCC = O_WINNER + MAX_PLAYERS
O_PILE = O_OCC + MAX_TRACK
O_DISC = O_PILE + MAX_CARDS
O_MOVES = O_DISC + MAX_CARDS
"""The turn's legal moves (``MW`` ints per move, fields ``MV_*``); everything before it is the
game a turn starts from (what ``search.copy_game`` copies)."""
O_GROUP = O_MOVES + MAX_MOVES * MW  # per hand slot: the slot whose moves it shares (same rank)
O_GSTART = O_GROUP + HAND_SLOTS
O_GEND = O_GSTART + HAND_SLOTS
O_GCLASS = O_GEND + HAND_SLOTS
O_GRANK = O_GCLASS + HAND_SLOTS
O_GBEST = O_GRANK + HAND_SLOTS
STATE_SIZE = O_GBEST + HAND_SLOTS
"""The rules' state. The strategies' scratch (``strategies.py``) and move generation's working
space (``moves.py``) follow it in the same array, ``moves.WORK_SIZE`` ints in all."""

# trace events: rows (ev, turn, seat, card, owner, marble, start, end, value)
EV_DEAL = 0
EV_RESHUFFLE = 1
EV_DRAW = 2
EV_PLAY = 3
EV_STEP = 4
EV_BUMP = 5
EV_DISCARD = 6
EV_WIN = 7
EV_UNDRAWN = 8
TRACE_WIDTH = 9



# --------------------------------------------------------------------------- state accessors
# Read the state with ``name(g, ...)``, write it with ``g[name_at(...)] = ...``: the offset
# arithmetic is in one place, and the offsets are unsigned, so numba indexes without its
# fix-up for negative indices (they are all >= 0). Scalars are read as ``g[S_NAME]`` (a
# constant offset needs no cast). All inline: the machine code is that of raw offsets.


@njit(cache=True, inline="always")
def at(offset, i):
    """State offset ``offset + i``, unsigned."""
    return np.uint64(offset + i)


@njit(cache=True, inline="always")
def pos_at(seat, m):
    return np.uint64(O_POS + MARBLES * seat + m)


@njit(cache=True, inline="always")
def marble_at(mid):
    """Offset of the position of marble id ``mid = 5 * seat + m``."""
    return np.uint64(O_POS + mid)


@njit(cache=True, inline="always")
def position(g, seat, m):
    """Position of marble ``m`` of ``seat``: ``HOME``, a track hole, or ``CASTLE0 + k``."""
    return g[pos_at(seat, m)]


@njit(cache=True, inline="always")
def marble_pos(g, mid):
    return g[marble_at(mid)]


@njit(cache=True, inline="always")
def occ_at(hole):
    return np.uint64(O_OCC + hole)


@njit(cache=True, inline="always")
def occupant(g, hole):
    """Marble id on track hole ``hole``, or -1."""
    return g[occ_at(hole)]


@njit(cache=True, inline="always")
def cmask_at(seat):
    return np.uint64(O_CMASK + seat)


@njit(cache=True, inline="always")
def castle_mask(g, seat):
    """The seat's occupied castle holes as bits ``1 << k``."""
    return g[cmask_at(seat)]


@njit(cache=True, inline="always")
def castle_bit(pos):
    """The bit of castle position ``pos = CASTLE0 + k`` in a castle mask: ``1 << k``."""
    return 1 << (pos - CASTLE0)


@njit(cache=True, inline="always")
def castle_holes(lo, hi):
    """Mask of castle holes ``lo + 1 .. hi``: those a castle move from hole ``lo`` to hole
    ``hi`` passes or lands on (``lo = 0``: coming in from the entry)."""
    return ((1 << (hi + 1)) - 1) ^ ((1 << (lo + 1)) - 1)


@njit(cache=True, inline="always")
def in_castle_at(seat):
    return np.uint64(O_INCASTLE + seat)


@njit(cache=True, inline="always")
def in_castle(g, seat):
    return g[in_castle_at(seat)]


@njit(cache=True, inline="always")
def at_home_at(seat):
    return np.uint64(O_NHOME + seat)


@njit(cache=True, inline="always")
def at_home(g, seat):
    return g[at_home_at(seat)]


@njit(cache=True, inline="always")
def entry_at(seat):
    return np.uint64(O_ENTRY + seat)


@njit(cache=True, inline="always")
def entry(g, seat):
    """The seat's castle entry hole."""
    return g[entry_at(seat)]


@njit(cache=True, inline="always")
def come_out_at(seat):
    return np.uint64(O_COMEOUT + seat)


@njit(cache=True, inline="always")
def come_out(g, seat):
    return g[come_out_at(seat)]


@njit(cache=True, inline="always")
def team_at(seat):
    return np.uint64(O_TEAM + seat)


@njit(cache=True, inline="always")
def team(g, seat):
    return g[team_at(seat)]


@njit(cache=True, inline="always")
def hand_at(seat, k):
    return np.uint64(O_HAND + HAND_SLOTS * seat + k)


@njit(cache=True, inline="always")
def hand_card(g, seat, k):
    """Card ``k`` of the seat's hand (sorted by id)."""
    return g[hand_at(seat, k)]


@njit(cache=True, inline="always")
def hand_n_at(seat):
    return np.uint64(O_HAND_N + seat)


@njit(cache=True, inline="always")
def hand_size(g, seat):
    return g[hand_n_at(seat)]


@njit(cache=True, inline="always")
def pile_at(i):
    """Offset of card ``i`` of the draw pile (cards ``[S_DRAWN, S_PILE_N)`` still to draw)."""
    return np.uint64(O_PILE + i)


@njit(cache=True, inline="always")
def disc_at(i):
    """Offset of card ``i`` of the discard pile (oldest first)."""
    return np.uint64(O_DISC + i)


@njit(cache=True, inline="always")
def winner_at(seat):
    return np.uint64(O_WINNER + seat)


@njit(cache=True, inline="always")
def made_at(seat):
    return np.uint64(O_MADE + seat)


@njit(cache=True, inline="always")
def suffered_at(seat):
    return np.uint64(O_SUFFERED + seat)


@njit(cache=True, inline="always")
def discarded_at(seat):
    return np.uint64(O_DISCARDED + seat)


@njit(cache=True, inline="always")
def move_at(n, field):
    """Offset of field ``MV_*`` of move ``n`` of the move list."""
    return np.uint64(O_MOVES + MW * n + field)


@njit(cache=True, inline="always")
def group_at(k):
    return np.uint64(O_GROUP + k)


@njit(cache=True, inline="always")
def group_of(g, k):
    """The hand slot whose moves slot ``k`` shares (the first of its group)."""
    return g[group_at(k)]


@njit(cache=True, inline="always")
def group_start_at(grp):
    return np.uint64(O_GSTART + grp)


@njit(cache=True, inline="always")
def group_start(g, grp):
    """First move of group ``grp`` in the move list."""
    return g[group_start_at(grp)]


@njit(cache=True, inline="always")
def group_end_at(grp):
    return np.uint64(O_GEND + grp)


@njit(cache=True, inline="always")
def group_end(g, grp):
    """One past the last move of group ``grp``."""
    return g[group_end_at(grp)]


@njit(cache=True, inline="always")
def group_class_at(k):
    return np.uint64(O_GCLASS + k)


@njit(cache=True, inline="always")
def group_class(g, k):
    return g[group_class_at(k)]


@njit(cache=True, inline="always")
def group_rank_at(grp):
    return np.uint64(O_GRANK + grp)


@njit(cache=True, inline="always")
def group_rank(g, grp):
    """The lowest card rank in group ``grp`` (greedy's tie rule)."""
    return g[group_rank_at(grp)]


@njit(cache=True, inline="always")
def group_best_at(grp):
    return np.uint64(O_GBEST + grp)


@njit(cache=True, inline="always")
def group_best(g, grp):
    """The slot of the card greedy plays for a move of group ``grp``."""
    return g[group_best_at(grp)]


@njit(cache=True, inline="always")
def rank(card):
    """A = 1 .. K = 13, joker = 14, from the constant table."""
    return RANK[np.uint64(card)]


@njit(cache=True, inline="always")
def move_class(rank):
    return MOVE_CLASS[np.uint64(rank)]


def new_state() -> np.ndarray:
    """The rules' state alone (``STATE_SIZE``); a turn's play (``moves.gen_hand`` and the
    choosers) needs the whole working array, ``np.zeros(moves.WORK_SIZE, np.int64)``."""
    return np.zeros(STATE_SIZE, np.int64)


@hot
def record(trace, ev, turn, seat, card, owner, marble, start, end, value):
    """Append one event to ``trace`` (row 0 holds the count: ``engine.trace.trace_slot``); a
    (0, k) trace records nothing.

    The count goes on past a full buffer, so an overflow is seen (``game`` raises on it),
    never silently cut. ``trace`` None records nothing and compiles to nothing: runs and the
    search's play-outs pass None (numba prunes the test of an argument, here where it is one:
    ``record`` is compiled as a function, not inlined, so its None copy compiles once; a
    (0, k) buffer would leave every event's test and its code in the kernel)."""
    if trace is not None:
        n = trace_slot(trace)
        if n >= 0:
            trace[n, 0] = ev
            trace[n, 1] = turn
            trace[n, 2] = seat
            trace[n, 3] = card
            trace[n, 4] = owner
            trace[n, 5] = marble
            trace[n, 6] = start
            trace[n, 7] = end
            trace[n, 8] = value


# --------------------------------------------------------------------------- set-up, cards


@hot
def set_up(g, players, teams, sides, decks, nine, jft, optional, max_turns, side_holes, marbles):
    """Empty board, geometry and teams; the draw pile holds the cards 0..n-1 in order.

    Seat k's side starts at hole ``side_holes * side``; its castle entry is hole 3 and its
    come-out hole hole 8 of that side (rules: Components and board)."""
    for i in range(O_OCC):
        g[at(0, i)] = 0
    L = side_holes * sides
    g[S_PLAYERS] = players
    g[S_L] = L
    g[S_SIDES] = sides
    g[S_SIDE_HOLES] = side_holes
    g[S_MARBLES] = marbles
    # a marble on its come-out hole: L - 5 holes to the entry, + marbles; at home HOME_EXTRA more
    g[S_HOME_DIST] = L - (COME_OUT_OFFSET - ENTRY_OFFSET) + marbles + HOME_EXTRA
    g[S_TEAMS] = teams
    g[S_NINE] = nine
    g[S_JFT] = jft
    g[S_OPTIONAL] = optional
    n_cards = CARDS_PER_DECK * decks
    g[S_NCARDS] = n_cards
    g[S_MAX_TURNS] = max_turns
    for k in range(players):
        side = k * sides // players
        g[entry_at(k)] = side_holes * side + ENTRY_OFFSET
        g[come_out_at(k)] = side_holes * side + COME_OUT_OFFSET
        if teams == TEAMS_NONE:
            g[team_at(k)] = k
        elif teams == TEAMS_PAIRS:
            g[team_at(k)] = k % (players // 2)
        else:
            g[team_at(k)] = k % 2
        for m in range(MARBLES):
            g[pos_at(k, m)] = HOME if m < marbles else NONE
        g[at_home_at(k)] = marbles
        g[cmask_at(k)] = castle_holes(marbles, CASTLE_HOLES)  # the holes past the castle
    for h in range(L):
        g[occ_at(h)] = -1
    for c in range(n_cards):
        g[pile_at(c)] = c
    g[S_PILE_N] = n_cards
    g[S_DRAWN] = 0
    g[S_DISC_N] = 0


@hot
def draw_card(g, rng, lazy):
    """Top card of the draw pile (lazy Fisher-Yates from ``rng``, or the next in order)."""
    d = g[S_DRAWN]
    if lazy:
        j = d + bounded(rng, g[S_PILE_N] - d)
        card = g[pile_at(j)]
        g[pile_at(j)] = g[pile_at(d)]
        g[pile_at(d)] = card
    else:
        card = g[pile_at(d)]
    g[S_DRAWN] = d + 1
    return card


@hot
def hand_insert(g, seat, card):
    """Add ``card`` to the seat's hand, keeping it sorted by card id."""
    k = hand_size(g, seat)
    while k > 0 and hand_card(g, seat, k - 1) > card:
        g[hand_at(seat, k)] = hand_card(g, seat, k - 1)
        k -= 1
    g[hand_at(seat, k)] = card
    g[hand_n_at(seat)] += 1


@hot
def hand_remove(g, seat, slot):
    """Take the card at ``slot`` out of the seat's hand onto the discard pile; returns it."""
    card = hand_card(g, seat, slot)
    n = hand_size(g, seat) - 1
    for k in range(slot, n):
        g[hand_at(seat, k)] = hand_card(g, seat, k + 1)
    g[hand_n_at(seat)] = n
    g[disc_at(g[S_DISC_N])] = card
    g[S_DISC_N] += 1
    return card


@hot_inline
def deal(g, players, rng, lazy, trace):
    """Five cards to each seat in blocks (seat k gets deck cards 5k .. 5k+4, top first)."""
    for seat in range(players):
        g[hand_n_at(seat)] = 0
        for k in range(HAND_SIZE):
            card = draw_card(g, rng, lazy)
            hand_insert(g, seat, card)
            record(trace, EV_DEAL, -1, seat, card, -1, k, 0, 0, 0)


@njit(cache=True)
def rotate_hands(g, players, r):
    """Duplicate deals: the hand dealt to seat s goes to seat (s + r) % players (right after
    ``deal``, every hand ``HAND_SIZE`` cards; the trace's deal events keep the dealt seats)."""
    for _ in range(r):
        for k in range(HAND_SIZE):
            last = g[hand_at(players - 1, k)]
            for seat in range(players - 1, 0, -1):
                g[hand_at(seat, k)] = g[hand_at(seat - 1, k)]
            g[hand_at(0, k)] = last


@hot_inline
def reshuffle_lazy(g):
    """The whole discard pile becomes the draw pile (shuffled lazily as it is drawn)."""
    n = g[S_DISC_N]
    for i in range(n):
        g[pile_at(i)] = g[disc_at(i)]
    g[S_PILE_N] = n
    g[S_DRAWN] = 0
    g[S_DISC_N] = 0
    g[S_RESHUFFLES] += 1


# --------------------------------------------------------------------------- board queries


@hot
def dist(g, seat, p):
    """Remaining distance of a marble of ``seat`` at ``p`` (rules: Strategies)."""
    if p == HOME:
        r = g[S_HOME_DIST]
    elif p >= CASTLE0:
        r = g[S_MARBLES] - (p - CASTLE0)
    else:
        L = g[S_L]
        r = entry(g, seat) - p
        if r < 0:
            r += L
        r += g[S_MARBLES]
    return r


@hot
def mover(g, seat):
    """The seat whose marbles ``seat`` moves this turn; -1 if its whole team is done."""
    owner = seat
    if g[S_TEAMS] != TEAMS_NONE and in_castle(g, seat) == g[S_MARBLES]:
        owner = -1
        players = g[S_PLAYERS]
        for i in range(1, players):
            t = seat + i
            if t >= players:
                t -= players
            if owner < 0 and team(g, t) == team(g, seat) and in_castle(g, t) < g[S_MARBLES]:
                owner = t
    return owner


# --------------------------------------------------------------------------- moving


@hot
def apply_step(g, owner, m, end):
    """Move own marble ``m`` of ``owner`` to ``end``, bumping whatever stands there.

    Returns the bumped marble id (or -1); its destination is left in ``S_VDEST``.
    """
    mid = MARBLES * owner + m
    p = marble_pos(g, mid)
    if p == HOME:
        g[at_home_at(owner)] -= 1
    elif p >= CASTLE0:
        g[cmask_at(owner)] &= ~castle_bit(p)
        g[in_castle_at(owner)] -= 1
    else:
        g[occ_at(p)] = -1
    g[marble_at(mid)] = end
    victim = -1
    if end >= CASTLE0:
        g[cmask_at(owner)] |= castle_bit(end)
        g[in_castle_at(owner)] += 1
    else:
        v = occupant(g, end)
        if v >= 0:
            vs = v // MARBLES
            dest = HOME
            if team(g, vs) == team(g, owner):
                e = entry(g, vs)
                if e != end and occupant(g, e) < 0:
                    dest = e
            g[marble_at(v)] = dest
            if dest == HOME:
                g[at_home_at(vs)] += 1
            else:
                g[occ_at(dest)] = v
            g[S_VDEST] = dest
            victim = v
        g[occ_at(end)] = mid
    return victim


@hot
def undo_step(g, owner, m, start, victim, vdest):
    """Undo ``apply_step`` of marble ``m`` that stood at ``start`` (bump included)."""
    mid = MARBLES * owner + m
    end = marble_pos(g, mid)
    if end >= CASTLE0:
        g[cmask_at(owner)] &= ~castle_bit(end)
        g[in_castle_at(owner)] -= 1
    else:
        if victim >= 0:
            if vdest == HOME:
                g[at_home_at(victim // MARBLES)] -= 1
            else:
                g[occ_at(vdest)] = -1
            g[marble_at(victim)] = end
            g[occ_at(end)] = victim
        else:
            g[occ_at(end)] = -1
    g[marble_at(mid)] = start
    if start == HOME:
        g[at_home_at(owner)] += 1
    elif start >= CASTLE0:
        g[cmask_at(owner)] |= castle_bit(start)
        g[in_castle_at(owner)] += 1
    else:
        g[occ_at(start)] = mid


@hot
def lowest_home(g, owner):
    first = -1
    for m in range(MARBLES - 1, -1, -1):  # (marbles past S_MARBLES stand at NONE)
        if position(g, owner, m) == HOME:
            first = m
    return first


@hot
def make_step(g, seat, owner, card, m, end, count, turn, trace):
    """One step of a played move, for real: the bump, statistics and trace included."""
    start = position(g, owner, m)
    victim = apply_step(g, owner, m, end)
    record(trace, EV_STEP, turn, seat, card, owner, m, start, end, count)
    if victim >= 0:
        vs = victim // MARBLES
        g[made_at(seat)] += 1
        g[suffered_at(vs)] += 1
        g[S_BUMPS] += 1
        record(trace, EV_BUMP, turn, seat, card, vs, victim % MARBLES, end, g[S_VDEST], 0)


@hot
def play_card(g, seat, owner, slot, mv, turn, trace):
    """Play hand card ``slot`` onto the discard pile and make move ``mv`` of the move list
    (``moves.gen_hand``); True if it wins the game."""
    card = hand_remove(g, seat, slot)
    record(trace, EV_PLAY, turn, seat, card, owner, -1, -1, -1, g[move_at(mv, MV_KIND)])
    make_step(g, seat, owner, card, g[move_at(mv, MV_M1)], g[move_at(mv, MV_E1)],
            g[move_at(mv, MV_C1)], turn, trace)
    if g[move_at(mv, MV_M2)] >= 0:
        make_step(g, seat, owner, card, g[move_at(mv, MV_M2)], g[move_at(mv, MV_E2)],
                g[move_at(mv, MV_C2)], turn, trace)
    return check_win(g, owner)


@hot_inline
def discard_card(g, seat, slot, turn, trace):
    """No legal move: the card at ``slot`` goes to the discard pile without moving (Must play)."""
    card = hand_remove(g, seat, slot)
    g[discarded_at(seat)] += 1
    g[S_DISCARDS] += 1
    record(trace, EV_DISCARD, turn, seat, card, -1, -1, -1, -1, 0)


@hot
def place_marbles(g, players, positions):
    """Place marbles on an empty board (kernel encoding), updating every derived field;
    ``positions`` is ``(players, marbles)`` (``S_MARBLES``)."""
    for s in range(players):
        g[at_home_at(s)] = 0
        g[in_castle_at(s)] = 0
        g[cmask_at(s)] = castle_holes(g[S_MARBLES], CASTLE_HOLES)  # the holes past the castle
        for m in range(g[S_MARBLES]):
            p = positions[s, m]
            g[pos_at(s, m)] = p
            if p == HOME:
                g[at_home_at(s)] += 1
            elif p >= CASTLE0:
                g[cmask_at(s)] |= castle_bit(p)
                g[in_castle_at(s)] += 1
            else:
                g[occ_at(p)] = MARBLES * s + m


@hot
def castle_done(g, seat):
    return in_castle(g, seat) == g[S_MARBLES]


@hot_inline
def check_win(g, owner):
    """Has the owner (individual) or the owner's team finished? Marks the winners."""
    players = g[S_PLAYERS]
    winning = team(g, owner)
    won = True
    nm = g[S_MARBLES]
    for s in range(players):
        if team(g, s) == winning and in_castle(g, s) < nm:
            won = False
    if won:
        for s in range(players):
            if team(g, s) == winning:
                g[winner_at(s)] = 1
        g[S_WON] = 1
    return won

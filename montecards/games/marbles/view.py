"""Joker Marbles' decision interface: what a seat sees and which moves it may make.

The user documentation of this module is ``docs/strategies/marbles.md``; rules in
``docs/rules/marbles.md``.

Decisions
---------
Every turn, after its draw, the seat makes exactly one decision:

* ``DECISION_PLAY``: at least one card of its hand has a legal move (the rules' "must play"):
  choose a card and a move of it (a 7 split, a 9 split with ``nine_split``, a joker target...);
* ``DECISION_DISCARD``: no card has a legal move: choose the card to discard.

A seat whose own marbles are all in its castle in team play (``teams`` pairs or two) keeps
playing, for the first unfinished teammate in seat order k+1, k+2, ... (the rules' "Winning"):
its moves then move that teammate's marbles, the **owner** of the turn (``obs_owner``). In
individual play the owner is always the seat itself.

Move ids
--------
A move id is an int64 whose fields (named shifts and widths below) read::

    card | kind << 8 | marble << 11 | end << 14 | (marble2 + 1) << 25 | end2 << 28

* ``card``: the card id played or discarded (``cards.py``: ``13 * suit + rank - 1`` for the
  standard cards of a deck, 52/53 the jokers, +54 per further deck);
* ``kind``: ``KIND_OUT``, ``KIND_FORWARD``, ``KIND_BACKWARD``, ``KIND_SPLIT7``,
  ``KIND_SPLIT9``, ``KIND_JOKER`` (moves), ``KIND_DISCARD`` (no marble moves);
* ``marble``, ``end``: the first (or only) step: the owner's marble 0..4 and the position it
  ends on (positions as in the observation: track hole ``h``, castle hole ``k`` as
  ``CASTLE0 + k``); for a split, the part made first;
* ``marble2``, ``end2``: a split's second part (``move_marble2`` is -1 and ``move_end2`` 0
  for a one-step move).

The step's length is not in the id (the start is ``obs_position(obs, owner, marble)``); the
card, the kind and the marble(s) with their end(s) identify a move uniquely, also between two
cards of the same rank. Build ids with ``encode_move`` / ``discard_move``, read them with
``move_card``, ``move_kind``, ``move_marble``, ``move_end``, ``move_marble2``, ``move_end2``,
``move_is_split``, ``move_is_discard``; ``move_text`` writes one out.

Legal order
-----------
``DECISION_DISCARD``: one discard per hand card, cards ascending by id. ``DECISION_PLAY``: the
hand's cards ascending by id, and for each card its moves in the kernel's generation order
(two cards of one rank list the same moves; J, Q and K share theirs): out first (A, J, Q, K),
then whole moves marble ascending, castle end before track end; then splits (7; 9 with
``nine_split``) by first marble, first part 1, 2, ..., castle end before track end, second
marble, castle end before track end; the 8 marble ascending; the joker by source (the
lowest-indexed marble at home, then with ``joker_from_track`` the track marbles ascending),
then target hole ascending. The built-in ``random`` strategy draws uniformly an index into
exactly this list.

Observation
-----------
A flat int64 array of ``OBS_SIZE``; seats are absolute seat numbers (the deciding seat is
``obs_seat``), marbles are ids ``5 * seat + m``. Layout (``OBS_*`` offsets, ``obs_*`` accessors):
the decision kind, seat, owner, turn and public rule parameters; the hand; per seat its team,
castle entry, come-out hole, marbles at home and in the castle; every marble's position; the
track's occupants; the discard pile; counts of the cards this seat has not seen, by rank; the
board's marbles per player and holes per side. It
holds nothing else: not the other hands, not the order of the draw pile.
"""

from __future__ import annotations

from numba import njit

from montecards.engine.decisions import choice_index, log_slot
from montecards.engine.jit import hot
from montecards.games.marbles.cards import CARDS_PER_DECK, JOKER_RANK
from montecards.games.marbles.moves import gen_hand
from montecards.games.marbles.rules import (
    CASTLE0,
    HAND_SLOTS,
    HOME,
    K_BACKWARD,
    K_FORWARD,
    K_JOKER,
    K_OUT,
    K_SPLIT7,
    K_SPLIT9,
    MARBLES,
    MAX_CARDS,
    MAX_PLAYERS,
    MAX_TRACK,
    MV_E1,
    MV_E2,
    MV_KIND,
    MV_M1,
    MV_M2,
    S_DISC_N,
    S_DRAWN,
    S_JFT,
    S_L,
    S_MARBLES,
    S_MAX_TURNS,
    S_NCARDS,
    S_NINE,
    S_OPTIONAL,
    S_PILE_N,
    S_PLAYERS,
    S_SIDE_HOLES,
    S_SIDES,
    S_TEAMS,
    S_TURNS,
    at_home,
    come_out,
    disc_at,
    entry,
    group_end,
    group_of,
    group_start,
    hand_card,
    hand_size,
    in_castle,
    move_at,
    mover,
    occupant,
    position,
    rank,
    team,
)

# --------------------------------------------------------------------------- decisions

DECISION_PLAY = 0
"""The seat has a legal move and must play a card with one."""
DECISION_DISCARD = 1
"""No card of the hand has a legal move: the seat discards one."""
DECISION_NAMES = ("play", "discard")

# --------------------------------------------------------------------------- move ids

KIND_OUT = K_OUT
KIND_FORWARD = K_FORWARD
KIND_BACKWARD = K_BACKWARD
KIND_SPLIT7 = K_SPLIT7
KIND_SPLIT9 = K_SPLIT9
KIND_JOKER = K_JOKER
KIND_DISCARD = 6
MOVE_KIND_NAMES = ("out", "forward", "backward", "split7", "split9", "joker", "discard")

CARD_SHIFT = 0
CARD_BITS = 8  # card ids < 216 = 4 decks
KIND_SHIFT = 8
KIND_BITS = 3
MARBLE_SHIFT = 11
MARBLE_BITS = 3
END_SHIFT = 14
END_BITS = 11  # positions < CASTLE0 + 6 = 1006
MARBLE2_SHIFT = 25  # stores marble2 + 1 (0: no second part)
END2_SHIFT = 28

MAX_LEGAL = HAND_SLOTS * (2 * MARBLES + MARBLES * 6 * 2 * (MARBLES - 1) * 2)
"""The most legal moves of one decision: six 7s with optional castle entry, each listing
10 whole moves and 480 splits (first marble x first part 1..6 x 2 ends x second marble x 2
ends); a 9 split (330), a joker (125) or a discard (6) list fewer."""

HOME_POS = HOME
"""Position of a marble at home (-1); track holes are ``0 .. L-1``, castle holes ``CASTLE0 + k``."""


@njit(cache=True, inline="always")
def _field(move, shift, bits):
    return (move >> shift) & ((1 << bits) - 1)


@njit(cache=True, inline="always")
def encode_move(card, kind, marble, end, marble2, end2):
    """The id of a move: ``card`` played, ``marble`` to ``end`` then (``marble2 >= 0``, a
    split) ``marble2`` to ``end2``; pass ``marble2 = -1, end2 = 0`` for a one-step move."""
    return (
        (card << CARD_SHIFT)
        | (kind << KIND_SHIFT)
        | (marble << MARBLE_SHIFT)
        | (end << END_SHIFT)
        | ((marble2 + 1) << MARBLE2_SHIFT)
        | (end2 << END2_SHIFT)
    )


@njit(cache=True, inline="always")
def discard_move(card):
    """The id of discarding ``card`` (a ``DECISION_DISCARD`` move)."""
    return (card << CARD_SHIFT) | (KIND_DISCARD << KIND_SHIFT)


@njit(cache=True, inline="always")
def move_card(move):
    """The card id the move plays (or discards)."""
    return _field(move, CARD_SHIFT, CARD_BITS)


@njit(cache=True, inline="always")
def move_kind(move):
    """``KIND_OUT`` .. ``KIND_JOKER``, or ``KIND_DISCARD``."""
    return _field(move, KIND_SHIFT, KIND_BITS)


@njit(cache=True, inline="always")
def move_is_discard(move):
    return move_kind(move) == KIND_DISCARD


@njit(cache=True, inline="always")
def move_marble(move):
    """The owner's marble (0..4) of the move's first (or only) step."""
    return _field(move, MARBLE_SHIFT, MARBLE_BITS)


@njit(cache=True, inline="always")
def move_end(move):
    """Where the first (or only) step ends (track hole, or ``CASTLE0 + k``)."""
    return _field(move, END_SHIFT, END_BITS)


@njit(cache=True, inline="always")
def move_marble2(move):
    """The marble of a split's second part, -1 for a one-step move."""
    return _field(move, MARBLE2_SHIFT, MARBLE_BITS) - 1


@njit(cache=True, inline="always")
def move_end2(move):
    """Where a split's second part ends (0 for a one-step move)."""
    return _field(move, END2_SHIFT, END_BITS)


@njit(cache=True, inline="always")
def move_is_split(move):
    return move_marble2(move) >= 0


def move_text(move: int, decks: int = 1) -> str:
    """A move id as text (plain Python, for reading logs), e.g. ``"7H split7: marble 2 to
    track 33, marble 0 to castle 2"`` or ``"QS discard"``."""
    from montecards.games.marbles.cards import label

    move = int(move)
    head = f"{label(move_card(move), decks)} {MOVE_KIND_NAMES[move_kind(move)]}"
    if move_is_discard(move):
        return head
    steps = [(move_marble(move), move_end(move))]
    if move_is_split(move):
        steps.append((move_marble2(move), move_end2(move)))
    return head + ": " + ", ".join(f"marble {m} to {_place_text(e)}" for m, e in steps)


def _place_text(pos: int) -> str:
    if pos == HOME:
        return "home"
    return f"castle {pos - CASTLE0}" if pos >= CASTLE0 else f"track {pos}"


# --------------------------------------------------------------------------- positions, cards


@njit(cache=True, inline="always")
def is_home(pos):
    return pos == HOME


@njit(cache=True, inline="always")
def is_castle(pos):
    return pos >= CASTLE0


@njit(cache=True, inline="always")
def is_track(pos):
    return pos >= 0 and pos < CASTLE0


@njit(cache=True, inline="always")
def castle_hole(pos):
    """Castle hole ``k`` (1..5) of a castle position."""
    return pos - CASTLE0


@njit(cache=True, inline="always")
def marble_seat(marble_id):
    """The seat owning marble id ``5 * seat + m``."""
    return marble_id // MARBLES


@njit(cache=True, inline="always")
def marble_index(marble_id):
    """``m`` (0..4) of marble id ``5 * seat + m``."""
    return marble_id % MARBLES


@njit(cache=True, inline="always")
def card_rank(card):
    """A = 1 .. K = 13, joker = 14 (the rules' ranks for tie-breaks)."""
    return rank(card)


# --------------------------------------------------------------------------- observation layout

OBS_KIND = 0  # DECISION_PLAY or DECISION_DISCARD
OBS_SEAT = 1  # the deciding seat
OBS_OWNER = 2  # whose marbles the seat moves this turn (itself, or a teammate it plays for)
OBS_PLAYERS = 3
OBS_SIDES = 4
OBS_TRACK = 5  # track holes L = holes_per_side * sides
OBS_TEAMS = 6  # 0 none, 1 pairs, 2 two
OBS_DECKS = 7
OBS_NINE_SPLIT = 8  # 0/1
OBS_JOKER_FROM_TRACK = 9  # 0/1
OBS_CASTLE_OPTIONAL = 10  # castle_entry: 0 auto, 1 optional
OBS_MAX_TURNS = 11
OBS_TURN = 12  # turns played before this one (all seats)
OBS_DRAW_N = 13  # cards left in the draw pile
OBS_DISCARD_N = 14  # cards in the discard pile
OBS_HAND_N = 15
OBS_HAND = 16  # HAND_SLOTS card ids ascending, -1 past OBS_HAND_N
OBS_TEAM = OBS_HAND + HAND_SLOTS  # per seat: its team number (seats of one team share it)
OBS_ENTRY = OBS_TEAM + MAX_PLAYERS  # per seat: its castle entry hole
OBS_COMEOUT = OBS_ENTRY + MAX_PLAYERS  # per seat: its come-out hole
OBS_AT_HOME = OBS_COMEOUT + MAX_PLAYERS  # per seat: marbles at home
OBS_IN_CASTLE = OBS_AT_HOME + MAX_PLAYERS  # per seat: marbles in the castle (its score)
OBS_POS = OBS_IN_CASTLE + MAX_PLAYERS  # 5 * seat + m: marble position
OBS_OCC = OBS_POS + MAX_PLAYERS * MARBLES  # per track hole: marble id on it, or -1
OBS_DISCARD = OBS_OCC + MAX_TRACK  # the discard pile, oldest first, -1 past OBS_DISCARD_N
OBS_UNSEEN = OBS_DISCARD + MAX_CARDS  # rank 1..14 at OBS_UNSEEN + rank - 1: cards not seen
OBS_MARBLES = OBS_UNSEEN + JOKER_RANK  # marbles per player (= castle holes; 5 official)
OBS_SIDE_HOLES = OBS_MARBLES + 1  # holes per side (18 official)
OBS_SIZE = OBS_SIDE_HOLES + 1
"""Length of an observation; seat blocks are sized for ``MAX_PLAYERS`` seats (-1 past the
players), the track block for the largest board (-1 past ``L``)."""


@njit(cache=True, inline="always")
def obs_kind(obs):
    return obs[OBS_KIND]


@njit(cache=True, inline="always")
def obs_seat(obs):
    return obs[OBS_SEAT]


@njit(cache=True, inline="always")
def obs_owner(obs):
    """The seat whose marbles this turn's move moves (the seat, or the teammate it plays for)."""
    return obs[OBS_OWNER]


@njit(cache=True, inline="always")
def obs_players(obs):
    return obs[OBS_PLAYERS]


@njit(cache=True, inline="always")
def obs_track_len(obs):
    return obs[OBS_TRACK]


@njit(cache=True, inline="always")
def obs_marbles(obs):
    """Marbles per player, the castle's holes (the ``marbles`` parameter; 5 official). A
    seat's marbles ``m >= obs_marbles`` do not exist: their positions read ``NONE`` (-2)."""
    return obs[OBS_MARBLES]


@njit(cache=True, inline="always")
def obs_side_holes(obs):
    """Holes per side of the board (the ``holes_per_side`` parameter; 18 official)."""
    return obs[OBS_SIDE_HOLES]


@njit(cache=True, inline="always")
def obs_turn(obs):
    return obs[OBS_TURN]


@njit(cache=True, inline="always")
def obs_draw_count(obs):
    return obs[OBS_DRAW_N]


@njit(cache=True, inline="always")
def obs_hand_size(obs):
    return obs[OBS_HAND_N]


@njit(cache=True, inline="always")
def obs_hand_card(obs, k):
    """The ``k``-th card of the hand (ascending ids)."""
    return obs[OBS_HAND + k]


@njit(cache=True, inline="always")
def obs_team(obs, seat):
    return obs[OBS_TEAM + seat]


@njit(cache=True, inline="always")
def obs_same_team(obs, a, b):
    """Are seats ``a`` and ``b`` partners (or the same seat)? Always False between two seats
    in individual play."""
    return obs[OBS_TEAM + a] == obs[OBS_TEAM + b]


@njit(cache=True, inline="always")
def obs_entry(obs, seat):
    """The seat's castle entry hole."""
    return obs[OBS_ENTRY + seat]


@njit(cache=True, inline="always")
def obs_come_out(obs, seat):
    return obs[OBS_COMEOUT + seat]


@njit(cache=True, inline="always")
def obs_at_home(obs, seat):
    return obs[OBS_AT_HOME + seat]


@njit(cache=True, inline="always")
def obs_in_castle(obs, seat):
    return obs[OBS_IN_CASTLE + seat]


@njit(cache=True, inline="always")
def obs_position(obs, seat, m):
    """Position of marble ``m`` of ``seat``: ``HOME`` (-1), track hole, or ``CASTLE0 + k``."""
    return obs[OBS_POS + MARBLES * seat + m]


@njit(cache=True, inline="always")
def obs_occupant(obs, hole):
    """Marble id (``5 * seat + m``) on track hole ``hole``, or -1."""
    return obs[OBS_OCC + hole]


@njit(cache=True, inline="always")
def obs_discard_size(obs):
    return obs[OBS_DISCARD_N]


@njit(cache=True, inline="always")
def obs_discard_card(obs, k):
    """The ``k``-th card of the discard pile, oldest first."""
    return obs[OBS_DISCARD + k]


@njit(cache=True, inline="always")
def obs_unseen(obs, rank):
    """Cards of ``rank`` (1..14) the seat has not seen: not in its hand nor in the discard
    pile (they are in other hands or the draw pile)."""
    return obs[OBS_UNSEEN + rank - 1]


@njit(cache=True, inline="always")
def obs_remaining(obs, seat, pos):
    """The rules' remaining distance of a marble of ``seat`` at ``pos`` (Strategies), ``c``
    the marbles per player: home ``L + c + 5``; track: holes to its castle entry going forward
    + c; castle hole k: c - k (official board: ``L + 10``, + 5, 5 - k)."""
    L = obs[OBS_TRACK]
    c = obs[OBS_MARBLES]
    if pos == HOME:
        return L + c + 5
    if pos >= CASTLE0:
        return c - (pos - CASTLE0)
    d = obs[OBS_ENTRY + seat] - pos
    if d < 0:
        d += L
    return d + c


@njit(cache=True, inline="always")
def obs_bump_destination(obs, owner, start, end):
    """Where the marble on track hole ``end`` goes when ``owner``'s marble from ``start``
    lands there (Bumping): an opponent's goes home; a teammate's to its castle entry, or home
    if that hole is ``end`` itself or holds a marble once the mover has left ``start``."""
    victim_seat = obs[OBS_OCC + end] // MARBLES
    if obs[OBS_TEAM + victim_seat] == obs[OBS_TEAM + owner]:
        e = obs[OBS_ENTRY + victim_seat]
        if e != end and (obs[OBS_OCC + e] < 0 or e == start):
            return e
    return HOME


@njit(cache=True)
def obs_make_step(obs, owner, m, end):
    """Make one step on an observation (a copy, to look ahead): marble ``m`` of ``owner`` to
    ``end``, bumping what stands there; positions, occupants and counts are updated."""
    mid = MARBLES * owner + m
    start = obs[OBS_POS + mid]
    victim = obs[OBS_OCC + end] if is_track(end) else -1
    dest = obs_bump_destination(obs, owner, start, end) if victim >= 0 else HOME
    if is_track(start):
        obs[OBS_OCC + start] = -1
    elif is_home(start):
        obs[OBS_AT_HOME + owner] -= 1
    else:
        obs[OBS_IN_CASTLE + owner] -= 1
    if victim >= 0:
        obs[OBS_POS + victim] = dest
        if is_home(dest):
            obs[OBS_AT_HOME + victim // MARBLES] += 1
        else:
            obs[OBS_OCC + dest] = victim
    obs[OBS_POS + mid] = end
    if is_castle(end):
        obs[OBS_IN_CASTLE + owner] += 1
    else:
        obs[OBS_OCC + end] = mid


# --------------------------------------------------------------------------- kernel side


@hot
def observe(g, seat, kind, obs):
    """Fill all ``OBS_SIZE`` entries of ``obs`` with what ``seat`` knows at its decision
    ``kind`` on state ``g`` (after its draw)."""
    players = g[S_PLAYERS]
    L = g[S_L]
    obs[OBS_KIND] = kind
    obs[OBS_SEAT] = seat
    obs[OBS_OWNER] = mover(g, seat)
    obs[OBS_PLAYERS] = players
    obs[OBS_SIDES] = g[S_SIDES]
    obs[OBS_TRACK] = L
    obs[OBS_TEAMS] = g[S_TEAMS]
    decks = g[S_NCARDS] // CARDS_PER_DECK
    obs[OBS_DECKS] = decks
    obs[OBS_NINE_SPLIT] = g[S_NINE]
    obs[OBS_JOKER_FROM_TRACK] = g[S_JFT]
    obs[OBS_CASTLE_OPTIONAL] = g[S_OPTIONAL]
    obs[OBS_MAX_TURNS] = g[S_MAX_TURNS]
    obs[OBS_MARBLES] = g[S_MARBLES]
    obs[OBS_SIDE_HOLES] = g[S_SIDE_HOLES]
    obs[OBS_TURN] = g[S_TURNS]
    obs[OBS_DRAW_N] = g[S_PILE_N] - g[S_DRAWN]
    n_disc = g[S_DISC_N]
    obs[OBS_DISCARD_N] = n_disc
    hn = hand_size(g, seat)
    obs[OBS_HAND_N] = hn
    for r in range(JOKER_RANK):
        obs[OBS_UNSEEN + r] = (2 if r + 1 == JOKER_RANK else 4) * decks
    for k in range(HAND_SLOTS):
        card = hand_card(g, seat, k) if k < hn else -1
        obs[OBS_HAND + k] = card
        if card >= 0:
            obs[OBS_UNSEEN + rank(card) - 1] -= 1
    for s in range(MAX_PLAYERS):
        here = s < players
        obs[OBS_TEAM + s] = team(g, s) if here else -1
        obs[OBS_ENTRY + s] = entry(g, s) if here else -1
        obs[OBS_COMEOUT + s] = come_out(g, s) if here else -1
        obs[OBS_AT_HOME + s] = at_home(g, s) if here else -1
        obs[OBS_IN_CASTLE + s] = in_castle(g, s) if here else -1
        for m in range(MARBLES):
            obs[OBS_POS + MARBLES * s + m] = position(g, s, m) if here else HOME
    for h in range(MAX_TRACK):
        obs[OBS_OCC + h] = occupant(g, h) if h < L else -1
    for i in range(MAX_CARDS):
        card = g[disc_at(i)] if i < n_disc else -1
        obs[OBS_DISCARD + i] = card
        if card >= 0:
            obs[OBS_UNSEEN + rank(card) - 1] -= 1


@hot
def observe_again(g, seat, kind, obs):
    """``observe`` into a buffer that holds the observation of an earlier decision of the same
    game (the kernel's user path, one buffer per block of games): the same ``OBS_SIZE``
    entries, but what cannot change during a game is not written again (the rule parameters,
    the seats' teams, entries and come-out holes, the padding past the players and past the
    track), and of the discard pile's -1 padding only the entries the previous (longer) pile
    used. ``tests/test_view_marbles.py`` checks it against ``observe``."""
    players = g[S_PLAYERS]
    L = g[S_L]
    decks = obs[OBS_DECKS]
    obs[OBS_KIND] = kind
    obs[OBS_SEAT] = seat
    obs[OBS_OWNER] = mover(g, seat)
    obs[OBS_TURN] = g[S_TURNS]
    obs[OBS_DRAW_N] = g[S_PILE_N] - g[S_DRAWN]
    n_disc = g[S_DISC_N]
    old_disc = obs[OBS_DISCARD_N]
    obs[OBS_DISCARD_N] = n_disc
    hn = hand_size(g, seat)
    obs[OBS_HAND_N] = hn
    for r in range(JOKER_RANK):
        obs[OBS_UNSEEN + r] = (2 if r + 1 == JOKER_RANK else 4) * decks
    for k in range(HAND_SLOTS):
        card = hand_card(g, seat, k) if k < hn else -1
        obs[OBS_HAND + k] = card
        if card >= 0:
            obs[OBS_UNSEEN + rank(card) - 1] -= 1
    for s in range(players):
        obs[OBS_AT_HOME + s] = at_home(g, s)
        obs[OBS_IN_CASTLE + s] = in_castle(g, s)
        for m in range(MARBLES):
            obs[OBS_POS + MARBLES * s + m] = position(g, s, m)
    for h in range(L):
        obs[OBS_OCC + h] = occupant(g, h)
    for i in range(max(n_disc, old_disc)):
        card = g[disc_at(i)] if i < n_disc else -1
        obs[OBS_DISCARD + i] = card
        if card >= 0:
            obs[OBS_UNSEEN + rank(card) - 1] -= 1


@hot
def generated_move(g, card, i):
    """The id of move ``i`` of the turn's generated list (``O_MOVES``) played with ``card``."""
    return encode_move(card, g[move_at(i, MV_KIND)], g[move_at(i, MV_M1)], g[move_at(i, MV_E1)],
                       g[move_at(i, MV_M2)], g[move_at(i, MV_E2)])


@hot
def legal_moves(g, seat, kind, legal):
    """Fill ``legal[:n]`` with the seat's legal move ids in the documented order; returns n.

    For ``DECISION_PLAY`` the hand's moves are generated afresh (``moves.gen_hand``, no
    scores), exactly as the turn generated them."""
    hn = hand_size(g, seat)
    if kind == DECISION_DISCARD:
        for k in range(hn):
            legal[k] = discard_move(hand_card(g, seat, k))
        return hn
    gen_hand(g, seat, mover(g, seat), -1)
    return listed_moves(g, seat, legal)


@hot
def listed_moves(g, seat, legal):
    """``legal_moves`` of a ``DECISION_PLAY`` from the moves the turn already generated (the
    kernel's user path: its ``moves.gen_hand`` call was the one ``legal_moves`` makes)."""
    n = 0
    for k in range(hand_size(g, seat)):
        grp = group_of(g, k)
        for i in range(group_start(g, grp), group_end(g, grp)):
            legal[n] = generated_move(g, hand_card(g, seat, k), i)
            n += 1
    return n


@hot
def log_decision(g, seat, slot, mv, log):
    """Log the decision the seat's strategy just made (hand ``slot``; move ``mv`` of the
    generated list, -1: a discard): seat, observation, legal moves and the choice's index."""
    k = log_slot(log)
    if k >= 0:
        card = hand_card(g, seat, slot)
        kind = DECISION_PLAY if mv >= 0 else DECISION_DISCARD
        move = generated_move(g, card, mv) if mv >= 0 else discard_move(card)
        log[1][k] = seat
        observe(g, seat, kind, log[2][k])
        n = legal_moves(g, seat, kind, log[3][k])
        log[4][k] = n
        log[5][k] = choice_index(log[3][k], n, move)

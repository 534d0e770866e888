"""Naive, independent pure-Python reference ("oracle") of Joker Marbles (Pegs and Jokers).

Written only from the normative rules page ``docs/rules/marbles.md``.  It is deliberately slow and
obvious: every query scans the whole board, every candidate move is tried on a copy.  The fast
kernel is checked against it game by game through :func:`replay`.

Cards
-----
Card ids run over ``0 .. 54*decks - 1``.  Within one deck (``c = id % 54``):
``c = 13*suit + (rank - 1)`` for suits 0..3 and ranks A=1 .. K=13; ``c`` = 52, 53 are the two
jokers.  The next deck adds 54.  Card rank for tie-breaks: A=1 .. K=13, joker=14
(:func:`card_rank`).

Marble positions (one per marble; marbles are indexed 0..marbles-1 per seat, 0..4 official)
--------------------------------------------------------------------------------------------
* ``("home",)``        -- in the home (start area), not yet out;
* ``("track", hole)``  -- on the shared track, ``0 <= hole < holes_per_side*sides`` (clockwise
  numbering; 18*sides official);
* ``("castle", k)``    -- in the owner's castle hole ``k`` (1..marbles, 1..5 official), ``k``
  steps past its castle entry.
A state is ``State.pos[seat][marble]``.

Moves
-----
``Move(kind, owner, steps)`` where ``kind`` is one of ``"out"``, ``"forward"``, ``"backward"``,
``"split7"``, ``"split9"``, ``"joker"``; ``owner`` is the seat whose marbles move (the seat
itself, or in team play the teammate a finished seat plays for); ``steps`` is a tuple of
``Step(marble, start, end, count)`` executed in order (``count`` > 0 forward, < 0 backward, 0 for
out / joker).  Bumps are consequences of a move, not part of it.  Moves are plain (named) tuples:
a decision may give an equal plain tuple (nested lists are accepted by :func:`replay` too).

Order of ``legal_moves`` (used by the ``random`` strategy and as the last tie-break):
* A, J, Q, K: the "out" move first (if legal), then the forward moves;
* forward moves: marble index ascending; for one marble, the castle end before the track end
  (both only appear with ``castle_entry="optional"``);
* 7: the whole-7 forward moves first, then the splits ordered by (first marble, first part
  1..6, first part's end as above, second marble, second part's end);
* 9 with ``nine_split``: whole-9 forward moves, then splits ordered by (forward marble,
  forward part 1..8, its end, backward marble);
* 8: marble index ascending;
* joker: sources first (the home source -- the lowest-indexed home marble -- then, with
  ``joker_from_track``, own track marbles by index), for each source the targets by track hole
  ascending.
The "choices" of a hand (:func:`legal_choices`) are ``(card, move)`` pairs over the hand sorted
by card id ascending, each card's moves in the order above.

Readings of the rules page this oracle had to choose (documented decisions)
--------------------------------------------------------------------------
R1  Path of a forward track move by n from hole h: the track holes h+1 .. h+n.  With
    d = (entry - h) mod L (d = 0 when the marble stands on its own entry), the castle route
    exists when d < n <= d + c (c = marbles, the castle's holes; 5 official): track holes
    h+1 .. h+d (the entry included when d >= 1), then castle holes 1 .. n-d; it ends in castle
    hole n-d.  So a marble standing on its own entry
    (e.g. a teammate bumped there) may enter with 1..c.  Any own marble (track or castle) on the
    route blocks it; marbles of other players never block.
R2  "Fits" (castle_entry=auto: must enter) means the castle route exists and is not blocked.  If
    it would fit by count but an own marble blocks the way in (e.g. in the castle), the marble
    continues on the track (track route), legal iff the track route is unblocked.  Overshoot
    (n > d + c) likewise continues on the track.  With "optional" both ends are separate moves.
R3  Marbles in the castle move forward only, by any forward count (A's 1, 2-6, 9, 10, J/Q/K's 10,
    a 7 part, a 9 forward part) as long as they stay within hole c and pass no own marble.
R4  The 8 (and the backward part of a 9 split) moves track marbles only, along the track, and
    never into or out of the castle.  It may pass the own castle entry and come-out holes
    backwards (it simply stays on the track); own track marbles on the passed/landing holes block
    it; landing on another player's marble bumps it.
R5  No hole is protected: the "own marble" rule applies to marbles standing on come-out holes
    exactly as elsewhere (own marbles there block the owner's moves; other players may pass or
    bump them).  Coming out onto the own come-out hole is illegal if an own marble stands there;
    another player's marble there is bumped.
R6  "Out" is a single move that takes the lowest-indexed marble in home.  Likewise the joker's
    home source is the lowest-indexed home marble (one choice per target).  With
    ``joker_from_track`` each own track marble is an additional source (one choice per
    (source, target)).
R7  Joker targets: every track marble of any player other than the owner (teammates included).
    A jumping track marble vacates its hole first.
R8  A 7 split is two parts a + b = 7 (a, b >= 1) on two different marbles of the same owner (the
    owner is fixed for the whole turn); each order and each first part a is its own move; the
    second part is evaluated on the board left by the first (so it may not pass/land on the first
    marble's new hole, and it sees the first part's bumps).  Castle entry (auto/optional) applies
    to each part.  A 9 split (nine_split): forward part a = 1..8 first (any movable marble,
    castle marbles included), then a different own *track* marble backward 9 - a.
R9  Bumping a teammate: it goes to its own castle entry hole, or home if that hole holds any
    marble other than itself after the moving marble has landed (including the moving marble).
    A marble bumped to its entry may later enter from there (R1).  "Teammate"/"opponent" are
    relative to the owner of the moving marbles.
R10 Team play: at the start of its turn a seat whose marbles are all in its castle plays for the
    first unfinished teammate in seat order k+1, k+2, ... (mod players).  Winning is checked after
    each complete move (after both parts of a split); individual: the owner has all its c marbles
    in its castle; team: every member of the owner's team has.
R11 Strategies.  Remaining distance (L = track length, c = marbles): home -> L + c + 5
    (L + 10 official); track hole h -> (entry - h) mod L + c; castle k -> c - k.
    greedy/aggressive score of a choice =
    (team distance before - after) + w * (opponents' distance after - before), w = 1 greedy,
    w = 3 aggressive; "team" is the seat's team ({seat} when teams="none") and includes bumped
    teammates; opponents' distance only changes through bumps.  Ties: lowest card rank, then
    lowest marble index (the marble of the move's first step), then lowest card id, then first in
    ``legal_moves`` order.  Discard with no legal move: greedy/aggressive the lowest-ranked card
    (ties: lowest id); random uniform over the hand sorted by card id.
R12 Deck handling: seat k is dealt deck cards 5k .. 5k+4 (top first); the rest is the draw pile,
    top first.  A draw from an empty draw pile first turns the whole discard pile into a new
    draw pile whose order is the next entry of ``deck_orders``: a permutation of exactly the
    discard-pile cards, giving the new draw pile top first.
R13 ``turns`` counts every seat turn (plays and discards).  The game stops unfinished when
    ``max_turns`` turns have been played without a winner (a win on turn ``max_turns`` counts).
R14 Bumps are counted one per bumped marble (opponents, teammates, joker bumps) and credited to
    the seat whose turn it is (``bumps_made``) and to the bumped marble's owner
    (``bumps_suffered``).

Random draws of :func:`play` (from the one ``rng``, in time order)
------------------------------------------------------------------
1. the deck: ``order = list(range(54*decks)); rng.shuffle(order)`` (top of deck = ``order[0]``);
2. at each reshuffle: ``pile = discard pile in discard order (oldest first);
   rng.shuffle(pile)``; the new draw pile is ``pile`` (top first);
3. for each turn of a seat with the ``random`` strategy, exactly one ``u = rng.random()`` after
   that turn's draw (and any reshuffle it caused): ``choose_random(choices, u)`` picks
   ``choices[floor(u * len(choices))]``; with no legal choice the discarded card is
   ``sorted(hand)[floor(u * len(hand))]``.
"""

from collections import namedtuple

__all__ = [
    "HOME", "track", "castle", "MARBLES", "CASTLE_HOLES", "SIDE_HOLES", "HAND_SIZE",
    "card_rank", "card_suit", "is_joker", "deck_size",
    "Board", "State", "Params", "Step", "Move",
    "mover", "legal_moves", "legal_choices", "apply_move", "remaining_distance",
    "team_distance", "choose_greedy", "choose_aggressive", "choose_random",
    "choose_random_discard", "replay", "play", "normalize_move",
]

MARBLES = 5
CASTLE_HOLES = 5
SIDE_HOLES = 18
HAND_SIZE = 5
CARDS_PER_DECK = 54
JOKER_RANK = 14

HOME = ("home",)


def track(hole):
    return ("track", hole)


def castle(k):
    return ("castle", k)


# --------------------------------------------------------------------------- cards

def deck_size(decks=1):
    return CARDS_PER_DECK * decks


def is_joker(card):
    return card % CARDS_PER_DECK >= 52


def card_rank(card):
    """A=1 .. K=13, joker=14."""
    c = card % CARDS_PER_DECK
    if c >= 52:
        return JOKER_RANK
    return c % 13 + 1


def card_suit(card):
    """0..3, or None for a joker."""
    c = card % CARDS_PER_DECK
    if c >= 52:
        return None
    return c // 13


# --------------------------------------------------------------------------- board

class Board:
    """Geometry and teams.

    ``track_len = H*sides`` (``H = holes_per_side``, 18 official); seat k sits on side
    ``side[k] = floor(k*sides/players)``; its come-out hole is ``H*side+8`` and its castle entry
    ``H*side+3``.  ``marbles``: marbles per player, also the castle's holes (5 official).
    """

    def __init__(self, players, sides=None, teams="none", holes_per_side=SIDE_HOLES, marbles=MARBLES):
        if not isinstance(players, int) or not 2 <= players <= 6:
            raise ValueError("players must be an integer 2..6, got %r" % (players,))
        if sides is None:
            sides = 4 if players <= 4 else 6
        if not isinstance(sides, int) or sides < players:
            raise ValueError("sides must be an integer >= players (%d), got %r" % (players, sides))
        if teams not in ("none", "pairs", "two"):
            raise ValueError("teams must be one of none, pairs, two; got %r" % (teams,))
        if teams != "none" and players not in (4, 6):
            raise ValueError("teams=%r needs 4 or 6 players, got %d" % (teams, players))
        if not isinstance(holes_per_side, int) or not 10 <= holes_per_side <= 36:
            raise ValueError("holes_per_side must be an integer 10..36, got %r" % (holes_per_side,))
        if not isinstance(marbles, int) or not 1 <= marbles <= 5:
            raise ValueError("marbles must be an integer 1..5, got %r" % (marbles,))
        self.players = players
        self.sides = sides
        self.teams_mode = teams
        self.holes_per_side = holes_per_side
        self.marbles = marbles
        self.track_len = holes_per_side * sides
        self.side = [k * sides // players for k in range(players)]
        self.come_out = [holes_per_side * s + 8 for s in self.side]
        self.entry = [holes_per_side * s + 3 for s in self.side]
        if teams == "none":
            self.teams = [(k,) for k in range(players)]
        elif teams == "pairs":
            half = players // 2
            self.teams = [(k, k + half) for k in range(half)]
        else:  # "two": alternate seats
            self.teams = [tuple(range(0, players, 2)), tuple(range(1, players, 2))]
        self.team_of = [None] * players
        for t, members in enumerate(self.teams):
            for k in members:
                self.team_of[k] = t

    def team_members(self, seat):
        return self.teams[self.team_of[seat]]

    def is_teammate(self, a, b):
        """True when a and b are different seats of the same team."""
        return a != b and self.team_of[a] == self.team_of[b]

    def is_opponent(self, a, b):
        return self.team_of[a] != self.team_of[b]

    def travel(self):
        """Holes from come-out to castle entry (L - 5)."""
        return self.track_len - 5


class State:
    """Board position: ``pos[seat][marble]`` with the position encoding of the module doc."""

    def __init__(self, board, pos=None):
        self.board = board
        if pos is None:
            pos = [[HOME] * board.marbles for _ in range(board.players)]
        self.pos = [[tuple(p) for p in row] for row in pos]
        if len(self.pos) != board.players or any(len(r) != board.marbles for r in self.pos):
            raise ValueError("pos must hold %d positions per seat" % board.marbles)

    def copy(self):
        return State(self.board, self.pos)

    def occupants(self, hole):
        """List of (seat, marble) on track hole ``hole``."""
        p = track(hole)
        return [(s, m) for s in range(self.board.players) for m in range(self.board.marbles)
                if self.pos[s][m] == p]

    def in_castle(self, seat):
        return sum(1 for p in self.pos[seat] if p[0] == "castle")

    def finished(self, seat):
        return self.in_castle(seat) == self.board.marbles

    def snapshot(self):
        return [list(row) for row in self.pos]


class Params:
    """Rule variants (board geometry and teams live in :class:`Board`)."""

    def __init__(self, decks=1, nine_split=False, joker_from_track=False, castle_entry="auto",
                 max_turns=20000):
        if not isinstance(decks, int) or decks < 1:
            raise ValueError("decks must be an integer >= 1, got %r" % (decks,))
        if castle_entry not in ("auto", "optional"):
            raise ValueError("castle_entry must be auto or optional, got %r" % (castle_entry,))
        if not isinstance(max_turns, int) or max_turns < 1:
            raise ValueError("max_turns must be an integer >= 1, got %r" % (max_turns,))
        self.decks = decks
        self.nine_split = bool(nine_split)
        self.joker_from_track = bool(joker_from_track)
        self.castle_entry = castle_entry
        self.max_turns = max_turns


def _as_params(params):
    if params is None:
        return Params()
    if isinstance(params, Params):
        return params
    return Params(**params)


Step = namedtuple("Step", "marble start end count")
Move = namedtuple("Move", "kind owner steps")


def normalize_move(obj):
    """Turn nested lists (e.g. from JSON) into the tuple form of a Move."""
    if isinstance(obj, (list, tuple)):
        return tuple(normalize_move(x) for x in obj)
    return obj


# --------------------------------------------------------------------------- rules

def mover(state, seat):
    """Seat whose marbles ``seat`` moves this turn (R10); None if its whole team is done."""
    b = state.board
    if not state.finished(seat) or b.teams_mode == "none":
        return seat
    for i in range(1, b.players):
        t = (seat + i) % b.players
        if b.is_teammate(seat, t) and not state.finished(t):
            return t
    return None


def _own_holes(state, owner, exclude):
    tr, ca = set(), set()
    for m, p in enumerate(state.pos[owner]):
        if m == exclude:
            continue
        if p[0] == "track":
            tr.add(p[1])
        elif p[0] == "castle":
            ca.add(p[1])
    return tr, ca


def _forward_ends(state, owner, m, n, params):
    """Legal end positions of own marble m moved forward n (R1-R3)."""
    b = state.board
    L = b.track_len
    p = state.pos[owner][m]
    own_tr, own_ca = _own_holes(state, owner, m)
    if p[0] == "home":
        return []
    if p[0] == "castle":
        k = p[1]
        t = k + n
        if t <= b.marbles and all(j not in own_ca for j in range(k + 1, t + 1)):
            return [castle(t)]
        return []
    h = p[1]
    d = (b.entry[owner] - h) % L
    track_ok = all((h + i) % L not in own_tr for i in range(1, n + 1))
    castle_ok = False
    if d < n <= d + b.marbles:
        k = n - d
        castle_ok = (all((h + i) % L not in own_tr for i in range(1, d + 1))
                     and all(j not in own_ca for j in range(1, k + 1)))
    ends = []
    if castle_ok:
        ends.append(castle(n - d))
    if track_ok and not (castle_ok and params.castle_entry == "auto"):
        ends.append(track((h + n) % L))
    return ends


def _backward_ends(state, owner, m, n):
    """Legal end of own track marble m moved backward n (R4)."""
    b = state.board
    L = b.track_len
    p = state.pos[owner][m]
    if p[0] != "track":
        return []
    own_tr, _ = _own_holes(state, owner, m)
    h = p[1]
    if any((h - i) % L in own_tr for i in range(1, n + 1)):
        return []
    return [track((h - n) % L)]


def _apply_step(state, owner, m, end):
    """Move marble (owner, m) to ``end`` and resolve a bump; returns bump records
    ``(victim_seat, victim_marble, hole, destination)``."""
    b = state.board
    state.pos[owner][m] = end
    bumps = []
    if end[0] != "track":
        return bumps
    for s in range(b.players):
        for j in range(b.marbles):
            if (s, j) == (owner, m) or state.pos[s][j] != end:
                continue
            if s == owner:
                raise AssertionError("own marble landed on: rules violated")
            if b.is_teammate(owner, s):
                e = track(b.entry[s])
                occupied = any(state.pos[s2][j2] == e
                               for s2 in range(b.players) for j2 in range(b.marbles)
                               if (s2, j2) != (s, j))
                dest = HOME if occupied else e
            else:
                dest = HOME
            state.pos[s][j] = dest
            bumps.append((s, j, end[1], dest))
    return bumps


def apply_move(state, move):
    """Apply a legal move in place; returns the list of bump records."""
    kind, owner, steps = move
    bumps = []
    for st in steps:
        m, start, end, _count = st
        if state.pos[owner][m] != tuple(start):
            raise ValueError("move step start %r does not match marble position %r"
                             % (start, state.pos[owner][m]))
        bumps += _apply_step(state, owner, m, tuple(end))
    return bumps


def _forward_moves(state, owner, n, params):
    out = []
    for m in range(state.board.marbles):
        start = state.pos[owner][m]
        for e in _forward_ends(state, owner, m, n, params):
            out.append(Move("forward", owner, (Step(m, start, e, n),)))
    return out


def _out_moves(state, owner):
    b = state.board
    home = [m for m in range(b.marbles) if state.pos[owner][m] == HOME]
    if not home:
        return []
    c = track(b.come_out[owner])
    if any(p == c for p in state.pos[owner]):
        return []
    return [Move("out", owner, (Step(home[0], HOME, c, 0),))]


def _split_moves(state, owner, total, params, backward_second):
    out = []
    kind = "split9" if backward_second else "split7"
    for m1 in range(state.board.marbles):
        start1 = state.pos[owner][m1]
        for a in range(1, total):
            for e1 in _forward_ends(state, owner, m1, a, params):
                s1 = state.copy()
                _apply_step(s1, owner, m1, e1)
                for m2 in range(state.board.marbles):
                    if m2 == m1:
                        continue
                    start2 = s1.pos[owner][m2]
                    if backward_second:
                        ends2 = _backward_ends(s1, owner, m2, total - a)
                        cnt2 = -(total - a)
                    else:
                        ends2 = _forward_ends(s1, owner, m2, total - a, params)
                        cnt2 = total - a
                    for e2 in ends2:
                        out.append(Move(kind, owner, (Step(m1, start1, e1, a),
                                                      Step(m2, start2, e2, cnt2))))
    return out


def _joker_moves(state, owner, params):
    b = state.board
    sources = []
    home = [m for m in range(b.marbles) if state.pos[owner][m] == HOME]
    if home:
        sources.append(home[0])
    if params.joker_from_track:
        sources += [m for m in range(b.marbles) if state.pos[owner][m][0] == "track"]
    targets = sorted({state.pos[s][j][1] for s in range(b.players) if s != owner
                      for j in range(b.marbles) if state.pos[s][j][0] == "track"})
    out = []
    for m in sources:
        for h in targets:
            out.append(Move("joker", owner, (Step(m, state.pos[owner][m], track(h), 0),)))
    return out


def legal_moves(state, seat, card, params=None):
    """Every legal move of ``card`` for ``seat`` (whose turn it is), in the documented order."""
    params = _as_params(params)
    owner = mover(state, seat)
    if owner is None:
        return []
    r = card_rank(card)
    moves = []
    if r in (1, 11, 12, 13):
        moves += _out_moves(state, owner)
    if r == JOKER_RANK:
        moves += _joker_moves(state, owner, params)
    elif r == 8:
        for m in range(state.board.marbles):
            start = state.pos[owner][m]
            for e in _backward_ends(state, owner, m, 8):
                moves.append(Move("backward", owner, (Step(m, start, e, -8),)))
    else:
        n = 1 if r == 1 else (10 if r >= 10 else r)
        moves += _forward_moves(state, owner, n, params)
        if r == 7:
            moves += _split_moves(state, owner, 7, params, backward_second=False)
        elif r == 9 and params.nine_split:
            moves += _split_moves(state, owner, 9, params, backward_second=True)
    return moves


def legal_choices(state, seat, hand, params=None):
    """All (card, move) choices of a hand: cards by id ascending, moves in legal_moves order."""
    params = _as_params(params)
    out = []
    for c in sorted(hand):
        for mv in legal_moves(state, seat, c, params):
            out.append((c, mv))
    return out


# --------------------------------------------------------------------------- strategies

def remaining_distance(position, owner, board):
    """c = marbles: home -> L + c + 5; track hole h -> (entry - h) mod L + c; castle k -> c - k
    (official, c = 5: L + 10, + 5, 5 - k)."""
    L = board.track_len
    c = board.marbles
    if position[0] == "home":
        return L + c + 5
    if position[0] == "track":
        return (board.entry[owner] - position[1]) % L + c
    return c - position[1]


def team_distance(state, seats):
    return sum(remaining_distance(p, s, state.board) for s in seats for p in state.pos[s])


def _choice_score(state, seat, move, weight):
    b = state.board
    team = b.team_members(seat)
    opps = [s for s in range(b.players) if s not in team]
    before_t, before_o = team_distance(state, team), team_distance(state, opps)
    s2 = state.copy()
    apply_move(s2, move)
    after_t, after_o = team_distance(s2, team), team_distance(s2, opps)
    return (before_t - after_t) + weight * (after_o - before_o)


def _choose_scored(state, seat, hand, params, weight):
    params = _as_params(params)
    best = None
    for c in sorted(hand):
        for idx, mv in enumerate(legal_moves(state, seat, c, params)):
            key = (-_choice_score(state, seat, mv, weight), card_rank(c), mv.steps[0].marble,
                   c, idx)
            if best is None or key < best[0]:
                best = (key, c, mv)
    if best is not None:
        return ("play", best[1], best[2])
    card = min(hand, key=lambda c: (card_rank(c), c))
    return ("discard", card)


def choose_greedy(state, seat, hand, params=None):
    """Decision of the greedy strategy: ("play", card, move) or ("discard", card) (R11)."""
    return _choose_scored(state, seat, hand, params, 1)


def choose_aggressive(state, seat, hand, params=None):
    """As greedy with opponents' bump distance weighted 3x."""
    return _choose_scored(state, seat, hand, params, 3)


def choose_random(moves, u):
    """Uniform pick from ``moves`` (e.g. legal_choices) with u in [0, 1)."""
    if not moves:
        raise ValueError("no moves to choose from")
    return moves[min(int(u * len(moves)), len(moves) - 1)]


def choose_random_discard(hand, u):
    h = sorted(hand)
    return h[min(int(u * len(h)), len(h) - 1)]


# --------------------------------------------------------------------------- game runner

def _check_conservation(state):
    for s, row in enumerate(state.pos):
        if len(row) != state.board.marbles:
            raise AssertionError("seat %d does not hold %d marbles" % (s, state.board.marbles))
    holes = [p[1] for row in state.pos for p in row if p[0] == "track"]
    if len(holes) != len(set(holes)):
        raise AssertionError("two marbles share a track hole")
    for s, row in enumerate(state.pos):
        ks = [p[1] for p in row if p[0] == "castle"]
        if len(ks) != len(set(ks)):
            raise AssertionError("two marbles share a castle hole of seat %d" % s)


def _run(players, params_kw, first_order, next_reshuffle, decide, record_boards):
    board = Board(players, params_kw.get("sides"), params_kw.get("teams", "none"),
                  params_kw.get("holes_per_side", SIDE_HOLES), params_kw.get("marbles", MARBLES))
    params = Params(decks=params_kw.get("decks", 1),
                    nine_split=params_kw.get("nine_split", False),
                    joker_from_track=params_kw.get("joker_from_track", False),
                    castle_entry=params_kw.get("castle_entry", "auto"),
                    max_turns=params_kw.get("max_turns", 20000))
    n_cards = deck_size(params.decks)
    first_order = list(first_order)
    if sorted(first_order) != list(range(n_cards)):
        raise ValueError("deck order must be a permutation of 0..%d" % (n_cards - 1))
    state = State(board)
    hands = [first_order[HAND_SIZE * k:HAND_SIZE * k + HAND_SIZE] for k in range(players)]
    draw = first_order[HAND_SIZE * players:]
    discard = []
    events = []
    bumps_made = [0] * players
    bumps_suffered = [0] * players
    discards = [0] * players
    winner = []
    turn = 0
    seat = 0
    while turn < params.max_turns:
        if not draw:
            new = list(next_reshuffle(list(discard)))
            if sorted(new) != sorted(discard):
                raise ValueError("reshuffle order %d must be a permutation of the discard pile"
                                 % (turn,))
            events.append({"type": "reshuffle", "turn": turn, "cards": len(new)})
            draw, discard = new, []
        card = draw.pop(0)
        hands[seat].append(card)
        events.append({"type": "draw", "turn": turn, "seat": seat, "card": card})
        hand = hands[seat]
        dec = decide(state, seat, list(hand), params, turn,
                     {"discard_pile": list(discard), "draw_left": len(draw)})
        if not isinstance(dec, (list, tuple)) or not dec:
            raise ValueError("turn %d: bad decision %r" % (turn, dec))
        what = dec[0]
        if what == "play":
            if len(dec) != 3:
                raise ValueError("turn %d: play decision must be ('play', card, move)" % turn)
            c, mv = dec[1], normalize_move(dec[2])
            if c not in hand:
                raise ValueError("turn %d: card %r not in seat %d's hand %r"
                                 % (turn, c, seat, sorted(hand)))
            legal = legal_moves(state, seat, c, params)
            match = [m for m in legal if m == mv]
            if not match:
                raise ValueError("turn %d: illegal move %r with card %r for seat %d"
                                 % (turn, mv, c, seat))
            mv = match[0]
            hand.remove(c)
            discard.append(c)
            events.append({"type": "play", "turn": turn, "seat": seat, "card": c, "move": mv})
            for (vs, vm, hole, dest) in apply_move(state, mv):
                bumps_made[seat] += 1
                bumps_suffered[vs] += 1
                events.append({"type": "bump", "turn": turn, "seat": seat, "victim": vs,
                               "marble": vm, "hole": hole, "to": dest})
            owner = mv.owner
            _check_conservation(state)
            if board.teams_mode == "none":
                if state.finished(owner):
                    winner = [owner]
            elif all(state.finished(t) for t in board.team_members(owner)):
                winner = sorted(board.team_members(owner))
        elif what == "discard":
            if len(dec) != 2:
                raise ValueError("turn %d: discard decision must be ('discard', card)" % turn)
            c = dec[1]
            if c not in hand:
                raise ValueError("turn %d: card %r not in seat %d's hand %r"
                                 % (turn, c, seat, sorted(hand)))
            if legal_choices(state, seat, hand, params):
                raise ValueError("turn %d: seat %d discards although a legal move exists"
                                 % (turn, seat))
            hand.remove(c)
            discard.append(c)
            discards[seat] += 1
            events.append({"type": "discard", "turn": turn, "seat": seat, "card": c})
        else:
            raise ValueError("turn %d: unknown decision %r" % (turn, what))
        if sum(len(h) for h in hands) + len(draw) + len(discard) != n_cards or \
                any(len(h) != HAND_SIZE for h in hands):
            raise AssertionError("card conservation violated at turn %d" % turn)
        if record_boards:
            events.append({"type": "board", "turn": turn, "positions": state.snapshot()})
        turn += 1
        if winner:
            events.append({"type": "win", "turn": turn - 1, "seats": list(winner)})
            break
        seat = (seat + 1) % players
    win_share = [0.0] * players
    for s in winner:
        win_share[s] = 1.0 / len(winner)
    return {
        "winner_seats": list(winner),
        "win_share": win_share,
        "turns": turn,
        "castle": [state.in_castle(s) for s in range(players)],
        "bumps_made": bumps_made,
        "bumps_suffered": bumps_suffered,
        "discards": discards,
        "unfinished": not winner,
        "events": events,
        "final_positions": state.snapshot(),
    }


def replay(deck_orders, players, decisions, *, teams="none", sides=None, decks=1,
           nine_split=False, joker_from_track=False, castle_entry="auto", max_turns=20000,
           holes_per_side=SIDE_HOLES, marbles=MARBLES, record_boards=False):
    """Play one game from explicit deck orders and decisions (R12).

    ``deck_orders[0]`` is the initial deck (top first), ``deck_orders[i]`` (i >= 1) the new draw
    pile (top first) at the i-th reshuffle, a permutation of the discard pile at that moment.
    ``decisions[t]`` is ``("play", card, move)`` or ``("discard", card)`` for turn t.  Every
    decision is validated (ValueError); all deck orders and decisions must be used exactly.
    """
    deck_orders = list(deck_orders)
    if not deck_orders:
        raise ValueError("deck_orders must contain at least the initial deck order")
    decisions = list(decisions)
    used = {"r": 1}

    def next_reshuffle(_discard):
        i = used["r"]
        if i >= len(deck_orders):
            raise ValueError("a reshuffle is needed but no deck order %d was given" % i)
        used["r"] = i + 1
        return deck_orders[i]

    def decide(state, seat, hand, params, turn, info):
        if turn >= len(decisions):
            raise ValueError("ran out of decisions at turn %d" % turn)
        return decisions[turn]

    out = _run(players, dict(teams=teams, sides=sides, decks=decks, nine_split=nine_split,
                             joker_from_track=joker_from_track, castle_entry=castle_entry,
                             max_turns=max_turns, holes_per_side=holes_per_side, marbles=marbles),
               deck_orders[0], next_reshuffle, decide, record_boards)
    if out["turns"] != len(decisions):
        raise ValueError("game ended after %d turns but %d decisions were given"
                         % (out["turns"], len(decisions)))
    if used["r"] != len(deck_orders):
        raise ValueError("%d reshuffle orders given but %d used"
                         % (len(deck_orders) - 1, used["r"] - 1))
    return out


STRATEGIES = ("random", "greedy", "aggressive")


def play(players, strategies, rng, *, teams="none", sides=None, decks=1, nine_split=False,
         joker_from_track=False, castle_entry="auto", max_turns=20000, holes_per_side=SIDE_HOLES,
         marbles=MARBLES, record_boards=False):
    """A full game drawing from ``rng`` (``random.Random``-like) in the documented order.

    Returns the replay dict plus ``deck_orders`` and ``decisions``.
    """
    if isinstance(strategies, str):
        strategies = [strategies] * players
    strategies = list(strategies)
    if len(strategies) != players:
        raise ValueError("need one strategy per seat")
    for s in strategies:
        if s not in STRATEGIES:
            raise ValueError("unknown strategy %r (allowed: %s)" % (s, ", ".join(STRATEGIES)))
    n_cards = deck_size(decks)
    first = list(range(n_cards))
    rng.shuffle(first)
    deck_orders = [list(first)]
    decisions = []

    def next_reshuffle(discard):
        pile = list(discard)
        rng.shuffle(pile)
        deck_orders.append(list(pile))
        return pile

    def decide(state, seat, hand, params, turn, info):
        strat = strategies[seat]
        if strat == "greedy":
            d = choose_greedy(state, seat, hand, params)
        elif strat == "aggressive":
            d = choose_aggressive(state, seat, hand, params)
        else:
            u = rng.random()
            choices = legal_choices(state, seat, hand, params)
            if choices:
                c, mv = choose_random(choices, u)
                d = ("play", c, mv)
            else:
                d = ("discard", choose_random_discard(hand, u))
        decisions.append(d)
        return d

    out = _run(players, dict(teams=teams, sides=sides, decks=decks, nine_split=nine_split,
                             joker_from_track=joker_from_track, castle_entry=castle_entry,
                             max_turns=max_turns, holes_per_side=holes_per_side, marbles=marbles),
               first, next_reshuffle, decide, record_boards)
    out["deck_orders"] = deck_orders
    out["decisions"] = decisions
    return out


# --------------------------------------------------------------------------- oracle interface

PARAMS = ("teams", "sides", "decks", "nine_split", "joker_from_track", "castle_entry",
          "max_turns", "holes_per_side", "marbles")  # the rule parameters of replay (defaults there)


def play_script(deck_orders, players, decisions, params=None):
    """The oracle interface every naive reference offers: one game from the keyword arguments
    of the library's scripted game (``play_scripted``), returning at least ``scores`` and
    ``win_share`` in the library's meaning.

    Joker Marbles' script is already in this module's terms (card ids, deck orders per
    reshuffle, moves as ``(kind, owner, steps)``; nested lists are accepted): it goes to
    :func:`replay` as it is, ``params`` (a dict of ``PARAMS``) as its keyword parameters.
    Returns :func:`replay`'s dict plus ``scores`` (= ``castle``: the marbles in each seat's
    castle), without its ``events`` (a log in this module's own form).
    """
    params = dict(params or {})
    unknown = sorted(set(params) - set(PARAMS))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown}; allowed: {list(PARAMS)}")
    out = replay([list(o) for o in deck_orders], players, [normalize_move(d) for d in decisions],
                 **params)
    out = {key: value for key, value in out.items() if key != "events"}
    out["scores"] = list(out["castle"])
    return out

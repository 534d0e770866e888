"""Joker Marbles' tree searches: ``ismcts`` and its ``omniscient`` twin (montecards issue #19).

``ismcts`` is single-observer information-set Monte Carlo tree search (SO-ISMCTS, Cowling,
Powley & Whitehouse 2012), built as Parade's (``games/parade/search.py``). Each iteration of a
decision

1. samples a **determinization** consistent with what the seat has seen: the unseen cards
   (every card but the seat's hand and the discard pile: the draw pile and the other hands
   together) are listed in card-id order and dealt afresh into the other hands (their sizes
   kept), the rest becoming the draw pile, which the iteration draws from by lazy shuffle with
   the decision's own stream. The true other hands and pile order are only ever overwritten:
   the list is built from the set alone (``tests/test_marbles_search.py`` checks it at many
   decisions). Reading: the seat draws no inference from what others did (that a seat
   discarded, so held no playable card, is not used): every deal of the unseen cards counts;
2. **selects** from the root by UCB among the moves legal in that determinization: every
   seat's moves are in the tree, a move keyed by what it does (the card's move class, the
   kind, the marbles and their end holes, ``move_key``: two cards of one rank, or a J, Q and
   K, make one move; a discard, when nothing is playable, is keyed by the card's class). A
   child's availability count (the times it was legal when its parent was visited) replaces
   the parent's visits in the exploration term ``mean + c * sqrt(ln(availability) / visits)``,
   ``mean`` the child's win share for the seat that moved into it;
3. **expands** one untried legal move (chosen uniformly) as a new node;
4. **plays out** with every seat on the default policy (``random``: uniform over the (card,
   move) choices, or ``greedy``, the built-ins' own code), to the end of the game or, when
   the ``cutoff`` parameter is ``k > 0``, for ``k`` turns after the tree, and then
   **evaluates** the position (``evaluate``): a finished game scores 1 for every seat of the
   winning team (a seat's share is its team's, teams or not) and 0 for the others; an
   unfinished one (cut off) gives each team ``exp(-(R_t - R_min) / EVAL_SCALE)`` normalised
   over the teams, ``R_t`` the remaining distance of the team's marbles (the rules page's
   distance, which greedy minimises: home ``L + marbles + 5``, track holes to the entry +
   ``marbles``, castle ``marbles - k``; ``L + 10``, ``+ 5`` and ``5 - k`` on the official board)
   and ``EVAL_SCALE`` one side of the board (18 holes on the official one): the leader's estimated
   win share, a side of distance behind worth a factor ``e``;
5. **backs up** those shares along the path.

It plays the root child visited most (ties: the higher mean, then the first generated), the
card for a move being greedy's (the lowest rank, then id, of the move's group). A decision
with one distinct move is not searched.

``omniscient`` runs the same search on the **true** state with no determinization: the
other hands as they are, and its iterations draw the cards the game will really draw (each
iteration restarts from a copy of the deck stream: the game draws one card per turn whatever
is played, so the copy deals exactly the game's draws). The gap between the two measures
what the hidden information is worth.

**Run-time parameters** (``engine/weights.py``: per seat, ``ismcts[300,0.7,2,40]``, the defaults):
``iterations`` per decision, the ``exploration`` constant ``c``, the ``playout`` policy (0
random, 1 greedy) and the play-out ``cutoff`` in turns (0: play to the end). One compile
plays every strength. A 4-player game lasts ~160-500 turns (``tuned`` to ``greedy`` players),
so a play-out to the end costs about half a game per iteration, and is weaker than one cut off
after 40 turns (the result hardly depends on the move searched); the defaults and their
measurement are in ``docs/strategies/marbles.md``.

**Random numbers**: a decision's search draws only from its own stream, substream
``SEARCH_STREAM + turn * MAX_PLAYERS + seat`` of the game (``turn`` the turns played so far),
seeded afresh at each decision: the same seed gives the same search at the same decision
whatever the hidden cards, and the deck and choice streams (and so every other seat's games)
are untouched (``omniscient`` reads a copy of the deck stream; ``engine/search.py``).

**Memory**: the tree lives in the search space (``new_search_space``: the frame of
``engine/search.py``, then Joker Marbles' arrays): ``MAX_NODES`` nodes and an open-addressing table of
``(parent, move key) -> child`` whose slots are stamped with the decision's number, so that
a decision reuses everything from node 0 with nothing cleared or allocated. Once the tree is
full, later iterations still select, play out and back up, but expand no further.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from montecards.engine.jit import hot
from montecards.engine.search import (
    FRAME_SLOTS,
    PLAYOUT_GREEDY,
    PLAYOUT_RANDOM,
    back_up,
    more_visited,
    new_frame,
    new_tree,
    reset_node,
    search_parameters,
    seat_search,
    seed_search,
    ucb,
)
from montecards.engine.search import set_key as set_key  # (the kernel's and the tests')
from montecards.engine.weights import MAX_WEIGHTS, TABLE_SIZE, weight_index
from montecards.games.marbles.moves import WORK_SIZE, gen_hand
from montecards.games.marbles.rules import (
    MAX_CARDS,
    MAX_MOVES,
    MAX_PLAYERS,
    MV_E1,
    MV_E2,
    MV_KIND,
    MV_M1,
    MV_M2,
    MV_SLOT,
    O_MOVES,
    S_DISC_N,
    S_DRAWN,
    S_MARBLES,
    S_MAX_TURNS,
    S_NCARDS,
    S_PILE_N,
    S_PLAYERS,
    S_SIDE_HOLES,
    S_TURNS,
    disc_at,
    discard_card,
    dist,
    draw_card,
    group_best,
    group_class,
    group_end,
    group_of,
    group_start,
    hand_card,
    hand_insert,
    hand_n_at,
    hand_size,
    move_at,
    mover,
    pile_at,
    play_card,
    position,
    reshuffle_lazy,
    team,
    winner_at,
)
from montecards.games.marbles.strategies import GREEDY, RANDOM, TUNED_WEIGHTS, choose, weighted_choice
from montecards.rng import bounded

MAX_NODES = 1 << 15
"""Nodes of a tree (node 0 the root): iterations beyond ``MAX_NODES - 1`` expand nothing."""

HASH_BITS = 16
HASH_SIZE = 1 << HASH_BITS
"""Slots of the ``(parent, move) -> child`` table (twice the nodes: probes stay short)."""

MAX_DEPTH = 512
"""Longest path from the root that is followed in the tree (then the play-out takes over)."""

PLAYOUT_TUNED = 2  # (after the engine's PLAYOUT_RANDOM and PLAYOUT_GREEDY)

EVAL_SCALE = 18.0
"""Holes of remaining distance that cost a cut-off play-out's team a factor ``e`` of its
estimated win share on the official board: one side (``holes_per_side``, the state's
``S_SIDE_HOLES``, on any board)."""

KIND_DISCARD = 6
"""The kind of a discard's move key (``view.KIND_DISCARD``)."""

# run-time parameters (per seat, engine/weights.py): the engine's three
# (``engine.search.FEATURES``), then the play-out's cut-off
W_CUTOFF = 3

def check_parameters(values):
    """Why a seat's ``(iterations, exploration, playout, cutoff)`` are not accepted, or None."""
    iterations, exploration, playout, cutoff = values
    if iterations != int(iterations) or not 1 <= iterations <= MAX_ITERATIONS:
        return f"iterations must be a whole number from 1 to {MAX_ITERATIONS:,}, got {iterations:g}"
    if not exploration >= 0:
        return f"exploration must be at least 0, got {exploration:g}"
    if playout not in (PLAYOUT_RANDOM, PLAYOUT_GREEDY, PLAYOUT_TUNED):
        return f"playout must be 0 (random), 1 (greedy) or 2 (tuned), got {playout:g}"
    if cutoff != int(cutoff) or cutoff < 0:
        return f"cutoff must be a whole number of turns, at least 0 (0: to the end), got {cutoff:g}"
    return None


MAX_ITERATIONS = 1_000_000

PARAMETERS = search_parameters(
    extra=("cutoff",),
    default=(300.0, 0.7, 2.0, 40.0),
    bounds=((10.0, 5000.0), (0.1, 2.0), (0.0, 2.0), (0.0, 400.0)),
    doc="iterations per decision, UCB exploration constant, play-out policy (0 random, 1 greedy, 2 tuned), "
        "play-out cut-off in turns (0: to the end; else a progress-based win estimate)",
    validate=check_parameters,
    quick=(20.0, 0.7, 2.0, 40.0),  # the replay checks' (GameSpec.quick_strategies)
)
"""``ismcts``'s and ``omniscient``'s run-time parameters (``GameSpec.seat_params``)."""

# the search space: the frame's slots (``engine/search.py``: S_STATS, S_MOVER, S_KEY,
# S_SQRT_LOG), then Joker Marbles' (``new_search_space``)
S_STATES = FRAME_SLOTS  # int64 [2, WORK_SIZE]: the decision's template, an iteration's game
S_CARDS = FRAME_SLOTS + 1  # int64 [2, MAX_CARDS]: the unseen cards in id order, an iteration's copy
S_PATH = FRAME_SLOTS + 2  # int64 [MAX_DEPTH]: an iteration's path
S_UNTRIED = FRAME_SLOTS + 3  # int64 [MAX_MOVES]: the untried moves at a node
S_SHARES = FRAME_SLOTS + 4  # float64 [2, MAX_PLAYERS]: an iteration's shares, the teams' distances
S_RNG = FRAME_SLOTS + 5  # uint64 [3, 4]: the decision's stream, the deck stream's copy, an iteration's copy
S_HASH_KEY = FRAME_SLOTS + 6  # int64 [HASH_SIZE]: the (parent, move) of a slot
S_HASH_NODE = FRAME_SLOTS + 7  # int64 [HASH_SIZE]: its child
S_HASH_STAMP = FRAME_SLOTS + 8  # int64 [HASH_SIZE + 1]: the decision that wrote the slot; [-1]: the count
S_TUNED = FRAME_SLOTS + 9  # float64 [TABLE_SIZE]: a weights table with ``tuned``'s weights for every seat


def tuned_table():
    """A weights table (``engine/weights.py``) giving every seat ``tuned``'s weights."""
    table = np.zeros((TABLE_SIZE // MAX_WEIGHTS, MAX_WEIGHTS), np.float64)
    table[:, : len(TUNED_WEIGHTS)] = TUNED_WEIGHTS
    return table.ravel()


TUNED_TABLE = tuned_table()


@njit(cache=True)
def new_search_space():
    """The arrays one block of games searches in (about 4 MB)."""
    return new_frame(MAX_NODES) + (
        np.zeros((2, WORK_SIZE), np.int64),
        np.zeros((2, MAX_CARDS), np.int64),
        np.zeros(MAX_DEPTH, np.int64),
        np.zeros(MAX_MOVES, np.int64),
        np.zeros((2, MAX_PLAYERS), np.float64),
        np.zeros((3, 4), np.uint64),
        np.zeros(HASH_SIZE, np.int64),
        np.zeros(HASH_SIZE, np.int64),
        np.zeros(HASH_SIZE + 1, np.int64),
        TUNED_TABLE.copy(),
    )



@hot
def seed_decision(space, g, seat):
    """Seed the decision's own stream, ``space[S_RNG][0]`` (see the module docstring)."""
    seed_search(space, space[S_RNG][0], g[S_TURNS] * MAX_PLAYERS + seat)


# --------------------------------------------------------------------------- the tree


@hot
def move_key(g, grp, i):
    """What move ``i`` of group ``grp`` does: its card class, kind, marbles and end holes."""
    key = group_class(g, grp) | (g[move_at(i, MV_KIND)] << 4) | (g[move_at(i, MV_M1)] << 7)
    key |= (g[move_at(i, MV_E1)] + 2) << 10
    m2 = g[move_at(i, MV_M2)]
    if m2 >= 0:
        key |= ((m2 + 1) << 21) | ((g[move_at(i, MV_E2)] + 2) << 24)
    return key


@hot
def discard_key(g, grp):
    """The key of discarding a card of group ``grp`` (nothing playable)."""
    return group_class(g, grp) | (KIND_DISCARD << 4)


@hot
def slot_of(parent, key):
    """The table key of ``parent``'s child by move ``key``, and its first slot."""
    k = (parent << 36) | key
    h = (np.uint64(k) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - HASH_BITS)
    return k, np.int64(h)


@hot
def find_child(space, parent, key):
    """The child of ``parent`` by move ``key``, or 0 (none yet in this decision's tree)."""
    keys = space[S_HASH_KEY]
    stamps = space[S_HASH_STAMP]
    stamp = stamps[HASH_SIZE]
    k, h = slot_of(parent, key)
    while stamps[h] == stamp:
        if keys[h] == k:
            return space[S_HASH_NODE][h]
        h = (h + 1) & (HASH_SIZE - 1)
    return 0


@hot
def new_node(space, parent, key, who, n_nodes):
    """Node ``n_nodes``: the child of ``parent`` reached when seat ``who`` makes move ``key``."""
    keys = space[S_HASH_KEY]
    stamps = space[S_HASH_STAMP]
    stamp = stamps[HASH_SIZE]
    k, h = slot_of(parent, key)
    while stamps[h] == stamp:
        h = (h + 1) & (HASH_SIZE - 1)
    stamps[h] = stamp
    keys[h] = k
    space[S_HASH_NODE][h] = n_nodes
    reset_node(space, n_nodes, who)
    return n_nodes


# --------------------------------------------------------------------------- the games


@hot
def copy_game(src, dst):
    """The game part of a state (everything before the move list, which every turn makes anew)."""
    for i in range(O_MOVES):
        dst[i] = src[i]


@hot
def begin_turn(w, seat, draw_rng):
    """The seat's draw (the discard pile reshuffled first if the draw pile is empty)."""
    if w[S_DRAWN] == w[S_PILE_N]:
        reshuffle_lazy(w)
    hand_insert(w, seat, draw_card(w, draw_rng, True))


@hot
def apply_choice(w, seat, owner, total, choice, turn):
    """Play move ``choice`` of the list (its group's greedy card), or, when ``total`` is 0,
    discard the card of group ``choice``; True if it wins."""
    if total > 0:
        return play_card(w, seat, owner, group_best(w, w[move_at(choice, MV_SLOT)]), choice, turn,
                         None)
    discard_card(w, seat, group_best(w, choice), turn, None)
    return False


@hot
def unseen_cards(g, seat, out, mark):
    """List the cards ``seat`` cannot see (all but its hand and the discard pile) in ``out``,
    in id order, and return how many: a function of what the seat sees alone."""
    n_cards = g[S_NCARDS]
    for c in range(n_cards):
        mark[c] = 1
    for k in range(hand_size(g, seat)):
        mark[hand_card(g, seat, k)] = 0
    for i in range(g[S_DISC_N]):
        mark[g[disc_at(i)]] = 0
    n = 0
    for c in range(n_cards):
        out[n] = c
        n += mark[c]
    return n


@hot
def deal_unseen(w, seat, unseen, n, buf, rng):
    """A determinization: the other hands (their sizes kept) dealt uniformly from the ``n``
    unseen cards, the rest left as the draw pile (drawn from by lazy shuffle)."""
    for i in range(n):
        buf[i] = unseen[i]
    m = 0
    for other in range(w[S_PLAYERS]):
        if other != seat:
            size = hand_size(w, other)
            w[hand_n_at(other)] = 0
            for _ in range(size):
                j = m + bounded(rng, n - m)
                card = buf[j]
                buf[j] = buf[m]
                buf[m] = card
                hand_insert(w, other, card)
                m += 1
    for k in range(w[S_DRAWN], w[S_PILE_N]):
        w[pile_at(k)] = buf[m]
        m += 1


@hot
def evaluate(w, won, shares, distance):
    """Each seat's share of the iteration's end (module docstring: the winning team's seats 1,
    else the teams' progress-based win estimates)."""
    players = w[S_PLAYERS]
    if won:
        for s in range(players):
            shares[s] = 1.0 if w[winner_at(s)] else 0.0
        return
    if w[S_TURNS] >= w[S_MAX_TURNS]:  # unfinished: no win shares
        for s in range(players):
            shares[s] = 0.0
        return
    for s in range(players):
        r = 0
        for t in range(players):
            if team(w, t) == team(w, s):
                for m in range(w[S_MARBLES]):
                    r += dist(w, t, position(w, t, m))
        distance[s] = r
    low = distance[0]
    for s in range(1, players):
        low = min(low, distance[s])
    scale = float(w[S_SIDE_HOLES])  # EVAL_SCALE on the official board
    z = 0.0
    for s in range(players):
        members = 0
        for t in range(players):
            members += team(w, t) == team(w, s)
        shares[s] = math.exp(-(distance[s] - low) / scale)
        z += shares[s] / members
    for s in range(players):
        shares[s] /= z


@hot
def iterate(space, w, seat, exploration, policy, cutoff, rng, draw_rng, n_nodes):
    """One iteration on the determinization ``w`` (the seat's card drawn, its moves listed):
    select, expand, play out, evaluate, back up. Returns the new node count."""
    path = space[S_PATH]
    untried = space[S_UNTRIED]
    players = w[S_PLAYERS]
    max_turns = w[S_MAX_TURNS]
    node = 0
    depth = 0
    player = seat
    turn = w[S_TURNS]
    won = False
    first = True
    while True:
        if not first:
            if turn >= max_turns:
                break
            w[S_TURNS] = turn
            begin_turn(w, player, draw_rng)
        first = False
        owner = mover(w, player)
        total = gen_hand(w, player, owner, -1)
        n_untried = 0
        best = -1
        best_child = 0
        best_value = -1.0e300
        for k in range(hand_size(w, player)):
            if group_of(w, k) == k:
                if total > 0:
                    lo = group_start(w, k)
                    hi = group_end(w, k)
                else:
                    lo = k
                    hi = k + 1
                for i in range(lo, hi):
                    key = move_key(w, k, i) if total > 0 else discard_key(w, k)
                    child = find_child(space, node, key)
                    if child == 0:
                        untried[n_untried] = i
                        n_untried += 1
                    else:
                        value = ucb(space, child, exploration)
                        if value > best_value:
                            best_value = value
                            best = i
                            best_child = child
        if n_untried > 0 and (n_nodes < MAX_NODES or best < 0):
            choice = untried[bounded(rng, n_untried)]
            if n_nodes < MAX_NODES and depth < MAX_DEPTH:
                if total > 0:
                    key = move_key(w, group_of(w, w[move_at(choice, MV_SLOT)]), choice)
                else:
                    key = discard_key(w, choice)
                child = new_node(space, node, key, player, n_nodes)
                n_nodes += 1
                path[depth] = child
                depth += 1
            won = apply_choice(w, player, owner, total, choice, turn)
            turn += 1
            break
        path[depth] = best_child
        depth += 1
        won = apply_choice(w, player, owner, total, best, turn)
        turn += 1
        node = best_child
        if won or depth >= MAX_DEPTH:
            break
        player = player + 1 if player + 1 < players else 0
    # play-out
    strategy = GREEDY if policy == PLAYOUT_GREEDY else RANDOM
    weight = 1 if policy == PLAYOUT_GREEDY else -1
    tuned = space[S_TUNED]
    steps = 0
    while not won and turn < max_turns and (cutoff <= 0 or steps < cutoff):
        player = player + 1 if player + 1 < players else 0
        w[S_TURNS] = turn
        begin_turn(w, player, draw_rng)
        owner = mover(w, player)
        total = gen_hand(w, player, owner, weight)
        if policy == PLAYOUT_TUNED:
            slot, mv = weighted_choice(w, player, owner, total, tuned)
        else:
            slot, mv = choose(w, player, strategy, total, rng)
        if mv >= 0:
            won = play_card(w, player, owner, slot, mv, turn, None)
        else:
            discard_card(w, player, slot, turn, None)
        turn += 1
        steps += 1
    w[S_TURNS] = turn
    shares = space[S_SHARES]
    evaluate(w, won, shares[0], shares[1])
    back_up(space, path, depth, shares[0], 1.0)
    return n_nodes


@hot
def search_choice(g, seat, owner, total, omniscient, iterations, exploration, policy, cutoff,
                  space, deck_rng):
    """``(slot, move)`` the search chooses on ``g``'s move list (``moves.gen_hand`` made it
    for the seat; move -1 and the slot to discard when ``total`` is 0). ``g`` is not changed."""
    distinct = 0
    only = -1
    for k in range(hand_size(g, seat)):
        if group_of(g, k) == k:
            if total > 0:
                distinct += group_end(g, k) - group_start(g, k)
                only = group_start(g, k) if only < 0 else only
            else:
                distinct += 1
                only = k if only < 0 else only
    if distinct > 1:
        stamps = space[S_HASH_STAMP]
        stamps[HASH_SIZE] += 1  # a new decision: every table slot of the last one is stale
        seed_decision(space, g, seat)
        rng = space[S_RNG][0]
        states = space[S_STATES]
        template = states[0]
        w = states[1]
        copy_game(g, template)
        cards = space[S_CARDS]
        n = 0
        if omniscient:
            for j in range(4):
                space[S_RNG][1, j] = deck_rng[j]
        else:
            n = unseen_cards(g, seat, cards[0], cards[1])
        n_nodes = new_tree(space)
        draw_rng = space[S_RNG][2] if omniscient else rng
        for _ in range(iterations):
            copy_game(template, w)
            if omniscient:
                for j in range(4):
                    draw_rng[j] = space[S_RNG][1, j]
            else:
                deal_unseen(w, seat, cards[0], n, cards[1], rng)
            n_nodes = iterate(space, w, seat, exploration, policy, cutoff, rng, draw_rng, n_nodes)
        best = 0
        for k in range(hand_size(g, seat)):
            if group_of(g, k) == k:
                lo = group_start(g, k) if total > 0 else k
                hi = group_end(g, k) if total > 0 else k + 1
                for i in range(lo, hi):
                    key = move_key(g, k, i) if total > 0 else discard_key(g, k)
                    child = find_child(space, 0, key)
                    if child != 0 and more_visited(space, child, best):
                        best = child
                        only = i
    if total > 0:
        return group_best(g, g[move_at(only, MV_SLOT)]), only
    return group_best(g, only), -1


@hot
def choose_searched(g, seat, owner, total, omniscient, params, space, deck_rng):
    """``ismcts``'s (or ``omniscient``'s) ``(slot, move)``, the seat's parameters read from
    ``params``'s weights table (``engine/weights.py``)."""
    iterations, exploration, policy = seat_search(params, seat)
    cutoff = np.int64(params[weight_index(params, seat, W_CUTOFF)])
    return search_choice(g, seat, owner, total, omniscient, iterations, exploration, policy, cutoff,
                         space, deck_rng)

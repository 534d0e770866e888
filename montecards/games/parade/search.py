"""Parade's tree searches: ``ismcts`` and its ``omniscient`` twin (montecards issue #19).

``ismcts`` is single-observer information-set Monte Carlo tree search (SO-ISMCTS, Cowling,
Powley & Whitehouse 2012). Each iteration of a play decision

1. samples a **determinization** consistent with what the seat has seen: the unseen cards
   (draw pile and other hands together, a set the seat works out from the table) are listed
   in card-id order and dealt afresh into the other hands and the draw pile, keeping every
   count (the draw pile by lazy shuffle: a card is drawn uniformly when the iteration draws).
   The true other hands and deck order are only ever overwritten: the list is built from the
   set alone, so re-dealing the hidden cards cannot change a single draw
   (``tests/test_parade_search.py`` checks it at many decisions);
2. **selects** from the root by UCB among the moves legal in that determinization (every seat's
   moves are in the tree, keyed by the card played; a child's availability count is the
   number of times it was legal when its parent was visited, and replaces the parent's
   visits in the exploration term: ``mean + c * sqrt(ln(availability) / visits)``, the mean
   a child's win share for the seat that moved into it; the node statistics, kept so that a
   selection costs no division and no logarithm, are the frame's: ``engine/search.py``);
3. **expands** one untried legal move (chosen uniformly) as a new node;
4. **plays out** to the end with every seat on the default policy (``greedy``, or ``random``
   plays; the final discards greedy in both);
5. **backs up** the game's win shares (``rules.win_shares``: lowest score, then fewest cards,
   ties shared) along the path.

It plays the root child visited most (ties: the higher mean, then the lower hand index).

The **final discard** is searched too, as flat Monte Carlo (a one-level tree needs no UCB
when every one of its six arms is cheap): ``max(1, iterations // 6)`` determinizations of the
other final hands, every one of the six pairs scored in each (common random numbers), the
other seats discarding greedily; the pair with the most win share, then the best mean margin
(best other score minus own), then the lowest ``PAIRS`` index.

``omniscient`` runs the same search on the **true** state with no determinization: the other
hands as they are and the draw pile in the order it will really be drawn (the deck stream is
copied and the lazy shuffle carried out ahead, which draws exactly the cards the game will
draw). The gap between the two measures what the hidden information is worth.

**Run-time parameters** (``engine/weights.py``: per seat, ``ismcts[1000,0.7,0]``):
``iterations`` per decision, the ``exploration`` constant ``c`` and the ``playout`` policy
(0 random, 1 greedy). One compile plays every strength. The defaults are
``1000,0.7,0``: random play-outs, which beat greedy ones head to head at 1,000 iterations
(56.0 % ± 2.9 % of 1,000 games, ``montecards compare parade -s 'ismcts[1000,0.7,0]' -s
'ismcts[1000,0.7,1]' -n 500 --seed 4``) at about twice the speed.

**Random numbers**: a decision's search draws only from its own stream, substream
``SEARCH_STREAM + (2 * turns + kind) * MAX_PLAYERS + seat`` of the game (``turns`` the turns
played so far, ``kind`` 0 play, 1 discard), seeded afresh at each decision
(``engine/search.py``): the same seed gives the same search at the same decision whatever the
hidden cards, and the choice and deck streams (and so every other seat's games) are untouched.

**Memory**: the tree lives in the search space (``new_search_space``: the frame of
``engine/search.py``, then Parade's arrays), ``MAX_NODES`` nodes, children by card; a decision
reuses it from node 0. Once the tree is full (more than ``MAX_NODES - 1`` iterations), later
iterations still select, play out and back up, but expand no further.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.jit import hot
from montecards.engine.search import (
    FRAME_SLOTS,
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
from montecards.engine.spec import WIN_UNIT
from montecards.games.parade.cards import MAX_PLAYERS, N_CARDS
from montecards.games.parade.rules import (
    DECK,
    DISCARD,
    DRAWN,
    HAND_N,
    PAIRS,
    PLAYERS,
    STATE_SIZE,
    TURNS,
    collection_size,
    finish_turn,
    hand_at,
    keep_cards,
    next_seat,
    play_card,
    seat_score,
    win_shares,
)
from montecards.games.parade.strategies import any_greedy_discard, copy_state, greedy_discard, greedy_play, new_takings
from montecards.rng import bounded

MAX_NODES = 1 << 15
"""Nodes of a tree (node 0 the root): iterations beyond ``MAX_NODES - 1`` expand nothing."""

MAX_DEPTH = 128
"""Longest path from the root (a 2-player game has at most 52 turns)."""

KIND_PLAY = 0
KIND_DISCARD = 1

PARAMETERS = search_parameters(default=(1000.0, 0.7, 0.0), bounds=((10.0, 20000.0), (0.1, 2.0), (0.0, 1.0)),
                               quick=(30.0, 0.7, 1.0))  # the replay checks' (GameSpec.quick_strategies)
"""``ismcts``'s and ``omniscient``'s run-time parameters (``GameSpec.seat_params``)."""

# the search space: the frame's slots (``engine/search.py``: S_STATS, S_MOVER, S_KEY,
# S_SQRT_LOG), then Parade's (``new_search_space``)
S_CHILDREN = FRAME_SLOTS  # int32 [node, card]: the child reached by playing ``card``, 0 if none
S_STATES = FRAME_SLOTS + 1  # int64 [3, STATE_SIZE]: the decision's template, an iteration's game, a trial
S_CARDS = FRAME_SLOTS + 2  # int64 [2, N_CARDS]: the unseen cards in id order, an iteration's copy
S_PATH = FRAME_SLOTS + 3  # int64 [MAX_DEPTH + 8]: an iteration's path, then the untried moves
S_SEATS = FRAME_SLOTS + 4  # int64 [3, MAX_PLAYERS]: scores, sizes, win shares
S_TOTALS = FRAME_SLOTS + 5  # int64 [2, PAIRS]: the discard search's win shares and margins per pair
S_RNG = FRAME_SLOTS + 6  # uint64 [2, 4]: the decision's stream, a copy of the deck stream (omniscient)
S_NO_TRACE = FRAME_SLOTS + 7  # int64 [0, 4]
S_TAKINGS = FRAME_SLOTS + 8  # int64 [TAKINGS_SIZE]: greedy play-outs' takings (``strategies.new_takings``)


@njit(cache=True)
def new_search_space():
    """The arrays one block of games searches in (about 9 MB, zeroed lazily by the system)."""
    return new_frame(MAX_NODES) + (
        np.zeros((MAX_NODES, N_CARDS), np.int32),
        np.zeros((3, STATE_SIZE), np.int64),
        np.zeros((2, N_CARDS), np.int64),
        np.zeros(MAX_DEPTH + 8, np.int64),
        np.zeros((3, MAX_PLAYERS), np.int64),
        np.zeros((2, PAIRS.shape[0]), np.int64),
        np.zeros((2, 4), np.uint64),
        np.zeros((0, 4), np.int64),
        new_takings(),
    )


@hot
def seed_decision(space, g, seat, kind):
    """Seed the decision's own stream, ``space[S_RNG][0]`` (see the module docstring)."""
    seed_search(space, space[S_RNG][0], (2 * g[TURNS] + kind) * MAX_PLAYERS + seat)


@hot
def unseen_cards(g, seat, out, mark):
    """List the cards ``seat`` cannot see (draw pile and other hands) in ``out``, in id order,
    and return how many: a function of the set alone, not of where the cards are."""
    for c in range(N_CARDS):
        mark[c] = 0
    for k in range(g[DRAWN], N_CARDS):
        mark[g[DECK + k]] = 1
    for other in range(g[PLAYERS]):
        if other != seat:
            for k in range(g[HAND_N + other]):
                mark[g[hand_at(other, k)]] = 1
    n = 0
    for c in range(N_CARDS):
        out[n] = c
        n += mark[c]
    return n


@hot
def deal_unseen(w, seat, unseen, n, buf, rng):
    """A determinization: the other hands (their sizes kept) dealt uniformly from the ``n``
    unseen cards, the rest left as the draw pile, which the iteration then draws from by lazy
    shuffle (``rules.next_card``: every draw uniform over what is left, and no shuffling of
    the cards a game never draws)."""
    for i in range(n):
        buf[i] = unseen[i]
    m = 0
    for other in range(w[PLAYERS]):
        if other != seat:
            for k in range(w[HAND_N + other]):
                j = m + bounded(rng, n - m)
                card = buf[j]
                buf[j] = buf[m]
                buf[m] = card
                w[hand_at(other, k)] = card
                m += 1
    for k in range(w[DRAWN], N_CARDS):
        w[DECK + k] = buf[m]
        m += 1


@hot
def draw_ahead(w, deck_rng_copy):
    """Carry out the game's lazy shuffle ahead (``rules.next_card``'s draws, in order) with a
    copy of the deck stream: ``w``'s draw pile then holds the cards in the order the game will
    draw them (``omniscient`` only)."""
    for k in range(w[DRAWN], N_CARDS):
        j = DECK + k + bounded(deck_rng_copy, N_CARDS - k)
        card = w[j]
        w[j] = w[DECK + k]
        w[DECK + k] = card


@hot
def prepare(g, seat, omniscient, space, deck_rng):
    """Fill the template state; return the number of unseen cards (0 for ``omniscient``)."""
    template = space[S_STATES][0]
    copy_state(g, template)
    if omniscient:
        copy = space[S_RNG][1]
        for k in range(4):
            copy[k] = deck_rng[k]
        draw_ahead(template, copy)
        return 0
    cards = space[S_CARDS]
    return unseen_cards(template, seat, cards[0], cards[1])


@hot
def sample(space, seat, omniscient, n, rng):
    """The iteration's game ``space[S_STATES][1]``: the template, dealt afresh unless
    ``omniscient``."""
    states = space[S_STATES]
    w = states[1]
    copy_state(states[0], w)
    if not omniscient:
        cards = space[S_CARDS]
        deal_unseen(w, seat, cards[0], n, cards[1], rng)


@hot
def finish_game(w, last, done, policy, rng, lazy, no_trace, takings):
    """Play ``w`` out from the turn after ``last``'s with every seat on ``policy``, then every
    seat's greedy final discard (chosen before any is applied)."""
    players = w[PLAYERS]
    seat = last
    while not done:
        seat = next_seat(seat, players)
        if policy == PLAYOUT_RANDOM:
            k = bounded(rng, w[HAND_N + seat])
        else:
            k = greedy_play(w, seat, takings)
        play_card(w, seat, k, no_trace)
        done = finish_turn(w, seat, rng, lazy, no_trace)
    for s in range(players):
        w[DISCARD + s] = any_greedy_discard(w, s)
    for s in range(players):
        keep_cards(w, s, w[DISCARD + s], no_trace)


@hot
def shares_of(w, seats):
    """The finished game's win shares (``rules.win_shares``, in units of ``WIN_UNIT``) in
    ``seats[2]``; scores in ``seats[0]``, sizes in ``seats[1]``."""
    players = w[PLAYERS]
    for s in range(players):
        seats[0, s] = seat_score(w, s)
        seats[1, s] = collection_size(w, s)
    win_shares(seats[0], seats[1], players, seats[2])


@hot
def new_node(space, node, card, mover, n_nodes):
    """Node ``n_nodes``: the child of ``node`` reached when ``mover`` plays ``card``."""
    children = space[S_CHILDREN]
    for c in range(N_CARDS):
        children[n_nodes, c] = 0
    reset_node(space, n_nodes, mover)
    children[node, card] = n_nodes
    return n_nodes


@hot
def iterate(space, w, seat, exploration, policy, rng, lazy, n_nodes):
    """One iteration on the determinization ``w``: select, expand, play out, back up. Returns
    the new node count."""
    children = space[S_CHILDREN]
    path = space[S_PATH]
    untried_at = MAX_DEPTH
    no_trace = space[S_NO_TRACE]
    players = w[PLAYERS]
    node = 0
    depth = 0
    player = seat
    last = seat - 1 if seat > 0 else players - 1
    done = False
    while True:
        hand_n = w[HAND_N + player]
        n_untried = 0
        best_k = -1
        best_child = 0
        best_value = -1.0e300
        for k in range(hand_n):
            child = children[node, w[hand_at(player, k)]]
            if child == 0:
                path[untried_at + n_untried] = k
                n_untried += 1
            else:
                value = ucb(space, child, exploration)
                if value > best_value:
                    best_value = value
                    best_k = k
                    best_child = child
        if n_untried > 0 and n_nodes < MAX_NODES:
            k = path[untried_at + bounded(rng, n_untried)]
            child = new_node(space, node, w[hand_at(player, k)], player, n_nodes)
            n_nodes += 1
            path[depth] = child
            depth += 1
            play_card(w, player, k, no_trace)
            done = finish_turn(w, player, rng, lazy, no_trace)
            last = player
            break
        if best_k < 0:  # the tree is full and no move here has a node: play out from here
            break
        path[depth] = best_child
        depth += 1
        play_card(w, player, best_k, no_trace)
        done = finish_turn(w, player, rng, lazy, no_trace)
        last = player
        node = best_child
        if done or depth >= MAX_DEPTH:
            break
        player = next_seat(player, players)
    finish_game(w, last, done, policy, rng, lazy, no_trace, space[S_TAKINGS])
    seats = space[S_SEATS]
    shares_of(w, seats)
    back_up(space, path, depth, seats[2], WIN_UNIT)
    return n_nodes


@hot
def search_play(g, seat, omniscient, iterations, exploration, policy, space, deck_rng):
    """Hand index of the card the search plays (``iterations`` >= 1)."""
    seed_decision(space, g, seat, KIND_PLAY)
    rng = space[S_RNG][0]
    w = space[S_STATES][1]
    n = prepare(g, seat, omniscient, space, deck_rng)
    children = space[S_CHILDREN]
    for c in range(N_CARDS):
        children[0, c] = 0
    n_nodes = new_tree(space)
    for _ in range(iterations):
        sample(space, seat, omniscient, n, rng)
        n_nodes = iterate(space, w, seat, exploration, policy, rng, not omniscient, n_nodes)
    best_k = 0
    best = 0
    for k in range(g[HAND_N + seat]):
        child = children[0, g[hand_at(seat, k)]]
        if child != 0 and more_visited(space, child, best):
            best = child
            best_k = k
    return best_k


@hot
def search_discard(g, seat, omniscient, iterations, space, deck_rng):
    """Index into ``PAIRS`` of the two hand cards the search discards (module docstring)."""
    seed_decision(space, g, seat, KIND_DISCARD)
    rng = space[S_RNG][0]
    w = space[S_STATES][1]
    n = prepare(g, seat, omniscient, space, deck_rng)
    states = space[S_STATES]
    trial = states[2]
    seats = space[S_SEATS]
    totals = space[S_TOTALS]
    no_trace = space[S_NO_TRACE]
    players = g[PLAYERS]
    pairs = PAIRS.shape[0]
    for p in range(pairs):
        totals[0, p] = 0
        totals[1, p] = 0
    deals = 1 if omniscient else max(1, iterations // pairs)
    for _ in range(deals):
        sample(space, seat, omniscient, n, rng)
        for s in range(players):
            if s != seat:
                w[DISCARD + s] = any_greedy_discard(w, s)
        for p in range(pairs):
            copy_state(w, trial)
            trial[DISCARD + seat] = p
            for s in range(players):
                keep_cards(trial, s, trial[DISCARD + s], no_trace)
            shares_of(trial, seats)
            best_other = np.int64(1) << 30
            for s in range(players):
                if s != seat:
                    best_other = min(best_other, seats[0, s])
            totals[0, p] += seats[2, seat]
            totals[1, p] += best_other - seats[0, seat]
    best = 0
    for p in range(1, pairs):
        if totals[0, p] > totals[0, best] or (
            totals[0, p] == totals[0, best] and totals[1, p] > totals[1, best]
        ):
            best = p
    return best


@hot
def play(g, seat, omniscient, params, space, deck_rng):
    """``ismcts``'s (or ``omniscient``'s) play: a hand index (the seat's parameters from
    ``params``, ``engine/weights.py``)."""
    iterations, exploration, policy = seat_search(params, seat)
    return search_play(g, seat, omniscient, iterations, exploration, policy, space, deck_rng)


@hot
def discard(g, seat, omniscient, params, space, deck_rng):
    """``ismcts``'s (or ``omniscient``'s) final discard: an index into ``PAIRS``."""
    iterations, _, _ = seat_search(params, seat)
    return search_discard(g, seat, omniscient, iterations, space, deck_rng)

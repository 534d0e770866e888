"""Gift of Tulips' tree searches: ``ismcts`` and its ``omniscient`` twin (montecards issue #19).

``ismcts`` is single-observer information-set Monte Carlo tree search (SO-ISMCTS, Cowling,
Powley & Whitehouse 2012), as Parade's (``games/parade/search.py``). Each iteration of an
**action** decision (the action, and its target, with the card just drawn)

1. samples a **determinization** consistent with what the seat has seen. The seat cannot see
   the draw pile, the cards removed at set-up (the undrawn cards, together) and the other
   seats' secret-festival cards (its own it placed itself; every bouquet and the open festival
   are public). These cards are listed by colour and value (ties in card-id order: a function
   of the set the seat can work out, not of where the cards lie) and dealt afresh: each other
   seat's secret cards, then the rest back as the undrawn cards, which the iteration draws
   from by lazy shuffle (``rules.next_card``: each draw uniform over what is left, so which
   of them were removed at set-up is random too). The true secret cards and deck order are
   only ever overwritten (``tests/test_tulips_search.py`` re-deals them at many decisions and
   checks that the choice stays the same);
2. **selects** from the root by UCB among the moves legal in the determinization (every seat's
   actions are in the tree, keyed by the move id of ``view``: ``action * 8 + receiver``; the
   card drawn is part of the determinization, so a node stands for the move whatever card it
   was made with, SO-ISMCTS's usual treatment of chance). A child's availability count (the
   times it was legal when its parent was visited) replaces the parent's visits in the
   exploration term, ``mean + c * sqrt(ln(availability) / visits)``, the mean being the
   child's win share for the seat that moved into it;
3. **expands** one untried legal move (chosen uniformly) as a new node;
4. **plays out** to the end with every seat on the default policy (``random`` or ``greedy``
   actions), reveals the secret festival (the rules' random reveal) and scores;
5. **backs up** the win shares (``rules.final_scores``: most points, then most tulips, ties
   shared) along the path.

It plays the root child visited most (ties: the higher mean, then the first in legal order).

The **set-up split** (which of the two dealt cards goes to the bouquet) is searched as flat
Monte Carlo: with two arms and one decision per game a tree adds nothing. ``max(1,
iterations // 2)`` determinizations (the other seats' dealt cards dealt afresh from the
unseen cards, with the draw pile and the removed cards); in each the other seats split by
the default policy (``greedy``'s set-up rule, or uniformly) and both of the seat's splits are
played out on common random numbers (the same draws, the same play-out choices as far as they
agree). The split with the more win share is played; ties: ``greedy``'s set-up rule.

``omniscient`` runs the same searches on the **true** state with no determinization: the
other seats' secret (and dealt) cards as they are and the draw pile in the order the game will
really draw it (the deck stream is copied and the lazy shuffle carried out ahead), and the
end-of-game reveal drawn from the deck stream as the game will draw it (the copy's state after
the last draw). The gap between the two measures what the hidden information is worth.

**Run-time parameters** (``engine/weights.py``: per seat, ``ismcts[1000,0.7,0]``):
``iterations`` per decision, the ``exploration`` constant ``c`` and the ``playout`` policy (0
random, 1 greedy). One compile plays every strength. The defaults are ``1000,0.7,0``: random
play-outs, as Parade's. Greedy play-outs look better against ``greedy`` itself at 2 players,
but they model every opponent as ``greedy`` and stop improving with iterations: at 4 players
``ismcts[100,0.7,1]`` wins 12.6 % [10.8, 14.4] in one seat against three
``ismcts[100,0.7,0]`` (fair 25 %), and 1,000 greedy-play-out iterations are not clearly better
than 100 (23.7 % [20.8, 26.7]), while 1,000 random-play-out iterations beat 100 (46.5 %
[41.4, 51.6]; ``analysis.matchups``, 300 / 150 / 100 deals x 4 seatings, seed 20240607).

**Random numbers**: a decision's search draws only from its own stream, substream
``SEARCH_STREAM + (2 * actions + kind) * MAX_PLAYERS + seat`` of the game (``actions`` the
actions played so far, all seats: 0 at set-up; ``kind`` 0 set-up, 1 action), seeded afresh at
each decision: the same seed gives the same search at the same decision whatever the hidden
cards, and the deck and choice streams (and so every other seat's games) are untouched
(``engine/search.py``).

**Memory**: the tree lives in the search space (``new_search_space``, about 5 MB: the frame of
``engine/search.py``, then Gift of Tulips' arrays), ``MAX_NODES`` nodes, children by move id;
a decision reuses it from node 0. Once the tree is full (more than ``MAX_NODES - 1``
iterations), later iterations still select, play out and back up, but expand no further.
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
from montecards.games.tulips.cards import MAX_CARDS, MAX_PLAYERS
from montecards.games.tulips.rules import (
    ACTIONS,
    CANON,
    COLOUR_OF,
    DECK,
    DRAWN,
    N_DECK,
    N_SCALARS,
    N_SECRET,
    PILE_END,
    PLAYERS,
    SECRET,
    SECRET_SEAT,
    SETUP_CHOICE,
    SHARE,
    STATE_SIZE,
    TOTALS,
    TURNS,
    VALUE_OF,
    action_class,
    apply_action,
    dealt_card,
    final_scores,
    next_card,
    reveal_secret,
    to_bouquet,
    to_secret,
)
from montecards.games.tulips.strategies import (
    decode,
    greedy_action,
    greedy_setup,
    random_action,
    random_setup,
)
from montecards.games.tulips.view import DECISION_ACTION, MAX_LEGAL, NO_CLASS, legal_moves
from montecards.rng import bounded

MAX_NODES = 1 << 15
"""Nodes of a tree (node 0 the root): iterations beyond ``MAX_NODES - 1`` expand nothing."""

N_MOVES = 32
"""Move ids of an action (``action * 8 + receiver``): a node's children, by move."""

MAX_DEPTH = 256
"""Longest path from the root (a game has one action per card drawn, at most ``MAX_CARDS``)."""

KIND_SETUP = 0
KIND_ACTION = 1

PARAMETERS = search_parameters(default=(1000.0, 0.7, 0.0), bounds=((10.0, 20000.0), (0.1, 2.0), (0.0, 1.0)),
                               quick=(30.0, 0.7, 1.0))  # the replay checks' (GameSpec.quick_strategies)
"""``ismcts``'s and ``omniscient``'s run-time parameters (``GameSpec.seat_params``)."""

# the search space: the frame's slots (``engine/search.py``: S_STATS, S_MOVER, S_KEY,
# S_SQRT_LOG), then Gift of Tulips' (``new_search_space``)
S_CHILDREN = FRAME_SLOTS  # int32 [node, move]: the child reached by the move, 0 if none
S_STATES = FRAME_SLOTS + 1  # int64 [3, STATE_SIZE]: the decision's template, an iteration's game, a trial
S_CARDS = FRAME_SLOTS + 2  # int64 [3, MAX_CARDS]: the unseen cards (sorted), an iteration's copy, marks
S_PATH = FRAME_SLOTS + 3  # int64 [MAX_DEPTH + MAX_LEGAL]: an iteration's path, then the untried moves
S_LEGAL = FRAME_SLOTS + 4  # int64 [MAX_LEGAL]: the legal moves at a node
S_TOTALS = FRAME_SLOTS + 5  # int64 [2]: the set-up search's win shares per split
S_RNG = FRAME_SLOTS + 6  # uint64 [5, 4]: decision stream, its saved copy, deck copy, reveal stream, its copy

R_DECISION = 0
R_SAVED = 1
R_DECK = 2
R_REVEAL = 3
R_REVEAL_COPY = 4


@njit(cache=True)
def new_search_space():
    """The arrays one block of games searches in (about 5 MB, zeroed lazily by the system)."""
    return new_frame(MAX_NODES) + (
        np.zeros((MAX_NODES, N_MOVES), np.int32),
        np.zeros((3, STATE_SIZE), np.int64),
        np.zeros((3, MAX_CARDS), np.int64),
        np.zeros(MAX_DEPTH + MAX_LEGAL, np.int64),
        np.zeros(MAX_LEGAL, np.int64),
        np.zeros(2, np.int64),
        np.zeros((5, 4), np.uint64),
    )



@hot
def seed_decision(space, g, seat, kind):
    """Seed the decision's own stream, ``space[S_RNG][R_DECISION]`` (module docstring)."""
    seed_search(space, space[S_RNG][R_DECISION], (2 * g[ACTIONS] + kind) * MAX_PLAYERS + seat)


@hot
def copy_all(src, dst):
    """Copy a whole game state (the run tables too: once per decision)."""
    for i in range(STATE_SIZE):
        dst[i] = src[i]


@hot
def copy_game(src, dst):
    """Copy what a game changes (``dst`` already holds the run tables): the scalars, the deck,
    the festival, bouquets and points, the secret festival and the set-up choices."""
    for i in range(N_SCALARS):
        dst[i] = src[i]
    for k in range(src[N_DECK]):
        dst[DECK + k] = src[DECK + k]
    for i in range(TOTALS, SECRET):
        dst[i] = src[i]
    for i in range(src[N_SECRET]):
        dst[SECRET + i] = src[SECRET + i]
        dst[SECRET_SEAT + i] = src[SECRET_SEAT + i]
    for s in range(MAX_PLAYERS):
        dst[SETUP_CHOICE + s] = src[SETUP_CHOICE + s]


@hot
def unseen_cards(g, seat, at_setup, out, mark):
    """List the cards ``seat`` cannot see in ``out`` and return how many: the undrawn cards
    (draw pile and removed), the other seats' secret-festival cards and, at set-up, their
    dealt cards. Sorted by colour and value (ties: card id), a function of the set alone."""
    n_deck = g[N_DECK]
    for k in range(n_deck):
        mark[g[CANON + k]] = 0
    for k in range(g[DRAWN], n_deck):
        mark[g[DECK + k]] = 1
    for i in range(g[N_SECRET]):
        if g[SECRET_SEAT + i] != seat:
            mark[g[SECRET + i]] = 1
    if at_setup:
        for other in range(g[PLAYERS]):
            if other != seat:
                mark[dealt_card(g, other, 0)] = 1
                mark[dealt_card(g, other, 1)] = 1
    n = 0
    for k in range(n_deck):
        card = g[CANON + k]
        if mark[card] == 1:
            key = g[COLOUR_OF + card] * 65536 + g[VALUE_OF + card]
            j = n
            while j > 0 and g[COLOUR_OF + out[j - 1]] * 65536 + g[VALUE_OF + out[j - 1]] > key:
                out[j] = out[j - 1]
                j -= 1
            out[j] = card
            n += 1
    return n


@hot
def take(buf, m, n, rng):
    """Swap a uniform pick of ``buf[m:n]`` to ``buf[m]`` and return it."""
    j = m + bounded(rng, n - m)
    card = buf[j]
    buf[j] = buf[m]
    buf[m] = card
    return card


@hot
def deal_unseen(w, seat, at_setup, unseen, n, buf, rng):
    """A determinization: the other seats' dealt cards (at set-up) and secret-festival cards
    dealt uniformly from the ``n`` unseen cards, the rest left as the undrawn cards (drawn
    from by lazy shuffle)."""
    for i in range(n):
        buf[i] = unseen[i]
    m = 0
    if at_setup:
        for other in range(w[PLAYERS]):
            if other != seat:
                for k in range(2):
                    w[DECK + 2 + 2 * other + k] = take(buf, m, n, rng)
                    m += 1
    for i in range(w[N_SECRET]):
        if w[SECRET_SEAT + i] != seat:
            w[SECRET + i] = take(buf, m, n, rng)
            m += 1
    for k in range(w[DRAWN], w[N_DECK]):
        w[DECK + k] = buf[m]
        m += 1


@hot
def prepare(g, seat, at_setup, omniscient, space, deck_rng):
    """Fill the template and working states; return the number of unseen cards (0 for
    ``omniscient``, whose template holds the draw pile in the order the game will draw it and
    ``space[S_RNG][R_REVEAL]`` the deck stream as the end-of-game reveal will find it)."""
    states = space[S_STATES]
    template = states[0]
    copy_all(g, template)
    copy_all(g, states[1])
    copy_all(g, states[2])
    if omniscient:
        rngs = space[S_RNG]
        copy = rngs[R_DECK]
        for k in range(4):
            copy[k] = deck_rng[k]
        n_deck = template[N_DECK]
        for k in range(template[DRAWN], template[PILE_END]):  # kernel.play_game's draws
            j = k + bounded(copy, n_deck - k)
            card = template[DECK + j]
            template[DECK + j] = template[DECK + k]
            template[DECK + k] = card
        for k in range(4):
            rngs[R_REVEAL, k] = copy[k]
        return 0
    cards = space[S_CARDS]
    return unseen_cards(template, seat, at_setup, cards[0], cards[2])


@hot
def sample(space, w, seat, at_setup, omniscient, n, rng):
    """The iteration's game ``w``: the template, dealt afresh unless ``omniscient``."""
    copy_game(space[S_STATES][0], w)
    if not omniscient:
        cards = space[S_CARDS]
        deal_unseen(w, seat, at_setup, cards[0], n, cards[1], rng)


@hot
def reveal_stream(space, omniscient):
    """The row of ``space[S_RNG]`` the iteration's reveal draws from: a fresh copy of the true
    stream (``omniscient``) or the decision's stream."""
    rngs = space[S_RNG]
    if omniscient:
        for k in range(4):
            rngs[R_REVEAL_COPY, k] = rngs[R_REVEAL, k]
        return R_REVEAL_COPY
    return R_DECISION


@hot
def next_position(w, player, step, rng, lazy):
    """After ``player``'s action number ``step`` (0, 1) of its turn: ``(player, step, card,
    done)`` of the next action (``kernel.play_game``'s order: a second card if the pile has
    one, else the next seat's turn; the game ends when the pile is empty)."""
    if step == 0 and w[DRAWN] < w[PILE_END]:
        return player, 1, next_card(w, rng, lazy), False
    player += 1
    if player == w[PLAYERS]:
        player = 0
    if w[DRAWN] >= w[PILE_END]:
        return player, 0, -1, True
    w[TURNS] += 1
    return player, 0, next_card(w, rng, lazy), False


@hot
def play_move(w, player, card, move):
    """Apply action ``move`` (a ``view`` move id); return the first action's class."""
    action = move >> 3
    apply_action(w, player, card, action, move & 7, None)
    return action_class(action)


@hot
def finish_game(w, player, step, card, first_class, done, policy, rng, lazy, space, omniscient):
    """Play ``w`` out from ``player``'s action ``step`` with ``card`` with every seat on
    ``policy``, reveal the secret festival and score (win shares at ``rules.SHARE``)."""
    while not done:
        if policy == PLAYOUT_RANDOM:
            action, receiver = decode(random_action(w, player, first_class, rng))
        else:
            action, receiver = decode(greedy_action(w, player, card, first_class))
        apply_action(w, player, card, action, receiver, None)
        first_class = action_class(action)
        player, step, card, done = next_position(w, player, step, rng, lazy)
        if step == 0:
            first_class = NO_CLASS
    reveal_secret(w, space[S_RNG][reveal_stream(space, omniscient)], None, None)
    final_scores(w, None)


@hot
def new_node(space, node, move, mover, n_nodes):
    """Node ``n_nodes``: the child of ``node`` reached when ``mover`` makes ``move``."""
    children = space[S_CHILDREN]
    for m in range(N_MOVES):
        children[n_nodes, m] = 0
    reset_node(space, n_nodes, mover)
    children[node, move] = n_nodes
    return n_nodes


@hot
def iterate(space, w, seat, step, first_class, exploration, policy, rng, omniscient, n_nodes):
    """One iteration on the determinization ``w`` (``seat`` to make action ``step`` of its turn
    with the card just drawn, the turn's first action of class ``first_class``): select,
    expand, play out, back up. Returns the new node count."""
    children = space[S_CHILDREN]
    path = space[S_PATH]
    legal = space[S_LEGAL]
    lazy = not omniscient
    untried_at = MAX_DEPTH
    node = 0
    depth = 0
    player = seat
    card = w[DECK + w[DRAWN] - 1]
    done = False
    while True:
        n_legal = legal_moves(w, player, DECISION_ACTION, first_class, legal)
        n_untried = 0
        best_move = -1
        best_child = 0
        best_value = -1.0e300
        for i in range(n_legal):
            move = legal[i]
            child = children[node, move]
            if child == 0:
                path[untried_at + n_untried] = move
                n_untried += 1
            else:
                value = ucb(space, child, exploration)
                if value > best_value:
                    best_value = value
                    best_move = move
                    best_child = child
        if n_untried > 0 and n_nodes < MAX_NODES:
            move = path[untried_at + bounded(rng, n_untried)]
            child = new_node(space, node, move, player, n_nodes)
            n_nodes += 1
            path[depth] = child
            depth += 1
            first_class = play_move(w, player, card, move)
            player, step, card, done = next_position(w, player, step, rng, lazy)
            break
        if best_move < 0:  # the tree is full and no move here has a node: play out from here
            break
        path[depth] = best_child
        depth += 1
        first_class = play_move(w, player, card, best_move)
        player, step, card, done = next_position(w, player, step, rng, lazy)
        node = best_child
        if step == 0:
            first_class = NO_CLASS
        if done or depth >= MAX_DEPTH:
            break
    if step == 0:
        first_class = NO_CLASS
    finish_game(w, player, step, card, first_class, done, policy, rng, lazy, space, omniscient)
    back_up(space, path, depth, w[SHARE:], WIN_UNIT)
    return n_nodes


@hot
def search_action(g, seat, step, first_class, omniscient, iterations, exploration, policy, space,
                  deck_rng):
    """The move id (``view``) of the action the search makes (``iterations`` >= 1)."""
    seed_decision(space, g, seat, KIND_ACTION)
    rng = space[S_RNG][R_DECISION]
    w = space[S_STATES][1]
    n = prepare(g, seat, False, omniscient, space, deck_rng)
    children = space[S_CHILDREN]
    for m in range(N_MOVES):
        children[0, m] = 0
    n_nodes = new_tree(space)
    for _ in range(iterations):
        sample(space, w, seat, False, omniscient, n, rng)
        n_nodes = iterate(space, w, seat, step, first_class, exploration, policy, rng, omniscient,
                          n_nodes)
    legal = space[S_LEGAL]
    n_legal = legal_moves(g, seat, DECISION_ACTION, first_class, legal)
    best = legal[0]
    best_child = 0
    for i in range(n_legal):
        child = children[0, legal[i]]
        if child != 0 and more_visited(space, child, best_child):
            best_child = child
            best = legal[i]
    return best


@hot
def place_setup(w, seat, k, policy, rng):
    """Every seat's set-up split applied (``kernel.set_up``'s order): ``seat`` puts hand card
    ``k`` in its bouquet, the others split by ``policy``; then the first turn's first card."""
    players = w[PLAYERS]
    for s in range(players):
        if s == seat:
            w[SETUP_CHOICE + s] = k
        elif policy == PLAYOUT_RANDOM:
            w[SETUP_CHOICE + s] = random_setup(rng)
        else:
            w[SETUP_CHOICE + s] = greedy_setup(w, dealt_card(w, s, 0), dealt_card(w, s, 1))
    for s in range(players):
        a = dealt_card(w, s, 0)
        b = dealt_card(w, s, 1)
        keep = a if w[SETUP_CHOICE + s] == 0 else b
        to_bouquet(w, s, keep)
        to_secret(w, s, b if keep == a else a)


@hot
def search_setup(g, seat, omniscient, iterations, policy, space, deck_rng):
    """Hand index (0/1) of the card the search puts in the bouquet (flat Monte Carlo over
    both splits on common random numbers; module docstring)."""
    seed_decision(space, g, seat, KIND_SETUP)
    rngs = space[S_RNG]
    rng = rngs[R_DECISION]
    saved = rngs[R_SAVED]
    states = space[S_STATES]
    w = states[1]
    trial = states[2]
    totals = space[S_TOTALS]
    n = prepare(g, seat, True, omniscient, space, deck_rng)
    totals[0] = 0
    totals[1] = 0
    lazy = not omniscient
    for _ in range(max(1, iterations // 2)):
        sample(space, w, seat, True, omniscient, n, rng)
        for i in range(4):
            saved[i] = rng[i]
        for k in range(2):
            for i in range(4):
                rng[i] = saved[i]
            copy_game(w, trial)
            place_setup(trial, seat, k, policy, rng)
            done = trial[DRAWN] >= trial[PILE_END]
            card = -1
            if not done:
                trial[TURNS] = 1
                card = next_card(trial, rng, lazy)
            finish_game(trial, 0, 0, card, NO_CLASS, done, policy, rng, lazy, space, omniscient)
            totals[k] += trial[SHARE + seat]
    if totals[0] != totals[1]:
        return 0 if totals[0] > totals[1] else 1
    return greedy_setup(g, dealt_card(g, seat, 0), dealt_card(g, seat, 1))


@hot
def action(g, seat, step, first_class, omniscient, params, space, deck_rng):
    """``ismcts``'s (or ``omniscient``'s) action with the card just drawn: a move id (``view``;
    the seat's parameters from ``params``, ``engine/weights.py``)."""
    iterations, exploration, policy = seat_search(params, seat)
    return search_action(g, seat, step, first_class, omniscient, iterations, exploration, policy, space,
                         deck_rng)


@hot
def setup(g, seat, omniscient, params, space, deck_rng):
    """``ismcts``'s (or ``omniscient``'s) set-up split: the hand index going to the bouquet."""
    iterations, _, policy = seat_search(params, seat)
    return search_setup(g, seat, omniscient, iterations, policy, space, deck_rng)

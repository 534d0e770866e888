"""The frame of the games' tree searches (``ismcts`` and ``omniscient``, SO-ISMCTS): what
Parade's, Gift of Tulips' and Joker Marbles' ``search.py`` share, written once here.

A game's search keeps its trees in a **search space**: one tuple of arrays that its
``new_search_space`` allocates once per block of games, and that every decision reuses from
node 0, so that nothing is allocated per decision. The space's first ``FRAME_SLOTS`` slots are
the frame's (``new_frame``), the same in every game; the game's own arrays follow (its ``S_*``
constants count on from ``FRAME_SLOTS``):

- ``S_STATS``, float64 ``[node, N_STATS]``: the node statistics, columns ``VISITS``; ``AVAIL``,
  the times the node was legal when its parent was visited (SO-ISMCTS's availability count,
  which replaces the parent's visits in UCB's exploration term
  ``mean + c * sqrt(ln(availability) / visits)``); ``REWARD``, the summed win shares of the
  seat that moved into the node; and ``MEAN`` (``REWARD / VISITS``) and ``SPREAD``
  (``1 / sqrt(VISITS)``), which the back-up keeps up to date so that a selection costs no
  division;
- ``S_MOVER``, int64 ``[node]``: the seat whose move leads to the node;
- ``S_KEY``, uint64 ``[2]``: the game's seed and index (``set_key``, once per game), from
  which each decision seeds its own stream, substream ``SEARCH_STREAM + k`` of the game
  (``seed_search``; the game says what ``k`` is): the same seed gives the same search at the
  same decision whatever the hidden cards, and the game's other streams are untouched;
- ``S_SQRT_LOG``, float64 ``[LOG_TABLE]``: ``sqrt(ln(a))`` for the availabilities ``a`` below
  ``LOG_TABLE`` (UCB's exploration term without a logarithm).

**Compiled only where a seat searches.** A game's kernel declares the search an option
(``kernel.OPTIONS``' ``("search", {ISMCTS, OMNISCIENT})``) and gets its ``search_space(options)``
from ``engine.options.gated(OPTIONS, "search", new_search_space)``: the space, or None in the
kernels of runs in which no seat searches. A function that takes the space as an *argument*
then has its ``if search is not None`` pruned by numba in those runs, and the search is
compiled out of them. numba does not prune a test of a local None so: a kernel keys the search
(``set_key``) in a function that takes it as an argument (Parade's and Joker Marbles' ``hot``
``seed_game(..., search)``, Gift of Tulips' ``seed_game``).

**Shared operations** (inlined into the games' code): ``new_tree`` (a decision's root),
``reset_node`` (a new node's statistics), ``ucb`` (a tried child's value at selection, counting
its availability), ``back_up`` (the iteration's shares along its path), ``more_visited`` (the
move a decision plays), and the run-time parameters every search begins with
(``search_parameters``, ``seat_search``). Each game keeps its own determinization, move keys
(how a node finds its children), play-out and evaluation, and its own ``iterate``.

**Borrowed.** A kernel runs on ``engine.borrow.borrow_all(space)`` (views without reference
counting; None stays None) and calls ``keep_alive`` on the space after its loop.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from montecards.engine.jit import hot, hot_inline
from montecards.engine.weights import Weights, weight_index, weighted_and_tuned
from montecards.rng import seed_stream

SEARCH_STREAM = 1 << 32
"""The first substream of the searches' decision streams (far from the deck, choice and user
streams 0, 1, 16..21)."""

# columns of the node statistics (``S_STATS``)
VISITS = 0
AVAIL = 1
REWARD = 2
MEAN = 3  # REWARD / VISITS, and
SPREAD = 4  # 1 / sqrt(VISITS), both kept up to date by the back-up (read by every selection)
N_STATS = 5

LOG_TABLE = 4096
"""``sqrt(ln(a))`` is tabulated for availabilities ``a`` below this (UCB's exploration term)."""

# the frame's slots of every search space (``new_frame``); a game's own slots follow
S_STATS = 0  # float64 [node, VISITS | AVAIL | REWARD | MEAN | SPREAD]
S_MOVER = 1  # int64 [node]: the seat whose move leads to the node
S_KEY = 2  # uint64 [2]: the game's seed and index (``set_key``)
S_SQRT_LOG = 3  # float64 [LOG_TABLE]: sqrt(ln(a))
FRAME_SLOTS = 4


@njit(cache=True, inline="always")
def new_frame(max_nodes):
    """The frame's arrays of a search space of ``max_nodes`` nodes (slots ``S_STATS`` ..
    ``S_SQRT_LOG``): a game's ``new_search_space`` returns ``new_frame(MAX_NODES) + (its own
    arrays)``."""
    return (
        np.zeros((max_nodes, N_STATS), np.float64),
        np.zeros(max_nodes, np.int64),
        np.zeros(2, np.uint64),
        np.sqrt(np.log(np.maximum(np.arange(LOG_TABLE), 1).astype(np.float64))),
    )


@hot
def set_key(space, seed, index):
    """Record the game's seed and index, from which every decision seeds its stream."""
    key = space[S_KEY]
    key[0] = np.uint64(seed)
    key[1] = np.uint64(index)


@hot_inline
def seed_search(space, rng, substream):
    """Seed ``rng`` (a stream of the space) as the game's substream ``SEARCH_STREAM +
    substream``, from the key ``set_key`` recorded."""
    key = space[S_KEY]
    seed_stream(rng, key[0], key[1], np.uint64(SEARCH_STREAM + substream))


# --------------------------------------------------------------------------- the tree's statistics
# The operations every game's ``iterate`` and decision share; each game keeps its own
# determinization, move keys (how a node finds its children), play-out and evaluation.


@hot_inline
def new_tree(space):
    """Start a decision's tree: the root's visits zeroed; returns the node count, 1."""
    space[S_STATS][0, VISITS] = 0.0
    return 1


@hot_inline
def reset_node(space, node, mover):
    """The statistics of a new node (availability 1: it is legal at the visit that makes it)
    and the seat whose move leads to it. The game links it to its parent."""
    stats = space[S_STATS]
    stats[node, VISITS] = 0.0
    stats[node, AVAIL] = 1.0
    stats[node, REWARD] = 0.0
    stats[node, MEAN] = 0.0
    stats[node, SPREAD] = 0.0
    space[S_MOVER][node] = mover


@hot_inline
def ucb(space, child, exploration):
    """UCB value ``mean + c * sqrt(ln(availability) / visits)`` of a tried ``child`` that is
    legal at this visit of its parent, whose availability it counts first."""
    stats = space[S_STATS]
    avail = stats[child, AVAIL] + 1.0
    stats[child, AVAIL] = avail
    a = np.int64(avail)
    root_log = space[S_SQRT_LOG][a] if a < LOG_TABLE else math.sqrt(math.log(avail))
    return stats[child, MEAN] + exploration * root_log * stats[child, SPREAD]


@hot_inline
def back_up(space, path, depth, shares, unit):
    """Count a visit of the root and of the nodes ``path[:depth]``, each rewarded with the
    share of the seat that moved into it: ``shares[seat] / unit``."""
    stats = space[S_STATS]
    movers = space[S_MOVER]
    stats[0, VISITS] += 1.0
    for d in range(depth):
        node = path[d]
        visits = stats[node, VISITS] + 1.0
        reward = stats[node, REWARD] + shares[movers[node]] / unit
        stats[node, VISITS] = visits
        stats[node, REWARD] = reward
        stats[node, MEAN] = reward / visits
        stats[node, SPREAD] = 1.0 / math.sqrt(visits)


@hot_inline
def more_visited(space, child, best):
    """Is node ``child`` visited more than node ``best`` (ties: the higher mean)? ``best`` 0:
    none yet. A decision plays the root child visited most."""
    if best == 0:
        return True
    stats = space[S_STATS]
    visits = stats[child, VISITS]
    most = stats[best, VISITS]
    return visits > most or (visits == most and stats[child, MEAN] > stats[best, MEAN])


# --------------------------------------------------------------------------- the parameters
# A seat's run-time parameters (``engine/weights.py``: per seat, e.g. ``ismcts[1000,0.7,0]``)
# begin with these three in every game; a game may add its own after them.
W_ITERATIONS = 0
W_EXPLORATION = 1
W_PLAYOUT = 2
FEATURES = ("iterations", "exploration", "playout")

PLAYOUT_RANDOM = 0
PLAYOUT_GREEDY = 1


def search_parameters(default, bounds, doc=None, extra=(), validate=None, quick=()) -> Weights:
    """``ismcts``'s and ``omniscient``'s ``Weights``: ``FEATURES``, then the game's ``extra``
    features (``default`` and ``bounds`` give one entry per feature; ``quick``: the cheaper
    values the replay checks play, ``Weights.quick``). A label may give the iterations alone,
    ``ismcts[10000]``: the other parameters take their defaults."""
    if doc is None:
        doc = "iterations per decision, UCB exploration constant, play-out policy (0 random, 1 greedy)"
    return Weights(features=FEATURES + tuple(extra), default=default, bounds=bounds, doc=doc,
                   validate=validate, quick=tuple(quick), least=1)


def searches(parameters: Weights) -> dict[str, Weights]:
    """The two searches' entries of a ``GameSpec.seat_params``: ``ismcts`` and ``omniscient``
    read the same ``parameters`` (``search_parameters``)."""
    return {"ismcts": parameters, "omniscient": parameters}


def searches_and_weighted(parameters: Weights, strategies, doc: str) -> dict[str, Weights]:
    """The ``GameSpec.seat_params`` of a game with both searches (:func:`searches`) and the two
    usual weighted built-ins (``engine.weights.weighted_and_tuned``), these from its
    ``strategies`` module's ``FEATURES``, ``DEFAULT_WEIGHTS``, ``TUNED_WEIGHTS`` and
    ``WEIGHT_BOUNDS``; ``doc``: ``weighted``'s."""
    return {**searches(parameters), **weighted_and_tuned(
        strategies.FEATURES, strategies.DEFAULT_WEIGHTS, strategies.TUNED_WEIGHTS, strategies.WEIGHT_BOUNDS, doc)}


@hot_inline
def seat_search(params, seat):
    """The seat's ``(iterations, exploration, playout)``: at least one iteration, the policy a
    whole number."""
    iterations = max(np.int64(1), np.int64(params[weight_index(params, seat, W_ITERATIONS)]))
    return (iterations, params[weight_index(params, seat, W_EXPLORATION)],
            np.int64(params[weight_index(params, seat, W_PLAYOUT)]))

"""Anomia's skill model: who wins a face-off (docs/rules/anomia.md, "Skill model").

Anomia has no card choices (``view.py``), so its only strategy is ``default`` and what other
games put here, the built-in choosers, is in Anomia the model that stands in for the players:
seat ``i`` beats seat ``j`` with probability ``exp(theta_i) / (exp(theta_i) + exp(theta_j))``
(Bradley-Terry on the per-seat skill ``theta``), and a face-off ties with probability
``tie_prob`` (then the rulebook tiebreak, same model, decides it).

Per face-off between seats ``a < b`` the model consumes from the game's face-off stream, in
this order:

* when ``tie_prob > 0`` one uniform ``u_tie``; the face-off ties iff ``u_tie < tie_prob``;
* one uniform ``u``; seat ``a`` wins (the face-off, or its tiebreak) iff ``u < p_a``;
* only for a tie while the draw pile holds a category card: one uniform ``v``; the tiebreak
  card goes back at position ``min(floor(v * (n + 1)), n)`` of the draw pile (0 = top, ``n``
  cards left after taking it out).

Draws are compared in integer form (``u53 < ceil(p * 2**53)``, see ``threshold``), which is
exactly ``uniform(rng) < p`` on the same draw; the thresholds live in the game state
(``rules.THRESHOLD``, ``rules.H_TIE_THRESHOLD``), filled once per block by ``set_skills``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.jit import hot_inline
from montecards.games.anomia.cards import MAX_PLAYERS
from montecards.games.anomia.rules import H_TIE_THRESHOLD, THRESHOLD, at
from montecards.rng import next_u64, uniform

DEFAULT = 0
NAMES = ("default",)


@njit(cache=True)
def threshold(p):
    """The integer form of ``uniform(rng) < p``: ``u53(rng) < ceil(p * 2**53)``, exactly.

    ``uniform`` returns ``k * 2**-53`` with ``k = next_u64 >> 11``; scaling by a power of two
    is exact, so ``k * 2**-53 < p`` iff ``k < p * 2**53`` iff ``k < ceil(p * 2**53)``.
    """
    return np.int64(np.ceil(p * 9007199254740992.0))


@njit(cache=True, inline="always")
def u53(rng):
    """The 53 random bits behind ``rng.uniform`` (the same draw, as an integer)."""
    return np.int64(next_u64(rng) >> np.uint64(11))


@njit(cache=True)
def set_skills(g, tie_prob, win_probability):
    """The skill model's thresholds: the tie threshold and, per ordered pair of seats
    (``win_probability[a * MAX_PLAYERS + b]`` = P(a beats b)), the threshold of ``a`` beating
    ``b``."""
    g[H_TIE_THRESHOLD] = threshold(tie_prob)
    for k in range(MAX_PLAYERS * MAX_PLAYERS):
        g[THRESHOLD + k] = threshold(win_probability[k])


@hot_inline
def ties(g, face_off_rng):
    """Whether a face-off ties (no draw at all when ``tie_prob`` is 0)."""
    tie_threshold = g[at(H_TIE_THRESHOLD)]
    tie = False
    if tie_threshold > 0:
        tie = u53(face_off_rng) < tie_threshold
    return tie


@hot_inline
def face_off_winner(g, lo, hi, face_off_rng):
    """The winner of a face-off (or of its tiebreak) between seats ``lo < hi``."""
    return lo if u53(face_off_rng) < g[at(THRESHOLD + lo * MAX_PLAYERS + hi)] else hi


@hot_inline
def tiebreak_position(face_off_rng, room):
    """Where the tiebreak card goes back: uniform over ``0 .. room`` (0 = top of the draw pile)."""
    pos = np.int64(uniform(face_off_rng) * (room + 1))
    if pos > room:
        pos = room
    return pos

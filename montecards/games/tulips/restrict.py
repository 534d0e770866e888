"""Gift of Tulips' patterns for restricted play, ``restrict(INNER, never=PATTERN)`` (docs/metrics.md).

Gift of Tulips' moves are actions on the card just drawn, so at an action decision every legal
move "plays" the same card: a card pattern there could only ever be forced. The patterns say
what a person would restrict instead:

* an action: ``keep``, ``give`` (to any seat), ``open`` (the open festival), ``secret`` (the
  secret festival), or ``festival`` (either festival): it applies to the action decisions;
* a card (``pink-3``, the position notation of ``position.Deck.parse``, values of the official
  rules: 2, 3, 4) or a colour (``pink``): it applies to the set-up decision, the card the seat
  puts face up in its bouquet (the other goes face down to the secret festival).

The pattern is a 0/1 mask: ``pattern[action]`` (keep 0, give 1, open 2, secret 3), then per
colour and value ``pattern[4 + colour * (MAX_PATTERN_VALUE + 1) + value]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.errors import InputError
from montecards.games.tulips import rules, view
from montecards.games.tulips.cards import COLOURS, N_COLOURS
from montecards.games.tulips.game import SPEC

OFFICIAL_VALUES = tuple(SPEC.param("values").default)
MAX_PATTERN_VALUE = max(OFFICIAL_VALUES)
ACTIONS = {name: (code,) for code, name in enumerate(rules.ACTION_NAMES)}
ACTIONS["festival"] = (rules.OPEN, rules.SECRET_ACTION)
CARDS_AT = len(rules.ACTION_NAMES)
PATTERN_SIZE = CARDS_AT + N_COLOURS * (MAX_PATTERN_VALUE + 1)
FORMS = (f"an action ({', '.join(ACTIONS)}), a card (pink-3) or a colour ({', '.join(COLOURS)})")


def _card(colour: int, value: int) -> int:
    return CARDS_AT + colour * (MAX_PATTERN_VALUE + 1) + value


def parse(text: str) -> np.ndarray:
    """The actions or cards ``text`` names, as a 0/1 mask (InputError if none)."""
    t = str(text).strip().lower()
    mask = np.zeros(PATTERN_SIZE, dtype=np.int64)
    if t in ACTIONS:
        mask[list(ACTIONS[t])] = 1
        return mask
    if t in COLOURS:
        for value in OFFICIAL_VALUES:
            mask[_card(COLOURS.index(t), value)] = 1
        return mask
    colour, _, value = t.partition("-")
    if colour not in COLOURS or not value.isdigit() or int(value) not in OFFICIAL_VALUES:
        raise InputError(f"tulips: unknown pattern {text!r}: give {FORMS}; cards have the values "
                         f"{', '.join(map(str, OFFICIAL_VALUES))}")
    mask[_card(COLOURS.index(colour), int(value))] = 1
    return mask


@njit(cache=True)
def plays(obs, move, pattern):
    """True when ``move`` is an action the pattern names (action decisions), or puts a card the
    pattern names in the bouquet (the set-up decision)."""
    if view.obs_kind(obs) == view.DECISION_ACTION:
        return pattern[view.move_action(move)] != 0
    card = view.move_card(move)
    for k in range(2):
        if view.obs_hand_card(obs, k) == card:
            value = view.obs_hand_value(obs, k)
            if value > MAX_PATTERN_VALUE:
                return False
            return pattern[CARDS_AT + view.obs_hand_colour(obs, k) * (MAX_PATTERN_VALUE + 1) + value] != 0
    return False

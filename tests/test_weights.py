"""The engine's weights table for built-ins that read run-time weights (engine/weights.py)."""

from __future__ import annotations

import numpy as np
import pytest

from montecards.engine.spec import InputError
from montecards.engine.weights import (
    MAX_WEIGHTS,
    TABLE_SIZE,
    WeightedSeat,
    Weights,
    append_table,
    parse_label,
    seat_weights,
    weight_index,
)

W = Weights(features=("a", "b"), default=(1.0, -0.5), bounds=((-2, 2), (-2, 2)))


def test_table_is_appended_only_when_a_seat_has_weights():
    params = np.array([3.0, 4.0])
    assert append_table(params, [None, None]) is params
    full = append_table(params, [None, (2.0, 7.0)])
    assert full.shape == (2 + TABLE_SIZE,)
    assert list(full[:2]) == [3.0, 4.0]
    assert full[weight_index(full, 1, 0)] == 2.0
    assert full[weight_index(full, 1, 1)] == 7.0
    assert full[weight_index(full, 0, 0)] == 0.0
    assert weight_index.py_func(full, 1, 1) == 2 + MAX_WEIGHTS + 1


def test_seat_weights_defaults_and_explicit():
    entries = ["w", WeightedSeat("w", (0.0, 3.0)), "greedy"]
    assert seat_weights(entries, {"w": W}) == [(1.0, -0.5), (0.0, 3.0), None]


def test_labels_round_trip():
    seat = WeightedSeat("weighted", (1.0, 0.5, -2.0))
    assert seat.label == "weighted[1,0.5,-2]"
    assert parse_label(seat.label) == ("weighted", ["1", "0.5", "-2"])
    assert parse_label("greedy") is None
    assert parse_label("x.py:choose") is None


@pytest.mark.parametrize("bad, words", [
    ((1.0,), "takes 2 weights"),
    ((1.0, float("nan")), "finite"),
    (("x", 1), "numbers"),
])
def test_bad_weights_are_named(bad, words):
    with pytest.raises(InputError, match=words):
        W.check("w", bad)


def test_a_builtin_without_weights_refuses_them():
    import montecards as mc

    with pytest.raises(InputError, match="takes no weights"):
        mc.simulate("parade", n=10, seed=1, strategies=["greedy[1,2]"])

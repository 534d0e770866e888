"""Anomia's decision interface is empty: no seat decides, face-offs follow the skill model."""

import pytest

from montecards.engine.spec import InputError
from montecards.games import anomia
from montecards.games.anomia import view


def test_view_declares_no_decision():
    assert view.DECISION_NAMES == ()
    assert view.OBS_SIZE == 0
    assert view.MAX_LEGAL == 0
    assert not hasattr(view, "observe")
    assert not hasattr(view, "legal_moves")


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_decision_log_of_any_game_is_empty(players):
    for index in range(3):
        assert anomia.decisions(5, index, players, {"tie_prob": 0.3}) == []


def test_decisions_checks_its_arguments_like_trace():
    with pytest.raises(InputError):
        anomia.decisions(1, 0, 7)
    with pytest.raises(InputError):
        anomia.decisions(1, 0, 4, {"theta": [1.0, 0.0]})
    with pytest.raises(InputError):
        anomia.decisions(1, 0, 4, strategy_names=["greedy"])

"""The conformance suite: every registered game passes ``montecards.testing`` unchanged.

Each check of ``montecards.testing.CHECKS`` runs for each registered game (pgx-style: the check
ships inside the library, and a new game's test is one call of ``check_game``).
"""

from __future__ import annotations

import pytest

import montecards as mc
from montecards import games, testing
from montecards.engine.spec import WIN_UNIT, InputError

GAMES = games.names()
CHECKS = list(testing.CHECKS)


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__.removeprefix("check_"))
@pytest.mark.parametrize("name", GAMES)
def test_conformance(name, check):
    check(name)


def test_a_broken_game_fails_the_check(monkeypatch):
    """The checks can fail: a spec whose default strategy is not among its strategies."""
    spec = games.get("parade")
    broken = type(spec)(**{**spec.__dict__, "default_strategy": "nobody"})
    monkeypatch.setattr(games, "get", lambda name: broken)
    with pytest.raises(AssertionError, match="default strategy"):
        testing.check_spec_is_complete("parade")


def test_unknown_game_is_refused():
    with pytest.raises(InputError, match="allowed"):
        mc.simulate("chess", n=10)


def test_win_unit_divides_every_tie():
    assert all(WIN_UNIT % k == 0 for k in range(1, 7))

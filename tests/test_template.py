"""The template game (High card, ``montecards/games/template/``) passes the conformance check
unchanged, plays user strategies as every game does, and is what a new game copies.

The template is not a registered game (users never see it): each test registers it for
itself, exactly as a new game's line in ``montecards/games/__init__.py`` would.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import montecards as mc
from montecards import games, testing
from montecards.engine.spec import InputError
from montecards.games.template import decisions, play_scripted, view
from tests.naive import template as naive

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "montecards" / "games" / "template"
TWIN = f"{ROOT / 'examples' / 'strategies' / 'template_greedy.py'}:choose"

# rule parameter sets the oracle replay is traced with; each fits every player count (2-6)
ORACLE_PARAMS = [{}, {"deck_size": 60, "hand_size": 10}, {"deck_size": 13, "hand_size": 2}]

# docs/rules/template.md, Worked example
EXAMPLE = dict(deck=[4, 7, 1, 9, 0, 2, 3, 5, 6, 8], players=3, plays=[4, 1, 0, 7, 9, 2],
               params={"deck_size": 10, "hand_size": 2})


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """The template as a registered game, for this test only."""
    monkeypatch.setitem(games.GAME_MODULES, "template", "montecards.games.template")


def test_the_template_is_no_game_of_users(monkeypatch):
    monkeypatch.undo()  # the registration of the fixture
    assert "template" not in games.names()
    with pytest.raises(InputError, match="unknown game 'template'"):
        mc.simulate("template", n=10, progress=False)


def test_the_worked_example_of_the_rules_page():
    for play in (play_scripted, naive.play_script):
        out = play(**EXAMPLE)
        assert out["scores"] == [1, 1, 0]
        assert out["win_share"] == [0.5, 0.5, 0.0]
        assert out["trick_takers"] == [0, 1]
        assert out["led"] == [2, 0, 0] and out["leader_tricks"] == 1 and out["turns"] == 6


def test_check_game_passes():
    """Every check of ``montecards.testing.CHECKS``, then the kernel against the naive
    reference, game for game, with three parameter sets."""
    testing.check_game("template", oracle=naive.play_script, oracle_params=ORACLE_PARAMS)


def test_the_oracle_replay_compares_every_outcome():
    compared = testing.check_kernel_agrees_with_oracle("template", naive.play_script,
                                                       games_to_check=12, params=ORACLE_PARAMS)
    assert compared == ["leader_tricks", "led", "scores", "trick_takers", "turns", "win_share"]


def test_a_rule_between_two_parameters_is_refused():
    with pytest.raises(InputError, match="need 36 cards, more than deck_size=30"):
        mc.simulate("template", n=10, players=6, params={"hand_size": 6}, progress=False)
    with pytest.raises(InputError, match="need 36 cards"):
        play_scripted(deck=list(range(30)), players=6, plays=[], params={"hand_size": 6})
    spec = games.get("template")
    with pytest.raises(InputError, match="need 36 cards"):
        spec.resolve_params(6, {"hand_size": "6"})  # the spec's check_params, in resolve_params
    assert spec.resolve_params(5, {"hand_size": "6"})["hand_size"] == 6
    # the conformance check plays a parameter set only at the player counts it fits
    assert testing._player_counts(spec, {"hand_size": 6}) == [2, 3, 4, 5]
    assert testing._player_counts(spec, {"deck_size": 12, "hand_size": 3}) == [2, 3, 4]


def test_illegal_scripts_are_refused():
    with pytest.raises(ValueError, match="turn 1: card not in that seat's hand"):
        play_scripted(**EXAMPLE | {"plays": [4, 7, 0, 1, 9, 2]})
    with pytest.raises(ValueError, match="too few plays"):
        play_scripted(**EXAMPLE | {"plays": [4, 1, 0]})
    with pytest.raises(ValueError, match="too many plays"):
        play_scripted(**EXAMPLE | {"plays": [4, 1, 0, 7, 9, 2, 3]})
    with pytest.raises(ValueError, match="exactly once"):
        play_scripted(**EXAMPLE | {"deck": [4, 7, 1, 9, 0, 2, 3, 5, 6, 6]})


# --------------------------------------------------------------------------- user strategies


def test_the_greedy_twin_plays_greedys_games():
    """``examples/strategies/template_greedy.py``, written over ``obs`` and ``legal`` only,
    plays the very games of the built-in ``greedy`` (the kernels' user path)."""
    mine = mc.simulate("template", n=3000, players=3, strategies=[TWIN, "random", TWIN], seed=5,
                       keep_games=True, jobs=2, progress=False)
    theirs = mc.simulate("template", n=3000, players=3, strategies=["greedy", "random", "greedy"],
                         seed=5, keep_games=True, jobs=2, progress=False)
    assert mine.games.equals(theirs.games)
    assert mine.to_dict()["strategies"][0].endswith("template_greedy.py:choose")


def test_the_greedy_twin_makes_greedys_logged_choices():
    """Every logged decision of greedy seats, replayed through the twin in plain Python."""
    from montecards.engine.user_strategies import load_module

    twin = load_module(TWIN.rsplit(":", 1)[0]).choose
    seen = 0
    for index in range(20):
        for d in decisions(9, index, 4, {}, ["greedy", "random", "greedy", "random"]):
            assert view.obs_kind(d.obs) == view.DECISION_PLAY and view.obs_seat(d.obs) == d.seat
            assert d.move in d.legal.tolist()
            if d.seat % 2 == 0:
                assert twin(d.obs, d.legal, None, None, None) == d.choice, (index, d.number)
                seen += 1
    assert seen == 20 * 2 * 5


# --------------------------------------------------------------------------- a copy of it


def copy_template(where: Path, name: str) -> Path:
    """The template copied as package ``name`` in ``where`` and renamed as
    ``engine/CONTRACT.md`` says: its imports and its spec's name."""
    package = where / name
    shutil.copytree(TEMPLATE, package, ignore=shutil.ignore_patterns("__pycache__"))
    for file in package.glob("*.py"):
        text = file.read_text().replace("montecards.games.template", name)
        file.write_text(text.replace('name="template"', f'name="{name}"'))
    return package


def test_check_game_fails_on_a_copy_with_a_broken_rule(tmp_path, monkeypatch):
    """A copy whose trick goes to the seat after the highest card's: the conformance check (run
    here without ``CHECKS``, which do not know the rules) fails on the oracle replay, whose
    naive reference refuses the kernel's script (the wrong seat leads the next trick)."""
    package = copy_template(tmp_path, "mygame")
    rules = package / "rules.py"
    right = "taker = (g[LEADER] + i) % g[PLAYERS]"
    assert right in rules.read_text()
    rules.write_text(rules.read_text().replace(right, "taker = (g[LEADER] + i + 1) % g[PLAYERS]"))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(games.GAME_MODULES, "mygame", "mygame")
    monkeypatch.setattr(testing, "CHECKS", ())
    with pytest.raises(AssertionError, match=r"mygame game 0 \(seed 123, .*the oracle refused the script"):
        testing.check_game("mygame", oracle=naive.play_script)


# --------------------------------------------------------------------------- the observation


def test_the_observation_is_what_the_seat_sees():
    """At every decision, the observation and the legal moves hold exactly what the rules page
    lets the seat see (rules: What a seat sees), rebuilt here from the game's trace."""
    import montecards.api as api

    for index, players in ((0, 2), (1, 4), (2, 6)):
        names = ["random", "greedy"] * 3
        events = api.trace("template", seed=3, index=index, players=players, strategies=names[:players])
        logged = decisions(3, index, players, {}, names[:players])
        dealt = events[events["event"] == "deal"]
        hands = [set(dealt.loc[dealt["seat"] == s, "card"]) for s in range(players)]
        played, trick, points, leader, tricks = [], [], [0] * players, 0, 0
        moves = events[events["event"] != "deal"].itertuples()
        for d in logged:
            move = next(moves)
            while move.event == "take":  # the trick before this decision was taken
                points[move.seat] += 1
                leader, tricks, trick = move.seat, tricks + 1, []
                move = next(moves)
            obs, seat = d.obs, d.seat
            assert move.event == "play" and move.seat == seat and move.card == d.move
            hand = [view.obs_hand_card(obs, k) for k in range(view.obs_hand_size(obs))]
            assert set(hand) == hands[seat] and d.legal.tolist() == hand
            assert [view.obs_trick_card(obs, i) for i in range(view.obs_trick_size(obs))] == trick
            assert [view.obs_points(obs, s) for s in range(players)] == points
            assert [c for c in range(30) if view.obs_played(obs, c)] == sorted(played)
            assert view.obs_seat(obs) == seat and view.obs_players(obs) == players
            assert view.obs_leader(obs) == leader and view.obs_trick_number(obs) == tricks
            assert view.obs_tricks(obs) == 5 and view.obs_deck_size(obs) == 30
            assert view.obs_unseen_count(obs) == 30 - len(hand) - len(played)
            assert view.obs_highest_on_trick(obs) == max(trick, default=-1)
            hands[seat].discard(move.card)
            played.append(move.card)
            trick.append(move.card)
        assert len(logged) == players * 5

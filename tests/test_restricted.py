"""Restricted play, ``restrict(INNER, never=PATTERN)`` / ``first=PATTERN`` (engine/restricted.py,
games/<game>/restrict.py, docs/metrics.md "Restricted play").

Checked on logged decisions: the restricted seat never plays a forbidden card when it has
another choice, plays it when forced, chooses among the rest what INNER chooses among them,
and ``first=`` plays a named card whenever one is legal; games where the restriction never
bites are the unrestricted games, move for move; the deals are the unrestricted run's (common
random numbers); bad labels get one line and exit status 2.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import montecards as mc
from montecards.engine import restricted
from montecards.errors import InputError, StrategyError
from montecards.games import get, parade, tulips, wigout
from montecards.games.parade import view as parade_view
from montecards.games.tulips import view as tulips_view
from montecards.games.wigout import view as wigout_view
from montecards.rng import new_state
from montecards.strategies import parade_greedy, tulips_greedy, wigout_greedy
from tests.inprocess import run_main

SEED = 11
GAMES = 60
ALL_BUT_ORANGE = "restrict(greedy, never=red, never=blue, never=purple, never=green, never=grey)"


def _decisions(game, names, players=2, n=GAMES):
    return [game.decisions(SEED, i, players, None, names) for i in range(n)]


def _inner_choice(choose, d, moves):
    return int(choose(d.obs, np.asarray(moves, dtype=np.int64), np.zeros(0), np.zeros(128), new_state()))


def test_parade_never_plays_a_forbidden_card_unless_forced():
    """Seat 0 never plays a red, blue, purple, green or grey card while it holds an orange one,
    plays one when its whole hand is of those colours (forced), and among its orange cards
    plays what greedy's twin plays among them."""
    forbidden = set(range(0, 55))  # colours 0..4, values 0..10
    free = forced = 0
    for game in _decisions(parade, [ALL_BUT_ORANGE, "greedy"]):
        for d in game:
            if d.seat != 0 or parade_view.obs_kind(d.obs) != parade_view.DECISION_PLAY:
                continue
            allowed = [m for m in d.legal if parade_view.move_card(m) not in forbidden]
            if not allowed:
                forced += 1
                assert d.choice == _inner_choice(parade_greedy.choose, d, d.legal)
                continue
            free += 1
            assert parade_view.move_card(d.move) not in forbidden
            if len(allowed) < len(d.legal):
                assert d.move == allowed[_inner_choice(parade_greedy.choose, d, allowed)]
    assert free > 100 and forced > 100


def test_parade_first_plays_a_named_card_whenever_legal():
    """``first=0``: a 0 whenever the hand holds one (the first in hand order), greedy otherwise."""
    firsts = 0
    for game in _decisions(parade, ["restrict(greedy, first=0)", "greedy"]):
        for d in game:
            if d.seat != 0 or parade_view.obs_kind(d.obs) != parade_view.DECISION_PLAY:
                continue
            zeros = [i for i, m in enumerate(d.legal) if parade_view.value_of(parade_view.move_card(m)) == 0]
            if zeros:
                firsts += 1
                assert d.choice == zeros[0]
            else:
                assert d.choice == _inner_choice(parade_greedy.choose, d, d.legal)
    assert firsts > 20


def test_parade_discard_is_not_restricted():
    """The final discard is not a play: ``never=`` leaves it to greedy, whatever it keeps."""
    seen = 0
    for game in _decisions(parade, [ALL_BUT_ORANGE, "greedy"], n=20):
        for d in game:
            if d.seat == 0 and parade_view.obs_kind(d.obs) == parade_view.DECISION_DISCARD:
                seen += 1
                assert d.choice == _inner_choice(parade_greedy.choose, d, d.legal)
    assert seen == 20


def test_games_where_the_restriction_never_bites_are_the_unrestricted_games():
    """``never=red-0``: in each game where unrestricted greedy never chose red-0 with another
    card in hand, the restricted game is the same game, decision for decision; where it did,
    the restricted game differs at that decision. Both kinds occur."""
    same = differ = 0
    for index in range(120):
        plain = parade.decisions(SEED, index, 2, None, ["greedy", "greedy"])
        rest = parade.decisions(SEED, index, 2, None, ["restrict(greedy, never=red-0)", "greedy"])
        bite = next((k for k, d in enumerate(plain) if d.seat == 0 and len(d.legal) > 1
                     and parade_view.obs_kind(d.obs) == parade_view.DECISION_PLAY and d.move == 0), None)
        if bite is None:
            same += 1
            assert [(d.seat, d.obs.tolist(), d.legal.tolist(), d.choice) for d in rest] == \
                   [(d.seat, d.obs.tolist(), d.legal.tolist(), d.choice) for d in plain]
        else:
            differ += 1
            assert rest[bite].obs.tolist() == plain[bite].obs.tolist()
            assert rest[bite].move != 0
    assert same > 10 and differ > 3


def test_common_random_numbers_same_deals():
    """The restricted run deals what the unrestricted one deals: every game's first decision
    (seat 0's opening hand and parade) is identical."""
    for index in range(40):
        a = parade.decisions(SEED, index, 3, None, ["restrict(greedy, never=5)", "greedy", "greedy"])[0]
        b = parade.decisions(SEED, index, 3, None, ["greedy", "greedy", "greedy"])[0]
        assert a.obs.tolist() == b.obs.tolist()


def test_tulips_never_an_action_and_never_a_card_at_set_up():
    """``never=secret``: no secret-festival action while another is legal; ``never=pink`` at
    set-up: the other card goes to the bouquet unless both are pink."""
    actions = setups = 0
    for game in _decisions(tulips, ["restrict(greedy, never=secret, never=pink)", "greedy"], players=2, n=30):
        for d in game:
            if d.seat != 0:
                continue
            if tulips_view.obs_kind(d.obs) == tulips_view.DECISION_ACTION:
                actions += 1
                assert tulips_view.move_action(d.move) != tulips_view.SECRET
                continue
            pink = [k for k in range(2) if tulips_view.obs_hand_colour(d.obs, k) == 2]
            if len(pink) == 1:
                setups += 1
                assert tulips_view.move_card(d.move) == tulips_view.obs_hand_card(d.obs, 1 - pink[0])
    assert actions > 200 and setups > 3


def test_wigout_never_a_kind():
    """``never=start``: seat 0 adds to a pile whenever it can, and among its adds plays what
    greedy's twin plays among them."""
    checked = 0
    for game in _decisions(wigout, ["restrict(greedy, never=start)", "greedy"], n=10):
        for d in game:
            if d.seat != 0:
                continue
            adds = [m for m in d.legal if wigout_view.is_add(m)]
            if adds:
                checked += 1
                assert wigout_view.is_add(d.move)
                assert d.move == adds[_inner_choice(wigout_greedy.choose, d, adds)]
    assert checked > 100


def test_tuned_restricts_the_weighted_twin_with_the_tuned_weights():
    r = restricted.build("restrict(tuned, never=red)", get("parade"))
    assert r.params == tuple(get("parade").seat_params["tuned"].default)
    assert r.inner.reference == "montecards.strategies.parade_weighted:choose"


def test_label_outputs_pickle_and_python_api():
    """The label is the user's text in outputs; a pickled restricted strategy is rebuilt from it."""
    res = mc.simulate("parade", players=2, n=200, seed=1,
                      strategies=["restrict(greedy, never=red-0)", "greedy"])
    assert list(res.strategies) == ["restrict(greedy, never=red-0)", "greedy"]
    r = restricted.build("restrict(greedy,  first=blue , never=0)", get("parade"))
    assert r.label == "restrict(greedy, first=blue, never=0)"
    back = pickle.loads(pickle.dumps(r))
    assert back.label == r.label and back.first.tolist() == r.first.tolist()
    assert back.never.tolist() == r.never.tolist()


@pytest.mark.parametrize(("game", "label", "says"), [
    ("parade", "restrict(greedy, never=red-11)", "unknown pattern 'red-11'"),
    ("parade", "restrict(greedy, never=11)", "no cards of value 11"),
    ("parade", "restrict(greedy, nevr=red)", "unknown term"),
    ("parade", "restrict(greedy, never=)", "empty pattern"),
    ("parade", "restrict(greedy)", "at least one term"),
    ("parade", "restrict(restrict(greedy, never=red), never=0)", "inside restrict"),
    ("parade", "restrict(greedy, never=red", "write it restrict"),
    ("parade", "restrict(ismcts, never=red)", "no twin"),
    ("parade", "restrict(random, never=red)", "no twin"),
    ("tulips", "restrict(greedy, never=pink-9)", "unknown pattern"),
    ("marbles", "restrict(greedy, never=7X)", "unknown pattern"),
    ("wigout", "restrict(greedy, never=60)", "unknown pattern"),
    ("anomia", "restrict(greedy, never=red)", "no player decisions"),
])
def test_bad_labels_one_line_exit_2(game, label, says):
    players = "3" if game == "anomia" else "2"
    out = run_main("simulate", game, "-p", players, "-n", "10", "-s", label, "-s", "greedy")
    assert out.returncode == 2
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and says in lines[0], out.stderr


def test_patterns_parse():
    from montecards.games.marbles import restrict as marbles_restrict
    from montecards.games.parade import restrict as parade_restrict

    assert parade_restrict.parse("red").nonzero()[0].tolist() == list(range(11))
    assert parade_restrict.parse("0").nonzero()[0].tolist() == list(range(0, 66, 11))
    assert parade_restrict.parse("Blue-3").nonzero()[0].tolist() == [14]
    assert marbles_restrict.parse("7").sum() == 4
    assert marbles_restrict.parse("joker").nonzero()[0].tolist() == [52, 53]
    with pytest.raises(InputError):
        restricted.parse_label("restrict(greedy, first=red, sometimes=blue)")
    assert issubclass(StrategyError, InputError)
    # the twins are importable from the installed package
    assert tulips_greedy.choose is not None


def test_restricted_play_table_pairs_the_games():
    """The table's change is the restricted first seat's win share minus the baseline's, on the
    very games ``simulate`` plays with the same seed."""
    from montecards.analysis.restricted import restricted_play

    table = restricted_play("parade", ["10"], players=2, n=400, seed=5)
    assert list(table.index) == ["-", "10"]
    base, rest = table.loc["-"], table.loc["10"]
    assert rest.change == pytest.approx(rest.win_share - base.win_share)
    assert rest.change_low < rest.change < rest.change_high < 0
    res = mc.simulate("parade", players=2, n=400, seed=5, strategies=["restrict(greedy, never=10)", "greedy"])
    assert res.to_dict()["win_share"][0] == pytest.approx(rest.win_share)
    with pytest.raises(InputError):
        restricted_play("parade", [], n=10)


def test_a_user_strategy_as_inner():
    """INNER given as a file reference: it is loaded and restricted, and never starts a pile
    while it can add (checked on its logged decisions)."""
    from pathlib import Path

    ref = str(Path(__file__).resolve().parents[1] / "examples" / "strategies" / "wigout_singles_first.py")
    label = f"restrict({ref}:choose, never=start)"
    checked = 0
    for game in _decisions(wigout, [label, "greedy"], n=5):
        for d in game:
            if d.seat == 0 and any(wigout_view.is_add(m) for m in d.legal):
                checked += 1
                assert wigout_view.is_add(d.move)
    assert checked > 20
    res = mc.simulate("wigout", players=2, n=50, seed=3, strategies=[label, "greedy"])
    assert list(res.strategies)[0] == label


def test_the_correlation_columns_count_the_logged_plays():
    """``played_correlation`` against the decisions read one by one: a seat played a ten when one
    of its logged play decisions chose a card of value 10; the win shares of those seats and of
    the others."""
    from montecards.analysis.restricted import played_correlation
    from montecards.engine.spec import WIN_UNIT

    found = played_correlation("parade", ["10", "red-0"], "greedy", 2, 30, 4)
    for pattern, hit in (("10", lambda card: card % 11 == 10), ("red-0", lambda card: card == 0)):
        played, wins = [], []
        for index in range(30):
            decisions = parade.decisions(seed=4, index=index, players=2, params=None,
                                         strategy_names=["greedy", "greedy"])
            _, row = get("parade").decision_log(4, index, 2, None, ["greedy", "greedy"])
            layout = get("parade").layout(2)
            for seat in range(2):
                played.append(any(d.seat == seat and parade_view.obs_kind(d.obs) == parade_view.DECISION_PLAY
                                  and hit(d.move) for d in decisions))
                wins.append(row[layout.seat_slice("win")][seat] / WIN_UNIT)
        played, wins = np.array(played), np.array(wins)
        assert found[pattern]["played"] == pytest.approx(played.mean())
        assert found[pattern]["win_if_played"] == pytest.approx(wins[played].mean())
        assert found[pattern]["win_if_not"] == pytest.approx(wins[~played].mean())
        assert 0 < played.mean() < 1


def test_cli_restrict_prints_the_table_json_and_figure(tmp_path):
    import json

    res = run_main("restrict", "parade", "10", "-p", "2", "-n", "300", "--sample", "40", "--seed", "5",
                   "--json", "--plot", str(tmp_path / "w.png"))
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["games"] == 300 and data["sample"] == 40 and data["key"] == "never"
    base, ten = data["patterns"]
    assert base["pattern"] == "-" and base["correlation"] is None
    assert ten["pattern"] == "10" and ten["change_low"] < ten["change"] < ten["change_high"]
    assert ten["correlation_low"] <= ten["correlation"] <= ten["correlation_high"]
    assert (tmp_path / "w.png").stat().st_size > 10_000
    for bad, word in ((("parade", "pink"), "pink"), (("anomia", "5"), "anomia")):
        res = run_main("restrict", *bad, "-n", "10")
        assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1, res.stderr
        assert word in res.stderr.lower() and "Traceback" not in res.stderr


def test_a_comma_list_of_seats_keeps_a_restrict_label_whole():
    """``-s A,B`` lists (luck, balance, --versus) split at top-level commas only."""
    from montecards.cli_common import split_names

    assert split_names("restrict(greedy, never=10),greedy") == ["restrict(greedy, never=10)", "greedy"]
    assert split_names("restrict(weighted[1,2], never=red, first=0),random") == [
        "restrict(weighted[1,2], never=red, first=0)", "random"]
    res = run_main("luck", "parade", "-p", "2", "-s", "restrict(greedy, never=10),greedy", "-n", "20",
                   "--replays", "2", "--seed", "1", "--json")
    assert res.returncode == 0, res.stderr

"""Wig Out! positions, mc.state, analyse and review (issue #32): round trips, exact endings worked
out by hand, no peeking, bad input.

The play-outs use ``greedy`` (the default): one small kernel, compiled once for the module."""

import json
import subprocess
import sys

import pytest

import montecards as mc
from montecards.games.wigout import position as P
from montecards.games.wigout.game import play_scripted


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "montecards", *args], capture_output=True, text=True)


MID = "wigout players=4 seat=0 round=0 points=0,0,0,0 hand=5,5,7,7,9,9,11 table=5,5,5,6 sizes=7,7,6,7 pile=29"


# --- playing traced games through mc.state reaches the kernel's results ----------------------


@pytest.mark.parametrize("players,strategy,seed", [(2, "greedy", 3), (4, "random", 5), (6, "singles_first", 11)])
def test_traced_games_replayed_move_by_move_through_the_state_reach_the_kernels_results(players, strategy, seed):
    events = mc.trace("wigout", seed=seed, index=2, players=players, strategies=strategy)
    record = events.record()
    actions = [P._action(a, i) for i, a in enumerate(record["actions"])]
    positions = events.positions()
    state = P.State.from_deal(record["decks"], players, actors=[s for s, _ in actions])
    plays = [(s, m) for s, m in actions if m != "draw"]
    assert len(positions) == len(plays) > 0
    for k, (seat, move) in enumerate(plays):
        assert state.current_player == seat
        seen = state.observe()
        assert seen == positions[k]
        assert P.parse(seen.to_string()) == seen and P.parse(seen.to_json()) == seen  # both written forms
        assert move in state.legal_moves()
        state.apply(move)
    assert state.is_terminal and state.history == actions
    outcome = events.attrs["outcome"]
    assert state.result == pytest.approx([outcome[f"win_{s}"] for s in range(players)])
    assert state.scores == [outcome[f"score_{s}"] for s in range(players)]
    assert state.action == outcome["turns"]


def test_clone_is_independent_and_the_state_refuses_illegal_moves():
    state = mc.state("wigout", MID, seed=4)
    assert state.legal_moves() == ["start-5", "add-5", "start-7", "start-9"]
    copy = state.clone()
    state.apply("start-9")
    assert copy.observe().hand == [5, 5, 7, 7, 9, 9, 11] and copy.current_player == 0
    assert 9 not in state.hand(0)
    with pytest.raises(mc.InputError, match="not legal"):
        copy.apply("add-11")  # no 11 on the table
    with pytest.raises(mc.InputError, match="start-C"):
        copy.apply("play-11")


def test_a_state_from_a_position_plays_to_the_end_by_the_rules():
    """From a position, the state deals the unseen cards once (the seat's view kept) and plays
    on: every seat's points grow only at round ends, the game ends after the position's rules'
    rounds, and the win shares sum to 1."""
    pos = P.parse(MID)
    for seed in range(3):
        state = mc.state("wigout", MID, seed=seed)
        assert state.observe() == pos
        assert sorted(state.hand(1) + state.hand(2) + state.hand(3) + state.table() + state.hand(0)
                      + [int(c) for c in state.g[P.rules.DECK + state.g[P.rules.DRAWN]: P.rules.DECK + 60]]) == \
            sorted(c for c in range(12) for _ in range(5))
        while not state.is_terminal:
            state.apply(state.legal_moves()[0])
        assert sum(state.result) == pytest.approx(1.0)
        assert int(state.g[P.rules.ROUND]) == 5
        assert any(h[1] == "draw" for h in state.history)


def test_a_position_never_holds_another_seats_cards():
    """Two states that differ only in the hidden cards give the seat the same position, and the
    position's keys hold only its own hand, the table and counts."""
    a = mc.state("wigout", MID, seed=1)
    b = mc.state("wigout", MID, seed=2)
    assert [a.hand(s) for s in (1, 2, 3)] != [b.hand(s) for s in (1, 2, 3)]
    assert a.observe() == b.observe() == P.parse(MID)
    data = a.observe().to_dict()
    assert set(data) == {"game", "players", "seat", "decision", "round", "points", "hand", "table",
                         "hand_sizes", "draw_pile"}


def test_the_written_forms_round_trip_with_changed_rules():
    text = ("wigout players=2 seat=1 characters=3 copies=3 hand_size=2 speed=1,3 round=4 points=3,3 "
            "hand=0,0 table=0,1,1,1 sizes=2,2 pile=1")
    pos = P.parse(text)
    assert pos.to_string() == text.replace("seat=1", "seat=1")
    assert P.parse(pos.to_json()) == pos
    assert pos.to_dict()["rules"] == {"characters": 3, "copies": 3, "hand_size": 2, "speed": [1.0, 3.0]}
    assert P.parse("wigout players=2 seat=1 characters=3 copies=3 hand_size=2 speed=1,3 round=4 "
                   "points=3,3 hand=0x2 table=0,1x3 sizes=2,2 pile=1") == pos  # the 'x' shorthand
    assert pos.unseen() == [2, 2, 2]


@pytest.mark.parametrize("change,message", [
    ({"hand": "5,5,7,7,9,9,12"}, "unknown card '12'"),
    ({"hand": "5,5,7,7,9,9,bob"}, "unknown card .bob."),
    ({"hand": "5,5,7,7,9,11x"}, "the count in .11x."),
    ({"hand": "5,5,5,7,9,9,11"}, "card 5 shown 6 times"),
    ({"pile": "28"}, "hold 59 cards, not the deck's 60"),
    ({"pile": "40"}, "draw pile holds 0..30"),
    ({"sizes": "6,7,7,7"}, "hand_sizes gives seat 0 6 cards"),
    ({"sizes": "7,0,6,8"}, "seat 1 holds 0 cards"),
    ({"sizes": "7,7,6"}, "one number per seat"),
    ({"table": "5", "sizes": "7,7,6,9"}, "at least the 2 starter cards"),
    ({"hand": "1,2,3,4,7,9,11"}, "has no play"),
    ({"points": "0,1,0,0"}, "no round is finished"),
    ({"round": "5"}, "round .* must be 0..4"),
    ({"seat": "4"}, "seat must be 0..3"),
    ({"players": "7"}, "2 to 6 players"),
    ({"decision": "draw"}, "decision must be play"),
    ({"hand_size": "0"}, "hand_size"),
    ({"speed": "1,1"}, "speed"),
])
def test_impossible_positions_are_refused_with_one_line(change, message):
    fields = dict(f.split("=", 1) for f in MID.split()[1:])
    fields.update(change)
    text = "wigout " + " ".join(f"{k}={v}" for k, v in fields.items())
    with pytest.raises(mc.InputError, match=message) as info:
        P.parse(text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("text,message", [
    ('{"game": "wigout", "players": 4}', "missing 'seat'"),
    ('{"game": "wigout", "players": 4, "seat": 0, "colour": 1}', "unknown key 'colour'"),
    ('{"game": "parade"}', "game must be 'wigout'"),
    ('{"game": "wigout",', "not valid JSON"),
    ("parade players=2", "starts with 'wigout'"),
    ("wigout players=4 seat", "expected key=value"),
])
def test_malformed_positions_are_refused_with_one_line(text, message):
    with pytest.raises(mc.InputError, match=message):
        P.parse(text)


def test_records_that_break_the_rules_are_refused_with_one_line():
    events = mc.trace("wigout", seed=3, index=0, players=4)
    record = events.record()
    first_draw = next(i for i, a in enumerate(record["actions"]) if a.endswith("draw"))
    first_play = 0
    cases = [
        (dict(record, actions=record["actions"] + ["0:draw"]), "after the end of the game"),
        (dict(record, actions=record["actions"][:-1]), "not over|ran out"),
        (dict(record, actions=[a if i != first_play else a.split(":")[0] + ":draw"
                               for i, a in enumerate(record["actions"])]), "never draws"),
        (dict(record, actions=[a if i != first_draw else a.split(":")[0] + ":add-0"
                               for i, a in enumerate(record["actions"])]), "forced draw"),
        (dict(record, actions=["0:jump-3"]), "start-C"),
        (dict(record, decks=[record["decks"][0][:-1]]), "deck 0 must hold"),
        ({k: v for k, v in record.items() if k != "decks"}, "'decks'"),
    ]
    for bad, message in cases:
        with pytest.raises(mc.InputError, match=message) as info:
            P.decisions_of_record(bad)
        assert "\n" not in str(info.value)


def test_cli_trace_positions_and_bad_input_exit_2():
    out = _cli("trace", "wigout", "--seed", "3", "--index", "0", "--positions")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[1] == ("wigout players=4 seat=0 round=0 points=0,0,0,0 hand=6,6,7,7,9,9,11 "
                        "table=5,5,5,6 sizes=7,7,6,7 pile=29")
    as_json = json.loads(_cli("trace", "wigout", "--seed", "3", "--index", "0", "--positions", "--json").stdout)
    assert [P.Position(d).to_string() for d in as_json] == lines
    bad = _cli("analyse", "wigout", MID.replace("pile=29", "pile=28"))
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "not the deck's 60" in bad.stderr


def test_round_trip_trace_position_analysis_play_scripted():
    """trace -> position -> analysis -> play_scripted: a traced decision's position is analysed
    (its moves are the seat's legal plays), the analysis' best play replaces the traced one, the
    state plays on (chance from its seed, every seat's first legal play), and the kernel's
    play_scripted, given the state's decks, actors and each play as a ``random`` seat's uniform,
    reaches the same points and win shares."""
    events = mc.trace("wigout", seed=7, index=1, players=4)
    record = events.record()
    actions = [P._action(a, i) for i, a in enumerate(record["actions"])]
    steps = P.decisions_of_record(record)
    k = 12
    pos = steps[k][2]
    result = mc.analyse("wigout", pos.to_string(), budget=4_000, seed=1)
    assert sorted(result.moves) == sorted(pos.legal_moves())
    state = P.State.from_deal(record["decks"], 4, actors=[s for s, _ in actions])
    choices = []

    def play(move):
        legal = state.legal_moves()
        choices.append((legal.index(move) + 0.5) / len(legal))
        state.apply(move)

    for _, _, _, move, _ in steps[:k]:
        play(move)
    assert state.observe() == pos
    state.actors = None  # from here the chance events come from the state's seed
    play(result.best)
    while not state.is_terminal:
        play(state.legal_moves()[-1])
    replay = play_scripted(record["decks"][: state.next_deck], 4, [(s, 0.25) for s, _ in state.history],
                           "random", random_choices=choices)
    assert replay["points"] == state.scores
    assert replay["win_share"] == pytest.approx(state.result)
    assert replay["actions"] == state.action

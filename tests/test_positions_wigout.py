"""Wig Out! positions, mc.state, analyse and review (issue #32): round trips, exact endings worked
out by hand, no peeking, bad input.

The play-outs use ``greedy`` (the default): one small kernel, compiled once for the module."""

import json
import subprocess
import sys

import numpy as np
import pytest

import montecards as mc
from montecards.games.wigout import position as P
from montecards.games.wigout.game import play_scripted


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "montecards", *args], capture_output=True, text=True)


MID = "wigout players=4 seat=0 round=0 points=0,0,0,0 hand=5,5,7,7,9,9,11 table=5,5,5,6 sizes=7,7,6,7 pile=29"


# --- playing traced games through mc.state reaches the kernel's results ----------------------


@pytest.mark.parametrize("players,strategy,seed,params", [
    (2, "greedy", 3, None), (4, "random", 5, None), (6, "singles_first", 11, {"speed": "1.25,1,1,1,1,0.8"}),
    (5, "greedy", 0, {"deadlock_counts_as_round": False}),  # a deadlocked deal, dealt again
])
def test_traced_games_replayed_move_by_move_through_the_state_reach_the_kernels_results(players, strategy, seed,
                                                                                        params):
    events = mc.trace("wigout", seed=seed, index=2, players=players, strategies=strategy, params=params)
    record = events.record()
    actions = [P._action(a, i) for i, a in enumerate(record["actions"])]
    positions = events.positions()
    state = P.State.from_deal(record["decks"], players, record["rules"], actors=[s for s, _ in actions])
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
    assert int(state.g[P.rules.DEADLOCKS]) == outcome["deadlocks"] == (events["event"] == "deadlock").sum()
    assert outcome["deadlocks"] >= (1 if params and "deadlock_counts_as_round" in params else 0)


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
    ("wigout players=4 colour=1 seat", "unknown field 'colour'"),  # the first fault in the line
    ("wigout players=4 seat colour=1", "expected key=value, got 'seat'"),
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


# --- exact endings, worked out by hand ---------------------------------------------------------

ENDING = ("wigout players=2 seat=0 characters=3 copies=3 hand_size=2 round=4 points={points} "
          "hand=0,0 table=0,1,1,1 sizes=2,2 pile=1")
"""A 9-card deck (characters 0..2, 3 copies), 2 players, the last of 5 rounds. Seat 0 holds both
0s left (one 0 is on the table, with every 1); the three 2s are unseen, so seat 1 holds two of
them (a pair) and the draw pile the third: nothing is really hidden.

* ``start-0`` empties seat 0's hand: Wig Out! ends the last round at once, seat 0 scores 0 and
  seat 1 scores its 2 cards.
* ``add-0`` leaves seat 0 one 0, still playable (a 0 shows). Both seats have a play, so each has
  its speed as its rate, and the next actor is seat 0 with probability speed_0 / (speed_0 +
  speed_1). Seat 0 then adds its last 0 and wigs out (seat 1 scores 2); seat 1's only play is to
  start its pair of 2s, which wigs it out (seat 0 scores its 1 card)."""


def _shares(result, move):
    return result.shares[:, result.moves.index(move)]


def _within(values, expected):
    """The mean of ``values`` is ``expected`` up to 4 standard errors."""
    return abs(values.mean() - expected) <= 4 * values.std(ddof=1) / np.sqrt(len(values)) + 1e-12


def test_exact_ending_emptying_the_hand_wins_the_game():
    """Points 3 and 3: start-0 gives totals 3 against 5, a win in every play-out (1.0). add-0
    wins when seat 0 acts first (3 against 5), loses when seat 1 does (4 against 3): 1/2 with
    equal speeds."""
    result = mc.analyse("wigout", ENDING.format(points="3,3"), budget=4_000, seed=0)
    assert result.moves == ["start-0", "add-0"]
    assert result.best == "start-0" and result.decided
    assert np.all(_shares(result, "start-0") == 1.0)
    assert set(_shares(result, "add-0").tolist()) == {0.0, 1.0}
    assert _within(_shares(result, "add-0"), 0.5)


def test_exact_ending_a_tie_on_points_shares_the_win_and_speed_counts():
    """Points 5 and 3, seat 1 three times as fast: start-0 gives totals 5 and 5, a tie that
    shares the win (0.5 in every play-out). add-0: seat 0 acts first with probability 1/4 (the
    same tie, 0.5), else seat 1 wigs out (6 against 3, 0): 1/4 x 1/2 = 1/8."""
    text = ENDING.format(points="5,3").replace("hand_size=2", "hand_size=2 speed=1,3")
    result = mc.analyse("wigout", text, budget=8_000, seed=0)
    assert np.all(_shares(result, "start-0") == 0.5)
    assert set(_shares(result, "add-0").tolist()) == {0.0, 0.5}
    assert _within(_shares(result, "add-0"), 0.125)
    assert result.best == "start-0" and result.decided


def test_exact_ending_omniscient_on_the_true_cards_equals_the_honest_value():
    """Nothing is hidden here (the unseen cards are all 2s): the omniscient column, played on the
    true state, is the same exact 1.0 for start-0 and about 1/2 for add-0."""
    state = mc.state("wigout", ENDING.format(points="3,3"), seed=4)
    result = mc.analyse("wigout", state, budget=4_000, seed=2)
    omni = {r["move"]: r["omniscient"] for r in result.rows()}
    assert omni["start-0"] == 1.0 and abs(omni["add-0"] - 0.5) < 0.1


# --- no peeking --------------------------------------------------------------------------------


def test_no_peeking_two_deals_with_the_same_view_give_the_same_analysis():
    """Two full states that differ only in the cards seat 0 cannot see give it the same position
    and the same honest analysis under one seed; only the omniscient column may differ."""
    pos = mc.trace("wigout", seed=3, index=0, players=4).positions()[1]
    first = mc.state("wigout", pos, seed=1)
    second = mc.state("wigout", pos, seed=2)
    assert [first.hand(s) for s in (1, 2, 3)] != [second.hand(s) for s in (1, 2, 3)]
    assert first.observe() == second.observe() == pos
    a = mc.analyse("wigout", first, budget=4_000, seed=9)
    b = mc.analyse("wigout", second, budget=4_000, seed=9)
    honest = lambda r: [{k: v for k, v in row.items() if k != "omniscient"} for row in r.rows()]  # noqa: E731
    assert honest(a) == honest(b)
    assert np.array_equal(a.shares, b.shares)
    assert a.rows()[0]["omniscient"] is not None


# --- the analysis' contract --------------------------------------------------------------------


def test_analyse_json_and_frame_have_the_issues_keys_best_first():
    result = mc.analyse("wigout", MID, budget=8_000, seed=0)
    out = result.to_dict()
    assert list(out) == ["moves", "best", "decided", "evaluations", "seconds", "value_note"]
    assert [list(m) for m in out["moves"]] == [
        ["move", "win_share", "win_share_low", "win_share_high", "gap", "omniscient", "value", "value_low",
         "value_high"]] * 4
    # the value column: V of the seat after each play (the 4-player greedy value), where it comes from said once
    assert all(0 <= m["value_low"] <= m["value"] <= m["value_high"] <= 1 for m in out["moves"])
    assert out["value_note"].startswith("V of the seat after the move (wigout/values/"
                                        "4p-greedy-greedy-greedy-greedy.json, docs/luck.md)")
    assert result.table().count("4p-greedy-greedy-greedy-greedy.json") == 1
    shares = [m["win_share"] for m in out["moves"]]
    assert shares == sorted(shares, reverse=True) and out["best"] == out["moves"][0]["move"]
    assert all(m["win_share_low"] <= m["win_share"] <= m["win_share_high"] for m in out["moves"])
    assert out["evaluations"] == result.determinizations * 4 <= 8_000
    assert list(result.frame.columns) == list(out["moves"][0])
    assert "<table" in result._repr_html_()
    assert len(result.plot().axes[0].patches) == 4


def test_the_ismcts_evaluator_is_refused_for_wigout():
    with pytest.raises(mc.InputError, match="no IS-MCTS"):
        mc.analyse("wigout", MID, evaluator="ismcts")


def test_analyse_refuses_a_user_strategy_for_the_play_outs():
    with pytest.raises(mc.InputError):
        mc.analyse("wigout", MID, opponents="no_such_strategy")


# --- review ------------------------------------------------------------------------------------


def test_review_of_the_analysis_own_choices_finds_no_error():
    """A seat that plays the analysis' best play at every decision, reviewed by the same analysis
    (same budget, seed and strategies), loses nothing at any decision. 2 players, 2 rounds;
    chance from the state's seed, the other seat plays its first legal play."""
    events = mc.trace("wigout", seed=5, index=0, players=2, params={"rounds": 2})
    decks = events.record()["decks"]
    state = P.State.from_deal(decks, 2, {"rounds": 2}, seed=8)
    while not state.is_terminal:
        seat = state.current_player
        move = (mc.analyse("wigout", state.observe(), budget=600, seed=3).best if seat == 0
                else state.legal_moves()[0])
        state.apply(move)
    record = {"game": "wigout", "players": 2, "rules": {"rounds": 2}, "decks": decks[: state.next_deck],
              "actions": [f"{s}:{m}" for s, m in state.history]}
    review = mc.review("wigout", record, seats=[0], budget=600, seed=3)
    assert review.seats[0]["decisions"] > 0
    assert review.seats[0]["error_total"] == 0.0
    assert review.seats[0]["rating"] == "Supernatural"
    assert all(d["mark"] == "" and d["played"] == d["best"] for d in review.decisions)
    out = review.to_dict()
    assert list(out["decisions"][0]) == ["turn", "seat", "played", "best", "loss", "loss_low", "loss_high",
                                         "mark"]
    assert list(out["seats"][0]) == ["seat", "decisions", "unforced", "error_total", "error_rate", "rating",
                                     "result", "luck", "adjusted"]
    assert out["seats"][0]["luck"] is None and "no value estimate" in out["luck_note"]


def test_cli_analyse_and_review(tmp_path):
    out = _cli("analyse", "wigout", MID, "--budget", "4000", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["best"] in P.parse(MID).legal_moves()
    record = _cli("trace", "wigout", "--seed", "3", "--index", "0", "--players", "2", "--param", "rounds=1",
                  "--record")
    assert record.returncode == 0, record.stderr
    path = tmp_path / "game.json"
    path.write_text(record.stdout)
    review = _cli("review", "wigout", str(path), "--seat", "1", "--budget", "400", "--json")
    assert review.returncode == 0, review.stderr
    found = json.loads(review.stdout)
    assert {d["seat"] for d in found["decisions"]} == {1}
    assert found["seats"][0]["decisions"] == len(found["decisions"])
    bad = _cli("review", "wigout", json.dumps(dict(json.loads(record.stdout), actions=["0:jump-1"])))
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("seed", [1, 2])
def test_a_review_of_greedys_own_game_by_greedy_play_outs_finds_few_errors(seed):
    """The issue's check: a built-in's own game reviewed by the same policy finds few errors.
    Most Wig Out! decisions are forced, and greedy's unforced ones lose at most a fraction of a
    point against greedy play-outs: no mark, every seat Expert or better."""
    events = mc.trace("wigout", seed=seed, index=0, players=2)
    review = mc.review("wigout", events, budget=5_000, seed=0)
    assert [s["seat"] for s in review.seats] == [0, 1]
    assert all(d["mark"] == "" for d in review.decisions)
    for s in review.seats:
        assert 0 < s["unforced"] < s["decisions"]
        assert s["error_rate"] < 0.005 and s["rating"] in ("Supernatural", "World class", "Expert")


# --- a record of what one seat knew ------------------------------------------------------------


@pytest.mark.parametrize("players,seed,params", [(4, 3, None), (2, 5, None),
                                                  (5, 0, {"deadlock_counts_as_round": False})])
def test_a_record_of_what_one_seat_knew_gives_that_seats_positions(players, seed, params):
    """From its dealt hands, the starters, its own draws and the public actions alone, a seat's
    decisions are the same positions as those of the whole deal (a deadlock included)."""
    events = mc.trace("wigout", seed=seed, index=2 if params else 0, players=players, params=params)
    full = [(t, s, p, m) for t, s, p, m, _ in P.decisions_of_record(events.record())]
    for seat in range(players):
        record = P.seat_record_of_trace(events, players, params, seat)
        assert "decks" not in record and all("x" in a for a in record["actions"]
                                             if ":start-" in a and not a.startswith(f"{seat}:"))
        mine = [(t, s, p, m) for t, s, p, m, truth in P.decisions_of_record(json.loads(json.dumps(record)))]
        assert mine == [d for d in full if d[1] == seat]


def test_review_from_one_seats_record_equals_the_review_from_the_whole_deal():
    events = mc.trace("wigout", seed=3, index=0, players=2, params={"rounds": 2})
    whole = mc.review("wigout", events.record(), seats=[1], budget=2_000, seed=4)
    alone = mc.review("wigout", P.seat_record_of_trace(events, 2, {"rounds": 2}, seat=1), budget=2_000, seed=4)
    assert alone.to_dict() == whole.to_dict()
    with pytest.raises(mc.InputError, match="seat 0 cannot be reviewed"):
        mc.review("wigout", P.seat_record_of_trace(events, 2, {"rounds": 2}, seat=1), seats=[0])


def test_a_one_seat_record_that_breaks_the_rules_is_refused():
    events = mc.trace("wigout", seed=3, index=0, players=4)
    record = P.seat_record_of_trace(events, 4, None, seat=0)
    other_start = next(i for i, a in enumerate(record["actions"]) if ":start-" in a and not a.startswith("0:"))
    own_draw = next(i for i, a in enumerate(record["actions"]) if a == "0:draw")
    own_play = next(i for i, a in enumerate(record["actions"]) if a.startswith("0:") and a != "0:draw")

    def changed(i, text):
        return dict(record, actions=[text if k == i else a for k, a in enumerate(record["actions"])])

    deals = [dict(d) for d in record["deals"]]
    d = next(k for k, deal in enumerate(deals) if deal["draws"])
    deals[d] = dict(deals[d], draws=deals[d]["draws"][:-1])
    cases = [
        (changed(other_start, record["actions"][other_start].split("x")[0]), "the cards it laid down"),
        (changed(own_play, "0:draw"), "had a play"),
        (changed(own_draw, "0:start-11"), "seat 0 has no play"),
        (dict(record, deals=deals), "missing from 'draws'"),
        (dict(record, actions=record["actions"] + ["1:draw"]), "after the end of the game"),
        (dict(record, actions=record["actions"][:-1]), "not over"),
        (dict(record, deals=record["deals"] + record["deals"][:1]), "the game used 5"),
        (dict(record, seat=4), "seat must be 0..3"),
    ]
    for bad, message in cases:
        with pytest.raises(mc.InputError, match=message) as info:
            P.decisions_of_record(bad)
        assert "\n" not in str(info.value)


def test_cli_one_seat_record_from_a_trace_and_its_review(tmp_path):
    out = _cli("trace", "wigout", "--seed", "3", "--index", "0", "--players", "2", "--param", "rounds=1",
               "--record", "--seat", "1")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["seat"] == 1 and "decks" not in record
    path = tmp_path / "seat1.json"
    path.write_text(out.stdout)
    review = _cli("review", "wigout", str(path), "--budget", "400", "--json")
    assert review.returncode == 0, review.stderr
    assert {d["seat"] for d in json.loads(review.stdout)["decisions"]} == {1}
    for args, message in [(["--seat", "1"], "--seat goes with --record"), (["--record", "--seat", "9"], "0..3")]:
        bad = _cli("trace", "wigout", "--seed", "3", "--index", "0", *args)
        assert bad.returncode == 2 and message in bad.stderr and len(bad.stderr.strip().splitlines()) == 1

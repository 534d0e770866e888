"""Tests of the naive Wig Out! oracle (tests/naive/wigout.py) against the rules page."""

import random
from collections import Counter

import pytest

try:
    from tests.naive import wigout as w
except ImportError:  # pragma: no cover - when tests/ itself is on sys.path
    from naive import wigout as w


def make_deck(hands, starters, draw_pile, characters, copies):
    """Block-dealt deck: hands (seat 0 first), then the two starters, then the draw pile."""
    deck = [c for hand in hands for c in hand] + list(starters) + list(draw_pile)
    assert Counter(deck) == Counter({c: copies for c in range(characters)})
    return deck


def counts(cards, characters):
    out = [0] * characters
    for c in cards:
        out[c] += 1
    return out


def actions_of(res):
    return [(e["seat"], e["action"], e["character"]) for e in res["events"]
            if e["kind"] == "action"]


# --- scenario: start, add, forced draw, waiting with an empty draw pile, Wig Out -------------
# 4 characters x 3 copies, 2 players, 4 cards each; starters 0 and 1; draw pile [0, 1].
SMALL = dict(characters=4, copies=3, hand_size=4, rounds=1)
SCENARIO_DECK = make_deck([[2, 2, 3, 3], [2, 3, 0, 1]], [0, 1], [0, 1], 4, 3)
SCENARIO_EVENTS = [(1, 0.5), (1, 0.25), (1, 1.0), (1, 0.125), (1, 2.0), (1, 0.5),
                   (0, 0.25), (1, 1.5), (0, 0.375)]


def test_dealing_is_block_dealing():
    res = w.replay([SCENARIO_DECK], 2, SCENARIO_EVENTS, "greedy", **SMALL)
    deal = res["events"][0]
    assert deal["kind"] == "deal"
    assert deal["hands"] == [counts([2, 2, 3, 3], 4), counts([2, 3, 0, 1], 4)]
    assert deal["piles"] == [(0, 1), (1, 1)]
    assert deal["draw_pile"] == [0, 1]


def test_scenario_start_add_draw_wait_wigout():
    res = w.replay([SCENARIO_DECK], 2, SCENARIO_EVENTS, "greedy", **SMALL)
    assert actions_of(res) == [
        (1, "add", 0), (1, "add", 1),        # adds to the starter piles
        (1, "draw", 0), (1, "add", 0),       # forced draw, then a play
        (1, "draw", 1), (1, "add", 1),       # draw pile now empty: seat 1 waits
        (0, "start", 2),                     # greedy tie 2/3 -> lowest index
        (1, "add", 2),                       # seat 1 active again thanks to seat 0's pile
        (0, "start", 3),                     # seat 0 empties its hand: Wig Out!
    ]
    acts = [e for e in res["events"] if e["kind"] == "action"]
    # rates before the 7th event: seat 1 waits (no play, empty draw pile)
    assert acts[6]["rates"] == [1.0, 0.0]
    assert acts[6]["piles"] == [(0, 3), (1, 3), (2, 2)]
    assert acts[6]["cards"] == 2
    assert acts[-1]["hands"][0] == [0, 0, 0, 0]
    assert res["points"] == [0, 1]
    assert res["rounds_won"] == [1, 0]
    assert res["win_share"] == [1.0, 0.0]
    assert res["round_points"] == [[0, 1]]
    assert res["actions"] == res["turns"] == 9
    assert res["draws"] == 2
    assert res["round_draws"] == [2] and res["round_actions"] == [9]
    assert res["deadlocks"] == 0
    assert res["time"] == pytest.approx(sum(t for _, t in SCENARIO_EVENTS))
    assert res["events"][-1]["kind"] == "wigout" and res["events"][-1]["seat"] == 0


def test_waiting_seat_cannot_act():
    bad = SCENARIO_EVENTS[:6] + [(1, 0.25)]
    with pytest.raises(ValueError, match="cannot act"):
        w.replay([SCENARIO_DECK], 2, bad, "greedy", **SMALL)


def test_wigout_ends_round_at_once_and_extra_events_rejected():
    # Seat 0 acting first: start 2s, then start 3s -> out after 2 actions.
    res = w.replay([SCENARIO_DECK], 2, [(0, 1.0), (0, 1.0)], "greedy", **SMALL)
    assert actions_of(res) == [(0, "start", 2), (0, "start", 3)]
    assert res["points"] == [0, 4]
    with pytest.raises(ValueError, match="too many events"):
        w.replay([SCENARIO_DECK], 2, [(0, 1.0), (0, 1.0), (1, 1.0)], "greedy", **SMALL)
    with pytest.raises(ValueError, match="too few events"):
        w.replay([SCENARIO_DECK], 2, [(0, 1.0)], "greedy", **SMALL)


def test_singles_first_and_random_in_scenario():
    # singles_first seat 0 with no pile of 2/3 starts the lowest pair (2) too.
    res = w.replay([SCENARIO_DECK], 2, [(0, 1.0), (0, 1.0)], "singles_first", **SMALL)
    assert actions_of(res) == [(0, "start", 2), (0, "start", 3)]
    # random seat 1: plays = [add 0, add 1]; u=0.7 -> add 1.
    res = w.replay([SCENARIO_DECK], 2, [(1, 1.0), (0, 1.0), (0, 1.0)], ["greedy", "random"],
                   **SMALL, random_choices=iter([0.7]))
    assert actions_of(res) == [(1, "add", 1), (0, "start", 2), (0, "start", 3)]
    assert res["points"] == [0, 3]
    with pytest.raises(ValueError, match="too few random choices"):
        w.replay([SCENARIO_DECK], 2, [(1, 1.0), (0, 1.0), (0, 1.0)], ["greedy", "random"],
                 **SMALL, random_choices=[])
    with pytest.raises(ValueError, match="too many random choices"):
        w.replay([SCENARIO_DECK], 2, [(1, 1.0), (0, 1.0), (0, 1.0)], ["greedy", "random"],
                 **SMALL, random_choices=[0.7, 0.1])


def test_random_forced_draw_consumes_no_choice():
    # 4 chars x 2 copies, 2 players x 2 cards; starters 0,0 (one pile of two); draw [2, 3].
    deck = make_deck([[1, 2], [1, 3]], [0, 0], [2, 3], 4, 2)
    p = dict(characters=4, copies=2, hand_size=2, rounds=1)
    # seat 0 (random) draws 2 (no choice), then starts 2s (one choice: the only play);
    # seat 1 draws 3 and starts 3s; both hold a single 1, no pile of 1: deadlock.
    events = [(0, 1.0), (0, 1.0), (1, 1.0), (1, 1.0)]
    res = w.replay([deck], 2, events, ["random", "greedy"], **p, random_choices=[0.0])
    assert res["events"][0]["piles"] == [(0, 2)]
    assert actions_of(res) == [(0, "draw", 2), (0, "start", 2), (1, "draw", 3),
                               (1, "start", 3)]
    assert res["deadlocks"] == 1 and res["points"] == [0, 0]
    assert res["rounds_won"] == [0, 0] and res["win_share"] == [0.5, 0.5]
    assert res["round_winner"] == [None] and res["actions"] == 4 and res["draws"] == 2
    assert res["events"][-1]["kind"] == "deadlock"
    with pytest.raises(ValueError, match="too many random choices"):
        w.replay([deck], 2, events, ["random", "greedy"], **p, random_choices=[0.0, 0.5])


def test_stacked_starter_piles():
    # 4 chars x 3 copies; starters 3 and 3 form one pile of two; adding makes it three.
    deck = make_deck([[3, 0, 0], [0, 1, 2]], [3, 3], [1, 1, 2, 2], 4, 3)
    p = dict(characters=4, copies=3, hand_size=3, rounds=1)
    res = w.replay([deck], 2, [(0, 1.0), (0, 1.0)], "greedy", **p)
    assert res["events"][0]["piles"] == [(3, 2)]
    assert actions_of(res) == [(0, "start", 0), (0, "add", 3)]
    acts = [e for e in res["events"] if e["kind"] == "action"]
    assert acts[0]["piles"] == [(3, 2), (0, 2)]
    assert acts[1]["piles"] == [(3, 3), (0, 2)]
    assert res["points"] == [0, 3]


def test_second_pile_of_same_character_and_add_goes_to_oldest():
    # 4 characters x 4 copies; starters 0 and 3.  greedy seat 0 starts a second pile of 0s.
    deck = make_deck([[0, 0, 1], [0, 2, 2]], [0, 3], [1, 1, 1, 2, 2, 3, 3, 3], 4, 4)
    p = dict(characters=4, copies=4, hand_size=3, rounds=1)
    res = w.replay([deck], 2, [(0, 1.0), (1, 1.0), (1, 1.0)], "greedy", **p)
    acts = [e for e in res["events"] if e["kind"] == "action"]
    assert acts[0]["piles"] == [(0, 1), (3, 1), (0, 2)]
    assert (acts[1]["action"], acts[1]["character"]) == ("start", 2)
    # the single 0 goes on the oldest pile of 0s, and seat 1 wigs out
    assert (acts[2]["action"], acts[2]["character"]) == ("add", 0)
    assert acts[2]["piles"] == [(0, 2), (3, 1), (0, 2), (2, 2)]
    assert res["points"] == [1, 0]


def test_immediate_deadlock_and_uncounted_deadlock_replayed():
    # 4 chars x 2, 2 players x 3 cards: the draw pile is empty after the deal.
    stuck = make_deck([[1, 2, 3], [1, 2, 3]], [0, 0], [], 4, 2)
    p = dict(characters=4, copies=2, hand_size=3, rounds=1)
    res = w.replay([stuck], 2, [], "greedy", **p)
    assert res["deadlocks"] == 1 and res["actions"] == 0 and res["time"] == 0.0
    assert res["win_share"] == [0.5, 0.5] and res["round_points"] == [[0, 0]]
    # deadlock not counted: the round is replayed with the next deck
    good = make_deck([[1, 1, 0], [2, 3, 3]], [0, 2], [], 4, 2)
    with pytest.raises(ValueError, match="too few round decks"):
        w.replay([stuck], 2, [], "greedy", **p, deadlock_counts_as_round=False)
    res = w.replay([stuck, good], 2, [(0, 1.0), (0, 1.0)], "greedy", **p,
                   deadlock_counts_as_round=False)
    assert res["deadlocks"] == 1 and res["deals"] == 2
    assert res["round_counted"] == [False, True]
    assert res["round_winner"] == [None, 0]
    assert res["points"] == [0, 3] and res["rounds_won"] == [1, 0]
    with pytest.raises(ValueError, match="too many round decks"):
        w.replay([stuck, good], 2, [(0, 1.0), (0, 1.0)], "greedy", **p)


def test_max_deals_makes_game_unfinished():
    # copies=1: nobody can ever play; every deal deadlocks.
    res = w.play_random_model(2, random.Random(1), "greedy", characters=20, copies=1,
                              hand_size=3, rounds=2, deadlock_counts_as_round=False,
                              max_deals=5)
    assert res["unfinished"] and res["deals"] == 5 and res["deadlocks"] == 5
    assert res["win_share"] == [0.0, 0.0]


# --- strategies and legal plays -------------------------------------------------------------

def test_legal_plays_order():
    hand = [2, 1, 0, 3]
    piles = [(0, 1), (3, 2), (2, 1)]
    assert w.legal_plays(hand, piles) == [("start", 0), ("add", 0), ("start", 3), ("add", 3)]
    assert w.legal_plays([1, 1, 1, 0], [(3, 1)]) == []


def test_choosers():
    piles = [(0, 1), (1, 1)]
    # greedy: most numerous held >= 2, even with a pile of it; ties lowest index
    assert w.choose_greedy([2, 1, 3, 3], piles) == ("start", 2)
    assert w.choose_greedy([2, 1, 0, 0], piles) == ("start", 0)
    assert w.choose_greedy([0, 1, 1, 1], piles) == ("add", 1)
    assert w.choose_greedy([0, 0, 1, 1], piles) is None
    # singles_first: lowest add first, else lowest start
    assert w.choose_singles_first([0, 1, 3, 3], piles) == ("add", 1)
    assert w.choose_singles_first([0, 0, 3, 2], piles) == ("start", 2)
    assert w.choose_singles_first([0, 0, 1, 1], piles) is None
    plays = [("start", 0), ("add", 0), ("add", 1)]
    assert [w.choose_random(plays, u) for u in (0.0, 0.33, 0.34, 0.999)] == \
        [("start", 0), ("start", 0), ("add", 0), ("add", 1)]
    with pytest.raises(ValueError):
        w.choose_random(plays, 1.0)
    with pytest.raises(ValueError):
        w.choose_random([], 0.5)


# --- validation -----------------------------------------------------------------------------

def test_bad_inputs():
    rng = random.Random(0)
    with pytest.raises(ValueError, match="cannot deal"):
        w.play_random_model(6, rng, "greedy", hand_size=10)        # 62 > 60
    with pytest.raises(ValueError, match="cannot deal"):
        w.replay([SCENARIO_DECK], 2, [], "greedy", characters=4, copies=3, hand_size=6)
    w.play_random_model(6, rng, "greedy", hand_size=9, rounds=1)   # 56 <= 60: fine
    with pytest.raises(ValueError):
        w.play_random_model(2, rng, "greedy", hand_size=0)
    with pytest.raises(ValueError):
        w.play_random_model(7, rng, "greedy")
    with pytest.raises(ValueError):
        w.play_random_model(1, rng, "greedy")
    with pytest.raises(ValueError, match="unknown strategy"):
        w.play_random_model(2, rng, "clever")
    with pytest.raises(ValueError, match="strategies"):
        w.play_random_model(3, rng, ["greedy", "greedy"])
    with pytest.raises(ValueError):
        w.play_random_model(2, rng, "greedy", speed=[1.0, 0.0])
    with pytest.raises(ValueError):
        w.play_random_model(2, rng, "greedy", speed=[1.0])
    with pytest.raises(ValueError):
        w.play_random_model(2, rng, "greedy", colours=3)
    with pytest.raises(ValueError, match="copies"):
        w.replay([SCENARIO_DECK[:-1] + [0]], 2, SCENARIO_EVENTS, "greedy", **SMALL)
    with pytest.raises(ValueError, match="not a seat"):
        w.replay([SCENARIO_DECK], 2, [(2, 1.0)], "greedy", **SMALL)
    with pytest.raises(ValueError, match="waiting time"):
        w.replay([SCENARIO_DECK], 2, [(0, -1.0)], "greedy", **SMALL)


# --- random games ---------------------------------------------------------------------------

STRATEGY_MIXES = ["greedy", "singles_first", "random"]


def random_strategies(players, g):
    return [STRATEGY_MIXES[(g + s) % 3] for s in range(players)]


def check_conservation(res, characters, copies):
    full = [copies] * characters
    for e in res["events"]:
        if e["kind"] not in ("deal", "action"):
            continue
        total = [0] * characters
        for hand in e["hands"]:
            for c, n in enumerate(hand):
                assert n >= 0
                total[c] += n
        for c, n in e["piles"]:
            assert n >= 1
            total[c] += n
        for c in e["draw_pile"]:
            total[c] += 1
        assert total == full


def test_replay_reproduces_random_model():
    for g in range(40):
        players = 2 + g % 5
        strategies = random_strategies(players, g)
        params = dict(speed=[1.0 + 0.25 * (s == 0) for s in range(players)],
                      draw_time_factor=[1.0, 2.0][g % 2],
                      deadlock_counts_as_round=bool(g % 3))
        res = w.play_random_model(players, random.Random(1000 + g), strategies, **params)
        again = w.replay(res["round_decks"], players, res["event_list"], strategies,
                         random_choices=iter(res["random_choices"]), **params)
        for key in again:
            assert again[key] == res[key], key
        check_conservation(res, 12, 5)
        assert res["actions"] == len(res["event_list"]) == sum(res["round_actions"])
        assert res["draws"] == sum(res["round_draws"])
        assert sum(res["win_share"]) == pytest.approx(1.0)
        assert sum(res["round_counted"]) == 5
        assert res["time"] == pytest.approx(sum(t for _, t in res["event_list"]))


def test_no_deadlock_with_two_to_four_players():
    for g in range(300):
        players = 2 + g % 3
        res = w.play_random_model(players, random.Random(g), random_strategies(players, g))
        assert res["deadlocks"] == 0
        assert all(wnr is not None for wnr in res["round_winner"])
        assert sum(res["rounds_won"]) == 5
        if g % 10 == 0:
            check_conservation(res, 12, 5)


def test_deadlocks_occur_with_five_and_six_players():
    deadlocks = {5: 0, 6: 0}
    deals = {5: 0, 6: 0}
    for g in range(300):
        players = 5 + g % 2
        res = w.play_random_model(players, random.Random(50_000 + g), "greedy")
        deadlocks[players] += res["deadlocks"]
        deals[players] += res["deals"]
        assert sum(res["rounds_won"]) + res["deadlocks"] == 5
        if g % 10 == 0:
            check_conservation(res, 12, 5)
    for players in (5, 6):
        # the rules page: roughly one round in six with greedy
        assert 0.05 < deadlocks[players] / deals[players] < 0.35


# --- the oracle interface -----------------------------------------------------------------------


def test_play_script_is_replay_with_the_library_arguments():
    """``play_script`` takes the keyword arguments of the library's ``play_scripted``."""
    params = {"draw_time_factor": 2.0, "deadlock_counts_as_round": False, "rounds": 3}
    strategies = ["random", "greedy", "singles_first", "random", "greedy"]
    res = w.play_random_model(5, random.Random(8), strategies, **params)
    got = w.play_script(round_decks=res["round_decks"], players=5, events=res["event_list"],
                        strategies=strategies, params=params, random_choices=res["random_choices"])
    for key in ("points", "rounds_won", "win_share", "deadlocks", "draws", "actions", "deals",
                "unfinished", "time"):
        assert got[key] == res[key], key
    assert got["scores"] == res["points"] and "events" not in got
    with pytest.raises(ValueError, match="unknown parameter"):
        w.play_script(res["round_decks"], 5, res["event_list"], strategies, {"speeds": 1.0},
                      res["random_choices"])


def test_play_script_stops_at_the_library_deal_cap():
    """Every deal deadlocks and deadlocks do not count: the game stops unfinished after
    ``DEALS_PER_ROUND`` deals per round, the library's cap (``replay`` alone allows 1000)."""
    params = {"characters": 20, "copies": 1, "hand_size": 3, "rounds": 2,
              "deadlock_counts_as_round": False}
    res = w.play_random_model(2, random.Random(1), "greedy", max_deals=2 * w.DEALS_PER_ROUND,
                              **params)
    assert res["unfinished"] and res["deals"] == 2 * w.DEALS_PER_ROUND
    got = w.play_script(res["round_decks"], 2, res["event_list"], "greedy", params,
                        res["random_choices"])
    assert got["unfinished"] and got["deals"] == res["deals"] and got["win_share"] == [0.0, 0.0]

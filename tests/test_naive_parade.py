"""Checks of the naive Parade oracle (tests/naive/parade.py) against docs/rules/parade.md."""

import random

import pytest

try:
    from tests.naive import parade as naive
except ImportError:  # pytest run with tests/ (not the repo root) on sys.path
    from naive import parade as naive


def random_deck(seed):
    deck = naive.all_labels()
    random.Random(seed).shuffle(deck)
    return deck


def first_card_policy(seat, view):
    return view["hand"][0]


def last_two_discard(seat, view):
    return view["hand"][2:]


def random_policies(seed):
    rng = random.Random(seed)

    def choose_card(seat, view):
        return rng.choice(view["hand"])

    def choose_discard(seat, view):
        return rng.sample(view["hand"], 2)

    return choose_card, choose_discard


# --------------------------------------------------------------------------- components


def test_labels_and_ids():
    labels = naive.all_labels()
    assert len(labels) == 66 == len(set(labels))
    assert labels[0] == "red-0" and labels[-1] == "orange-10"
    assert [naive.label_id(label) for label in labels] == list(range(66))
    assert naive.label_id("green-3") == 11 * 3 + 3
    for bad in ["green-11", "pink-3", "green3", "Green-3", "green--1", 5]:
        with pytest.raises(ValueError):
            naive.parse_label(bad)


# --------------------------------------------------------------------------- removal


def test_seed_removal_example_direct():
    # parade of 7, front first; Green-3 played: the 3 nearest the end are safe (green-1 would
    # be taken by colour and red-2 by value if they were in removal mode); of the 4 in removal
    # mode, green-0, green-7 (colour) and red-3 (value) are taken, blue-5 stays.
    parade = ["green-0", "blue-5", "green-7", "red-3", "green-1", "red-2", "purple-0"]
    new_parade, taken = naive.resolve_play(parade, "green-3")
    assert taken == ["green-0", "green-7", "red-3"]
    assert new_parade == ["blue-5", "green-1", "red-2", "purple-0", "green-3"]


def test_removal_edge_cases():
    parade = ["red-5", "blue-0", "green-9", "red-10", "grey-2", "orange-0"]
    # v = 0: every card in removal mode; taken iff same colour or value 0.
    new_parade, taken = naive.resolve_play(parade, "red-0")
    assert taken == ["red-5", "blue-0", "red-10", "orange-0"]
    assert new_parade == ["green-9", "grey-2", "red-0"]
    # n <= v: nothing in removal mode.
    for played in ["red-6", "blue-10"]:
        new_parade, taken = naive.resolve_play(parade, played)
        assert taken == [] and new_parade == parade + [played]
    # n - v = 1: only the front card in removal mode.
    new_parade, taken = naive.resolve_play(parade, "grey-5")
    assert taken == ["red-5"]
    # empty parade
    assert naive.resolve_play([], "red-0") == (["red-0"], [])


def test_seed_removal_example_in_a_game():
    # Two players; seat 0 first plays purple-10 (parade 6 -> 7, nothing taken since n <= v),
    # then seat 1 plays green-3 into the example's parade.
    initial_parade = ["green-0", "blue-5", "green-7", "red-3", "green-1", "red-2"]
    hand0 = ["purple-10", "orange-1", "orange-2", "orange-3", "orange-4"]
    hand1 = ["green-3", "orange-5", "orange-6", "orange-7", "orange-8"]
    used = set(initial_parade + hand0 + hand1)
    rest = [label for label in random_deck(1) if label not in used]
    deck = hand0 + hand1 + initial_parade + rest
    seen_views = []

    def choose_card(seat, view):
        seen_views.append(view)
        return view["hand"][0]

    out = naive.play(deck, 2, choose_card, last_two_discard)
    assert out["plays"][:2] == ["purple-10", "green-3"]
    assert out["collections"][1][:3] == ["green-0", "green-7", "red-3"]
    # seat 0's second turn sees the parade after the example play
    assert seen_views[2]["parade"] == ["blue-5", "green-1", "red-2", "purple-10", "green-3"]
    assert seen_views[2]["collections"] == [[], ["green-0", "green-7", "red-3"]]
    # the drawn card is appended to the hand: seat 0 drew deck[16], seat 1 deck[17]
    assert seen_views[2]["hand"] == hand0[1:] + [deck[16]]
    assert seen_views[3]["hand"] == hand1[1:] + [deck[17]]
    # and the whole game replays identically
    assert naive.replay(deck, 2, out["plays"], out["discards"]) == out


def test_block_dealing():
    deck = random_deck(3)
    views = []

    def choose_card(seat, view):
        views.append((seat, view))
        return view["hand"][0]

    naive.play(deck, 3, choose_card, last_two_discard)
    assert views[0][0] == 0 and views[0][1]["hand"] == deck[0:5]
    assert views[0][1]["parade"] == deck[15:21]
    assert views[0][1]["draw_pile_size"] == 66 - 21
    assert views[1][0] == 1 and views[1][1]["hand"] == deck[5:10]
    assert views[2][0] == 2 and views[2][1]["hand"] == deck[10:15]


# --------------------------------------------------------------------------- scoring


def test_seed_scoring_example_three_players():
    alice = ["red-10", "red-9", "red-8", "blue-10", "blue-9", "purple-7", "purple-6",
             "grey-5", "grey-6"]
    hatter = ["red-3", "purple-10", "purple-9", "green-10", "green-8",
              "orange-10", "orange-9", "orange-8", "orange-7"]
    cheshire = ["blue-0", "blue-1", "blue-2", "green-0", "green-1", "green-2",
                "grey-0", "grey-1", "grey-2", "orange-1", "purple-8", "red-7", "red-6"]
    # red:    A 3 (majority, 3)   H 1 (3)            C 2 (13)
    # blue:   A 2 (19)            H 0                C 3 (majority, 3)
    # purple: A 2 (tie, 2)        H 2 (tie, 2)       C 1 (8)
    # green:  A 0                 H 2 (18)           C 3 (majority, 3)
    # grey:   A 2 (11)            H 0                C 3 (majority, 3)
    # orange: A 0                 H 4 (majority, 4)  C 1 (1)
    collections = [alice, hatter, cheshire]
    scores = naive.score_collections(collections, 3)
    assert scores == [35, 27, 31]
    assert naive.winners(scores, collections) == [0.0, 1.0, 0.0]
    # majority rule for 3-6 players does not depend on the margin parameter
    for margin in (0, 1, 2):
        assert naive.score_collections(collections, 3, margin) == [35, 27, 31]


def test_winner_tie_breaks():
    a = ["red-5"]
    b = ["blue-2", "blue-3"]  # 2 players, margin 2: 2-0 -> majority -> 2 points
    c = ["green-2"]
    assert naive.score_collections([a, b, c], 3) == [1, 2, 1]  # 3-6 rule: each has its majority
    # equal score, fewer cards wins
    assert naive.winners([5, 5, 7], [["x"] * 3, ["x"] * 2, []]) == [0.0, 1.0, 0.0]
    # still tied: shared
    assert naive.winners([5, 5, 5], [["x"] * 2, ["x"] * 2, ["x"] * 3]) == [0.5, 0.5, 0.0]
    assert naive.winners([0, 0, 0, 0], [[], [], [], []]) == [0.25] * 4


def test_two_player_margin():
    # seat 0 holds `mine` reds (9, 8, 7), seat 1 holds `theirs` reds (1, 2, 3)
    def red_scores(mine, theirs, margin):
        me = ["red-%d" % v for v in (9, 8, 7)[:mine]]
        them = ["red-%d" % v for v in (1, 2, 3)[:theirs]]
        return naive.score_collections([me, them], 2, margin)

    # official rule (margin 2): 1-0 no flip, 2-0 flips, a tie never flips, 3-1 flips
    assert red_scores(1, 0, 2) == [9, 0]
    assert red_scores(2, 0, 2) == [2, 0]
    assert red_scores(1, 1, 2) == [9, 1]
    assert red_scores(2, 2, 2) == [17, 3]
    assert red_scores(3, 1, 2) == [3, 1]
    assert red_scores(3, 2, 2) == [24, 3]
    assert naive.score_collections([[], []], 2) == [0, 0]
    # margin 1: strictly more
    assert red_scores(1, 0, 1) == [1, 0]
    assert red_scores(2, 1, 1) == [2, 1]
    assert red_scores(1, 1, 1) == [9, 1]
    # margin 0: the 3-6 player rule, a tie gives both the majority
    assert red_scores(1, 1, 0) == [1, 1]
    assert red_scores(1, 0, 0) == [1, 0]
    assert red_scores(1, 2, 0) == [9, 2]
    # default margin is 2
    assert naive.score_collections([["red-9"], []], 2) == [9, 0]


# --------------------------------------------------------------------------- greedy


def test_greedy_choice_ties_and_majority():
    parade = ["blue-9", "green-8", "grey-7", "purple-6", "orange-5", "red-4"]
    empty = [[], []]
    # red-0 takes red-4 (score 4); red-10 takes nothing (score 0)
    assert naive.greedy_choice(["red-0", "red-10"], parade, empty, 0, 2, 2) == "red-10"
    # nothing taken by any: highest value, then lowest id (blue-9 id 20 < grey-9 id 53)
    assert naive.greedy_choice(["red-7", "grey-9", "blue-9"], parade, empty, 0, 2, 2) == "blue-9"
    # majority counted: with green-10 collected (1-0, no majority: 10 points), taking
    # green-5 makes 2-0 -> majority -> 2 points, better than taking nothing (10)
    parade2 = ["green-5", "blue-9", "purple-9", "grey-9", "orange-9", "red-9"]
    collections = [["green-10"], []]
    assert naive.greedy_choice(["green-4", "orange-10"], parade2, collections, 0, 2, 2) == "green-4"
    # with margin 1, 1-0 is already a majority (1 point), taking green-5 gives 2: keep 1
    assert naive.greedy_choice(["green-4", "orange-10"], parade2, collections, 0, 2, 1) == "orange-10"


def test_greedy_discard_ties():
    empty = [[], []]
    # every pair scores 0: keep the lowest-id pair red-0 (0), blue-0 (11)
    assert naive.greedy_discard(["grey-0", "red-0", "green-0", "blue-0"], empty, 0, 2, 2) == [
        "grey-0", "green-0"]
    # keeping red-10, red-9 (2-0 majority: 2) ties keeping blue-1, blue-0 (majority: 2);
    # kept-id pairs (9, 10) < (11, 12), so the reds are kept
    assert naive.greedy_discard(["red-10", "blue-1", "red-9", "blue-0"], empty, 0, 2, 2) == [
        "blue-1", "blue-0"]
    # the other collections as they stand are counted:
    collections = [[], ["blue-5", "blue-6"]]
    # blues now 2-2: no majority -> blue-1 + blue-0 score 1; reds still 2
    assert naive.greedy_discard(["red-10", "blue-1", "red-9", "blue-0"], collections, 0, 2, 2) == [
        "red-10", "red-9"]


def test_greedy_game_replays_identically():
    for players in range(2, 7):
        deck = random_deck(100 + players)
        out = naive.play_greedy(deck, players)
        assert set(out) >= {"scores", "collections", "turns", "end_trigger", "win_share",
                            "parade", "plays", "discards"}
        assert len(out["plays"]) == out["turns"]
        again = naive.replay(deck, players, out["plays"], out["discards"])
        assert again == out


# --------------------------------------------------------------------------- game facts


def check_game_facts(out, players, margin=2):
    # card conservation at the end: collections + parade + discards + draw pile
    everything = [c for col in out["collections"] for c in col] + out["parade"]
    everything += [c for d in out["discards"] for c in d] + out["draw_pile"]
    assert sorted(everything) == sorted(naive.all_labels())
    assert out["turns"] == sum(out["turns_per_seat"]) == len(out["plays"])
    assert abs(sum(out["win_share"]) - 1.0) < 1e-12
    assert out["scores"] == naive.score_collections(out["collections"], players, margin)
    # parade = 6 initial + one card per turn - taken cards (collections minus the kept pairs)
    taken = sum(len(c) for c in out["collections"]) - 2 * players
    assert len(out["parade"]) == 6 + out["turns"] - taken
    normal_turns = out["turns"] - players
    rounds, seat = divmod(normal_turns - 1, players)
    assert seat == out["trigger_seat"]
    expected = [rounds + 2 if s <= seat else rounds + 1 for s in range(players)]
    assert out["turns_per_seat"] == expected
    if out["end_trigger"] == "deck_empty":
        assert out["turns"] == 60 - 4 * players
        assert out["turns_per_seat"] == [60 // players - 4] * players
        assert out["draw_pile"] == []
        assert out["trigger_seat"] == (60 - 5 * players - 1) % players
    else:
        assert out["end_trigger"] == "six_colours"
        assert out["turns"] <= 60 - 4 * players
        assert len(out["draw_pile"]) == 60 - 5 * players - normal_turns
        trigger_colours = {naive.parse_label(c)[0] for c in out["collections"][seat]}
        assert trigger_colours == set(range(6))
    # every seat's collection ends with its 2 kept cards
    for col in out["collections"]:
        assert len(col) >= 2


def test_deck_empty_turn_counts_table():
    assert [60 // p - 4 for p in range(2, 7)] == [26, 16, 11, 8, 6]
    assert [60 - 4 * p for p in range(2, 7)] == [52, 48, 44, 40, 36]


def test_many_greedy_games():
    seen = set()
    for players in range(2, 7):
        for seed in range(50):
            deck = random_deck(1000 * players + seed)
            out = naive.play_greedy(deck, players)
            check_game_facts(out, players)
            seen.add((players, out["end_trigger"]))
    # the deck-empty turn-count facts were exercised for every player count
    assert all((players, "deck_empty") in seen for players in range(2, 7))
    assert (2, "six_colours") in seen and (3, "six_colours") in seen


def test_many_random_policy_games_replay():
    for players in range(2, 7):
        for seed in range(30):
            deck = random_deck(5000 + 100 * players + seed)
            for margin in (0, 1, 2):
                out = naive.play(deck, players, *random_policies(seed), two_player_margin=margin)
                check_game_facts(out, players, margin)
                assert naive.replay(deck, players, out["plays"], out["discards"], margin) == out


def test_kept_cards_join_collection_in_hand_order():
    deck = random_deck(11)
    final_hands = {}

    def choose_discard(seat, view):
        final_hands[seat] = view["hand"]
        return [view["hand"][3], view["hand"][0]]

    out = naive.play(deck, 4, first_card_policy, choose_discard)
    for seat in range(4):
        assert out["collections"][seat][-2:] == final_hands[seat][1:3]
        assert out["discards"][seat] == [final_hands[seat][3], final_hands[seat][0]]


def test_both_triggers_same_turn_recorded_as_six_colours():
    # found by search: greedy 3-player game on random_deck(1) triggers six colours on the
    # very turn the last card of the draw pile is drawn
    out = naive.play_greedy(random_deck(1), 3)
    assert out["end_trigger"] == "six_colours"
    assert out["turns"] == 60 - 4 * 3
    assert out["draw_pile"] == []
    check_game_facts(out, 3)


def test_last_round_has_no_draw_and_turns_left():
    deck = random_deck(21)
    seen = []

    def choose_card(seat, view):
        seen.append((seat, len(view["hand"]), view["last_round"], view["turns_left"]))
        return view["hand"][0]

    out = naive.play(deck, 5, choose_card, last_two_discard)
    last_round = seen[-5:]
    assert [s for s, *_ in last_round] == [(out["trigger_seat"] + 1 + i) % 5 for i in range(5)]
    assert [n for _, n, _, _ in last_round] == [5] * 5
    assert [t for *_, t in last_round] == [5, 4, 3, 2, 1]
    assert all(lr for _, _, lr, _ in last_round)
    assert not any(lr for _, _, lr, _ in seen[:-5])
    assert all(n == 5 for _, n, _, _ in seen)


# --------------------------------------------------------------------------- illegal input


@pytest.fixture
def scripted_game():
    deck = random_deck(7)
    out = naive.play_greedy(deck, 3)
    return deck, out


def test_illegal_card_not_in_hand(scripted_game):
    deck, out = scripted_game
    plays = list(out["plays"])
    plays[0] = deck[5]  # a card of seat 1's hand, played by seat 0
    with pytest.raises(ValueError, match="not in seat 0's hand"):
        naive.replay(deck, 3, plays, out["discards"])
    plays = list(out["plays"])
    plays[0] = deck[20]  # a parade card
    with pytest.raises(ValueError, match="not in seat 0's hand"):
        naive.replay(deck, 3, plays, out["discards"])
    plays = list(out["plays"])
    plays[1] = "pink-3"
    with pytest.raises(ValueError, match="illegal play"):
        naive.replay(deck, 3, plays, out["discards"])
    plays = list(out["plays"])
    plays[3] = plays[0]  # seat 0 plays the same card twice
    with pytest.raises(ValueError):
        naive.replay(deck, 3, plays, out["discards"])


def test_wrong_number_of_plays(scripted_game):
    deck, out = scripted_game
    with pytest.raises(ValueError, match="too few plays"):
        naive.replay(deck, 3, out["plays"][:-1], out["discards"])
    with pytest.raises(ValueError, match="too few plays"):
        naive.replay(deck, 3, [], out["discards"])
    with pytest.raises(ValueError, match="too many plays"):
        naive.replay(deck, 3, out["plays"] + ["red-0"], out["discards"])


def test_illegal_discards(scripted_game):
    deck, out = scripted_game
    plays, discards = out["plays"], out["discards"]
    bad = [list(d) for d in discards]
    bad[1] = [discards[0][0], discards[1][1]]  # a card of seat 0's hand
    with pytest.raises(ValueError, match="seat 1"):
        naive.replay(deck, 3, plays, bad)
    bad = [list(d) for d in discards]
    bad[2] = [discards[2][0]]
    with pytest.raises(ValueError, match="exactly 2"):
        naive.replay(deck, 3, plays, bad)
    bad = [list(d) for d in discards]
    bad[2] = [discards[2][0], discards[2][0]]
    with pytest.raises(ValueError, match="twice"):
        naive.replay(deck, 3, plays, bad)
    bad = [list(d) for d in discards]
    bad[0] = discards[0] + [out["collections"][0][-1]]
    with pytest.raises(ValueError, match="exactly 2"):
        naive.replay(deck, 3, plays, bad)
    with pytest.raises(ValueError, match="one entry per seat"):
        naive.replay(deck, 3, plays, discards[:2])


def test_bad_deck_players_margin(scripted_game):
    deck, out = scripted_game
    plays, discards = out["plays"], out["discards"]
    with pytest.raises(ValueError, match="66"):
        naive.replay(deck[:-1], 3, plays, discards)
    with pytest.raises(ValueError, match="twice"):
        naive.replay(deck[:-1] + [deck[0]], 3, plays, discards)
    with pytest.raises(ValueError, match="label"):
        naive.replay(deck[:-1] + ["red-11"], 3, plays, discards)
    for players in (1, 7, 0, 2.0, True):
        with pytest.raises(ValueError, match="players"):
            naive.replay(deck, players, plays, discards)
        with pytest.raises(ValueError, match="players"):
            naive.play_greedy(deck, players)
    for margin in (3, -1, 1.5, None):
        with pytest.raises(ValueError, match="two_player_margin"):
            naive.replay(deck, 3, plays, discards, two_player_margin=margin)
        with pytest.raises(ValueError, match="two_player_margin"):
            naive.play_greedy(deck, 2, two_player_margin=margin)


# --------------------------------------------------------------------------- oracle interface


def test_play_script_is_replay_with_the_library_arguments():
    """``play_script`` takes the keyword arguments of the library's ``play_scripted``."""
    from collections import Counter

    for players in (2, 4):
        for margin in (0, 2):
            deck = random_deck(77 + players)
            out = naive.play(deck, players, *random_policies(players), two_player_margin=margin)
            got = naive.play_script(deck=deck, players=players, plays=out["plays"],
                                    discards=out["discards"], params={"two_player_margin": margin})
            assert got["scores"] == out["scores"] and got["win_share"] == out["win_share"]
            assert got["turns"] == out["turns"] and got["end_trigger"] == out["end_trigger"]
            assert got["collections"] == [Counter(c) for c in out["collections"]]
    assert naive.play_script(deck, players, out["plays"], out["discards"])["scores"] == \
        naive.replay(deck, players, out["plays"], out["discards"])["scores"]  # params None
    with pytest.raises(ValueError, match="unknown parameter"):
        naive.play_script(deck, players, out["plays"], out["discards"], params={"margin": 1})

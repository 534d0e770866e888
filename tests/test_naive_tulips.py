"""Tests of the naive Gift of Tulips oracle (tests/naive/tulips.py) against docs/rules/tulips.md."""

import random
from collections import Counter

import pytest

try:
    from tests.naive import tulips as T
except ImportError:  # tests/ not importable as a package: pytest put tests/ on sys.path
    from naive import tulips as T

PURPLE, BLUE, PINK, ORANGE = 0, 1, 2, 3


# ------------------------------------------------------------------ cards


def test_card_ids_default_layout():
    assert T.card(0) == (PURPLE, 2)
    assert T.card(5) == (PURPLE, 2)
    assert T.card(6) == (PURPLE, 3)
    assert T.card(17) == (PURPLE, 4)
    assert T.card(18) == (PURPLE, 2) and T.is_marked(18)
    assert T.card(20) == (PURPLE, 3)
    assert T.card(23) == (PURPLE, 4) and T.is_marked(23)
    assert not T.is_marked(17)
    assert T.card(24) == (BLUE, 2)
    assert T.card(95) == (ORANGE, 4)
    with pytest.raises(ValueError):
        T.card(96)
    for players in (2, 3, 4):
        ids = T.card_ids(players)
        assert len(ids) == 72 and not any(T.is_marked(i) for i in ids)
    for players in (5, 6):
        assert T.card_ids(players) == list(range(96))
    full = Counter(T.card(i) for i in range(96))
    assert all(full[(c, v)] == 8 for c in range(4) for v in (2, 3, 4))


def test_shuffled_deck_festival_colours_differ():
    rng = random.Random(1)
    for players in range(2, 7):
        for _ in range(20):
            deck = T.shuffled_deck(players, rng)
            a, b = T.festival_positions(players)
            assert T.card(deck[a])[0] != T.card(deck[b])[0]
            assert sorted(deck) == T.card_ids(players)


# ------------------------------------------------------------------ ranking


def test_place_of():
    assert T.place_of([2, 0, 3, 1], 2) == 1
    assert T.place_of([2, 0, 3, 1], 1) == 4


def test_rerank_raised_to_tie_goes_above():
    # ranking purple 5, blue 4, pink 0, orange 0; orange raised to 4 ties blue
    totals = [5, 4, 0, 4]
    assert T.rerank([PURPLE, BLUE, PINK, ORANGE], totals, ORANGE) == [PURPLE, ORANGE, BLUE, PINK]
    # pink raised to 5 ties purple (1st): goes to 1st, the others keep their order
    totals = [5, 4, 5, 0]
    assert T.rerank([PURPLE, BLUE, PINK, ORANGE], totals, PINK) == [PINK, PURPLE, BLUE, ORANGE]


def test_rerank_other_cases():
    # raised strictly between: goes just above the highest-placed colour with total <= it
    assert T.rerank([0, 1, 2, 3], [9, 4, 3, 6], 3) == [0, 3, 1, 2]
    # raised but still below the one above: stays
    assert T.rerank([0, 1, 2, 3], [9, 4, 3, 1], 3) == [0, 1, 2, 3]
    # raised to the top
    assert T.rerank([0, 1, 2, 3], [9, 4, 3, 12], 3) == [3, 0, 1, 2]
    # orange from 0 to 2, pink at 0 below blue: orange goes above pink only
    assert T.rerank([0, 1, 2, 3], [5, 3, 0, 2], 3) == [0, 1, 3, 2]
    # ties among the others keep their relative order
    assert T.rerank([1, 0, 2, 3], [3, 3, 3, 9], 3) == [3, 1, 0, 2]
    # input is not mutated
    r = [0, 1, 2, 3]
    T.rerank(r, [1, 1, 1, 5], 3)
    assert r == [0, 1, 2, 3]


def test_check_ranking():
    assert T.check_ranking([1, 0, 3, 2], [3, 4, 0, 0]) == [1, 0, 3, 2]
    with pytest.raises(ValueError):
        T.check_ranking([0, 1, 2, 3], [3, 4, 0, 0])
    with pytest.raises(ValueError):
        T.check_ranking([0, 1, 2], [3, 4, 0, 0])


# ------------------------------------------------------------------ majorities

MP = T.DEFAULT_PARAMS["majority_points"]


def test_majorities_dense_ties_share_and_next_gets_following():
    ranking = [PURPLE, BLUE, PINK, ORANGE]
    bouquets = [
        [(PURPLE, 2), (PURPLE, 3)],  # 2 cards, total 5
        [(PURPLE, 3), (PURPLE, 2)],  # 2 cards, total 5 -> tie with seat 0
        [(PURPLE, 4)],  # 1 card -> the following (2nd) majority
        [(ORANGE, 4)],  # no purple
    ]
    # 4 players: 2 majorities; purple 1st place: 15 / 10
    assert T.majorities(bouquets, ranking, 4, MP) == [15, 15, 10, 0]
    # 5 players: 3 majorities; seat 2 still only gets the 2nd majority (dense)
    bouquets5 = bouquets + [[(PURPLE, 2)]]
    assert T.majorities(bouquets5, ranking, 5, MP) == [15, 15, 10, 0, 5]
    # 2 players: 1 majority, shared by a full tie
    assert T.majorities(bouquets[:2], ranking, 2, MP) == [15, 15]


def test_majorities_count_then_total_value():
    ranking = [BLUE, PINK, PURPLE, ORANGE]
    bouquets = [
        [(BLUE, 2), (BLUE, 2), (PINK, 4)],  # blue: 2 cards total 4
        [(BLUE, 4), (PINK, 3), (PINK, 2)],  # blue: 1 card total 4
        [(BLUE, 3), (PINK, 2), (PINK, 2)],  # blue: 1 card total 3
    ]
    # blue (1st: 15/10): seat0 (count 2) first, seat1 (1 card, 4) second, seat2 nothing
    # pink (2nd: 10/7): seats 1 and 2 have 2 cards; totals 5 > 4 -> seat1 10, seat2 7
    # purple (3rd): nobody; orange 4th: never paid
    assert T.majorities(bouquets, ranking, 3, MP) == [15 + 0, 10 + 10, 7]
    awards = T.majority_awards(bouquets, ranking, 3, MP)
    assert (BLUE, 1, 0, 0, 15) in awards and (PINK, 2, 1, 2, 7) in awards


def test_majorities_place_values_and_fourth_place_never_paid():
    bouquets = [[(c, 2) for c in range(4)], []]
    mp = [[15, 10, 5], [10, 7, 4], [5, 3, 1], [99, 99, 99]]
    # 2 players: each colour's single majority goes to seat 0; 4th place is not paid
    assert T.majorities(bouquets, [3, 2, 1, 0], 2, mp) == [15 + 10 + 5, 0]
    # flat place-major table accepted
    flat = [x for row in mp for x in row]
    assert T.majorities(bouquets, [3, 2, 1, 0], 2, flat) == [30, 0]


def test_majorities_6p_three_majorities_with_ties():
    ranking = [PINK, ORANGE, BLUE, PURPLE]  # pink 1st: 15/10/5
    b = [[(PINK, 4)], [(PINK, 4)], [(PINK, 3)], [(PINK, 2)], [(PINK, 2)], []]
    # groups: {0,1} (1,4) -> 15; {2} (1,3) -> 10; {3,4} (1,2) -> 5
    assert T.majorities(b, ranking, 6, MP) == [15, 15, 10, 5, 5, 0]
    b[5] = [(PINK, 2), (PINK, 2)]  # seat 5: 2 cards -> first; everyone shifts down
    assert T.majorities(b, ranking, 6, MP) == [10, 10, 5, 0, 0, 15]


# ------------------------------------------------------------------ winner


def test_win_shares():
    assert T.win_shares([30, 20, 10], [5, 9, 9]) == [1.0, 0.0, 0.0]
    assert T.win_shares([30, 30, 10], [5, 6, 9]) == [0.0, 1.0, 0.0]
    assert T.win_shares([30, 30, 30], [6, 6, 5]) == [0.5, 0.5, 0.0]
    assert T.win_shares([7, 7, 7, 7], [3, 3, 3, 3]) == [0.25] * 4


# ------------------------------------------------------------------ a hand-checked game

# Small model: values 2,3,4, one base card each, no marked cards -> 12 cards,
# ids colour*3 + {0: value 2, 1: value 3, 2: value 4}.  1 card removed with 2 players:
# 1 removed + 2 festival + 4 dealt + 5 in the draw pile -> the last turn has one action.
SMALL = dict(base_per_value=1, marked_per_value=0, removed=[1, 1, 1, 1, 1])
SMALL_DECK = [
    11,  # removed: orange 4
    2, 4,  # festival: purple 4, blue 3
    6, 0,  # seat 0: pink 2, purple 2
    9, 5,  # seat 1: orange 2, blue 4
    1, 3, 7, 8, 10,  # pile: purple 3, blue 2, pink 3, pink 4, orange 3
]
SMALL_DECISIONS = [("give", 1), ("keep",), ("open",), ("give", 0), ("keep",)]


def test_hand_checked_small_game():
    out = T.replay(SMALL_DECK, 2, [PURPLE, BLUE, ORANGE, PINK], [1, 0], SMALL_DECISIONS,
                   [5, 6], **SMALL)
    # t1 seat0: purple 3 given to seat1, purple 1st: 3 + 3 = 6; blue 2 kept, blue 2nd: 0
    # t2 seat1: pink 3 opened -> pink 3 ties blue 3 -> P, Pk, B, O; pink 4 given to
    #    seat0, pink 2nd: 4 + 2 = 6
    # t3 seat0: orange 3 kept, orange 4th: 2; the pile is empty -> game over
    # reveal blue 4 (blue 7 -> 1st), pink 2 (pink 5 -> above purple 4): B, Pk, P, O
    # 2p majorities: blue seat0 15, pink seat0 10, purple: seat1 (3) beats seat0 (2) 5
    assert out["turns"] == 3
    assert out["keep_points"] == [2, 0]
    assert out["give_points"] == [6, 6]
    assert out["majority_points"] == [25, 5]
    assert out["points"] == [33, 11]
    assert out["tulips"] == [4, 2]
    assert out["win_share"] == [1.0, 0.0]
    assert out["final_ranking"] == [BLUE, PINK, PURPLE, ORANGE]
    assert out["totals"] == [4, 7, 5, 0]
    assert sorted(out["bouquets"][0]) == [0, 3, 8, 10]
    assert sorted(out["bouquets"][1]) == [1, 9]
    assert ("open", 1, 7, 3, (PURPLE, PINK, BLUE, ORANGE)) in out["events"]
    # the other reveal order ends in the same place here
    out2 = T.replay(SMALL_DECK, 2, [PURPLE, BLUE, ORANGE, PINK], [1, 0], SMALL_DECISIONS,
                    [6, 5], **SMALL)
    assert out2["final_ranking"] == out["final_ranking"]
    # too few / too many decisions
    with pytest.raises(ValueError):
        T.replay(SMALL_DECK, 2, [0, 1, 3, 2], [1, 0], SMALL_DECISIONS[:-1], [5, 6], **SMALL)
    with pytest.raises(ValueError):
        T.replay(SMALL_DECK, 2, [0, 1, 3, 2], [1, 0], SMALL_DECISIONS + [("keep",)], [5, 6],
                 **SMALL)


def test_places_read_at_each_action():
    # the first card's open changes the place read by the second card's give
    out = T.replay(SMALL_DECK, 2, [PURPLE, BLUE, ORANGE, PINK], [1, 0],
                   SMALL_DECISIONS, [5, 6], **SMALL)
    gives = [e for e in out["events"] if e[0] == "give"]
    assert gives[1] == ("give", 1, 0, 8, 4 + 2)  # pink already 2nd when given


# ------------------------------------------------------------------ errors


def _deck_same_colour_festival(players):
    deck = T.card_ids(players)
    a, b = T.festival_positions(players)
    # two purple cards in the festival positions
    i, j = deck.index(0), deck.index(1)
    deck[a], deck[i] = deck[i], deck[a]
    j = deck.index(1)
    deck[b], deck[j] = deck[j], deck[b]
    return deck


def test_same_colour_festival_is_valueerror():
    for players in range(2, 7):
        deck = _deck_same_colour_festival(players)
        with pytest.raises(ValueError, match="festival"):
            T.replay(deck, players, [0, 1, 2, 3], [0] * players, [], [])
        with pytest.raises(ValueError):
            T.play(deck, players, "greedy", random.Random(0))


def _scripted_start():
    return dict(deck=SMALL_DECK, players=2, opening_order=[0, 1, 3, 2], setup_choices=[1, 0],
                secret_reveal_order=[5, 6])


@pytest.mark.parametrize("bad", [
    [("keep",), ("keep",)],
    [("give", 1), ("give", 1)],
    [("open",), ("secret",)],
    [("secret",), ("open",)],
    [("open",), ("open",)],
    [("give", 0)],  # seat 0 gives to itself
    [("give", 2)],  # no such seat
    [("give",)],
    [("discard",)],
])
def test_illegal_decisions_are_valueerror(bad):
    decisions = bad + SMALL_DECISIONS[len(bad):]
    with pytest.raises(ValueError):
        T.replay(decisions=decisions, **_scripted_start(), **SMALL)


def test_other_bad_inputs():
    s = _scripted_start()
    with pytest.raises(ValueError):  # ranking not sorted by total
        T.replay(**{**s, "opening_order": [1, 0, 2, 3]}, decisions=SMALL_DECISIONS, **SMALL)
    with pytest.raises(ValueError):  # setup choice not 0/1
        T.replay(**{**s, "setup_choices": [2, 0]}, decisions=SMALL_DECISIONS, **SMALL)
    with pytest.raises(ValueError):  # reveal: wrong count
        T.replay(**{**s, "secret_reveal_order": [5]}, decisions=SMALL_DECISIONS, **SMALL)
    with pytest.raises(ValueError):  # reveal: not a secret-festival card
        T.replay(**{**s, "secret_reveal_order": [5, 7]}, decisions=SMALL_DECISIONS, **SMALL)
    with pytest.raises(ValueError):  # reveal: repeated card
        T.replay(**{**s, "secret_reveal_order": [5, 5]}, decisions=SMALL_DECISIONS, **SMALL)
    with pytest.raises(ValueError):  # deck not a permutation
        T.replay(**{**s, "deck": SMALL_DECK[:-1] + [0]}, decisions=SMALL_DECISIONS, **SMALL)
    with pytest.raises(ValueError):
        T.make_params(nonsense=1)


def test_secret_reveal_takes_five_of_more():
    rng = random.Random(5)
    deck = T.shuffled_deck(4, rng)
    # everybody secrets on every first action -> 4 + 28 secret cards
    n_actions = 56
    decisions = [("secret",), ("keep",)] * (n_actions // 2)
    base = T.play(deck, 4, "greedy", random.Random(3))  # only for a legal opening order
    secret_cards = [deck[6 + 2 + 2 * s + 1] for s in range(4)] + deck[6 + 2 + 8:][0::2]
    reveal = secret_cards[:5]
    out = T.replay(deck, 4, base["opening_order"], [0, 0, 0, 0], decisions, reveal)
    assert len(out["secret_festival"]) == 32
    assert out["revealed"] == reveal and len(out["discarded"]) == 27
    with pytest.raises(ValueError):
        T.replay(deck, 4, base["opening_order"], [0, 0, 0, 0], decisions, secret_cards[:6])
    with pytest.raises(ValueError):
        T.replay(deck, 4, base["opening_order"], [0, 0, 0, 0], decisions, secret_cards[:4])
    # the totals are the festival plus exactly the revealed cards
    totals = [0] * 4
    for cid in [deck[6], deck[7]] + reveal:
        c, v = T.card(cid)
        totals[c] += v
    assert out["totals"] == totals


# ------------------------------------------------------------------ strategies


def _table_for(players, ranking, totals, scores=None, **params):
    t = T.Table(players, T.make_params(**params))
    t.ranking, t.totals = list(ranking), list(totals)
    if scores:
        t.give_points = list(scores)
    return t


def test_greedy_action_choices():
    # default model: give (value + bonus >= 2) always ties or beats keep (<= 2)
    t = _table_for(3, [0, 1, 2, 3], [5, 4, 3, 0], scores=[0, 4, 4])
    orange2 = 72  # orange, value 2, 4th place: give 2 + 0 = keep 0 + 2 -> give
    assert t.immediate_points(orange2, "give") == 2 == t.immediate_points(orange2, "keep")
    assert T.greedy_action(t, 0, orange2, None) == ("give", 1)
    # after a give: keep (0) ties open/secret (0) -> keep
    assert T.greedy_action(t, 0, 0, "give") == ("keep",)
    # after a keep: give
    assert T.greedy_action(t, 0, 0, "keep")[0] == "give"
    # after a festival action: give
    assert T.greedy_action(t, 0, 0, "festival")[0] == "give"
    # keep can win when its bonus is larger
    t2 = _table_for(3, [0, 1, 2, 3], [5, 4, 3, 0], keep_bonus=[0, 0, 1, 9])
    assert T.greedy_action(t2, 0, orange2, None) == ("keep",)
    # with no bonus at all and the give used: keep, open, secret all 0 -> keep
    t3 = _table_for(3, [0, 1, 2, 3], [5, 4, 3, 0], keep_bonus=[0, 0, 0, 0])
    assert T.greedy_action(t3, 0, orange2, "give") == ("keep",)
    # after keep with a negative give bonus making give < 0: open beats secret on tie
    t4 = _table_for(3, [0, 1, 2, 3], [5, 4, 3, 0], give_bonus=[0, 0, 0, -9])
    assert T.greedy_action(t4, 0, orange2, "keep") == ("open",)


def test_greedy_receiver_lowest_score_then_clockwise():
    t = _table_for(4, [0, 1, 2, 3], [5, 4, 3, 0], scores=[0, 5, 3, 3])
    assert T.greedy_receiver(t, 0) == 2  # seats 2 and 3 tie at 3: 2 is next clockwise
    assert T.greedy_receiver(t, 2) == 0  # seat 0 (score 0) is the lowest
    assert T.greedy_receiver(t, 3) == 0
    t.give_points = [4, 5, 3, 3]
    assert T.greedy_receiver(t, 2) == 3  # the giver's own score does not count
    t.give_points = [3, 5, 3, 3]
    assert T.greedy_receiver(t, 2) == 3  # 3, 0 tie at 3: 3 is next clockwise from 2
    assert T.greedy_receiver(t, 3) == 0


def test_greedy_setup():
    t = _table_for(2, [BLUE, PURPLE, PINK, ORANGE], [3, 4, 0, 0])
    blue2, purple4 = 24, 17
    assert T.greedy_setup(t, 0, [purple4, blue2]) == 1  # blue better ranked
    assert T.greedy_setup(t, 0, [blue2, purple4]) == 0
    blue4 = 24 + 12
    assert T.greedy_setup(t, 0, [blue2, blue4]) == 1  # same colour: higher value
    assert T.greedy_setup(t, 0, [blue2, blue2 + 1]) == 0  # identical: first card


# ------------------------------------------------------------------ whole games

TURNS = {2: 12, 3: 10, 4: 7, 5: 7, 6: 6}


def _check_conservation(deck, out):
    zones = (out["removed"] + out["open_festival"] + out["discarded"]
             + [c for b in out["bouquets"] for c in b])
    assert sorted(zones) == sorted(deck)
    assert sorted(out["revealed"] + out["discarded"]) == sorted(out["secret_festival"])
    assert set(out["revealed"]) <= set(out["open_festival"])
    # totals are exactly the open festival's values by colour
    totals = [0] * 4
    for cid in out["open_festival"]:
        c, v = T.card(cid)
        totals[c] += v
    assert out["totals"] == totals
    assert sorted(out["final_ranking"]) == [0, 1, 2, 3]
    for a, b in zip(out["final_ranking"], out["final_ranking"][1:]):
        assert out["totals"][a] >= out["totals"][b]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_turn_counts_and_conservation(players):
    rng = random.Random(100 + players)
    for strategies in ("greedy", "random"):
        for _ in range(3):
            deck = T.shuffled_deck(players, rng)
            out = T.play(deck, players, strategies, rng)
            assert out["turns"] == TURNS[players] * players
            assert len(out["decisions"]) == 2 * out["turns"]
            _check_conservation(deck, out)
            assert sum(out["tulips"]) == sum(len(b) for b in out["bouquets"])
            assert abs(sum(out["win_share"]) - 1.0) < 1e-12
            for s in range(players):
                assert out["points"][s] == (out["keep_points"][s] + out["give_points"][s]
                                            + out["majority_points"][s])
            n_secret = players + sum(1 for d in out["decisions"] if d[0] == "secret")
            assert len(out["secret_festival"]) == n_secret
            assert len(out["revealed"]) == min(n_secret, 5)


def _replay_from(deck, players, out, **params):
    return T.replay(deck, players, out["opening_order"], out["setup_choices"], out["decisions"],
                    out["secret_reveal_order"], **params)


KEYS = ("points", "keep_points", "give_points", "majority_points", "tulips", "win_share",
        "turns", "final_ranking", "totals", "events")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_replay_reproduces_play(players):
    rng = random.Random(7 * players)
    mixes = ["greedy", "random", [("greedy", "random")[s % 2] for s in range(players)]]
    for strategies in mixes:
        for _ in range(4):
            deck = T.shuffled_deck(players, rng)
            out = T.play(deck, players, strategies, rng)
            again = _replay_from(deck, players, out)
            for k in KEYS:
                assert again[k] == out[k], k


def test_play_is_deterministic_given_rng_and_random_strategy_differs():
    deck = T.shuffled_deck(4, random.Random(9))
    a = T.play(deck, 4, "random", random.Random(1))
    b = T.play(deck, 4, "random", random.Random(1))
    assert a["decisions"] == b["decisions"] and a["points"] == b["points"]
    g = T.play(deck, 4, "greedy", random.Random(1))
    # default greedy: give the first card, keep the second
    assert all(d[0] == "give" for d in g["decisions"][0::2])
    assert all(d == ("keep",) for d in g["decisions"][1::2])


def test_mid_turn_end_with_other_parameters():
    # 2p, removed 17 instead of 18: 49 pile cards -> 25 turns, the last with one action
    params = dict(removed=[17, 4, 6, 14, 10])
    rng = random.Random(4)
    deck = T.shuffled_deck(2, rng, **params)
    out = T.play(deck, 2, "random", rng, **params)
    assert out["turns"] == 25 and len(out["decisions"]) == 49
    _check_conservation(deck, out)
    again = _replay_from(deck, 2, out, **params)
    assert again["events"] == out["events"]


def test_strategy_and_player_errors():
    deck = T.shuffled_deck(3, random.Random(0))
    with pytest.raises(ValueError):
        T.play(deck, 3, "nonsense", random.Random(0))
    with pytest.raises(ValueError):
        T.play(deck, 3, ["greedy", "greedy"], random.Random(0))
    with pytest.raises(ValueError):
        T.play(deck, 7, "greedy", random.Random(0))


# ------------------------------------------------------------------ oracle interface


def test_play_script_is_replay_with_the_library_arguments():
    """``play_script`` takes the keyword arguments of the library's ``play_scripted``."""
    params = {"secret_reveal": 2, "give_bonus": [-5, -4, -6, -9]}
    for players, p in ((3, None), (5, params)):
        rng = random.Random(players)
        deck = T.shuffled_deck(players, rng, **(p or {}))
        out = T.play(deck, players, "random", rng, **(p or {}))
        got = T.play_script(deck=deck, players=players, opening_order=out["opening_order"],
                            setup_choices=out["setup_choices"], decisions=out["decisions"],
                            secret_reveal_order=out["secret_reveal_order"], params=p)
        for key in KEYS[:-1] + ("bouquets",):
            assert got[key] == out[key], key
        assert got["scores"] == out["points"] and "events" not in got
    with pytest.raises(ValueError, match="log"):
        T.play_script(deck, players, out["opening_order"], out["setup_choices"],
                      out["decisions"], out["secret_reveal_order"], params, log_decisions=True)
    with pytest.raises(ValueError, match="unknown parameter"):
        T.play_script(deck, players, out["opening_order"], out["setup_choices"],
                      out["decisions"], out["secret_reveal_order"], {"bonus": 1})

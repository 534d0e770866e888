"""Checks of the naive Anomia oracle (tests/naive/anomia.py) against docs/rules/anomia.md."""

import math
import random

import pytest

try:
    from tests.naive import anomia as A
except ImportError:  # pragma: no cover - depends on how pytest sets sys.path
    from naive import anomia as A

# Small hand-built compositions (8 symbols; zeros allowed).
NO_WILDS = []


def cps(*counts):
    counts = list(counts) + [0] * (8 - len(counts))
    return counts


# ----------------------------------------------------------------------------
# Deck
# ----------------------------------------------------------------------------

def test_default_deck_composition():
    deck = A.build_deck(4)
    assert deck == list(range(100))
    category = [c for c in deck if not A.is_wild(c)]
    wilds = [c for c in deck if A.is_wild(c)]
    assert len(category) == 92 and len(wilds) == 8
    counts = [0] * 8
    for c in category:
        (s,) = A.card_symbols(c)
        counts[s] += 1
    assert counts == [11, 11, 11, 11, 12, 12, 12, 12]
    on_wilds = [0] * 8
    for w in wilds:
        x, y = A.card_symbols(w)
        assert x != y
        on_wilds[x] += 1
        on_wilds[y] += 1
    assert on_wilds == [2] * 8
    # id assignment symbol by symbol, then wilds in wild_pairs order
    assert [A.card_symbols(c)[0] for c in (0, 10, 11, 21, 43, 44, 55, 56, 91)] == \
        [0, 0, 1, 1, 3, 4, 4, 5, 7]
    assert [A.card_symbols(c) for c in range(92, 100)] == list(A.DEFAULT_WILD_PAIRS)
    for p in (4, 5, 6):
        assert A.build_deck(p) == list(range(100))


def test_three_player_removal():
    deck = A.build_deck(3)
    every = range(100)
    expected = [c for c in every if not set(A.card_symbols(c)) & {6, 7}]
    assert deck == expected
    category = [c for c in deck if c < 92]
    wilds = [c for c in deck if c >= 92]
    assert len(category) == 92 - 24 == 68
    assert category == list(range(68))
    # (5,6), (6,7), (7,4) show 6 or 7: 5 wilds remain
    assert wilds == [92, 93, 94, 95, 96]
    assert A.build_deck(3, remove_symbols=[]) == list(range(100))
    assert A.build_deck(4, remove_symbols=[0]) == [
        c for c in every if 0 not in A.card_symbols(c)]


def test_bad_players():
    for p in (2, 7):
        with pytest.raises(ValueError):
            A.build_deck(p)


# ----------------------------------------------------------------------------
# Hand-built games
# ----------------------------------------------------------------------------
# Cascade deck: symbol 0 ids 0,1,2; symbol 1 ids 3,4; symbol 2 id 5; symbol 3 id 6.
CASCADE = dict(cards_per_symbol=cps(3, 2, 1, 1), wild_pairs=NO_WILDS, remove_symbols=[])
#   round 1: s0 draws 0 (sym0), s1 draws 3 (sym1), s2 draws 5 (sym2)
#   round 2: s0 draws 6 (sym3), s1 draws 1 (sym0), s2 draws 4 (sym1)
#   round 3: s0 draws 2 (sym0) -> matches s1 (card 1); s0 wins, takes 1;
#            s1's card 3 (sym1) now matches s2's card 4 -> cascade; s1 wins, takes 4.
CASCADE_DECK = [0, 3, 5, 6, 1, 4, 2]


def test_cascade():
    out = A.replay(CASCADE_DECK, 3, [0, 1], **CASCADE)
    assert out["winnings"] == [1, 1, 0]
    assert out["winnings_cards"] == [[1], [4], []]
    assert out["win_share"] == [0.5, 0.5, 0.0]          # shared win
    assert out["draws"] == out["turns"] == 7
    assert out["face_offs"] == 2
    assert out["cascades"] == 1
    assert out["longest_cascade"] == 2
    assert out["wild_face_offs"] == 0
    assert out["chains"] == [0, 0, 0, 0, 0, 0, 2]
    assert out["play_piles"] == [[0, 6, 2], [3], [5]]
    assert out["events"][-3:] == [("draw", 0, 2), ("face_off", 0, 1, 1), ("face_off", 1, 2, 4)]
    _check_conservation(out, CASCADE_DECK)


def test_cascade_depends_on_winner():
    # s1 wins the first face-off and takes s0's card 2; s0's top is 6 (sym3): no cascade
    out = A.replay(CASCADE_DECK, 3, [1], **CASCADE)
    assert out["face_offs"] == 1 and out["cascades"] == 0 and out["longest_cascade"] == 1
    assert out["winnings"] == [0, 1, 0]
    assert out["play_piles"] == [[0, 6], [3, 1], [5, 4]]
    _check_conservation(out, CASCADE_DECK)


def _check_conservation(out, deck):
    category = sorted(c for c in deck if c not in out["wilds_drawn"])
    held = sorted(c for p in out["play_piles"] for c in p) + \
        sorted(c for w in out["winnings_cards"] for c in w)
    assert sorted(held) == category
    assert sorted(out["wilds_drawn"]) == sorted(c for c in deck if c not in category)
    assert out["draws"] == len(deck)


def test_illegal_winners():
    for bad in ([0], [], [0, 1, 1], [0, 0], [2, 1], [0, 5]):
        with pytest.raises(ValueError):
            A.replay(CASCADE_DECK, 3, bad, **CASCADE)
    # a bad deck
    with pytest.raises(ValueError):
        A.replay(CASCADE_DECK[:-1], 3, [0, 1], **CASCADE)
    with pytest.raises(ValueError):
        A.replay(CASCADE_DECK + [0], 3, [0, 1], **CASCADE)


# Wild deck: symbol 0 id 0, symbol 1 id 1, symbol 2 id 2, wild (0,1) id 3.
WILD = dict(cards_per_symbol=cps(1, 1, 1), wild_pairs=[(0, 1)], remove_symbols=[])


def test_wild_face_off_and_same_player_draws_again():
    deck = [0, 1, 3, 2]
    out = A.replay(deck, 3, [1], **WILD)
    assert out["events"] == [
        ("draw", 0, 0), ("draw", 1, 1), ("wild", 2, 3),
        ("face_off", 1, 0, 0), ("draw", 2, 2)]       # seat 2 draws again after the wild
    assert out["draws"] == 4
    assert out["face_offs"] == 1 and out["wild_face_offs"] == 1
    assert out["chains"] == [0, 0, 1, 0]
    assert out["cascades"] == 0 and out["longest_cascade"] == 1
    assert out["winnings"] == [0, 1, 0]
    assert out["win_share"] == [0.0, 1.0, 0.0]
    assert out["play_piles"] == [[], [1], [2]]
    _check_conservation(out, deck)


def test_game_ends_on_wild_after_face_offs_resolve():
    # Last card is the wild: its face-off is resolved, then the game ends.
    deck = [0, 1, 2, 3]
    out = A.replay(deck, 3, [0], **WILD)
    assert out["events"][-2:] == [("wild", 0, 3), ("face_off", 0, 1, 1)]
    assert out["draws"] == 4 and out["face_offs"] == 1
    assert out["play_piles"] == [[0], [], [2]]
    with pytest.raises(ValueError):
        A.replay(deck, 3, [], **WILD)


def test_wild_replaced_and_match_through_wild():
    # symbols 0..3 one card each (ids 0..3); wilds (0,1)=4, (2,3)=5
    kw = dict(cards_per_symbol=cps(1, 1, 1, 1), wild_pairs=[(0, 1), (2, 3)],
              remove_symbols=[])
    deck = [4, 0, 5, 1, 2, 3]
    out = A.replay(deck, 3, [0], **kw)
    assert out["events"] == [
        ("wild", 0, 4), ("draw", 0, 0),        # s0 draws again after the wild
        ("wild", 1, 5), ("draw", 1, 1),        # (2,3) replaces (0,1): 0 vs 1 no match
        ("draw", 2, 2),
        ("draw", 0, 3), ("face_off", 0, 2, 2)]  # 3 vs 2 through the (2,3) wild
    assert out["wild_face_offs"] == 1
    assert out["active_wild"] == 5
    # with the old wild still active, 0 and 1 would have matched at once
    deck2 = [5, 0, 4, 1, 2, 3]
    out2 = A.replay(deck2, 3, [1], **kw)
    assert out2["events"][:5] == [
        ("wild", 0, 5), ("draw", 0, 0), ("wild", 1, 4), ("draw", 1, 1),
        ("face_off", 1, 0, 0)]


def test_same_symbol_match_is_not_a_wild_face_off():
    kw = dict(cards_per_symbol=cps(2, 1), wild_pairs=[(0, 1)], remove_symbols=[])
    # ids: sym0 0,1; sym1 2; wild 3
    deck = [3, 0, 2, 1]   # s0: wild, s0: 0; s1: 2 -> wild match; s2: ...
    out = A.replay(deck, 3, [0, 2], **kw)
    # s0 wins vs s1 (wild face-off), takes 2; s2 draws 1 (sym0) = s0's 0 (same symbol)
    assert out["events"][3:] == [("face_off", 0, 1, 2), ("draw", 2, 1), ("face_off", 2, 0, 0)]
    assert out["face_offs"] == 2 and out["wild_face_offs"] == 1
    assert out["cascades"] == 0 and out["longest_cascade"] == 1


def test_two_matches_assert():
    with pytest.raises(AssertionError):
        A.find_match([0, 0, 0], None)
    with pytest.raises(AssertionError):
        A.find_match([0, 1, 0], (0, 1))
    assert A.find_match([0, None, 0], None) == (0, 2)
    assert A.find_match([1, 2, 0], (0, 1)) == (0, 2)
    assert A.find_match([1, 2, 3], (0, 1)) is None


# ----------------------------------------------------------------------------
# Ties
# ----------------------------------------------------------------------------
# symbol 0 ids 0,1; symbol 1 id 2; symbol 2 id 3; wild (1,2) id 4.
TIE = dict(cards_per_symbol=cps(2, 1, 1), wild_pairs=[(1, 2)], remove_symbols=[])


def test_tiebreak_insert_top():
    # s0: 0, s1: 2, s2: 1 -> s0 vs s2 ties. Draw pile [4, 3]: tiebreak card is 3
    # (the wild above it stays), n = 1. Insert at 0 -> pile [3, 4].
    deck = [0, 2, 1, 4, 3]
    out = A.replay(deck, 3, [2, 0], tiebreaks=[(2, 0), None], **TIE)
    assert out["events"] == [
        ("draw", 0, 0), ("draw", 1, 2), ("draw", 2, 1),
        ("tiebreak", 2, 0, 3, 0), ("face_off", 2, 0, 0),
        ("draw", 0, 3),                       # tops: 3(sym2), 2(sym1), 1(sym0): no match
        ("wild", 1, 4), ("face_off", 0, 1, 2)]  # (1,2) wild: s0 vs s1
    assert out["face_offs"] == 2 and out["draws"] == 5
    assert out["winnings"] == [1, 0, 1]
    assert out["tiebreaks"] == [(2, 0), None]
    _check_conservation(out, deck)


def test_tiebreak_insert_bottom():
    deck = [0, 2, 1, 4, 3]
    out = A.replay(deck, 3, [2, 0], tiebreaks=[(2, 1), None], **TIE)
    assert out["events"] == [
        ("draw", 0, 0), ("draw", 1, 2), ("draw", 2, 1),
        ("tiebreak", 2, 0, 3, 1), ("face_off", 2, 0, 0),
        ("wild", 0, 4),                       # s0 has no card: no match
        ("draw", 0, 3), ("face_off", 0, 1, 2)]
    assert out["draws"] == 5


def test_tiebreak_without_card_and_bad_entries():
    deck = [0, 2, 1, 4, 3]
    # no category card: decided without a card
    kw = dict(cards_per_symbol=cps(2, 1), wild_pairs=[], remove_symbols=[])
    out = A.replay([0, 2, 1], 3, [0], tiebreaks=[(0, None)], **kw)
    assert out["events"][-2:] == [("tiebreak", 0, 2, None, None), ("face_off", 0, 2, 1)]
    with pytest.raises(ValueError):
        A.replay([0, 2, 1], 3, [0], tiebreaks=[(0, 0)], **kw)
    # tiebreak winner differs from face_off_winners
    with pytest.raises(ValueError):
        A.replay(deck, 3, [2, 0], tiebreaks=[(0, 0), None], **TIE)
    # insert position out of range / missing
    with pytest.raises(ValueError):
        A.replay(deck, 3, [2, 0], tiebreaks=[(2, 2), None], **TIE)
    with pytest.raises(ValueError):
        A.replay(deck, 3, [2, 0], tiebreaks=[(2, None), None], **TIE)
    # wrong length
    with pytest.raises(ValueError):
        A.replay(deck, 3, [2, 0], tiebreaks=[(2, 0)], **TIE)


# ----------------------------------------------------------------------------
# Face-up winnings
# ----------------------------------------------------------------------------
# symbol 0 ids 0,1,2; symbol 1 id 3; symbol 2 id 4; symbol 3 id 5.
FACE_UP = dict(cards_per_symbol=cps(3, 1, 1, 1), wild_pairs=[], remove_symbols=[])
#   round 1: s0 3 (sym1), s1 0 (sym0), s2 4 (sym2)
#   round 2: s0 5 (sym3), s1 1 (sym0), s2 2 (sym0) -> s1 vs s2
FACE_UP_DECK = [3, 0, 4, 5, 1, 2]


def test_face_down_winnings_on_face_up_deck():
    out = A.replay(FACE_UP_DECK, 3, [2, 2], **FACE_UP)
    assert out["winnings"] == [0, 0, 2]
    assert out["win_share"] == [0.0, 0.0, 1.0]
    with pytest.raises(ValueError):
        A.replay(FACE_UP_DECK, 3, [2, 1, 2, 2], **FACE_UP)


def test_winnings_face_up():
    # Face-down: s2 takes 1, then s1 takes s2's 2 -> s2's top 4 (sym2): chain ends.
    down = A.replay(FACE_UP_DECK, 3, [2, 1], **FACE_UP)
    assert down["face_offs"] == 2 and down["winnings"] == [0, 1, 1]
    # Face-up: s1 takes back 1 onto its own pile, where it matches s2's 2 (sym0) again.
    with pytest.raises(ValueError):
        A.replay(FACE_UP_DECK, 3, [2, 1], winnings_face_up=True, **FACE_UP)
    same = A.replay(FACE_UP_DECK, 3, [2, 2], winnings_face_up=True, **FACE_UP)
    assert same["play_piles"] == [[3, 5], [], [4, 2, 1, 0]]
    out = A.replay(FACE_UP_DECK, 3, [2, 1, 2, 2], winnings_face_up=True, **FACE_UP)
    assert out["events"][-4:] == [
        ("face_off", 2, 1, 1),   # s2 puts 1 on its pile: 1 (sym0) vs s1's 0 (sym0)
        ("face_off", 1, 2, 1),   # s1 takes 1 back: 1 vs s2's 2
        ("face_off", 2, 1, 1),
        ("face_off", 2, 1, 0)]   # s1 empty: chain ends
    assert out["play_piles"] == [[3, 5], [], [4, 2, 1, 0]]
    assert out["winnings_cards"] == [[], [], []]
    # score = cards on own pile not drawn by the seat: s2 holds 1 and 0 (drawn by s1)
    assert out["winnings"] == [0, 0, 2]
    assert out["win_share"] == [0.0, 0.0, 1.0]
    assert out["cascades"] == 1 and out["longest_cascade"] == 4
    # a card drawn by the seat itself and won back does not score
    out2 = A.replay(FACE_UP_DECK, 3, [2, 1, 1], winnings_face_up=True, **FACE_UP)
    # s2 takes 1, s1 takes it back, s1 takes 2: s1 pile [0, 1, 2]; s2 pile [4]
    assert out2["play_piles"] == [[3, 5], [0, 1, 2], [4]]
    assert out2["winnings"] == [0, 1, 0]


# ----------------------------------------------------------------------------
# Random model
# ----------------------------------------------------------------------------

def test_play_random_uniform_use():
    out = A.play_random(CASCADE_DECK, 3, iter([0.3, 0.7]), **CASCADE)
    # face-off (0,1): u=0.3 < 0.5 -> seat 0; face-off (1,2): u=0.7 -> seat 2
    assert out["face_off_winners"] == [0, 2]
    assert out["uniforms_used"] == 2
    p0 = math.exp(0.5) / (math.exp(0.5) + 1.0)
    out = A.play_random(CASCADE_DECK, 3, [p0 - 1e-9, 0.1], theta=[0.5, 0, 0], **CASCADE)
    assert out["face_off_winners"][0] == 0
    out = A.play_random(CASCADE_DECK, 3, [p0 + 1e-9, 0.1], theta=[0.5, 0, 0], **CASCADE)
    assert out["face_off_winners"][0] == 1
    with pytest.raises(ValueError):
        A.play_random(CASCADE_DECK, 3, [0.3], **CASCADE)


def test_play_random_ties():
    deck = [0, 2, 1, 4, 3]
    # face-off 1: u_tie=0.05<0.1 tie, u=0.9 -> seat 2 wins tiebreak, v=0.2 -> floor(0.4)=0
    # face-off 2: u_tie=0.5 no tie, u=0.1 -> seat 0
    out = A.play_random(deck, 3, [0.05, 0.9, 0.2, 0.5, 0.1], tie_prob=0.1, **TIE)
    assert out["tiebreaks"] == [(2, 0), None]
    assert out["face_off_winners"] == [2, 0]
    assert out["uniforms_used"] == 5
    ref = A.replay(deck, 3, [2, 0], tiebreaks=[(2, 0), None], **TIE)
    assert ref["events"] == out["events"]
    out = A.play_random(deck, 3, [0.05, 0.9, 0.99, 0.5, 0.1], tie_prob=0.1, **TIE)
    assert out["tiebreaks"][0] == (2, 1)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("face_up", [False, True])
def test_random_games_consistent(players, face_up):
    rng = random.Random(1000 * players + face_up)
    for _ in range(15):
        deck = A.build_deck(players)
        rng.shuffle(deck)
        theta = [rng.uniform(-1, 1) for _ in range(players)]
        tie_prob = rng.choice([0.0, 0.2])
        out = A.play_random(deck, players, (rng.random() for _ in iter(int, 1)),
                            theta=theta, tie_prob=tie_prob, winnings_face_up=face_up)
        ref = A.replay(deck, players, out["face_off_winners"], tiebreaks=out["tiebreaks"],
                       winnings_face_up=face_up)
        for key in ("winnings", "win_share", "draws", "face_offs", "cascades",
                    "longest_cascade", "wild_face_offs", "play_piles", "events"):
            assert ref[key] == out[key]
        _check_conservation(out, deck)
        assert abs(sum(out["win_share"]) - 1.0) < 1e-12
        assert out["face_offs"] == sum(out["chains"]) == len(out["face_off_winners"])
        assert len(out["chains"]) == out["draws"] == len(deck)
        assert out["longest_cascade"] == max(out["chains"])
        if not face_up:
            assert out["winnings"] == [len(w) for w in out["winnings_cards"]]
            assert sum(out["winnings"]) == out["face_offs"]
        else:
            assert sum(len(p) for p in out["play_piles"]) == \
                len([c for c in deck if not A.is_wild(c)])


# ----------------------------------------------------------------------------
# The oracle interface
# ----------------------------------------------------------------------------

def test_play_script_is_replay_with_the_library_arguments():
    """``play_script`` takes the keyword arguments of the library's ``play_scripted``: the deck
    and rule parameters in one ``params`` dict (the skill model's are accepted and unused)."""
    rng = random.Random(11)
    for players, face_up in ((3, False), (5, True)):
        deck = A.build_deck(players)
        rng.shuffle(deck)
        out = A.play_random(deck, players, (rng.random() for _ in iter(int, 1)), tie_prob=0.2,
                            winnings_face_up=face_up)
        params = {"winnings_face_up": face_up, "theta": [0.0] * players, "tie_prob": 0.2}
        got = A.play_script(deck=deck, players=players, face_off_winners=out["face_off_winners"],
                            params=params, tiebreaks=out["tiebreaks"])
        for key in ("winnings", "win_share", "draws", "face_offs", "cascades", "chains",
                    "longest_cascade", "wild_face_offs", "play_piles", "winnings_cards"):
            assert got[key] == out[key], key
        assert got["scores"] == out["winnings"]
        assert got["ties"] == sum(t is not None for t in out["tiebreaks"])
        assert "events" not in got
    with pytest.raises(ValueError, match="table"):
        A.play_script(deck, players, out["face_off_winners"], tiebreaks=out["tiebreaks"],
                      table=[[0]])
    with pytest.raises(ValueError, match="unknown parameter"):
        A.play_script(deck, players, out["face_off_winners"], params={"face_up": True})

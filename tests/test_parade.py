"""Parade: the kernel against the independent naive oracle (tests/naive/parade.py), game by
game, plus the rules page's worked examples and facts."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import montecards as mc
from montecards.games import parade
from montecards.games.parade import packed, rules, strategies
from montecards.games.parade.cards import N_CARDS, label
from tests.naive import parade as naive

SEED = 20261130


def kernel_game(seed: int, index: int, players: int, strategies: list[str], margin: int):
    """The deck order and decisions of one kernel game, read back from its trace."""
    events = mc.trace(
        "parade", seed=seed, index=index, players=players, strategies=strategies,
        params={"two_player_margin": margin},
    )
    script = parade.script_from_trace(events, players)
    return script["deck"], script["plays"], script["discards"], events


CASES = [
    (players, strategies, margin)
    for players in range(2, 7)
    for strategies in ("random", "greedy", "mixed")
    for margin in ((0, 1, 2) if players == 2 else (2,))
]


@pytest.mark.parametrize("players,strategy,margin", CASES)
def test_kernel_matches_naive_oracle(players, strategy, margin):
    """Same deck and decisions -> identical scores, collections, turns, trigger, shares.

    2,000+ games in all across 2-6 players, every strategy and every 2-player margin; for
    all-greedy games the oracle also makes the decisions itself and must choose the same.
    """
    n_games = 200 if players == 2 else 130
    strategies = {
        "random": ["random"] * players,
        "greedy": ["greedy"] * players,
        "mixed": [("greedy", "random")[s % 2] for s in range(players)],
    }[strategy]
    run = mc.simulate(
        "parade", n=n_games, players=players, strategies=strategies,
        params={"two_player_margin": margin}, seed=SEED + players, jobs=1, keep_games=True,
    )
    for index in range(n_games):
        deck, plays, discards, events = kernel_game(SEED + players, index, players, strategies, margin)
        expected = naive.replay(deck, players, plays, discards, two_player_margin=margin)
        row = run.games.iloc[index]
        assert [row[f"score_{s}"] for s in range(players)] == expected["scores"]
        assert [row[f"win_{s}"] for s in range(players)] == pytest.approx(expected["win_share"])
        assert row["turns"] == expected["turns"]
        assert bool(row["six_colours"]) == (expected["end_trigger"] == "six_colours")
        scripted = parade.play_scripted(deck, players, plays, discards, {"two_player_margin": margin})
        # a collection is an unordered pile (kept cards join in hand order, which is arbitrary)
        assert [sorted(c) for c in scripted["collections"]] == [sorted(c) for c in expected["collections"]]
        assert scripted["scores"] == expected["scores"]
        if strategy == "greedy":
            chosen = naive.play_greedy(deck, players, two_player_margin=margin)
            assert chosen["plays"] == plays
            assert [sorted(d) for d in chosen["discards"]] == [sorted(d) for d in discards]


DECK_VARIANTS = [
    {"colours": 5, "values": 9},
    {"colours": 4, "hand_size": 4, "discards": 1, "end_colours": 6},
    {"colours": 3, "values": 8, "hand_size": 3, "discards": 0, "end_colours": 2},
    {"discards": 3, "two_player_margin": 1},
    {"hand_size": 2, "discards": 1, "values": 6, "opening_parade": 3},
]


@pytest.mark.parametrize("variant", DECK_VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()))
def test_deck_parameters_match_naive_oracle(variant):
    """The deck parameters (colours, values, hand_size, discards): the kernel's games, replayed
    by the oracle, give the same scores, shares, turns and trigger; and in all-greedy games the
    oracle's own greedy makes the same plays and discards (every player count the deck allows)."""
    checked = 0
    for players in range(2, 7):
        try:
            parade.SPEC.resolve_params(players, variant)
        except mc.InputError:
            continue
        n_games = 25
        for strategy in ("greedy", "mixed"):
            names = ["greedy"] * players if strategy == "greedy" else [
                ("greedy", "random")[s % 2] for s in range(players)]
            run = mc.simulate("parade", n=n_games, players=players, strategies=names, params=variant,
                              seed=SEED, jobs=1, keep_games=True)
            for index in range(n_games):
                events = mc.trace("parade", seed=SEED, index=index, players=players, strategies=names,
                                  params=variant)
                script = parade.script_from_trace(events, players, variant)
                expected = naive.play_script(**script)
                row = run.games.iloc[index]
                assert [row[f"score_{s}"] for s in range(players)] == expected["scores"]
                assert [row[f"win_{s}"] for s in range(players)] == pytest.approx(expected["win_share"])
                assert row["turns"] == expected["turns"]
                assert bool(row["six_colours"]) == (expected["end_trigger"] == "six_colours")
                if strategy == "greedy":
                    chosen = naive.play_greedy(script["deck"], players, variant.get("two_player_margin", 2),
                                               **{k: v for k, v in variant.items() if k != "two_player_margin"})
                    assert chosen["plays"] == script["plays"]
                    assert [sorted(d) for d in chosen["discards"]] == [sorted(d) for d in script["discards"]]
                checked += 1
    assert checked >= 50


def test_deck_parameters_refused_in_one_line():
    """Values above the official maxima, and settings whose deal leaves no draw pile or whose
    discard exceeds the final hand, are refused naming the parameter."""
    for params, match in [
        ({"colours": 7}, "colours"), ({"values": 12}, "values"), ({"hand_size": 6}, "hand_size"),
        ({"hand_size": 0}, "hand_size"), ({"discards": 5}, "discards"), ({"colours": 0}, "colours"),
        ({"hand_size": 3, "discards": 3}, "discards"), ({"colours": 3, "values": 11}, "deck too small"),
    ]:
        with pytest.raises(mc.InputError, match=match):
            parade.SPEC.resolve_params(6, params)


def test_smaller_deck_deals_only_its_cards():
    """A 4-colour, 7-value deck: every card dealt, drawn or kept is red..green of value 0..6."""
    params = {"colours": 4, "values": 7, "hand_size": 4, "discards": 1}
    events = mc.trace("parade", seed=SEED, index=3, players=3, params=params)
    cards = {c for c in events["card"] if c}
    assert cards <= {naive.card_label((c, v)) for c in range(4) for v in range(7)}
    kept = events[events["event"] == "keep"]
    assert len(kept) == 3 * 2 and (events["event"] == "discard").sum() == 3


def test_rollout_games_match_naive_oracle():
    """The stronger strategy's games obey the same rules (a few games: it is slow)."""
    strategies = ["rollout", "greedy", "random"]
    for index in range(6):
        deck, plays, discards, _ = kernel_game(SEED, index, 3, strategies, 2)
        expected = naive.replay(deck, 3, plays, discards)
        assert parade.play_scripted(deck, 3, plays, discards)["scores"] == expected["scores"]


def test_removal_example_of_the_rules_page():
    parade_cards = ["green-0", "blue-5", "green-7", "red-3", "green-1", "red-2", "purple-0"]
    taken, left = parade.removal(parade_cards, "green-3")
    assert taken == ["green-0", "green-7", "red-3"]
    assert left == ["blue-5", "green-1", "red-2", "purple-0", "green-3"]


ALL_LABELS = [label(c) for c in range(N_CARDS)]


@settings(max_examples=300, deadline=None)
@given(st.permutations(ALL_LABELS), st.integers(0, 20))
def test_removal_property_matches_oracle(cards, length):
    """Property: for any parade and played card, kernel removal == the oracle's."""
    played, parade_cards = cards[0], cards[1 : 1 + length]
    taken, left = parade.removal(parade_cards, played)
    expected_left, expected_taken = naive.resolve_play(parade_cards, played)
    assert taken == expected_taken
    assert left == expected_left


def test_scoring_example_of_the_rules_page():
    alice = ["red-10", "red-9", "red-8", "blue-10", "blue-9", "purple-7", "purple-6", "grey-5", "grey-6"]
    hatter = ["red-3", "purple-10", "purple-9", "green-10", "green-8", "orange-10", "orange-9",
              "orange-8", "orange-7"]
    cheshire = ["blue-0", "blue-1", "blue-2", "green-0", "green-1", "green-2", "grey-0", "grey-1",
                "grey-2", "orange-1", "purple-8", "red-7", "red-6"]
    result = parade.score([alice, hatter, cheshire])
    assert result["scores"] == [35, 27, 31]
    assert result["win_share"] == [0.0, 1.0, 0.0]


def state_with_collections(collections: list[list[int]], margin: int) -> np.ndarray:
    """A kernel state whose seats have collected the given card ids (one list per seat)."""
    players = len(collections)
    g = rules.new_state()
    g[rules.PLAYERS] = players
    g[rules.MARGIN] = margin if players == 2 else 0
    for seat, cards in enumerate(collections):
        for card in cards:
            rules.collect(g, seat, card)
    return g


@settings(max_examples=300, deadline=None)
@given(
    st.integers(2, 6).flatmap(
        lambda players: st.tuples(
            st.just(players),
            st.permutations(range(N_CARDS)).flatmap(
                lambda deck: st.lists(st.integers(0, 12), min_size=players, max_size=players).map(
                    lambda sizes: [deck[sum(sizes[:s]) : sum(sizes[: s + 1])] for s in range(len(sizes))]
                )
            ),
            st.integers(0, 2),
        )
    )
)
def test_packed_score_matches_oracle(case):
    """The packed collections: word-parallel score (greedy's), the rules' per-colour score,
    collection size and the six-colours test, against the oracle on random collections."""
    players, collections, margin = case
    g = state_with_collections(collections, margin)
    expected = naive.score_collections(
        [[label(c) for c in cards] for cards in collections], players, margin
    )
    for seat in range(players):
        counts = g[rules.COUNTS + seat]
        sums = g[rules.SUMS + seat]
        others = rules.other_best(g, seat)
        assert packed.packed_score(counts, sums, others, g[rules.MARGIN]) == expected[seat]
        assert rules.seat_score(g, seat) == expected[seat]
        assert rules.collection_size(g, seat) == len(collections[seat])
        assert rules.has_six_colours(g, seat) == (len({c // 11 for c in collections[seat]}) == 6)


@settings(max_examples=300, deadline=None)
@given(
    st.permutations(range(N_CARDS)),
    st.integers(0, 40),
    st.integers(0, 12),
    st.integers(0, 12),
    st.integers(2, 6),
    st.integers(0, 2),
)
def test_greedy_scores_every_play_like_the_oracle(deck, length, mine, theirs, players, margin):
    """greedy's tabulated takings (``tabulate_takings``/``score_after_play``): the score after
    each possible play equals the oracle's removal rule followed by the oracle's scoring."""
    parade_cards = list(deck[:length])
    collections = [list(deck[length : length + mine]), list(deck[length + mine : length + mine + theirs])]
    collections += [[] for _ in range(players - 2)]
    hand = list(deck[length + mine + theirs : length + mine + theirs + 5])
    g = state_with_collections(collections, margin)
    for i, card in enumerate(parade_cards):
        g[rules.PARADE + i] = card
    g[rules.PARADE_N] = length
    takings = strategies.new_takings()
    strategies.tabulate_takings(g, takings)
    others = rules.other_best(g, 0)
    for played in hand:
        _, taken = naive.resolve_play([label(c) for c in parade_cards], label(played))
        labels = [[label(c) for c in cards] for cards in collections]
        expected = naive.score_collections([labels[0] + taken] + labels[1:], players, margin)[0]
        threshold = packed.majority_threshold(others, g[rules.MARGIN])
        got = strategies.score_after_play(takings, length, played, g[rules.COUNTS], g[rules.SUMS], threshold)
        assert got == expected


@pytest.mark.parametrize(
    "mine,theirs,margin,majority",
    [(1, 0, 2, False), (2, 0, 2, True), (2, 2, 2, False), (3, 1, 2, True), (1, 0, 1, True),
     (2, 2, 1, False), (2, 2, 0, True), (0, 0, 0, False)],
)
def test_two_player_majority_margin(mine, theirs, margin, majority):
    """2 players: majority iff count >= 1 and count - opponent >= margin."""
    me = [f"red-{v}" for v in range(5, 5 + mine)]
    them = [f"red-{v}" for v in range(mine)][:theirs] if theirs <= mine else [f"red-{v}" for v in range(theirs)]
    them = [c for c in them if c not in me][:theirs]
    expected = mine if majority else sum(int(c.split("-")[1]) for c in me)
    assert parade.score([me, them], two_player_margin=margin)["scores"][0] == expected


def test_final_discard_pairs_mirror_their_complements():
    """``keep_cards`` and greedy's discard keep ``PAIRS[complement(p)]`` when ``PAIRS[p]`` is
    discarded: the two positions ``PAIRS[p]`` leaves."""
    pairs = rules.PAIRS
    assert sorted(map(tuple, pairs.tolist())) == sorted(itertools.combinations(range(4), 2))
    for p in range(len(pairs)):
        assert sorted(pairs[p].tolist() + pairs[rules.complement(p)].tolist()) == [0, 1, 2, 3]


@pytest.mark.parametrize("players", range(2, 7))
def test_deck_empty_games_have_60_minus_4p_turns(players):
    run = mc.simulate("parade", n=3000, players=players, strategies="random", seed=1, keep_games=True)
    games = run.games
    deck_empty = games[~games["six_colours"].astype(bool)]
    assert len(deck_empty) > 0
    assert (deck_empty["turns"] == 60 - 4 * players).all()
    six = games[games["six_colours"].astype(bool)]
    assert (six["turns"] <= 60 - 4 * players).all()


@pytest.mark.parametrize("players", [2, 4, 6])
def test_card_conservation(players):
    """Every card ends in exactly one place: collections, discards or the parade or the pile."""
    for index in range(40):
        deck, plays, discards, events = kernel_game(SEED, index, players, ["random"] * players, 2)
        collected = events.loc[events["event"].isin(["take", "keep"]), "card"].tolist()
        discarded = events.loc[events["event"] == "discard", "card"].tolist()
        out = parade.play_scripted(deck, players, plays, discards)
        in_parade = naive.replay(deck, players, plays, discards)["parade"]
        drawn = len(events.loc[events["event"].isin(["deal", "opening_parade", "draw"])])
        pile = N_CARDS - drawn
        assert len(collected) + len(discarded) + len(in_parade) + pile == N_CARDS
        assert len(set(collected) | set(discarded) | set(in_parade)) == N_CARDS - pile
        assert sum(len(c) for c in out["collections"]) == len(collected)


def test_play_scripted_rejects_illegal_input():
    deck = list(ALL_LABELS)
    random.Random(3).shuffle(deck)
    plays = [deck[0]] * 3
    with pytest.raises(ValueError, match="not in that seat's hand"):
        parade.play_scripted(deck, 2, [deck[0], deck[0]], [[deck[1], deck[2]]] * 2)
    with pytest.raises(ValueError, match="deck"):
        parade.play_scripted(deck[:-1], 2, plays, [[deck[1], deck[2]]] * 2)
    with pytest.raises(ValueError, match="unknown card"):
        parade.play_scripted(deck, 2, ["pink-3"], [[deck[1], deck[2]]] * 2)
    with pytest.raises(ValueError, match="too few plays"):
        parade.play_scripted(deck, 2, [deck[0], deck[5]], [[deck[1], deck[2]]] * 2)
    with pytest.raises(ValueError):
        parade.play_scripted(deck, 7, plays, [[deck[1], deck[2]]] * 7)


def test_play_scripted_output_form():
    deck, plays, discards, _ = kernel_game(SEED, 0, 3, ["greedy"] * 3, 2)
    out = parade.play_scripted(deck, 3, plays, discards)
    assert set(out) == {"scores", "collections", "turns", "end_trigger", "win_share"}
    assert out["end_trigger"] in ("six_colours", "deck_empty")
    assert sum(out["win_share"]) == pytest.approx(1.0)
    assert out["turns"] == len(plays)


@pytest.mark.parametrize("players", range(2, 7))
def test_script_from_trace_replays_the_traced_game(players):
    """``play_scripted(**script_from_trace(events, players, params))`` is the traced game."""
    mixes = (["greedy"] * players, ["random"] * players, ["random", "greedy"] * 3)
    for index in range(12):
        names = mixes[index % 3][:players]
        params = {"two_player_margin": index % 3}
        events, row = parade.trace(SEED, index, players, params, names)
        script = parade.script_from_trace(events, players, params)
        assert set(script) == {"deck", "players", "plays", "discards", "params"}
        assert sorted(script["deck"], key=naive.label_id) == list(ALL_LABELS)
        out = parade.play_scripted(**script)
        layout = parade.SPEC.layout(players)
        assert out["scores"] == row[layout.seat_slice("score")].tolist()
        assert out["win_share"] == (row[layout.seat_slice("win")] / 60).tolist()
        assert out["turns"] == row[0]
        assert out["end_trigger"] == events.loc[events["event"] == "last_round", "detail"].iloc[0]
        collected = [
            sorted(events.loc[events["event"].isin(["take", "keep"]) & (events["seat"] == s), "card"])
            for s in range(players)
        ]
        assert [sorted(c) for c in out["collections"]] == collected
    assert "params" not in parade.script_from_trace(events, players)


def test_rollout_beats_greedy_head_to_head():
    """The stronger strategy wins more than its fair share against greedy, seats rotated."""
    shares = []
    for seats in (["rollout", "greedy"], ["greedy", "rollout"]):
        res = mc.simulate("parade", n=300, players=2, strategies=seats, seed=99)
        shares.append(res.win_share[seats.index("rollout")])
    assert np.mean(shares) > 0.5


@pytest.mark.parametrize("discards", [0, 3])
def test_a_user_strategy_at_a_discard_without_move_ids_fails_its_run_in_one_line(discards):
    """Discards of 0, 3 or 4 cards have no move ids (view.other_discards): a user strategy asked
    there sees no legal move, and its run stops with one line (it scored every seat 0 before)."""
    from tests.inprocess import run_main

    proc = run_main("simulate", "parade", "-p", "3", "-n", "20", "--param", f"discards={discards}",
                    "-s", "montecards/strategies/parade_greedy.py:choose")
    assert proc.returncode == 2, proc.stdout
    assert "outside its 0 legal moves" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1

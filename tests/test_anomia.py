"""Anomia: the kernel against the naive oracle (tests/naive/anomia.py), game for game.

The kernel's deck order, face-off winners and tiebreaks are read from its trace and replayed
in the oracle; every output must agree. The random model (deck permutation, Bradley-Terry
face-offs, tie draws) is checked separately by feeding the oracle's ``play_random`` the very
uniforms of the game's face-off stream.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import montecards as mc
from montecards import rng
from montecards.engine.spec import WIN_UNIT, InputError
from montecards.games import anomia
from montecards.games.anomia import game as anomia_game
from montecards.games.anomia import kernel as K
from montecards.games.anomia.rules import TRACE_WIDTH
from tests.naive import anomia as oracle

SPEC = anomia.SPEC
MEDIUM_DECK = {
    "cards_per_symbol": [3, 3, 3, 3, 2, 2, 2, 2],
    "wild_pairs": [[0, 1], [2, 3], [4, 5], [6, 7], [0, 4]],
    "remove_symbols": [],
}
TINY_DECK = {
    "cards_per_symbol": [2, 2, 2, 2, 0, 0, 0, 0],
    "wild_pairs": [[0, 1], [1, 2], [2, 3], [3, 0]],
    "remove_symbols": [],
}

# (name, params, games per player count): 2,000+ games over 3-6 players and the variants
VARIANTS = [
    ("default", {}, 30),
    ("face_up", {"winnings_face_up": True}, 12),
    ("ties", {"tie_prob": 0.25}, 25),
    ("skills", {"theta": "uneven"}, 25),
    ("medium", dict(MEDIUM_DECK), 120),
    ("medium_all", dict(MEDIUM_DECK, tie_prob=0.3, winnings_face_up=True, theta="uneven"), 120),
    ("tiny_ties", dict(TINY_DECK, tie_prob=0.5), 120),
    ("tiny_face_up", dict(TINY_DECK, tie_prob=0.2, winnings_face_up=True), 120),
]
UNEVEN = [1.0, 0.0, -0.5, 0.3, -1.2, 0.6]


def params_for(variant: dict, players: int) -> dict:
    params = dict(variant)
    if params.get("theta") == "uneven":
        params["theta"] = UNEVEN[:players]
    return SPEC.resolve_params(players, params)


def oracle_kwargs(resolved: dict) -> dict:
    return {
        "cards_per_symbol": resolved["cards_per_symbol"],
        "wild_pairs": resolved["wild_pairs"],
        "remove_symbols": resolved["remove_symbols"],
        "winnings_face_up": resolved["winnings_face_up"],
    }


def kernel_trace(seed: int, index: int, players: int, packed: np.ndarray):
    """The raw events and the row of one game of a run (the kernel's own trace buffer)."""
    row = np.zeros(SPEC.layout(players).width, np.int64)
    size = 1024
    while True:
        buffer = np.zeros((size, TRACE_WIDTH), np.int64)
        K.trace_one(np.uint64(seed), index, players, packed, np.zeros(players, np.int64), row, buffer,
                    None, None, None)
        if buffer[0, 0] < size:
            return buffer[1 : buffer[0, 0] + 1], row
        size = int(buffer[0, 0]) + 1


def script_of(events: np.ndarray):
    """Deck order, face-off winners and tiebreaks (oracle form) read off a trace."""
    deck = [int(e[2]) for e in events if e[0] == K.EV_DECK]
    winners, tiebreaks, pending = [], [], None
    for kind, seat, card, _other, extra in events.tolist():
        if kind == K.EV_TIEBREAK:
            pending = (seat, None if card < 0 else extra)
        elif kind == K.EV_FACE_OFF:
            winners.append(seat)
            tiebreaks.append(pending)
            pending = None
    return deck, winners, tiebreaks


def chains_of(events: np.ndarray) -> list[int]:
    chains = []
    for kind in events[:, 0].tolist():
        if kind == K.EV_DRAW:
            chains.append(0)
        elif kind == K.EV_FACE_OFF:
            chains[-1] += 1
    return chains


def assert_same_game(events, row, out, players, label):
    layout = SPEC.layout(players)
    col = layout.column
    assert row[layout.seat_slice("score")].tolist() == out["winnings"], label
    assert (row[layout.seat_slice("win")] / WIN_UNIT).tolist() == pytest.approx(out["win_share"]), label
    assert row[col("turns")] == out["draws"] == out["turns"], label
    assert row[col("unfinished")] == 0, label
    for metric in ("face_offs", "cascades", "longest_cascade", "wild_face_offs"):
        assert row[col(metric)] == out[metric], (label, metric)
    assert row[col("ties")] == sum(t is not None for t in out["tiebreaks"]), label
    won = Counter(out["face_off_winners"])
    assert row[layout.seat_slice("won")].tolist() == [won[s] for s in range(players)], label
    assert chains_of(events) == out["chains"], label
    kernel_face_offs = [(s, o, c) for k, s, c, o, _ in events.tolist() if k == K.EV_FACE_OFF]
    oracle_face_offs = [e[1:] for e in out["events"] if e[0] == "face_off"]
    assert [(w, lo, c) for w, lo, c in kernel_face_offs] == [(w, lo, c) for w, lo, c in oracle_face_offs], (
        label
    )
    kernel_draws = [(s, c) for k, s, c, _, _ in events.tolist() if k == K.EV_DRAW]
    oracle_draws = [(e[1], e[2]) for e in out["events"] if e[0] in ("draw", "wild")]
    assert kernel_draws == oracle_draws, label


@pytest.mark.parametrize("name,variant,games", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_kernel_matches_oracle_game_for_game(name, variant, games):
    total_ties = 0
    for players in range(3, 7):
        resolved = params_for(variant, players)
        packed = SPEC.pack_params(players, resolved)
        seed = 1000 * players + len(name)
        run = np.zeros((games, SPEC.layout(players).width), np.int64)
        SPEC.run_chunk(np.uint64(seed), 0, players, packed, np.zeros(players, np.int64), run)
        for index in range(games):
            events, row = kernel_trace(seed, index, players, packed)
            assert np.array_equal(row, run[index]), "the trace replays the run's game"
            deck, winners, tiebreaks = script_of(events)
            out = oracle.replay(deck, players, winners, tiebreaks=tiebreaks, **oracle_kwargs(resolved))
            assert_same_game(events, row, out, players, (name, players, index))
            total_ties += row[SPEC.layout(players).column("ties")]
    if "tie_prob" in variant:
        assert total_ties > 0


def test_random_model_matches_oracle_play_random():
    """Deck = rng.shuffle of the cards in play (deck stream); face-offs consume the face-off
    stream's uniforms in the oracle's order (tie draw, Bradley-Terry draw, insert position)."""
    checked = 0
    for players in range(3, 7):
        for variant in ({"theta": "uneven", "tie_prob": 0.3}, dict(TINY_DECK, tie_prob=0.6, theta="uneven")):
            resolved = params_for(variant, players)
            packed = SPEC.pack_params(players, resolved)
            seed = 77 + players
            run = np.zeros((15, SPEC.layout(players).width), np.int64)
            SPEC.run_chunk(np.uint64(seed), 0, players, packed, np.zeros(players, np.int64), run)
            for index in range(15):
                state = rng.new_state()
                rng.seed_stream(state, np.uint64(seed), index, K.DECK_STREAM)
                deck = np.array(anomia.deck_in_play(players, resolved), np.int64)
                rng.shuffle(deck, state)
                fo_state = rng.new_state()
                rng.seed_stream(fo_state, np.uint64(seed), index, K.FACE_OFF_STREAM)
                uniforms = iter(lambda state=fo_state: rng.uniform(state), None)
                out = oracle.play_random(
                    deck.tolist(),
                    players,
                    uniforms,
                    theta=resolved["theta"],
                    tie_prob=resolved["tie_prob"],
                    **oracle_kwargs(resolved),
                )
                layout = SPEC.layout(players)
                row = run[index]
                assert row[layout.seat_slice("score")].tolist() == out["winnings"]
                for metric in ("face_offs", "cascades", "longest_cascade", "wild_face_offs"):
                    assert row[layout.column(metric)] == out[metric]
                won = Counter(out["face_off_winners"])
                assert row[layout.seat_slice("won")].tolist() == [won[s] for s in range(players)]
                checked += 1
    assert checked == 120


def test_public_trace_and_scripted_play_agree_with_the_oracle():
    for players, variant in (
        (3, {}),
        (4, {"tie_prob": 0.4}),
        (5, {"winnings_face_up": True}),
        (6, dict(TINY_DECK, tie_prob=0.5)),
    ):
        resolved = params_for(variant, players)
        for index in range(5):
            events = mc.trace("anomia", seed=3, index=index, players=players, params=variant)
            inputs = anomia.replay_inputs(events)
            ours = anomia.play_scripted(
                inputs["deck"], players, inputs["face_off_winners"], variant, tiebreaks=inputs["tiebreaks"]
            )
            theirs = oracle.replay(
                inputs["deck"],
                players,
                inputs["face_off_winners"],
                tiebreaks=inputs["tiebreaks"],
                **oracle_kwargs(resolved),
            )
            for key in (
                "winnings",
                "win_share",
                "draws",
                "face_offs",
                "cascades",
                "longest_cascade",
                "wild_face_offs",
                "chains",
                "play_piles",
                "winnings_cards",
                "face_off_winners",
                "tiebreaks",
            ):
                assert ours[key] == theirs[key], key
            outcome = events.attrs["outcome"]
            assert outcome["face_offs"] == ours["face_offs"]
            assert [outcome[f"score_{k}"] for k in range(players)] == ours["winnings"]
            # the trace shows every draw, face-off and cascade
            assert (events["event"] == "draw").sum() == outcome["turns"]
            assert (events["event"] == "face_off").sum() == outcome["face_offs"]
            assert (events["event"] == "cascade").sum() == outcome["cascades"]
            assert events.loc[events["event"] == "face_off", "aux"].sum() == outcome["wild_face_offs"]


def test_long_face_up_chains_grow_the_trace_buffer(monkeypatch):
    players, params = 6, {"winnings_face_up": True}
    resolved = SPEC.resolve_params(players, params)
    rows = np.zeros((400, SPEC.layout(players).width), np.int64)
    SPEC.run_chunk(
        np.uint64(11), 0, players, SPEC.pack_params(players, resolved), np.zeros(players, np.int64), rows
    )
    longest = int(np.argmax(rows[:, SPEC.layout(players).column("face_offs")]))
    assert rows[longest, 2] > 4 * 100 + 64  # more events than the first buffer holds
    events, row = anomia.trace(11, longest, players, params)
    assert np.array_equal(row, rows[longest])
    assert (events["event"] == "face_off").sum() == row[2]
    monkeypatch.setattr(anomia_game, "TRACE_EVENTS_PER_CARD", 0)
    monkeypatch.setattr(anomia_game, "TRACE_EVENTS_EXTRA", 3)
    again, _ = anomia.trace(11, longest, players, params)
    assert again.equals(events)


def test_common_random_numbers_across_variants():
    decks = []
    for params in ({}, {"theta": [2.0, 0, 0, 0]}, {"tie_prob": 0.5}, {"winnings_face_up": True}):
        events, _ = anomia.trace(5, 9, 4, params)
        decks.append(events.loc[events["event"] == "deck", "card_id"].tolist())
    assert all(d == decks[0] for d in decks)


def test_default_deck_and_three_player_removal():
    assert anomia.deck_in_play(4) == list(range(100)) == oracle.build_deck(4)
    for players in (5, 6):
        assert anomia.deck_in_play(players) == list(range(100))
    three = anomia.deck_in_play(3)
    assert three == oracle.build_deck(3)
    assert three == list(range(68)) + [92, 93, 94, 95, 96]  # symbols 6, 7 and their wilds out
    assert SPEC.resolve_params(3, {})["remove_symbols"] == [6, 7]
    assert SPEC.resolve_params(4, {})["remove_symbols"] == []
    assert anomia.deck_in_play(3, {"remove_symbols": []}) == list(range(100))
    assert anomia.deck_in_play(4, {"remove_symbols": "0"}) == oracle.build_deck(4, remove_symbols=[0])
    events, _ = anomia.trace(8, 0, 3)
    assert sorted(events.loc[events["event"] == "deck", "card_id"]) == three


def test_scripted_hand_examples():
    # symbol 0: ids 0,1,2; symbol 1: 3,4; symbol 2: 5; symbol 3: 6; no wilds
    deck = dict(cards_per_symbol=[3, 2, 1, 1, 0, 0, 0, 0], wild_pairs=[], remove_symbols=[])
    out = anomia.play_scripted([0, 3, 5, 6, 1, 4, 2], 3, [0, 2], deck)
    # seat 0's card 2 matches seat 1's card 1; seat 1 loses and shows card 3 (symbol 1), which
    # matches seat 2's card 4: a cascade of 2
    assert out["winnings_cards"] == [[1], [], [3]]
    assert out["winnings"] == [1, 0, 1] and out["win_share"] == [0.5, 0.0, 0.5]
    assert (out["face_offs"], out["cascades"], out["longest_cascade"], out["wild_face_offs"]) == (2, 1, 2, 0)
    assert out["chains"] == [0, 0, 0, 0, 0, 0, 2]
    # a wild (0,1) drawn by seat 2 makes seats 0 and 1 match; seat 2 then draws again
    wild = dict(cards_per_symbol=[2, 2, 0, 0, 0, 0, 0, 0], wild_pairs=[[0, 1]], remove_symbols=[])
    out = anomia.play_scripted([0, 2, 4, 1, 3], 3, [1, 2, 0], wild)
    draws = out["events"].query("event == 'draw'")["seat"].tolist()
    assert draws == [0, 1, 2, 2, 0]
    assert out["winnings_cards"] == [[1], [0], [2]] and out["win_share"] == pytest.approx([1 / 3] * 3)
    assert (out["face_offs"], out["cascades"], out["longest_cascade"], out["wild_face_offs"]) == (3, 0, 1, 3)


def test_two_matches_at_once_are_caught():
    """No deck can make two matches at once (a new top matching two seats means those two
    already matched); the kernel still checks every change. An impossible opening table
    (seats 0 and 1 show symbol 0, seats 2 and 3 symbol 1) reaches the check."""
    deck = dict(cards_per_symbol=[2, 2, 1, 0, 0, 0, 0, 0], wild_pairs=[], remove_symbols=[])
    with pytest.raises(anomia.TwoMatchesError, match="two matches"):
        anomia.play_scripted([4], 4, [], deck, table=[[0], [1], [2], [3]])
    # in a run the game stops as unfinished and wins nobody anything
    resolved = SPEC.resolve_params(4, deck)
    rows = np.zeros((1, SPEC.layout(4).width), np.int64)
    err, _ = K.play_script(
        np.array([0, 1, 2, 3, 4]),
        4,
        SPEC.pack_params(4, resolved),
        np.zeros(0, np.int64),
        np.zeros(0, np.int64),
        np.array([0, 1, 2, 3]),
        rows,
        np.zeros((0, TRACE_WIDTH), np.int64),
    )
    assert err == K.ERR_TWO_MATCHES
    assert rows[0, K.COL_UNFINISHED] == 1 and rows[0, SPEC.layout(4).seat_slice("win")].sum() == 0
    # one match on the table is resolved before the first draw
    out = anomia.play_scripted([2, 4, 3], 4, [1, 2], deck, table=[[0], [1]])
    assert out["winnings_cards"] == [[], [0], [2], []]
    assert out["chains"] == [1, 0, 0, 1]  # the opening chain, then one per draw
    assert out["draws"] == 3 and out["events"].query("event == 'draw'")["aux"].tolist() == [0, 1, 2]


def test_play_scripted_replays_a_trace_from_script_from_trace():
    for players, variant in (
        (3, {}),
        (4, {"tie_prob": 0.4, "theta": [0.5, 0, 0, 0]}),
        (5, {"winnings_face_up": True}),
        (6, dict(TINY_DECK, tie_prob=0.5)),
    ):
        for index in range(4):
            events, row = anomia.trace(11, index, players, variant)
            script = anomia.script_from_trace(events, players, variant)
            replay = anomia.play_scripted(**script)
            assert replay["face_off_winners"] == script["face_off_winners"]
            assert replay["winnings"] == row[SPEC.layout(players).seat_slice("score")].tolist()
            assert replay["face_offs"] == int(row[K.COL_FACE_OFFS])
            assert replay["events"]["event"].tolist() == events["event"].tolist()
            old = anomia.replay_inputs(events)
            assert old == {k: script[k] for k in ("deck", "face_off_winners", "tiebreaks")}


def test_scripted_errors_are_clear():
    deck = list(range(100))
    with pytest.raises(ValueError, match="exactly once"):
        anomia.play_scripted(deck[:-1], 4, [])
    with pytest.raises(ValueError, match="face_off_winners too short"):
        anomia.play_scripted(deck, 4, [])
    good = anomia.replay_inputs(anomia.trace(1, 0, 4)[0])
    winners = good["face_off_winners"]
    with pytest.raises(ValueError, match="face_off_winners too long"):
        anomia.play_scripted(good["deck"], 4, winners + [0])
    wrong = list(winners)
    first = anomia.play_scripted(good["deck"], 4, winners)["events"].query("event == 'face_off'").iloc[0]
    wrong[0] = ({0, 1, 2, 3} - {int(first.seat), int(first.other)}).pop()
    with pytest.raises(ValueError, match=r"face_off_winners\[0\] = \d, but face-off 0 is between seats"):
        anomia.play_scripted(good["deck"], 4, wrong)
    with pytest.raises(ValueError, match="insert_position must be in 0"):
        anomia.play_scripted(
            good["deck"], 4, winners, tiebreaks=[(winners[0], 500)] + [None] * (len(winners) - 1)
        )
    with pytest.raises(ValueError, match="differs"):
        anomia.play_scripted(good["deck"], 4, winners, tiebreaks=[(9, 0)] + [None] * (len(winners) - 1))
    with pytest.raises(ValueError, match="unknown card"):
        anomia.play_scripted(["nope"] + deck[1:], 4, [])
    assert anomia.play_scripted([f"x#{c}" for c in good["deck"]], 4, winners)["face_off_winners"] == winners


@pytest.mark.parametrize(
    "players,params,needle",
    [
        (4, {"theta": [0.5, 0, 0]}, "theta needs 4 values"),
        (4, {"theta": "0.5,0,0,0,1"}, "theta needs 4 values"),
        (4, {"remove_symbols": [8]}, "unknown symbol 8"),
        (4, {"remove_symbols": "-1"}, "unknown symbol -1"),
        (4, {"wild_pairs": [[0, 9]]}, "unknown symbol 9"),
        (4, {"wild_pairs": "0-1,2-12"}, "unknown symbol 12"),
        (4, {"wild_pairs": [[3, 3]]}, "two different symbols"),
        (4, {"wild_pairs": [[1, 2, 3]]}, "two symbols"),
        (4, {"cards_per_symbol": [11, 11, 11, 11, 12, 12, 12, -1]}, "0..10000"),
        (4, {"cards_per_symbol": "1,2,3"}, "needs 8 counts"),
        (4, {"cards_per_symbol": [0] * 8}, "no category card"),
        (3, {"cards_per_symbol": [0, 0, 0, 0, 0, 0, 5, 5]}, "no category card"),
        (4, {"tie_prob": 1.5}, "tie_prob must be a finite number in"),
        (4, {"tie_prob": "x"}, "invalid value"),
        (4, {"winnings_face_up": "maybe"}, "invalid value"),
        (4, {"theta": "a,b,c,d"}, "invalid value"),
    ],
)
def test_bad_parameters_raise_one_clear_line(players, params, needle):
    with pytest.raises(InputError, match=needle) as info:
        mc.simulate("anomia", n=5, players=players, params=params, seed=1, jobs=1)
    assert "\n" not in str(info.value)


def test_cli_style_values_parse():
    resolved = SPEC.resolve_params(
        4,
        {
            "theta": "0.5,0,0,0",
            "wild_pairs": "0-1,2:3,4/5",
            "remove_symbols": "none",
            "winnings_face_up": "true",
            "tie_prob": "0.1",
            "cards_per_symbol": "1,1,1,1,1,1,1,1",
        },
    )
    assert resolved["theta"] == [0.5, 0.0, 0.0, 0.0]
    assert resolved["wild_pairs"] == [[0, 1], [2, 3], [4, 5]]
    assert resolved["remove_symbols"] == [] and resolved["winnings_face_up"] is True
    assert SPEC.resolve_params(4, {"wild_pairs": "0,1,2,3"})["wild_pairs"] == [[0, 1], [2, 3]]
    assert SPEC.resolve_params(4, resolved) == resolved  # canonical values pass again unchanged


def test_pile_entries_give_back_card_symbol_and_drawer():
    from montecards.games.anomia import rules

    for card in (0, 1, 91, 99, 80_999):
        for symbol in range(8):
            for drawer in range(6):
                entry = rules.pile_entry(card, symbol, drawer)
                assert rules.entry_card(entry) == card
                assert rules.entry_symbol(entry) == symbol
                assert rules.entry_drawer(entry) == drawer

"""Gift of Tulips: the kernel against the naive oracle, rules examples, parameters, scripts."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from montecards.engine.spec import WIN_UNIT, InputError
from montecards.games import tulips
from montecards.games.tulips import rules as R
from montecards.games.tulips.kernel import COL_GIVE, COL_KEEP, COL_MAJ, COL_TURNS

try:
    from tests.naive import tulips as T
except ImportError:  # tests/ not importable as a package
    from naive import tulips as T

SPEC = tulips.SPEC
STRATEGIES = ("random", "greedy", "majority")
PURPLE, BLUE, PINK, ORANGE = 0, 1, 2, 3
TURNS_PER_PLAYER = {2: 12, 3: 10, 4: 7, 5: 7, 6: 6}


def run_rows(players, strategies, n=200, seed=3, params=None, start=0):
    resolved = SPEC.resolve_params(players, params)
    names = SPEC.strategy_codes(players, strategies)
    rows = np.zeros((n, SPEC.layout(players).width), dtype=np.int64)
    SPEC.run_chunk(
        np.uint64(seed), start, players, SPEC.pack_params(players, resolved),
        SPEC.strategy_array(names), rows,
    )
    return rows


# --- kernel vs oracle, game for game ---------------------------------------------------------


class ScriptedRng:
    """Stands in for ``random.Random`` in the oracle's ``play``: it hands back the kernel's
    opening order, reveal order and, for non-greedy seats, the kernel's choices."""

    def __init__(self, opening, values, reveal):
        self.opening, self.values, self.reveal = list(opening), list(values), list(reveal)

    def shuffle(self, x):
        x[:] = self.opening  # already sorted by total: the stable sort keeps it

    def randrange(self, n):
        v = self.values.pop(0)
        assert 0 <= v < n
        return v

    def sample(self, population, k):
        assert len(self.reveal) == k
        return list(self.reveal)


ACTION_CLASS = {R.EV_KEEP: "keep", R.EV_GIVE: "give", R.EV_OPEN: "festival", R.EV_SECRET: "festival"}


def random_draws(raw, names, players, setup):
    """The kernel's choices of the non-greedy seats as the oracle's ``random`` strategy's
    ``randrange`` results (its documented draw order)."""
    values = [setup[s] for s in range(players) if names[s] != "greedy"]
    first = None
    for kind, seat, _card, _a, b, _c in raw.tolist():
        if kind == R.EV_TURN:
            first = None
        elif kind in ACTION_CLASS:
            if names[seat] != "greedy":
                values.append(T.allowed_classes(first).index(ACTION_CLASS[kind]))
                if kind == R.EV_GIVE:
                    values.append((b - seat - 1) % players)
                elif kind != R.EV_KEEP:
                    values.append(0 if kind == R.EV_OPEN else 1)
            first = ACTION_CLASS[kind]
    return values


def check_against_oracle(seed, index, players, names, params=None):
    raw, row = tulips.kernel_trace(seed, index, players, params, names)
    script = tulips.script_from_trace(raw, players)
    p = params or {}
    out = T.replay(
        script["deck"], players, script["opening_order"], script["setup_choices"],
        script["decisions"], script["secret_reveal_order"], **p,
    )
    layout = SPEC.layout(players)
    seat = {name: row[layout.seat_slice(name)].tolist() for name in layout.seat_block_names}
    context = (seed, index, players, names, params)
    assert seat["score"] == out["points"], context
    assert seat["keep_points"] == out["keep_points"], context
    assert seat["give_points"] == out["give_points"], context
    assert seat["majority_points"] == out["majority_points"], context
    assert seat["tulips"] == out["tulips"], context
    assert [w / WIN_UNIT for w in seat["win"]] == out["win_share"], context
    assert row[COL_TURNS] == out["turns"], context
    assert row[COL_KEEP] == sum(out["keep_points"]), context
    assert row[COL_GIVE] == sum(out["give_points"]), context
    assert row[COL_MAJ] == sum(out["majority_points"]), context
    assert row[1] == 0  # never unfinished
    # the oracle's own choosers: greedy seats must choose exactly what the kernel chose
    rng = ScriptedRng(
        script["opening_order"], random_draws(raw, names, players, script["setup_choices"]),
        script["secret_reveal_order"],
    )
    oracle_names = ["greedy" if n == "greedy" else "random" for n in names]
    chosen = T.play(script["deck"], players, oracle_names, rng, **p)
    assert chosen["setup_choices"] == script["setup_choices"], context
    assert chosen["decisions"] == script["decisions"], context
    assert chosen["points"] == out["points"], context
    return script, out


def test_kernel_matches_oracle_game_for_game():
    """2,000 games, 2-6 players, every strategy mix: the kernel's deck and decisions replayed
    in the oracle give identical results, and the oracle's greedy picks the kernel's moves."""
    rng = random.Random(20260530)
    for i in range(2000):
        players = 2 + i % 5
        names = [rng.choice(STRATEGIES) for _ in range(players)]
        check_against_oracle(99, i, players, names)


MODEL_VARIANTS = [
    # the pile empties in the middle of a turn; 5 values, other deck sizes
    dict(values=[1, 2, 3, 5], base_per_value=3, marked_per_value=1, removed=[3, 2, 1, 0, 5]),
    # negative bonuses: greedy opens festival cards; few reveals
    dict(secret_reveal=2, give_bonus=[-5, -4, -6, -9], keep_bonus=[-1, 0, -3, 1]),
    # zero values, no reveal, a flat majority table
    dict(values=[0, 4], secret_reveal=0, majority_points=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
    dict(removed=[17, 3, 5, 13, 9], secret_reveal=40),
]


@pytest.mark.parametrize("variant", range(len(MODEL_VARIANTS)))
def test_kernel_matches_oracle_other_models(variant):
    rng = random.Random(variant)
    for i in range(100):
        players = 2 + i % 5
        names = [rng.choice(STRATEGIES) for _ in range(players)]
        check_against_oracle(5 + variant, i, players, names, MODEL_VARIANTS[variant])


def test_play_scripted_matches_oracle():
    rng = random.Random(1)
    for i in range(60):
        players = 2 + i % 5
        names = [rng.choice(STRATEGIES) for _ in range(players)]
        params = MODEL_VARIANTS[0] if i % 3 == 0 else None
        script, out = check_against_oracle(1234, i, players, names, params)
        res = tulips.play_scripted(
            script["deck"], players, script["opening_order"], script["setup_choices"],
            script["decisions"], script["secret_reveal_order"], params,
        )
        assert res["scores"] == out["points"]
        assert res["keep_points"] == out["keep_points"]
        assert res["give_points"] == out["give_points"]
        assert res["majority_points"] == out["majority_points"]
        assert res["tulips"] == out["tulips"]
        assert res["win_share"] == out["win_share"]
        assert res["turns"] == out["turns"]
        assert res["final_ranking"] == out["final_ranking"]
        assert res["totals"] == out["totals"]
        assert [sorted(b) for b in res["bouquets"]] == [sorted(b) for b in out["bouquets"]]


# --- the run: turns, outputs, randomness ------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_turn_counts_and_outputs(players):
    rows = run_rows(players, (list(STRATEGIES) * 2)[:players], n=300)
    layout = SPEC.layout(players)
    assert (rows[:, COL_TURNS] == TURNS_PER_PLAYER[players] * players).all()
    assert (rows[:, 1] == 0).all()
    win = rows[:, layout.seat_slice("win")]
    assert (win.max(axis=1) > 0).all()
    winners = (win > 0).sum(axis=1)
    assert (win.sum(axis=1) == WIN_UNIT // winners * winners).all()
    score = rows[:, layout.seat_slice("score")]
    parts = sum(rows[:, layout.seat_slice(n)] for n in ("keep_points", "give_points", "majority_points"))
    assert (score == parts).all()
    assert (rows[:, COL_KEEP] == rows[:, layout.seat_slice("keep_points")].sum(axis=1)).all()
    assert (rows[:, COL_MAJ] == rows[:, layout.seat_slice("majority_points")].sum(axis=1)).all()
    # every card drawn lands in a bouquet, the festival or the secret festival
    tulips_total = rows[:, layout.seat_slice("tulips")].sum(axis=1)
    assert (tulips_total >= players).all()
    assert (tulips_total <= players + 2 * TURNS_PER_PLAYER[players] * players).all()


def test_same_seed_same_deal_whatever_the_strategies():
    a, _ = tulips.kernel_trace(8, 17, 4, None, ["greedy"])
    b, _ = tulips.kernel_trace(8, 17, 4, None, ["random", "majority", "greedy", "random"])
    sa, sb = tulips.script_from_trace(a, 4), tulips.script_from_trace(b, 4)
    assert sa["deck"] == sb["deck"]
    assert sa["opening_order"] == sb["opening_order"]


def test_trace_is_the_run_game_and_round_trips():
    rows = run_rows(5, ["majority", "greedy", "random", "greedy", "majority"], n=20, seed=77)
    events, row = tulips.trace(77, 13, 5, None, ["majority", "greedy", "random", "greedy", "majority"])
    assert (row == rows[13]).all()
    raw, _ = tulips.kernel_trace(77, 13, 5, None, ["majority", "greedy", "random", "greedy", "majority"])
    assert tulips.script_from_trace(events, 5) == tulips.script_from_trace(raw, 5)
    for name in ("draw", "keep", "give", "ranking", "reveal", "majority", "removed"):
        assert name in set(events["event"])
    random_events, _ = tulips.trace(77, 14, 5, None, ["random"])
    assert {"open", "secret", "discard"} <= set(random_events["event"])
    gifts = events[events.event == "give"]
    assert ((gifts.receiver >= 0) & (gifts.receiver != gifts.seat)).all()
    assert sorted(tulips.script_from_trace(raw, 5)["deck"]) == list(range(96))


def test_a_trace_that_overflows_its_buffer_raises_or_is_played_again(monkeypatch):
    """``engine/trace.py``'s rule: a game with more events than the buffer holds is counted on
    and reading it raises, never a silently cut trace; the engine's ``trace_buffer`` then plays
    the game again in a buffer of its length."""
    import dataclasses

    from montecards.engine.trace import TraceOverflowError, events_of
    from montecards.games.tulips import game

    full, _ = tulips.kernel_trace(77, 13, 4, None, ["greedy"])
    small = 10
    assert full.shape[0] > small
    buffer = np.zeros((small + 1, R.TRACE_COLS), np.int64)
    SPEC.play_traced(77, 13, 4, None, ["greedy"], buffer)
    with pytest.raises(TraceOverflowError, match=f"recorded {full.shape[0]} events, more than .* {small}"):
        events_of(buffer)
    made = []

    def tiny(players, params):
        made.append(players)
        return np.zeros((small + 1, R.TRACE_COLS), np.int64)

    monkeypatch.setattr(game, "SPEC", dataclasses.replace(game.SPEC, new_trace=tiny))
    assert (tulips.kernel_trace(77, 13, 4, None, ["greedy"])[0] == full).all() and made == [4]


def test_script_from_trace_replays_the_game():
    """``play_scripted(**script_from_trace(...))`` replays a traced game: the same row."""
    for index, (players, params) in enumerate([(2, None), (4, MODEL_VARIANTS[0]), (6, MODEL_VARIANTS[1])]):
        names = (list(STRATEGIES) * 2)[:players]
        events, row = tulips.trace(21, index, players, params, names)
        out = tulips.play_scripted(**tulips.script_from_trace(events, players, params))
        layout = SPEC.layout(players)
        assert out["scores"] == row[layout.seat_slice("score")].tolist()
        assert out["tulips"] == row[layout.seat_slice("tulips")].tolist()
        assert out["turns"] == row[COL_TURNS]
        assert (out["events"].drop(columns="turn").values == events.drop(columns="turn").values).all()


def test_festival_colours_differ_and_opening_sorted():
    for index in range(200):
        raw, _ = tulips.kernel_trace(4, index, 3, None, ["greedy"])
        script = tulips.script_from_trace(raw, 3)
        fest = script["deck"][4:6]
        assert fest[0] // 24 != fest[1] // 24
        T.check_ranking(script["opening_order"], [
            sum(T.card(c)[1] for c in fest if T.card(c)[0] == colour) for colour in range(4)
        ])


# --- rules examples ---------------------------------------------------------------------------


def state_with(ranking, totals, players=4):
    g = R.new_state()
    for p, c in enumerate(ranking):
        g[R.RANK + p] = c
        g[R.PLACE + c] = p
    for c, t in enumerate(totals):
        g[R.TOTALS + c] = t
    g[R.PLAYERS] = players
    g[R.N_MAJ] = 1 if players == 2 else (2 if players <= 4 else 3)
    mp = [15, 10, 5, 10, 7, 4, 5, 3, 1, 0, 0, 0]
    for k, x in enumerate(mp):
        g[R.MAJ_TABLE + k] = x
    return g


def ranking_of(g):
    return [int(g[R.RANK + p]) for p in range(4)]


@pytest.mark.parametrize(
    "ranking, before, colour, value, expected",
    [
        # orange 0 -> 4 ties blue (2nd): ties favour the colour just raised
        ([PURPLE, BLUE, PINK, ORANGE], [5, 4, 0, 0], ORANGE, 4, [PURPLE, ORANGE, BLUE, PINK]),
        # pink 0 -> 5 ties purple (1st): pink goes 1st, the others keep their order
        ([PURPLE, BLUE, PINK, ORANGE], [5, 4, 0, 0], PINK, 5, [PINK, PURPLE, BLUE, ORANGE]),
        # raised but still below the colour above: no change
        ([PURPLE, BLUE, PINK, ORANGE], [9, 4, 3, 0], ORANGE, 1, [PURPLE, BLUE, PINK, ORANGE]),
        # to the top
        ([PURPLE, BLUE, PINK, ORANGE], [9, 4, 3, 0], ORANGE, 12, [ORANGE, PURPLE, BLUE, PINK]),
        # ties among the others keep their relative order
        ([BLUE, PURPLE, PINK, ORANGE], [3, 3, 3, 0], ORANGE, 9, [ORANGE, BLUE, PURPLE, PINK]),
        # the leader raised stays 1st
        ([PURPLE, BLUE, PINK, ORANGE], [9, 4, 3, 0], PURPLE, 2, [PURPLE, BLUE, PINK, ORANGE]),
    ],
)
def test_rerank_examples(ranking, before, colour, value, expected):
    g = state_with(ranking, before)
    changed = R.raise_colour(g, colour, value)
    assert ranking_of(g) == expected
    assert changed == (expected != ranking)
    assert [int(g[R.PLACE + c]) for c in expected] == [0, 1, 2, 3]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(0, 12), min_size=4, max_size=4),
    st.permutations(range(4)),
    st.integers(0, 3),
    st.integers(0, 6),
)
def test_rerank_property_matches_oracle(totals, perm, colour, value):
    """Property: from any ranking sorted by total (ties in any order), raising a colour gives
    the oracle's re-ranking, and the ranking stays sorted by total."""
    ranking = sorted(perm, key=lambda c: -totals[c])
    g = state_with(ranking, totals)
    R.raise_colour(g, colour, value)
    after = list(totals)
    after[colour] += value
    assert ranking_of(g) == T.rerank(ranking, after, colour)
    T.check_ranking(ranking_of(g), after)


def majorities_of(bouquets, ranking, players):
    g = state_with(ranking, [0, 0, 0, 0], players)
    for seat, cards in enumerate(bouquets):
        for colour, value in cards:
            g[R.COUNT + seat * 4 + colour] += 1
            g[R.VSUM + seat * 4 + colour] += value
    R.majorities(g, R.MAJ_PTS, np.zeros((0, R.TRACE_COLS), np.int64))
    return [int(g[R.MAJ_PTS + s]) for s in range(players)]


def test_majority_examples_dense_tie_rule():
    ranking = [PURPLE, BLUE, PINK, ORANGE]
    bouquets = [
        [(PURPLE, 2), (PURPLE, 3)],  # 2 cards, total 5
        [(PURPLE, 3), (PURPLE, 2)],  # 2 cards, total 5: tied with seat 0
        [(PURPLE, 4)],  # 1 card: the following (2nd) majority
        [(ORANGE, 4)],  # orange is 4th: never paid
    ]
    assert majorities_of(bouquets, ranking, 4) == [15, 15, 10, 0]
    assert majorities_of(bouquets + [[(PURPLE, 2)]], ranking, 5) == [15, 15, 10, 0, 5]
    assert majorities_of(bouquets[:2], ranking, 2) == [15, 15]
    # count first, then total value
    ranking = [BLUE, PINK, PURPLE, ORANGE]
    bouquets = [
        [(BLUE, 2), (BLUE, 2), (PINK, 4)],
        [(BLUE, 4), (PINK, 3), (PINK, 2)],
        [(BLUE, 3), (PINK, 2), (PINK, 2)],
    ]
    assert majorities_of(bouquets, ranking, 3) == [15, 20, 7]
    # 6 players, three majorities, ties
    ranking = [PINK, ORANGE, BLUE, PURPLE]
    b = [[(PINK, 4)], [(PINK, 4)], [(PINK, 3)], [(PINK, 2)], [(PINK, 2)], []]
    assert majorities_of(b, ranking, 6) == [15, 15, 10, 5, 5, 0]
    b[5] = [(PINK, 2), (PINK, 2)]
    assert majorities_of(b, ranking, 6) == [10, 10, 5, 0, 0, 15]


@settings(max_examples=400, deadline=None)
@given(
    st.integers(2, 6).flatmap(lambda players: st.lists(
        st.lists(st.tuples(st.integers(0, 3), st.sampled_from([2, 3, 4])), max_size=6),
        min_size=players, max_size=players,
    )),
    st.permutations(range(4)),
)
def test_majorities_property_match_oracle(bouquets, ranking):
    """Property: for any bouquets and ranking, the kernel pays the oracle's majorities."""
    players = len(bouquets)
    mp = T.DEFAULT_PARAMS["majority_points"]
    expected = T.majorities(bouquets, list(ranking), players, mp)
    assert majorities_of(bouquets, list(ranking), players) == expected


# Small model: values 2,3,4, one card each, no marked cards -> 12 cards, ids colour*3+{0,1,2}.
SMALL = dict(base_per_value=1, marked_per_value=0, removed=[1, 1, 1, 1, 1])
SMALL_DECK = [11, 2, 4, 6, 0, 9, 5, 1, 3, 7, 8, 10]
SMALL_DECISIONS = [("give", 1), ("keep",), ("open",), ("give", 0), ("keep",)]


def test_hand_checked_small_game():
    """The oracle's hand-checked game (tests/test_naive_tulips.py): a turn cut short by the
    empty pile, an open that ties and goes above, reveals one at a time, majorities."""
    out = tulips.play_scripted(SMALL_DECK, 2, [PURPLE, BLUE, ORANGE, PINK], [1, 0],
                               SMALL_DECISIONS, [5, 6], SMALL)
    assert out["turns"] == 3
    assert out["keep_points"] == [2, 0]
    assert out["give_points"] == [6, 6]
    assert out["majority_points"] == [25, 5]
    assert out["scores"] == [33, 11]
    assert out["tulips"] == [4, 2]
    assert out["win_share"] == [1.0, 0.0]
    assert out["final_ranking"] == [BLUE, PINK, PURPLE, ORANGE]
    assert out["totals"] == [4, 7, 5, 0]
    ev = out["events"]
    opened = ev[(ev.event == "ranking") & (ev.card == 7)]
    assert opened.ranking.iloc[0] == "purple>pink>blue>orange" and bool(opened.changed.iloc[0])


# --- scripted play: illegal input -------------------------------------------------------------


def scripted(**change):
    args = dict(deck=SMALL_DECK, players=2, opening_order=[PURPLE, BLUE, ORANGE, PINK],
                setup_choices=[1, 0], decisions=SMALL_DECISIONS, secret_reveal_order=[5, 6],
                params=SMALL)
    args.update(change)
    return tulips.play_scripted(**args)


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(deck=[11, 2, 0, 6, 4, 9, 5, 1, 3, 7, 8, 10]), "same colour"),
        (dict(deck=SMALL_DECK[:-1]), "deck must hold"),
        (dict(deck=SMALL_DECK[:-1] + [2]), "deck must hold"),
        (dict(opening_order=[BLUE, PURPLE, ORANGE, PINK]), "opening_order"),
        (dict(opening_order=[PURPLE, BLUE, ORANGE]), "opening_order"),
        (dict(setup_choices=[1, 2]), "setup choice"),
        (dict(setup_choices=[1]), "setup_choices"),
        (dict(decisions=SMALL_DECISIONS[:-1]), "ran out"),
        (dict(decisions=SMALL_DECISIONS + [("keep",)]), "left over"),
        (dict(decisions=[("give", 1), ("give", 0)] + SMALL_DECISIONS[2:]), "repeats"),
        (dict(decisions=[("open",), ("secret",)] + SMALL_DECISIONS[2:]), "repeats"),
        (dict(decisions=[("give", 0)] + SMALL_DECISIONS[1:]), "receiver"),
        (dict(decisions=[("give", 5)] + SMALL_DECISIONS[1:]), "receiver"),
        (dict(decisions=[("give",)] + SMALL_DECISIONS[1:]), "receiver"),
        (dict(decisions=[("dance",)] + SMALL_DECISIONS[1:]), "is not"),
        (dict(secret_reveal_order=[5]), "secret_reveal_order"),
        (dict(secret_reveal_order=[5, 5]), "secret_reveal_order"),
        (dict(secret_reveal_order=[5, 4]), "secret_reveal_order"),
        (dict(players=7), "players"),
    ],
)
def test_play_scripted_rejects_illegal_input(change, message):
    with pytest.raises(ValueError, match=message):
        scripted(**change)


# --- parameters -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params, message",
    [
        (dict(colours=4), "unknown parameter"),
        (dict(values=[]), "values"),
        (dict(values=[2, -3]), "values"),
        (dict(values=[2.5]), "values"),
        (dict(values="2,x"), "values"),
        (dict(base_per_value=0), "base_per_value"),
        (dict(marked_per_value=-1), "marked_per_value"),
        (dict(base_per_value=30, marked_per_value=5), "cards per colour"),
        (dict(removed=[18, 4, 6, 14]), "removed"),
        (dict(removed=[18, 4, 70, 14, 10]), "removed"),
        (dict(removed=[18, 4, -1, 14, 10]), "removed"),
        (dict(give_bonus=[3, 2, 1]), "give_bonus"),
        (dict(keep_bonus="0,0,1,x"), "keep_bonus"),
        (dict(majority_points=[15, 10, 5]), "majority_points"),
        (dict(majority_points=[[15, 10], [10, 7], [5, 3], [0, 0]]), "majority_points"),
        (dict(secret_reveal=-1), "secret_reveal"),
        (dict(secret_reveal=True), "secret_reveal"),
    ],
)
def test_bad_parameters(params, message):
    with pytest.raises(InputError, match=message) as info:
        SPEC.resolve_params(4, params)
    assert "\n" not in str(info.value)


def test_parameters_from_text_and_defaults():
    p = SPEC.resolve_params(4, {"values": "1,2,3,5", "removed": "18,4,10,14,10",
                                "majority_points": "15,10,5,10,7,4,5,3,1,0,0,0",
                                "give_bonus": "4,2,1,0", "secret_reveal": "3"})
    assert p["values"] == [1, 2, 3, 5] and p["removed"][2] == 10 and p["secret_reveal"] == 3
    assert p["majority_points"] == [[15, 10, 5], [10, 7, 4], [5, 3, 1], [0, 0, 0]]
    d = SPEC.resolve_params(4, None)
    assert d["values"] == [2, 3, 4] and d["base_per_value"] == 6 and d["marked_per_value"] == 2
    assert d["removed"] == [18, 4, 6, 14, 10] and d["give_bonus"] == [3, 2, 1, 0]
    assert d["keep_bonus"] == [0, 0, 1, 2] and d["secret_reveal"] == 5
    # a 3-row table: the 4th place pays nothing
    p = SPEC.resolve_params(2, {"majority_points": [[9, 0, 0], [6, 0, 0], [3, 0, 0]]})
    assert p["majority_points"][3] == [0, 0, 0]
    assert SPEC.default_players == 4 and SPEC.default_strategy == "greedy"
    # + tests/test_weighted_tulips.py and tests/test_tulips_search.py
    assert set(SPEC.strategies) == set(STRATEGIES) | {"weighted", "tuned", "ismcts", "omniscient"}
    with pytest.raises(InputError, match="strategy"):
        SPEC.strategy_codes(4, ["greedy", "nope"])

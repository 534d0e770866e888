"""Gift of Tulips' decision interface (montecards/games/tulips/view.py).

* every logged decision of many seeded games (2-6 players, every strategy mix, other card
  models) has a legal choice, and the legal list is what the rules allow;
* the interface twins of the built-ins (montecards/strategies/tulips_greedy.py,
  tulips_majority.py and tulips_random.py), reading only ``obs`` and ``legal``, choose
  exactly what the built-in ``greedy`` and ``majority`` chose; ``random``'s twin, fed the
  seat's choice stream, draws exactly the built-in's moves;
* the observation hides what it must: the deck order, the removed cards and the other seats'
  secret-festival cards can change without changing any observation of the seat.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from montecards.engine.decisions import NO_CHOICE
from montecards.engine.user_strategies import load_module
from montecards.games import tulips
from montecards.games.tulips import kernel, view
from montecards.rng import seed_stream

ROOT = Path(__file__).resolve().parent.parent
STRATEGIES = ("random", "greedy", "majority")
NO_PARAMS = np.zeros(0, np.float64)


def load_example(name: str):
    path = ROOT / "montecards" / "strategies" / f"{name}.py"  # a built-in's twin
    if not path.exists():
        path = ROOT / "examples" / "strategies" / f"{name}.py"
    return load_module(path)  # the strategy loader's module name: numba's cache expects it


GREEDY = load_example("tulips_greedy").choose
MAJORITY = load_example("tulips_majority").choose
RANDOM = load_example("tulips_random").choose  # fed the game's choice stream below


TWINS = {"greedy": GREEDY, "majority": MAJORITY}

MODELS = [
    None,
    dict(values=[1, 2, 3, 5], base_per_value=3, marked_per_value=1, removed=[3, 2, 1, 0, 5]),
    dict(secret_reveal=2, give_bonus=[-5, -4, -6, -9], keep_bonus=[-1, 0, -3, 1]),
    dict(values=[0, 4], secret_reveal=0, majority_points=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
]


def games(n: int, seed: int):
    """``n`` games: (seed, index, players, params, strategy names), mixed."""
    rng = random.Random(seed)
    for i in range(n):
        players = 2 + i % 5
        names = [rng.choice(STRATEGIES) for _ in range(players)]
        yield seed, i, players, MODELS[i % len(MODELS)], names


def expected_legal(d) -> list[int]:
    """The legal moves as the rules page says, in the documented order."""
    obs = d.obs
    seat, players = int(obs[view.OBS_SEAT]), int(obs[view.OBS_PLAYERS])
    if obs[view.OBS_KIND] == view.DECISION_SETUP:
        return [view.MOVE_SETUP + int(obs[view.OBS_HAND]), view.MOVE_SETUP + int(obs[view.OBS_HAND + 3])]
    first = int(obs[view.OBS_FIRST_CLASS])
    out = []
    if first != view.GIVE:
        out += [view.MOVE_GIVE + (seat + k) % players for k in range(1, players)]
    if first != view.KEEP:
        out.append(view.MOVE_KEEP)
    if first != view.OPEN:
        out += [view.MOVE_OPEN, view.MOVE_SECRET]
    return out


def check_game(seed, index, players, params, names, python_twins=False):
    ds = tulips.decisions(seed, index, players, params, names)
    assert [d.seat for d in ds[:players]] == list(range(players))  # set-up, seat by seat
    rng = np.zeros(4, np.uint64)
    seed_stream(rng, np.uint64(seed), index, kernel.CHOICE_STREAM)
    memory = np.zeros(4, np.float64)
    for d in ds:
        context = (seed, index, players, params, names, d.number)
        n = d.legal.shape[0]
        assert d.choice != NO_CHOICE and 0 <= d.choice < n, context
        assert d.legal.tolist() == expected_legal(d), context
        assert d.obs[view.OBS_SEAT] == d.seat and d.obs[view.OBS_PLAYERS] == players
        name = names[d.seat]
        if name == "random":
            assert RANDOM(d.obs, d.legal, NO_PARAMS, memory, rng) == d.choice, context
            continue
        twin = TWINS[name]
        assert twin(d.obs, d.legal, NO_PARAMS, memory, rng) == d.choice, context
        if python_twins:
            assert twin.py_func(d.obs, d.legal, NO_PARAMS, memory, rng) == d.choice, context
    return ds


def test_decisions_are_legal_and_the_twins_choose_as_the_built_ins():
    """600 games (2-6 players, every strategy mix, four card models): every decision legal,
    and every built-in's choice made again by its interface twin (compiled)."""
    count = 0
    for game in games(600, 20261201):
        count += len(check_game(*game))
    assert count > 600 * 20


def test_twins_in_plain_python():
    """The twins run as plain Python too (their ``py_func``) and choose the same."""
    for game in games(8, 7):
        check_game(*game, python_twins=True)


def test_the_documented_example_is_greedy():
    """The ``choose`` of docs/strategies/tulips.md chooses as the built-in greedy."""
    text = (ROOT / "docs" / "strategies" / "tulips.md").read_text()
    code = text.split("```python\n", 1)[1].split("```", 1)[0].replace("cache=True", "cache=False")
    namespace: dict = {}
    exec(compile(code, "docs/strategies/tulips.md", "exec"), namespace)
    choose = namespace["choose"]
    memory, rng = np.zeros(1), np.zeros(4, np.uint64)
    for seed, index, players, params, _names in games(20, 9):
        for d in tulips.decisions(seed, index, players, params, ["greedy"]):
            assert choose(d.obs, d.legal, NO_PARAMS, memory, rng) == d.choice


def test_decision_counts_and_kinds():
    ds = tulips.decisions(5, 3, 4, None, ["greedy"])
    kinds = [int(d.obs[view.OBS_KIND]) for d in ds]
    assert kinds == [view.DECISION_SETUP] * 4 + [view.DECISION_ACTION] * (7 * 4 * 2)
    assert [int(d.obs[view.OBS_STEP]) for d in ds[4:8]] == [0, 1, 0, 1]
    assert [int(d.obs[view.OBS_TURN]) for d in ds[4:8]] == [1, 1, 2, 2]
    assert [d.seat for d in ds[4:10]] == [0, 0, 1, 1, 2, 2]
    # the draw pile runs down one card per action, to 0 at the last one
    piles = [int(d.obs[view.OBS_PILE]) for d in ds[4:]]
    assert piles == list(range(len(piles) - 1, -1, -1))
    assert max(d.legal.shape[0] for d in tulips.decisions(5, 3, 6, None, ["random"])) == view.MAX_LEGAL


def test_move_codes_round_trip():
    for r in range(6):
        m = view.give_move(r)
        assert view.move_kind(m) == view.GIVE and view.move_action(m) == view.GIVE
        assert view.move_receiver(m) == r
    simple = ((view.keep_move(), view.KEEP), (view.open_move(), view.OPEN), (view.secret_move(), view.SECRET))
    for m, kind in simple:
        assert view.move_kind(m) == kind and view.move_action(m) == kind
    for card in (0, 95, 255):
        assert view.move_kind(view.setup_move(card)) == view.KIND_SETUP
        assert view.move_card(view.setup_move(card)) == card
    assert view.OBS_SIZE == 128 and view.MAX_LEGAL == 8


def test_observation_matches_the_trace():
    """The observation's public table agrees with the traced game: points so far from the
    keep/give events, bouquets from the bouquet events, festival totals from open events."""
    seed, index, players, names = 11, 4, 5, ["majority", "random", "greedy", "random", "majority"]
    raw, _ = tulips.kernel_trace(seed, index, players, None, names)
    ds = tulips.decisions(seed, index, players, None, names)
    points = [0] * players
    tulips_ = [0] * players
    secret = [0] * players
    totals = [0] * 4
    actions = iter(ds[players:])
    R = tulips.game.rules
    for kind, seat, card, a, b, _c in raw.tolist():
        if kind in (R.EV_FESTIVAL, R.EV_OPEN):
            totals[card // 24] = a
        elif kind == R.EV_SETUP:
            tulips_[seat] += 1
            secret[seat] += 1
        elif kind == R.EV_DRAW:
            d = next(actions)
            obs = d.obs
            assert obs[view.OBS_HAND] == card
            assert [view.obs_points(obs, s) for s in range(players)] == points
            assert [view.obs_tulips(obs, s) for s in range(players)] == tulips_
            assert [view.obs_total(obs, c) for c in range(4)] == totals
            assert view.obs_secret_size(obs) == sum(secret)
            assert sum(view.obs_own_secret_count(obs, c) for c in range(4)) == secret[seat]
        elif kind == R.EV_KEEP:
            points[seat] += a
            tulips_[seat] += 1
        elif kind == R.EV_GIVE:
            points[seat] += a
            tulips_[b] += 1
        elif kind == R.EV_SECRET:
            secret[seat] += 1


# --- the observation hides what it must ------------------------------------------------------


def scripted_log(script, players):
    assert script["players"] == players
    return tulips.play_scripted(**script, log_decisions=True)["decisions"]


def removed_count(players):
    return tulips.SPEC.resolve_params(players, None)["removed"][players - 2]


def secret_festival(script, players):
    """The secret festival's cards of a default-model script, in the order they were placed."""
    deck, removed = script["deck"], removed_count(players)
    hands = deck[removed + 2 : removed + 2 + 2 * players]
    secret = [hands[2 * s + 1 - script["setup_choices"][s]] for s in range(players)]
    pile = deck[removed + 2 + 2 * players :]
    return secret + [card for card, d in zip(pile, script["decisions"], strict=True) if d[0] == "secret"]


def test_obs_does_not_see_the_deck_order_or_the_removed_cards():
    """Shuffle the removed cards and the undrawn pile after the k-th action (the scripted
    decisions unchanged): every observation up to that action is the same."""
    rng = random.Random(3)
    for seed, index, players, params, names in games(40, 41):
        if params is not None:
            continue
        raw, _ = tulips.kernel_trace(seed, index, players, params, names)
        script = tulips.script_from_trace(raw, players)
        base = scripted_log(script, players)
        removed = removed_count(players)
        first_pile = removed + 2 + 2 * players
        k = rng.randrange(len(script["decisions"]) - 1)  # the k-th action draws pile card k
        deck = list(script["deck"])
        hidden = deck[:removed] + deck[first_pile + k + 1 :]
        rng.shuffle(hidden)
        deck[:removed] = hidden[:removed]
        deck[first_pile + k + 1 :] = hidden[removed:]
        other = dict(script, deck=deck)
        other["secret_reveal_order"] = secret_festival(other, players)[: len(script["secret_reveal_order"])]
        other_log = scripted_log(other, players)
        assert len(other_log) == len(base)
        for a, b in zip(base[: players + k + 1], other_log[: players + k + 1], strict=True):
            assert (a.obs == b.obs).all() and (a.legal == b.legal).all(), (seed, index, a.number)


def test_obs_does_not_see_other_seats_secret_cards():
    """Exchange seat j's set-up secret card with a removed card: no other seat's observation
    changes, at any decision; seat j's own observations do (it sees its own secret card) when
    the two cards differ in colour or value."""
    checked = 0
    rng = random.Random(5)
    for seed, index, players, params, names in games(40, 43):
        if params is not None:
            continue
        raw, _ = tulips.kernel_trace(seed, index, players, params, names)
        script = tulips.script_from_trace(raw, players)
        base = scripted_log(script, players)
        j = index % players
        deck = list(script["deck"])
        secret_at = removed_count(players) + 2 + 2 * j + 1 - script["setup_choices"][j]
        removed_at = rng.randrange(removed_count(players))
        was, now = deck[secret_at], deck[removed_at]
        deck[secret_at], deck[removed_at] = now, was
        reveal = [now if c == was else c for c in script["secret_reveal_order"]]
        other_log = scripted_log(dict(script, deck=deck, secret_reveal_order=reveal), players)
        assert len(base) == len(other_log)
        visible = (was // 24, card_value(was)) != (now // 24, card_value(now))
        for x, y in zip(base, other_log, strict=True):
            same = (x.obs == y.obs).all()
            assert same or x.seat == j, (seed, index, x.number)
            if x.seat == j and visible:
                assert not same  # its own secret card (or its hand at set-up): the seat sees it
                checked += 1
    assert checked > 0


def card_value(card):
    return tulips.game.card_value(card, [2, 3, 4], 6, 2)


@pytest.mark.parametrize("players", [2, 6])
def test_no_hidden_card_in_obs(players):
    """No card id of the removed cards, the undrawn pile or another seat's dealt cards is in
    the observation's hand slots (its only card-id fields)."""
    for seed, index, _p, _params, names in games(10, 47 + players):
        names = names[:1] * players
        raw, _ = tulips.kernel_trace(seed, index, players, None, names)
        script = tulips.script_from_trace(raw, players)
        ds = tulips.decisions(seed, index, players, None, names)
        removed = removed_count(players)
        deck = script["deck"]
        first_pile = removed + 2 + 2 * players
        for d in ds:
            hand = {int(d.obs[view.OBS_HAND]), int(d.obs[view.OBS_HAND + 3])} - {-1}
            drawn = 0 if d.number < players else d.number - players + 1
            unseen = set(deck[:removed]) | set(deck[first_pile + drawn :])
            unseen |= {c for s in range(players) if s != d.seat
                       for c in deck[removed + 2 + 2 * s : removed + 4 + 2 * s]}
            assert not hand & unseen

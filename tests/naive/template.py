"""Naive, slow, obviously-correct reference implementation ("oracle") of High card, the
template game.

Written only from the normative rules page ``docs/rules/template.md``; it does not import or
look at the fast kernel in ``montecards``. Plain Python, no numpy.

Vocabulary mirrors the rules page: a *card* is its number ``0 .. deck_size - 1`` (a higher
card beats a lower); a *hand* is the set of cards a seat holds; a *trick* is one card from
every seat, the *leader*'s first; the highest card *takes the trick* (1 point) and its seat
leads the next one. Most points wins; tied seats share the win.
"""

from fractions import Fraction

MIN_PLAYERS = 2
MAX_PLAYERS = 6
PARAMS = {"deck_size": 30, "hand_size": 5}
LIMITS = {"deck_size": (2, 60), "hand_size": (1, 10)}


def _rule_params(players, params):
    """The rule parameters with their defaults; ValueError on anything the page forbids."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"High card takes {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")
    params = dict(params or {})
    unknown = sorted(set(params) - set(PARAMS))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown}; allowed: {sorted(PARAMS)}")
    values = {name: params.get(name, default) for name, default in PARAMS.items()}
    for name, (low, high) in LIMITS.items():
        if not low <= values[name] <= high:
            raise ValueError(f"{name} must be from {low} to {high}, got {values[name]}")
    if players * values["hand_size"] > values["deck_size"]:
        raise ValueError("the deck must hold every hand: players * hand_size <= deck_size")
    return values


def deal(deck, players, hand_size):
    """Block dealing (rules: Setup): the first ``hand_size`` cards to seat 0, and so on."""
    return [list(deck[seat * hand_size:(seat + 1) * hand_size]) for seat in range(players)]


def trick_order(leader, players):
    """The seats of one trick in play order: the leader, then round the table."""
    return [(leader + i) % players for i in range(players)]


def win_shares(points):
    """Most points wins; the k seats tied for the most get 1/k each."""
    best = max(points)
    winners = [seat for seat, p in enumerate(points) if p == best]
    return [Fraction(1, len(winners)) if seat in winners else Fraction(0) for seat in range(len(points))]


def replay(deck, players, plays, deck_size=30, hand_size=5):
    """One game from an explicit deck (top first) and the card played at each turn.

    Returns ``scores`` (points), ``win_share``, ``turns`` (cards played), ``trick_takers``,
    ``led`` (tricks each seat led) and ``leader_tricks``. ValueError on an illegal script.
    """
    if sorted(deck) != list(range(deck_size)):
        raise ValueError(f"the deck must hold each of the cards 0 .. {deck_size - 1} once")
    hands = deal(deck, players, hand_size)
    points = [0] * players
    led = [0] * players
    takers = []
    leader_tricks = 0
    leader = 0
    turn = 0
    for _ in range(hand_size):
        led[leader] += 1
        played = []
        for seat in trick_order(leader, players):
            if turn >= len(plays):
                raise ValueError(f"too few plays: the script ends at turn {turn}")
            card = plays[turn]
            if card not in hands[seat]:
                raise ValueError(f"turn {turn}: seat {seat} does not hold card {card}")
            hands[seat].remove(card)
            played.append((card, seat))
            turn += 1
        _, taker = max(played)
        points[taker] += 1
        takers.append(taker)
        leader_tricks += taker == leader
        leader = taker
    if turn != len(plays):
        raise ValueError(f"too many plays: the game ended after {turn} turns, the script has {len(plays)}")
    return {
        "scores": points,
        "win_share": [float(share) for share in win_shares(points)],
        "turns": turn,
        "trick_takers": takers,
        "led": led,
        "leader_tricks": leader_tricks,
    }


def play_script(deck, players, plays, params=None):
    """The oracle interface every naive reference offers: one game from the keyword arguments
    of the library's scripted game (``play_scripted``), returning at least ``scores`` and
    ``win_share`` in the library's meaning.

    The script is already in this module's terms: ``deck`` (every card once, top first),
    ``plays`` (cards, all seats in play order) and ``params`` (``deck_size``, ``hand_size``).
    """
    values = _rule_params(players, params)
    return replay(list(deck), players, list(plays), **values)

"""Naive, slow, obviously-correct reference ("oracle") of Gift of Tulips.

Written only from ``docs/rules/tulips.md`` (normative) and ``docs/design.md``; it shares no
code with ``montecards``.  Plain Python, no numpy.  The fast kernel is checked
against :func:`replay` game by game.

Cards
-----
A card is ``(colour, value)``; colours ``purple, blue, pink, orange`` = ``0..3``.
Every card of the full set also has a stable integer **id**::

    id = colour * cards_per_colour + index          (cards_per_colour = 24 by default)

where, inside one colour, ``index`` runs over the base cards first -- values in the
order of ``values``, ``base_per_value`` cards each -- and then the marked
"5-6 players" cards -- values in order, ``marked_per_value`` each.  With the
default model::

    index  0.. 5  base, value 2        index 18..19  marked, value 2
    index  6..11  base, value 3        index 20..21  marked, value 3
    index 12..17  base, value 4        index 22..23  marked, value 4

so purple = ids 0..23, blue 24..47, pink 48..71, orange 72..95.  With 2-4 players
the deck is the 72 base cards (index < 18), with 5-6 players all 96 cards.

Decks are lists of ids, **top first**, laid out exactly as the rules page says:
``removed[players-2]`` removed cards, the 2 festival cards, 2 cards per seat in
seat order (the first is the seat's first card, its hand index 0), then the draw
pile (drawn from the top, i.e. in list order).

Places are 1-based (1 = 1st place ... 4 = 4th place); a ranking is the list of the
4 colours, 1st place first.  Bonus lists (``give_bonus``, ``keep_bonus``) are
indexed by ``place - 1``.

Readings of the rules chosen here (all documented where used)
-------------------------------------------------------------
* ``majority_points`` is a table indexed ``[place-1][k]``: the points of the
  (k+1)-th majority of the colour in that place.  The default
  ``[[15, 10, 5], [10, 7, 4], [5, 3, 1], [0, 0, 0]]`` reproduces every column of
  the rules table (2p uses only column 0, 3-4p columns 0-1, 5-6p columns 0-2).
  A flat list of 12 numbers is accepted and read place-major.  Only colours in
  places 1st-3rd score majorities (the 4th row is never paid, as the rules say).
* Dense tie rule: players holding >= 1 card of the colour are grouped by
  ``(count, total value)`` descending; group g (0-based) gets majority g's points
  when g < number of majorities (1 for 2p, 2 for 3-4p, 3 for 5-6p).
* A turn that starts and then finds the pile empty after its first action ends
  there; it still counts as one turn (``turns`` = turns started, all seats).
* The secret-festival reveal order is random even when all cards are revealed.
* Scores "so far" (for the greedy receiver) are keep + give points.
"""

from __future__ import annotations

COLOURS = ("purple", "blue", "pink", "orange")
N_COLOURS = 4
MIN_PLAYERS, MAX_PLAYERS = 2, 6

ACTIONS = ("keep", "give", "open", "secret")
# open and secret are the same action ("festival") for the different-action rule
ACTION_CLASS = {"keep": "keep", "give": "give", "open": "festival", "secret": "festival"}

DEFAULT_PARAMS = {
    "values": [2, 3, 4],
    "base_per_value": 6,
    "marked_per_value": 2,
    "removed": [18, 4, 6, 14, 10],  # for 2, 3, 4, 5, 6 players
    "give_bonus": [3, 2, 1, 0],  # by place 1st..4th
    "keep_bonus": [0, 0, 1, 2],  # by place 1st..4th
    "majority_points": [[15, 10, 5], [10, 7, 4], [5, 3, 1], [0, 0, 0]],
    "secret_reveal": 5,
    "start_points": None,  # points each seat starts with (None: 0 for every seat)
}

TURNS_PER_PLAYER_DEFAULT = {2: 12, 3: 10, 4: 7, 5: 7, 6: 6}


def number_of_majorities(players):
    """1 majority with 2 players, 2 with 3-4 players, 3 with 5-6 players."""
    if players == 2:
        return 1
    if players in (3, 4):
        return 2
    if players in (5, 6):
        return 3
    raise ValueError(f"players must be 2..6, got {players}")


# ---------------------------------------------------------------- parameters


def make_params(**params):
    """Defaults overridden by ``params``; unknown names are a ValueError."""
    for key in params:
        if key not in DEFAULT_PARAMS:
            raise ValueError(f"unknown parameter {key!r}; allowed: {sorted(DEFAULT_PARAMS)}")
    p = {}
    for key, default in DEFAULT_PARAMS.items():
        value = params.get(key, default)
        if isinstance(value, (list, tuple)):
            value = [list(v) if isinstance(v, (list, tuple)) else v for v in value]
        p[key] = value
    mp = p["majority_points"]
    if mp and not isinstance(mp[0], list):  # flat, place-major
        if len(mp) % 4 != 0:
            raise ValueError("flat majority_points must have 4*k entries (place-major)")
        k = len(mp) // 4
        p["majority_points"] = [list(mp[i * k:(i + 1) * k]) for i in range(4)]
    if len(p["majority_points"]) < 3:
        raise ValueError("majority_points needs a row for each of places 1st-3rd")
    if len(p["give_bonus"]) != 4 or len(p["keep_bonus"]) != 4:
        raise ValueError("give_bonus and keep_bonus need 4 entries (places 1st..4th)")
    if len(p["removed"]) != 5:
        raise ValueError("removed needs 5 entries (2..6 players)")
    if p["secret_reveal"] < 0:
        raise ValueError("secret_reveal must be >= 0")
    return p


# ---------------------------------------------------------------- cards


def cards_per_colour(params):
    return len(params["values"]) * (params["base_per_value"] + params["marked_per_value"])


def card(card_id, **params):
    """The ``(colour, value)`` of a card id (see the module docstring)."""
    return _card(card_id, make_params(**params))


def _card(card_id, p):
    cpc = cards_per_colour(p)
    if not (0 <= card_id < N_COLOURS * cpc):
        raise ValueError(f"card id {card_id} out of range 0..{N_COLOURS * cpc - 1}")
    colour, index = divmod(card_id, cpc)
    n_base = len(p["values"]) * p["base_per_value"]
    if index < n_base:
        value = p["values"][index // p["base_per_value"]]
    else:
        value = p["values"][(index - n_base) // p["marked_per_value"]]
    return (colour, value)


def is_marked(card_id, **params):
    p = make_params(**params)
    return card_id % cards_per_colour(p) >= len(p["values"]) * p["base_per_value"]


def card_ids(players, **params):
    """Ids of the cards used with ``players`` players (base only for 2-4), ascending."""
    return _card_ids(players, make_params(**params))


def _card_ids(players, p):
    cpc = cards_per_colour(p)
    n_base = len(p["values"]) * p["base_per_value"]
    ids = []
    for colour in range(N_COLOURS):
        for index in range(cpc):
            if players >= 5 or index < n_base:
                ids.append(colour * cpc + index)
    return ids


def festival_positions(players, **params):
    """The two deck positions (0-based, top first) of the festival cards."""
    p = make_params(**params)
    r = p["removed"][players - 2]
    return (r, r + 1)


def shuffled_deck(players, rng, **params):
    """A uniformly random legal deck: ``rng.shuffle`` again until the two festival
    positions hold different colours (rejection)."""
    p = make_params(**params)
    deck = _card_ids(players, p)
    r = p["removed"][players - 2]
    while True:
        rng.shuffle(deck)
        if _card(deck[r], p)[0] != _card(deck[r + 1], p)[0]:
            return list(deck)


# ---------------------------------------------------------------- ranking


def place_of(ranking, colour):
    """1-based place of ``colour`` in ``ranking`` (1 = 1st place)."""
    return list(ranking).index(colour) + 1


def rerank(ranking, totals, colour):
    """Take ``colour`` out of ``ranking`` and insert it just above the highest-placed
    colour whose total is <= its (new) total; at the bottom if there is none.

    ``totals[c]`` is colour c's festival total, already updated.  Returns a new list.
    """
    others = [c for c in ranking if c != colour]
    for i, other in enumerate(others):
        if totals[other] <= totals[colour]:
            return others[:i] + [colour] + others[i:]
    return others + [colour]


def check_ranking(ranking, totals):
    """ValueError unless ``ranking`` is a permutation of the 4 colours sorted by total
    (highest first)."""
    ranking = list(ranking)
    if sorted(ranking) != list(range(N_COLOURS)):
        raise ValueError(f"ranking must be a permutation of 0..3, got {ranking}")
    for a, b in zip(ranking, ranking[1:]):
        if totals[a] < totals[b]:
            raise ValueError(f"ranking {ranking} is not sorted by total {list(totals)}")
    return ranking


# ---------------------------------------------------------------- majorities


def majority_awards(bouquets, ranking, players, majority_points):
    """Every majority paid: a list of ``(colour, place, k, seat, points)`` with k the
    0-based majority index.  ``bouquets[seat]`` is a list of ``(colour, value)``."""
    if len(bouquets) != players:
        raise ValueError("one bouquet per seat is needed")
    n_maj = number_of_majorities(players)
    awards = []
    for place in (1, 2, 3):  # only colours in places 1st, 2nd and 3rd
        colour = ranking[place - 1]
        holders = []
        for seat in range(players):
            mine = [v for (c, v) in bouquets[seat] if c == colour]
            if mine:  # at least one card of that colour
                holders.append((len(mine), sum(mine), seat))
        # distinct (count, total) keys, best first: each is one majority (dense rule)
        keys = sorted({(n, t) for (n, t, _) in holders}, reverse=True)
        for k, key in enumerate(keys):
            if k >= n_maj:
                break
            pts = majority_points[place - 1][k]
            for (n, t, seat) in holders:
                if (n, t) == key:
                    awards.append((colour, place, k, seat, pts))
    return awards


def majorities(bouquets, ranking, players, majority_points):
    """Majority points per seat.  ``bouquets[seat]``: list of ``(colour, value)``;
    ``ranking``: colours 1st place first; ``majority_points[place-1][k]``: points of
    the (k+1)-th majority (a flat place-major list of 4*k numbers is accepted)."""
    if majority_points and not isinstance(majority_points[0], (list, tuple)):
        majority_points = make_params(majority_points=list(majority_points))["majority_points"]
    points = [0] * players
    for (_, _, _, seat, pts) in majority_awards(bouquets, ranking, players, majority_points):
        points[seat] += pts
    return points


def win_shares(points, tulips):
    """Most points wins; tie: most tulips in bouquet; still tied: 1/k each."""
    best = max(zip(points, tulips))
    winners = [s for s in range(len(points)) if (points[s], tulips[s]) == best]
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(len(points))]


# ---------------------------------------------------------------- the game


class Table:
    """Everything on the table during one game (strategies read it)."""

    def __init__(self, players, p):
        self.players = players
        self.params = p
        self.totals = [0] * N_COLOURS
        self.ranking = []
        self.open_festival = []  # card ids, in the order they were added
        self.secret_festival = []  # card ids, in the order they were added
        self.bouquets = [[] for _ in range(players)]  # card ids
        self.keep_points = [0] * players
        self.give_points = [0] * players
        self.start_points = list(p["start_points"] or [0] * players)
        self.pile = []  # draw pile, top first
        self.events = []

    def card(self, card_id):
        return _card(card_id, self.params)

    def place(self, colour):
        return place_of(self.ranking, colour)

    def score(self, seat):
        """Points so far (start + keep + give; majorities come at the end)."""
        return self.start_points[seat] + self.keep_points[seat] + self.give_points[seat]

    def immediate_points(self, card_id, action):
        """Points the acting player scores at once: keep -> keep bonus of the
        colour's current place; give -> value + give bonus; open/secret -> 0."""
        colour, value = self.card(card_id)
        place = self.place(colour)
        if action == "keep":
            return self.params["keep_bonus"][place - 1]
        if action == "give":
            return value + self.params["give_bonus"][place - 1]
        return 0


def _check_decision(decision, seat, players, first_class):
    if not isinstance(decision, (tuple, list)) or not decision or decision[0] not in ACTIONS:
        raise ValueError(f"bad decision {decision!r}; expected ('keep',), ('give', seat), "
                         "('open',) or ('secret',)")
    action = decision[0]
    if action == "give":
        if len(decision) != 2:
            raise ValueError(f"give needs a receiver: {decision!r}")
        receiver = decision[1]
        if not isinstance(receiver, int) or not (0 <= receiver < players):
            raise ValueError(f"receiver {receiver!r} is not a seat 0..{players - 1}")
        if receiver == seat:
            raise ValueError(f"seat {seat} cannot give a card to itself")
    elif len(decision) != 1:
        raise ValueError(f"{action} takes no argument: {decision!r}")
    if first_class is not None and ACTION_CLASS[action] == first_class:
        raise ValueError(f"seat {seat} repeats the action {first_class!r} in one turn "
                         "(open and secret are the same action)")
    return tuple(decision)


def _run(deck, players, opening_order, choose_setup, choose_action, choose_reveal, p):
    """Play one game.  The three callbacks make every choice:
    ``choose_setup(table, seat, hand) -> 0|1`` (hand index going to the bouquet),
    ``choose_action(table, seat, card_id, first_class) -> decision``,
    ``choose_reveal(table, secret_cards, k) -> list of k ids``.
    ``opening_order`` is the full initial ranking or a callable(table) returning it.
    """
    if not (MIN_PLAYERS <= players <= MAX_PLAYERS):
        raise ValueError(f"players must be 2..6, got {players}")
    deck = list(deck)
    if sorted(deck) != _card_ids(players, p):
        raise ValueError(f"deck must be a permutation of the {len(_card_ids(players, p))} "
                         f"cards used with {players} players")
    n_removed = p["removed"][players - 2]
    if n_removed < 0 or n_removed + 2 + 2 * players > len(deck):
        raise ValueError("deck too small for removed cards, festival and deal")
    t = Table(players, p)
    ev = t.events

    # Setup 1: removed cards, unseen
    pos = 0
    removed = deck[pos:pos + n_removed]
    pos += n_removed
    ev.append(("removed", list(removed)))

    # Setup 2: two festival cards of different colours
    fest = deck[pos:pos + 2]
    pos += 2
    (c1, v1), (c2, v2) = t.card(fest[0]), t.card(fest[1])
    if c1 == c2:
        raise ValueError(f"the two festival cards are both {COLOURS[c1]}")
    for cid in fest:
        colour, value = t.card(cid)
        t.totals[colour] += value
        t.open_festival.append(cid)
        ev.append(("festival", cid, colour, value))

    # Setup 3: ranking by total, ties in the opening order
    ranking = opening_order(t) if callable(opening_order) else opening_order
    t.ranking = check_ranking(ranking, t.totals)
    ev.append(("ranking", tuple(t.ranking)))

    # Setup 4: deal two cards per seat; one to the bouquet, one to the secret festival
    hands = []
    for seat in range(players):
        hands.append(deck[pos:pos + 2])
        pos += 2
    for seat in range(players):
        hand = hands[seat]
        choice = choose_setup(t, seat, list(hand))
        if choice not in (0, 1):
            raise ValueError(f"setup choice of seat {seat} must be 0 or 1, got {choice!r}")
        t.bouquets[seat].append(hand[choice])
        t.secret_festival.append(hand[1 - choice])
        ev.append(("setup", seat, hand[choice], hand[1 - choice]))

    t.pile = deck[pos:]

    # Play: seat 0 starts, clockwise; the game ends when the draw pile is empty
    turns = 0
    seat = 0
    while t.pile:
        turns += 1
        ev.append(("turn", turns, seat))
        first_class = None
        for _ in range(2):
            if not t.pile:  # pile emptied in the middle of the turn
                break
            cid = t.pile.pop(0)
            decision = _check_decision(choose_action(t, seat, cid, first_class),
                                       seat, players, first_class)
            _do(t, seat, cid, decision)
            first_class = ACTION_CLASS[decision[0]]
        seat = (seat + 1) % players

    # End: the secret festival reveal, one card at a time, re-ranking after each
    k = min(len(t.secret_festival), p["secret_reveal"])
    reveal = list(choose_reveal(t, list(t.secret_festival), k))
    if (len(reveal) != k or len(set(reveal)) != k
            or any(cid not in t.secret_festival for cid in reveal)):
        raise ValueError(f"secret reveal must be {k} distinct cards of the secret festival "
                         f"{sorted(t.secret_festival)}, got {reveal}")
    for cid in reveal:
        colour, value = t.card(cid)
        t.totals[colour] += value
        t.ranking = rerank(t.ranking, t.totals, colour)
        t.open_festival.append(cid)
        ev.append(("reveal", cid, t.totals[colour], tuple(t.ranking)))
    discarded = [cid for cid in t.secret_festival if cid not in reveal]
    ev.append(("discard", list(discarded)))

    # Majorities
    bouquet_cards = [[t.card(cid) for cid in b] for b in t.bouquets]
    maj = [0] * players
    for (colour, place, kk, s, pts) in majority_awards(bouquet_cards, t.ranking, players,
                                                       p["majority_points"]):
        maj[s] += pts
        ev.append(("majority", colour, place, kk, s, pts))

    points = [t.start_points[s] + t.keep_points[s] + t.give_points[s] + maj[s] for s in range(players)]
    tulips = [len(b) for b in t.bouquets]
    return {
        "points": points,
        "keep_points": list(t.keep_points),
        "give_points": list(t.give_points),
        "majority_points": maj,
        "tulips": tulips,
        "win_share": win_shares(points, tulips),
        "turns": turns,
        "final_ranking": list(t.ranking),
        "totals": list(t.totals),
        "events": ev,
        # zones, for card conservation checks
        "removed": list(removed),
        "bouquets": [list(b) for b in t.bouquets],
        "open_festival": list(t.open_festival),
        "secret_festival": list(t.secret_festival),
        "revealed": reveal,
        "discarded": discarded,
    }


def _do(t, seat, cid, decision):
    colour, value = t.card(cid)
    action = decision[0]
    if action == "keep":
        pts = t.immediate_points(cid, "keep")
        t.bouquets[seat].append(cid)
        t.keep_points[seat] += pts
        t.events.append(("keep", seat, cid, pts))
    elif action == "give":
        receiver = decision[1]
        pts = t.immediate_points(cid, "give")
        t.bouquets[receiver].append(cid)
        t.give_points[seat] += pts
        t.events.append(("give", seat, receiver, cid, pts))
    elif action == "open":
        t.totals[colour] += value
        t.ranking = rerank(t.ranking, t.totals, colour)
        t.open_festival.append(cid)
        t.events.append(("open", seat, cid, t.totals[colour], tuple(t.ranking)))
    else:  # secret
        t.secret_festival.append(cid)
        t.events.append(("secret", seat, cid))


def replay(deck, players, opening_order, setup_choices, decisions, secret_reveal_order,
           **params):
    """Play one game from an explicit deck and every decision.

    deck:                card ids, top first (removed, 2 festival, 2 per seat, pile).
    opening_order:       the full initial ranking of the 4 colours, 1st place first;
                         it must be sorted by festival total (it fixes the tie order).
    setup_choices:       per seat, the hand index (0 or 1) going to the bouquet; the
                         other card goes to the secret festival.
    decisions:           per action in play order (two per turn):
                         ("keep",) | ("give", receiver) | ("open",) | ("secret",).
    secret_reveal_order: ids of the revealed secret-festival cards, in reveal order
                         (exactly min(size, secret_reveal) distinct cards).
    Raises ValueError on any illegal input (same-colour festival, repeated action,
    gift to oneself, too few / too many decisions, bad reveal ...).
    """
    p = make_params(**params)
    setup_choices = list(setup_choices)
    if len(setup_choices) != players:
        raise ValueError(f"need one setup choice per seat ({players}), got {len(setup_choices)}")
    queue = list(decisions)
    used = [0]

    def choose_setup(t, seat, hand):
        return setup_choices[seat]

    def choose_action(t, seat, cid, first_class):
        if used[0] >= len(queue):
            raise ValueError(f"decisions ran out after {len(queue)} actions")
        d = queue[used[0]]
        used[0] += 1
        return d

    def choose_reveal(t, secret, k):
        return list(secret_reveal_order)

    out = _run(deck, players, list(opening_order), choose_setup, choose_action,
               choose_reveal, p)
    if used[0] != len(queue):
        raise ValueError(f"{len(queue) - used[0]} decisions left over after the game ended "
                         f"({used[0]} actions)")
    return out


# ---------------------------------------------------------------- strategies
#
# Setup choosers:  f(table, seat, hand, rng) -> 0 | 1
# Action choosers: f(table, seat, card_id, first_class, rng) -> decision tuple
# ``first_class`` is None for a turn's first action, else "keep" | "give" | "festival".


def allowed_classes(first_class):
    """Action classes allowed, in the rules' order keep, give, festival."""
    return [c for c in ("keep", "give", "festival") if c != first_class]


def greedy_setup(t, seat, hand, rng=None):
    """The card of the better-ranked colour goes to the bouquet; ties (same colour):
    the higher value; still tied: the first card (index 0)."""
    (ca, va), (cb, vb) = t.card(hand[0]), t.card(hand[1])
    pa, pb = t.place(ca), t.place(cb)
    if pa != pb:
        return 0 if pa < pb else 1
    if va != vb:
        return 0 if va > vb else 1
    return 0


def greedy_receiver(t, seat):
    """The other player with the lowest score so far (keep + give points); ties: the
    first one met going clockwise (seat+1, seat+2, ...) from the giver."""
    best = None
    for step in range(1, t.players):
        other = (seat + step) % t.players
        if best is None or t.score(other) < t.score(best):
            best = other
    return best


def greedy_action(t, seat, cid, first_class, rng=None):
    """The allowed action with the most immediate points for the acting seat.

    Immediate points: keep = keep bonus of the colour's current place; give = value +
    give bonus of the colour's current place; open festival = 0; secret festival = 0.
    The choice is myopic: each card is judged alone when drawn; the second card of a
    turn only considers actions different from the first one.  Ties are broken in the
    order give, keep, open, secret.  A gift goes to :func:`greedy_receiver`.
    """
    best_action, best_pts = None, None
    for action in ("give", "keep", "open", "secret"):
        if ACTION_CLASS[action] == first_class:
            continue
        pts = t.immediate_points(cid, action)
        if best_pts is None or pts > best_pts:
            best_action, best_pts = action, pts
    if best_action == "give":
        return ("give", greedy_receiver(t, seat))
    return (best_action,)


def random_setup(t, seat, hand, rng):
    """Uniform: one ``rng.randrange(2)``."""
    return rng.randrange(2)


def random_action(t, seat, cid, first_class, rng):
    """The action class uniformly among the allowed ones (``rng.randrange`` over the
    list of :func:`allowed_classes`, order keep, give, festival); then for a gift the
    receiver uniformly (``rng.randrange(players-1)`` over the other seats in clockwise
    order seat+1, seat+2, ...), for the festival open/secret uniformly
    (``rng.randrange(2)``: 0 = open, 1 = secret); keep draws nothing more."""
    classes = allowed_classes(first_class)
    cls = classes[rng.randrange(len(classes))]
    if cls == "keep":
        return ("keep",)
    if cls == "give":
        others = [(seat + step) % t.players for step in range(1, t.players)]
        return ("give", others[rng.randrange(len(others))])
    return ("open",) if rng.randrange(2) == 0 else ("secret",)


STRATEGIES = {
    "greedy": (greedy_setup, greedy_action),
    "random": (random_setup, random_action),
}


def random_opening_order(totals, rng):
    """The initial ranking: ``rng.shuffle`` of [0, 1, 2, 3] (a random permutation),
    then a stable sort by total, highest first -- ties keep the permutation's order."""
    perm = list(range(N_COLOURS))
    rng.shuffle(perm)
    return sorted(perm, key=lambda c: -totals[c])


def random_reveal(secret, k, rng):
    """``rng.sample(secret, k)``: k cards chosen at random, in random order."""
    return rng.sample(list(secret), k)


def play(deck, players, strategies, rng, **params):
    """Play one game from ``deck`` with strategies choosing, and record every choice.

    strategies: one name for every seat, or a list of one name per seat
    ("greedy" | "random").  ``rng``: a ``random.Random``-like object.
    Draws from ``rng``, in chronological order: the opening tie order
    (:func:`random_opening_order`, one ``shuffle``), the setup choices of random seats
    in seat order, the choices of random seats as the actions happen, then the secret
    reveal (:func:`random_reveal`, one ``sample``).  (The deck itself is an input;
    :func:`shuffled_deck` draws one.)  Greedy draws nothing.

    Returns the :func:`replay` dict plus ``opening_order``, ``setup_choices``,
    ``decisions`` and ``secret_reveal_order``, so that
    ``replay(deck, players, out["opening_order"], out["setup_choices"],
    out["decisions"], out["secret_reveal_order"], **params)`` reproduces it.
    """
    p = make_params(**params)
    if isinstance(strategies, str):
        strategies = [strategies] * players
    strategies = list(strategies)
    if len(strategies) != players:
        raise ValueError(f"need {players} strategies, got {len(strategies)}")
    for s in strategies:
        if s not in STRATEGIES:
            raise ValueError(f"unknown strategy {s!r}; allowed: {sorted(STRATEGIES)}")
    record = {"opening_order": None, "setup_choices": [], "decisions": [],
              "secret_reveal_order": None}

    def opening(t):
        order = random_opening_order(t.totals, rng)
        record["opening_order"] = list(order)
        return order

    def choose_setup(t, seat, hand):
        c = STRATEGIES[strategies[seat]][0](t, seat, hand, rng)
        record["setup_choices"].append(c)
        return c

    def choose_action(t, seat, cid, first_class):
        d = tuple(STRATEGIES[strategies[seat]][1](t, seat, cid, first_class, rng))
        record["decisions"].append(d)
        return d

    def choose_reveal(t, secret, k):
        r = random_reveal(secret, k, rng)
        record["secret_reveal_order"] = list(r)
        return r

    out = _run(deck, players, opening, choose_setup, choose_action, choose_reveal, p)
    out.update(record)
    out["strategies"] = strategies
    return out


# ---------------------------------------------------------------- oracle interface


def play_script(deck, players, opening_order, setup_choices, decisions, secret_reveal_order,
                params=None, log_decisions=False):
    """The oracle interface every naive reference offers: one game from the keyword arguments
    of the library's scripted game (``play_scripted``), returning at least ``scores`` and
    ``win_share`` in the library's meaning.

    Gift of Tulips' script is already in this module's terms (card ids, colours 0..3,
    decisions as tuples): it goes to :func:`replay` as it is, ``params`` (a dict of the
    ``DEFAULT_PARAMS`` names) as its keyword parameters. ``log_decisions`` (the library's
    decision-interface log) has no counterpart here: only False is accepted. Returns
    :func:`replay`'s dict plus ``scores`` (= ``points``), without its ``events`` (a log in
    this module's own form).
    """
    if log_decisions:
        raise ValueError("the naive oracle keeps no decision log: log_decisions must be False")
    out = replay(list(deck), players, list(opening_order), list(setup_choices),
                 [tuple(d) for d in decisions], list(secret_reveal_order), **dict(params or {}))
    out = {key: value for key, value in out.items() if key != "events"}
    out["scores"] = list(out["points"])
    return out

"""Naive, slow, obviously-correct reference implementation ("oracle") of Parade.

Written only from the normative rules page ``shared/rules/parade.md``; it does not
import or look at the fast kernel in ``montecards``.  Plain Python, no numpy.

Vocabulary mirrors the rules page:

* card          -- a pair ``(colour, value)``, colour index 0..5 in the order
                   red, blue, purple, green, grey, orange; value 0..10.
                   ``card id = 11 * colour + value``; label ``"<colour>-<value>"``.
* parade        -- list of cards, index 0 = front, last index = end.
* collection    -- list of cards a seat has taken (and, at the end, the 2 kept cards).
* removal mode  -- parade position ``i`` (before the play, ``n`` cards) is in removal mode
                   iff ``i < n - v``; such a card is taken iff it has the played colour or
                   its value is ``<= v``.
* draw pile     -- the deck cards left after dealing, top first.
* last round    -- after the triggering turn, every seat (next seat first, triggering seat
                   last) plays one more turn without drawing.
* majority      -- 3-6 players: every seat whose count of a colour equals the maximum (>= 1);
                   2 players: ``count >= 1 and count - opponent_count >= two_player_margin``
                   (margin 0 gives the 3-6 player rule).

Readings of the rules page chosen here (documented so that a kernel can be compared):

* **Hand order.**  A hand is a list: the 5 dealt cards in deck order, each drawn card appended
  at the end, a played card removed (the others keep their relative order).  The 2 kept cards
  join the collection in this hand order, after all taken cards.
* **Collection order.**  Cards taken on one play join the collection in parade order, front
  to end; plays are appended in the order they happen.
* **Greedy play.**  For each card in hand, the seat's score "as if the game ended now" is
  ``score_collections`` of all collections, where the seat's collection has the cards this
  play would take added and every other collection is as it stands; the hand is not scored.
  Minimise that score; ties -> highest value; then lowest card id.
* **Greedy final discard.**  The choices are simultaneous, so "as if the game ended now" means:
  the seat's collection plus the 2 kept cards, against the other seats' collections as they
  stand *before* the final discard (after the whole last round, without anybody's kept
  cards).  Minimise that score over the 6 pairs; ties -> keep the pair whose *sorted pair of
  card ids* is lexicographically smallest (e.g. ids (3, 40) beats (3, 41) beats (4, 5)).
  ``greedy_discard`` returns the 2 discarded labels in hand order.
* **Deck parameters** (rules page: ``colours``, ``values``, ``hand_size``, ``discards``).  The
  deck holds the first ``colours`` colours of the fixed order, each with values
  ``0 .. values - 1``; each hand is dealt ``hand_size`` cards; at the end each seat holds
  ``hand_size - 1`` cards and discards ``discards`` of them (greedy: the kept cards minimise
  the score, ties -> the kept cards whose sorted ids are lexicographically smallest).  With
  ``end_colours`` at or above ``colours`` the trigger needs every colour of the deck.
* **Winner.**  Lowest score; then fewest cards in the collection (kept cards included); the
  remaining k tied seats each get 1/k of a win.
"""

from collections import Counter
from itertools import combinations

COLOURS = ("red", "blue", "purple", "green", "grey", "orange")
VALUES = tuple(range(11))
NUMBER_OF_CARDS = len(COLOURS) * len(VALUES)  # 66
HAND_SIZE = 5
INITIAL_PARADE_SIZE = 6
MIN_PLAYERS = 2
MAX_PLAYERS = 6
ALLOWED_MARGINS = (0, 1, 2)
END_SIX_COLOURS = "six_colours"
END_DECK_EMPTY = "deck_empty"


# --------------------------------------------------------------------------- cards


def card_label(card):
    colour, value = card
    return "%s-%d" % (COLOURS[colour], value)


def parse_label(label):
    """``"green-3"`` -> ``(3, 3)``; ValueError if it is not one of the 66 labels."""
    if not isinstance(label, str) or "-" not in label:
        raise ValueError("not a Parade card label: %r" % (label,))
    colour_name, _, value_text = label.partition("-")
    if colour_name not in COLOURS:
        raise ValueError("not a Parade card label (unknown colour): %r" % (label,))
    if value_text not in [str(v) for v in VALUES]:
        raise ValueError("not a Parade card label (value must be 0..10): %r" % (label,))
    return (COLOURS.index(colour_name), int(value_text))


def card_id(card):
    colour, value = card
    return 11 * colour + value


def label_id(label):
    return card_id(parse_label(label))


def all_labels():
    """The 66 labels in id order (red-0 ... red-10, blue-0, ..., orange-10)."""
    return [card_label((colour, value)) for colour in range(len(COLOURS)) for value in VALUES]


# --------------------------------------------------------------------------- validation


def _check_players(players):
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError("players must be an int in 2..6, got %r" % (players,))
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError("players must be in 2..6, got %d" % players)


def _check_margin(margin):
    if isinstance(margin, bool) or margin not in ALLOWED_MARGINS:
        raise ValueError("two_player_margin must be 0, 1 or 2, got %r" % (margin,))


def deck_labels(colours=len(COLOURS), values=len(VALUES)):
    """The labels of the deck with ``colours`` colours and ``values`` values per colour (rules
    page parameters): the first colours of the fixed order, values ``0 .. values - 1``."""
    return [card_label((colour, value)) for colour in range(colours) for value in range(values)]


def _check_deck(deck, colours=len(COLOURS), values=len(VALUES)):
    """Return the deck as a list of cards; ValueError unless it is a permutation of the deck's
    ``colours * values`` cards (the 66 officially)."""
    size = colours * values
    if isinstance(deck, str):
        raise ValueError("deck must be a list of %d labels, not a string" % size)
    deck = list(deck)
    if len(deck) != size:
        raise ValueError("deck must hold exactly %d cards, got %d" % (size, len(deck)))
    cards = [parse_label(label) for label in deck]
    allowed = set(_as_cards(deck_labels(colours, values)))
    seen = set()
    for label, card in zip(deck, cards):
        if card not in allowed:
            raise ValueError("deck holds %s, not a card of %d colours and %d values" % (label, colours, values))
        if card in seen:
            raise ValueError("deck is not a permutation of the %d cards: %s appears twice" % (size, label))
        seen.add(card)
    return cards


# --------------------------------------------------------------------------- a play


def resolve_play(parade, played):
    """Apply the removal rule.

    ``parade``: list of cards (or labels), front first, *before* the play.
    ``played``: the card (or label) played to the end.
    Returns ``(new_parade, taken)``: ``taken`` in parade order front to end; ``new_parade`` is
    the remaining cards in order with the played card at the end.  Labels in -> labels out.
    """
    use_labels = isinstance(played, str)
    if use_labels:
        parade = [parse_label(label) for label in parade]
        played = parse_label(played)
    played_colour, played_value = played
    n = len(parade)
    taken = []
    remaining = []
    for position, card in enumerate(parade):
        colour, value = card
        in_removal_mode = position < n - played_value
        if in_removal_mode and (colour == played_colour or value <= played_value):
            taken.append(card)
        else:
            remaining.append(card)
    new_parade = remaining + [played]
    if use_labels:
        return [card_label(c) for c in new_parade], [card_label(c) for c in taken]
    return new_parade, taken


# --------------------------------------------------------------------------- scoring


def _as_cards(cards):
    return [parse_label(c) if isinstance(c, str) else c for c in cards]


def _colour_counts(collection):
    counts = [0] * len(COLOURS)
    for colour, _value in collection:
        counts[colour] += 1
    return counts


def _has_majority(seat, colour, counts_per_seat, players, margin):
    my_count = counts_per_seat[seat][colour]
    if my_count < 1:
        return False
    if players == 2:
        opponent_count = counts_per_seat[1 - seat][colour]
        return my_count - opponent_count >= margin
    highest = max(counts[colour] for counts in counts_per_seat)
    return my_count == highest


def score_collections(collections, players, margin=2):
    """Scores per seat.  ``collections``: per seat, a list of labels (or cards)."""
    _check_players(players)
    _check_margin(margin)
    if len(collections) != players:
        raise ValueError("need one collection per seat: %d for %d players" % (len(collections), players))
    collections = [_as_cards(c) for c in collections]
    counts_per_seat = [_colour_counts(c) for c in collections]
    scores = []
    for seat in range(players):
        score = 0
        for colour in range(len(COLOURS)):
            cards_of_colour = [card for card in collections[seat] if card[0] == colour]
            if _has_majority(seat, colour, counts_per_seat, players, margin):
                score += len(cards_of_colour)  # 1 point per card
            else:
                score += sum(value for _colour, value in cards_of_colour)
        scores.append(score)
    return scores


def winners(scores, collections):
    """Win share per seat: lowest score, then fewest cards; k still tied get 1/k each."""
    if len(scores) != len(collections):
        raise ValueError("scores and collections must have one entry per seat")
    lowest_score = min(scores)
    candidates = [s for s in range(len(scores)) if scores[s] == lowest_score]
    fewest_cards = min(len(collections[s]) for s in candidates)
    tied = [s for s in candidates if len(collections[s]) == fewest_cards]
    return [1.0 / len(tied) if s in tied else 0.0 for s in range(len(scores))]


# --------------------------------------------------------------------------- greedy


def _score_of_seat(collections, seat, players, margin):
    return score_collections(collections, players, margin)[seat]


def greedy_choice(hand, parade, collections, seat, players, margin=2):
    """The label the ``greedy`` strategy plays (see module docstring)."""
    hand = _as_cards(hand)
    parade = _as_cards(parade)
    collections = [_as_cards(c) for c in collections]
    if not hand:
        raise ValueError("greedy_choice needs a non-empty hand")
    best_key = None
    best_card = None
    for card in hand:
        _new_parade, taken = resolve_play(parade, card)
        collections_after = [list(c) for c in collections]
        collections_after[seat] = collections_after[seat] + taken
        score = _score_of_seat(collections_after, seat, players, margin)
        key = (score, -card[1], card_id(card))  # lowest score, highest value, lowest id
        if best_key is None or key < best_key:
            best_key = key
            best_card = card
    return card_label(best_card)


def greedy_discard(hand4, collections, seat, players, margin=2, discards=2):
    """The ``discards`` labels (2 officially) the ``greedy`` strategy discards from its final
    hand, in hand order (see module docstring)."""
    hand4 = _as_cards(hand4)
    collections = [_as_cards(c) for c in collections]
    if len(hand4) < discards or (discards == 2 and len(hand4) > 4):
        raise ValueError("greedy_discard needs a final hand of at least %d (at most 4) cards, got %d"
                         % (discards, len(hand4)))
    best_key = None
    best_kept = None
    for kept in combinations(hand4, len(hand4) - discards):
        collections_after = [list(c) for c in collections]
        collections_after[seat] = collections_after[seat] + list(kept)
        score = _score_of_seat(collections_after, seat, players, margin)
        key = (score, tuple(sorted(card_id(c) for c in kept)))
        if best_key is None or key < best_key:
            best_key = key
            best_kept = kept
    return [card_label(c) for c in hand4 if c not in best_kept]


# --------------------------------------------------------------------------- the game


def play(deck, players, choose_card, choose_discard, two_player_margin=2,
         opening_parade=INITIAL_PARADE_SIZE, end_colours=len(COLOURS), colours=len(COLOURS),
         values=len(VALUES), hand_size=HAND_SIZE, discards=2):
    """Play one game with decision callbacks (the engine behind ``replay`` and ``play_greedy``).

    ``choose_card(seat, view) -> label`` with ``view`` a dict holding what a strategy may see:
    ``hand``, ``parade``, ``collections`` (labels), ``draw_pile_size``, ``last_round``,
    ``turns_left`` (None before the last round).
    ``choose_discard(seat, view) -> [label, ...]`` (``discards`` labels) with ``view`` holding
    ``hand`` (``hand_size - 1`` labels, 4 officially)
    and ``collections`` as they stand before anybody's final discard.
    ``opening_parade``: the cards of the opening parade; ``end_colours``: the colours a
    collection must hold to start the last round (rules parameters, 6 and 6 official; at or
    above ``colours``: every colour of the deck). ``colours``, ``values``: the deck (6 and 11
    official); ``hand_size``: cards dealt to each hand (5); ``discards``: cards each seat
    discards from its final hand of ``hand_size - 1`` (2).
    """
    _check_players(players)
    _check_margin(two_player_margin)
    cards = _check_deck(deck, colours, values)
    number_of_cards = len(cards)
    if players * hand_size + opening_parade >= number_of_cards:
        raise ValueError("deck of %d cards too small for %d hands of %d and a parade of %d"
                         % (number_of_cards, players, hand_size, opening_parade))
    if not 0 <= discards <= hand_size - 1:
        raise ValueError("discards must be 0 .. hand_size - 1, got %d" % discards)
    end_colours = min(end_colours, colours)

    # Setup: block dealing, then the parade, then the draw pile.
    hands = [cards[hand_size * seat:hand_size * (seat + 1)] for seat in range(players)]
    parade_start = hand_size * players
    parade = cards[parade_start:parade_start + opening_parade]
    draw_pile = cards[parade_start + opening_parade:]
    collections = [[] for _ in range(players)]

    turns = 0
    turns_per_seat = [0] * players
    plays = []
    end_trigger = None
    trigger_seat = None

    def check_conservation(extra=()):
        everything = [c for h in hands for c in h] + parade + draw_pile
        everything += [c for col in collections for c in col] + list(extra)
        if len(everything) != number_of_cards or len(set(everything)) != number_of_cards:
            raise RuntimeError("oracle bug: card conservation violated")

    def view(seat, last_round, turns_left):
        return {
            "hand": [card_label(c) for c in hands[seat]],
            "parade": [card_label(c) for c in parade],
            "collections": [[card_label(c) for c in col] for col in collections],
            "draw_pile_size": len(draw_pile),
            "last_round": last_round,
            "turns_left": turns_left,
        }

    def take_turn(seat, last_round, turns_left):
        nonlocal parade, turns
        label = choose_card(seat, view(seat, last_round, turns_left))
        try:
            card = parse_label(label)
        except ValueError:
            card = None
        if card is None or card not in hands[seat]:
            raise ValueError(
                "illegal play at turn %d: %r is not in seat %d's hand %s"
                % (turns, label, seat, [card_label(c) for c in hands[seat]])
            )
        # 1. play to the end of the parade; 2. removal
        hands[seat].remove(card)
        parade, taken = resolve_play(parade, card)
        collections[seat].extend(taken)
        plays.append(card_label(card))
        turns += 1
        turns_per_seat[seat] += 1
        # 3. draw
        drew_last_card = False
        if draw_pile and not last_round:
            hands[seat].append(draw_pile.pop(0))
            drew_last_card = not draw_pile
        check_conservation()
        return drew_last_card

    # Normal turns until a trigger.
    seat = 0
    while end_trigger is None:
        drew_last_card = take_turn(seat, last_round=False, turns_left=None)
        six_colours = sum(count >= 1 for count in _colour_counts(collections[seat])) >= end_colours
        if six_colours:
            end_trigger = END_SIX_COLOURS
        elif drew_last_card:
            end_trigger = END_DECK_EMPTY
        if end_trigger is not None:
            trigger_seat = seat
        seat = (seat + 1) % players

    # Last round: next seat first, triggering seat last, no drawing.
    for turns_left in range(players, 0, -1):
        take_turn(seat, last_round=True, turns_left=turns_left)
        seat = (seat + 1) % players
    for seat in range(players):
        if len(hands[seat]) != hand_size - 1:
            raise RuntimeError("oracle bug: seat %d holds %d cards at the end" % (seat, len(hands[seat])))

    # Final discard: simultaneous, everybody sees the collections before any discard.
    discarded = []
    for seat in range(players):
        discard_view = {
            "hand": [card_label(c) for c in hands[seat]],
            "collections": [[card_label(c) for c in col] for col in collections],
        }
        chosen = choose_discard(seat, discard_view)
        if isinstance(chosen, str):
            raise ValueError("discards for seat %d must be a list of %d labels, got a string" % (seat, discards))
        chosen = list(chosen)
        if len(chosen) != discards:
            raise ValueError("seat %d must discard exactly %d cards, got %d" % (seat, discards, len(chosen)))
        chosen_cards = []
        for label in chosen:
            try:
                card = parse_label(label)
            except ValueError:
                card = None
            if card is None or card not in hands[seat]:
                raise ValueError(
                    "illegal discard for seat %d: %r is not in its final hand %s"
                    % (seat, label, [card_label(c) for c in hands[seat]])
                )
            chosen_cards.append(card)
        if len(set(chosen_cards)) != len(chosen_cards):
            raise ValueError("seat %d discards the same card twice: %r" % (seat, chosen))
        discarded.append(chosen_cards)
    for seat in range(players):
        kept = [c for c in hands[seat] if c not in discarded[seat]]  # hand order
        collections[seat].extend(kept)
        hands[seat] = []
    check_conservation(extra=[c for d in discarded for c in d])

    collection_labels = [[card_label(c) for c in col] for col in collections]
    scores = score_collections(collection_labels, players, two_player_margin)
    return {
        "scores": scores,
        "collections": collection_labels,
        "turns": turns,
        "end_trigger": end_trigger,
        "win_share": winners(scores, collection_labels),
        "parade": [card_label(c) for c in parade],
        # extras, useful for tests
        "plays": plays,
        "discards": [[card_label(c) for c in d] for d in discarded],
        "turns_per_seat": turns_per_seat,
        "trigger_seat": trigger_seat,
        "draw_pile": [card_label(c) for c in draw_pile],
    }


def replay(deck, players, plays, discards, two_player_margin=2, opening_parade=INITIAL_PARADE_SIZE,
           end_colours=len(COLOURS), colours=len(COLOURS), values=len(VALUES), hand_size=HAND_SIZE,
           discards_each=2):
    """Replay a scripted game: every play (all seats, in turn order) and each seat's 2 discards."""
    _check_players(players)
    _check_margin(two_player_margin)
    if isinstance(plays, str):
        raise ValueError("plays must be a list of labels, not a string")
    plays = list(plays)
    if isinstance(discards, str):
        raise ValueError("discards must be a list (per seat) of 2 labels")
    discards = list(discards)
    if len(discards) != players:
        raise ValueError("discards must have one entry per seat: %d for %d players" % (len(discards), players))
    next_play = [0]

    def choose_card(seat, _view):
        if next_play[0] >= len(plays):
            raise ValueError(
                "too few plays: the game needs more than the %d plays given (seat %d to play)"
                % (len(plays), seat)
            )
        label = plays[next_play[0]]
        next_play[0] += 1
        return label

    def choose_discard(seat, _view):
        return discards[seat]

    result = play(deck, players, choose_card, choose_discard, two_player_margin, opening_parade, end_colours,
                  colours, values, hand_size, discards_each)
    if next_play[0] != len(plays):
        raise ValueError(
            "too many plays: the game ended after %d turns but %d plays were given"
            % (next_play[0], len(plays))
        )
    return result


def play_greedy(deck, players, two_player_margin=2, seats=None, **params):
    """Play a whole game with every seat using ``greedy``.

    ``seats`` is accepted for signature compatibility; only ``None`` or a list naming every seat
    is supported (all seats greedy).  The result is ``replay``'s dict, whose ``plays`` and
    ``discards`` keys hold the decisions taken.
    """
    _check_players(players)
    if seats is not None and sorted(set(seats)) != list(range(players)):
        raise ValueError("play_greedy only supports all seats greedy (seats=None)")

    def choose_card(seat, view):
        return greedy_choice(view["hand"], view["parade"], view["collections"], seat, players, two_player_margin)

    def choose_discard(seat, view):
        return greedy_discard(view["hand"], view["collections"], seat, players, two_player_margin,
                              params.get("discards", 2))

    return play(deck, players, choose_card, choose_discard, two_player_margin, **params)


# --------------------------------------------------------------------------- oracle interface


# the rule parameters of the rules page, with their defaults
PARAMS = {"two_player_margin": 2, "opening_parade": INITIAL_PARADE_SIZE, "end_colours": len(COLOURS),
          "colours": len(COLOURS), "values": len(VALUES), "hand_size": HAND_SIZE, "discards": 2}


def play_script(deck, players, plays, discards, params=None):
    """The oracle interface every naive reference offers: one game from the keyword arguments
    of the library's scripted game (``play_scripted``), returning at least ``scores`` and
    ``win_share`` in the library's meaning.

    Parade's script is already in this module's terms: ``deck`` (66 labels, top first),
    ``plays`` (labels, all seats in turn order), ``discards`` (per seat, 2 labels) and
    ``params`` (a dict of ``PARAMS``: ``two_player_margin``, ``opening_parade``,
    ``end_colours``). Returns :func:`replay`'s dict
    (``scores``, ``collections``, ``turns``, ``end_trigger``, ``win_share`` and the extras),
    with one translation: each seat's collection is a ``Counter`` of labels, a pile without
    order, as on the rules page (the order of the 2 kept cards is this module's reading, hand
    order, and no rule depends on it; ``montecards.testing`` compares a ``Counter`` with the
    library's list as a multiset).
    """
    params = dict(params or {})
    unknown = sorted(set(params) - set(PARAMS))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown}; allowed: {sorted(PARAMS)}")
    margin = params.get("two_player_margin", PARAMS["two_player_margin"])
    out = replay(list(deck), players, list(plays), [list(d) for d in discards],
                 two_player_margin=margin,
                 opening_parade=params.get("opening_parade", PARAMS["opening_parade"]),
                 end_colours=params.get("end_colours", PARAMS["end_colours"]),
                 colours=params.get("colours", PARAMS["colours"]),
                 values=params.get("values", PARAMS["values"]),
                 hand_size=params.get("hand_size", PARAMS["hand_size"]),
                 discards_each=params.get("discards", PARAMS["discards"]))
    out["collections"] = [Counter(c) for c in out["collections"]]
    return out

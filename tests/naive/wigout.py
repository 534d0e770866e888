"""Naive, independent reference ("oracle") for Wig Out!.

Written only from ``docs/rules/wigout.md`` (normative) and ``docs/design.md``; it does not
look at the library's kernel.  Slow and plain on purpose: every rule is spelt out once, in the
order the rules page states it, so that the fast kernel can be checked against it game by game.

Vocabulary (as on the rules page)
---------------------------------
* A **card** is a character ``0 .. characters-1``; the deck holds ``copies`` of each.
* A **round deck** is a list of characters, index 0 = top of the deck.
* A **hand** is kept as ``hand_counts``: a list, ``hand_counts[c]`` = copies of character ``c``
  held.
* A **pile** is a ``(character, count)`` face up on the table; the table is a list of piles in
  the order they appeared (the starter piles first).
* The **draw pile** is a list of characters, index 0 = top.

Readings of the rules page that this oracle had to choose (documented, tested)
-----------------------------------------------------------------------------
* Dealing is **block dealing** from the top of the round deck: the first ``hand_size`` cards go
  to seat 0, the next ``hand_size`` to seat 1, ..., then the next two cards are the two starter
  cards (first starter, then second), and the rest, in order, is the draw pile (its top is the
  card right after the second starter).  The dealer rotation (seat ``r mod P``) does not change
  the dealing order: the rules page says the dealer matters only through speed, and the deck is
  a uniform shuffle anyway.
* Starter piles: two piles ``[(a, 1), (b, 1)]``, or one pile ``[(a, 2)]`` when both starters
  show the same character.
* "Add a single card to any pile showing the same character": when several piles show that
  character the card goes on the oldest one (the choice never changes the game: only the
  characters on the table matter).  A new pile is appended at the end of the table.
* A pile is always started with **all** copies of that character in the hand (rules page,
  Strategies), so ``("start", c)`` moves ``hand_counts[c]`` cards.
* Rates (after every event): ``speed_i`` if seat i has a legal play; ``speed_i /
  draw_time_factor`` if it has none and the draw pile is not empty; 0 otherwise.  Every seat's
  speed must be > 0, so in the scripted entry point only "rate 0" matters: a seat with no play and
  an empty draw pile cannot act (``ValueError``).
* Deadlock is checked at the start of every round (possible only with tiny custom decks whose
  draw pile is empty after the deal) and after every event: if every rate is 0 the round ends as
  a deadlock, at once, without drawing a waiting time.  No points; nobody wins the round.  If
  ``deadlock_counts_as_round`` it is one of the ``rounds``; otherwise it is replayed with the next
  round deck (so one deck per *deal*; ``len(round_decks)`` = rounds + uncounted deadlocks).
  Actions, draws and time of a deadlocked deal are counted in the totals in both cases.
* To avoid an endless game when deadlocks do not count (e.g. ``copies=1`` always deadlocks), a
  game stops after ``max_deals`` deals (default 1000); it is then ``unfinished`` and its
  ``win_share`` is all zeros.  With the default rules this never happens.
* "Wig Out!": the round ends at once when a play empties the actor's hand (a draw never empties a
  hand).  The actor scores 0, everybody else 1 point per card in hand.
* A ``random`` seat consumes exactly one uniform ``u`` in [0, 1) per action where it has at least
  one legal play (even when there is only one play) and picks ``plays[floor(u * len(plays))]``;
  a forced draw consumes none.
* Game end: after ``rounds`` counted rounds; lowest total points wins, ties share 1/k each.
* Time is the sum of all waiting times over the whole game (it keeps running across rounds).
* ``play_random_model`` consumes its ``rng`` only through ``rng.random()`` in this order: at the
  start of each deal a Fisher-Yates shuffle of the sorted full deck (for i = n-1 .. 1, swap i with
  floor(u*(i+1))), then per event the waiting time ``-log(1-u)/total_rate``, then the actor
  (first seat whose cumulative rate exceeds ``u*total_rate``), then, for a ``random`` seat with a
  play, its uniform.  Stream equality with the kernel is *not* a goal; ``replay`` of the
  returned inputs is.
"""

import math

STRATEGIES = ("greedy", "singles_first", "random", "weighted", "tuned")
WEIGHTED = ("weighted", "tuned")  # also as "weighted[w0,w1,...]" with explicit weights


# ---------------------------------------------------------------------------------------------
# Plays and strategies
# ---------------------------------------------------------------------------------------------

def _pile_characters(piles):
    return {character for character, _count in piles}


def legal_plays(hand_counts, piles):
    """Every legal play, in the rules page's ``random`` order.

    By character ascending; for each character ``("start", c)`` (held >= 2 times; uses all
    copies held) before ``("add", c)`` (held >= 1 and a pile of ``c`` is on the table).  An empty
    list means the seat must draw (or wait when the draw pile is empty).
    """
    on_table = _pile_characters(piles)
    plays = []
    for character, held in enumerate(hand_counts):
        if held >= 2:
            plays.append(("start", character))
        if held >= 1 and character in on_table:
            plays.append(("add", character))
    return plays


def choose_greedy(hand_counts, piles):
    """``greedy``: start a pile with all copies of the most numerous character held >= 2 times
    (even if it already has a pile; ties: lowest index); else add a single card of the
    lowest-index character that has a pile; else ``None`` (draw)."""
    best = None
    for character, held in enumerate(hand_counts):
        if held >= 2 and (best is None or held > hand_counts[best]):
            best = character
    if best is not None:
        return ("start", best)
    on_table = _pile_characters(piles)
    for character, held in enumerate(hand_counts):
        if held >= 1 and character in on_table:
            return ("add", character)
    return None


def choose_singles_first(hand_counts, piles):
    """``singles_first``: add a single card of the lowest-index character that has a pile; else
    start a pile with all copies of the lowest-index character held >= 2 times; else ``None``."""
    on_table = _pile_characters(piles)
    for character, held in enumerate(hand_counts):
        if held >= 1 and character in on_table:
            return ("add", character)
    for character, held in enumerate(hand_counts):
        if held >= 2:
            return ("start", character)
    return None


def weighted_features(play, hand_counts, piles, other_hand_sizes, draw_pile_size, copies):
    """The ten features of ``weighted`` / ``tuned`` for one legal play (docs/strategies/wigout.md,
    "weighted and tuned: the features"), in their documented order."""
    kind, character = play
    held = hand_counts[character]
    start = kind == "start"
    cards = held if start else 1
    opens = start and character not in _pile_characters(piles)
    unseen = copies - held if opens else 0  # no card of it is on the table
    others = sum(other_hand_sizes)
    unseen_cards = max(others + draw_pile_size, 1)
    nearest = max(min(other_hand_sizes), 1)
    help_given = unseen * others / unseen_cards
    return [
        cards,
        1.0 if cards == sum(hand_counts) else 0.0,
        1.0 if (not start and held >= 2) else 0.0,
        0.0 if start else 1.0,
        1.0 if opens else 0.0,
        help_given,
        unseen * draw_pile_size / unseen_cards,
        help_given * (1.0 / nearest),
        cards * (1.0 / nearest),
        float(unseen) if draw_pile_size == 0 else 0.0,
    ]


def strategy_weights(name):
    """The weights of a ``weighted`` / ``tuned`` seat: its defaults, or the numbers in
    ``"weighted[w0,w1,...]"``; None for another strategy."""
    from montecards.games.wigout.strategies import DEFAULT_WEIGHTS, TUNED_WEIGHTS

    base, _, rest = name.partition("[")
    if base not in WEIGHTED:
        return None
    if rest:
        return [float(x) for x in rest.rstrip("]").split(",")]
    return list(DEFAULT_WEIGHTS if base == "weighted" else TUNED_WEIGHTS)


def choose_weighted(weights, plays, hand_counts, piles, other_hand_sizes, draw_pile_size, copies):
    """``weighted`` / ``tuned``: the play with the highest sum of weight x feature; ties: the
    first in the legal order."""
    best, best_score = None, None
    for play in plays:
        features = weighted_features(play, hand_counts, piles, other_hand_sizes, draw_pile_size,
                                     copies)
        score = 0.0
        for w, f in zip(weights, features, strict=True):
            score += w * f
        if best is None or score > best_score:
            best, best_score = play, score
    return best


def choose_random(plays, u):
    """``random``: ``plays[floor(u * len(plays))]`` with ``u`` in [0, 1)."""
    if not plays:
        raise ValueError("choose_random needs at least one legal play")
    if not (isinstance(u, (int, float)) and 0.0 <= u < 1.0):
        raise ValueError(f"random choice must be a uniform in [0, 1), got {u!r}")
    return plays[int(math.floor(u * len(plays)))]


# ---------------------------------------------------------------------------------------------
# Parameters
# ---------------------------------------------------------------------------------------------

def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _check_config(players, strategies, characters, copies, hand_size, rounds, speed,
                  draw_time_factor, max_deals):
    if not _is_int(players) or not 2 <= players <= 6:
        raise ValueError(f"players must be an integer from 2 to 6, got {players!r}")
    if isinstance(strategies, str):
        strategies = [strategies] * players
    strategies = list(strategies)
    if len(strategies) != players:
        raise ValueError(f"need {players} strategies (one per seat), got {len(strategies)}")
    for name in strategies:
        if name not in STRATEGIES and strategy_weights(name) is None:
            raise ValueError(f"unknown strategy {name!r}; allowed: {', '.join(STRATEGIES)}")
    if not _is_int(characters) or characters < 1:
        raise ValueError(f"characters must be an integer >= 1, got {characters!r}")
    if not _is_int(copies) or copies < 1:
        raise ValueError(f"copies must be an integer >= 1, got {copies!r}")
    if hand_size is None:
        hand_size = 7 if players <= 4 else 5
    if not _is_int(hand_size) or hand_size < 1:
        raise ValueError(f"hand_size must be an integer >= 1, got {hand_size!r}")
    deck_size = characters * copies
    if players * hand_size + 2 > deck_size:
        raise ValueError(
            f"cannot deal {hand_size} cards to {players} players plus 2 starter cards from a "
            f"deck of {deck_size} cards")
    if not _is_int(rounds) or rounds < 1:
        raise ValueError(f"rounds must be an integer >= 1, got {rounds!r}")
    if speed is None:
        speed = [1.0] * players
    elif isinstance(speed, (int, float)) and not isinstance(speed, bool):
        speed = [float(speed)] * players
    else:
        speed = [float(s) for s in speed]
        if len(speed) != players:
            raise ValueError(f"speed needs {players} values (one per seat), got {len(speed)}")
    for s in speed:
        if not (math.isfinite(s) and s > 0):
            raise ValueError(f"every speed must be a finite number > 0, got {s!r}")
    draw_time_factor = float(draw_time_factor)
    if not (math.isfinite(draw_time_factor) and draw_time_factor > 0):
        raise ValueError(f"draw_time_factor must be a finite number > 0, got {draw_time_factor!r}")
    if not _is_int(max_deals) or max_deals < 1:
        raise ValueError(f"max_deals must be an integer >= 1, got {max_deals!r}")
    return strategies, hand_size, speed, draw_time_factor


def _check_deck(deck, characters, copies):
    deck = list(deck)
    if len(deck) != characters * copies:
        raise ValueError(f"a round deck must hold {characters * copies} cards, got {len(deck)}")
    seen = [0] * characters
    for card in deck:
        if not _is_int(card) or not 0 <= card < characters:
            raise ValueError(f"card {card!r} is not a character 0..{characters - 1}")
        seen[card] += 1
    for character, n in enumerate(seen):
        if n != copies:
            raise ValueError(
                f"a round deck must hold {copies} copies of each character; character "
                f"{character} appears {n} times")
    return deck


# ---------------------------------------------------------------------------------------------
# Sources of inputs: scripted (replay) and random (play_random_model)
# ---------------------------------------------------------------------------------------------

class _ScriptedInputs:
    def __init__(self, round_decks, events, random_choices):
        self.decks = list(round_decks)
        self.events = list(events)
        self.deck_index = 0
        self.event_index = 0
        self.choices = iter(random_choices) if random_choices is not None else iter(())
        self.players = None

    def next_deck(self):
        if self.deck_index >= len(self.decks):
            raise ValueError(
                f"too few round decks: deal {self.deck_index} needs a deck, only "
                f"{len(self.decks)} given")
        deck = self.decks[self.deck_index]
        self.deck_index += 1
        return deck

    def next_event(self, rates):
        if self.event_index >= len(self.events):
            raise ValueError(
                f"too few events: the game is not over after {len(self.events)} events")
        event = self.events[self.event_index]
        self.event_index += 1
        try:
            actor, wait = event
        except (TypeError, ValueError):
            raise ValueError(f"event {self.event_index - 1} is not (actor, waiting_time): "
                             f"{event!r}") from None
        if not _is_int(actor) or not 0 <= actor < len(rates):
            raise ValueError(f"event {self.event_index - 1}: actor {actor!r} is not a seat")
        if isinstance(wait, bool) or not isinstance(wait, (int, float)) \
                or not math.isfinite(wait) or wait < 0:
            raise ValueError(f"event {self.event_index - 1}: waiting time {wait!r} must be a "
                             f"finite number >= 0")
        if rates[actor] <= 0:
            raise ValueError(
                f"event {self.event_index - 1}: seat {actor} cannot act (no legal play and the "
                f"draw pile is empty; its rate is 0)")
        return actor, float(wait)

    def next_choice(self):
        try:
            u = next(self.choices)
        except StopIteration:
            raise ValueError("too few random choices for the random strategy") from None
        if isinstance(u, bool) or not isinstance(u, (int, float)) or not 0.0 <= u < 1.0:
            raise ValueError(f"random choice must be a uniform in [0, 1), got {u!r}")
        return u

    def finish(self):
        if self.deck_index != len(self.decks):
            raise ValueError(f"too many round decks: {len(self.decks)} given, "
                             f"{self.deck_index} used")
        if self.event_index != len(self.events):
            raise ValueError(f"too many events: {len(self.events)} given, the game ended after "
                             f"{self.event_index}")
        for _leftover in self.choices:
            raise ValueError("too many random choices: some were left unused")


class _RandomInputs:
    def __init__(self, rng, characters, copies):
        self.rng = rng
        self.characters = characters
        self.copies = copies
        self.round_decks = []
        self.event_list = []
        self.random_choices = []

    def next_deck(self):
        deck = [c for c in range(self.characters) for _ in range(self.copies)]
        for i in range(len(deck) - 1, 0, -1):
            j = int(self.rng.random() * (i + 1))
            deck[i], deck[j] = deck[j], deck[i]
        self.round_decks.append(list(deck))
        return deck

    def next_event(self, rates):
        total = sum(rates)
        wait = -math.log(1.0 - self.rng.random()) / total
        target = self.rng.random() * total
        actor = None
        cumulative = 0.0
        for seat, rate in enumerate(rates):
            if rate > 0:
                cumulative += rate
                actor = seat
                if target < cumulative:
                    break
        self.event_list.append((actor, wait))
        return actor, wait

    def next_choice(self):
        u = self.rng.random()
        self.random_choices.append(u)
        return u

    def finish(self):
        pass


# ---------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------

def _snapshot(hands, piles, draw_pile):
    return {
        "hands": [list(h) for h in hands],
        "piles": [tuple(p) for p in piles],
        "draw_pile": list(draw_pile),
    }


def _rates(hands, piles, draw_pile, speed, draw_time_factor):
    rates = []
    for seat, hand in enumerate(hands):
        if legal_plays(hand, piles):
            rates.append(speed[seat])
        elif draw_pile:
            rates.append(speed[seat] / draw_time_factor)
        else:
            rates.append(0.0)
    return rates


def _play_game(players, strategies, inputs, characters, copies, hand_size, rounds,
               deadlock_counts_as_round, speed, draw_time_factor, max_deals):
    strategies, hand_size, speed, draw_time_factor = _check_config(
        players, strategies, characters, copies, hand_size, rounds, speed, draw_time_factor,
        max_deals)

    points = [0] * players
    rounds_won = [0] * players
    deadlocks = 0
    draws = 0
    actions = 0
    time = 0.0
    round_points = []
    round_winner = []      # seat that went out, or None for a deadlock
    round_counted = []     # whether the deal counted as one of the rounds
    round_actions = []
    round_draws = []
    log = []
    counted_rounds = 0
    deals = 0
    unfinished = False

    while counted_rounds < rounds:
        if deals >= max_deals:
            unfinished = True
            break
        deck = _check_deck(inputs.next_deck(), characters, copies)
        deal = deals
        deals += 1

        # --- Round setup: block dealing, two starter piles, the rest is the draw pile.
        hands = []
        for seat in range(players):
            hand = [0] * characters
            for card in deck[seat * hand_size:(seat + 1) * hand_size]:
                hand[card] += 1
            hands.append(hand)
        first_starter = deck[players * hand_size]
        second_starter = deck[players * hand_size + 1]
        if first_starter == second_starter:
            piles = [[first_starter, 2]]
        else:
            piles = [[first_starter, 1], [second_starter, 1]]
        draw_pile = deck[players * hand_size + 2:]
        entry = {"kind": "deal", "deal": deal, "round": counted_rounds, "time": time}
        entry.update(_snapshot(hands, piles, draw_pile))
        entry["text"] = (f"deal {deal} (round {counted_rounds}): starter piles "
                         f"{[tuple(p) for p in piles]}, draw pile {len(draw_pile)} cards")
        log.append(entry)

        r_actions = 0
        r_draws = 0
        winner = None
        while True:
            rates = _rates(hands, piles, draw_pile, speed, draw_time_factor)
            if all(rate == 0 for rate in rates):
                break  # deadlock: draw pile empty and nobody can play
            actor, wait = inputs.next_event(rates)
            time += wait
            hand = hands[actor]
            plays = legal_plays(hand, piles)
            if plays:
                name = strategies[actor]
                if name == "greedy":
                    play = choose_greedy(hand, piles)
                elif name == "singles_first":
                    play = choose_singles_first(hand, piles)
                elif strategy_weights(name) is not None:
                    play = choose_weighted(
                        strategy_weights(name), plays, hand, piles,
                        [sum(h) for s, h in enumerate(hands) if s != actor], len(draw_pile),
                        copies)
                else:
                    play = choose_random(plays, inputs.next_choice())
                assert play in plays
                kind, character = play
                if kind == "start":
                    moved = hand[character]
                    hand[character] = 0
                    piles.append([character, moved])
                    text = f"starts a pile of {moved} x {character}"
                else:
                    moved = 1
                    hand[character] -= 1
                    for pile in piles:
                        if pile[0] == character:
                            pile[1] += 1
                            break
                    text = f"adds a {character}"
            else:
                # Forced draw (the seat's rate is > 0 only if the draw pile is not empty).
                assert draw_pile
                kind = "draw"
                character = draw_pile.pop(0)
                hand[character] += 1
                moved = 1
                draws += 1
                r_draws += 1
                text = f"draws a {character}"
            actions += 1
            r_actions += 1
            entry = {"kind": "action", "deal": deal, "round": counted_rounds, "seat": actor,
                     "wait": wait, "time": time, "rates": rates, "action": kind,
                     "character": character, "cards": moved}
            entry.update(_snapshot(hands, piles, draw_pile))
            entry["text"] = f"t={time:.6f} seat {actor} {text}"
            log.append(entry)
            if sum(hand) == 0:
                winner = actor
                break

        if winner is None:
            deadlocks += 1
            deal_points = [0] * players
            counts = bool(deadlock_counts_as_round)
            log.append({"kind": "deadlock", "deal": deal, "round": counted_rounds, "time": time,
                        "counts_as_round": counts,
                        "text": f"deal {deal}: deadlock"
                                + ("" if counts else " (replayed with the next deck)")})
        else:
            deal_points = [0 if seat == winner else sum(hands[seat]) for seat in range(players)]
            rounds_won[winner] += 1
            counts = True
            log.append({"kind": "wigout", "deal": deal, "round": counted_rounds, "time": time,
                        "seat": winner, "points": list(deal_points),
                        "text": f"deal {deal}: seat {winner} wigs out; points {deal_points}"})
        for seat in range(players):
            points[seat] += deal_points[seat]
        round_points.append(deal_points)
        round_winner.append(winner)
        round_counted.append(counts)
        round_actions.append(r_actions)
        round_draws.append(r_draws)
        if counts:
            counted_rounds += 1

    inputs.finish()

    if unfinished:
        win_share = [0.0] * players
    else:
        best = min(points)
        winners = [seat for seat in range(players) if points[seat] == best]
        win_share = [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]

    return {
        "points": points,
        "rounds_won": rounds_won,
        "win_share": win_share,
        "deadlocks": deadlocks,
        "draws": draws,
        "actions": actions,
        "turns": actions,
        "time": time,
        "deals": deals,
        "unfinished": unfinished,
        "round_points": round_points,
        "round_winner": round_winner,
        "round_counted": round_counted,
        "round_actions": round_actions,
        "round_draws": round_draws,
        "hand_size": hand_size,
        "events": log,
    }


def replay(round_decks, players, events, strategies, *, characters=12, copies=5, hand_size=None,
           rounds=5, deadlock_counts_as_round=True, speed=None, draw_time_factor=1.0,
           random_choices=None, max_deals=1000):
    """Play one game from explicit inputs.

    round_decks: one deck per deal (list of characters, index 0 = top); events: the
    ``(actor_seat, waiting_time)`` of every action of the whole game, in order; strategies: one
    name per seat (or one name for all); random_choices: iterable of uniforms in [0, 1), one per
    action of a ``random`` seat that has a legal play.

    Returns a dict: ``points``, ``rounds_won``, ``win_share``, ``deadlocks``, ``draws``,
    ``actions`` (= ``turns``), ``time``, ``deals``, ``unfinished``, ``round_points`` /
    ``round_winner`` / ``round_counted`` / ``round_actions`` / ``round_draws`` (one entry per
    deal), ``hand_size`` and ``events`` (readable log of dicts with a ``text`` line each).

    Raises ValueError on invalid input: bad parameters, a deck that is not the full card set,
    an actor whose rate is 0, too few or too many decks / events / random choices.
    """
    inputs = _ScriptedInputs(round_decks, events, random_choices)
    return _play_game(players, strategies, inputs, characters, copies, hand_size, rounds,
                      deadlock_counts_as_round, speed, draw_time_factor, max_deals)


def play_random_model(players, rng, strategies, **params):
    """Play one complete game under the competing-hazards timing model, drawing every random
    input from ``rng`` (anything with a ``random()`` method, e.g. ``random.Random``).

    ``params`` are the keyword parameters of :func:`replay`.  Returns the :func:`replay` dict
    plus ``round_decks``, ``event_list`` and ``random_choices`` such that
    ``replay(res["round_decks"], players, res["event_list"], strategies,
    random_choices=res["random_choices"], **params)`` reproduces it.
    """
    allowed = {"characters", "copies", "hand_size", "rounds", "deadlock_counts_as_round",
               "speed", "draw_time_factor", "max_deals"}
    unknown = set(params) - allowed
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)}; allowed: {sorted(allowed)}")
    config = {"characters": 12, "copies": 5, "hand_size": None, "rounds": 5,
              "deadlock_counts_as_round": True, "speed": None, "draw_time_factor": 1.0,
              "max_deals": 1000}
    config.update(params)
    inputs = _RandomInputs(rng, config["characters"], config["copies"])
    result = _play_game(players, strategies, inputs, **config)
    result["round_decks"] = inputs.round_decks
    result["event_list"] = inputs.event_list
    result["random_choices"] = inputs.random_choices
    return result


# ---------------------------------------------------------------------------------------------
# The oracle interface
# ---------------------------------------------------------------------------------------------

PARAMS = ("characters", "copies", "hand_size", "rounds", "deadlock_counts_as_round", "speed",
          "draw_time_factor")  # the rule parameters of replay (defaults there)
DEALS_PER_ROUND = 100  # the library stops a game unfinished after rounds * 100 deals


def play_script(round_decks, players, events, strategies, params=None, random_choices=None):
    """The oracle interface every naive reference offers: one game from the keyword arguments
    of the library's scripted game (``play_scripted``), returning at least ``scores`` and
    ``win_share`` in the library's meaning.

    Wig Out!'s script is already in this module's terms (round decks of characters, the
    ``(actor, waiting_time)`` of every action, the seats' strategies and the ``random`` seats'
    uniforms): it goes to :func:`replay` as it is, ``params`` (a dict of ``PARAMS``) as its
    keyword parameters. The one translation: the game's deal cap, ``max_deals``, is the
    library's (``DEALS_PER_ROUND`` per counted round; it matters only when deadlocks do not
    count as rounds). Returns :func:`replay`'s dict plus ``scores`` (= ``points``), without
    its ``events`` (a log in this module's own form).
    """
    params = dict(params or {})
    unknown = sorted(set(params) - set(PARAMS))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown}; allowed: {list(PARAMS)}")
    rounds = params.get("rounds", 5)
    out = replay(round_decks, players, events, strategies, random_choices=random_choices,
                 max_deals=rounds * DEALS_PER_ROUND, **params)
    out = {key: value for key, value in out.items() if key != "events"}
    out["scores"] = list(out["points"])
    return out

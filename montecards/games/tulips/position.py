"""Gift of Tulips positions: what one seat knows when it acts with the card it drew, as JSON or one
line (issue #32).

The format is documented in docs/positions.md. A position holds, in the rules page's words
(docs/rules/tulips.md): the players, the acting seat, the decision (``action``: what to do with
the card just drawn), the rule parameters that differ from their defaults, the open festival (every
card opened there, the two opening cards included) and its ranking (1st place first: it fixes the
order of tied colours), every seat's bouquet and points so far (with the part that came from gifts),
the seat's OWN secret-festival cards and every seat's count of them, the card drawn, the turn's
first action (for the second action of a turn) and the cards left in the draw pile. A card is its
colour and value, ``pink-3`` (copies are interchangeable). The other seats' secret cards, the
removed cards and the draw pile's order are never in it: they are the seat's unseen cards.

Which seat acts, and whether it is the first or the second action of its turn, follow from the
draw pile's size (every turn draws two cards, seat 0 first): a position that says otherwise is
refused.

The **set-up split** (which of the two dealt cards goes to the bouquet, the other to the secret
festival) has a position of its own, ``decision: setup`` (``SetupPosition``): what the seat knows
then, the players, the rule parameters, the two opening festival cards, the opening ranking and
its own two dealt cards. The splits are simultaneous, so another seat's split is never in it (nor
its dealt cards). Its moves are ``bouquet-pink-3``.

``State`` is a full game a person can step through (``mc.state``): a position with one dealing of
its unseen cards, or a deck given card by card, played on by the kernel's own rule functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from montecards.engine.spec import WIN_UNIT, InputError
from montecards.games.position_forms import PositionForms, as_int, check_keys, parse_position
from montecards.games.tulips import playon, rules, view
from montecards.games.tulips.cards import COLOURS, N_COLOURS, deck_ids
from montecards.games.tulips.game import SPEC, pack_params
from montecards.games.tulips.strategies import WORK_SIZE
from montecards.rng import seed_stream

GAME = "tulips"
DECISIONS = ("action", "setup")
KEYS = ("game", "players", "seat", "decision", "rules", "festival", "ranking", "bouquets", "points",
        "give_points", "secret", "secret_sizes", "card", "first", "pile")
SETUP_KEYS = ("game", "players", "seat", "decision", "rules", "festival", "ranking", "hand")
RULE_NAMES = ("values", "base_per_value", "marked_per_value", "removed", "give_bonus", "keep_bonus",
              "majority_points", "secret_reveal", "start_points")
FIRST_NAMES = {"keep": rules.KEEP, "give": rules.GIVE, "festival": rules.OPEN}
CLASS_NAMES = {v: k for k, v in FIRST_NAMES.items()}


# --- cards ---------------------------------------------------------------------------------------


class Deck:
    """The card ids of a game's deck by (colour, value): a card as typed (``pink-3``) takes the
    next free id of its kind, so a position's cards become kernel ids in one fixed way."""

    def __init__(self, players: int, resolved: dict[str, Any]):
        self.values = list(resolved["values"])
        spec3 = (resolved["values"], resolved["base_per_value"], resolved["marked_per_value"])
        from montecards.games.tulips.cards import card_value, cards_per_colour

        cpc = cards_per_colour(*spec3)
        self.ids = deck_ids(players, *spec3)
        self.kind = {c: (c // cpc, card_value(c, *spec3)) for c in self.ids}
        self.pool: dict[tuple[int, int], list[int]] = {}
        for c in self.ids:
            self.pool.setdefault(self.kind[c], []).append(c)

    def name(self, card: int) -> str:
        colour, value = self.kind[card]
        return f"{COLOURS[colour]}-{value}"

    def parse(self, text: Any, what: str) -> tuple[int, int]:
        """``pink-3`` -> (colour, value); one line naming the card otherwise."""
        t = str(text).strip().lower().rstrip("*")
        colour, _, value = t.partition("-")
        if colour not in COLOURS or not value.isdigit() or int(value) not in self.values:
            raise InputError(f"position: {what}: unknown card {text!r} (a card is colour-value, e.g. pink-3; "
                             f"colours {', '.join(COLOURS)}, values {', '.join(map(str, self.values))})")
        return COLOURS.index(colour), int(value)

    def copies(self, kind: tuple[int, int]) -> int:
        return len(self.pool.get(kind, []))


def _card_list(value: Any, what: str) -> list[str]:
    """Cards as written: a list, or text ``pink-3,blue-2`` (``-`` for none)."""
    if isinstance(value, str):
        value = [] if value.strip() in ("", "-") else [p for p in value.replace(" ", ",").split(",") if p]
    if not isinstance(value, (list, tuple)):
        raise InputError(f"position: {what} must be a list of cards like pink-3,blue-2")
    return [str(v) for v in value]


def _ints(value: Any, what: str, players: int) -> list[int]:
    if isinstance(value, str):
        value = value.split(",") if value.strip() not in ("", "-") else []
    if not isinstance(value, (list, tuple)) or len(value) != players:
        raise InputError(f"position: {what} must list one number per seat ({players})")
    return [as_int(v, f"{what} of seat {s}") for s, v in enumerate(value)]


def parse_ranking(value: Any, what: str = "position: ranking") -> list[int]:
    """``blue>orange>pink>purple`` (1st place first) or a list of colour names -> colour indices."""
    parts = value.split(">") if isinstance(value, str) else value
    if not isinstance(parts, (list, tuple)):
        raise InputError(f"{what} must be the four colours, 1st place first, e.g. blue>orange>pink>purple")
    names = [str(p).strip().lower() for p in parts]
    if sorted(names) != sorted(COLOURS):
        raise InputError(f"{what} must name each of the four colours once, 1st place first "
                         f"(e.g. blue>orange>pink>purple), got {value!r}")
    return [COLOURS.index(n) for n in names]


def move_text(move: int, deck: Deck | None = None) -> str:
    """A ``view`` move id as a person types it: ``keep``, ``give-2`` (to seat 2), ``open``, ``secret``;
    a set-up move ``bouquet-pink-3`` (with ``deck``: the card's name)."""
    kind = view.move_kind(move)
    if kind == view.KIND_SETUP:
        return f"bouquet-{deck.name(view.move_card(move))}"
    if kind == rules.GIVE:
        return f"give-{view.move_receiver(move)}"
    return rules.ACTION_NAMES[kind]


def parse_move(text: str, decision: str = "action") -> list[int]:
    """An action as typed (``keep``, ``give-2``, ``give 2``, ``open``, ``secret``) -> ``[move id]``;
    a set-up split (``bouquet-pink-3``) -> ``[view.MOVE_SETUP, colour, value]`` (copies of a card
    are one split)."""
    t = str(text).strip().lower().replace(" ", "-")
    if decision == "setup":
        colour, _, value = t.removeprefix("bouquet-").rstrip("*").partition("-")
        if not t.startswith("bouquet-") or colour not in COLOURS or not value.isdigit():
            raise InputError(f"a set-up split is bouquet-CARD (the dealt card that goes to the bouquet, e.g. "
                             f"bouquet-pink-3), got {text!r}")
        return [view.MOVE_SETUP, COLOURS.index(colour), int(value)]
    if t in ("keep", "open", "secret"):
        return [rules.ACTION_NAMES.index(t) * 8]
    kind, _, seat = t.partition("-")
    if kind == "give" and seat.isdigit():
        return [rules.GIVE * 8 + int(seat)]
    raise InputError(f"an action is keep, give-S (to seat S), open (the open festival) or secret (the secret "
                     f"festival), got {text!r}")


class Position(PositionForms):
    """One seat's view of one Gift of Tulips action (validated on construction: ``InputError``)."""

    game = GAME

    def __new__(cls, data: Any = None):
        if cls is Position and isinstance(data, dict) and data.get("decision") == "setup":
            cls = SetupPosition  # the set-up split's position (its own keys)
        return super().__new__(cls)

    def __init__(self, data: dict[str, Any]):
        if isinstance(data, dict) and data.get("decision", "action") not in DECISIONS:
            raise InputError(f"position: decision must be action or setup, got {data['decision']!r}")
        check_keys(data, GAME, KEYS, ("players", "seat", "festival", "ranking", "bouquets", "points",
                                      "secret_sizes", "card", "pile"))
        self.players = SPEC.check_players(as_int(data["players"], "players"))
        players = self.players
        self.seat = as_int(data["seat"], "seat")
        if not 0 <= self.seat < players:
            raise InputError(f"position: seat must be 0..{players - 1}, got {self.seat}")
        self.decision = data.get("decision", "action")
        if self.decision not in DECISIONS:
            raise InputError(f"position: decision must be action or setup, got {self.decision!r}")
        given = data.get("rules") or {}
        if not isinstance(given, dict):
            raise InputError("position: rules must be an object like {\"secret_reveal\": 4}")
        self.rules = SPEC.resolve_params(players, given)
        self.packed = pack_params(players, self.rules)
        self.deck = Deck(players, self.rules)
        d = self.deck
        self.festival = [d.parse(c, "festival") for c in _card_list(data["festival"], "festival")]
        self.ranking = parse_ranking(data["ranking"])
        bouquets = data["bouquets"]
        if isinstance(bouquets, str):
            bouquets = bouquets.split("/")
        if not isinstance(bouquets, (list, tuple)) or len(bouquets) != players:
            raise InputError(f"position: bouquets must list one bouquet per seat ({players})")
        self.bouquets = [[d.parse(c, f"bouquet of seat {s}") for c in _card_list(b, f"bouquet of seat {s}")]
                         for s, b in enumerate(bouquets)]
        self.points = _ints(data["points"], "points", players)
        self.give_points = _ints(data.get("give_points", [0] * players), "give_points", players)
        self.secret = [d.parse(c, "secret") for c in _card_list(data.get("secret", []), "secret")]
        self.secret_sizes = _ints(data["secret_sizes"], "secret_sizes", players)
        self.card = d.parse(data["card"], "card")
        first = data.get("first")
        if first in (None, "", "-"):
            self.first = view.NO_CLASS
        elif str(first) in FIRST_NAMES:
            self.first = FIRST_NAMES[str(first)]
        else:
            raise InputError(f"position: first (the turn's first action) must be keep, give or festival, "
                             f"got {first!r}")
        self.pile = as_int(data["pile"], "pile")
        self._check()

    # --- validation: a position that cannot occur is refused with one line -----------------

    def drawn(self) -> int:
        """Cards drawn from the deck so far (festival, deal, every action's card, this card)."""
        return self.pile_end() - self.pile

    def pile_end(self) -> int:
        return len(self.deck.ids) - self.rules["removed"][self.players - 2]

    def actions_before(self) -> int:
        """Actions played before this one, all seats together."""
        return self.drawn() - 2 - 2 * self.players - 1

    @property
    def step(self) -> int:
        """0: the turn's first action; 1: its second."""
        return self.actions_before() % 2

    @property
    def turn(self) -> int:
        """Turns begun, all seats together (this one included)."""
        return self.actions_before() // 2 + 1

    def _check(self) -> None:
        players, seat, d = self.players, self.seat, self.deck
        after_deal = self.pile_end() - 2 - 2 * players
        if not 0 <= self.pile < after_deal:
            raise InputError(f"position: the draw pile holds 0..{after_deal - 1} cards after a card is drawn "
                             f"({len(d.ids)} cards - {self.rules['removed'][players - 2]} removed - 2 "
                             f"festival - 2 per seat - the card drawn), got {self.pile}")
        actions = self.actions_before()
        if (actions // 2) % players != seat:
            raise InputError(f"position: with {self.pile} cards left in the draw pile it is seat "
                             f"{(actions // 2) % players}'s turn, not seat {seat}'s")
        if self.step == 0 and self.first != view.NO_CLASS:
            raise InputError(f"position: with {self.pile} cards left the seat makes its turn's first action: "
                             "no first action to give")
        if self.step == 1 and self.first == view.NO_CLASS:
            raise InputError(f"position: with {self.pile} cards left the seat makes its turn's second "
                             "action: give the first (first=keep, give or festival)")
        shown: dict[tuple[int, int], int] = {}
        for kind in self.festival + [c for b in self.bouquets for c in b] + self.secret + [self.card]:
            shown[kind] = shown.get(kind, 0) + 1
        for kind, n in shown.items():
            if n > d.copies(kind):
                name = f"{COLOURS[kind[0]]}-{kind[1]}"
                raise InputError(f"position: card {name} shown {n} times (festival, bouquets, own secret "
                                 f"cards and the card drawn), only {d.copies(kind)} copies exist with "
                                 f"{players} players")
        if len(self.festival) < 2:
            raise InputError(f"position: the open festival holds at least its 2 opening cards, got "
                             f"{len(self.festival)}")
        for s in range(players):
            if not self.bouquets[s]:
                raise InputError(f"position: seat {s}'s bouquet is empty (every seat puts a card there at "
                                 "set-up)")
            if self.secret_sizes[s] < 1:
                raise InputError(f"position: seat {s} has {self.secret_sizes[s]} secret-festival cards "
                                 "(every seat puts one there at set-up)")
        if len(self.secret) != self.secret_sizes[seat]:
            raise InputError(f"position: secret lists {len(self.secret)} of seat {seat}'s own "
                             f"secret-festival cards, secret_sizes gives it {self.secret_sizes[seat]}")
        placed = sum(map(len, self.bouquets)) + len(self.festival) + sum(self.secret_sizes)
        if placed != self.drawn() - 1:
            raise InputError(f"position: the festival ({len(self.festival)}), the bouquets "
                             f"({sum(map(len, self.bouquets))}) and the secret festival "
                             f"({sum(self.secret_sizes)}) "
                             f"hold {placed} cards, but {self.drawn() - 1} were drawn before this card "
                             f"({self.pile} left in the pile)")
        totals = self.totals()
        for p in range(1, 4):
            if totals[self.ranking[p]] > totals[self.ranking[p - 1]]:
                raise InputError(f"position: ranking puts {COLOURS[self.ranking[p]]} (total "
                                 f"{totals[self.ranking[p]]}) below {COLOURS[self.ranking[p - 1]]} (total "
                                 f"{totals[self.ranking[p - 1]]}): the ranking is sorted by festival total")
        for s in range(players):
            if self.give_points[s] < 0:
                raise InputError(f"position: give_points of seat {s} must be >= 0")

    def totals(self) -> list[int]:
        out = [0] * N_COLOURS
        for colour, value in self.festival:
            out[colour] += value
        return out

    # --- the two written forms ---------------------------------------------------------------

    def changed_rules(self) -> dict[str, Any]:
        defaults = SPEC.resolve_params(self.players, {})
        return {n: self.rules[n] for n in RULE_NAMES if self.rules[n] != defaults[n]}

    @staticmethod
    def _name(kind: tuple[int, int]) -> str:
        return f"{COLOURS[kind[0]]}-{kind[1]}"

    def to_dict(self) -> dict[str, Any]:
        n = self._name
        out: dict[str, Any] = {"game": GAME, "players": self.players, "seat": self.seat,
                               "decision": self.decision}
        changed = self.changed_rules()
        if changed:
            out["rules"] = changed
        out.update({
            "festival": [n(c) for c in self.festival],
            "ranking": ">".join(COLOURS[c] for c in self.ranking),
            "bouquets": [[n(c) for c in b] for b in self.bouquets],
            "points": list(self.points), "give_points": list(self.give_points),
            "secret": [n(c) for c in self.secret], "secret_sizes": list(self.secret_sizes),
            "card": n(self.card), "first": CLASS_NAMES.get(self.first, "-"), "pile": self.pile,
        })
        if self.first == view.NO_CLASS:
            del out["first"]
        return out

    def to_string(self) -> str:
        """The one-line form: ``key=value`` fields, cards comma-separated (``-`` for none), the
        bouquets seat by seat separated by ``/``, a changed rule as its own field."""
        n = self._name

        def cards(kinds: Sequence[tuple[int, int]]) -> str:
            return ",".join(n(c) for c in kinds) or "-"

        def plain(value: Any) -> str:
            if isinstance(value, list):
                return ",".join(plain(v) for v in value)
            return str(value)

        fields = [GAME, f"players={self.players}", f"seat={self.seat}"]
        fields += [f"{k}={plain(v)}" for k, v in self.changed_rules().items()]
        fields += [f"festival={cards(self.festival)}",
                   "ranking=" + ">".join(COLOURS[c] for c in self.ranking),
                   "bouquets=" + "/".join(cards(b) for b in self.bouquets),
                   "points=" + ",".join(map(str, self.points)),
                   "gifts=" + ",".join(map(str, self.give_points)),
                   f"secret={cards(self.secret)}", "secrets=" + ",".join(map(str, self.secret_sizes)),
                   f"card={n(self.card)}"]
        if self.first != view.NO_CLASS:
            fields.append(f"first={CLASS_NAMES[self.first]}")
        fields.append(f"pile={self.pile}")
        return " ".join(fields)

    # --- moves -------------------------------------------------------------------------------

    def legal_ids(self) -> list[int]:
        """The seat's actions as ``view`` move ids, in the view's legal order (gifts clockwise
        from the next seat, keep, open, secret; the first action's kind left out)."""
        out = []
        if self.first != rules.GIVE:
            out += [rules.GIVE * 8 + (self.seat + k) % self.players for k in range(1, self.players)]
        if self.first != rules.KEEP:
            out.append(rules.KEEP * 8)
        if self.first != rules.OPEN:
            out += [rules.OPEN * 8, rules.SECRET_ACTION * 8]
        return out

    def legal_moves(self) -> list[str]:
        return [move_text(m) for m in self.legal_ids()]

    # --- the state of a position ---------------------------------------------------------------

    def template(self) -> tuple[np.ndarray, list[int], dict[str, Any]]:
        """``(g, unseen ids, layout)``: the kernel's state of the position with the seat's unseen
        cards (ids, sorted) not yet placed: the other seats' secret slots and the undrawn cards
        hold them in id order (``State.from_position`` deals them; the analysis deals them per
        determinization). ``layout``: the ids given to the festival, bouquets and secret cards."""
        players, d = self.players, self.deck
        free = {k: list(v) for k, v in d.pool.items()}

        def take(kind: tuple[int, int]) -> int:
            return free[kind].pop(0)

        festival = [take(k) for k in self.festival]
        bouquets = [[take(k) for k in b] for b in self.bouquets]
        secret = [take(k) for k in self.secret]
        card = take(self.card)
        unseen = sorted(c for v in free.values() for c in v)
        g = np.zeros(WORK_SIZE, np.int64)  # the rules' state and the strategies' scratch (kernel.new_work)
        rules.init_tables(g, players, self.packed)
        rules.reset_game(g, True)
        drawn = self.drawn()
        g[rules.DRAWN] = drawn
        g[rules.ACTIONS] = self.actions_before()
        g[rules.TURNS] = self.turn
        for c in festival:
            g[rules.TOTALS + d.kind[c][0]] += d.kind[c][1]
        for p, colour in enumerate(self.ranking):
            g[rules.RANK + p] = colour
            g[rules.PLACE + colour] = p
        for s, b in enumerate(bouquets):
            for c in b:
                rules.to_bouquet(g, s, c)
            start = self.rules["start_points"][s]
            g[rules.GIVE_PTS + s] = self.give_points[s]
            g[rules.KEEP_PTS + s] = self.points[s] - start - self.give_points[s]
            g[rules.SO_FAR + s] = self.points[s]
        hidden = list(unseen)
        others = []
        mine = list(secret)
        for s in range(players):  # secret slots seat by seat (only their count is public)
            for _ in range(self.secret_sizes[s]):
                if s == self.seat:
                    rules.to_secret(g, s, mine.pop(0))
                else:
                    c = hidden.pop(0)
                    others.append(c)
                    rules.to_secret(g, s, c)
        seen = festival + [c for b in bouquets for c in b] + [int(g[rules.SECRET + i])
                                                              for i in range(int(g[rules.N_SECRET]))]
        layout = seen + [card] + hidden
        g[rules.DECK : rules.DECK + len(layout)] = layout
        return g, unseen, {"festival": festival, "bouquets": bouquets}


class SetupPosition(Position):
    """One seat's view of its Gift of Tulips set-up split (``decision: setup``): the players, the
    rule parameters, the two opening festival cards, the opening ranking and its two dealt cards
    (``hand``). Which one goes to the bouquet is the decision; the other goes to the secret
    festival. The splits are simultaneous: the other seats' dealt cards and splits are never in it.
    Validated on construction (``InputError``)."""

    no_value = "the set-up split has no value column: V reads a state after every seat's split"
    """Why the analysis' value column is empty here (``analysis.moves.value_setup``)."""

    def __init__(self, data: dict[str, Any]):
        check_keys(data, GAME, SETUP_KEYS, ("players", "seat", "festival", "ranking", "hand"))
        self.players = SPEC.check_players(as_int(data["players"], "players"))
        players = self.players
        self.seat = as_int(data["seat"], "seat")
        if not 0 <= self.seat < players:
            raise InputError(f"position: seat must be 0..{players - 1}, got {self.seat}")
        self.decision = "setup"
        given = data.get("rules") or {}
        if not isinstance(given, dict):
            raise InputError("position: rules must be an object like {\"secret_reveal\": 4}")
        self.rules = SPEC.resolve_params(players, given)
        self.packed = pack_params(players, self.rules)
        self.deck = Deck(players, self.rules)
        d = self.deck
        self.festival = [d.parse(c, "festival") for c in _card_list(data["festival"], "festival")]
        self.ranking = parse_ranking(data["ranking"])
        self.hand = [d.parse(c, "hand") for c in _card_list(data["hand"], "hand")]
        # what follows from the set-up (the action position's attributes): nothing placed yet
        self.bouquets = [[] for _ in range(players)]
        self.points = list(self.rules["start_points"])
        self.give_points = [0] * players
        self.secret: list[tuple[int, int]] = []
        self.secret_sizes = [0] * players
        self.card = None
        self.first = view.NO_CLASS
        self.pile = self.pile_end() - 2 - 2 * players
        self._check()

    def actions_before(self) -> int:
        return 0

    @property
    def step(self) -> int:
        return 0

    @property
    def turn(self) -> int:
        """0: before the first turn."""
        return 0

    def _check(self) -> None:
        players, d = self.players, self.deck
        if len(self.festival) != 2:
            raise InputError(f"position: at the set-up the open festival holds its 2 opening cards, got "
                             f"{len(self.festival)}")
        if self.festival[0][0] == self.festival[1][0]:
            raise InputError("position: the 2 opening festival cards are of different colours, got "
                             f"{self._name(self.festival[0])} and {self._name(self.festival[1])}")
        if len(self.hand) != 2:
            raise InputError(f"position: hand lists the seat's 2 dealt cards, got {len(self.hand)}")
        shown: dict[tuple[int, int], int] = {}
        for kind in self.festival + self.hand:
            shown[kind] = shown.get(kind, 0) + 1
        for kind, n in shown.items():
            if n > d.copies(kind):
                raise InputError(f"position: card {self._name(kind)} shown {n} times (festival and hand), "
                                 f"only {d.copies(kind)} copies exist with {players} players")
        totals = self.totals()
        for p in range(1, 4):
            if totals[self.ranking[p]] > totals[self.ranking[p - 1]]:
                raise InputError(f"position: ranking puts {COLOURS[self.ranking[p]]} (total "
                                 f"{totals[self.ranking[p]]}) below {COLOURS[self.ranking[p - 1]]} (total "
                                 f"{totals[self.ranking[p - 1]]}): the ranking is sorted by festival total")

    def to_dict(self) -> dict[str, Any]:
        n = self._name
        out: dict[str, Any] = {"game": GAME, "players": self.players, "seat": self.seat, "decision": "setup"}
        changed = self.changed_rules()
        if changed:
            out["rules"] = changed
        out.update({"festival": [n(c) for c in self.festival],
                    "ranking": ">".join(COLOURS[c] for c in self.ranking),
                    "hand": [n(c) for c in self.hand]})
        return out

    def to_string(self) -> str:
        """The one-line form: ``tulips players=4 seat=1 decision=setup festival=pink-3,blue-2
        ranking=pink>blue>orange>purple hand=pink-4,orange-2`` (a changed rule as its own field)."""
        n = self._name

        def plain(value: Any) -> str:
            return ",".join(plain(v) for v in value) if isinstance(value, list) else str(value)

        fields = [GAME, f"players={self.players}", f"seat={self.seat}", "decision=setup"]
        fields += [f"{k}={plain(v)}" for k, v in self.changed_rules().items()]
        fields += [f"festival={','.join(n(c) for c in self.festival)}",
                   "ranking=" + ">".join(COLOURS[c] for c in self.ranking),
                   f"hand={','.join(n(c) for c in self.hand)}"]
        return " ".join(fields)

    def legal_ids(self) -> list[int]:
        raise InputError("a set-up split has no action move ids (its moves are bouquet-CARD)")

    def legal_moves(self) -> list[str]:
        """``bouquet-CARD`` for each dealt card, in hand order (two equal cards: one split)."""
        return list(dict.fromkeys(f"bouquet-{self._name(c)}" for c in self.hand))

    def template(self) -> tuple[np.ndarray, list[int], dict[str, Any]]:
        """``(g, unseen ids, layout)``: the kernel's state at the set-up (the festival opened and
        ranked, every seat dealt, no split placed) with the seat's unseen cards (ids, sorted: the
        other seats' dealt cards, the draw pile and the removed cards) not yet placed: the other
        seats' hands and the undrawn cards hold them in id order."""
        players, d = self.players, self.deck
        free = {k: list(v) for k, v in d.pool.items()}
        festival = [free[k].pop(0) for k in self.festival]
        hand = [free[k].pop(0) for k in self.hand]
        unseen = sorted(c for v in free.values() for c in v)
        g = np.zeros(WORK_SIZE, np.int64)  # the rules' state and the strategies' scratch (kernel.new_work)
        rules.init_tables(g, players, self.packed)
        rules.reset_game(g, True)
        hidden = list(unseen)
        layout = list(festival)
        for s in range(players):
            layout += hand if s == self.seat else [hidden.pop(0), hidden.pop(0)]
        layout += hidden
        g[rules.DECK : rules.DECK + len(layout)] = layout
        g[rules.DRAWN] = 2 + 2 * players
        for c in festival:
            g[rules.TOTALS + d.kind[c][0]] += d.kind[c][1]
        for p, colour in enumerate(self.ranking):
            g[rules.RANK + p] = colour
            g[rules.PLACE + colour] = p
        return g, unseen, {"festival": festival, "bouquets": [[] for _ in range(players)]}

    def hand_index(self, move: str) -> int:
        """The hand index (0, 1) of a split as typed (``bouquet-pink-3``)."""
        _, colour, value = parse_move(move, "setup")
        for k, kind in enumerate(self.hand):
            if kind == (colour, value):
                return k
        raise InputError(f"{move!r} is not a split of this hand (legal: {', '.join(self.legal_moves())})")


LINE_FIELDS = {"players": "players", "seat": "seat", "decision": "decision", "festival": "festival",
               "ranking": "ranking", "bouquets": "bouquets", "points": "points", "gifts": "give_points",
               "secret": "secret", "secrets": "secret_sizes", "card": "card", "first": "first",
               "pile": "pile", "hand": "hand"}
"""The one-line form's fields and their JSON keys (a changed rule is a field of its own)."""


def _line_data(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    data: dict[str, Any] = {"game": GAME}
    given: dict[str, Any] = {}
    for key, value in pairs:
        if key in LINE_FIELDS:
            data[LINE_FIELDS[key]] = value
        elif key in RULE_NAMES:
            given[key] = value
        else:
            known = ", ".join(list(LINE_FIELDS) + list(RULE_NAMES))
            raise InputError(f"position: unknown field {key!r} (fields: {known})")
    if given:
        data["rules"] = given
    return data


def parse(text: str | dict[str, Any] | Position) -> Position:
    """A position from JSON (text or dict) or the one-line form; ``InputError`` if impossible."""
    return parse_position(text, Position, GAME, _line_data)


# --- a full game to step through: mc.state ---------------------------------------------------------


class State:
    """A full Gift of Tulips game at a decision (OpenSpiel's state as the model):
    ``legal_moves()``, ``apply(move)``, ``observe()``, ``clone()``, ``is_terminal``, ``result``.

    Decisions: every seat's set-up split (``bouquet-pink-3``: that card to the bouquet, the other
    to the secret festival; seat by seat, applied together once every seat has chosen, as
    ``kernel.set_up``), then every action (``keep``, ``give-S``, ``open``, ``secret``). Between
    actions the state draws the next card (the deck's order, or a lazy shuffle of the undrawn cards
    from ``seed``'s deck stream) and, at the end, reveals the secret festival (a given order, or
    the kernel's random reveal from the same stream) and scores. The rule functions are the
    kernel's (``rules.apply_action``, ``raise_colour``, ``reveal_secret``, ``final_scores``)."""

    game = GAME

    def __init__(self, g: np.ndarray, players: int, params: dict[str, Any], seed: int, lazy: bool,
                 festival: list[int], bouquets: list[list[int]], reveal: list[int] | None = None):
        self.g = g
        self.params = params
        self.deck = Deck(players, params)
        self.seed = int(seed)
        self.deck_rng = np.zeros(4, np.uint64)
        seed_stream(self.deck_rng, np.uint64(self.seed), 0, playon.DECK_STREAM)
        self.lazy = lazy
        self.festival = list(festival)
        self.bouquets = [list(b) for b in bouquets]
        self.reveal = reveal
        self.setup: list[int] = []  # set-up choices so far (hand index), seat by seat
        self.current = 0
        self.step = 0
        self.first = view.NO_CLASS
        self.over = False
        self.history: list[tuple[int, str]] = []

    @classmethod
    def from_position(cls, position: Position | str | dict, seed: int = 0) -> State:
        """The position with its unseen cards dealt once from ``seed`` (the other seats' secret
        cards, then the undrawn cards, drawn later by lazy shuffle). A set-up position: the other
        seats' dealt cards, then the undrawn cards; the state is at the set-up, every seat's split
        still to make (seat 0's first, as ``kernel.set_up`` asks them)."""
        pos = parse(position)
        g, unseen, layout = pos.template()
        rng = np.random.default_rng([int(seed), playon.DEAL_STREAM])
        dealt = list(rng.permutation(np.array(unseen, np.int64))) if unseen else []
        if pos.decision == "setup":
            m = 0
            for s in range(pos.players):
                if s != pos.seat:
                    g[rules.DECK + 2 + 2 * s : rules.DECK + 4 + 2 * s] = dealt[m : m + 2]
                    m += 2
            g[rules.DECK + 2 + 2 * pos.players : rules.DECK + int(g[rules.N_DECK])] = dealt[m:]
            return cls(g, pos.players, pos.rules, seed, True, layout["festival"], layout["bouquets"])
        m = 0
        for i in range(int(g[rules.N_SECRET])):
            if g[rules.SECRET_SEAT + i] != pos.seat:
                g[rules.SECRET + i] = dealt[m]
                m += 1
        drawn = int(g[rules.DRAWN])
        g[rules.DECK + drawn : rules.DECK + int(g[rules.N_DECK])] = dealt[m:]
        state = cls(g, pos.players, pos.rules, seed, True, layout["festival"], layout["bouquets"])
        state.setup = [0] * pos.players
        state.current, state.step, state.first = pos.seat, pos.step, pos.first
        return state

    @classmethod
    def from_deal(cls, deck: Sequence[Any], players: int, params: dict[str, Any] | None = None,
                  opening: Any = None, reveal: Sequence[Any] | None = None, seed: int = 0) -> State:
        """The game dealt from an explicit deck (top first, as ``play_scripted`` takes it: the
        removed cards, the 2 festival cards, 2 per seat, the draw pile; ids or names like
        ``pink-3``); ``opening``: the opening ranking (ties' order), else drawn from ``seed``;
        ``reveal``: the secret cards revealed at the end in order, else drawn from ``seed``."""
        players = SPEC.check_players(players)
        resolved = SPEC.resolve_params(players, params)
        packed = pack_params(players, resolved)
        d = Deck(players, resolved)
        ids = _deck_ids(deck, d)
        g = np.zeros(WORK_SIZE, np.int64)  # the rules' state and the strategies' scratch (kernel.new_work)
        rules.init_tables(g, players, packed)
        rules.reset_game(g, False)
        r = resolved["removed"][players - 2]
        drawing = ids[r:] + ids[:r]
        g[rules.DECK : rules.DECK + len(drawing)] = drawing
        if not rules.draw_festival(g, np.zeros(4, np.uint64), False):
            raise InputError("deck: the two festival cards must be of different colours")
        rules.open_festival_setup(g, None)
        state = cls(g, players, resolved, seed, False, drawing[:2], [[] for _ in range(players)])
        if opening is None:
            rules.random_opening(g, state.deck_rng)
        elif not rules.set_ranking(g, np.array(parse_ranking(opening, "opening"), np.int64)):
            raise InputError("opening: the ranking must be sorted by festival total (highest first)")
        for _ in range(2 * players):
            rules.next_card(g, state.deck_rng, False)
        if reveal is not None:
            state.reveal = [d.parse(c, "reveal") if not str(c).isdigit() else d.kind[int(c)] for c in reveal]
        return state

    # --- OpenSpiel's state API ---------------------------------------------------------------

    @property
    def players(self) -> int:
        return int(self.g[rules.PLAYERS])

    @property
    def is_terminal(self) -> bool:
        return self.over

    @property
    def decision(self) -> str:
        return "setup" if len(self.setup) < self.players else "action"

    @property
    def current_player(self) -> int:
        return -1 if self.over else self.current

    @property
    def action(self) -> int:
        """Decisions so far (set-up splits and actions)."""
        return len(self.history)

    def card(self) -> int:
        """The card the current seat holds (its drawn card)."""
        return int(self.g[rules.DECK + self.g[rules.DRAWN] - 1])

    def _legal_ids(self) -> list[int]:
        legal = np.zeros(view.MAX_LEGAL, np.int64)
        kind = view.DECISION_SETUP if self.decision == "setup" else view.DECISION_ACTION
        n = view.legal_moves(self.g, self.current, kind, self.first, legal)
        return legal[:n].tolist()

    def legal_moves(self) -> list[str]:
        if self.over:
            return []
        out = [move_text(m, self.deck) for m in self._legal_ids()]
        return list(dict.fromkeys(out))  # two equal dealt cards: one split

    def apply(self, move: str) -> None:
        """The current seat's move (as ``legal_moves`` writes it); ``InputError`` if illegal."""
        if self.over:
            raise InputError("the game is over: no move to apply")
        text = str(move).strip().lower()
        legal = self.legal_moves()
        if text not in legal:
            raise InputError(f"{move!r} is not legal for seat {self.current} (legal: {', '.join(legal)})")
        g, seat = self.g, self.current
        self.history.append((seat, text))
        if self.decision == "setup":
            names = [move_text(m, self.deck) for m in self._legal_ids()]
            self.setup.append(names.index(text))
            if len(self.setup) < self.players:
                self.current += 1
                return
            for s in range(self.players):
                a, b = int(rules.dealt_card(g, s, 0)), int(rules.dealt_card(g, s, 1))
                keep, hide = (a, b) if self.setup[s] == 0 else (b, a)
                rules.to_bouquet(g, s, keep)
                rules.to_secret(g, s, hide)
                self.bouquets[s].append(keep)
            self.current = self.players - 1  # the first turn goes to seat 0
            self.step = 1
            self._next()
            return
        m = self._legal_ids()[[move_text(x) for x in self._legal_ids()].index(text)]
        card = self.card()
        cls = playon.play_move(g, seat, card, m)
        action = view.move_action(m)
        if action == rules.OPEN:
            self.festival.append(card)
        elif action in (rules.KEEP, rules.GIVE):
            self.bouquets[view.move_receiver(m) if action == rules.GIVE else seat].append(card)
        self.first = cls
        self._next()

    def _next(self) -> None:
        """Draw the next card (the same seat's second, or the next seat's first), or end the game."""
        g = self.g
        if g[rules.DRAWN] >= g[rules.PILE_END]:
            self._end()
            return
        if self.step == 0:
            self.step = 1
        else:
            self.step = 0
            self.first = view.NO_CLASS
            self.current = (self.current + 1) % self.players
            g[rules.TURNS] += 1
        rules.next_card(g, self.deck_rng, self.lazy)

    def _end(self) -> None:
        g = self.g
        order = None
        if self.reveal is not None:
            secret = [int(g[rules.SECRET + i]) for i in range(int(g[rules.N_SECRET]))]
            order = []
            for kind in self.reveal:
                found = [c for c in secret if self.deck.kind[c] == kind and c not in order]
                if not found:
                    raise InputError(f"reveal: no {COLOURS[kind[0]]}-{kind[1]} left in the secret festival")
                order.append(found[0])
            order = np.array(order, np.int64)
        if not rules.reveal_secret(g, self.deck_rng, order, None):
            shown = min(int(g[rules.N_SECRET]), int(g[rules.REVEAL]))
            raise InputError(f"reveal: the secret festival reveals {shown} "
                             f"cards, the record gives {len(self.reveal)}")
        rules.final_scores(g, None)
        self.over = True
        self.current = -1

    def observe(self, seat: int | None = None) -> Position:
        """What the seat to act knows now, as a position (an action decision). At the set-up any
        seat's split position (``seat``, default the seat to split): the splits are simultaneous,
        so the splits already chosen are not in it."""
        if self.over:
            raise InputError("the game is over: no decision to observe")
        seat = self.current if seat is None else seat
        if self.decision == "setup":
            if not isinstance(seat, (int, np.integer)) or not 0 <= seat < self.players:
                raise InputError(f"seat must be 0..{self.players - 1}, got {seat!r}")
            defaults = SPEC.resolve_params(self.players, {})
            return Position({
                "game": GAME, "players": self.players, "seat": int(seat), "decision": "setup",
                "rules": {k: v for k, v in self.params.items() if v != defaults[k]},
                "festival": [self.deck.name(c) for c in self.festival],
                "ranking": [COLOURS[int(self.g[rules.RANK + p])] for p in range(4)],
                "hand": [self.deck.name(int(rules.dealt_card(self.g, seat, k))) for k in range(2)],
            })
        if seat != self.current:
            raise InputError(f"a position is the deciding seat's: seat {self.current} acts, not seat {seat}")
        g, d = self.g, self.deck
        players = self.players
        secret_sizes = [0] * players
        own = []
        for i in range(int(g[rules.N_SECRET])):
            s = int(g[rules.SECRET_SEAT + i])
            secret_sizes[s] += 1
            if s == seat:
                own.append(d.name(int(g[rules.SECRET + i])))
        defaults = SPEC.resolve_params(players, {})
        data = {
            "game": GAME, "players": players, "seat": seat, "decision": "action",
            "rules": {k: v for k, v in self.params.items() if v != defaults[k]},
            "festival": [d.name(c) for c in self.festival],
            "ranking": [COLOURS[int(g[rules.RANK + p])] for p in range(4)],
            "bouquets": [[d.name(c) for c in b] for b in self.bouquets],
            "points": [int(g[rules.SO_FAR + s]) for s in range(players)],
            "give_points": [int(g[rules.GIVE_PTS + s]) for s in range(players)],
            "secret": own, "secret_sizes": secret_sizes, "card": d.name(self.card()),
            "first": CLASS_NAMES.get(self.first) if self.step == 1 else None,
            "pile": int(g[rules.PILE_END] - g[rules.DRAWN]),
        }
        return Position(data)

    def clone(self) -> State:
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        other.g = self.g.copy()
        other.deck_rng = self.deck_rng.copy()
        other.festival = list(self.festival)
        other.bouquets = [list(b) for b in self.bouquets]
        other.setup = list(self.setup)
        other.history = list(self.history)
        return other

    @property
    def result(self) -> list[float] | None:
        if not self.over:
            return None
        return [int(self.g[rules.SHARE + s]) / WIN_UNIT for s in range(self.players)]

    @property
    def scores(self) -> list[int]:
        """Points so far (the final points once the game is over)."""
        off = rules.SCORE if self.over else rules.SO_FAR
        return [int(self.g[off + s]) for s in range(self.players)]

    def __repr__(self) -> str:
        if self.over:
            return f"<tulips state: over, win shares {self.result}, points {self.scores}>"
        if self.decision == "setup":
            moves = ", ".join(self.legal_moves())
            return f"<tulips state: seat {self.current} to split its dealt cards ({moves})>"
        return f"<tulips state: seat {self.current} to act; {self.observe().to_string()}>"


def _deck_ids(deck: Sequence[Any], d: Deck) -> list[int]:
    """A deck as ids (given as ids, or names: each name the next free id of its kind)."""
    if not isinstance(deck, (list, tuple)) or not deck:
        raise InputError("deck must list every card, top first (removed, festival, 2 per seat, pile)")
    free = {k: list(v) for k, v in d.pool.items()}
    out = []
    for c in deck:
        if isinstance(c, (int, np.integer)) and not isinstance(c, bool):
            kind = d.kind.get(int(c))
            if kind is None or int(c) not in free[kind]:
                raise InputError(f"deck: card id {c} is not one of the deck's, or given twice")
            free[kind].remove(int(c))
            out.append(int(c))
        else:
            kind = d.parse(c, "deck")
            if not free.get(kind):
                raise InputError(f"deck: more {c} than the {d.copies(kind)} copies")
            out.append(free[kind].pop(0))
    if len(out) != len(d.ids):
        raise InputError(f"deck must hold all {len(d.ids)} cards, got {len(out)}")
    return out


def state(position: Any = None, seed: int = 0, deck: Sequence[Any] | None = None, players: int | None = None,
          params: dict[str, Any] | None = None) -> State:
    """``mc.state``'s Gift of Tulips half: from a position (its unseen cards dealt from ``seed``) or
    an explicit deck (top first; the opening tie order and the reveal from ``seed``)."""
    if deck is not None:
        return State.from_deal(deck, players or SPEC.default_players, params, seed=seed)
    if position is None:
        raise InputError("give a position, or the deck to deal")
    return State.from_position(position, seed)


# --- traces and records --------------------------------------------------------------------------


def record_of_trace(events: Any, players: int, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """A review record from a trace: the deck (names, top first), the opening ranking, every decision
    (``seat:bouquet-pink-3``, ``seat:give-2``, ...) and the reveal order."""
    from montecards.games.tulips.game import script_from_trace

    script = script_from_trace(events, players, params)
    resolved = SPEC.resolve_params(players, params)
    d = Deck(players, resolved)
    deck = [d.name(int(c)) for c in script["deck"]]
    r = resolved["removed"][players - 2]
    dealt = script["deck"][r + 2 : r + 2 + 2 * players]
    actions = [f"{s}:bouquet-{d.name(int(dealt[2 * s + k]))}" for s, k in enumerate(script["setup_choices"])]
    seats = [int(s) for s in events.loc[events["event"] == "draw", "seat"]]
    for s, dec in zip(seats, script["decisions"], strict=True):
        actions.append(f"{s}:{dec[0]}" + (f"-{int(dec[1])}" if dec[0] == "give" else ""))
    defaults = SPEC.resolve_params(players, {})
    changed = {k: v for k, v in resolved.items() if v != defaults[k]}
    return {"game": GAME, "players": players, "rules": changed,
            "deck": deck, "opening": ">".join(COLOURS[c] for c in script["opening_order"]),
            "actions": actions, "reveal": [d.name(int(c)) for c in script["secret_reveal_order"]]}


def decisions_of_record(record: dict[str, Any]) -> list[tuple[int, int, Position, str, State]]:
    """``(action, seat, position, played, true_state)`` for every action of a record (docs/positions.md):
    ``{"game": "tulips", "players": P, "rules": {...}, "deck": [every card, top first], "opening":
    "blue>orange>pink>purple", "actions": ["seat:bouquet-pink-3", ..., "seat:keep", "seat:give-2", ...],
    "reveal": [the revealed secret cards in order]}``. The set-up splits are decisions too (their
    ``action`` 0, a ``SetupPosition`` each, the true state at the seat's split)."""
    if not isinstance(record, dict):
        raise InputError("record: expected a JSON object")
    if record.get("game", GAME) != GAME:
        raise InputError(f"record: game must be {GAME!r}")
    actions = record.get("actions")
    if not isinstance(actions, list) or not actions:
        raise InputError("record: 'actions' must list every decision of the game ('seat:bouquet-pink-3', "
                         "'seat:keep', ...)")
    players = as_int(record.get("players", SPEC.default_players), "players")
    if "seat" in record and "deck" not in record:
        return seat_decisions(record, players)
    if "deck" not in record:
        raise InputError("record: give 'deck' (every card, top first), or 'seat' and what it knew "
                         "(docs/positions.md)")
    try:
        st = State.from_deal(record["deck"], players, record.get("rules"), record.get("opening"),
                             record.get("reveal"))
    except InputError as exc:
        raise InputError(f"record: {exc}") from None
    out = []
    for i, text in enumerate(actions):
        seat, sep, move = str(text).partition(":")
        if not sep or not seat.strip().isdigit():
            raise InputError(f"record: action {i + 1} must be 'seat:move' (e.g. 0:give-2), got {text!r}")
        seat = int(seat)
        if st.is_terminal:
            raise InputError(f"record: action {i + 1} ({text}) comes after the end of the game")
        if seat != st.current_player:
            raise InputError(f"record: action {i + 1} ({text}): it is seat {st.current_player}'s decision")
        snapshot = (st.g[rules.ACTIONS], st.observe(), st.clone())
        try:
            st.apply(move.strip())
        except InputError as exc:
            raise InputError(f"record: action {i + 1}: {exc}") from None
        if snapshot is not None:
            out.append((int(snapshot[0]), seat, snapshot[1], move.strip().lower(), snapshot[2]))
    if not st.is_terminal:
        raise InputError(f"record: the game is not over after {len(actions)} decisions")
    return out


def positions_of_trace(events: Any, players: int, params: dict[str, Any] | None = None) -> list[Position]:
    """Every decision of a traced game as the deciding seat's position: the set-up splits (seat
    by seat), then every action."""
    return [pos for _, _, pos, _, _ in decisions_of_record(record_of_trace(events, players, params))]


# --- the analysis' evaluators ---------------------------------------------------------------------


def evaluate(template: State, seat: int, moves: Sequence[str], strategies: np.ndarray, params: np.ndarray,
             options: Any, seed: int, first: int, n: int, deal: bool) -> np.ndarray:
    """``(n, len(moves))`` win shares (floats) of the seat's actions on determinizations ``first ..
    first + n - 1`` (``playon.evaluate``); ``deal`` False: on the true hidden cards. At the set-up
    the moves are the seat's splits (``playon.evaluate_setup``: the other seats split by their
    strategies, not seeing the seat's split)."""
    if template.decision == "setup":
        return _evaluate_setup(template, seat, moves, strategies, params, options, seed, first, n, deal)
    move_ids = np.array([parse_move(m)[0] for m in moves], np.int64)
    pos = template.observe(seat)
    ids = np.array(_unseen(template, seat), np.int64) if deal else np.zeros(1, np.int64)
    out = np.zeros((n, len(moves)), np.int64)
    unseen = ids if len(ids) else np.zeros(1, np.int64)
    err = playon.evaluate(template.g, seat, pos.step, pos.first, move_ids, unseen, len(ids) if deal else 0,
                          np.uint64(seed), first, n, strategies, params, options, deal, out)
    if err != 0:
        raise InputError(f"a play-out strategy could not play on from this position (error {err})")
    return out / WIN_UNIT


def _evaluate_setup(template: State, seat: int, moves: Sequence[str], strategies: np.ndarray,
                    params: np.ndarray, options: Any, seed: int, first: int, n: int,
                    deal: bool) -> np.ndarray:
    """``evaluate`` at the set-up: the seat's splits (``bouquet-pink-3``) as hand indices."""
    pos = template.observe(seat)
    splits = np.array([pos.hand_index(m) for m in moves], np.int64)
    ids = np.array(_unseen(template, seat), np.int64) if deal else np.zeros(1, np.int64)
    out = np.zeros((n, len(moves)), np.int64)
    unseen = ids if len(ids) else np.zeros(1, np.int64)
    err = playon.evaluate_setup(template.g, seat, splits, unseen, len(ids) if deal else 0, np.uint64(seed),
                                first, n, strategies, params, options, deal, out)
    if err != 0:
        raise InputError(f"a play-out strategy could not play on from this position (error {err})")
    return out / WIN_UNIT


def _unseen(template: State, seat: int) -> list[int]:
    """The seat's unseen card ids (the other seats' secret cards and the undrawn cards; at the
    set-up the other seats' dealt cards and the undrawn cards), sorted: a function of what the
    seat has seen (the template is a position's, ``_as_state``)."""
    g = template.g
    out = [int(g[rules.DECK + k]) for k in range(int(g[rules.DRAWN]), int(g[rules.N_DECK]))]
    if template.decision == "setup":
        out += [int(rules.dealt_card(g, s, k)) for s in range(template.players) if s != seat
                for k in range(2)]
    out += [int(g[rules.SECRET + i]) for i in range(int(g[rules.N_SECRET]))
            if g[rules.SECRET_SEAT + i] != seat]
    return sorted(out)


def value_moves(template: State, seat: int, moves: Sequence[str], value: np.ndarray, strategies: np.ndarray,
                params: np.ndarray, seed: int, first: int, n: int) -> np.ndarray:
    """``(n, len(moves))``: V of the seat after each action (floats in [0, 1]) on determinizations
    ``first .. first + n - 1``, the very deals of ``evaluate`` (``playon.value_moves``). The set-up
    split has none (``SetupPosition.no_value``)."""
    if template.decision == "setup":
        raise InputError(f"no value column: {SetupPosition.no_value}")
    move_ids = np.array([parse_move(m)[0] for m in moves], np.int64)
    pos = template.observe(seat)
    ids = np.array(_unseen(template, seat), np.int64)
    out = np.zeros((n, len(moves)), np.float64)
    unseen = ids if len(ids) else np.zeros(1, np.int64)
    playon.value_moves(template.g, seat, pos.step, pos.first, move_ids, unseen, len(ids), np.uint64(seed),
                       first, n, np.asarray(value, np.float64), strategies, params, out)
    return out


def evaluate_root(template: State, seat: int, moves: Sequence[str], seed: int, index: int, iterations: int,
                  exploration: float = 0.7, policy: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The IS-MCTS root evaluator (``playon.search_root``): per move its root visits and summed win
    shares. The search determinizes the seat's unseen cards itself. At the set-up it is the
    search's own set-up split (``playon.search_setup_root``: flat Monte Carlo, ``iterations // 2``
    determinizations, both splits on each; the other seats split by the play-out policy), each
    split's root visits those determinizations."""
    if template.decision == "setup":
        pos = template.observe(seat)
        totals = np.zeros(2, np.int64)
        dets = playon.search_setup_root(template.g, seat, int(iterations), int(policy), np.uint64(seed),
                                        int(index), totals)
        visits = np.full(len(moves), float(dets))
        rewards = np.array([totals[pos.hand_index(m)] / WIN_UNIT for m in moves], np.float64)
        return visits, rewards
    move_ids = np.array([parse_move(m)[0] for m in moves], np.int64)
    pos = template.observe(seat)
    visits = np.zeros(len(moves), np.float64)
    rewards = np.zeros(len(moves), np.float64)
    playon.search_root(template.g, seat, pos.step, pos.first, move_ids, int(iterations), float(exploration),
                       int(policy), np.uint64(seed), int(index), visits, rewards)
    return visits, rewards


# --- what one seat knew: one-seat records ----------------------------------------------------------


def seat_record_of_trace(events: Any, players: int, params: dict[str, Any] | None = None,
                         seat: int = 0) -> dict[str, Any]:
    """What ``seat`` knew of a traced game, as a one-seat record (``seat_decisions``): the opening
    festival and ranking, its two dealt cards, every set-up split as the bouquets show it and every
    action with its card, except another seat's secret-festival card (``1:secret``)."""
    full = record_of_trace(events, players, params)
    resolved = SPEC.resolve_params(players, params)
    r = resolved["removed"][players - 2]
    deck = full["deck"]
    cards = deck[r + 2 + 2 * players:]
    actions = []
    k = 0
    for text in full["actions"]:
        s, _, move = text.partition(":")
        if move.startswith("bouquet-"):
            actions.append(text)
            continue
        card = cards[k]
        k += 1
        actions.append(text if move == "secret" and int(s) != seat else f"{text} {card}")
    return {"game": GAME, "players": players, "rules": full["rules"], "seat": seat,
            "festival": deck[r : r + 2], "opening": full["opening"],
            "hand": deck[r + 2 + 2 * seat : r + 4 + 2 * seat], "actions": actions}


def seat_decisions(record: dict[str, Any], players: int) -> list[tuple[int, int, Position, str, None]]:
    """The reviewed seat's decisions (its set-up split, then its actions) from what it knew
    (docs/positions.md): ``"seat"``, the opening
    ``"festival"`` (2 cards) and ``"opening"`` ranking, its dealt ``"hand"`` (2 cards) and every
    decision of the game in order: set-up splits as ``seat:bouquet-pink-3`` (the card every bouquet
    shows), actions as ``seat:move card`` (``1:give-2 pink-3``), another seat's secret-festival card
    left out (``1:secret``). The seat's positions are exact whatever its unseen cards were, so the
    record is replayed on one deal consistent with it (the unseen cards in a fixed order); there is
    no true state (no omniscient column)."""
    players = SPEC.check_players(players)
    resolved = SPEC.resolve_params(players, record.get("rules"))
    pack_params(players, resolved)
    d = Deck(players, resolved)
    seat = as_int(record.get("seat"), "seat")
    if not 0 <= seat < players:
        raise InputError(f"record: seat must be 0..{players - 1}, got {seat}")
    actions = record.get("actions")
    if not isinstance(actions, list) or not actions:
        raise InputError("record: 'actions' must list every decision of the game ('seat:bouquet-pink-3', "
                         "'seat:keep pink-3', 'seat:secret', ...)")
    festival = _card_list(record.get("festival", []), "festival")
    hand = _card_list(record.get("hand", []), "hand")
    if len(festival) != 2 or len(hand) != 2:
        raise InputError("record: give the 2 opening 'festival' cards and the seat's 2 dealt cards ('hand')")
    if "opening" not in record:
        raise InputError("record: give the 'opening' ranking (e.g. blue>orange>pink>purple)")
    dealt: list[list[str | None]] = [[None, None] for _ in range(players)]
    dealt[seat] = list(hand)
    moves: list[tuple[int, str]] = []
    pile: list[str | None] = []
    for i, text in enumerate(actions):
        s, sep, rest = str(text).strip().partition(":")
        if not sep or not s.strip().isdigit() or not 0 <= int(s) < players:
            raise InputError(f"record: action {i + 1} must be 'seat:move [card]' with seat 0..{players - 1}, "
                             f"got {text!r}")
        s = int(s)
        move, _, card = rest.strip().partition(" ")
        move, card = move.strip().lower(), card.strip()
        if move.startswith("bouquet-"):
            if i >= players:
                raise InputError(f"record: action {i + 1} ({text}): the set-up splits are the first "
                                 f"{players}")
            if s != seat:
                dealt[s][0] = move[len("bouquet-"):]
            moves.append((s, move))
            continue
        if i < players:
            raise InputError(f"record: action {i + 1} ({text}): the first {players} decisions are the set-up "
                             "splits (seat:bouquet-CARD)")
        if not card and not (move == "secret" and s != seat):
            raise InputError(f"record: action {i + 1} ({text}): give the card played ('{s}:{move} pink-3'); "
                             "only another seat's secret card is unseen")
        if card:
            d.parse(card, f"action {i + 1}")
        pile.append(card or None)
        moves.append((s, move))
    r = resolved["removed"][players - 2]
    n_pile = len(d.ids) - r - 2 - 2 * players
    if len(pile) != n_pile:
        raise InputError(f"record: {len(pile)} actions, but the draw pile holds {n_pile} cards (one action "
                         "each)")
    layout: list[str | None] = [None] * r + festival + [c for pair in dealt for c in pair] + pile
    free = {k: list(v) for k, v in d.pool.items()}
    for c in layout:
        if c is not None:
            kind = d.parse(c, "record")
            if not free.get(kind):
                raise InputError(f"record: more {c} than the {d.copies(kind)} copies with {players} players")
            free[kind].pop()
    rest = sorted(c for v in free.values() for c in v)
    deck = [d.name(rest.pop(0)) if c is None else c for c in layout]
    try:
        st = State.from_deal(deck, players, resolved, record["opening"])
    except InputError as exc:
        raise InputError(f"record: {exc}") from None
    out = []
    for i, (s, move) in enumerate(moves):
        if s != st.current_player:
            raise InputError(f"record: action {i + 1} ({actions[i]}): it is seat {st.current_player}'s "
                             "decision")
        snapshot = None
        if s == seat:
            snapshot = (int(st.g[rules.ACTIONS]), st.observe())
        try:
            st.apply(move)
        except InputError as exc:
            raise InputError(f"record: action {i + 1}: {exc}") from None
        if snapshot is not None:
            out.append((snapshot[0], seat, snapshot[1], move, None))
    return out


def record_luck(record: dict[str, Any], value: np.ndarray, strategies: np.ndarray, params: np.ndarray,
                seed: int, index: int = 0) -> tuple[list[float], list[float]] | None:
    """``(luck, result)`` per seat of a whole-deal record (``"deck"``: a trace's), in wins, by the
    luck ledger (``playon.luck_of_script``: the kernel's scripted game with the ledger's hooks); None
    for a one-seat record (the other seats' secret cards and the pile's order are unknown, and V
    reads the full state). ``decisions_of_record`` checks the record first."""
    if "deck" not in record or "opening" not in record:
        return None
    players = as_int(record.get("players", SPEC.default_players), "players")
    st = State.from_deal(record["deck"], players, record.get("rules"), record["opening"],
                         record.get("reveal"))
    for text in record["actions"]:
        st.apply(str(text).partition(":")[2].strip())
    g = st.g
    drawing = g[rules.DECK : rules.DECK + int(g[rules.N_DECK])].copy()
    revealed = min(int(g[rules.N_SECRET]), int(g[rules.REVEAL]))
    reveal = g[rules.SECRET : rules.SECRET + revealed].copy()  # reveal_secret put them first, in order
    decisions = np.array([[rules.ACTION_NAMES.index(m.split("-")[0]),
                           int(m.split("-")[1]) if "-" in m else -1]
                          for _, m in st.history[players:]], np.int64).reshape(-1, 2)
    row = np.zeros(SPEC.layout(players).width, np.int64)
    luck = np.zeros(players, np.float64)
    opening = np.array(parse_ranking(record["opening"]), np.int64)
    err = playon.luck_of_script(drawing, players, params, opening, np.array(st.setup, np.int64), decisions,
                                reveal, np.asarray(value, np.float64),
                                strategies, np.uint64(seed), int(index), row, luck)
    if err != 0:
        raise InputError(f"record: the kernel could not replay it (error {err})")
    return luck.tolist(), list(st.result)

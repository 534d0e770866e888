"""Joker Marbles positions: what one seat knows at its turn's decision, as JSON or one line (issue #32).

The format is documented in docs/positions.md. A position holds, in the rules page's words
(docs/rules/marbles.md): the players, the deciding seat, the turn (turns count from 0, seat
``turn % players`` plays turn ``turn``), the rule parameters that differ from their defaults,
where every marble stands (all public: ``home``, a track hole ``h``, castle hole ``c1``..``c5``,
five per seat, marble 0 first; with the rules ``marbles`` and ``holes_per_side`` that many per seat
and castle holes ``c1``..``c<marbles>``, track holes ``0 .. holes_per_side * sides - 1``), the
seat's hand of six cards just after its draw, the discard
pile since the last reshuffle and the draw pile's size. The other hands (five cards each) and
the order of the draw pile are never in it: they are the seat's unseen cards, every card not in
its hand or the discard pile.

A card is written as the rules page writes it: rank then suit (``7H``, ``10S``, ``QC``), or
``joker``; with more than one deck, ``#2`` names the deck (``7H#2``). Suits never matter to the
rules, and J, Q and K move alike.

A move is written as a person types it: the card, then each step as ``marble>place``, e.g.
``KS 0>8`` (marble 0 out to hole 8), ``5H 2>41``, ``7D 1>c2 3>57`` (a 7 split: marble 1 into
castle hole 2, then marble 3 to hole 57), ``joker 0>30``; ``discard 4C`` when no card has a
move. Cards of one rank (and J, Q, K) make the same moves, so each move is listed once, under
the hand's lowest card of that kind; the same move typed with another such card is the same
move.

``State`` is a full game a person can step through (``mc.state``): a position with one dealing
of its unseen cards, or a deck order given card by card, played on by the kernel's own rule
functions; draws come from the deck stream of ``seed`` (or a given order, and an order per
reshuffle).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from montecards.engine.spec import WIN_UNIT, InputError
from montecards.engine.value import ACC_LUCK
from montecards.games.marbles import playon, rules, view
from montecards.games.marbles.cards import CARDS_PER_DECK, RANKS, SUITS, label, rank_of
from montecards.games.marbles.game import SPEC, board_codes, pack_params
from montecards.games.marbles.moves import WORK_SIZE
from montecards.games.marbles.search import PLAYOUT_TUNED
from montecards.games.position_forms import PositionForms, as_int, check_keys, parse_position
from montecards.rng import seed_stream

GAME = "marbles"
DECISIONS = ("play", "discard")
KEYS = ("game", "players", "seat", "decision", "rules", "turn", "marbles", "hand", "discard", "draw_pile")
RULE_NAMES = ("teams", "sides", "holes_per_side", "marbles", "decks", "nine_split", "joker_from_track",
              "castle_entry", "max_turns")
HAND_AT_DECISION = rules.HAND_SIZE + 1


# --- cards and places --------------------------------------------------------------------------


def card_text(card: int, decks: int) -> str:
    return label(int(card), decks)


def _card_ids(text: str, decks: int) -> list[int]:
    """The ids a card label may name (the two jokers of a deck share their label)."""
    t = str(text).strip().upper()
    deck = None
    if "#" in t:
        t, _, d = t.partition("#")
        if not d.isdigit() or not 1 <= int(d) <= decks:
            return []
        deck = int(d) - 1
    if t == "JOKER":
        within = [52, 53]
    else:
        if len(t) < 2 or t[-1] not in SUITS or t[:-1] not in RANKS:
            return []
        within = [SUITS.index(t[-1]) * 13 + RANKS.index(t[:-1])]
    if deck is None:
        if decks > 1:
            return []
        deck = 0
    return [deck * CARDS_PER_DECK + c for c in within]


def parse_cards(value: Any, what: str, decks: int, used: set[int] | None = None) -> list[int]:
    """Cards as written (a list, or text ``7H,KS,joker``; ``-`` none) -> card ids; a card named
    twice (or already in ``used``) is refused."""
    if isinstance(value, str):
        value = [] if value.strip() in ("", "-") else [p for p in value.replace(" ", ",").split(",") if p]
    if not isinstance(value, (list, tuple)):
        raise InputError(f"position: {what} must be a list of cards like 7H,KS,joker")
    taken = set() if used is None else used
    out = []
    for item in value:
        if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            ids = [int(item)] if 0 <= int(item) < CARDS_PER_DECK * decks else []
        else:
            ids = _card_ids(str(item), decks)
        if not ids:
            hint = " (with more decks, 7H#2)" if decks > 1 else ""
            raise InputError(f"position: {what}: unknown card {item!r} (cards read 7H, 10S, QC, joker{hint})")
        free = [c for c in ids if c not in taken]
        if not free:
            raise InputError(f"position: card {card_text(ids[0], decks)} shown twice (hand and discard pile "
                             f"hold each card once)")
        taken.add(free[0])
        out.append(free[0])
    return out


def place_text(code: int) -> str:
    if code == rules.HOME:
        return "home"
    return f"c{code - rules.CASTLE0}" if code >= rules.CASTLE0 else str(int(code))


def _place(text: Any, track_len: int, where: str, castle: int = rules.CASTLE_HOLES) -> int:
    """The kernel's code of a place (``castle``: the castle's holes, the rule ``marbles``)."""
    t = str(text).strip().lower()
    if t in ("home", "h"):
        return rules.HOME
    if t.startswith("c") and t[1:].isdigit() and 1 <= int(t[1:]) <= castle:
        return rules.CASTLE0 + int(t[1:])
    if t.isdigit() and int(t) < track_len:
        return int(t)
    raise InputError(f"position: {where}: unknown place {text!r} (home, a track hole 0..{track_len - 1}, "
                     f"or castle hole c1..c{castle})")


def _places(g: np.ndarray, players: int) -> list[list[str]]:
    """Every seat's marbles as places (the game's ``marbles`` per seat)."""
    return [[place_text(int(rules.position(g, s, m))) for m in range(int(g[rules.S_MARBLES]))]
            for s in range(players)]


# --- moves -------------------------------------------------------------------------------------


def move_text(move: int, decks: int) -> str:
    """A ``view`` move id as a person types it: ``7D 1>c2 3>57``, ``discard 4C``."""
    card = card_text(view.move_card(move), decks)
    if view.move_is_discard(move):
        return f"discard {card}"
    steps = [f"{view.move_marble(move)}>{place_text(view.move_end(move))}"]
    if view.move_is_split(move):
        steps.append(f"{view.move_marble2(move)}>{place_text(view.move_end2(move))}")
    return " ".join([card, *steps])


def _class(card: int) -> int:
    return int(rules.MOVE_CLASS[rank_of(card)])


def parse_move(text: str, decision: str = "play", decks: int = 1, track_len: int = 72) -> list[int]:
    """A move as typed -> its key ``[card class, marble, end, marble2, end2]`` (``[-1, class]``
    for a discard): cards of one rank, and J, Q, K, make the same moves."""
    words = str(text).strip().split()
    bad = (f"a move is a card and its steps, e.g. 'KS 0>8', '7D 1>c2 3>57', 'joker 0>30', or 'discard 4C'; "
           f"got {text!r}")
    def ids_of(word: str) -> list[int]:  # only the rank matters: any deck count reads it
        return _card_ids(word, decks) or _card_ids(word, rules.MAX_DECKS) or _card_ids(word, 1)

    if len(words) == 2 and words[0].lower() == "discard":
        ids = ids_of(words[1])
        if not ids:
            raise InputError(bad)
        return [-1, _class(ids[0])]
    if not 2 <= len(words) <= 3:
        raise InputError(bad)
    ids = ids_of(words[0])
    if not ids:
        raise InputError(bad)
    key = [_class(ids[0])]
    for w in words[1:]:
        m, sep, place = w.partition(">")
        if not sep or not m.isdigit() or not 0 <= int(m) < rules.MARBLES:
            raise InputError(bad)
        key += [int(m), _place(place, max(track_len, rules.MAX_TRACK), f"move {text!r}")]
    if len(words) == 2:
        key += [-1, 0]
    return key


def move_key(move: int) -> list[int]:
    """``parse_move``'s key of a ``view`` move id."""
    if view.move_is_discard(move):
        return [-1, _class(view.move_card(move))]
    return [_class(view.move_card(move)), view.move_marble(move), view.move_end(move),
            view.move_marble2(move),
            view.move_end2(move)]


def _listed(g: np.ndarray, seat: int) -> tuple[str, list[int], list[int]]:
    """``(decision, move ids, kernel choice indices)`` of the seat at its decision: every legal
    move once (cards alike in their moves listed under the lowest), in the view's order."""
    legal = np.zeros(view.MAX_LEGAL, np.int64)
    n = view.legal_moves(g, seat, view.DECISION_PLAY, legal)
    decision = "play"
    if n == 0:
        decision = "discard"
        n = view.legal_moves(g, seat, view.DECISION_DISCARD, legal)
    ids, index, seen = [], [], set()
    for k in range(n):
        key = tuple(move_key(int(legal[k])))
        if key in seen:
            continue
        seen.add(key)
        ids.append(int(legal[k]))
        index.append(k)
    return decision, ids, index


def _new_game(players: int, packed: np.ndarray) -> np.ndarray:
    g = np.zeros(WORK_SIZE, np.int64)
    rules.set_up(g, players, *(np.int64(v) for v in packed))  # (set_up takes the packed order)
    return g


# --- the position --------------------------------------------------------------------------------


class Position(PositionForms):
    """One seat's view of one Joker Marbles decision (validated on construction: ``InputError``)."""

    game = GAME

    def __init__(self, data: dict[str, Any]):
        check_keys(data, GAME, KEYS, ("players", "seat", "marbles", "hand"))
        self.players = SPEC.check_players(as_int(data["players"], "players"))
        self.seat = as_int(data["seat"], "seat")
        if not 0 <= self.seat < self.players:
            raise InputError(f"position: seat must be 0..{self.players - 1}, got {self.seat}")
        given = data.get("rules") or {}
        if not isinstance(given, dict):
            raise InputError("position: rules must be an object like {\"teams\": \"pairs\"}")
        self.rules = SPEC.resolve_params(self.players, given)
        self.packed = pack_params(self.players, self.rules)
        self.decks = int(self.rules["decks"])
        self.track_len = int(self.rules["holes_per_side"]) * int(self.rules["sides"])
        self.n_marbles = int(self.rules["marbles"])
        self.turn = as_int(data.get("turn", self.seat), "turn")
        if self.turn < 0 or self.turn % self.players != self.seat:
            raise InputError(f"position: seat {self.seat} plays turns {self.seat}, "
                             f"{self.seat + self.players}, "
                             f"... (turn % players), not turn {self.turn}")
        if self.turn >= self.rules["max_turns"]:
            raise InputError(f"position: turn {self.turn} is past max_turns ({self.rules['max_turns']})")
        self.marbles = self._board(data["marbles"])
        used: set[int] = set()
        self.hand = sorted(parse_cards(data["hand"], "hand", self.decks, used))
        self.discard = parse_cards(data.get("discard", []), "discard", self.decks, used)
        self._check(data)

    def _board(self, value: Any) -> list[list[int]]:
        if isinstance(value, str):
            value = [row.split(",") for row in value.split("/")]
        if not isinstance(value, (list, tuple)) or len(value) != self.players or any(
                not isinstance(r, (list, tuple)) or len(r) != self.n_marbles for r in value):
            raise InputError(f"position: marbles must give {self.n_marbles} places per seat for "
                             f"{self.players} seats "
                             "(one line: home,12,c2,home,home/...)")
        board = [[_place(p, self.track_len, f"marble {m} of seat {s}", self.n_marbles)
                  for m, p in enumerate(row)] for s, row in enumerate(value)]
        try:
            board_codes([[("home",) if c == rules.HOME
                          else ("castle", c - rules.CASTLE0) if c >= rules.CASTLE0
                          else ("track", c) for c in row] for row in board], self.players, self.track_len,
                        self.n_marbles)
        except ValueError as exc:
            raise InputError(f"position: marbles: {exc}") from None
        return board

    def _check(self, data: dict[str, Any]) -> None:
        if len(self.hand) != HAND_AT_DECISION:
            raise InputError(f"position: the hand holds {HAND_AT_DECISION} cards at a decision (five and the "
                             f"turn's draw), got {len(self.hand)}")
        n_cards = CARDS_PER_DECK * self.decks
        pile = n_cards - HAND_AT_DECISION - rules.HAND_SIZE * (self.players - 1) - len(self.discard)
        if pile < 0:
            raise InputError(f"position: the discard pile holds {len(self.discard)} cards, at most "
                             f"{n_cards - HAND_AT_DECISION - rules.HAND_SIZE * (self.players - 1)} with "
                             f"{self.players} hands")
        if "draw_pile" in data and as_int(data["draw_pile"], "draw_pile") != pile:
            raise InputError(f"position: the draw pile holds {pile} cards ({n_cards} - the hands - the "
                             f"discard "
                             f"pile), not {data['draw_pile']}")
        self.draw_pile = pile
        g = self._game()
        done = [sum(1 for c in self.marbles[s] if c >= rules.CASTLE0) == self.n_marbles
                for s in range(self.players)]
        for s in range(self.players):
            team = [t for t in range(self.players) if g[rules.team_at(t)] == g[rules.team_at(s)]]
            if all(done[t] for t in team):
                raise InputError(f"position: seat {s}'s marbles (and its team's) are all in the castle: "
                                 f"the game "
                                 "is over")
        decision, ids, _ = _listed(g, self.seat)
        self.decision = decision
        if "decision" in data and data["decision"] != decision:
            raise InputError(f"position: decision must be {decision} here (a seat discards only when no card "
                             f"has a move), got {data['decision']!r}")
        self._moves = [move_text(m, self.decks) for m in ids]

    def _game(self) -> np.ndarray:
        """The public part and the seat's hand in the kernel's state (others' hands empty)."""
        g = _new_game(self.players, self.packed)
        rules.place_marbles(g, self.players, np.array(self.marbles, np.int64))
        for s in range(self.players):
            g[rules.hand_n_at(s)] = 0
        for c in self.hand:
            rules.hand_insert(g, self.seat, c)
        for i, c in enumerate(self.discard):
            g[rules.disc_at(i)] = c
        g[rules.S_DISC_N] = len(self.discard)
        g[rules.S_TURNS] = self.turn
        return g

    def unseen(self) -> list[int]:
        """The card ids the seat cannot see (the other hands and the draw pile)."""
        shown = set(self.hand) | set(self.discard)
        return [c for c in range(CARDS_PER_DECK * self.decks) if c not in shown]

    # --- the two written forms -----------------------------------------------------------------

    def changed_rules(self) -> dict[str, Any]:
        defaults = SPEC.resolve_params(self.players, {})
        return {k: self.rules[k] for k in RULE_NAMES if self.rules[k] != defaults[k]}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": GAME, "players": self.players, "seat": self.seat,
                               "decision": self.decision}
        changed = self.changed_rules()
        if changed:
            out["rules"] = changed
        out.update({"turn": self.turn, "marbles": [[place_text(c) for c in row] for row in self.marbles],
                    "hand": [card_text(c, self.decks) for c in self.hand],
                    "discard": [card_text(c, self.decks) for c in self.discard], "draw_pile": self.draw_pile})
        return out

    def to_string(self) -> str:
        """The one-line form: ``key=value`` fields; marbles seat by seat (``/`` between seats),
        cards comma-separated (``-`` for none), a changed rule as its own field (the rule
        ``marbles=3``, a number, is told from the board ``marbles=home,12,c2/...`` by its form)."""
        d = self.to_dict()
        fields = [GAME, f"players={self.players}", f"seat={self.seat}"]
        for name, value in self.changed_rules().items():
            fields.append(f"{name}={str(value).lower() if isinstance(value, bool) else value}")
        fields += [f"turn={self.turn}", "marbles=" + "/".join(",".join(r) for r in d["marbles"]),
                   "hand=" + (",".join(d["hand"]) or "-"), "discard=" + (",".join(d["discard"]) or "-"),
                   f"pile={self.draw_pile}"]
        return " ".join(fields)

    def legal_moves(self) -> list[str]:
        """The seat's moves as a person types them, in the view's order, each once."""
        return list(self._moves)


LINE_FIELDS = {"players": "players", "seat": "seat", "decision": "decision", "turn": "turn",
               "marbles": "marbles", "hand": "hand", "discard": "discard", "pile": "draw_pile"}


def _line_data(pairs) -> dict[str, Any]:
    data: dict[str, Any] = {"game": GAME}
    given: dict[str, Any] = {}
    for key, value in pairs:
        if key == "marbles" and str(value).strip().isdigit():
            given[key] = value  # the rule (a count); the board always holds a "/" (2+ seats)
        elif key in LINE_FIELDS:
            data[LINE_FIELDS[key]] = value
        elif key in RULE_NAMES:
            given[key] = value
        else:
            raise InputError(f"position: unknown field {key!r} (fields: "
                             f"{', '.join(list(LINE_FIELDS) + list(RULE_NAMES))})")
    if given:
        data["rules"] = given
    return data


def parse(text: str | dict[str, Any] | Position) -> Position:
    """A position from JSON (text or dict) or the one-line form; ``InputError`` if impossible."""
    return parse_position(text, Position, GAME, _line_data)


# --- a full game to step through: mc.state -------------------------------------------------------


class State:
    """A full Joker Marbles game at a decision (OpenSpiel's state as the model): ``legal_moves()``,
    ``apply(move)``, ``observe()``, ``clone()``, ``is_terminal``, ``result``.

    The seat to decide (``current_player``) has drawn its turn's card. Between decisions the
    state plays the chance events as ``kernel.play_game`` does: a reshuffle when the draw pile is
    empty, the next seat's draw (a given order's next card, or the deck stream of ``seed``).
    Moves follow the kernel's rule functions (``moves.gen_hand``, ``rules.play_card``)."""

    game = GAME

    def __init__(self, g: np.ndarray, players: int, params: dict[str, Any], seed: int,
                 orders: list[list[int]] | None = None):
        self.g = g
        self.params = params
        self.packed = pack_params(players, params)
        self.decks = int(params["decks"])
        self.seed = int(seed)
        self.deck_rng = np.zeros(4, np.uint64)
        seed_stream(self.deck_rng, np.uint64(self.seed), 0, playon.PILE_STREAM)
        self.orders = orders
        self.used = 1
        self.scripted = orders is not None  # draws from the given order (else lazily from the stream)
        self.current = -1
        self.over = False
        self.history: list[tuple[int, str]] = []

    @classmethod
    def from_position(cls, position: Position | str | dict, seed: int = 0) -> State:
        """The position with its unseen cards dealt once from ``seed`` (``playon.deal_unseen``)."""
        pos = parse(position)
        g = pos._game()
        unseen = np.array(pos.unseen(), np.int64)
        rng = np.zeros(4, np.uint64)
        seed_stream(rng, np.uint64(seed), 0, playon.DEAL_STREAM)
        playon.deal_unseen(g, pos.seat, pos.players, unseen, len(unseen),
                           np.zeros(max(1, len(unseen)), np.int64),
                           rng)
        state = cls(g, pos.players, pos.rules, seed)
        state.current = pos.seat
        return state

    @classmethod
    def from_deal(cls, orders: Sequence[Sequence[Any]], players: int, params: dict[str, Any] | None = None,
                  seed: int = 0, ledger: Any = None) -> State:
        """The game dealt from an explicit deck order (top first; seat k is dealt cards 5k .. 5k+4)
        and, after it, one order per reshuffle (the discard pile's cards, top first), as
        ``play_scripted`` takes them; draws past the given orders come from ``seed``. ``ledger``:
        the luck ledger (``playon.luck_ledger``: ``record_luck``), its hooks called as the kernel
        calls them, or None."""
        players = SPEC.check_players(players)
        resolved = SPEC.resolve_params(players, params)
        decks = int(resolved["decks"])
        if not isinstance(orders, (list, tuple)) or not orders:
            raise InputError("decks: give the deck order (top first), then one order per reshuffle")
        rows = [parse_cards(list(o), f"deck order {i}", decks) for i, o in enumerate(orders)]
        if sorted(rows[0]) != list(range(CARDS_PER_DECK * decks)):
            raise InputError(f"decks: the first order must hold every card of {decks} deck(s) once")
        g = _new_game(players, pack_params(players, resolved))
        for i, c in enumerate(rows[0]):
            g[rules.pile_at(i)] = c
        rules.deal(g, players, np.zeros(4, np.uint64), False, None)
        state = cls(g, players, resolved, seed, rows)
        state.ledger = ledger
        if ledger is not None:
            playon.ledger_event(playon.LEDGER_DEAL, g, 0, ledger)
        state._begin(0, 0)
        return state

    def _begin(self, seat: int, turn: int) -> None:
        """Seat ``seat``'s turn ``turn``: a reshuffle if needed, its draw; or the game's end at
        ``max_turns``."""
        g = self.g
        g[rules.S_TURNS] = turn
        if turn >= self.params["max_turns"]:
            self.over = True
            return
        if g[rules.S_DRAWN] == g[rules.S_PILE_N]:
            if self.orders is not None and self.used < len(self.orders):
                # the discard pile by label (the two jokers of a deck share one)
                pile: dict[str, list[int]] = {}
                for i in range(int(g[rules.S_DISC_N])):
                    c = int(g[rules.disc_at(i)])
                    pile.setdefault(card_text(c, self.decks), []).append(c)
                order = []
                for c in self.orders[self.used]:
                    ids = pile.get(card_text(c, self.decks))
                    if not ids:
                        raise InputError(f"decks: reshuffle order {self.used} must be the discard pile's "
                                         f"cards, "
                                         f"each once ({card_text(c, self.decks)} is not in it)")
                    order.append(ids.pop())
                if any(pile.values()):
                    raise InputError(f"decks: reshuffle order {self.used} must hold every card of the "
                                     f"discard pile")
                for i, c in enumerate(order):
                    g[rules.pile_at(i)] = c
                g[rules.S_PILE_N] = len(order)
                g[rules.S_DRAWN] = 0
                g[rules.S_DISC_N] = 0
                g[rules.S_RESHUFFLES] += 1
                self.used += 1
            else:
                rules.reshuffle_lazy(g)
                self.scripted = False
        ledger = getattr(self, "ledger", None)
        if ledger is not None:
            playon.ledger_event(playon.LEDGER_BEFORE_DRAW, g, seat, ledger)
        card = rules.draw_card(g, self.deck_rng, not self.scripted)
        rules.hand_insert(g, seat, card)
        if ledger is not None:
            playon.ledger_event(playon.LEDGER_AFTER_DRAW, g, seat, ledger)
        self.current = seat

    # --- OpenSpiel's state API -------------------------------------------------------------------

    @property
    def players(self) -> int:
        return int(self.g[rules.S_PLAYERS])

    @property
    def is_terminal(self) -> bool:
        return self.over

    @property
    def turn(self) -> int:
        return int(self.g[rules.S_TURNS])

    @property
    def current_player(self) -> int:
        return -1 if self.over else self.current

    @property
    def decision(self) -> str:
        return _listed(self.g, self.current)[0]

    def _choices(self) -> tuple[list[str], list[int]]:
        _, ids, index = _listed(self.g, self.current)
        return [move_text(m, self.decks) for m in ids], index

    def legal_moves(self) -> list[str]:
        return [] if self.over else self._choices()[0]

    def choice_index(self, move: str) -> int:
        """The kernel's index (``view.legal_moves``' order) of the current seat's move as typed."""
        texts, index = self._choices()
        key = parse_move(move, decks=self.decks, track_len=rules.MAX_TRACK)
        keys = [parse_move(t, decks=self.decks, track_len=rules.MAX_TRACK) for t in texts]
        if key not in keys:
            raise InputError(f"{move!r} is not legal for seat {self.current} (legal: {', '.join(texts)})")
        # the very card typed, when the seat holds it (a record replays the cards played: they
        # come back in the reshuffles); else the listed card of the same kind
        legal = np.zeros(view.MAX_LEGAL, np.int64)
        kind = view.DECISION_PLAY if self.decision == "play" else view.DECISION_DISCARD
        n = view.legal_moves(self.g, self.current, kind, legal)
        typed = str(move).split()[1 if key[0] == -1 else 0]
        for k in range(n):
            m = int(legal[k])
            if move_key(m) == key and card_text(view.move_card(m), self.decks).upper() == typed.upper():
                return k
        return index[keys.index(key)]

    def apply(self, move: str) -> None:
        """The current seat's move (as ``legal_moves`` writes it, or with another card of the
        same kind); ``InputError`` if illegal. Then the chance events up to the next decision."""
        if self.over:
            raise InputError("the game is over: no move to apply")
        seat = self.current
        k = self.choice_index(move)
        text = " ".join(str(move).split())
        won = playon.make_choice(self.g, seat, k)
        self.history.append((seat, text))
        if won:
            self.g[rules.S_TURNS] += 1
            self.over = True
            return
        self._begin((seat + 1) % self.players, self.turn + 1)

    def observe(self, seat: int | None = None) -> Position:
        """What the seat to decide knows now, as a position (a position is a decision: only the
        seat to decide has one)."""
        if self.over:
            raise InputError("the game is over: no decision to observe")
        if seat is not None and seat != self.current:
            raise InputError(f"seat {seat} has no decision now (seat {self.current} decides)")
        g, seat = self.g, self.current
        data = {
            "game": GAME, "players": self.players, "seat": seat, "rules": dict(self.params),
            "turn": self.turn,
            "marbles": _places(g, self.players),
            "hand": [int(rules.hand_card(g, seat, k)) for k in range(int(rules.hand_size(g, seat)))],
            "discard": [int(g[rules.disc_at(i)]) for i in range(int(g[rules.S_DISC_N]))],
        }
        return Position(data)

    def clone(self) -> State:
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        other.g = self.g.copy()
        other.deck_rng = self.deck_rng.copy()
        other.history = list(self.history)
        return other

    @property
    def result(self) -> list[float] | None:
        """Every seat's win share once the game is over (None before; all 0 when unfinished)."""
        if not self.over:
            return None
        shares = np.zeros(self.players, np.int64)
        playon.shares_of(self.g, self.players, shares)
        return (shares / WIN_UNIT).tolist()

    @property
    def scores(self) -> list[int]:
        """Every seat's marbles in its castle."""
        return [int(rules.in_castle(self.g, s)) for s in range(self.players)]

    def marbles(self) -> list[list[str]]:
        return _places(self.g, self.players)

    def __repr__(self) -> str:
        if self.over:
            return f"<marbles state: over, win shares {self.result}, castles {self.scores}>"
        return f"<marbles state: seat {self.current} to decide; {self.observe().to_string()}>"


def state(position: Any = None, seed: int = 0, deck: Sequence[Any] | None = None, players: int | None = None,
          params: dict[str, Any] | None = None) -> State:
    """``mc.state``'s Joker Marbles half: from a position (its unseen cards dealt from ``seed``) or
    a deck order (``deck``: the cards top first, or a list of orders: the deck then one per
    reshuffle; later draws from ``seed``)."""
    if deck is not None:
        orders = deck if deck and isinstance(deck[0], (list, tuple)) else [deck]
        return State.from_deal(orders, players or SPEC.default_players, params, seed=seed)
    if position is None:
        raise InputError("give a position, or the deck order to deal")
    return State.from_position(position, seed)


# --- traces and records --------------------------------------------------------------------------


def _plain_rules(players: int, params: dict[str, Any] | None) -> dict[str, Any]:
    resolved = SPEC.resolve_params(players, params)
    defaults = SPEC.resolve_params(players, {})
    return {k: v for k, v in resolved.items() if v != defaults[k]}


def record_of_trace(events: Any, players: int, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """A review record from a trace: the deck order, every reshuffle's order and every move
    (``seat:move`` as a person types it)."""
    from montecards.games.marbles.game import script_from_trace

    resolved = SPEC.resolve_params(players, params)
    decks = int(resolved["decks"])
    script = script_from_trace(events, players, params)
    moves = []
    seat = 0
    for dec in script["decisions"]:
        if dec[0] == "discard":
            moves.append(f"{seat}:discard {card_text(dec[1], decks)}")
        else:
            _, _, steps = dec[2]
            parts = [f"{m}>{place_text(_code(end))}" for m, _, end, _ in steps]
            moves.append(f"{seat}:{card_text(dec[1], decks)} {' '.join(parts)}")
        seat = (seat + 1) % players
    return {"game": GAME, "players": players, "rules": _plain_rules(players, params),
            "decks": [[card_text(c, decks) for c in o] for o in script["deck_orders"]], "moves": moves}


def _code(place: tuple) -> int:
    if place[0] == "home":
        return rules.HOME
    return rules.CASTLE0 + int(place[1]) if place[0] == "castle" else int(place[1])


def _seat_move(text: Any, i: int, players: int) -> tuple[int, str]:
    seat, sep, move = str(text).partition(":")
    if not sep or not seat.strip().isdigit() or not 0 <= int(seat) < players:
        raise InputError(f"record: move {i + 1} must be 'seat:move' (seat 0..{players - 1}, e.g. '0:KS "
                         f"0>8'), "
                         f"got {text!r}")
    return int(seat), move.strip()


def decisions_of_record(record: dict[str, Any]) -> list[tuple[int, int, Position, str, State]]:
    """``(turn, seat, position, played, true_state)`` for every decision of a record
    (docs/positions.md): ``{"game": "marbles", "players": P, "rules": {...}, "decks": [the deck
    order, then one order per reshuffle, cards top first], "moves": ["seat:move", ...]}``, every
    turn's move in order; the game must be over after the last."""
    if not isinstance(record, dict):
        raise InputError("record: expected a JSON object")
    if record.get("game", GAME) != GAME:
        raise InputError(f"record: game must be {GAME!r}")
    players = SPEC.check_players(as_int(record.get("players", SPEC.default_players), "players"))
    moves = record.get("moves")
    if not isinstance(moves, list) or not moves:
        raise InputError("record: 'moves' must list every turn's move ('0:KS 0>8', '1:discard 4C', ...)")
    if "seat" in record and "decks" not in record:
        return seat_decisions(record, players)
    if "decks" not in record:
        raise InputError("record: give 'decks' (the deck order, then one order per reshuffle), or 'seat', "
                         "'hand' and 'draws' (what one seat knew)")
    try:
        st = State.from_deal(record["decks"], players, record.get("rules"))
    except InputError as exc:
        raise InputError(f"record: {exc}") from None
    out = []
    for i, text in enumerate(moves):
        seat, move = _seat_move(text, i, players)
        if st.is_terminal:
            raise InputError(f"record: move {i + 1} ({text}) comes after the end of the game")
        if seat != st.current_player:
            raise InputError(f"record: move {i + 1} ({text}): it is seat {st.current_player}'s turn")
        turn, pos, snapshot = st.turn, st.observe(), st.clone()
        try:
            st.apply(move)
        except InputError as exc:
            raise InputError(f"record: move {i + 1}: {exc}") from None
        out.append((turn, seat, pos, st.history[-1][1], snapshot))
    if not st.is_terminal:
        raise InputError(f"record: the game is not over after {len(moves)} moves")
    return out


def seat_record_of_trace(events: Any, players: int, params: dict[str, Any] | None = None,
                         seat: int = 0) -> dict[str, Any]:
    """What ``seat`` knew of a traced game, as a one-seat record (``seat_decisions``): its dealt
    hand, the cards it drew in order, and every turn's move (all public: the card played and
    where the marbles went, or the card discarded)."""
    whole = record_of_trace(events, players, params)
    decks = int(SPEC.resolve_params(players, params)["decks"])
    dealt = events[(events["event"] == "deal") & (events["seat"] == seat)]["card_id"].tolist()
    drawn = events[(events["event"] == "draw") & (events["seat"] == seat)]["card_id"].tolist()
    return {"game": GAME, "players": players, "rules": whole["rules"], "seat": seat,
            "hand": [card_text(c, decks) for c in dealt], "draws": [card_text(c, decks) for c in drawn],
            "moves": whole["moves"]}


def seat_decisions(record: dict[str, Any], players: int) -> list[tuple[int, int, Position, str, None]]:
    """The reviewed seat's decisions from what it knew (docs/positions.md): ``"seat"``, its dealt
    ``"hand"``, the cards it ``"draws"`` in order, and ``"moves"``, every turn's move. The board,
    the discard pile (a reshuffle when the draw pile's count runs out) and the turn are kept as the
    moves say; every move is checked against the board (another seat's card must have that move
    there; the seat's own must be in its hand and legal); the game must be over after the last."""
    resolved = SPEC.resolve_params(players, record.get("rules"))
    packed = pack_params(players, resolved)
    decks = int(resolved["decks"])
    seat = as_int(record.get("seat"), "seat")
    if not 0 <= seat < players:
        raise InputError(f"record: seat must be 0..{players - 1}, got {seat}")
    used: set[int] = set()
    hand = parse_cards(record.get("hand", []), "record: hand", decks, used)
    if len(hand) != rules.HAND_SIZE:
        raise InputError(f"record: 'hand' must hold the seat's {rules.HAND_SIZE} dealt cards")
    given = record.get("draws", [])
    if not isinstance(given, list):
        raise InputError("record: 'draws' must list the cards the seat drew, in order")
    draws = list(reversed([parse_cards([c], "record: draws", decks)[0] for c in given]))  # a card comes back
    moves = record["moves"]
    g = _new_game(players, packed)
    for s in range(players):
        g[rules.hand_n_at(s)] = 0
    discard: list[int] = []
    pile = CARDS_PER_DECK * decks - rules.HAND_SIZE * players
    out = []
    over = False
    for i, text in enumerate(moves):
        who, move = _seat_move(text, i, players)
        where = f"record: move {i + 1} ({text})"
        if over:
            raise InputError(f"{where} comes after the end of the game")
        if who != i % players:
            raise InputError(f"{where}: turn {i} is seat {i % players}'s")
        if pile == 0:
            pile, discard = len(discard), []
        pile -= 1
        if who == seat:
            if not draws:
                raise InputError(f"{where}: the card the seat drew is missing from 'draws'")
            drawn = draws.pop()  # of two cards alike (a deck's jokers), one not shown
            alike = [c for c in _card_ids(card_text(drawn, decks), decks)
                     if c not in hand and c not in discard]
            hand.append(alike[0] if alike else drawn)
            data = {"game": GAME, "players": players, "seat": seat, "rules": resolved, "turn": i,
                    "marbles": _places(g, players),
                    "hand": hand, "discard": discard}
            try:
                pos = Position(data)
            except InputError as exc:
                raise InputError(f"{where}: {exc}") from None
            keys = [parse_move(m, decks=decks) for m in pos.legal_moves()]
            key = parse_move(move, decks=decks)
            if key not in keys:
                raise InputError(f"{where}: not legal for seat {seat} (legal: "
                                 f"{', '.join(pos.legal_moves())})")
            typed = move.split()[1 if key[0] == -1 else 0]
            held = [c for c in hand if card_text(c, decks).upper() == typed.upper()]
            card = held[0] if held else next(c for c in hand if (key[0] == -1 and _class(c) == key[1])
                                             or (key[0] != -1 and _class(c) == key[0]))
            out.append((i, seat, pos, " ".join(move.split()), None))
        else:
            words = move.split()
            ids = _card_ids(words[1] if words and words[0].lower() == "discard" and len(words) == 2 else
                            (words[0] if words else ""), decks)
            free = [c for c in ids if c not in discard and c not in hand]
            if not free:
                raise InputError(f"{where}: that card is not one seat {who} can hold (in the seat's hand "
                                 f"or the "
                                 "discard pile)")
            card = free[0]
        key = parse_move(move, decks=decks)
        if key[0] != -1:  # a play: made on the board, the card alone in the mover's hand
            g[rules.hand_n_at(who)] = 0
            rules.hand_insert(g, who, card)
            _, listed, index = _listed(g, who)
            keys = [move_key(m) for m in listed]
            if key not in keys:
                raise InputError(f"{where}: not a legal move of {card_text(card, decks)} on this board")
            over = bool(playon.make_choice(g, who, index[keys.index(key)]))
            g[rules.S_DISC_N] = 0
            g[rules.hand_n_at(who)] = 0
        discard.append(card)
        if who == seat:
            hand.remove(card)
    if not over:
        raise InputError(f"record: the game is not over after {len(moves)} moves")
    if draws:
        raise InputError(f"record: {len(draws)} draws left over (the seat drew fewer)")
    return out


def positions_of_trace(events: Any, players: int, params: dict[str, Any] | None = None) -> list[Position]:
    """Every decision of a traced game as the deciding seat's position."""
    return [pos for _, _, pos, _, _ in decisions_of_record(record_of_trace(events, players, params))]


def evaluate(template: State, seat: int, moves: Sequence[str], strategies: np.ndarray, params: np.ndarray,
             options: Any, seed: int, first: int, n: int, deal: bool) -> np.ndarray:
    """``(n, len(moves))`` win shares (floats) of the seat's moves on determinizations
    ``first .. first + n - 1`` (``playon.evaluate``); ``deal`` False: on the true hands."""
    choices = np.array([template.choice_index(m) for m in moves], np.int64)
    ids = np.array(template.observe(seat).unseen(), np.int64) if deal else np.zeros(1, np.int64)
    out = np.zeros((n, len(moves)), np.int64)
    err = playon.evaluate(template.g, seat, choices, ids, len(ids) if deal else 0, np.uint64(seed), first, n,
                          strategies, params, options, deal, out)
    if err != 0:
        raise InputError(f"a play-out strategy could not play on from this position (error {err})")
    return out / WIN_UNIT


def value_moves(template: State, seat: int, moves: Sequence[str], value: np.ndarray, strategies: np.ndarray,
                params: np.ndarray, seed: int, first: int, n: int) -> np.ndarray:
    """``(n, len(moves))``: V of the seat after each move (floats in [0, 1]) on determinizations
    ``first .. first + n - 1``, the very deals of ``evaluate`` (``playon.value_moves``)."""
    choices = np.array([template.choice_index(m) for m in moves], np.int64)
    ids = np.array(template.observe(seat).unseen(), np.int64)
    out = np.zeros((n, len(moves)), np.float64)
    unseen = ids if len(ids) else np.zeros(1, np.int64)
    playon.value_moves(template.g, seat, choices, unseen, len(ids), np.uint64(seed), first, n,
                       np.asarray(value, np.float64), strategies, params, out)
    return out


def evaluate_root(template: State, seat: int, moves: Sequence[str], seed: int, index: int, iterations: int,
                  exploration: float = 0.7, policy: int = PLAYOUT_TUNED, cutoff: int = 40
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The IS-MCTS root evaluator (``playon.search_root``): per move its root visits and summed win
    shares. The search is ``ismcts``'s with its default parameters (``ismcts[..,0.7,2,40]``: the
    ``tuned`` play-out cut off after 40 turns, docs/strategies/marbles.md); it determinizes the
    seat's unseen cards itself."""
    choices = np.array([template.choice_index(m) for m in moves], np.int64)
    visits = np.zeros(len(moves), np.float64)
    rewards = np.zeros(len(moves), np.float64)
    playon.search_root(template.g, seat, choices, int(iterations), float(exploration), int(policy),
                       int(cutoff), np.uint64(seed), int(index), visits, rewards)
    return visits, rewards


def record_luck(record: dict[str, Any], value: np.ndarray, strategies: np.ndarray, params: np.ndarray,
                seed: int, index: int = 0) -> tuple[list[float], list[float]] | None:
    """``(luck, result)`` per seat of a whole-deal record (``"decks"``: a trace's), in wins, by the
    luck ledger of ``--luck`` (``value.py``, docs/luck.md): the record replayed by ``State`` with
    the ledger's hooks where ``kernel.play_game`` calls them (after the deal, before and after
    every draw; ``playon.ledger_event``). The draws' terms are exact, the deal's samples from the
    ledger's stream of (``seed``, game ``index``). None for a one-seat record (the other hands and
    the pile's order are unknown, and V reads the full state). ``decisions_of_record`` checks the
    record first."""
    if "decks" not in record:
        return None
    players = SPEC.check_players(as_int(record.get("players", SPEC.default_players), "players"))
    ledger = playon.luck_ledger(np.asarray(value, np.float64), strategies, params, np.uint64(seed),
                                int(index))
    st = State.from_deal(record["decks"], players, record.get("rules"), ledger=ledger)
    for i, text in enumerate(record["moves"]):
        st.apply(_seat_move(text, i, players)[1])
    result = st.result
    luck = ledger[1][ACC_LUCK : ACC_LUCK + players]
    return [float(x) for x in luck], list(result)

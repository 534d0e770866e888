"""Parade positions: what one seat knows at one decision, as JSON or one line (issue #32).

The format is documented in docs/positions.md. A position holds, in the rules page's words
(docs/rules/parade.md): the players, the deciding seat, the decision (``play`` a hand card or
``discard`` two of the final four), the rule parameter in force, the turns played so far, the
cards left in the draw pile, the last round (its trigger and the turns left in it, the turn
being decided included), the seat's hand, the parade (front first) and every collection. The
other hands are never in it: their sizes follow from the turn and the last round, and which
cards they hold is the seat's unseen set (every card not in its hand, the parade or a
collection), as is the draw pile.

``State`` is a full game a person can step through (``mc.state``): a position with one dealing
of its unseen cards, or a deal given card by card, played on by the kernel's own rule
functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from montecards.engine.spec import WIN_UNIT, InputError
from montecards.games.parade import playon, rules, view
from montecards.games.parade.cards import (
    COLOURS,
    FINAL_HAND,
    HAND_SIZE,
    N_CARDS,
    OPENING_PARADE,
    card_id,
    label,
)
from montecards.games.parade.game import SPEC, TRIGGER_NAMES, TWO_PLAYER_MARGINS
from montecards.games.position_forms import PositionForms, as_int, check_keys, parse_position

GAME = "parade"
DECISIONS = ("play", "discard")
TRIGGERS = {name: code for code, name in TRIGGER_NAMES.items()}
KEYS = ("game", "players", "seat", "decision", "rules", "turn", "draw_pile", "last_round", "hand",
        "parade", "collections")


def pile_at_start(players: int) -> int:
    """Cards in the draw pile after the deal: 66 - 5 per seat - the 6-card opening parade."""
    return N_CARDS - HAND_SIZE * players - OPENING_PARADE


def _cards(value: Any, what: str) -> list[int]:
    if isinstance(value, str):
        value = [] if value.strip() in ("", "-") else value.split(",")
    if not isinstance(value, (list, tuple)):
        raise InputError(f"position: {what} must be a list of cards like 'red-3'")
    out = []
    for text in value:
        try:
            out.append(card_id(text))
        except ValueError as exc:
            raise InputError(f"position: {what}: {exc}") from None
    return out


class Position(PositionForms):
    """One seat's view of one Parade decision (validated on construction: ``InputError``)."""

    game = GAME

    def __init__(self, data: dict[str, Any]):
        check_keys(data, GAME, KEYS, ("players", "seat", "decision", "turn", "draw_pile", "hand", "parade",
                                      "collections"))
        self.players = SPEC.check_players(as_int(data["players"], "players"))
        self.seat = as_int(data["seat"], "seat")
        if not 0 <= self.seat < self.players:
            raise InputError(f"position: seat must be 0..{self.players - 1}, got {self.seat}")
        self.decision = data["decision"]
        if self.decision not in DECISIONS:
            raise InputError(f"position: decision must be play or discard, got {self.decision!r}")
        given = data.get("rules") or {}
        if not isinstance(given, dict):
            raise InputError("position: rules must be an object like {\"two_player_margin\": 2}")
        self.rules = official_rules(self.players, SPEC.resolve_params(self.players, given))
        if self.rules["two_player_margin"] not in TWO_PLAYER_MARGINS:
            raise InputError("position: two_player_margin must be 0, 1 or 2")
        self.turn = as_int(data["turn"], "turn")
        self.draw_pile = as_int(data["draw_pile"], "draw_pile")
        last = data.get("last_round")
        if last in (None, "-", ""):
            self.trigger, self.turns_left = None, -1
        else:
            if not isinstance(last, dict) or set(last) != {"trigger", "turns_left"}:
                raise InputError("position: last_round must be null or {\"trigger\": ..., \"turns_left\": n}")
            if last["trigger"] not in TRIGGERS:
                raise InputError(f"position: last_round trigger must be six_colours or deck_empty, "
                                 f"got {last['trigger']!r}")
            self.trigger, self.turns_left = last["trigger"], as_int(last["turns_left"], "turns_left")
        self.hand = _cards(data["hand"], "hand")
        self.parade = _cards(data["parade"], "parade")
        collections = data["collections"]
        if isinstance(collections, str):
            collections = collections.split("/")
        if not isinstance(collections, (list, tuple)) or len(collections) != self.players:
            raise InputError(f"position: collections must list one collection per seat ({self.players})")
        self.collections = [_cards(c, f"collection of seat {s}") for s, c in enumerate(collections)]
        self._check()

    # --- validation: a position that cannot occur is refused with one line -------------------

    def _check(self) -> None:
        players, seat = self.players, self.seat
        seen: dict[int, str] = {}
        for where, cards in [("hand", self.hand), ("parade", self.parade)] + [
            (f"collection of seat {s}", c) for s, c in enumerate(self.collections)
        ]:
            for c in cards:
                if c in seen:
                    raise InputError(f"position: card {label(c)} shown twice ({seen[c]} and {where})")
                seen[c] = where
        want = HAND_SIZE if self.decision == "play" else FINAL_HAND
        if len(self.hand) != want:
            raise InputError(f"position: a {self.decision} decision's hand holds {want} cards, "
                             f"got {len(self.hand)}")
        if self.turn < 0:
            raise InputError(f"position: turn must be >= 0, got {self.turn}")
        taken = sum(len(c) for c in self.collections)
        if len(self.parade) + taken != OPENING_PARADE + self.turn:
            raise InputError(
                f"position: after {self.turn} turns the parade and the collections hold "
                f"{OPENING_PARADE + self.turn} cards (6 opening + 1 per turn), "
                f"got {len(self.parade) + taken}")
        if not self.parade:
            raise InputError("position: the parade is never empty (the card played last stays)")
        if self.decision == "play" and self.turn % players != seat:
            raise InputError(f"position: turn {self.turn} is seat {self.turn % players}'s, not seat {seat}'s")
        if self.decision == "discard" and (self.trigger is None or self.turns_left != 0):
            raise InputError("position: the final discard comes after the last round (turns_left 0)")
        if self.decision == "play" and self.trigger is not None and not 1 <= self.turns_left <= players:
            raise InputError(f"position: turns_left in the last round must be 1..{players} at a play, "
                             f"got {self.turns_left}")
        start = pile_at_start(players)
        draws = self.turn if self.trigger is None else self.turn - (players - self.turns_left)
        if draws < 1 and self.trigger is not None:
            raise InputError("position: the last round cannot begin before the first turn")
        expected = start - min(draws, start)
        if self.draw_pile != expected:
            raise InputError(f"position: the draw pile holds {expected} cards at this point "
                             f"({start} after the deal, one drawn per turn before the last round), "
                             f"got {self.draw_pile}")
        if self.trigger is None and self.draw_pile == 0:
            raise InputError("position: an empty draw pile starts the last round (last_round missing)")
        if self.trigger == "deck_empty" and self.draw_pile != 0:
            raise InputError("position: the deck_empty trigger needs an empty draw pile")
        if self.trigger is None:
            for s, c in enumerate(self.collections):
                if len({card // 11 for card in c}) == len(COLOURS):
                    raise InputError(f"position: seat {s} holds all six colours but the last round "
                                     "has not begun (six_colours would have started it)")
        if self.trigger == "six_colours":
            t = self.trigger_seat
            if len({card // 11 for card in self.collections[t]}) != len(COLOURS):
                raise InputError(f"position: six_colours was triggered by seat {t}, whose collection "
                                 "does not hold all six colours")
        unseen = N_CARDS - len(seen)
        hidden = sum(self.hand_sizes()) - len(self.hand) + self.draw_pile
        if unseen != hidden:  # implied by the checks above; kept as the conservation law
            raise InputError(f"position: {unseen} cards unseen but the other hands and the draw pile "
                             f"hold {hidden}")

    @property
    def trigger_seat(self) -> int:
        """The seat whose turn started the last round (its turn was number ``draws - 1``)."""
        draws = self.turn - (self.players - self.turns_left)
        return (draws - 1) % self.players

    def hand_sizes(self) -> list[int]:
        """Every seat's hand size: 5 until the seat has played its turn of the last round."""
        sizes = [HAND_SIZE] * self.players
        if self.trigger is not None:
            t = self.trigger_seat
            for k in range(self.players - self.turns_left):
                sizes[(t + 1 + k) % self.players] = FINAL_HAND
        if self.decision == "discard":
            sizes = [FINAL_HAND] * self.players
        return sizes

    def unseen(self) -> list[int]:
        """The cards the seat cannot see (other hands and draw pile), in id order."""
        seen = set(self.hand) | set(self.parade) | {c for coll in self.collections for c in coll}
        return [c for c in range(N_CARDS) if c not in seen]

    # --- the two written forms ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": GAME, "players": self.players, "seat": self.seat,
                               "decision": self.decision}
        if self.players == 2:
            out["rules"] = {"two_player_margin": int(self.rules["two_player_margin"])}
        out.update({
            "turn": self.turn,
            "draw_pile": self.draw_pile,
            "last_round": None if self.trigger is None else {"trigger": self.trigger,
                                                             "turns_left": self.turns_left},
            "hand": [label(c) for c in self.hand],
            "parade": [label(c) for c in self.parade],
            "collections": [[label(c) for c in coll] for coll in self.collections],
        })
        return out

    def to_string(self) -> str:
        """The one-line form: ``key=value`` fields, cards comma-separated, collections by seat
        separated by ``/``, ``-`` for nothing."""
        def cards(ids: Sequence[int]) -> str:
            return ",".join(label(c) for c in ids) or "-"

        last = "-" if self.trigger is None else f"{self.trigger}:{self.turns_left}"
        fields = [GAME, f"players={self.players}", f"seat={self.seat}", f"decision={self.decision}"]
        if self.players == 2:
            fields.append(f"margin={self.rules['two_player_margin']}")
        fields += [f"turn={self.turn}", f"pile={self.draw_pile}", f"last={last}",
                   f"hand={cards(self.hand)}", f"parade={cards(self.parade)}",
                   "collections=" + "/".join(cards(c) for c in self.collections)]
        return " ".join(fields)

    # --- moves -------------------------------------------------------------------------------

    def legal_moves(self) -> list[str]:
        """The seat's moves as a person types them: a hand card to play, in hand order; or the
        two cards to discard (``red-3,blue-4``, lower id first) for each pair, in ``PAIRS`` order."""
        if self.decision == "play":
            return [label(c) for c in self.hand]
        return [discard_text(self.hand[a], self.hand[b]) for a, b in rules.PAIRS.tolist()]

    def move_array(self, moves: Sequence[str]) -> np.ndarray:
        """Moves as ``playon.evaluate`` takes them: ``(n, 2)`` card ids."""
        out = np.zeros((len(moves), 2), np.int64)
        for i, m in enumerate(moves):
            cards = parse_move(m, self.decision)
            out[i, : len(cards)] = cards
        return out


def discard_text(a: int, b: int) -> str:
    low, high = sorted((a, b))
    return f"{label(low)},{label(high)}"


def parse_move(text: str, decision: str) -> list[int]:
    """A move as typed (``red-3``; a discard ``red-3,blue-4`` or ``red-3 blue-4``) -> card ids."""
    parts = [p for p in str(text).replace("+", ",").replace(" ", ",").split(",") if p]
    want = 1 if decision == "play" else 2
    if len(parts) != want:
        raise InputError(f"a {decision} move names {want} card{'s' if want > 1 else ''}, got {text!r}")
    try:
        ids = [card_id(p) for p in parts]
    except ValueError as exc:
        raise InputError(str(exc)) from None
    if want == 2 and ids[0] == ids[1]:
        raise InputError(f"a discard names two different cards, got {text!r}")
    return sorted(ids)


LINE_FIELDS = {"players": "players", "seat": "seat", "decision": "decision", "turn": "turn",
               "pile": "draw_pile", "hand": "hand", "parade": "parade", "collections": "collections"}
"""The one-line form's fields and their JSON keys (besides ``margin`` and ``last``)."""


def _line_data(pairs: Iterable[tuple[str, str]]) -> dict[str, Any]:
    data: dict[str, Any] = {"game": GAME}
    for key, value in pairs:
        if key == "margin":
            data["rules"] = {"two_player_margin": as_int(value, "margin")}
        elif key == "last":
            if value != "-":
                trigger, _, left = value.partition(":")
                data["last_round"] = {"trigger": trigger, "turns_left": left}
        elif key in LINE_FIELDS:
            data[LINE_FIELDS[key]] = value
        else:
            known = ", ".join(list(LINE_FIELDS) + ["margin", "last"])
            raise InputError(f"position: unknown field {key!r} (fields: {known})")
    return data


def parse(text: str | dict[str, Any] | Position) -> Position:
    """A position from JSON (text or dict) or the one-line form; ``InputError`` if impossible."""
    return parse_position(text, Position, GAME, _line_data)


# --- a full game to step through: mc.state ---------------------------------------------------


class State:
    """A full Parade game at a decision (OpenSpiel's state as the model): ``legal_moves()``,
    ``apply(move)``, ``observe(seat)``, ``clone()``, ``is_terminal``, ``result``.

    Made by ``from_position`` (the position and one dealing of its unseen cards from ``seed``)
    or ``from_deal`` (every card where it is: a scripted game's deck). Plays follow the
    kernel's own rule functions (``rules.play_card``, ``finish_turn``, ``keep_cards``). The
    final discards are simultaneous: seats choose in turn (``current_player``), and the
    choices are applied once every seat has chosen."""

    game = GAME

    def __init__(self, g: np.ndarray, collections: list[list[int]], seat: int, done: bool, params: dict):
        self.g = g
        self.collections = collections
        self.seat = seat
        self.done = done  # the last turn has been played: the final discards are next
        self.params = params
        self.chosen: list[int] = []  # the final discards chosen so far (pair indices), seat order
        self.history: list[tuple[int, str]] = []

    @classmethod
    def from_position(cls, position: Position | str | dict, seed: int = 0) -> State:
        pos = parse(position)
        rng = np.random.default_rng(seed)
        unseen = np.array(pos.unseen(), np.int64)
        dealt = rng.permutation(unseen) if unseen.size else unseen
        g = rules.new_state()
        g[rules.PLAYERS] = pos.players
        g[rules.MARGIN] = pos.rules["two_player_margin"] if pos.players == 2 else 0
        sizes = pos.hand_sizes()
        m = 0
        for s in range(pos.players):
            cards = pos.hand if s == pos.seat else dealt[m : m + sizes[s]]
            if s != pos.seat:
                m += sizes[s]
            for k, c in enumerate(cards):
                g[rules.hand_at(s, k)] = c
            g[rules.HAND_N + s] = len(cards)
        pile = dealt[m:]
        drawn = N_CARDS - len(pile)
        seen = [c for c in range(N_CARDS) if c not in set(pile.tolist())]
        g[rules.DECK : rules.DECK + drawn] = seen
        g[rules.DECK + drawn : rules.DECK + N_CARDS] = pile
        g[rules.DRAWN] = drawn
        g[rules.PARADE : rules.PARADE + len(pos.parade)] = pos.parade
        g[rules.PARADE_N] = len(pos.parade)
        for s, coll in enumerate(pos.collections):
            for c in coll:
                rules.collect(g, s, c)
        g[rules.TURNS] = pos.turn
        g[rules.LAST_ROUND_LEFT] = pos.turns_left
        g[rules.TRIGGER] = 0 if pos.trigger is None else TRIGGERS[pos.trigger]
        state = cls(g, [list(c) for c in pos.collections], pos.seat, pos.decision == "discard", pos.rules)
        return state

    @classmethod
    def from_deal(cls, deck: Sequence[str], players: int, params: dict[str, Any] | None = None) -> State:
        """The game dealt from an explicit deck order (top first), as ``play_scripted`` deals it."""
        players = SPEC.check_players(players)
        resolved = official_rules(players, SPEC.resolve_params(players, params))
        ids = _cards(list(deck), "deck")
        if len(ids) != N_CARDS or len(set(ids)) != N_CARDS:
            raise InputError(f"deck must hold each of the {N_CARDS} cards exactly once")
        g = rules.new_state()
        g[rules.DECK : rules.DECK + N_CARDS] = ids
        rules.set_up(g, players, resolved["two_player_margin"], np.zeros(4, np.uint64), False,
                     np.zeros((0, 4), np.int64))
        return cls(g, [[] for _ in range(players)], 0, False, resolved)

    # --- OpenSpiel's state API ---------------------------------------------------------------

    @property
    def players(self) -> int:
        return int(self.g[rules.PLAYERS])

    @property
    def is_terminal(self) -> bool:
        return self.done and len(self.chosen) == self.players

    @property
    def decision(self) -> str:
        return "discard" if self.done else "play"

    @property
    def current_player(self) -> int:
        """The seat to decide (-1 once the game is over)."""
        if self.is_terminal:
            return -1
        return len(self.chosen) if self.done else self.seat

    def _hand(self, seat: int) -> list[int]:
        return [int(self.g[rules.hand_at(seat, k)]) for k in range(int(self.g[rules.HAND_N + seat]))]

    def legal_moves(self) -> list[str]:
        if self.is_terminal:
            return []
        hand = self._hand(self.current_player)
        if not self.done:
            return [label(c) for c in hand]
        return [discard_text(hand[a], hand[b]) for a, b in rules.PAIRS.tolist()]

    def apply(self, move: str) -> None:
        """Make the current seat's move (as ``legal_moves`` writes it); ``InputError`` if illegal."""
        if self.is_terminal:
            raise InputError("the game is over: no move to apply")
        seat = self.current_player
        cards = parse_move(move, self.decision)
        hand = self._hand(seat)
        if any(c not in hand for c in cards):
            held = ", ".join(label(c) for c in hand)
            raise InputError(f"{move!r} is not legal for seat {seat} (hand: {held})")
        self.history.append((seat, move))
        if not self.done:
            before = self.g[rules.PARADE : rules.PARADE + self.g[rules.PARADE_N]].tolist()
            self.done = bool(playon.step_play(self.g, seat, cards[0], np.zeros(4, np.uint64), False))
            after = set(self.g[rules.PARADE : rules.PARADE + self.g[rules.PARADE_N]].tolist())
            self.collections[seat] += [c for c in before if c not in after]
            self.seat = rules.next_seat(seat, self.players)
            return
        a, b = hand.index(cards[0]), hand.index(cards[1])
        pair = [sorted(p) for p in rules.PAIRS.tolist()].index(sorted((a, b)))
        self.g[rules.DISCARD + seat] = pair
        self.chosen.append(pair)
        if len(self.chosen) == self.players:
            finals = [self._hand(s) for s in range(self.players)]
            playon.step_discards(self.g, self.players)
            for s, p in enumerate(self.chosen):
                kept = rules.PAIRS[rules.complement(p)]
                self.collections[s] += [finals[s][kept[0]], finals[s][kept[1]]]

    def observe(self, seat: int | None = None) -> Position:
        """What ``seat`` (default: the seat to decide) knows at this decision, as a position."""
        seat = self.current_player if seat is None else seat
        if self.is_terminal:
            raise InputError("the game is over: no decision to observe")
        if self.done:
            if not 0 <= seat < self.players:
                raise InputError(f"seat must be 0..{self.players - 1}")
        elif seat != self.seat:
            raise InputError(f"seat {seat} has no decision now: it is seat {self.seat}'s turn")
        g = self.g
        left = int(g[rules.LAST_ROUND_LEFT])
        trigger = int(g[rules.TRIGGER])
        data = {
            "game": GAME, "players": self.players, "seat": seat, "decision": self.decision,
            "rules": {"two_player_margin": int(self.params["two_player_margin"])},
            "turn": int(g[rules.TURNS]), "draw_pile": N_CARDS - int(g[rules.DRAWN]),
            "last_round": None if left < 0 else {"trigger": TRIGGER_NAMES[trigger], "turns_left": left},
            "hand": [label(c) for c in self._hand(seat)],
            "parade": [label(int(c)) for c in g[rules.PARADE : rules.PARADE + g[rules.PARADE_N]]],
            "collections": [[label(c) for c in coll] for coll in self.collections],
        }
        return Position(data)

    def clone(self) -> State:
        other = State(self.g.copy(), [list(c) for c in self.collections], self.seat, self.done, self.params)
        other.chosen = list(self.chosen)
        other.history = list(self.history)
        return other

    @property
    def result(self) -> list[float] | None:
        """Every seat's win share once the game is over (None before)."""
        if not self.is_terminal:
            return None
        shares, _ = playon.shares_of(self.g)
        return (shares / WIN_UNIT).tolist()

    @property
    def scores(self) -> list[int]:
        """Every seat's score as if the game ended now (the final scores once it is over)."""
        _, scores = playon.shares_of(self.g)
        return scores.tolist()

    def __repr__(self) -> str:
        if self.is_terminal:
            return f"<parade state: over, win shares {self.result}>"
        return f"<parade state: seat {self.current_player} to {self.decision}; {self.observe().to_string()}>"


def state(position: Any = None, seed: int = 0, deck: Sequence[str] | None = None,
          players: int | None = None, params: dict[str, Any] | None = None) -> State:
    """``mc.state``'s Parade half: from a position (its unseen cards dealt from ``seed``) or an
    explicit deck (``players`` and ``params`` as ``play_scripted`` takes them)."""
    if deck is not None:
        return State.from_deal(deck, players or SPEC.default_players, params)
    if position is None:
        raise InputError("give a position, or a deck to deal")
    return State.from_position(position, seed)


def official_rules(players: int, resolved: dict[str, Any]) -> dict[str, Any]:
    """``resolved`` when every rule parameter but ``two_player_margin`` has its official value:
    positions, records and playing on from them follow the official deck, deal and end (the
    other parameters are for runs: ``simulate --param``); else one line, exit 2."""
    other = {name: value for name, value in resolved.items()
             if name != "two_player_margin" and value != SPEC.param(name).default_for(players)}
    if other:
        raise InputError("positions and records follow Parade's official rules (only two_player_margin may "
                         "change); this game sets " + ", ".join(f"{k}={v}" for k, v in other.items()))
    return resolved


def positions_of_trace(events: Any, players: int, params: dict[str, Any] | None = None) -> list[Position]:
    """Every decision of a traced game as the deciding seat's position (plays in turn order,
    then each seat's final discard)."""
    from montecards.games.parade.game import script_from_trace

    script = script_from_trace(events, players, params)
    st = State.from_deal(script["deck"], players, params)
    out = []
    for card in script["plays"]:
        out.append(st.observe())
        st.apply(card)
    for s in range(players):
        out.append(st.observe(s))
    return out


def record_of_trace(events: Any, players: int, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """A review record from a trace: the deal (every card, so the omniscient column can be
    computed) and every decision."""
    from montecards.games.parade.game import script_from_trace

    official_rules(players, SPEC.resolve_params(players, params))
    script = script_from_trace(events, players, params)
    moves = list(script["plays"]) + [",".join(d) for d in script["discards"]]
    return {"game": GAME, "players": players, "rules": dict(params or {}), "deck": script["deck"],
            "moves": moves}


def decisions_of_record(record: dict[str, Any]) -> list[tuple[int, int, Position | None, str, State | None]]:
    """``(turn, seat, position, played, true_state)`` for every decision of a record (docs/positions.md).

    A record is ``{"game": "parade", "players": P, "rules": {...}, "moves": [...]}``, ``moves``
    every decision in order (the plays, then one final discard per seat in seat order), with either

    * ``"deck"``: all 66 cards, top first (the whole deal: a trace's); every decision then has its
      position and the true state (the omniscient column); or
    * what one seat knew: ``"seat"``, its dealt ``"hand"`` (5 cards), the opening ``"parade"``
      (6, front first) and ``"draws"``: the card it drew after each of its turns, in order, until
      the pile ran out or the last round began. The other seats' final discards may be ``"?"``.
      Only that seat's decisions have positions (the others' are None), and there is no true
      state. The cards no one has shown are dealt once, arbitrarily: a position never reads them,
      and a card a seat plays or draws is moved to where the record says it was, from among the
      cards the reviewed seat could not see."""
    if not isinstance(record, dict):
        raise InputError("record: expected a JSON object")
    if record.get("game", GAME) != GAME:
        raise InputError(f"record: game must be {GAME!r}")
    moves = record.get("moves")
    if not isinstance(moves, list) or not moves:
        raise InputError("record: 'moves' must list every decision")
    players = as_int(record.get("players", 2), "players")
    if "deck" in record:
        st = State.from_deal(record["deck"], players, record.get("rules"))
        reviewed, draws = None, []
    elif "hand" in record:
        st, reviewed = _seat_state(record, players)
        draws = _cards(record.get("draws", []), "draws")
    else:
        raise InputError("record: give 'deck' (the deal, 66 cards top first), or 'seat', 'hand', "
                         "'parade' and 'draws' (what one seat knew)")
    out = []
    for i, move in enumerate(moves):
        if st.is_terminal:
            raise InputError(f"record: move {i + 1} ({move!r}) comes after the end of the game")
        seat = st.current_player
        turn = int(st.g[rules.TURNS])
        if reviewed is None:
            pos, snapshot = st.observe(seat), st.clone()
        else:
            pos, snapshot = (st.observe(seat) if seat == reviewed else None), None
            move = _place_for_record(st, seat, reviewed, move, draws, i)
        try:
            st.apply(move)
        except InputError as exc:
            raise InputError(f"record: move {i + 1}: {exc}") from None
        out.append((turn, seat, pos, str(move), snapshot))
    if not st.is_terminal:
        raise InputError(f"record: the game is not over after {len(moves)} moves")
    if draws:
        raise InputError(f"record: {len(draws)} draws left over (the seat drew fewer cards)")
    return out


def _seat_state(record: dict[str, Any], players: int) -> tuple[State, int]:
    """A state for a one-seat record: the seat's hand and the opening parade as recorded, every
    other card dealt in id order (a position never reads them)."""
    players = SPEC.check_players(players)
    seat = as_int(record.get("seat"), "seat")
    if not 0 <= seat < players:
        raise InputError(f"record: seat must be 0..{players - 1}, got {seat}")
    hand = _cards(record.get("hand", []), "hand")
    parade = _cards(record.get("parade", []), "parade")
    if len(hand) != HAND_SIZE or len(parade) != OPENING_PARADE or len(set(hand + parade)) != 11:
        raise InputError("record: 'hand' holds the seat's 5 dealt cards and 'parade' the 6 opening cards, "
                         "all different")
    rest = [c for c in range(N_CARDS) if c not in set(hand + parade)]
    deck: list[int] = []
    for s in range(players):
        if s == seat:
            deck += hand
        else:
            deck += rest[:HAND_SIZE]
            rest = rest[HAND_SIZE:]
    deck += parade + rest
    return State.from_deal([label(c) for c in deck], players, record.get("rules")), seat


def _hidden_places(st: State, reviewed: int) -> list[int]:
    """State offsets of the cards the reviewed seat cannot see: other hands, then the draw pile."""
    g = st.g
    places = [int(rules.hand_at(s, k)) for s in range(st.players) if s != reviewed
              for k in range(int(g[rules.HAND_N + s]))]
    return places + list(range(rules.DECK + int(g[rules.DRAWN]), rules.DECK + N_CARDS))


def _move_card_to(st: State, card: int, target: int, reviewed: int, what: str) -> None:
    """Swap ``card`` into state offset ``target`` from wherever it lies hidden from the seat."""
    g = st.g
    if int(g[target]) == card:
        return
    for place in _hidden_places(st, reviewed):
        if int(g[place]) == card:
            g[place], g[target] = g[target], card
            return
    raise InputError(f"record: {what} {label(card)} cannot be there (the seat had seen it elsewhere)")


def _place_for_record(st: State, seat: int, reviewed: int, move: str, draws: list[int], i: int) -> str:
    """Before move ``i``: the card another seat plays into its hand, or the card the reviewed seat
    draws onto the draw pile; another seat's unknown final discard (``?``) chosen as its first
    legal one. Returns the move to apply."""
    g = st.g
    if st.done:
        if seat == reviewed or str(move).strip() != "?":
            if seat != reviewed:
                for k, c in enumerate(parse_move(move, "discard")):
                    _move_card_to(st, c, int(rules.hand_at(seat, k)), reviewed, f"move {i + 1}: discarded")
            return move
        return st.legal_moves()[0]
    if seat != reviewed:
        card = parse_move(move, "play")[0]
        _move_card_to(st, card, int(rules.hand_at(seat, 0)), reviewed, f"move {i + 1}: played")
        return move
    if int(g[rules.LAST_ROUND_LEFT]) < 0 and int(g[rules.DRAWN]) < N_CARDS:
        if not draws:
            raise InputError(f"record: the seat's draw after move {i + 1} is missing from 'draws'")
        _move_card_to(st, draws.pop(0), rules.DECK + int(g[rules.DRAWN]), reviewed, "drawn card")
    return move


def evaluate(template: State, seat: int, moves: Sequence[str], strategies: np.ndarray,
             params: np.ndarray, options: Any, seed: int, first: int, n: int, deal: bool) -> np.ndarray:
    """``(n, len(moves))`` win shares (floats) of the seat's moves on determinizations
    ``first .. first + n - 1`` (``playon.evaluate``); ``deal`` False: on the true state."""
    pos_kind = view.DECISION_PLAY if not template.done else view.DECISION_DISCARD
    decision = "play" if not template.done else "discard"
    move_ids = np.zeros((len(moves), 2), np.int64)
    for i, m in enumerate(moves):
        cards = parse_move(m, decision)
        move_ids[i, : len(cards)] = cards
    unseen = np.zeros(N_CARDS, np.int64)
    if deal:
        pos = template.observe(seat)
        ids = pos.unseen()
        unseen[: len(ids)] = ids
        n_unseen = len(ids)
    else:
        n_unseen = 0
    out = np.zeros((n, len(moves)), np.int64)
    err = playon.evaluate(template.g, seat, pos_kind, move_ids, unseen, n_unseen, np.uint64(seed), first, n,
                          strategies, params, options, deal, deal, out)
    if err != 0:
        raise InputError(f"a play-out strategy could not play on from this position (error {err})")
    return out / WIN_UNIT


def evaluate_root(template: State, seat: int, moves: Sequence[str], seed: int, index: int, iterations: int,
                  exploration: float = 0.7, policy: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The IS-MCTS root evaluator (``playon.search_root``): per move its root visits and summed
    win shares. The search determinizes the seat's unseen cards itself: the template's hidden
    cards are never read."""
    kind = view.DECISION_PLAY if not template.done else view.DECISION_DISCARD
    decision = "play" if not template.done else "discard"
    move_ids = np.zeros((len(moves), 2), np.int64)
    for i, m in enumerate(moves):
        cards = parse_move(m, decision)
        move_ids[i, : len(cards)] = cards
    visits = np.zeros(len(moves), np.float64)
    rewards = np.zeros(len(moves), np.float64)
    playon.search_root(template.g, seat, kind, move_ids, int(iterations), float(exploration), int(policy),
                       np.uint64(seed), int(index), visits, rewards)
    return visits, rewards


def value_moves(template: State, seat: int, moves: Sequence[str], value: np.ndarray, strategies: np.ndarray,
                params: np.ndarray, seed: int, first: int, n: int) -> np.ndarray:
    """``(n, len(moves))``: V of the seat after each move (floats in [0, 1]) on determinizations
    ``first .. first + n - 1``, the very deals of ``evaluate`` (``playon.value_moves``). The
    template's hidden cards are never read: they are dealt afresh from the seat's unseen set."""
    kind = view.DECISION_PLAY if not template.done else view.DECISION_DISCARD
    decision = "play" if not template.done else "discard"
    move_ids = np.zeros((len(moves), 2), np.int64)
    pairs = np.zeros(len(moves), np.int64)
    hand = template._hand(seat)
    sorted_pairs = [sorted(p) for p in rules.PAIRS.tolist()]
    for i, m in enumerate(moves):
        cards = parse_move(m, decision)
        move_ids[i, : len(cards)] = cards
        if decision == "discard":
            pairs[i] = sorted_pairs.index(sorted((hand.index(cards[0]), hand.index(cards[1]))))
    ids = template.observe(seat).unseen()
    unseen = np.zeros(N_CARDS, np.int64)
    unseen[: len(ids)] = ids
    out = np.zeros((n, len(moves)), np.float64)
    playon.value_moves(template.g, seat, kind, move_ids, pairs, unseen, len(ids), np.uint64(seed), first, n,
                       np.asarray(value, np.float64), strategies, params, out)
    return out


def record_luck(record: dict[str, Any], value: np.ndarray, strategies: np.ndarray, params: np.ndarray,
                seed: int, index: int = 0) -> tuple[list[float], list[float]] | None:
    """``(luck, result)`` per seat of a whole-deal record (``"deck"``: a trace's), in wins, by
    the luck ledger (``playon.luck_of_game``); None for a one-seat record (the other hands and
    the draw pile are unknown, and V reads the full state). ``seed`` and ``index``: the ledger's
    stream for the deal's sampled expectation. ``decisions_of_record`` checks the record first."""
    if "deck" not in record:
        return None
    players = as_int(record.get("players", 2), "players")
    st = State.from_deal(record["deck"], players, record.get("rules"))
    dealt = st.g.copy()
    plays = []
    for move in record["moves"]:
        if not st.done:
            plays.append(parse_move(move, "play")[0])
        st.apply(move)
    luck = np.zeros(players, np.float64)
    playon.luck_of_game(dealt, np.array(plays, np.int64), np.asarray(value, np.float64), strategies, params,
                        np.uint64(seed), int(index), luck)
    return luck.tolist(), list(st.result)

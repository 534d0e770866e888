"""Wig Out! positions: what one seat knows when it acts with a play, as JSON or one line (issue #32).

The format is documented in docs/positions.md. A position holds, in the rules page's words
(docs/rules/wigout.md): the players, the acting seat, the decision (``play``: which play to
make; a seat without a play draws, and that draw is forced, not a decision), the rule
parameters that differ from their defaults, the counted rounds finished before this one, every
seat's points so far, the seat's hand, the cards on the table (all piles: which pile a card
lies in changes nothing under the rules), every hand's size and the draw pile's size. A card is
its character, ``0 .. characters - 1`` (copies are interchangeable). The other hands are never
in it: which cards they hold is the seat's unseen set (every copy not in its hand or on the
table), as is the draw pile.

``State`` is a full game a person can step through (``mc.state``): a position with one dealing
of its unseen cards, or round decks given card by card, played on by the kernel's own rule
functions; the chance events (who acts next, the forced draws) come from the kernel's streams
of ``seed``, or from a script (a traced game's actors).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from montecards.engine.spec import WIN_UNIT, InputError
from montecards.games.position_forms import PositionForms, as_int, check_keys, parse_position
from montecards.games.wigout import playon, rules, view
from montecards.games.wigout.game import SPEC, pack_params
from montecards.games.wigout.kernel import load_deck
from montecards.rng import next_u64, seed_stream, uniform

GAME = "wigout"
DECISIONS = ("play",)
KEYS = ("game", "players", "seat", "decision", "rules", "round", "points", "hand", "table", "hand_sizes",
        "draw_pile")
RULE_NAMES = ("characters", "copies", "hand_size", "rounds", "deadlock_counts_as_round", "speed",
              "draw_time_factor")
MOVE_KINDS = {"start": view.MOVE_START, "add": view.MOVE_ADD}


def _cards(value: Any, what: str, characters: int) -> list[int]:
    """Cards as written: a list of characters, or text ``3,3,7`` (``3x2`` for two 3s; ``-`` none)."""
    if isinstance(value, str):
        value = [] if value.strip() in ("", "-") else [p for p in value.replace(" ", ",").split(",") if p]
    if not isinstance(value, (list, tuple)):
        raise InputError(f"position: {what} must be a list of characters like 3,3,7")
    out: list[int] = []
    for item in value:
        text = str(item).strip()
        count = 1
        if isinstance(item, str) and "x" in text:
            text, _, times = text.partition("x")
            count = as_int(times, f"{what}: the count in {item!r}")
            if count < 1:
                raise InputError(f"position: {what}: the count in {item!r} must be >= 1")
        if isinstance(item, bool) or not text.lstrip("-").isdigit():
            raise InputError(f"position: {what}: unknown card {item!r} (a card is its character, "
                             f"0..{characters - 1})")
        c = int(text)
        if not 0 <= c < characters:
            raise InputError(f"position: {what}: unknown card {item!r} (characters are 0..{characters - 1})")
        out += [c] * count
    return sorted(out)


def _ints(value: Any, what: str, players: int) -> list[int]:
    if isinstance(value, str):
        value = value.split(",") if value.strip() not in ("", "-") else []
    if not isinstance(value, (list, tuple)) or len(value) != players:
        raise InputError(f"position: {what} must list one number per seat ({players})")
    return [as_int(v, f"{what} of seat {s}") for s, v in enumerate(value)]


def move_text(move: int) -> str:
    """A ``view`` move id as a person types it: ``start-7`` (every 7 held), ``add-3`` (one 3)."""
    kind = "add" if move & rules.ADD else "start"
    return f"{kind}-{move >> 1}"


def parse_move(text: str, decision: str = "play") -> list[int]:
    """A play as typed (``start-7``, ``start 7``, ``add-3``) -> ``[move id]``."""
    kind, _, char = str(text).strip().replace(" ", "-").partition("-")
    if kind not in MOVE_KINDS or not char.isdigit():
        raise InputError(f"a play is start-C (a pile of every copy of character C held) or add-C "
                         f"(one card of C), got {text!r}")
    return [2 * int(char) + MOVE_KINDS[kind]]


class Position(PositionForms):
    """One seat's view of one Wig Out! decision (validated on construction: ``InputError``)."""

    game = GAME

    def __init__(self, data: dict[str, Any]):
        check_keys(data, GAME, KEYS, ("players", "seat", "hand", "table", "hand_sizes", "draw_pile"))
        self.players = SPEC.check_players(as_int(data["players"], "players"))
        self.seat = as_int(data["seat"], "seat")
        if not 0 <= self.seat < self.players:
            raise InputError(f"position: seat must be 0..{self.players - 1}, got {self.seat}")
        self.decision = data.get("decision", "play")
        if self.decision not in DECISIONS:
            raise InputError(f"position: decision must be play (a draw is forced, not a decision), "
                             f"got {self.decision!r}")
        given = data.get("rules") or {}
        if not isinstance(given, dict):
            raise InputError("position: rules must be an object like {\"hand_size\": 5}")
        self.rules = SPEC.resolve_params(self.players, given)
        self.packed = pack_params(self.players, self.rules)
        chars, copies = self.rules["characters"], self.rules["copies"]
        self.round = as_int(data.get("round", 0), "round")
        self.points = _ints(data.get("points", [0] * self.players), "points", self.players)
        self.hand = _cards(data["hand"], "hand", chars)
        self.table = _cards(data["table"], "table", chars)
        self.hand_sizes = _ints(data["hand_sizes"], "hand_sizes", self.players)
        self.draw_pile = as_int(data["draw_pile"], "draw_pile")
        self._check(chars, copies)

    # --- validation: a position that cannot occur is refused with one line -------------------

    def _check(self, chars: int, copies: int) -> None:
        players, seat, r = self.players, self.seat, self.rules
        if not 0 <= self.round < r["rounds"]:
            raise InputError(f"position: round (counted rounds finished) must be 0..{r['rounds'] - 1}, "
                             f"got {self.round}")
        if any(p < 0 for p in self.points):
            raise InputError("position: points must be >= 0")
        if self.round == 0 and any(self.points):
            raise InputError("position: no round is finished (round 0) but a seat has points")
        for c in range(chars):
            shown = self.hand.count(c) + self.table.count(c)
            if shown > copies:
                raise InputError(f"position: card {c} shown {shown} times (hand and table), only {copies} "
                                 "copies exist")
        if self.hand_sizes[seat] != len(self.hand):
            raise InputError(f"position: hand_sizes gives seat {seat} {self.hand_sizes[seat]} cards but its "
                             f"hand holds {len(self.hand)}")
        for s, n in enumerate(self.hand_sizes):
            if n < 1:
                raise InputError(f"position: seat {s} holds {n} cards: an empty hand has already ended the "
                                 "round (Wig Out!)")
        if len(self.table) < 2:
            raise InputError(f"position: the table holds at least the 2 starter cards, got {len(self.table)}")
        deck = chars * copies
        after_deal = deck - players * r["hand_size"] - 2
        if not 0 <= self.draw_pile <= after_deal:
            raise InputError(f"position: the draw pile holds 0..{after_deal} cards ({deck} - {r['hand_size']} "
                             f"per seat - 2 starters after the deal), got {self.draw_pile}")
        total = sum(self.hand_sizes) + len(self.table) + self.draw_pile
        if total != deck:
            raise InputError(f"position: the hands ({sum(self.hand_sizes)}), the table ({len(self.table)}) and "
                             f"the draw pile ({self.draw_pile}) hold {total} cards, not the deck's {deck}")
        if not self.legal_moves():
            raise InputError(f"position: seat {seat} has no play (no pair, no card matching the table): its "
                             "draw is forced, not a decision")

    def unseen(self) -> list[int]:
        """The cards the seat cannot see (other hands and draw pile), by character."""
        chars, copies = self.rules["characters"], self.rules["copies"]
        return [c for c in range(chars) for _ in range(copies - self.hand.count(c) - self.table.count(c))]

    # --- the two written forms ---------------------------------------------------------------

    def changed_rules(self) -> dict[str, Any]:
        """The rule parameters that differ from their defaults (for these players)."""
        defaults = SPEC.resolve_params(self.players, {})
        out = {}
        for name in RULE_NAMES:
            value = self.rules[name]
            if value != defaults[name]:
                out[name] = list(value) if name == "speed" else value
        return out

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": GAME, "players": self.players, "seat": self.seat,
                               "decision": self.decision}
        changed = self.changed_rules()
        if changed:
            out["rules"] = changed
        out.update({"round": self.round, "points": list(self.points), "hand": list(self.hand),
                    "table": list(self.table), "hand_sizes": list(self.hand_sizes),
                    "draw_pile": self.draw_pile})
        return out

    def to_string(self) -> str:
        """The one-line form: ``key=value`` fields, cards comma-separated (``-`` for none), a
        changed rule as its own field (``hand_size=5``, ``speed=1.25,1,1,1``)."""
        def cards(ids: Sequence[int]) -> str:
            return ",".join(str(c) for c in ids) or "-"

        fields = [GAME, f"players={self.players}", f"seat={self.seat}"]
        for name, value in self.changed_rules().items():
            if name == "speed":
                value = ",".join(f"{v:g}" for v in value)
            elif isinstance(value, bool):
                value = str(value).lower()
            fields.append(f"{name}={value}")
        fields += [f"round={self.round}", "points=" + ",".join(map(str, self.points)),
                   f"hand={cards(self.hand)}", f"table={cards(self.table)}",
                   "sizes=" + ",".join(map(str, self.hand_sizes)), f"pile={self.draw_pile}"]
        return " ".join(fields)

    # --- moves -------------------------------------------------------------------------------

    def legal_ids(self) -> list[int]:
        """The seat's plays as ``view`` move ids, in the view's legal order (character
        ascending, a start before an add)."""
        return self.legal_ids_of(self.hand, self.table, self.rules["characters"])

    @staticmethod
    def legal_ids_of(hand: list[int], table: list[int], characters: int) -> list[int]:
        out = []
        for c in range(characters):
            n = hand.count(c)
            if n >= 2:
                out.append(2 * c + view.MOVE_START)
            if n >= 1 and c in table:
                out.append(2 * c + view.MOVE_ADD)
        return out

    def legal_moves(self) -> list[str]:
        """The seat's plays as a person types them (``start-7``, ``add-3``), in the view's order."""
        return [move_text(m) for m in self.legal_ids()]


LINE_FIELDS = {"players": "players", "seat": "seat", "decision": "decision", "round": "round",
               "points": "points", "hand": "hand", "table": "table", "sizes": "hand_sizes",
               "pile": "draw_pile"}
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


# --- a full game to step through: mc.state ---------------------------------------------------


def _legal_ids(g: np.ndarray, seat: int) -> list[int]:
    legal = np.zeros(view.MAX_LEGAL, np.int64)
    n = view.legal_moves(g, seat, view.DECISION_PLAY, legal)
    return legal[:n].tolist()


class State:
    """A full Wig Out! game at a decision (OpenSpiel's state as the model): ``legal_moves()``,
    ``apply(move)``, ``observe(seat)``, ``clone()``, ``is_terminal``, ``result``.

    The seat to decide (``current_player``) is the one the timing model picked to act, holding a
    play. Between decisions the state plays the chance events itself, as ``kernel.play_round``
    does: the actor drawn with probability proportional to its rate (from ``seed``'s event
    stream, or the next actor of a script), a forced draw when the actor has no play, a
    deadlock, the end of a round and the next deal (a script's next deck, or the deal's deck
    stream of ``seed``). Plays follow the kernel's rule functions (``rules.play_move``,
    ``draw_card``, ``end_round``, ``deal``)."""

    game = GAME

    def __init__(self, g: np.ndarray, players: int, params: dict[str, Any], seed: int,
                 decks: list[list[int]] | None = None, actors: list[int] | None = None):
        self.g = g
        self.params = params
        self.packed = pack_params(players, params)
        self.fw = rules.new_floats(players, self.packed)
        self.seed = int(seed)
        self.event_rng = np.zeros(4, np.uint64)
        self.deck_rng = np.zeros(4, np.uint64)
        seed_stream(self.event_rng, np.uint64(self.seed), 0, playon.EVENT_STREAM)
        seed_stream(self.deck_rng, np.uint64(self.seed), 0, playon.PILE_STREAM)
        self.decks = decks
        self.next_deck = 0
        self.actors = actors
        self.next_actor = 0
        self.current = -1
        self.over = False
        self.history: list[tuple[int, str]] = []  # every action: (seat, "start-7" / "add-3" / "draw")

    @classmethod
    def from_position(cls, position: Position | str | dict, seed: int = 0) -> State:
        """The position with its unseen cards dealt once from ``seed`` (``playon.deal_unseen``)."""
        pos = parse(position)
        players = pos.players
        g = rules.new_state(players, pos.packed)
        g[rules.ROUND] = pos.round
        g[rules.DEAL] = pos.round
        for s in range(players):
            g[rules.POINTS + s] = pos.points[s]
            g[rules.HAND_N + s] = pos.hand_sizes[s]
        for c in pos.hand:
            g[rules.held_at(pos.seat, c)] += 1
        playon.refresh_masks(g, pos.seat)
        mask = 0
        for c in set(pos.table):
            mask |= 1 << c
        g[rules.TABLE] = mask
        g[rules.TABLE_CARDS] = len(pos.table)
        seen = pos.hand + pos.table
        g[rules.DECK : rules.DECK + len(seen)] = seen  # the seen part of the deck (never read)
        unseen = np.array(pos.unseen(), np.int64)
        rng = np.zeros(4, np.uint64)
        seed_stream(rng, np.uint64(seed), 0, playon.DEAL_STREAM)
        playon.deal_unseen(g, pos.seat, unseen, len(unseen), np.zeros(max(1, len(unseen)), np.int64), rng)
        state = cls(g, players, pos.rules, seed)
        state.current = pos.seat
        return state

    @classmethod
    def from_deal(cls, decks: Sequence[Sequence[Any]], players: int, params: dict[str, Any] | None = None,
                  actors: Sequence[int] | None = None, seed: int = 0) -> State:
        """The game dealt from explicit round decks (one per deal, top first, as
        ``play_scripted`` deals them); ``actors``: every action's seat in order (a traced game's),
        or None: drawn from ``seed``'s event stream."""
        players = SPEC.check_players(players)
        resolved = SPEC.resolve_params(players, params)
        packed = pack_params(players, resolved)
        chars, copies = resolved["characters"], resolved["copies"]
        if not isinstance(decks, (list, tuple)) or not decks:
            raise InputError("decks must list one deck per deal (each every card, top first)")
        rows = []
        for d, deck in enumerate(decks):
            ids = _cards(list(deck), f"deck {d}", chars)
            if ids != sorted(c for c in range(chars) for _ in range(copies)):
                raise InputError(f"deck {d} must hold {copies} copies of each of the {chars} characters")
            rows.append([as_int(c, f"deck {d}") for c in deck])
        if actors is not None:
            actors = [as_int(a, "actor") for a in actors]
            if any(not 0 <= a < players for a in actors):
                raise InputError(f"an actor must be a seat 0..{players - 1}")
        g = rules.new_state(players, packed)
        state = cls(g, players, resolved, seed, rows, actors)
        if not state._next_deal():
            raise InputError("decks: no deal to play")
        state._advance()
        return state

    # --- chance: the timing model, forced draws, round ends, deals -------------------------------

    def _next_deal(self) -> bool:
        """Deal the next round if the game goes on; False once it is over."""
        g = self.g
        if g[rules.ROUND] >= g[rules.ROUNDS]:
            self.over = True
            return False
        if g[rules.DEAL] >= g[rules.MAX_DEALS]:
            g[rules.UNFINISHED] = 1
            self.over = True
            return False
        if self.decks is not None:
            if self.next_deck >= len(self.decks):
                raise InputError(f"decks: deal {int(g[rules.DEAL])} needs a deck, only {len(self.decks)} given")
            g[rules.DECK : rules.DECK + g[rules.DECK_N]] = self.decks[self.next_deck]
            self.next_deck += 1
            rules.deal(g, self.deck_rng, True, None)
        else:
            load_deck(g, self.deck_rng, np.uint64(self.seed), 0, False, np.zeros((0, 0), np.int64))
            rules.deal(g, self.deck_rng, False, None)
        return True

    def _rates(self) -> list[float]:
        g, fw = self.g, self.fw
        pile_left = g[rules.DRAWN] < g[rules.DECK_N]
        out = []
        for s in range(self.players):
            if rules.has_play(g, s):
                out.append(float(fw[rules.F_SPEED + s]))
            elif pile_left:
                out.append(float(fw[rules.F_DRAW_SPEED + s]))
            else:
                out.append(0.0)
        return out

    def _advance(self) -> None:
        """Chance events until a seat acts holding a play, or the game is over."""
        g = self.g
        self.current = -1
        while not self.over:
            rates = self._rates()
            total = sum(rates)
            if total == 0.0:  # deadlock
                rules.end_round(g, -1, 0.0, None)
                self._next_deal()
                continue
            if self.actors is not None:
                if self.next_actor >= len(self.actors):
                    raise InputError(f"the script's actors ran out after {len(self.actors)} actions: the game "
                                     "is not over")
                actor = self.actors[self.next_actor]
                if rates[actor] == 0.0:
                    raise InputError(f"action {self.next_actor + 1}: seat {actor} cannot act (no play and the "
                                     "draw pile is empty)")
                self.next_actor += 1
            else:
                next_u64(self.event_rng)  # the waiting time (the kernel draws it too)
                target = uniform(self.event_rng) * total
                actor, cum = 0, 0.0
                for s in range(self.players):
                    if rates[s] > 0.0:
                        cum += rates[s]
                        actor = s
                        if target < cum:
                            break
            if rules.has_play(g, actor):
                self.current = actor
                return
            g[rules.ACTIONS] += 1
            rules.draw_card(g, actor, self.deck_rng, self.decks is not None)
            self.history.append((actor, "draw"))

    # --- OpenSpiel's state API ---------------------------------------------------------------

    @property
    def players(self) -> int:
        return int(self.g[rules.PLAYERS])

    @property
    def is_terminal(self) -> bool:
        return self.over

    @property
    def decision(self) -> str:
        return "play"

    @property
    def current_player(self) -> int:
        """The seat to decide (-1 once the game is over)."""
        return -1 if self.over else self.current

    @property
    def action(self) -> int:
        """Actions (plays and draws) so far in the game (the trace's ``turns``)."""
        return int(self.g[rules.ACTIONS])

    def legal_moves(self) -> list[str]:
        if self.over:
            return []
        return [move_text(m) for m in _legal_ids(self.g, self.current)]

    def apply(self, move: str) -> None:
        """The current seat's play (as ``legal_moves`` writes it); ``InputError`` if illegal.
        Then the chance events up to the next decision."""
        if self.over:
            raise InputError("the game is over: no move to apply")
        seat = self.current
        m = parse_move(move)[0]
        legal = _legal_ids(self.g, seat)
        if m not in legal:
            raise InputError(f"{move!r} is not legal for seat {seat} (legal: "
                             f"{', '.join(move_text(x) for x in legal)})")
        g = self.g
        g[rules.ACTIONS] += 1
        rules.play_move(g, seat, m)
        self.history.append((seat, move_text(m)))
        if rules.hand_size(g, seat) == 0:  # Wig Out!
            rules.end_round(g, seat, 0.0, None)
            if not self._next_deal():
                return
        self._advance()

    def table(self) -> list[int]:
        """The cards on the table, by character (``view.observe``'s reckoning: every copy not in
        a hand or the draw pile)."""
        g = self.g
        chars, copies = int(g[rules.CHARS]), int(g[rules.COPIES])
        counts = [copies] * chars
        for s in range(self.players):
            for c in range(chars):
                counts[c] -= int(rules.held(g, s, c))
        for k in range(int(g[rules.DRAWN]), int(g[rules.DECK_N])):
            counts[int(g[rules.DECK + k])] -= 1
        return [c for c in range(chars) for _ in range(counts[c])]

    def hand(self, seat: int) -> list[int]:
        g = self.g
        return [c for c in range(int(g[rules.CHARS])) for _ in range(int(rules.held(g, seat, c)))]

    def observe(self, seat: int | None = None) -> Position:
        """What ``seat`` (default: the seat to decide) knows now, as a position (it must hold a
        play: a position is a decision)."""
        if self.over:
            raise InputError("the game is over: no decision to observe")
        seat = self.current if seat is None else seat
        if not 0 <= seat < self.players:
            raise InputError(f"seat must be 0..{self.players - 1}")
        g = self.g
        data = {
            "game": GAME, "players": self.players, "seat": seat, "decision": "play", "rules": dict(self.params),
            "round": int(g[rules.ROUND]),
            "points": [int(g[rules.POINTS + s]) for s in range(self.players)],
            "hand": self.hand(seat), "table": self.table(),
            "hand_sizes": [int(g[rules.HAND_N + s]) for s in range(self.players)],
            "draw_pile": int(g[rules.DECK_N] - g[rules.DRAWN]),
        }
        return Position(data)

    def clone(self) -> State:
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        other.g = self.g.copy()
        other.fw = self.fw.copy()
        other.event_rng = self.event_rng.copy()
        other.deck_rng = self.deck_rng.copy()
        other.history = list(self.history)
        return other

    @property
    def result(self) -> list[float] | None:
        """Every seat's win share once the game is over (None before)."""
        if not self.over:
            return None
        shares = np.zeros(self.players, np.int64)
        playon.shares_of(self.g, shares)
        return (shares / WIN_UNIT).tolist()

    @property
    def scores(self) -> list[int]:
        """Every seat's points so far (the final points once the game is over; lower wins)."""
        return [int(self.g[rules.POINTS + s]) for s in range(self.players)]

    def __repr__(self) -> str:
        if self.over:
            return f"<wigout state: over, win shares {self.result}, points {self.scores}>"
        return f"<wigout state: seat {self.current} to play; {self.observe().to_string()}>"


def state(position: Any = None, seed: int = 0, deck: Sequence[Sequence[int]] | None = None,
          players: int | None = None, params: dict[str, Any] | None = None) -> State:
    """``mc.state``'s Wig Out! half: from a position (its unseen cards dealt from ``seed``) or
    explicit round decks (``deck``: one per deal, top first; the actors and later draws from
    ``seed``)."""
    if deck is not None:
        return State.from_deal(deck, players or SPEC.default_players, params, seed=seed)
    if position is None:
        raise InputError("give a position, or the round decks to deal")
    return State.from_position(position, seed)


# --- traces and records --------------------------------------------------------------------------


def _script(events: Any, players: int, params: dict[str, Any] | None) -> tuple[list, list[str]]:
    """A trace's round decks and its actions (``seat:start-7``, ``seat:add-3``, ``seat:draw``)."""
    from montecards.games.wigout.game import script_from_trace

    script = script_from_trace(events, players, "greedy", params)
    frame = events[events["event"].isin(["start", "add", "draw"])]
    actions = [f"{int(s)}:draw" if e == "draw" else f"{int(s)}:{e}-{int(c)}"
               for s, e, c in zip(frame["seat"], frame["event"], frame["character"], strict=True)]
    return script["round_decks"], actions


def record_of_trace(events: Any, players: int, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """A review record from a trace: every deal's deck and every action."""
    decks, actions = _script(events, players, params)
    return {"game": GAME, "players": players, "rules": _plain_rules(players, params), "decks": decks,
            "actions": actions}


def _plain_rules(players: int, params: dict[str, Any] | None) -> dict[str, Any]:
    resolved = SPEC.resolve_params(players, params)
    defaults = SPEC.resolve_params(players, {})
    return {k: (list(v) if k == "speed" else v) for k, v in resolved.items() if v != defaults[k]}


def _action(text: Any, i: int) -> tuple[int, str]:
    seat, sep, move = str(text).partition(":")
    if not sep or not seat.strip().isdigit():
        raise InputError(f"record: action {i + 1} must be 'seat:start-C', 'seat:add-C' or 'seat:draw', "
                         f"got {text!r}")
    move = move.strip()
    if move != "draw":
        try:
            move = move_text(parse_move(move)[0])
        except InputError as exc:
            raise InputError(f"record: action {i + 1}: {exc}") from None
    return int(seat), move


def decisions_of_record(record: dict[str, Any]) -> list[tuple[int, int, Position | None, str, State | None]]:
    """``(action, seat, position, played, true_state)`` for every play of a record (docs/positions.md).

    A record is ``{"game": "wigout", "players": P, "rules": {...}, "decks": [one deck per deal,
    top first], "actions": ["seat:start-C" | "seat:add-C" | "seat:draw", ...]}``: every action of
    the game in order. A draw must be forced (the seat had no play); the game must be over after
    the last action.

    A record of what **one seat** knew has ``"seat"`` and ``"deals"`` instead of ``"decks"``
    (``seat_decisions``): only that seat's plays have positions, and there is no true state."""
    if not isinstance(record, dict):
        raise InputError("record: expected a JSON object")
    if record.get("game", GAME) != GAME:
        raise InputError(f"record: game must be {GAME!r}")
    actions = record.get("actions")
    if not isinstance(actions, list) or not actions:
        raise InputError("record: 'actions' must list every action of the game ('seat:start-C', ...)")
    players = as_int(record.get("players", SPEC.default_players), "players")
    if "deals" in record and "decks" not in record:
        return seat_decisions(record, players)
    if "decks" not in record:
        raise InputError("record: give 'decks' (every deal's deck, top first), or 'seat' and 'deals' (what "
                         "one seat knew)")
    parsed = [_action(a, i) for i, a in enumerate(actions)]
    for seat, _ in parsed:
        if not 0 <= seat < SPEC.check_players(players):
            raise InputError(f"record: seat {seat} is not a seat 0..{players - 1}")
    try:
        st = State.from_deal(record["decks"], players, record.get("rules"), actors=[s for s, _ in parsed])
    except InputError as exc:
        raise InputError(f"record: {exc}") from None
    out = []
    for i, (seat, move) in enumerate(parsed):
        if move == "draw":
            continue
        if st.is_terminal or len(st.history) != i or st.history != parsed[:i] or st.current_player != seat:
            raise InputError(_mismatch(st, parsed))
        turn, pos, snapshot = st.action, st.observe(seat), st.clone()
        try:
            st.apply(move)
        except InputError as exc:
            raise InputError(f"record: action {i + 1}: {exc}") from None
        out.append((turn, seat, pos, move, snapshot))
    if st.history != parsed:
        raise InputError(_mismatch(st, parsed))
    if not st.is_terminal:
        raise InputError(f"record: the game is not over after {len(actions)} actions")
    return out


def _mismatch(st: State, parsed: list[tuple[int, str]]) -> str:
    """The first action of a record the rules do not allow where it stands, as one line."""
    done = st.history
    for j, (seat, move) in enumerate(parsed):
        if j < len(done) and done[j] == (seat, move):
            continue
        if j < len(done):  # the replay drew for a seat without a play
            return (f"record: action {j + 1} ({seat}:{move}): seat {done[j][0]} had no play there, so its "
                    "action is a forced draw")
        if st.is_terminal:
            return f"record: action {j + 1} ({seat}:{move}) comes after the end of the game"
        if move == "draw":
            return (f"record: action {j + 1} ({seat}:draw): seat {seat} had a play, and a seat with a play "
                    "never draws")
        return f"record: action {j + 1} ({seat}:{move}): not seat {seat}'s play to make there"
    return "record: the actions do not replay"


def seat_record_of_trace(events: Any, players: int, params: dict[str, Any] | None = None,
                         seat: int = 0) -> dict[str, Any]:
    """What ``seat`` knew of a traced game, as a one-seat record (``seat_decisions``): per deal
    its dealt hand, the two starters and the cards it drew; every action, another seat's start
    with its count (``1:start-5x3``), a deadlock as ``deadlock``."""
    hand_size = SPEC.resolve_params(players, params)["hand_size"]
    deals: list[dict[str, list[int]]] = []
    actions: list[str] = []
    for row in events.itertuples():
        if row.event == "deal":
            deck = [int(c) for c in row.detail.split("deck: ", 1)[1].split()]
            deals.append({"hand": deck[seat * hand_size : (seat + 1) * hand_size],
                          "starters": deck[players * hand_size : players * hand_size + 2], "draws": []})
        elif row.event == "draw":
            actions.append(f"{row.seat}:draw")
            if row.seat == seat:
                deals[-1]["draws"].append(int(row.character))
        elif row.event == "deadlock":
            actions.append("deadlock")
        elif row.event in ("start", "add"):
            count = f"x{int(row.cards)}" if row.event == "start" and row.seat != seat else ""
            actions.append(f"{row.seat}:{row.event}-{int(row.character)}{count}")
    return {"game": GAME, "players": players, "rules": _plain_rules(players, params), "seat": seat,
            "deals": deals, "actions": actions}


def seat_decisions(record: dict[str, Any], players: int) -> list[tuple[int, int, Position | None, str, None]]:
    """The reviewed seat's decisions from what it knew (docs/positions.md): ``"seat"``, ``"deals"``
    (per deal: its dealt ``"hand"``, the two ``"starters"``, the cards it ``"draws"``, in order)
    and ``"actions"``, every action of the game in order, another seat's start with its count
    (``1:start-5x3``: the cards it laid down) and a deadlock as ``deadlock``. The public count of
    everything (the table, the hand sizes, the draw pile, the points) is kept as the actions say;
    the seat's own plays and draws are checked against the rules, the other seats' as far as the
    seat can tell (a start of at least 2, an add to a pile that shows, no more cards than held)."""
    players = SPEC.check_players(players)
    rules_ = SPEC.resolve_params(players, record.get("rules"))
    pack_params(players, rules_)
    chars, copies, hand_size = rules_["characters"], rules_["copies"], rules_["hand_size"]
    seat = as_int(record.get("seat"), "seat")
    if not 0 <= seat < players:
        raise InputError(f"record: seat must be 0..{players - 1}, got {seat}")
    deals = record["deals"]
    if not isinstance(deals, list) or not deals or not all(isinstance(d, dict) for d in deals):
        raise InputError("record: 'deals' must list, per deal, {\"hand\": ..., \"starters\": ..., \"draws\": ...}")
    deck = chars * copies
    game = {"deal": -1, "round": 0, "points": [0] * players, "over": False}
    hand: list[int] = []
    table: list[int] = []
    sizes: list[int] = []
    draws: list[int] = []
    pile = 0

    def start_deal() -> None:
        nonlocal hand, table, sizes, draws, pile
        if draws:
            raise InputError(f"record: deal {game['deal']}: {len(draws)} draws left over (the seat drew fewer)")
        game["deal"] += 1
        if game["round"] >= rules_["rounds"]:
            game["over"] = True
            return
        d = game["deal"]
        if d >= len(deals):
            raise InputError(f"record: deal {d} is missing from 'deals'")
        hand = _cards(deals[d].get("hand", []), f"deal {d}: hand", chars)
        table = _cards(deals[d].get("starters", []), f"deal {d}: starters", chars)
        draws = list(reversed(_cards_in_order(deals[d].get("draws", []), f"deal {d}: draws", chars)))
        if len(hand) != hand_size or len(table) != 2:
            raise InputError(f"record: deal {d} needs the seat's {hand_size} dealt cards and the 2 starters")
        sizes = [hand_size] * players
        pile = deck - players * hand_size - 2
        _within_copies(hand, table, copies, f"deal {d}")

    def end_round(winner: int | None) -> None:
        if winner is not None:
            for s in range(players):
                if s != winner:
                    game["points"][s] += sizes[s]
        if winner is not None or rules_["deadlock_counts_as_round"]:
            game["round"] += 1
        start_deal()

    start_deal()
    out = []
    turn = 0
    for i, text in enumerate(actions_of(record["actions"])):
        where = f"record: action {i + 1} ({text})"
        if game["over"]:
            raise InputError(f"{where} comes after the end of the game")
        if text == "deadlock":
            if pile != 0:
                raise InputError(f"{where}: a deadlock needs an empty draw pile")
            end_round(None)
            continue
        s, move, count = _seat_action(text, where, players)
        turn += 1
        own_plays = Position.legal_ids_of(hand, table, chars) if s == seat else []
        if move == "draw":
            if pile == 0:
                raise InputError(f"{where}: the draw pile is empty")
            if s == seat:
                if own_plays:
                    raise InputError(f"{where}: seat {seat} had a play, and a seat with a play never draws")
                if not draws:
                    raise InputError(f"{where}: the card the seat drew is missing from 'draws' of deal "
                                     f"{game['deal']}")
                hand = sorted(hand + [draws.pop()])
                _within_copies(hand, table, copies, where)
            pile -= 1
            sizes[s] += 1
            continue
        m = parse_move(move)[0]
        c = m >> 1
        if s == seat:
            data = {"game": GAME, "players": players, "seat": seat, "rules": rules_, "round": game["round"],
                    "points": list(game["points"]), "hand": hand, "table": table, "hand_sizes": list(sizes),
                    "draw_pile": pile}
            try:
                pos = Position(data)
            except InputError as exc:
                raise InputError(f"{where}: {exc}") from None
            if m not in own_plays:
                raise InputError(f"{where}: not legal for seat {seat} (legal: {', '.join(pos.legal_moves())})")
            out.append((turn - 1, seat, pos, move, None))
            n = hand.count(c) if not m & rules.ADD else 1
            for _ in range(n):
                hand.remove(c)
        else:
            n = 1 if m & rules.ADD else count
            if m & rules.ADD and c not in table:
                raise InputError(f"{where}: no pile of {c} shows on the table")
            if not m & rules.ADD and (n is None or n < 2):
                raise InputError(f"{where}: another seat's start gives the cards it laid down, e.g. "
                                 f"{s}:start-{c}x2 (at least 2)")
            if n > sizes[s]:
                raise InputError(f"{where}: seat {s} holds only {sizes[s]} cards")
        table = sorted(table + [c] * n)
        sizes[s] -= n
        _within_copies(hand, table, copies, where)
        if sizes[s] == 0:
            end_round(s)
    if not game["over"]:
        raise InputError(f"record: the game is not over after {len(record['actions'])} actions")
    if game["deal"] < len(deals):
        raise InputError(f"record: 'deals' lists {len(deals)} deals, the game used {game['deal']}")
    return out


def actions_of(actions: Any) -> list[str]:
    if not isinstance(actions, list) or not actions:
        raise InputError("record: 'actions' must list every action of the game ('seat:start-C', ...)")
    return [str(a).strip() for a in actions]


def _seat_action(text: str, where: str, players: int) -> tuple[int, str, int | None]:
    """``seat:start-C[xN]``, ``seat:add-C`` or ``seat:draw`` -> (seat, move text, N or None)."""
    seat, sep, move = text.partition(":")
    if not sep or not seat.strip().isdigit() or not 0 <= int(seat) < players:
        raise InputError(f"{where}: an action is 'seat:start-C', 'seat:add-C', 'seat:draw' or 'deadlock', "
                         f"seat 0..{players - 1}")
    move, _, count = move.strip().partition("x")
    if move == "draw":
        return int(seat), move, None
    try:
        move = move_text(parse_move(move)[0])
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    return int(seat), move, (as_int(count, "the count of a start") if count else None)


def _cards_in_order(value: Any, what: str, characters: int) -> list[int]:
    """Cards as written, in their order (``_cards`` sorts)."""
    if isinstance(value, str):
        value = [p for p in value.replace(" ", ",").split(",") if p]
    if not isinstance(value, list):
        raise InputError(f"position: {what} must be a list of characters")
    return [_cards([v], what, characters)[0] for v in value]


def _within_copies(hand: list[int], table: list[int], copies: int, where: str) -> None:
    for c in set(hand) | set(table):
        if hand.count(c) + table.count(c) > copies:
            raise InputError(f"{where}: card {c} would be shown {hand.count(c) + table.count(c)} times, only "
                             f"{copies} copies exist")


def positions_of_trace(events: Any, players: int, params: dict[str, Any] | None = None) -> list[Position]:
    """Every decision of a traced game (every play) as the acting seat's position."""
    return [pos for _, _, pos, _, _ in decisions_of_record(record_of_trace(events, players, params))]


def evaluate(template: State, seat: int, moves: Sequence[str], strategies: np.ndarray,
             params: np.ndarray, options: Any, seed: int, first: int, n: int, deal: bool) -> np.ndarray:
    """``(n, len(moves))`` win shares (floats) of the seat's plays on determinizations
    ``first .. first + n - 1`` (``playon.evaluate``); ``deal`` False: on the true hands."""
    move_ids = np.array([parse_move(m)[0] for m in moves], np.int64)
    pos = template.observe(seat)
    ids = np.array(pos.unseen(), np.int64) if deal else np.zeros(1, np.int64)
    out = np.zeros((n, len(moves)), np.int64)
    err = playon.evaluate(template.g, seat, move_ids, ids, len(ids) if deal else 0, np.uint64(seed), first, n,
                          strategies, params, options, deal, out)
    if err != 0:
        raise InputError(f"a play-out strategy could not play on from this position (error {err})")
    return out / WIN_UNIT


def value_moves(template: State, seat: int, moves: Sequence[str], value: np.ndarray, strategies: np.ndarray,
                params: np.ndarray, seed: int, first: int, n: int) -> np.ndarray:
    """``(n, len(moves))``: V of the seat after each play (floats in [0, 1]) on determinizations
    ``first .. first + n - 1``, the very deals of ``evaluate`` (``playon.value_moves``). The
    template's hidden cards are never read: they are dealt afresh from the seat's unseen set."""
    move_ids = np.array([parse_move(m)[0] for m in moves], np.int64)
    ids = np.array(template.observe(seat).unseen(), np.int64)
    out = np.zeros((n, len(moves)), np.float64)
    playon.value_moves(template.g, seat, move_ids, ids if len(ids) else np.zeros(1, np.int64), len(ids),
                       np.uint64(seed), first, n, np.asarray(value, np.float64), strategies, params, out)
    return out

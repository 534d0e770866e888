"""Naive, independent reference implementation ("oracle") of Anomia.

Written only from the normative rules page ``docs/rules/anomia.md``; slow and obvious
on purpose.  Plain Python, no numpy.  The fast kernel is checked against this
module game by game.

Cards
-----
* Category cards get ids ``0 .. N-1`` with ``N = sum(cards_per_symbol)``,
  assigned symbol by symbol in order.  With the default deck: ids 0-10 show
  symbol 0, 11-21 symbol 1, 22-32 symbol 2, 33-43 symbol 3, 44-55 symbol 4,
  56-67 symbol 5, 68-79 symbol 6, 80-91 symbol 7.
* Wild cards get ids ``N .. N+W-1`` in the order of ``wild_pairs``.  With the
  default deck: 92=(0,1) 93=(1,2) 94=(2,3) 95=(3,0) 96=(4,5) 97=(5,6)
  98=(6,7) 99=(7,4).
* ``remove_symbols`` (default ``[6, 7]`` for 3 players, none otherwise) takes
  out every card, category or wild, showing a removed symbol; the remaining
  cards keep their ids.  With the default deck and 3 players this leaves the
  68 category cards 0..67 and the 5 wilds 92..96 (the wilds (5,6), (6,7) and
  (7,4) all show 6 or 7).

Readings of the rules chosen here (all documented, all deliberate)
-----------------------------------------------------------------
1. Seat 0 draws first, then seats 1, 2, ... (clockwise = increasing seat number,
   modulo ``players``).  After a category card the next seat draws; after a wild
   the same seat draws again (once all face-offs are resolved).  If the draw
   pile is empty the game ends instead.
2. Only the top card of each play pile counts.  An empty play pile has no top
   card and matches nothing.  Wild cards never go on a play pile.
3. Match between seats i and j (i != j, both with a top card): their top cards
   show the same symbol, or the active wild is (x, y) and one top shows x and
   the other shows y.  A pair showing the same symbol is a *symbol* match even
   if that symbol is on the active wild.
4. After every change of the table (a draw, a new active wild, a face-off) all
   pairs of seats are examined; if more than one pair matches an
   ``AssertionError`` is raised (the rules say this cannot happen).  Since at
   most one pair matches, "which face-off is resolved" is simply *the* matching
   pair -- whether the drawing player's new card matched someone, the new wild
   made two old tops match, or a loser's newly revealed card matches.  Face-offs
   are resolved one after the other until no pair matches.
5. A face-off is described by its two seats ``(a, b)`` with ``a < b``; ``a`` is
   "the lower-numbered one" of the rules' random model.  The winner takes the
   loser's top card into the winner's winnings (face down, normal mode) or onto
   the top of the winner's play pile (``winnings_face_up``).  The winner's own
   card stays where it is (covered in face-up mode).
6. Chains: the face-offs between one draw and the next draw (a wild draw is a
   draw; the face-offs after the last draw form the last chain).
   ``cascades`` = number of chains of length >= 2.
   ``longest_cascade`` = length of the longest chain, 0 if the game had no
   face-off at all.  (So a game whose chains are all of length 1 has
   ``longest_cascade == 1`` and ``cascades == 0``.)
7. ``wild_face_offs`` counts face-offs whose two top cards show two *different*
   symbols (so they matched through the active wild).  A tied face-off counts
   once in ``face_offs`` and, if applicable, once in ``wild_face_offs``.
8. Ties (rulebook tiebreak): the tiebreak card is the first *category* card from
   the top of the draw pile (wilds above it stay).  It is taken out; the
   tiebreak winner takes the loser's top card exactly as in a normal face-off;
   the tiebreak card goes back into the draw pile at ``insert_position`` in
   ``0..n`` (0 = top, n = pile size after taking it out).  If the draw pile
   holds no category card the tie is decided "without a card" and
   ``insert_position`` is ``None``.  A tiebreak is not a draw, adds no
   face-off, and does not split a chain.
9. Scores: normal mode, the number of cards in a seat's winnings.  With
   ``winnings_face_up`` the number of cards on the seat's play pile that it did
   not draw itself (a card a seat drew, lost and won back does not score for
   it).  The highest score wins; ``k`` seats tied for the highest score get
   ``1/k`` each (also when everyone has 0).

Random model (``play_random``)
------------------------------
The deck order is given explicitly (the stream's deck permutation is the
caller's business).  For each face-off between seats ``a < b``, in order:

* if ``tie_prob > 0``: one uniform ``u_tie``; the face-off ties iff
  ``u_tie < tie_prob``.  (When ``tie_prob == 0`` no such number is consumed.)
* one uniform ``u``; seat ``a`` wins (the face-off, or the tiebreak when tied)
  iff ``u < p_a`` with ``p_a = exp(theta_a) / (exp(theta_a) + exp(theta_b))``.
* only when tied *and* the draw pile holds a category card: one uniform ``v``;
  ``insert_position = floor(v * (n + 1))`` (clamped to ``n``).
"""

import math
import operator

DEFAULT_CARDS_PER_SYMBOL = (11, 11, 11, 11, 12, 12, 12, 12)
DEFAULT_WILD_PAIRS = ((0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4))
MIN_PLAYERS = 3
MAX_PLAYERS = 6


# ----------------------------------------------------------------------------
# Deck
# ----------------------------------------------------------------------------

def _as_int(x, what):
    try:
        return int(operator.index(x))
    except TypeError:
        raise ValueError(f"{what} must be an integer, got {x!r}") from None


def _composition(cards_per_symbol=None, wild_pairs=None):
    """Return (cards_per_symbol tuple, wild_pairs tuple of 2-tuples), validated."""
    if cards_per_symbol is None:
        cards_per_symbol = DEFAULT_CARDS_PER_SYMBOL
    cps = tuple(_as_int(c, "cards_per_symbol entry") for c in cards_per_symbol)
    if len(cps) == 0:
        raise ValueError("cards_per_symbol must not be empty")
    if any(c < 0 for c in cps):
        raise ValueError(f"cards_per_symbol entries must be >= 0, got {cps}")
    if wild_pairs is None:
        wild_pairs = DEFAULT_WILD_PAIRS
    pairs = []
    for p in wild_pairs:
        p = tuple(p)
        if len(p) != 2:
            raise ValueError(f"a wild pair must have two symbols, got {p!r}")
        x, y = (_as_int(s, "wild symbol") for s in p)
        for s in (x, y):
            if not 0 <= s < len(cps):
                raise ValueError(f"wild symbol {s} out of range 0..{len(cps) - 1}")
        pairs.append((x, y))
    return cps, tuple(pairs)


def num_category_cards(cards_per_symbol=None):
    cps, _ = _composition(cards_per_symbol, ())
    return sum(cps)


def is_wild(card, cards_per_symbol=None, wild_pairs=None):
    cps, pairs = _composition(cards_per_symbol, wild_pairs)
    n = sum(cps)
    card = _as_int(card, "card")
    if not 0 <= card < n + len(pairs):
        raise ValueError(f"card id {card} out of range 0..{n + len(pairs) - 1}")
    return card >= n


def card_symbols(card, cards_per_symbol=None, wild_pairs=None):
    """Symbols shown by ``card``: a 1-tuple for a category card, the wild's pair
    (x, y) for a wild card."""
    cps, pairs = _composition(cards_per_symbol, wild_pairs)
    card = _as_int(card, "card")
    if card < 0:
        raise ValueError(f"card id {card} is negative")
    first = 0
    for symbol, count in enumerate(cps):
        if card < first + count:
            return (symbol,)
        first += count
    k = card - first
    if k < len(pairs):
        return pairs[k]
    raise ValueError(f"card id {card} out of range 0..{first + len(pairs) - 1}")


def default_remove_symbols(players):
    return [6, 7] if players == 3 else []


def build_deck(players, cards_per_symbol=None, wild_pairs=None, remove_symbols=None):
    """Card ids in play (ascending) for ``players`` seats."""
    players = _as_int(players, "players")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be in {MIN_PLAYERS}..{MAX_PLAYERS}, got {players}")
    cps, pairs = _composition(cards_per_symbol, wild_pairs)
    if remove_symbols is None:
        remove_symbols = default_remove_symbols(players)
    removed = set()
    for s in remove_symbols:
        s = _as_int(s, "remove_symbols entry")
        if not 0 <= s < len(cps):
            raise ValueError(f"remove_symbols entry {s} out of range 0..{len(cps) - 1}")
        removed.add(s)
    total = sum(cps) + len(pairs)
    deck = []
    for card in range(total):
        shown = card_symbols(card, cps, pairs)
        if not any(s in removed for s in shown):
            deck.append(card)
    return deck


# ----------------------------------------------------------------------------
# Matching
# ----------------------------------------------------------------------------

def cards_match(symbol_i, symbol_j, active_wild):
    """Do two top cards showing these symbols match?"""
    if symbol_i == symbol_j:
        return True
    if active_wild is None:
        return False
    x, y = active_wild
    return (symbol_i == x and symbol_j == y) or (symbol_i == y and symbol_j == x)


def find_match(top_symbols, active_wild):
    """``top_symbols[seat]`` is the symbol of the seat's top card or None.

    Returns the matching pair ``(a, b)`` with ``a < b``, or None.  Raises
    AssertionError if more than one pair matches (the rules say at most one can).
    """
    found = []
    seats = len(top_symbols)
    for a in range(seats):
        for b in range(a + 1, seats):
            sa, sb = top_symbols[a], top_symbols[b]
            if sa is None or sb is None:
                continue
            if cards_match(sa, sb, active_wild):
                found.append((a, b))
    if len(found) > 1:
        raise AssertionError(f"two matches exist at once: {found} "
                             f"(tops {list(top_symbols)}, wild {active_wild})")
    return found[0] if found else None


# ----------------------------------------------------------------------------
# The game
# ----------------------------------------------------------------------------

def _check_deck(deck, players, cps, pairs, remove_symbols):
    expected = build_deck(players, cps, pairs, remove_symbols)
    order = [_as_int(c, "deck card") for c in deck]
    if sorted(order) != expected:
        raise ValueError("deck must be an ordering of exactly the cards in play "
                         f"({len(expected)} cards: {expected}); got {order}")
    return order


def _play(deck, players, decide, cards_per_symbol, wild_pairs, remove_symbols,
          winnings_face_up):
    """Core loop.  ``decide(index, a, b, n)`` is called for face-off number
    ``index`` between seats ``a < b``; ``n`` is the draw pile size after taking
    out the tiebreak card, or None if the draw pile holds no category card.  It
    returns ``(winner, tiebreak)`` with tiebreak None or
    ``(tiebreak_winner, insert_position)``."""
    players = _as_int(players, "players")
    cps, pairs = _composition(cards_per_symbol, wild_pairs)
    draw_pile = _check_deck(deck, players, cps, pairs, remove_symbols)
    n_category = sum(cps)

    def symbol_of(card):
        return card_symbols(card, cps, pairs)[0]

    play_piles = [[] for _ in range(players)]
    winnings_cards = [[] for _ in range(players)]
    drawn_by = {}
    active_wild = None          # the pair of symbols, or None
    active_wild_card = None
    wilds_drawn = []
    events = []
    chains = []                 # face-offs after each draw
    face_off_winners = []
    tiebreaks = []
    wild_face_offs = 0
    draws = 0

    def tops():
        return [symbol_of(p[-1]) if p else None for p in play_piles]

    def resolve():
        """Resolve face-offs until no match exists; return how many."""
        nonlocal wild_face_offs
        count = 0
        while True:
            pair = find_match(tops(), active_wild)
            if pair is None:
                return count
            a, b = pair
            sym_a, sym_b = symbol_of(play_piles[a][-1]), symbol_of(play_piles[b][-1])
            if sym_a != sym_b:
                wild_face_offs += 1
            index = len(face_off_winners)
            # Where would a tiebreak card come from?
            tb_index = None
            for i, card in enumerate(draw_pile):
                if card < n_category:
                    tb_index = i
                    break
            n = None if tb_index is None else len(draw_pile) - 1
            winner, tiebreak = decide(index, a, b, n)
            winner = _as_int(winner, "face-off winner")
            if winner not in (a, b):
                raise ValueError(f"face-off {index} is between seats {a} and {b}; "
                                 f"seat {winner} cannot win it")
            loser = b if winner == a else a
            if tiebreak is not None:
                tb = tuple(tiebreak)
                if len(tb) != 2:
                    raise ValueError(f"tiebreak {index} must be (winner, insert_position), "
                                     f"got {tiebreak!r}")
                tb_winner = _as_int(tb[0], "tiebreak winner")
                if tb_winner != winner:
                    raise ValueError(f"face-off {index}: tiebreak winner {tb_winner} differs "
                                     f"from face_off_winners entry {winner}")
                pos = tb[1]
                if n is None:
                    if pos is not None:
                        raise ValueError(f"face-off {index}: no category card in the draw "
                                         "pile, the tie is decided without a card; "
                                         "insert_position must be None")
                    events.append(("tiebreak", winner, loser, None, None))
                else:
                    if pos is None:
                        raise ValueError(f"face-off {index}: the draw pile holds a category "
                                         f"card; insert_position must be in 0..{n}")
                    pos = _as_int(pos, "insert_position")
                    if not 0 <= pos <= n:
                        raise ValueError(f"face-off {index}: insert_position {pos} not in "
                                         f"0..{n}")
                    tb_card = draw_pile.pop(tb_index)
                    draw_pile.insert(pos, tb_card)
                    events.append(("tiebreak", winner, loser, tb_card, pos))
                tiebreaks.append((winner, pos))
            else:
                tiebreaks.append(None)
            taken = play_piles[loser].pop()
            if winnings_face_up:
                play_piles[winner].append(taken)
            else:
                winnings_cards[winner].append(taken)
            face_off_winners.append(winner)
            events.append(("face_off", winner, loser, taken))
            count += 1

    seat = 0
    while draw_pile:
        card = draw_pile.pop(0)
        draws += 1
        if card >= n_category:
            active_wild = card_symbols(card, cps, pairs)
            active_wild_card = card
            wilds_drawn.append(card)
            events.append(("wild", seat, card))
            chains.append(resolve())
            # the same seat draws again
        else:
            play_piles[seat].append(card)
            drawn_by[card] = seat
            events.append(("draw", seat, card))
            chains.append(resolve())
            seat = (seat + 1) % players
    # The draw pile is empty and every face-off has been resolved (resolve()
    # ran after the last draw): the game ends.
    if find_match(tops(), active_wild) is not None:  # pragma: no cover - sanity
        raise AssertionError("game ended with an unresolved match")

    if winnings_face_up:
        scores = [sum(1 for c in play_piles[s] if drawn_by[c] != s) for s in range(players)]
    else:
        scores = [len(w) for w in winnings_cards]
    best = max(scores)
    winners = [s for s in range(players) if scores[s] == best]
    win_share = [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]

    return {
        "winnings": scores,
        "win_share": win_share,
        "draws": draws,
        "turns": draws,
        "face_offs": len(face_off_winners),
        "cascades": sum(1 for c in chains if c >= 2),
        "longest_cascade": max(chains) if chains else 0,
        "wild_face_offs": wild_face_offs,
        "play_piles": [list(p) for p in play_piles],
        "winnings_cards": [list(w) for w in winnings_cards],
        "chains": chains,
        "wilds_drawn": wilds_drawn,
        "active_wild": active_wild_card,
        "face_off_winners": face_off_winners,
        "tiebreaks": tiebreaks,
        "events": events,
    }


def replay(deck, players, face_off_winners, *, cards_per_symbol=None, wild_pairs=None,
           remove_symbols=None, winnings_face_up=False, tiebreaks=None):
    """Play one game from an explicit deck order and explicit face-off winners.

    ``deck``: the card ids in play, index 0 = top of the draw pile.
    ``face_off_winners``: the seat winning each face-off, in order.
    ``tiebreaks``: None, or one entry per face-off: None (no tie) or
    ``(tiebreak_winner, insert_position)`` (see module docstring, reading 8).

    Raises ValueError for a bad deck, a face_off_winners list that is too short
    or too long, a seat not in that face-off, or an inconsistent tiebreak entry.
    Raises AssertionError if two matches ever exist at once.
    """
    winners = list(face_off_winners)
    if tiebreaks is not None:
        tiebreaks = list(tiebreaks)
        if len(tiebreaks) != len(winners):
            raise ValueError(f"tiebreaks has {len(tiebreaks)} entries, face_off_winners "
                             f"has {len(winners)}; need one per face-off")

    def decide(index, a, b, n):
        if index >= len(winners):
            raise ValueError(f"face_off_winners too short: face-off {index} (seats {a} "
                             f"and {b}) has no winner; only {len(winners)} given")
        tb = tiebreaks[index] if tiebreaks is not None else None
        return winners[index], tb

    out = _play(deck, players, decide, cards_per_symbol, wild_pairs, remove_symbols,
                winnings_face_up)
    if out["face_offs"] != len(winners):
        raise ValueError(f"face_off_winners too long: the game has {out['face_offs']} "
                         f"face-offs, {len(winners)} winners given")
    return out


def play_random(deck, players, rng_uniforms, theta=None, tie_prob=0.0, *,
                cards_per_symbol=None, wild_pairs=None, remove_symbols=None,
                winnings_face_up=False):
    """Play one game from an explicit deck order; face-offs consume uniforms
    in [0, 1) from ``rng_uniforms`` as described in the module docstring.

    Returns the ``replay`` dict (with ``face_off_winners`` and ``tiebreaks`` that
    reproduce the game through ``replay``) plus ``uniforms_used``.
    """
    players = _as_int(players, "players")
    if theta is None:
        theta = [0.0] * players
    theta = [float(t) for t in theta]
    if len(theta) != players:
        raise ValueError(f"theta needs {players} values, got {len(theta)}")
    tie_prob = float(tie_prob)
    if not 0.0 <= tie_prob <= 1.0:
        raise ValueError(f"tie_prob must be in [0, 1], got {tie_prob}")
    stream = iter(rng_uniforms)
    used = [0]

    def uniform():
        try:
            u = next(stream)
        except StopIteration:
            raise ValueError(f"rng_uniforms exhausted after {used[0]} numbers") from None
        used[0] += 1
        return float(u)

    def decide(index, a, b, n):
        tie = False
        if tie_prob > 0.0:
            tie = uniform() < tie_prob
        ea, eb = math.exp(theta[a]), math.exp(theta[b])
        p_a = ea / (ea + eb)
        winner = a if uniform() < p_a else b
        if not tie:
            return winner, None
        if n is None:
            return winner, (winner, None)
        pos = min(int(math.floor(uniform() * (n + 1))), n)
        return winner, (winner, pos)

    out = _play(deck, players, decide, cards_per_symbol, wild_pairs, remove_symbols,
                winnings_face_up)
    out["uniforms_used"] = used[0]
    return out


# ----------------------------------------------------------------------------
# The oracle interface
# ----------------------------------------------------------------------------

# The parameters a scripted game uses (the deck and the rules), with this module's defaults
# (None = the rules page's default deck / removal for the player count).
SCRIPT_PARAMS = ("cards_per_symbol", "wild_pairs", "remove_symbols", "winnings_face_up")
# The skill model's parameters: they decide who wins a face-off, which a script gives.
MODEL_PARAMS = ("theta", "tie_prob")


def play_script(deck, players, face_off_winners, params=None, tiebreaks=None, table=None):
    """The oracle interface every naive reference offers: one game from the keyword arguments
    of the library's scripted game (``play_scripted``), returning at least ``scores`` and
    ``win_share`` in the library's meaning.

    Anomia's script is already in this module's terms: ``deck`` (card ids, top first),
    ``face_off_winners``, ``tiebreaks`` (as :func:`replay`) and ``params`` (a dict: the deck
    and rule parameters of ``SCRIPT_PARAMS``; ``theta`` and ``tie_prob`` play no part in a
    scripted game). ``table`` (a game started from play piles already on the table) is not a
    position this oracle plays: only None is accepted. Returns :func:`replay`'s dict plus
    ``scores`` (= ``winnings``) and ``ties`` (the face-offs decided by a tiebreak), without
    its ``events`` (a log in this module's own form).
    """
    if table is not None:
        raise ValueError("the naive oracle plays a game from its start only: table must be None")
    params = dict(params or {})
    unknown = sorted(set(params) - set(SCRIPT_PARAMS) - set(MODEL_PARAMS))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown}; allowed: {sorted(SCRIPT_PARAMS + MODEL_PARAMS)}")
    rules = {key: params[key] for key in SCRIPT_PARAMS if key in params}
    out = replay(list(deck), players, list(face_off_winners), tiebreaks=tiebreaks, **rules)
    out = {key: value for key, value in out.items() if key != "events"}
    out["scores"] = list(out["winnings"])
    out["ties"] = sum(t is not None for t in out["tiebreaks"])
    return out

"""Anomia's rules as jitted functions over one flat int64 game state ``g`` (docs/rules/anomia.md).

Readings of the rules page (the open points, decided once, here; the naive reference in
``tests/naive/anomia.py`` reads them the same way):

* Seats draw 0, 1, 2, ... (clockwise); after a wild the same seat draws again once all
  face-offs are resolved; the game ends when the draw pile is empty and all face-offs are
  resolved.
* Only top cards count; an empty play pile matches nothing; a wild never goes on a play pile.
* Two tops match when they show the same symbol or the two symbols of the active wild. A
  face-off is *wild* (``wild_face_offs``) when the two tops show different symbols; two equal
  symbols are a symbol match even when the symbol is on the active wild.
* A chain is the face-offs between one draw and the next (a wild draw is a draw; the
  face-offs after the last draw are the last chain). ``cascades`` counts chains of 2 or more,
  ``longest_cascade`` is the longest chain (1 if every chain is a single face-off, 0 if the
  game had none).
* A tie (``tie_prob``) is one face-off (counted in ``face_offs`` and in ``ties``), not a
  draw, and does not end a chain; a tiebreak cannot tie again. The tiebreak winner takes the
  loser's top card exactly as in a face-off; the tiebreak card (the first *category* card from
  the top of the draw pile, wilds above it stay) goes back at a uniform position among the
  ``n + 1`` of the draw pile without it; with no category card in the draw pile the skill
  model decides alone and nothing moves.
* ``winnings_face_up``: the won card goes on top of the winner's play pile; a seat scores the
  cards on its play pile that it did not draw itself (a card won back by the seat that drew it
  does not score). Otherwise a seat scores its winnings.
* Scores: the most cards won wins; ties share (also when everyone has 0). ``won_k`` counts
  the face-offs seat k won (the score, unless face-up).
* A wild shows two different symbols (a ``(3, 3)`` wild would be a plain symbol card).

At most one match exists at any time: the only matches a change can create involve the seats
whose top changed (a draw, a face-off's loser, and its winner with face-up winnings) or, for a
new wild, the seats showing its two symbols; two seats matching the same new top would already
have matched each other. The kernel still counts every match a change creates and stops with
``ERR_TWO_MATCHES`` if there are two (a run marks the game unfinished; scripted play raises).
No valid deck can trigger it; the tests reach it through an impossible opening table.

State layout (``g``, one flat int64 array; read through the accessors below, which hold the
offset arithmetic and the unsigned casts, so numba skips its negative-index fix-up):

* header scalars ``H_*``: the game's set-up (players, cards in play, face-up variant, the
  offsets of the variable regions), this game's counters (draws, face-offs, ...), the active
  wild, the deck position of the next draw, the details of an error;
* per seat: ``TOP`` (the symbol its top card shows, or ``NO_CARD``), ``PILE_N`` (cards on its
  play pile), ``SCORE`` (cards won), ``WON`` (face-offs won);
* per symbol slot: ``PARTNER`` (the active wild's other symbol, or ``NO_WILD``) and ``SHOWING``
  (the bitset of the seats whose top shows it): a top showing ``x`` matches the seats in
  ``SHOWING[x] | SHOWING[PARTNER[x]]``;
* the ``LOWEST`` table (the lowest seat of a bitset) and the skill model's face-off
  ``THRESHOLD`` table (``strategies.py``);
* from ``CODES`` on, at offsets that depend on the deck: each card id's code (``cards.py``),
  the deck template (cards in play, ascending), the deck (top first; the first ``H_NEXT``
  cards are gone) and the play piles (``H_CAP`` entries per seat, bottom first; an entry packs
  the card, the symbol it shows and the seat that drew it: ``pile_entry``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from montecards.engine.jit import hot, hot_inline
from montecards.engine.trace import trace_slot
from montecards.games.anomia.cards import MAX_PLAYERS, N_SYMBOLS, WILD_BASE
from montecards.rng import bounded

# symbol slots: the 8 symbols, then two slots that never show a match
NO_WILD = N_SYMBOLS  # PARTNER of a symbol on no active wild; nobody ever shows it
NO_CARD = N_SYMBOLS + 1  # TOP of an empty play pile (its SHOWING bits are never read)
N_SLOTS = N_SYMBOLS + 2

# --- the flat int64 game state --------------------------------------------------------------
H_PLAYERS = 0
H_N = 1  # cards in play
H_IDS = 2  # card ids of the composition, removed ones included
H_FACE_UP = 3
H_FIRST_DRAW = 4  # deck position of the first draw (the opening table's cards were not drawn)
H_FACE_OFFS = 5
H_CASCADES = 6
H_LONGEST = 7
H_WILD_FACE_OFFS = 8
H_TIES = 9
H_WILD_X = 10  # the active wild's symbols, -1 before the first wild
H_WILD_Y = 11
H_ERR_INDEX = 12  # face-off index of an error
H_ERR_A = 13
H_ERR_B = 14
H_ERR_C = 15
H_NEXT = 16  # deck position of the next draw
H_GAME_FIRST = H_FIRST_DRAW  # H_GAME_FIRST .. H_GAME_END - 1 are reset every game
H_GAME_END = 17
H_TIE_THRESHOLD = 17  # the skill model's tie threshold (strategies.py)
H_SCRIPTED = 18  # 1: explicit deck order and face-off winners (play_script), 0: a run
H_DECK = 19  # offset of the deck
H_PILES = 20  # offset of the play piles
H_CAP = 21  # entries per play pile
TOP = 22
PILE_N = TOP + MAX_PLAYERS
SCORE = PILE_N + MAX_PLAYERS
WON = SCORE + MAX_PLAYERS
PARTNER = WON + MAX_PLAYERS
SHOWING = PARTNER + N_SLOTS
LOWEST = SHOWING + N_SLOTS  # LOWEST[m]: the lowest seat in the bitset m (m = 1..63)
THRESHOLD = LOWEST + (1 << MAX_PLAYERS)  # [a * MAX_PLAYERS + b]: a beats b iff u53 < this
CODES = THRESHOLD + MAX_PLAYERS * MAX_PLAYERS

# a play pile entry: card << ENTRY_CARD_SHIFT | symbol << SEAT_BITS | drawer
SEAT_BITS = 3
SEAT_MASK = 7
SYMBOL_MASK = 7
ENTRY_CARD_SHIFT = 6

# --- errors ----------------------------------------------------------------------------------
ERR_NONE = 0
ERR_TWO_MATCHES = 1
ERR_TOO_FEW_WINNERS = 2
ERR_BAD_WINNER = 3
ERR_TOO_MANY_WINNERS = 4
ERR_BAD_TIEBREAK = 5

# --- trace events: (kind, seat, card, other, extra) ------------------------------------------
EV_DECK = 0  # card at deck position `extra` (0 = top), before the first draw
EV_DRAW = 1  # seat draws card; extra = draw number (wild cards included)
EV_FACE_OFF = 2  # seat (winner) takes card from other (loser); extra = 1 if through the wild
EV_TIEBREAK = 3  # the face-off tied; seat won the tiebreak; card goes back at extra (-1: none)
EV_CASCADE = 4  # a chain of extra >= 2 face-offs after seat's draw ended
EV_MATCHES = 5  # two matches at once (seat/other and card/extra): the game stops
EV_TABLE = 6  # scripted opening table: card starts on seat's play pile
TRACE_WIDTH = 5


# --- accessors -------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def at(i):
    """A state index as unsigned: numba skips the negative-index fix-up (all are >= 0)."""
    return np.uint64(i)


@njit(cache=True, inline="always")
def players_of(g):
    return g[at(H_PLAYERS)]


@njit(cache=True, inline="always")
def cards_in_play(g):
    return g[at(H_N)]


@njit(cache=True, inline="always")
def face_up(g):
    """True for the ``winnings_face_up`` variant."""
    return g[at(H_FACE_UP)] != 0


@njit(cache=True, inline="always")
def scripted(g):
    """True for a scripted game (explicit deck order and face-off winners)."""
    return g[at(H_SCRIPTED)] != 0


@njit(cache=True, inline="always")
def set_scripted(g):
    """Mark the state as a scripted game (the deck region then holds the explicit order)."""
    g[at(H_SCRIPTED)] = 1


@njit(cache=True, inline="always")
def code_of(g, card):
    """What a card shows (``cards.py``): a symbol, or ``WILD_BASE + 8 * x + y`` for a wild."""
    return g[at(CODES + card)]


@njit(cache=True, inline="always")
def is_wild(code):
    return code >= WILD_BASE


@njit(cache=True, inline="always")
def wild_symbols(code):
    """The two symbols ``(x, y)`` a wild's code shows."""
    return (code - WILD_BASE) // N_SYMBOLS, (code - WILD_BASE) % N_SYMBOLS


@njit(cache=True, inline="always")
def deck_card(g, k):
    """The card at deck position ``k`` (0 = the top of the shuffled deck)."""
    return g[at(g[at(H_DECK)] + k)]


@njit(cache=True, inline="always")
def set_deck_card(g, k, card):
    g[at(g[at(H_DECK)] + k)] = card


@njit(cache=True, inline="always")
def next_position(g):
    """Deck position of the next draw: the cards above it are gone."""
    return g[at(H_NEXT)]


@njit(cache=True, inline="always")
def draws(g):
    """Cards drawn so far (wild cards included)."""
    return g[at(H_NEXT)] - g[at(H_FIRST_DRAW)]


@njit(cache=True, inline="always")
def draw_pile_empty(g):
    return g[at(H_NEXT)] == g[at(H_N)]


@njit(cache=True, inline="always")
def top(g, seat):
    """The symbol the seat's top card shows, or ``NO_CARD`` (an empty play pile)."""
    return g[at(TOP + seat)]


@njit(cache=True, inline="always")
def showing(g, slot):
    """The seats whose top shows symbol ``slot`` (a bitset; never anyone for ``NO_WILD``)."""
    return g[at(SHOWING + slot)]


@njit(cache=True, inline="always")
def partner(g, symbol):
    """The active wild's other symbol if it shows ``symbol``, else ``NO_WILD``."""
    return g[at(PARTNER + symbol)]


@njit(cache=True, inline="always")
def wild_active(g):
    """True once a wild has been drawn."""
    return g[at(H_WILD_X)] >= 0


@njit(cache=True, inline="always")
def active_wild(g):
    """The two symbols ``(x, y)`` of the active wild (only when ``wild_active``)."""
    return g[at(H_WILD_X)], g[at(H_WILD_Y)]


@njit(cache=True, inline="always")
def lowest_seat(g, seats):
    """The lowest seat of a non-empty bitset."""
    return g[at(LOWEST + seats)]


@njit(cache=True, inline="always")
def pile_size(g, seat):
    return g[at(PILE_N + seat)]


@njit(cache=True, inline="always")
def pile_slot(g, seat, k):
    """State index of entry ``k`` (0 = bottom) of the seat's play pile."""
    return at(g[at(H_PILES)] + seat * g[at(H_CAP)] + k)


@njit(cache=True, inline="always")
def score(g, seat):
    """Cards won (winnings; with face-up winnings, the won cards on the seat's play pile)."""
    return g[at(SCORE + seat)]


@njit(cache=True, inline="always")
def add_score(g, seat, k):
    g[at(SCORE + seat)] += k


@njit(cache=True, inline="always")
def face_offs_won(g, seat):
    return g[at(WON + seat)]


@njit(cache=True, inline="always")
def count(g, counter):
    """One of this game's counters (``H_FACE_OFFS``, ``H_CASCADES``, ...)."""
    return g[at(counter)]


@njit(cache=True, inline="always")
def add_to(g, counter, k):
    g[at(counter)] += k


# --- play pile entries -----------------------------------------------------------------------


@njit(cache=True, inline="always")
def pile_entry(card, symbol, drawer):
    """A play pile entry: the card, the symbol it shows and the seat that drew it."""
    return (card << ENTRY_CARD_SHIFT) | (symbol << SEAT_BITS) | drawer


@njit(cache=True, inline="always")
def entry_card(entry):
    return entry >> ENTRY_CARD_SHIFT


@njit(cache=True, inline="always")
def entry_symbol(entry):
    return (entry >> SEAT_BITS) & SYMBOL_MASK


@njit(cache=True, inline="always")
def entry_drawer(entry):
    return entry & SEAT_MASK


# --- set-up ----------------------------------------------------------------------------------


@njit(cache=True)
def new_state(players, n_ids, n, face_up, codes, in_play):
    """The state of one thread's block of games: the set-up fields and static tables.

    ``face_up``: the ``winnings_face_up`` variant; ``codes``: the code of every card id;
    ``in_play``: the ids of the cards in play, ascending (both may be float arrays).
    The skill model's tables (``H_TIE_THRESHOLD``, ``THRESHOLD``) are filled by
    ``strategies.set_skills``.
    """
    cap = max(n, 1)
    g = np.zeros(CODES + n_ids + 2 * n + players * cap, np.int64)
    g[H_PLAYERS] = players
    g[H_N] = n
    g[H_IDS] = n_ids
    g[H_FACE_UP] = 1 if face_up else 0
    g[H_DECK] = CODES + n_ids + n
    g[H_PILES] = CODES + n_ids + 2 * n
    g[H_CAP] = cap
    for m in range(1, 1 << MAX_PLAYERS):
        low = 0
        while not (m >> low) & 1:
            low += 1
        g[LOWEST + m] = low
    for k in range(n_ids):
        g[CODES + k] = np.int64(codes[k])
    for k in range(n):
        g[CODES + n_ids + k] = np.int64(in_play[k])
    return g


@hot_inline
def clear_table(g):
    """A fresh table: every play pile empty, no active wild, every counter at 0."""
    for k in range(H_GAME_FIRST, H_GAME_END):
        g[at(k)] = 0
    g[at(H_WILD_X)] = -1
    g[at(H_WILD_Y)] = -1
    for seat in range(MAX_PLAYERS):
        g[at(TOP + seat)] = NO_CARD
        g[at(PILE_N + seat)] = 0
        g[at(SCORE + seat)] = 0
        g[at(WON + seat)] = 0
    for slot in range(N_SLOTS):
        g[at(PARTNER + slot)] = NO_WILD
        g[at(SHOWING + slot)] = 0


@hot_inline
def shuffle_deck(g, deck_rng):
    """Shuffle the cards in play into one deck: the very draws of ``rng.shuffle`` on the
    ascending ids (a complete Fisher-Yates).

    On views of the deck and the template: their addresses are read once, where ``deck_card``
    would re-read the deck's offset after every store (-4 % time per game)."""
    n = cards_in_play(g)
    deck = g[g[at(H_DECK)] : g[at(H_DECK)] + n]
    template = g[CODES + g[at(H_IDS)] : CODES + g[at(H_IDS)] + n]
    for k in range(n):
        deck[at(k)] = template[at(k)]
    for k in range(n - 1):
        j = k + bounded(deck_rng, n - k)
        card = deck[at(j)]
        deck[at(j)] = deck[at(k)]
        deck[at(k)] = card


@hot_inline
def set_top(g, seat, symbol):
    """The seat's top card now shows ``symbol`` (or ``NO_CARD``)."""
    bit = 1 << seat
    g[at(SHOWING + top(g, seat))] &= ~bit
    g[at(TOP + seat)] = symbol
    g[at(SHOWING + symbol)] |= bit


@hot_inline
def put_on_pile(g, seat, entry):
    """The entry's card goes face up on top of the seat's play pile."""
    size = pile_size(g, seat)
    g[pile_slot(g, seat, size)] = entry
    g[at(PILE_N + seat)] = size + 1
    set_top(g, seat, entry_symbol(entry))


@hot_inline
def take_top_card(g, seat):
    """Take the seat's top card (an entry) off its play pile; its next card shows (or the pile
    is empty)."""
    left = pile_size(g, seat) - 1
    entry = g[pile_slot(g, seat, left)]
    g[at(PILE_N + seat)] = left
    bit = 1 << seat
    g[at(SHOWING + top(g, seat))] &= ~bit
    shown = NO_CARD
    if left > 0:
        shown = entry_symbol(g[pile_slot(g, seat, left - 1)])
    g[at(TOP + seat)] = shown
    if shown != NO_CARD:
        g[at(SHOWING + shown)] |= bit
    return entry


@hot
def lay_opening_table(g, table_seats):
    """Scripted play from a position: deck card ``k`` starts on seat ``table_seats[k]``'s play
    pile, as drawn by it; drawing starts after them."""
    for k in range(table_seats.shape[0]):
        card = deck_card(g, k)
        put_on_pile(g, table_seats[k], pile_entry(card, code_of(g, card), table_seats[k]))
    g[at(H_FIRST_DRAW)] = table_seats.shape[0]
    g[at(H_NEXT)] = table_seats.shape[0]


# --- matches ---------------------------------------------------------------------------------


@hot_inline
def matches_of(g, seat):
    """The seats whose top matches the seat's top: the same symbol, or the active wild's other
    symbol (an empty play pile matches nothing)."""
    symbol = top(g, seat)
    if symbol == NO_CARD:
        return 0
    return (showing(g, symbol) | showing(g, partner(g, symbol))) & ~(1 << seat)


@hot
def count_bits(m):
    """Seats in a bitset."""
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@hot
def table_matches(g):
    """Every match on the table (after a new wild, or on an opening table): ``(count, a, b)``
    with ``a``, ``b`` the seats of one of them (-1 if none)."""
    matches = 0
    a = -1
    b = -1
    for x in range(N_SYMBOLS):  # pairs showing one symbol (none at rest)
        seats = showing(g, x)
        k = count_bits(seats)
        if k >= 2:
            matches += k * (k - 1) // 2
            a = lowest_seat(g, seats)
            b = lowest_seat(g, seats & (seats - 1))
    if wild_active(g):  # pairs showing the active wild's two symbols
        x, y = active_wild(g)
        with_x = showing(g, x)
        with_y = showing(g, y)
        if with_x != 0 and with_y != 0:
            matches += count_bits(with_x) * count_bits(with_y)
            a = lowest_seat(g, with_x)
            b = lowest_seat(g, with_y)
    return matches, a, b


# --- drawing ---------------------------------------------------------------------------------


@hot_inline
def draw_card(g):
    """The active player draws the top card of the draw pile."""
    k = g[at(H_NEXT)]
    g[at(H_NEXT)] = k + 1
    return deck_card(g, k)


@hot_inline
def activate_wild(g, code):
    """A drawn wild becomes the active wild, replacing any earlier one."""
    if wild_active(g):
        old_x, old_y = active_wild(g)
        g[at(PARTNER + old_x)] = NO_WILD
        g[at(PARTNER + old_y)] = NO_WILD
    x, y = wild_symbols(code)
    g[at(H_WILD_X)] = x
    g[at(H_WILD_Y)] = y
    g[at(PARTNER + x)] = y
    g[at(PARTNER + y)] = x


# --- face-offs -------------------------------------------------------------------------------


@hot_inline
def is_wild_face_off(g, a, b):
    """1 if the two tops show different symbols (matched through the active wild), else 0."""
    return 1 if top(g, a) != top(g, b) else 0


@hot_inline
def resolve_face_off(g, winner, loser, winnings_face_up):
    """The winner takes the loser's top card: into its winnings, or with face-up winnings
    (``face_up(g)``, read once per game by the caller) onto its play pile. Returns the card's
    pile entry and whether the face-off was wild (1: the tops showed different symbols)."""
    wild = is_wild_face_off(g, winner, loser)
    g[at(H_WILD_FACE_OFFS)] += wild
    entry = take_top_card(g, loser)
    if winnings_face_up:
        put_on_pile(g, winner, entry)
        drawer = entry_drawer(entry)
        if drawer != winner:  # a card won back by the seat that drew it does not score
            add_score(g, winner, 1)
        if drawer != loser:
            add_score(g, loser, -1)
    else:
        add_score(g, winner, 1)
    g[at(WON + winner)] += 1
    g[at(H_FACE_OFFS)] += 1
    return entry, wild


@hot_inline
def tiebreak_card(g):
    """Deck position of the tiebreak card: the first category card from the top of the draw
    pile (the cards in play if there is none)."""
    n = cards_in_play(g)
    t = next_position(g)
    while t < n and is_wild(code_of(g, deck_card(g, t))):
        t += 1
    return t


@hot_inline
def tiebreak_room(g):
    """The largest position the tiebreak card can go back to: the draw pile's size without it."""
    return cards_in_play(g) - next_position(g) - 1


@hot
def put_back_tiebreak_card(g, t, pos):
    """The tiebreak card (deck position ``t``) goes back into the draw pile at ``pos`` (0 = the
    top of the draw pile); returns the card."""
    card = deck_card(g, t)
    target = next_position(g) + pos
    if target < t:
        for k in range(t, target, -1):
            set_deck_card(g, k, deck_card(g, k - 1))
    else:
        for k in range(t, target):
            set_deck_card(g, k, deck_card(g, k + 1))
    set_deck_card(g, target, card)
    return card


# --- chains ----------------------------------------------------------------------------------


@hot_inline
def end_chain(g, chain):
    """A chain of ``chain`` face-offs is over: a cascade if 2 or more; returns 1 if a cascade."""
    cascade = 1 if chain >= 2 else 0
    g[at(H_CASCADES)] += cascade
    g[at(H_LONGEST)] = max(g[at(H_LONGEST)], chain)
    return cascade


# --- end of game -----------------------------------------------------------------------------


@hot
def fail(g, err, a, b, c):
    """Stop the game with ``err``: its details go into the ``H_ERR_*`` slots (the face-off
    index, and three numbers the error message reads); returns ``err``."""
    g[at(H_ERR_INDEX)] = g[at(H_FACE_OFFS)]
    g[at(H_ERR_A)] = a
    g[at(H_ERR_B)] = b
    g[at(H_ERR_C)] = c
    return err


@hot
def record(trace, kind, seat, card, other, extra):
    """Append an event (``engine/trace.py``: events beyond the buffer are counted but not
    kept; ``game.trace`` then grows the buffer and replays the game); ``trace`` None (runs):
    nothing, compiled out. (One compiled version per trace type: ``engine/specialise.py``
    makes no copy per literal event kind.)"""
    if trace is None:
        return
    k = trace_slot(trace)
    if k >= 0:
        trace[k, 0] = kind
        trace[k, 1] = seat
        trace[k, 2] = card
        trace[k, 3] = other
        trace[k, 4] = extra

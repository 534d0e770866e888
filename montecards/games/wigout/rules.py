"""Wig Out!'s state layout and rules as jitted functions (docs/rules/wigout.md).

The whole game lives in ONE flat int64 array ``g`` with the named offsets below (no tuples of
arrays, no slicing in the hot loop), plus a small float64 array ``fw`` for the rates, speeds and
the clock. A hand is kept as per-character counts plus two bit masks per seat (characters held
at least once / at least twice) and one mask for the characters showing on the table: a seat
has a legal play iff ``m2 != 0 or m1 & table != 0``, so rates cost a few instructions a seat.
"""

from __future__ import annotations

MAX_PLAYERS = 6
MAX_CHARS = 60  # characters fit the bits of an int64 mask
MAX_DEALS_PER_ROUND = 100
"""With ``deadlock_counts_as_round`` false a game stops, unfinished, after ``rounds * 100`` deals."""

# packed parameters (float64 vector of game.pack_params)
P_CHARACTERS = 0
P_COPIES = 1
P_HAND_SIZE = 2
P_ROUNDS = 3
P_DEADLOCK_COUNTS = 4
P_DRAW_TIME_FACTOR = 5
P_SPEED = 6  # + seat

# scalar slots of the state
S_PLAYERS = 0
S_CHARS = 1
S_COPIES = 2
S_N = 3  # cards in the deck
S_HAND = 4  # hand size dealt
S_ROUNDS = 5
S_DCAR = 6  # deadlock counts as a round
S_MAX_DEALS = 7
S_SCRIPTED = 8  # 1: decks, events and choices come from a script
S_DRAWN = 9  # first per-game slot: cards of this deal's deck dealt, turned or drawn
S_TABLE = 10  # bit mask: characters showing on the table
S_TABLE_CARDS = 11
S_ACTIONS = 12
S_DRAWS = 13
S_DEADLOCKS = 14
S_DEAL = 15  # deals played (including uncounted deadlocks)
S_ROUND = 16  # counted rounds finished
S_UNFINISHED = 17
S_EVENT = 18  # scripted: next event
S_CHOICE = 19  # scripted: next random choice
S_DECK_ROW = 20  # scripted: decks used
S_ERR_EVENT = 21  # scripted: the event at which an error was found
O_HANDN = 32  # + seat: cards in hand
O_M1 = O_HANDN + MAX_PLAYERS  # + seat: characters held >= 1 (bit mask)
O_M2 = O_M1 + MAX_PLAYERS  # + seat: characters held >= 2
O_POINTS = O_M2 + MAX_PLAYERS  # + seat
O_WON = O_POINTS + MAX_PLAYERS  # + seat: rounds won
O_HAND = O_WON + MAX_PLAYERS  # + seat * MAX_CHARS + character: copies held
O_DECK = O_HAND + MAX_PLAYERS * MAX_CHARS  # + position: this deal's deck, top first

# float work slots
F_TIME = 0
F_RATE = 1  # + seat
F_SPEED = F_RATE + MAX_PLAYERS  # + seat: rate with a play
F_DRAW_SPEED = F_SPEED + MAX_PLAYERS  # + seat: rate when it must draw
N_FLOATS = F_DRAW_SPEED + MAX_PLAYERS


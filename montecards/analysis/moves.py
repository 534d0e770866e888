"""Move analysis and game review: "what should I play here?" (montecards issue #32).

``analyse`` ranks every legal move of a position by the deciding seat's win share. Every move
is played on from the same determinizations of the seat's unseen cards (common random numbers:
determinization ``d`` deals the same hidden cards and draws the same pile for every move), by
the game's play-out (``games/<game>/position.py``: ``evaluate``). The rollouts run in growing
batches and stop sequentially, as gnubg's do (/work/shared/ANALYSIS.md, section 2):

* **decided** once the best move leads every other by at least 3 standard errors of the paired
  difference (3 SE, not 2: stopping at 2 picks the wrong move far too often over many looks),
  on at least ``MIN_DISCORDANT`` determinizations where the two moves end differently;
* or once every move's win share is known to ±1 pp (its 95 % interval's half-width <= 0.01);
* or at the budget (play-outs, or seconds).

Columns: ``win_share`` with its 95 % interval (Wilson, over determinizations), ``gap`` to the
best move (a paired mean, with its own interval in the review), and ``omniscient``: the move's
win share on the true hidden cards, when the analysis is given them (a full ``State``, e.g. a
review of a traced game); a position alone carries none, so the column is then empty (None).
``value``: the value estimate of the luck-and-skill work (docs/luck.md), V of the seat after the
move averaged over the same determinizations (the information-set reading: the mean of the
true-state V over the dealings consistent with what the seat knows), with its 95 % interval;
only where the game has a fitted value for the position's player count and rules
(``value_setup``), else None with the reason given once (``value_note``).

``review`` analyses every decision of a recorded game and marks the reviewed seats' moves by
their loss in win share (``MARKS``); per seat it sums the losses into an error rate and a
rating word (``RATINGS``).
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from montecards import games
from montecards.analysis.intervals import Z95, mean_interval, share_interval, wilson
from montecards.engine.spec import InputError
from montecards.engine.user_strategies import UserStrategy

EVALUATORS = ("rollout", "ismcts")
"""``rollout``: play-outs on common determinizations; ``ismcts``: the IS-MCTS root's statistics."""

SE_TO_DECIDE = 3.0
MIN_DISCORDANT = 30
"""The fewest determinizations on which the best move and another move end differently before
the 3 SE rule may call the best move ahead of it. With only a handful (a seat that rarely wins:
10 wins for one move, none for the other, in the first 100 deals) the paired difference's
standard error is itself a guess, and a fluke first batch was called decided (a Gift of Tulips
set-up split that larger samples and the IS-MCTS root both ranked the other way); 30 is the
usual floor for the normal approximation of a sign-like count."""
PRECISION = 0.01
FIRST_BATCH = 100
MAX_BATCH = 20_000
DEFAULT_BUDGET = 200_000
"""Play-outs at most (determinizations x moves)."""

VALUE_KEYS = ("value", "value_low", "value_high")
ROW_KEYS = ("move", "win_share", "win_share_low", "win_share_high", "gap", "omniscient", *VALUE_KEYS)
"""A move's row (``--json``'s ``moves``, the DataFrame's columns)."""
ROOT_VALUE_DETERMINIZATIONS = 1_000
"""The value column's determinizations under the IS-MCTS root evaluator (it has none of its own)."""

MARKS = ((0.08, "??"), (0.04, "?"), (0.02, "?!"))
"""A reviewed move's mark by its loss in win share against the best move (the loss's 95 %
interval must also exclude 0): ``??`` very bad from 0.08, ``?`` bad from 0.04, ``?!`` doubtful
from 0.02 (gnubg's 0.04 / 0.08 / 0.16 in equity, halved: equity runs over [-1, 1], a win share
over [0, 1])."""

RATINGS = ((0.001, "Supernatural"), (0.0025, "World class"), (0.005, "Expert"), (0.01, "Advanced"),
           (0.02, "Intermediate"), (0.035, "Casual player"), (0.05, "Beginner"), (math.inf, "Awful!"))
"""A seat's rating word by its error rate (mean loss in win share per unforced decision): the
first row whose bound it is below (gnubg's words)."""


def mark_of(loss: float, loss_low: float) -> str:
    if loss_low <= 0:
        return ""
    for bound, mark in MARKS:
        if loss >= bound:
            return mark
    return ""


def rating_of(error_rate: float) -> str:
    for bound, word in RATINGS:
        if error_rate < bound:
            return word
    return RATINGS[-1][1]


@dataclass
class MoveAnalysis:
    """The moves of one position ranked by the seat's win share (``analyse``)."""

    game: str
    position: Any
    moves: list[str]
    shares: np.ndarray | None  # (determinizations, moves) win shares (rollout), or None (ismcts)
    omniscient: np.ndarray | None  # per move, or None
    decided: bool
    seconds: float
    strategies: dict[str, str] = field(default_factory=dict)
    root: tuple[np.ndarray, np.ndarray] | None = None  # (visits, summed win shares) per move (ismcts)
    spent: int = 0  # ismcts: the iterations of every search run
    values: np.ndarray | None = None  # (determinizations, moves) V of the seat after each move, or None
    value_note: str = ""  # where V comes from, or why there is none
    order: list[int] = field(init=False)

    def __post_init__(self) -> None:
        means = self.means()
        self.order = sorted(range(len(self.moves)), key=lambda k: (-means[k], k))

    def means(self) -> np.ndarray:
        if self.shares is not None:
            return self.shares.mean(axis=0)
        visits, rewards = self.root
        return np.divide(rewards, visits, out=np.zeros_like(rewards), where=visits > 0)

    @property
    def determinizations(self) -> int:
        """Deals every move was played on (rollout); the last search's root visits (ismcts)."""
        if self.shares is not None:
            return int(self.shares.shape[0])
        return int(self.root[0].sum())

    @property
    def evaluations(self) -> int:
        """Play-outs: determinizations x moves (rollout), or every search iteration (ismcts)."""
        return int(self.shares.size) if self.shares is not None else int(self.spent)

    @property
    def best(self) -> str:
        return self.moves[self.order[0]]

    def gap(self, move: str) -> tuple[float, float, float]:
        """The move's loss against the best move, ``(gap, low, high)`` (paired: same deals)."""
        k = self.moves.index(move)
        if self.shares is None:
            return _root_gap(self.root, self.order[0], k)
        diff = self.shares[:, self.order[0]] - self.shares[:, k]
        if not diff.any():
            return (0.0, 0.0, 0.0)
        return mean_interval(diff)

    def share(self, k: int) -> tuple[float, float, float]:
        """Move ``k``'s win share and its 95 % interval (Wilson)."""
        if self.shares is not None:
            return share_interval(self.shares[:, k])
        visits, rewards = self.root
        if visits[k] == 0:
            return (0.0, 0.0, 1.0)
        share = float(rewards[k] / visits[k])
        return (share, *wilson(share, int(visits[k])))

    def value(self, k: int) -> tuple[float, float, float] | None:
        """Move ``k``'s value estimate (the mean V over the determinizations) and its 95 %
        interval (normal, clipped to [0, 1]), or None when the game has no value here."""
        if self.values is None:
            return None
        mean, low, high = mean_interval(self.values[:, k])
        if not math.isfinite(low):  # a single determinization: no interval
            low, high = 0.0, 1.0
        return (mean, max(0.0, low), min(1.0, high))

    def rows(self) -> list[dict[str, Any]]:
        out = []
        for k in self.order:
            share, low, high = self.share(k)
            gap = self.gap(self.moves[k])[0]
            value = self.value(k)
            out.append({
                "move": self.moves[k],
                "win_share": round(float(share), 6),
                "win_share_low": round(float(low), 6),
                "win_share_high": round(float(high), 6),
                "gap": round(float(gap), 6),
                "omniscient": None if self.omniscient is None else round(float(self.omniscient[k]), 6),
                **{key: None if value is None else round(float(x), 6)
                   for key, x in zip(VALUE_KEYS, value or (None,) * 3)},
            })
        return out

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` form (issue #32): moves best first; ``value_note`` says where the value
        column comes from, or why it is empty."""
        return {"moves": self.rows(), "best": self.best, "decided": bool(self.decided),
                "evaluations": self.evaluations, "seconds": round(self.seconds, 3),
                "value_note": self.value_note}

    @property
    def frame(self):
        import pandas as pd

        frame = pd.DataFrame.from_records(self.rows(), columns=list(ROW_KEYS))
        frame.attrs["value_note"] = self.value_note
        return frame

    def to_frame(self):
        return self.frame

    def table(self) -> str:
        """The readable table the CLI prints."""
        header = (f"{'':2} {'move':<18} {'win share':>9}  {'95 % interval':<15} {'gap':>7}  {'omniscient':>10}"
                  f"  {'value':>7}  {'95 % interval'}")
        lines = [f"{self.position}", "", header]
        for i, row in enumerate(self.rows()):
            omni = "-" if row["omniscient"] is None else f"{100 * row['omniscient']:.1f} %"
            gap = "" if i == 0 else f"-{100 * row['gap']:.1f} pp" if row["gap"] > 0 else "0.0 pp"
            value = (f"{'-':>7}" if row["value"] is None else
                     f"{100 * row['value']:>5.1f} %  {100 * row['value_low']:>5.1f} - "
                     f"{100 * row['value_high']:>5.1f} %")
            lines.append(
                f"{i + 1:>2} {row['move']:<18} {100 * row['win_share']:>7.1f} %  "
                f"{100 * row['win_share_low']:>5.1f} - {100 * row['win_share_high']:>5.1f} % "
                f"{gap:>8}  {omni:>10}  {value}".rstrip())
        how = "decided: 3 SE ahead of every other move" if self.decided else "not decided"
        verdict = f"best: {self.best} ({how})"
        if self.shares is not None:
            spent = (f"{self.determinizations:,} determinizations x {len(self.moves)} moves = "
                     f"{self.evaluations:,} play-outs")
        else:
            spent = (f"IS-MCTS root: {self.evaluations:,} search iterations in all, the last search's "
                     f"root {self.determinizations:,}")
        lines += ["", verdict, f"{spent} in {self.seconds:.1f} s ({self.describe_strategies()})",
                  f"value: {self.value_note}"]
        return "\n".join(lines)

    def describe_strategies(self) -> str:
        return ", ".join(f"{k} {v}" for k, v in self.strategies.items())

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        return (f"MoveAnalysis({self.game}, best={self.best!r}, decided={self.decided}, "
                f"moves={len(self.moves)}, determinizations={self.determinizations:,})")

    def _repr_html_(self) -> str:
        head = (f"<p><b>{self.game}</b>: <code>{self.position}</code><br>best <b>{self.best}</b> "
                f"({'decided' if self.decided else 'not decided'}; {self.evaluations:,} play-outs, "
                f"{self.seconds:.1f} s; {self.describe_strategies()})<br>value: {self.value_note}</p>")
        return head + self.frame.to_html(index=False, float_format=lambda x: f"{x:.4f}")

    def plot(self, ax=None):
        """The moves as bars (win share) with their 95 % intervals, best first."""
        from montecards.plots.moves import move_bars

        return move_bars(self, ax)


def value_setup(game: str, module: Any, pos: Any, opponents: Any, playout: Any
                ) -> tuple[np.ndarray | None, str]:
    """``(value array, where it comes from)`` for the value column, or ``(None, why not)``: the
    game's fitted value (``engine.value``, docs/luck.md) for the position's player count, on the
    official rules, from the play-outs' lineup's file or else the greedy lineup's (as ``--luck``
    chooses: ``engine.value.find_value``)."""
    if getattr(pos, "no_value", None):  # a decision the value cannot read (Gift of Tulips' set-up split)
        return None, f"none ({pos.no_value})"
    names = [str(opponents)] * pos.players
    names[pos.seat] = str(playout)
    array, note = _fitted_value(game, module, "value_moves", pos.players, pos.rules, names, "this position")
    return array, note if array is None else f"V of the seat after the move ({note}, docs/luck.md)"


def _fitted_value(game: str, module: Any, hook: str, players: int, rules: dict[str, Any], names: list[str],
                  what: str) -> tuple[np.ndarray | None, str]:
    """``(value array, its file)``, or ``(None, "none (why not)")``: the game's value for
    ``players`` on the official rules, fitted on the lineup ``names`` or else on greedy's; the
    position module must have ``hook`` (what uses the value)."""
    from montecards.analysis.runs import seat_defaults
    from montecards.engine.value import find_value, load_value, values_folder

    spec = games.get(game)
    if spec.value is None or not hasattr(module, hook):
        return None, f"none ({spec.name} has no value estimate yet)"
    official = spec.resolve_params(players, None)
    rules = rules or {}
    changed = sorted(k for k, v in rules.items() if k in official and official[k] != v)
    if changed:
        return None, (f"none (the value is fitted on the official rules; {what} changes "
                      f"{', '.join(f'{k}={rules[k]}' for k in changed)})")
    try:
        path = find_value(values_folder(games.GAME_MODULES[spec.name]), spec.name, players, names,
                          seat_defaults(spec))
    except InputError:
        return None, (f"none (no fitted value for {spec.name} with {players} players: "
                      f"montecards value fit {spec.name} -p {players})")
    data = load_value(path, spec.name, players, spec.value.features)
    return spec.value.array(data["vstart"], data["weights"]), f"{spec.name}/values/{path.name}"


def _record_luck(game: str, module: Any, record: dict[str, Any], opponents: Any, seed: int
                 ) -> tuple[dict[int, tuple[float, float, float]], str]:
    """Per seat ``(result, luck, adjusted)`` of a recorded game by the luck ledger (docs/luck.md),
    V modelling every seat by ``opponents``; or ``({}, "none (why not)")``."""
    players = int(record.get("players", 2))
    spec = games.get(game)
    array, note = _fitted_value(game, module, "record_luck", players, record.get("rules"),
                                [str(opponents)] * players, "this record")
    if array is None:
        return {}, note
    codes, params, _ = _seat_codes(spec, players, 0, opponents, opponents, spec.resolve_params(players, None))
    found = module.record_luck(record, array, codes, params, seed)
    if found is None:
        return {}, "none (the record holds one seat's view: the luck ledger needs the whole deal)"
    luck, result = found
    return ({s: (result[s], luck[s], result[s] - luck[s]) for s in range(players)},
            f"by the luck ledger ({note}, docs/luck.md): the deal's and every draw's luck; "
            "adjusted = result - luck")


def _values(module: Any, dealt: Any, pos: Any, moves: list[str], array: np.ndarray | None, codes: np.ndarray,
            params: np.ndarray, seed: int, n: int) -> np.ndarray | None:
    if array is None:
        return None
    return module.value_moves(dealt, pos.seat, moves, array, codes, params, seed, 0, n)


def _seat_codes(spec: Any, players: int, seat: int, opponents: Any, playout: Any, rules: dict[str, Any]):
    """Per-seat strategy codes, the kernel's parameter vector and options: the seat plays on
    by ``playout``, every other seat by ``opponents``."""
    names = [opponents] * players
    names[seat] = playout
    entries = spec.strategy_codes(players, names)
    if any(isinstance(e, UserStrategy) for e in entries):
        raise InputError("analyse plays on with built-in strategies only (a user strategy cannot play out)")
    codes = spec.strategy_array(entries)
    params = spec.kernel_params(players, spec.resolve_params(players, rules), entries)
    return codes, params, spec.kernel_options(codes)


def _as_state(module: Any, position: Any, seed: int):
    """``(state the seat's analysis plays from, true state or None)``: a ``State`` is the truth
    (the honest analysis still sees only its seat's position); a position is dealt from ``seed``."""
    if isinstance(position, module.State):
        pos = position.observe()
        return module.State.from_position(pos, seed), position, pos
    pos = module.parse(read_position_text(position) if isinstance(position, (str, os.PathLike)) else position)
    return module.State.from_position(pos, seed), None, pos


def read_position_text(text: str | os.PathLike) -> str:
    """A position given as a file path, or the text itself."""
    if isinstance(text, os.PathLike) or (isinstance(text, str) and "\n" not in text and len(text) < 4096
                                          and not text.strip().startswith("{") and Path(text).is_file()):
        try:
            return Path(text).read_text()
        except OSError as exc:
            raise InputError(f"cannot read {text}: {exc.strerror}") from None
    return str(text)


def analyse(game: str, position: Any, opponents: str = "greedy", playout: str | None = None,
            evaluator: str = "rollout", budget: int = DEFAULT_BUDGET, seconds: float | None = None,
            seed: int = 0, value: bool = True) -> MoveAnalysis:
    """Every legal move of ``position`` ranked by the deciding seat's win share.

    ``position``: the one-line form, JSON (text, dict or a file path), a ``Position`` or a full
    ``mc.state`` (then the omniscient column is computed on its true hidden cards).
    ``evaluator="rollout"``: the play-outs' strategies are ``opponents`` for the other seats and
    ``playout`` (default: the same) for the seat's own later decisions; any built-in with its
    parameters, e.g. ``"ismcts[200]"``. ``budget``: play-outs at most; ``seconds``: time at most;
    ``seed``: the determinizations (same seed, same analysis). ``value``: the value column (V of
    the seat after each move on the same determinizations, where the game has a fitted value;
    False: none, ``value_note`` says so)."""
    if evaluator not in EVALUATORS:
        raise InputError(f"unknown evaluator {evaluator!r} (allowed: {', '.join(EVALUATORS)}; the IS-MCTS "
                         "root evaluator is not built yet)")
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget <= 0:
        raise InputError(f"budget must be an integer > 0 (play-outs), got {budget!r}")
    if seconds is not None and not seconds > 0:
        raise InputError(f"seconds must be > 0, got {seconds!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"seed must be an integer >= 0, got {seed!r}")
    module = games.positions(game)
    spec = games.get(game)
    if evaluator == "ismcts" and not hasattr(module, "evaluate_root"):
        raise InputError(f"{game} has no IS-MCTS search to take the root of: use --evaluator rollout")
    start = time.perf_counter()
    dealt, truth, pos = _as_state(module, position, int(seed))
    moves = pos.legal_moves()
    playout = opponents if playout is None else playout
    codes, params, options = _seat_codes(spec, pos.players, pos.seat, opponents, playout, pos.rules)
    array, note = value_setup(game, module, pos, opponents, playout) if value else (None, "not asked for")
    if evaluator == "ismcts":
        result = _analyse_root(module, game, dealt, truth, pos, moves, budget, seconds, int(seed), start, codes,
                               params, options, opponents, playout)
        result.values = _values(module, dealt, pos, moves, array, codes, params, int(seed),
                                ROOT_VALUE_DETERMINIZATIONS)
        result.value_note = note if array is None else f"{note}, on {ROOT_VALUE_DETERMINIZATIONS:,} determinizations"
        result.seconds = time.perf_counter() - start
        return result
    chunks: list[np.ndarray] = []
    n = 0
    decided = False
    batch = FIRST_BATCH
    while True:
        size = max(1, min(batch, (budget - n * len(moves)) // len(moves)))
        if n > 0 and n * len(moves) >= budget:
            break
        chunks.append(module.evaluate(dealt, pos.seat, moves, codes, params, options, int(seed), n, size,
                                      True))
        n += size
        shares = np.concatenate(chunks)
        decided, precise = _stop(shares)
        if decided or precise or len(moves) == 1:
            break
        if seconds is not None and time.perf_counter() - start >= seconds:
            break
        if n * len(moves) >= budget:
            break
        batch = min(2 * batch, MAX_BATCH)
    shares = np.concatenate(chunks)
    omniscient = None
    if truth is not None:
        reps = min(n, 1000)
        omniscient = module.evaluate(truth, pos.seat, moves, codes, params, options, int(seed), 0, reps,
                                     False).mean(axis=0)
    values = _values(module, dealt, pos, moves, array, codes, params, int(seed), n)
    return MoveAnalysis(game, pos, moves, shares, omniscient, decided, time.perf_counter() - start,
                        {"opponents": str(opponents), "playout": str(playout)}, values=values,
                        value_note=note if array is None else f"{note}, on the same {n:,} determinizations")


ROOT_FIRST = 1_000
"""The IS-MCTS root evaluator's first search (iterations); each next one doubles."""


def _root_gap(root: tuple[np.ndarray, np.ndarray], best: int, k: int) -> tuple[float, float, float]:
    """The gap of move ``k`` to move ``best`` from root statistics, with a 95 % interval: the two
    means are not paired (one search allots its visits), so their variances add; a share's
    variance is at most ``p (1 - p)``."""
    visits, rewards = root
    if k == best:
        return (0.0, 0.0, 0.0)
    if visits[k] == 0 or visits[best] == 0:
        return (float("nan"), -1.0, 1.0)
    pb, pk = rewards[best] / visits[best], rewards[k] / visits[k]
    se = math.sqrt(max(pb * (1 - pb), 0.25 / visits[best]) / visits[best]
                   + max(pk * (1 - pk), 0.25 / visits[k]) / visits[k])
    gap = float(pb - pk)
    return (gap, gap - Z95 * se, gap + Z95 * se)


def _analyse_root(module, game, dealt, truth, pos, moves, budget, seconds, seed, start, codes, params,
                  options, opponents, playout) -> MoveAnalysis:
    """``analyse`` by the IS-MCTS root: searches of 1,000, 2,000, ... iterations (each afresh,
    its own tree) until the best root move leads every other by 3 SE, or the budget (iterations
    summed) or the time runs out. The win shares are the root children's means (the search's
    play-outs: random, exploration 0.7, ``search.py``); the omniscient column, when the true
    cards are given, is the rollout evaluator's on them."""
    spent, iterations, index = 0, ROOT_FIRST, 0
    root = None
    decided = False
    while spent + iterations <= budget or root is None:
        iterations = min(iterations, max(1, budget - spent)) if root is None else iterations
        root = module.evaluate_root(dealt, pos.seat, moves, seed, index, iterations)
        spent += iterations
        index += 1
        best = int(np.argmax(np.divide(root[1], root[0], out=np.zeros_like(root[1]), where=root[0] > 0)))
        decided = len(moves) == 1 or all(
            (g := _root_gap(root, best, k))[0] > 0 and g[1] > 0 and g[0] >= SE_TO_DECIDE * (g[0] - g[1]) / Z95
            for k in range(len(moves)) if k != best)
        if decided or (seconds is not None and time.perf_counter() - start >= seconds):
            break
        iterations *= 2
    omniscient = None
    if truth is not None:
        omniscient = module.evaluate(truth, pos.seat, moves, codes, params, options, seed, 0, 1000,
                                     False).mean(axis=0)
    return MoveAnalysis(game, pos, moves, None, omniscient, decided, time.perf_counter() - start,
                        {"evaluator": "ismcts root"} if truth is None else
                        {"evaluator": "ismcts root", "omniscient opponents": str(opponents),
                         "omniscient playout": str(playout)}, root=root, spent=spent)


def _stop(shares: np.ndarray) -> tuple[bool, bool]:
    """``(decided, precise)``: the best move leads every other by >= 3 SE of the paired
    difference; every move's 95 % half-width is <= ``PRECISION``."""
    n, m = shares.shape
    if m == 1:
        return True, True
    means = shares.mean(axis=0)
    best = int(np.argmax(means))
    decided = True
    for k in range(m):
        if k == best:
            continue
        diff = shares[:, best] - shares[:, k]
        gap = diff.mean()
        se = diff.std(ddof=1) / math.sqrt(n) if n > 1 else math.inf
        if not (gap > 0 and gap >= SE_TO_DECIDE * se and np.count_nonzero(diff) >= MIN_DISCORDANT):
            decided = False
            break
    precise = n > 1 and bool(np.all(Z95 * shares.std(axis=0, ddof=1) / math.sqrt(n) <= PRECISION))
    return decided, precise


# --- game review ---------------------------------------------------------------------------------


@dataclass
class Review:
    """Every reviewed decision of a game, marked, and per seat an error rate and a rating."""

    game: str
    decisions: list[dict[str, Any]]
    seats: list[dict[str, Any]]
    seconds: float
    luck_note: str = ""  # where the seats' luck comes from, or why there is none

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` form (issue #32)."""
        return {"decisions": self.decisions, "seats": self.seats, "luck_note": self.luck_note}

    @property
    def frame(self):
        import pandas as pd

        return pd.DataFrame.from_records(self.decisions, columns=["turn", "seat", "played", "best", "loss",
                                                                  "loss_low", "loss_high", "mark"])

    @property
    def seat_frame(self):
        import pandas as pd

        frame = pd.DataFrame.from_records(self.seats, columns=["seat", "decisions", "unforced", "error_total",
                                                               "error_rate", "rating", "result", "luck",
                                                               "adjusted"])
        frame.attrs["luck_note"] = self.luck_note
        return frame

    def table(self) -> str:
        lines = [f"{'turn':>4} {'seat':>4}  {'played':<18} {'best':<18} {'loss':>7}  "
                 f"{'95 % interval':<16} mark"]
        for d in self.decisions:
            lines.append(f"{d['turn']:>4} {d['seat']:>4}  {d['played']:<18} {d['best']:<18} "
                         f"{100 * d['loss']:>5.1f}pp  {100 * d['loss_low']:>5.1f} - "
                         f"{100 * d['loss_high']:>5.1f} pp  {d['mark']}")
        lines.append("")
        lines.append(f"{'seat':>4} {'decisions':>9} {'unforced':>8} {'error total':>11} "
                     f"{'error rate':>10}  {'rating':<14} {'result':>6} {'luck':>7} {'adjusted':>8}")
        for s in self.seats:
            luck = ("" if s["luck"] is None else
                    f" {s['result']:>6.2f} {s['luck']:>+7.3f} {s['adjusted']:>8.3f}")
            lines.append((f"{s['seat']:>4} {s['decisions']:>9} {s['unforced']:>8} {s['error_total']:>11.3f} "
                          f"{s['error_rate']:>10.4f}  {s['rating']:<14}{luck}").rstrip())
        lines.append("(losses in win share, pp = percentage points; marks ?! >= 2 pp, ? >= 4 pp, "
                     f"?? >= 8 pp; seats from 0; {self.seconds:.0f} s)")
        lines.append(f"(result: the seat's win share; luck in wins: {self.luck_note})")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def _repr_html_(self) -> str:
        return self.frame.to_html(index=False) + self.seat_frame.to_html(index=False)


def read_record(record: Any) -> Any:
    """A record as given: a dict, JSON text, a file path, or a trace (``mc.trace``'s frame)."""
    if hasattr(record, "attrs") and "event" in getattr(record, "columns", ()):
        return record
    if isinstance(record, dict):
        return record
    text = read_position_text(record)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"record: not valid JSON ({exc.msg} at line {exc.lineno})") from None


def review(game: str, record: Any, seats: Sequence[int] | None = None, opponents: str = "greedy",
           playout: str | None = None, budget: int = 20_000, seconds: float | None = None,
           seed: int = 0, evaluator: str = "rollout", luck: bool = True) -> Review:
    """Every decision of the reviewed ``seats`` (default: all) of a recorded game: the move played,
    the best move, the loss in win share with its interval and a mark; per seat the decisions,
    the forced ones (a single legal move), the error total and rate and a rating word.

    ``record``: a trace (``mc.trace``), or a record (dict, JSON text or file; docs/positions.md).
    The analyses are ``analyse``'s with the given strategies, budget and seed (per decision).
    Per seat also its ``result`` (win share), ``luck`` and luck-adjusted result (``adjusted =
    result - luck``) by the luck ledger (docs/luck.md), where the game has a fitted value for the
    record's player count and rules and the record holds the whole deal; else None, with the
    reason in ``luck_note``. ``luck`` False: none."""
    module = games.positions(game)
    record = read_record(record)
    if hasattr(record, "attrs") and "event" in getattr(record, "columns", ()):
        info = record.attrs.get("position_info") or {}
        if info.get("game") != game:
            raise InputError("record: a trace of another game, or one without its game (use mc.trace)")
        record = module.record_of_trace(record, info["players"], info.get("params"))
    steps = module.decisions_of_record(record)
    players = int(record["players"]) if "players" in record else 2
    known = sorted({seat for _, seat, pos, _, _ in steps if pos is not None})
    wanted = known if seats is None else [int(s) for s in seats]
    for s in wanted:
        if s not in known:
            raise InputError(f"seat {s} cannot be reviewed from this record (seats with positions: "
                             f"{', '.join(map(str, known))}; of {players})")
    start = time.perf_counter()
    decisions = []
    per_seat = {s: {"seat": s, "decisions": 0, "unforced": 0, "error_total": 0.0} for s in wanted}
    for turn, seat, pos, played, truth in steps:
        if seat not in wanted:
            continue
        per_seat[seat]["decisions"] += 1
        legal = pos.legal_moves()
        played_text = legal[[_canon(module, m, pos) for m in legal].index(_canon(module, played, pos))]
        if len(legal) == 1:
            decisions.append({"turn": turn, "seat": seat, "played": played_text, "best": played_text,
                              "loss": 0.0, "loss_low": 0.0, "loss_high": 0.0, "mark": ""})
            continue
        per_seat[seat]["unforced"] += 1
        result = analyse(game, truth if truth is not None else pos, opponents, playout, evaluator=evaluator,
                         budget=budget, seconds=seconds, seed=seed, value=False)
        loss, low, high = result.gap(played_text)
        loss = max(0.0, float(loss))
        per_seat[seat]["error_total"] += loss
        best = played_text if loss == 0.0 else result.best  # the played move, when it ties the best
        decisions.append({"turn": turn, "seat": seat, "played": played_text, "best": best,
                          "loss": round(loss, 6), "loss_low": round(float(low), 6),
                          "loss_high": round(float(high), 6), "mark": mark_of(loss, float(low))})
    lucky, luck_note = _record_luck(game, module, record, opponents, int(seed)) if luck else ({}, "not asked for")
    out_seats = []
    for s in wanted:
        row = per_seat[s]
        rate = row["error_total"] / row["unforced"] if row["unforced"] else 0.0
        result, seat_luck, adjusted = (round(float(x), 6) for x in lucky[s]) if s in lucky else (None,) * 3
        out_seats.append({"seat": s, "decisions": row["decisions"], "unforced": row["unforced"],
                          "error_total": round(row["error_total"], 6), "error_rate": round(rate, 6),
                          "rating": rating_of(rate), "result": result, "luck": seat_luck,
                          "adjusted": adjusted})
    return Review(game, decisions, out_seats, time.perf_counter() - start, luck_note)


def _canon(module: Any, move: str, pos: Any) -> tuple[int, ...]:
    return tuple(module.parse_move(move, pos.decision))


def positions_of_trace(events: Any) -> list[Any]:
    """Every decision of a traced game (``mc.trace``) as its seat's position."""
    info = events.attrs.get("position_info") or {}
    if "game" not in info:
        raise InputError("positions: this frame is not a trace made by mc.trace")
    module = games.positions(info["game"])
    return module.positions_of_trace(events, info["players"], info.get("params"))


def record_of_trace(events: Any, seat: int | None = None) -> dict[str, Any]:
    """A traced game (``mc.trace``) as a review record: its deal and every decision; ``seat``:
    only what that seat knew (a game's ``seat_record_of_trace``)."""
    info = events.attrs.get("position_info") or {}
    if "game" not in info:
        raise InputError("record: this frame is not a trace made by mc.trace")
    module = games.positions(info["game"])
    if seat is None:
        return module.record_of_trace(events, info["players"], info.get("params"))
    if not hasattr(module, "seat_record_of_trace"):
        raise InputError(f"record: {info['game']} writes no one-seat record from a trace (write it by hand: "
                         "docs/positions.md)")
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < info["players"]:
        raise InputError(f"record: seat must be 0..{info['players'] - 1}, got {seat!r}")
    return module.seat_record_of_trace(events, info["players"], info.get("params"), int(seat))


def state(game: str, position: Any = None, seed: int = 0, deck: Sequence[str] | None = None,
          players: int | None = None, params: dict[str, Any] | None = None) -> Any:
    """A full game to step through (``legal_moves()``, ``apply(move)``, ``observe(seat)``,
    ``clone()``, ``is_terminal``, ``result``): a position with its unseen cards dealt from
    ``seed``, or an explicit deck order (top first) for ``players``."""
    module = games.positions(game)
    if position is not None and not isinstance(position, (dict, module.Position)):
        position = read_position_text(position)
    return module.state(position, seed=seed, deck=deck, players=players, params=params)


def as_trace(events: Any, game: str, players: int, params: dict[str, Any] | None) -> Any:
    """``mc.trace``'s frame as a :class:`~montecards.analysis.trace_frame.Trace`, whose
    ``positions()`` gives every decision as a position."""
    from montecards.analysis.trace_frame import Trace

    out = Trace(events)
    out.attrs.update(events.attrs)
    out.attrs["position_info"] = {"game": game, "players": players, "params": dict(params or {})}
    return out

"""How much the deal decides: every deal played K times with independent later draws
(docs/luck.md, "The deal's share").

Each deal (game index ``d`` of the run's seed) is replayed ``replays`` times through the
engine's deal option (``engine.options``: the deal from the game's streams of ``(seed, d)``,
every later draw and choice from streams of ``(seed, d, k)``). The outcome of a seat is its win
share. Its variance splits into a between-deal part (how much the deal moves the expected
result) and a within-deal part (everything drawn later, and the players' own random choices):

    within  = mean over deals of the sample variance over the K replays (ddof 1)
    between = Var(deal means) - within / K        (unbiased; clipped at 0, and said so)
    deal's share = between / (between + within)

pooled over the seats (sums of the seats' parts). The interval is a percentile bootstrap over
deals (a deal and its replays are one unit). Beside it, the spread of the per-deal win rates
of the first seat, as Goodman, Perez-Liébana and Lucas (2025, "Seeding for success") read
it: span, trimmed span, entropy, each next to what K replays of deals that decide nothing
would show.

:class:`LuckResult` also carries the value-based figures (``luck_share``, ``drift_share``:
``analysis.ledger.luck_shares`` over at most :data:`LEDGER_GAMES` games with the luck ledger)
where the game has a value fitted for the lineup and player count (docs/luck.md lists the value
files: Parade, Gift of Tulips, Wig Out!, Anomia), under the official rules; elsewhere they stay
None, and are neither printed nor written. ``error_per_decision`` (``decision_games``, ``luck
--decisions``): each strategy's error per unforced decision by the value on the seat's
information set (``analysis.quality``), where the game has positions and a value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from montecards import games
from montecards.analysis.runs import check_count, setup, timed, with_backend
from montecards.engine.spec import WIN_UNIT, InputError
from montecards.engine.user_strategies import as_labels
from montecards.run.runner import progress_bar

DEFAULT_DEALS = 4_000
DEFAULT_REPLAYS = 8
BOOTSTRAP = 1_000
TRIM = 0.05
"""The trimmed span leaves out this share of the deals at each end."""


# --------------------------------------------------------------------------- the estimator


def variance_components(y: np.ndarray) -> dict[str, float]:
    """Between- and within-deal variance of outcomes ``y`` (deals x replays, or deals x
    replays x seats: the seats' parts are summed), by the unbiased one-way estimator (module
    docstring). Returns ``between`` (clipped at 0), ``within``, ``share`` and ``clipped``
    (True when the raw between part was negative and set to 0)."""
    y = np.asarray(y, dtype=np.float64)
    if y.ndim == 2:
        y = y[:, :, None]
    deals, k = y.shape[0], y.shape[1]
    if deals < 2 or k < 2:
        raise InputError(f"the variance split needs at least 2 deals and 2 replays, got {deals} and {k}")
    means = y.mean(axis=1)
    within = float(y.var(axis=1, ddof=1).mean(axis=0).sum())
    raw = float(means.var(axis=0, ddof=1).sum()) - within / k
    between = max(raw, 0.0)
    total = between + within
    return {"between": between, "within": within, "share": between / total if total > 0 else 0.0,
            "clipped": raw < 0}


def bootstrap_share(y: np.ndarray, resamples: int = BOOTSTRAP, seed: int = 0,
                    level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of :func:`variance_components`' share, resampling deals."""
    y = np.asarray(y, dtype=np.float64)
    if y.ndim == 2:
        y = y[:, :, None]
    deals, k = y.shape[0], y.shape[1]
    means = y.mean(axis=1)  # deals x seats
    variances = y.var(axis=1, ddof=1)  # deals x seats
    rng = np.random.default_rng(seed)
    shares = np.empty(resamples)
    step = max(1, 4_000_000 // max(deals * means.shape[1], 1))
    for lo in range(0, resamples, step):
        hi = min(resamples, lo + step)
        idx = rng.integers(0, deals, size=(hi - lo, deals))
        within = variances[idx].mean(axis=1).sum(axis=-1)
        between = np.maximum(means[idx].var(axis=1, ddof=1).sum(axis=-1) - within / k, 0.0)
        total = between + within
        shares[lo:hi] = np.where(total > 0, between / np.where(total > 0, total, 1.0), 0.0)
    tail = (1 - level) / 2
    low, high = np.quantile(shares, [tail, 1 - tail])
    return float(low), float(high)


def spread(rates: np.ndarray, replays: int) -> dict[str, float]:
    """The spread of per-deal win rates (one seat's, one rate per deal over ``replays``):
    ``span`` (max - min), ``trimmed_span`` (the 95th minus the 5th percentile) and
    ``entropy`` (Shannon, in bits, of the rates binned into the ``replays + 1`` values
    0, 1/K, ..., 1 a whole-win rate can take)."""
    rates = np.asarray(rates, dtype=np.float64)
    counts = np.bincount(np.clip(np.rint(rates * replays), 0, replays).astype(np.int64),
                         minlength=replays + 1)
    p = counts[counts > 0] / counts.sum()
    low, high = np.quantile(rates, [TRIM, 1 - TRIM])
    return {"span": float(rates.max() - rates.min()), "trimmed_span": float(high - low),
            "entropy": float(-(p * np.log2(p)).sum())}


def null_spread(mean: float, deals: int, replays: int, seed: int = 0, repeats: int = 20) -> dict[str, float]:
    """:func:`spread` expected when the deal decides nothing: every deal's K replays are K
    independent games won with probability ``mean`` (averaged over ``repeats`` draws)."""
    rng = np.random.default_rng(seed)
    draws = [spread(rng.binomial(replays, min(max(mean, 0.0), 1.0), size=deals) / replays, replays)
             for _ in range(repeats)]
    return {key: float(np.mean([d[key] for d in draws])) for key in draws[0]}


# --------------------------------------------------------------------------- the result


@dataclass
class LuckResult:
    """How much the deal decides, for one game, player count and lineup (:func:`luck`).

    ``outcomes``: the win shares, deals x replays x seats. ``luck_share``, ``drift_share``
    (each ``(share, low, high)``) and ``error_per_decision`` (per strategy) are the value
    function's figures (issue 30): None until computed, and then neither printed nor written."""

    game: str
    title: str
    players: int
    strategies: list[str]
    seed: int
    deals: int
    replays: int
    outcomes: np.ndarray = field(repr=False)
    deal_share: float = 0.0
    deal_share_low: float = 0.0
    deal_share_high: float = 0.0
    between: float = 0.0
    within: float = 0.0
    clipped: bool = False
    spread: dict[str, float] = field(default_factory=dict)
    spread_null: dict[str, float] = field(default_factory=dict)
    elapsed_seconds: float = 0.0
    luck_share: tuple[float, float, float] | None = None
    drift_share: tuple[float, float, float] | None = None
    error_per_decision: dict[str, dict[str, Any]] | None = None
    """Per strategy ``{"error", "error_low", "error_high", "unforced", "decisions"}``
    (``analysis.quality.decision_errors``), or None when not asked for."""
    decision_note: str = ""
    versus: dict[str, Any] | None = None
    """With two strategies named (``versus``): how often the weaker wins, and, where the luck
    ledger serves, the stronger's luck-adjusted margin (:func:`versus_figures`)."""

    @property
    def deal_rates(self) -> np.ndarray:
        """Per deal, each seat's win rate over the replays (deals x seats)."""
        return self.outcomes.mean(axis=1)

    @property
    def n_games(self) -> int:
        return self.deals * self.replays

    def findings(self) -> list[str]:
        """Plain sentences for the text output."""
        out = [
            f"The deal decides {100 * self.deal_share:.1f} % of the variance of a seat's result "
            f"(95 % interval {100 * self.deal_share_low:.1f} - {100 * self.deal_share_high:.1f} %; "
            f"{self.deals:,} deals x {self.replays} replays, {self.players} players, "
            f"{', '.join(self.strategies)})."
        ]
        if self.clipped:
            out.append("The between-deal estimate came out negative and was clipped to 0: no deal "
                       "effect detectable at this many deals.")
        s, z = self.spread, self.spread_null
        out.append(
            f"Per-deal win rates of seat 1: span {s['span']:.2f} (trimmed {s['trimmed_span']:.2f}), "
            f"entropy {s['entropy']:.2f} bits; if the deal decided nothing: span {z['span']:.2f} "
            f"(trimmed {z['trimmed_span']:.2f}), entropy {z['entropy']:.2f} bits."
        )
        if self.luck_share is not None:
            out.append(f"Luck share {100 * self.luck_share[0]:.1f} % "
                       f"({100 * self.luck_share[1]:.1f} - {100 * self.luck_share[2]:.1f} %).")
        if self.drift_share is not None:
            out.append(f"Drift share {100 * self.drift_share[0]:.1f} % "
                       f"({100 * self.drift_share[1]:.1f} - {100 * self.drift_share[2]:.1f} %).")
        if self.error_per_decision is not None:
            out.append(self.decision_note)
        if self.versus is not None:
            out += versus_sentences(self.versus)
        return out

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "analysis": "luck",
            "players": self.players,
            "strategies": list(self.strategies),
            "seed": self.seed,
            "deals": self.deals,
            "replays": self.replays,
            "n_games": self.n_games,
            "deal_share": self.deal_share,
            "deal_share_low": self.deal_share_low,
            "deal_share_high": self.deal_share_high,
            "deal_share_clipped": self.clipped,
            "between_variance": self.between,
            "within_variance": self.within,
            "deal_win_rate_span": self.spread["span"],
            "deal_win_rate_trimmed_span": self.spread["trimmed_span"],
            "deal_win_rate_entropy": self.spread["entropy"],
            "null_win_rate_span": self.spread_null["span"],
            "null_win_rate_trimmed_span": self.spread_null["trimmed_span"],
            "null_win_rate_entropy": self.spread_null["entropy"],
            "elapsed_seconds": self.elapsed_seconds,
        }
        for name in ("luck_share", "drift_share"):
            value = getattr(self, name)
            if value is not None:
                out[name], out[f"{name}_low"], out[f"{name}_high"] = value
        if self.error_per_decision is not None:
            out["error_per_decision"] = dict(self.error_per_decision)
        if self.versus is not None:
            out["versus"] = dict(self.versus)
        return out

    @property
    def plot(self):
        from montecards.plots import LuckPlots

        return LuckPlots(self)

    def __repr__(self) -> str:
        return (f"LuckResult({self.game}, players={self.players}, deal_share={self.deal_share:.3f} "
                f"[{self.deal_share_low:.3f}, {self.deal_share_high:.3f}])")


# --------------------------------------------------------------------------- the analysis


@with_backend
def luck(
    game: str,
    players: int | None = None,
    strategies: Sequence[str] | str | None = None,
    deals: int = DEFAULT_DEALS,
    replays: int = DEFAULT_REPLAYS,
    params: dict[str, Any] | None = None,
    seed: int | None = None,
    jobs: int | None = None,
    progress: bool | None = None,
    strategy_params: Any = None,
    versus: Sequence[str] | str | None = None,
    decision_games: int = 0,
) -> LuckResult:
    """The deal's share of the outcome variance (module docstring; docs/luck.md).

    ``deals`` deals, each played ``replays`` (>= 2) times with independent later draws;
    ``strategies``: one for every seat (default ``greedy``, or the game's default where it has
    no ``greedy``: Anomia) or one per seat; ``players``: the
    game's default when None. ``progress``: a bar on stderr (None: when it is a terminal).

    ``versus``: two strategies (``("greedy", "random")``): also
    ``result.versus`` (:func:`versus_figures`), from their matchup on ``deals`` deals, each
    played in every seat rotation: how often the weaker wins (raw, with its interval), and
    where the luck ledger serves (Parade, 2 players, the official rules, built-in strategies)
    the stronger's luck-adjusted win share and margin over the fair share.

    ``decision_games``: also rate every decision of that many games by the value on the seat's
    information set (``analysis.quality``; the official rules, a game with positions and a value
    for the lineup): ``result.error_per_decision``. 0: not measured."""
    deals = check_count("deals", deals, 2)
    if decision_games and params:
        raise InputError("--decisions rates decisions under the official rules only (the value is fitted there)")
    replays = check_count("replays", replays, 2)
    spec = games.get(game)
    spec.check_deal((0, 0), 2)  # a game without the deal option: one line
    pair = _versus_pair(spec, versus)
    if strategies is None:  # greedy where the game has it (Anomia's only strategy is its default)
        strategies = "greedy" if "greedy" in spec.strategies else None
    else:
        strategies = as_labels(strategies)
    base = setup(game, players, strategies, params, seed, jobs, strategy_params)
    width = base.layout.players
    win = base.layout.seat_slice("win")
    outcomes = np.empty((deals, replays, width))
    advance = progress_bar(deals * replays, progress)

    def play() -> None:
        for k in range(replays):
            run = replace(base, config=replace(base.config, deal=(k, 0)), _warm=False)
            _, rows = run.play(0, deals, keep=True, advance=advance)
            outcomes[:, k, :] = rows[:, win] / WIN_UNIT

    _, elapsed = timed(play)
    parts = variance_components(outcomes)
    low, high = bootstrap_share(outcomes, seed=base.seed & 0xFFFFFFFF)
    rates = outcomes[:, :, 0].mean(axis=1)
    shares = _ledger_shares(spec, base, params, strategy_params, min(deals * replays, LEDGER_GAMES))
    both = None if pair is None else versus_figures(spec.name, pair, base.players, deals, params, base.seed,
                                                     jobs)
    quality = None
    if decision_games:
        from montecards.analysis.quality import decision_errors, error_sentence

        if strategy_params:
            raise InputError("--decisions rates built-in strategies as given (no --strategy-param)")
        quality = decision_errors(spec.name, base.players, list(base.strategies),
                                  n=check_count("decision_games", decision_games, 1), seed=base.seed)
    return LuckResult(
        game=spec.name, title=spec.title, players=base.players, strategies=list(base.strategies),
        seed=base.seed, deals=deals, replays=replays, outcomes=outcomes,
        deal_share=parts["share"], deal_share_low=low, deal_share_high=high,
        between=parts["between"], within=parts["within"], clipped=parts["clipped"],
        spread=spread(rates, replays), spread_null=null_spread(float(rates.mean()), deals, replays),
        elapsed_seconds=elapsed,
        luck_share=None if shares is None else _triple(shares, "luck_share"),
        drift_share=None if shares is None else _triple(shares, "drift_share"),
        versus=both,
        error_per_decision=None if quality is None else quality["errors"],
        decision_note="" if quality is None else error_sentence(quality) + f" Value: {quality['value']}.",
    )


LEDGER_GAMES = 20_000
"""At most this many games played with the luck ledger for the luck and drift shares."""


def _triple(shares: dict[str, Any], name: str) -> tuple[float, float, float]:
    return float(shares[name]), float(shares[f"{name}_low"]), float(shares[f"{name}_high"])


def _ledger_shares(spec, base, params, strategy_params, n: int) -> dict[str, Any] | None:
    """The luck and drift shares (``analysis.ledger.luck_shares``) where the game has a fitted
    value for this lineup and player count, and its ledger is exact under ``params``
    (``LEDGER_RULES``), else None (not printed, not written). The error per decision is not
    measured yet (it stays None)."""
    from montecards.analysis.runs import rules_beyond_ledger

    if spec.value is None or strategy_params or base.config.user:
        return None
    if params and rules_beyond_ledger(spec, base.players, spec.resolve_params(base.players, params)):
        return None
    from montecards.analysis.ledger import luck_shares

    try:
        return luck_shares(spec.name, base.players, list(base.strategies), n=n, seed=base.seed,
                           jobs=base.jobs, params=params)
    except InputError:  # no value fitted for this lineup or player count
        return None


# --------------------------------------------------------------------------- two strategies


def _versus_pair(spec, versus: Sequence[str] | str | None) -> tuple[str, str] | None:
    """``versus`` as two different strategy names (``"a,b"`` or a pair), or None."""
    if versus is None:
        return None
    if isinstance(versus, str):
        raise InputError(f"versus takes two strategies as a list, e.g. ['greedy', 'random'], got {versus!r}")
    names = as_labels(list(versus))
    if len(names) != 2 or names[0] == names[1]:
        raise InputError(f"versus takes two different strategies (e.g. greedy,random), got "
                         f"{', '.join(map(str, names)) or 'none'}")
    return names[0], names[1]


def versus_figures(game: str, pair: tuple[str, str], players: int, deals: int,
                   params: dict[str, Any] | None = None, seed: int | None = None,
                   jobs: int | None = None) -> dict[str, Any]:
    """How often the weaker of two strategies wins, and how much the stronger wins on
    luck-adjusted results (issue 30, point 3; docs/luck.md).

    The two play their matchup (``analysis.matchups``: one seat of one against ``players - 1``
    of the other, every deal in every seat rotation on the same deck; at more than 2 players
    both ways round). The weaker is the one whose paired head-to-head result is below 0 (at 2
    players: whose share is below 1/2). ``weaker_win_share`` is its share as one seat among the
    stronger's, with its 95 % interval over deals; ``stronger_win_share`` the stronger's as one
    seat among the weaker's; ``settled``: the head-to-head interval excludes 0. Where the luck ledger serves this matchup (a value for the game and
    player count, the official rules), the same games are played with it and
    ``stronger_win_share_adjusted`` (``_low``, ``_high``), ``stronger_margin_adjusted`` (the
    adjusted share minus the fair share 1/players, with its interval), ``variance_ratio`` and
    ``value`` are added; elsewhere ``luck`` is False, they are absent, and ``luck_refused`` says why."""
    from montecards.analysis.matchups import matchups
    from montecards.analysis.runs import prepare

    try:  # the ledger's own checks: a value for the game and count, official rules, built-ins
        for lineup in ([pair[0]] + [pair[1]] * (players - 1), [pair[1]] + [pair[0]] * (players - 1)):
            prepare(game, players, lineup, params, 0, None, luck=True)
        serves, why = True, ""
    except InputError as exc:
        serves, why = False, str(exc)
    res = matchups(game, list(pair), players=players, n=deals, params=params, seed=seed, jobs=jobs,
                   luck=serves)
    table = res.table().set_index(["strategy", "opponent"])
    a, b = pair
    # the paired head-to-head result (at 2 players 2 * share - 1): its sign says which is weaker
    diff, low, high = res.head_to_head()[(a, b)]
    strong, weak = (a, b) if diff >= 0 else (b, a)
    weak_row, strong_row = table.loc[(weak, strong)], table.loc[(strong, weak)]
    fair = 1.0 / players
    out: dict[str, Any] = {
        "strategies": [a, b], "weaker": weak, "stronger": strong, "players": players, "deals": deals,
        "games": int(weak_row["games"]), "fair_share": fair,
        "weaker_win_share": float(weak_row["win_share"]), "weaker_win_share_low": float(weak_row["low"]),
        "weaker_win_share_high": float(weak_row["high"]),
        "stronger_win_share": float(strong_row["win_share"]),
        "stronger_win_share_low": float(strong_row["low"]), "stronger_win_share_high": float(strong_row["high"]),
        "settled": bool(low > 0 or high < 0),
        "luck": serves,
        **({} if serves else {"luck_refused": why}),
    }
    if serves:
        share = float(strong_row["win_share_adjusted"])
        low, high = float(strong_row["win_share_adjusted_low"]), float(strong_row["win_share_adjusted_high"])
        out.update({
            "stronger_win_share_adjusted": share, "stronger_win_share_adjusted_low": low,
            "stronger_win_share_adjusted_high": high, "stronger_margin_adjusted": share - fair,
            "stronger_margin_adjusted_low": low - fair, "stronger_margin_adjusted_high": high - fair,
            "variance_ratio": float(strong_row["variance_ratio"]), "value": res.value,
        })
    return out


def versus_sentences(v: dict[str, Any]) -> list[str]:
    """:func:`versus_figures` in words."""
    def pct(key: str) -> str:
        return (f"{100 * v[key]:.1f} % ({100 * v[key + '_low']:.1f} - {100 * v[key + '_high']:.1f} %)")

    among = "against" if v["players"] == 2 else f"as one seat among {v['players'] - 1}"
    out = [f"{v['weaker']} (the weaker) wins {pct('weaker_win_share')} of its games {among} "
           f"{v['stronger']} (fair share {100 * v['fair_share']:.1f} %; {v['deals']:,} deals in every "
           "seat rotation)."]
    if not v["settled"]:
        out.append("The two are not told apart at this many deals: which is weaker is not settled.")
    if v["luck"]:
        out.append(f"Luck-adjusted, {v['stronger']} wins {pct('stronger_win_share_adjusted')}: a margin of "
                   f"{100 * v['stronger_margin_adjusted']:+.1f} pp ({100 * v['stronger_margin_adjusted_low']:+.1f}"
                   f" to {100 * v['stronger_margin_adjusted_high']:+.1f}) over the fair share (raw "
                   f"{100 * (v['stronger_win_share'] - v['fair_share']):+.1f} pp; variance ratio "
                   f"{v['variance_ratio']:.2f}).")
    else:
        out.append(f"No luck-adjusted margin: the luck ledger cannot serve this matchup ({v['luck_refused']}).")
    return out

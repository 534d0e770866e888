"""The "Rules a designer could change" section (issue 33, point 4), shared by every report.

A recipe names the imbalances its own runs found (:class:`Imbalance`: a sentence with the
report's numbers and intervals, built with :func:`seat_imbalance` for a seat's win share) and,
for each, the rule parameters that could remedy it. :func:`designer_section` then runs the
rules search (``analysis.balance``: successive halving on common random numbers over the
listed values, the finalists and the official rules replayed on held-out deals) and writes,
per imbalance:

* the imbalance, from the report's own numbers;
* the variants' table (best first; held-out numbers for the finalists, the search's for the
  rest), every seat spread and metric with its 95 % interval;
* the held-out check of the winner against the official rules;
* a one-line verdict: the *smallest* change among the held-out finalists that meets every
  target within its interval (fewest rules changed, then the smallest relative change), or
  "none in the searched space";
* what the search can see: the 95 % half-width of a seat's share at the search's last round
  (an imbalance smaller than that is invisible to the ranking).

"Meets a target" on held-out deals: ``fair``, every seat's Wilson interval holds 1/players;
``first_seat``, the first seat's does; ``METRIC<=y`` / ``>=x``, the mean's whole 95 % interval
is on the right side; ``length=a:b``, the mean within [a, b]; ``balance>=x`` / ``ties<=y``, the
penalty is 0. The section's words are not verdict words (``report/verdicts.py``) except through
:func:`~montecards.report.verdicts.claim`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from montecards.report.base import Report, pm, rate, timed
from montecards.report.strengths import SEAT_MARGIN
from montecards.report.verdicts import Estimate, claim


@dataclass
class Imbalance:
    """One imbalance a report found and the search for its remedy.

    ``found``: the sentence naming it, with the report's numbers and intervals; ``vary``: the
    rule parameters and the values to search (``analysis.balance``'s ``vary``); ``targets``:
    what a remedy meets; ``n`` / ``budget`` / ``held_out`` / ``keep``: the search's sizes (the
    first round's games per variant and player count, the most games a variant plays in the
    search, the held-out games per finalist and player count, the finalists);
    ``strategy``: the strength every seat plays (the game's default strategy unless given)."""

    name: str
    found: str
    players: Sequence[int]
    vary: Mapping[str, Sequence[Any]]
    targets: Sequence[str] = ("fair",)
    n: int = 2_000
    budget: int = 16_000
    held_out: int = 20_000
    keep: int = 3
    strategy: str | None = None  # None: the game's default strategy (greedy where it has one)
    params: Mapping[str, Any] = field(default_factory=dict)
    why: str = ""


def seat_imbalance(sa: Any, players: int, seat: int | None = None, n_note: bool = True) -> str:
    """The sentence for a seat's win share in the report's seat runs ``sa``
    (``seat_advantage``'s result) at ``players``: seat ``seat`` (from 0; the first by default),
    with its interval and its verdict against the fair share (``claim``)."""
    res = sa.results[players]
    k = 0 if seat is None else seat
    share = float(res.win_share[k])
    low, high = (float(x) for x in res.win_share_ci95[k])
    fair = 1 / players
    est = Estimate(share, low, high, res.n_games, null=fair, margin=SEAT_MARGIN)
    verdict = claim(est, up="an advantage", down="a disadvantage",
                    none=f"no effect beyond ±{100 * SEAT_MARGIN:g} pp")
    games = f", {res.n_games:,} games" if n_note else ""
    return (f"at {players} players seat {k + 1} wins {rate(share, low, high)} "
            f"(fair {100 * fair:.1f} %{games}): {verdict}")


def worst_seat(sa: Any, players: int) -> int:
    """The seat (from 0) with the lowest win share in the seat runs at ``players``."""
    shares = list(sa.results[players].win_share)
    return min(range(players), key=lambda k: shares[k])


def designer_section(rep: Report, imbalances: Sequence[Imbalance], intro: str = "") -> list[Any]:
    """The section: for each imbalance, the search, its table, the held-out check and the
    verdict (see the module). Returns the ``BalanceResult`` of each search."""
    from montecards.analysis import balance

    rep.section(
        "Rules a designer could change",
        "Each imbalance the runs above found, and a search for the smallest rule change that removes "
        "it (`montecards balance`, [docs/balance.md](../../docs/balance.md)): every variant of the "
        "listed rules is played on the same deals (common random numbers); successive halving keeps "
        "the better half until a few finalists remain; the finalists and the official rules are then "
        "replayed on held-out deals (a seed the search never saw), and only those numbers decide. "
        "A remedy must meet every target within its 95 % interval on the held-out deals (fair: every "
        "seat's interval holds the fair share); among those, the verdict names the smallest change "
        "(fewest rules changed, then the smallest relative change). " + intro,
    )
    results = []
    for k, imb in enumerate(imbalances, 1):
        if imb.strategy is None:
            imb = replace(imb, strategy=rep.spec.default_strategy)
        vary = {name: list(values) for name, values in imb.vary.items()}
        count = 1
        for values in vary.values():
            count *= len(values)
        n = rep.n(imb.n, 100)
        budget = rep.n(imb.budget, 200)
        held = rep.n(imb.held_out, 200)
        counts = list(imb.players)
        what = f"rules search: {imb.name} ({imb.strategy}, {count} variants)"
        size = (f"{n:,} per variant and player count, halving to {budget:,}; {held:,} held out × "
                f"{len(counts)} player count{'s' if len(counts) > 1 else ''}")
        res = timed(rep, what, size, lambda imb=imb, vary=vary, n=n, budget=budget, held=held, counts=counts:
                    balance(rep.game, vary, targets=list(imb.targets), players=counts, strategies=imb.strategy,
                            params=dict(imb.params) or None, n=n, budget=budget, keep=imb.keep,
                            held_out=held, seed=rep.seed, jobs=rep.jobs))
        results.append(res)
        checks = _smaller_checks(rep, imb, res, n, held)
        _write_one(rep, k, imb, res, checks, n, budget, held)
    return results


SMALLER_CHECKS = 2
"""At most this many smaller changes than the finalists' remedy are replayed on held-out deals."""


def _official(rep: Report, res: Any) -> dict[str, Any]:
    return {name: rep.spec.param(name).default_for(res.players[0]) for name in res.vary}


def _smaller_checks(rep: Report, imb: Imbalance, res: Any, n: int, held: int) -> list[Any]:
    """The smallest change the search can see: halving keeps the variants with the best
    scores, not the smallest changes, so a variant that changes fewer rules than the finalists'
    remedy (or any, when no finalist is one) and met every target within its interval on the
    search's deals is replayed on the held-out deals too (at most ``SMALLER_CHECKS``, smallest
    first). Returns those variants, with their held-out numbers."""
    from montecards.analysis import balance

    base = next(v for v in res.variants if v.label == res.baseline)
    if _meets(res, base, held_out=True):
        return []
    official = _official(rep, res)
    remedies = [v for v in res.variants if v.held_out is not None and v is not base and _meets(res, v, True)]
    bound = min((_change(v.params, official) for v in remedies), default=(len(res.vary) + 1, 0.0))
    candidates = sorted((v for v in res.variants if v.held_out is None and v.metrics and _meets(res, v, False)
                         and _change(v.params, official) < bound),
                        key=lambda v: (*_change(v.params, official), v.score))[:SMALLER_CHECKS]
    checked = []
    for v in candidates:
        got = timed(rep, f"rules search: {imb.name}, held-out check of {v.label}",
                    f"{held:,} held out × {len(res.players)} player count{'s' if len(res.players) > 1 else ''}",
                    lambda v=v: balance(rep.game, {k: [x] for k, x in v.params.items()}, targets=list(imb.targets),
                                        players=res.players, strategies=imb.strategy,
                                        params=dict(imb.params) or None, n=n, budget=n, keep=1, held_out=held,
                                        seed=rep.seed, jobs=rep.jobs))
        checked.append(next(x for x in got.variants if x.label == v.label))
    return checked


def _write_one(rep: Report, k: int, imb: Imbalance, res: Any, checks: list[Any], n: int, budget: int,
               held: int) -> None:
    counts = res.players
    rep.text(f"### {k}. {imb.name[0].upper() + imb.name[1:]}\n\n**Found:** {imb.found}." + (
        f" {imb.why}" if imb.why else ""))
    space = "; ".join(f"`{name}` ∈ {{{', '.join(_value(v) for v in values)}}}"
                      for name, values in res.vary.items())
    rounds = ", ".join(f"{r['variants']} × {r['games']:,}" for r in res.rounds)
    rep.text(
        f"**Search:** {space} ({len(res.variants) - (res.baseline == 'official rules')} variants) at "
        f"{', '.join(map(str, counts))} players, `{imb.strategy}` in every seat, targets "
        f"{', '.join(f'`{t.text}`' for t in res.targets)}; rounds (variants × games per player count): "
        f"{rounds}; {held:,} held-out games per finalist and player count (seed {res.held_out_seed}). "
        f"`montecards balance {rep.game} " + " ".join(f"-p {p}" for p in counts)
        + " " + " ".join(f"--vary {name}={'/'.join(_value(v) for v in values)}" for name, values in res.vary.items())
        + " " + " ".join(f"--target '{t.text}'" for t in res.targets)
        + f" -s {imb.strategy} -n {n} --budget {budget} --held-out {held} --keep {imb.keep} --seed {res.seed}`"
        + " reproduces it."
    )
    rep.text("The variants, best first: held-out numbers for the finalists, the search's last round for the "
             "others; 95 % intervals in brackets; the seat spread is the best seat's share minus the worst's "
             "(its interval: their paired per-game difference), ✓ when every seat's interval holds the fair "
             "share; length in the game's turns.")
    rep.table(_variant_table(res), digits=3, index=False)
    base = next(v for v in res.variants if v.label == res.baseline)
    finalists = [v for v in res.variants if v.held_out is not None]
    meeting = [v for v in finalists + checks if v is not base and _meets(res, v, True)]
    for v in [res.best] + ([base] if base is not res.best else []):
        who = "Official rules" if v is base else f"Best on held-out deals, `{v.label}`"
        rep.finding(f"{who}: " + _held_out_text(res, v) + ".")
    for v in checks:
        rep.finding(f"Checked on the held-out deals too, `{v.label}` (a smaller change than the finalists' that met "
                    "every target on the search's deals): " + _held_out_text(res, v) + ".")
    rep.end_list()
    resolution = _resolution(res)
    checked = (f" and the {len(checks)} smaller change{'s' if len(checks) > 1 else ''} checked on the same deals"
               if checks else "")
    smallest = None
    if _meets(res, base, True):
        verdict = (f"**Verdict ({imb.name}):** the official rules already meet every target within its interval "
                   f"on {held:,} held-out deals per player count: at this size the imbalance is not told apart "
                   "from noise, so no change is called for" + (f" (finalists that also meet them: "
                                                               f"{', '.join(f'`{v.label}`' for v in meeting)})"
                                                               if meeting else "") + ".")
    elif meeting:
        official = _official(rep, res)
        smallest = min(meeting, key=lambda v: (*_change(v.params, official), v.held_out["score"]))
        others = [v.label for v in meeting if v is not smallest]
        verdict = (f"**Verdict ({imb.name}):** remedy `{smallest.label}` — it meets every target within its "
                   f"interval on {held:,} held-out deals per player count, and is the smallest change that does "
                   f"among the {len(finalists) - 1} finalist(s){checked}"
                   + (f" (also: {', '.join(f'`{o}`' for o in others)})" if others else "") + "; a game lasts "
                   + ", ".join(f"{m['length']:.1f} turns at {p} players (official {base.held_out['metrics'][p]['length']:.1f})"
                               for p, m in sorted(smallest.held_out["metrics"].items())) + ".")
    else:
        also = f" (nor any of the {len(checks)} smaller changes checked on them)" if checks else ""
        verdict = (f"**Verdict ({imb.name}):** none in the searched space: no finalist{also} "
                   f"meets every target within its interval on {held:,} held-out deals per player count "
                   f"(closest: `{res.best.label}`).")
    rep.text(verdict + " " + resolution)
    rep.finding(verdict.replace("**", ""), in_section=False)
    rep.facts.setdefault("designer", []).append({
        "imbalance": imb.name, "players": counts, "strategy": imb.strategy, "best": res.best.label,
        "remedy": smallest.label if smallest is not None else None, "searched": {k: [_value(v) for v in vs]
                                                                   for k, vs in res.vary.items()}})


def _value(v: Any) -> str:
    from montecards.analysis.balance import variant_label

    return variant_label({"x": v})[2:]


def _change(params: Mapping[str, Any], official: Mapping[str, Any]) -> tuple[int, float]:
    """How big a change ``params`` is from the official rules: the rules changed, and the sum
    of their relative changes (list values element by element)."""
    import numpy as np

    changed, size = 0, 0.0
    for name, value in params.items():
        a = np.asarray(value, dtype=float).ravel() if not isinstance(value, str) else None
        b = np.asarray(official[name], dtype=float).ravel() if not isinstance(official[name], str) else None
        if a is None or b is None or a.shape != b.shape:
            if str(value) != str(official[name]):
                changed, size = changed + 1, size + 1.0
            continue
        if not np.array_equal(a, b):
            changed += 1
            size += float(np.sum(np.abs(a - b)) / max(float(np.sum(np.abs(b))), 1.0))
    return changed, size


def _meets(res: Any, v: Any, held_out: bool) -> bool:
    """Every target met within its interval on the held-out deals (``held_out``) or at the
    search's last round (see the module)."""
    for m in (v.held_out["metrics"] if held_out else v.metrics).values():
        fair = 1 / m["players"]
        for t in res.targets:
            if t.name == "fair" and not m["fair_within_interval"]:
                return False
            if t.name == "first_seat" and not (m["first_seat_low"] <= fair <= m["first_seat_high"]):
                return False
            if t.name == "length" and not (t.low <= m["length"] <= t.high):
                return False
            if t.name in ("balance", "ties") and t.penalty(m) > 0:
                return False
            if t.name in m.get("means", {}):
                low, high = m["means_interval"][t.name]
                if (t.high is not None and high > t.high) or (t.low is not None and low < t.low):
                    return False
    return True


def _own(res: Any) -> list[str]:
    """The game's own quantities the targets name (deadlocks, ...)."""
    return [t.name for t in res.targets if t.name not in ("fair", "first_seat", "balance", "length", "ties")]


def _held_out_text(res: Any, v: Any) -> str:
    parts = []
    for p, m in sorted(v.held_out["metrics"].items()):
        worst = min(range(p), key=lambda s: m["win_share"][s])
        text = (f"{p} players: seat 1 {rate(m['first_seat'], m['first_seat_low'], m['first_seat_high'])}, "
                f"lowest seat {worst + 1} {rate(m['win_share'][worst], m['win_share_low'][worst], m['win_share_high'][worst])} "
                f"(fair {100 / p:.1f} %), seat spread {100 * m['spread']:.1f} "
                f"{pm(m['spread_low'], m['spread_high'], 1, unit=' pp')}"
                + (", every seat's interval holds the fair share" if m["fair_within_interval"] else "")
                + f", {m['length']:.1f} {pm(m['length_low'], m['length_high'], 1, 1)} turns")
        for q in _own(res):
            low, high = m["means_interval"][q]
            text += f", {q} {m['means'][q]:.3f} {pm(low, high, 3, 1)} per game"
        parts.append(text)
    return f"on {v.held_out['games']:,} held-out deals per player count, " + "; ".join(parts)


def _resolution(res: Any) -> str:
    """What the search can see: the 95 % half-width of a seat's share at its last round."""
    last = max(res.variants, key=lambda v: v.games)
    widths = {p: max((h - lo) / 2 for lo, h in zip(m["win_share_low"], m["win_share_high"], strict=True))
              for p, m in last.metrics.items()}
    text = ", ".join(f"±{100 * w:.2f} pp at {p} players" for p, w in sorted(widths.items()))
    return (f"What the search can see: at its last round ({last.games:,} games per player count) a seat's "
            f"share is known to {text} (95 %); rules whose effect is smaller than that are not told apart "
            "before the held-out check.")


def _variant_table(res: Any) -> pd.DataFrame:
    """Best first; held-out numbers for the finalists (``held out`` = yes), the search's last
    round for the rest; 95 % intervals in brackets; ✓ after the spread: every seat's interval
    holds the fair share."""
    rows = []
    own = _own(res)
    for v in res.variants:
        metrics = v.held_out["metrics"] if v.held_out else v.metrics
        row: dict[str, Any] = {"variant": v.label + (" (official)" if v.label == res.baseline else ""),
                               "held out": "yes" if v.held_out else "no",
                               "games": v.held_out["games"] if v.held_out else v.games,
                               "score": v.held_out["score"] if v.held_out else v.score}
        for p, m in sorted(metrics.items()):
            row[f"{p}p seat 1 %"] = (f"{100 * m['first_seat']:.1f} "
                                     f"[{100 * m['first_seat_low']:.1f}, {100 * m['first_seat_high']:.1f}]")
            row[f"{p}p spread pp"] = (f"{100 * m['spread']:.1f} [{100 * m['spread_low']:.1f}, "
                                      f"{100 * m['spread_high']:.1f}]" + (" ✓" if m["fair_within_interval"] else ""))
            row[f"{p}p length"] = f"{m['length']:.1f} [{m['length_low']:.1f}, {m['length_high']:.1f}]"
            for q in own:
                low, high = m["means_interval"][q]
                row[f"{p}p {q}"] = f"{m['means'][q]:.3f} [{low:.3f}, {high:.3f}]"
        rows.append(row)
    return pd.DataFrame(rows)

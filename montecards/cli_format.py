"""Readable text tables of results for the terminal."""

from __future__ import annotations

from montecards import games
from montecards.analysis.results import SimulationResult


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _param_text(res: SimulationResult, name: str, value) -> str:
    """``name=value``, marked when the parameter changes nothing at this player count."""
    text = f"{name}={_fmt_value(value)}"
    if not games.get(res.game).param(name).acts_at(res.players):
        text += f" (unused with {res.players} players)"
    return text


def summary_table(res: SimulationResult) -> str:
    """Per seat (numbered from 1, as people count them; JSON and Python index from 0): strategy,
    win share with its 95 % interval, mean score and seat outputs; then game length, shared
    wins, unfinished games and the game's metrics."""
    params = ", ".join(_param_text(res, name, value) for name, value in res.params.items())
    lines = [
        f"{res.title}: {res.n_games:,} games, {res.players} players, seed {res.seed}"
        + (f"  [{params}]" if params else ""),
        "",
    ]
    extra = list(res.layout.seat_outputs)
    width_score = max(12, len(res.score_name) + 6)
    table = res.seat_table()
    names = max([14] + [len(str(name)) + 2 for name in table["strategy"]])  # user strategies' labels
    header = (
        f"{'seat':>4}  {'strategy':<{names}}{'win share':>10}  {'95% CI':<17}"
        f"{'mean ' + res.score_name:>{width_score}}"
    )
    for name in extra:
        header += f"  {name:>14}"
    lines.append(header)
    lines.append("-" * len(header))
    for seat in table["seat"]:
        row = {column: values[seat] for column, values in table.items()}
        ci = f"[{_pct(row['win_low'])}, {_pct(row['win_high'])}]"
        line = (
            f"{seat + 1:>4}  {row['strategy']:<{names}}{_pct(row['win_share']):>10}  {ci:<17}"
            f"{row['mean_score']:>{width_score}.2f}"
        )
        for name in extra:
            line += f"  {row[f'mean_{name}']:>14.2f}"
        lines.append(line)
    lines.append("")
    metrics = res.metrics()
    turns = metrics.pop("turns")
    shared = metrics.pop("shared_wins")
    half = (turns["ci95"][1] - turns["ci95"][0]) / 2
    lines.append(f"{res.turns_name} per game: {turns['mean']:.2f} ± {half:.2f}")
    lines.append(
        f"shared wins: {_pct(shared['mean'])} of games; unfinished: {res.unfinished:,} games"
    )
    for name, m in metrics.items():
        lo, hi = m["ci95"]
        if name in res.rate_metrics:
            lines.append(f"{name}: {_pct(m['mean'])} of games [{_pct(lo)}, {_pct(hi)}]")
        else:
            lines.append(f"{name} per game: {m['mean']:.3f} [{lo:.3f}, {hi:.3f}]")
    lines.append(
        f"elapsed {res.elapsed_seconds:.2f} s, {res.games_per_second:,.0f} games/s "
        f"({res.backend}, {res.jobs} {'threads' if res.backend == 'local' else 'workers'})"
    )
    return "\n".join(lines)


def _fmt_value(value) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(_fmt_value(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value).lower() if isinstance(value, bool) else str(value)


def designer_text(d: dict) -> str:
    """The designer metrics of ``simulate --designer`` (docs/metrics.md), one line each."""

    def iv(key: str, scale: float = 1.0, digits: int = 3) -> str:
        return (f"{scale * d[key]:.{digits}f} [{scale * d[key + '_low']:.{digits}f}, "
                f"{scale * d[key + '_high']:.{digits}f}]")

    lines = ["designer metrics (docs/metrics.md):",
             f"  balance                {iv('balance')} (seats {d['balance_seats'][0] + 1} and "
             f"{d['balance_seats'][1] + 1})",
             f"  first seat bias        {iv('first_seat_bias', 100, 2)} pp",
             f"  score margin           {iv('score_margin', 1, 2)}, closeness "
             + (f"{d['closeness']:.4f}" if d["closeness"] is not None else "-"),
             f"  length per player      {iv('length_per_player', 1, 2)}"]
    if "decision_density" in d:
        lines += [f"  decision density       {iv('decision_density')} ({d['decisions_sampled_games']} games)",
                  f"  choices per decision   {iv('choices_per_decision', 1, 2)}"]
    if "lead_changes" in d:
        lines += [f"  lead changes           {iv('lead_changes', 1, 2)} per game, by V "
                  f"({d['lead_sampled_games']} games)",
                  f"  decided at             {iv('decided_at', 100, 1)} % of the chance events"]
    elif "lead_note" in d:
        lines.append(f"  lead changes           - ({d['lead_note']})")
    return "\n".join(lines)

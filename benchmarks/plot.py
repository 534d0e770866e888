"""Plot the recorded benchmark history to ``benchmarks/history.png``.

    python benchmarks/plot.py [--output benchmarks/history.png]

One line per game for its headline case (default player count and strategy): games/s on
1 thread and on all threads (wall clock, log scale), and the calibrated ratio (games per
CPU-second / calibration deals per CPU-second, same run), which is what regressions are
judged on. The x axis is the recorded entries in date order, labelled by commit
(``*`` = dirty tree, ``q`` = quick run). Ratios are drawn only for entries of the latest
calibration version.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from benchmarks import core, history  # noqa: E402


def headline_key(entry_cases: dict[str, dict], game: str, threads: str) -> str | None:
    """The key of ``game``'s headline case: its smoke case, else its first case on ``threads``."""
    try:
        key = core.smoke_case(game).key
        key = key[: key.rindex("/t")] + f"/t{threads}"
        if key in entry_cases:
            return key
    except Exception:
        pass
    for key, case in entry_cases.items():
        if case["game"] == game and case["threads"] == threads:
            return key
    return None


def series(entries: list[dict], game: str, threads: str, field: str) -> tuple[list[int], list[float]]:
    """(entry positions, values) of ``field`` of the game's headline case. Ratios only from
    entries of the latest calibration version (older ones are not comparable)."""
    latest_version = history.calibration_version(entries[-1]) if entries else None
    xs, ys = [], []
    for i, entry in enumerate(entries):
        if "ratio" in field and history.calibration_version(entry) != latest_version:
            continue
        cases = history.cases_by_key(entry)
        key = headline_key(cases, game, threads)
        if key is not None and cases[key].get(field):
            xs.append(i)
            ys.append(cases[key][field])
    return xs, ys


def plot(entries: list[dict], output: Path) -> Path:
    games = sorted({c["game"] for e in entries for c in e.get("cases", [])})
    labels = [
        f"{e.get('commit', '?')[:7]}{'*' if e.get('dirty') else ''}{' q' if e.get('quick') else ''}\n"
        f"{e.get('date', '')[:10]}"
        for e in entries
    ]
    fig, axes = plt.subplots(3, 1, figsize=(10, 11), sharex=True)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, game in enumerate(games):
        colour = colours[k % len(colours)]
        for threads, style in (("1", "-"), ("all", "--")):
            xs, ys = series(entries, game, threads, "games_per_s")
            if xs:
                axes[0].plot(xs, ys, style, marker="o", color=colour,
                             label=f"{game} ({'1 thread' if threads == '1' else 'all threads'})")
            xs, ys = series(entries, game, threads, "ratio")
            if xs:
                axes[1 if threads == "1" else 2].plot(xs, ys, style, marker="o", color=colour, label=game)
    axes[0].set_yscale("log")
    axes[0].set_ylabel("games/s (wall clock, median)")
    axes[0].set_title("montecards throughput per game (default players and strategy)")
    axes[1].set_yscale("log")
    axes[1].set_ylabel("calibrated ratio, 1 thread")
    axes[1].set_title(
        "games per CPU-s / calibration deals per CPU-s (same run): regressions are judged on this"
    )
    axes[2].set_yscale("log")
    axes[2].set_ylabel("calibrated ratio, all threads")
    for ax in axes:
        ax.grid(True, which="both", alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8, ncol=2)
    axes[-1].set_xticks(range(len(entries)))
    axes[-1].set_xticklabels(labels, rotation=45, ha="right", fontsize=7)
    if len(entries) == 1:
        axes[-1].set_xlim(-0.5, 0.5)
    fig.tight_layout()
    output.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(output, dpi=110)
    plt.close(fig)
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--output", type=Path, default=core.BENCH_DIR / "history.png")
    parser.add_argument("--history", type=Path, default=core.HISTORY_DIR, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    entries = history.load_history(args.history)
    if not entries:
        print("no recorded entry: run `python benchmarks/run.py --record` first")
        return 2
    path = plot(entries, args.output)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

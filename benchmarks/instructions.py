"""Instructions per Parade game, counted under valgrind (callgrind): a figure that does not move
with the machine's load, for telling what a kernel change does when timings cannot.

    python benchmarks/instructions.py                      # 2 players, greedy, 5,000 games
    python benchmarks/instructions.py -s random -n 20000 --players 4

How (benchmarks/README.md, "Instructions per game"): the serial ``play_block`` is compiled
natively for a fixed CPU model and its features (``NUMBA_CPU_NAME=haswell``,
``NUMBA_CPU_FEATURES``: valgrind cannot run the AVX-512 code numba would otherwise emit, and
with the host's features the cache would miss under valgrind) into a fresh numba cache; a second process then loads it from
that cache and plays 1 game, then ``n`` games, under callgrind. Only the jitted code is counted
(callgrind's anonymous objects), divided by ``n + 1``. The serial block is used (one
thread; through the old parallel kernel valgrind also made numba compile afresh instead of loading).
Needs valgrind; a run takes minutes (Python and numba start ~50x slower under valgrind).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STRATEGIES = ("random", "greedy")
CPU_NAME = "haswell"
CPU_FEATURES = (
    "+64bit,+avx,+avx2,+bmi,+bmi2,+cmov,+cx16,+cx8,+f16c,+fma,+fsgsbase,+fxsr,+lzcnt,+mmx,+movbe,"
    "+pclmul,+popcnt,+rdrnd,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+xsave,+xsaveopt"
)
"""Haswell's features, given explicitly: with the CPU name alone numba takes the host's features,
which differ under valgrind (its CPU has no AVX-512), so numba's cache index (keyed on them)
missed and the measured process compiled every kernel again under valgrind (~8 min a run)."""


def play(strategy: str, players: int, n: int) -> None:
    """The measured process: 1 game (loads the kernel), then ``n`` games, serially."""
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from montecards.games.parade import SPEC, kernel, strategies

    code = strategies.NAMES.index(strategy)
    seats = np.full(players, code, np.int64)
    params = SPEC.pack_params(players, SPEC.resolve_params(players, {}))  # the official rules
    rows = np.zeros((max(n, 1), 3 + 3 * players), np.int64)
    kernel.play_block(np.uint64(7), 0, players, params, seats, rows[:1], None, None, None, 0)
    if n:
        kernel.play_block(np.uint64(7), 1, players, params, seats, rows[:n], None, None, None, 0)


def jitted_instructions(callgrind_out: Path) -> int:
    """Self cost (instructions) of callgrind's anonymous objects (``???``: the jitted code).

    Reads callgrind's format: ``ob=`` names the current object, ``cob=`` a call's target
    object; both share one table of compressed names (``(id) name`` the first time the id
    appears, on either, ``(id)`` after). A cost line after ``calls=`` is the inclusive cost
    of a call and is skipped.
    """
    names: dict[str, str] = {}
    current = ""
    total = 0
    after_call = False
    for line in callgrind_out.read_text().splitlines():
        if line.startswith(("ob=", "cob=")):
            key, _, value = line.partition("=")
            ref, _, name = value.partition(" ")
            if name:
                names[ref] = name
            if key == "ob":
                current = names.get(ref, ref)
            continue
        if line.startswith("calls="):
            after_call = True
            continue
        if not line or not (line[0].isdigit() or line[0] in "+-*"):
            continue
        if after_call:
            after_call = False
            continue
        parts = line.split()
        if current == "???" and len(parts) >= 2:
            total += int(parts[1])
    return total


def measure(strategy: str, players: int, n: int) -> float:
    cache = Path(tempfile.mkdtemp(prefix="montecards-cg-"))
    env = dict(os.environ, NUMBA_CPU_NAME=CPU_NAME, NUMBA_CPU_FEATURES=CPU_FEATURES,
               NUMBA_CACHE_DIR=str(cache))
    child = [sys.executable, __file__, "--child", "-s", strategy, "--players", str(players)]
    try:
        subprocess.run([*child, "-n", "10"], env=env, check=True)  # compile, natively
        out = cache / "callgrind.out"
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *child, "-n", str(n)],
            env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        return jitted_instructions(out) / (n + 1)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-s", "--strategy", choices=STRATEGIES, default="greedy")
    parser.add_argument("--players", type=int, choices=range(2, 7), default=2, metavar="2..6")
    parser.add_argument("-n", "--games", type=int, default=5000)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.games < 0:
        parser.error(f"--games must be >= 0, got {args.games}")
    if args.child:
        play(args.strategy, args.players, args.games)
        return
    if shutil.which("valgrind") is None:
        print("error: valgrind is not installed (it counts the instructions)", file=sys.stderr)
        sys.exit(2)
    per_game = measure(args.strategy, args.players, args.games)
    print(f"parade {args.players}p {args.strategy}: {per_game:,.0f} instructions per game "
          f"(jitted code, {args.games:,} games, NUMBA_CPU_NAME={CPU_NAME})")


if __name__ == "__main__":
    main()

"""Where a cold first run's compile time goes: per jitted function, per compiler pass.

    python benchmarks/compile_profile.py parade [-n 1000] [-s random ...] [--warm]

Plays one ``simulate`` run in this process with an empty numba cache (a fresh temporary
``NUMBA_CACHE_DIR``, unless ``--warm``: then the caller's cache) and listens to numba's
compile events (``numba.core.event``): every ``numba:compile`` (one specialisation of one
function: its *exclusive* time, its callees' compiles taken out), every compiler pass
(``numba:run_pass``, exclusive too: IR inlining, type inference, parfor passes, lowering) and
the time spent holding LLVM's lock (optimisation and machine code). Times are CPU time of the compiling thread (robust to
other processes' load). Prints the table, or with
``--json`` a dict (``benchmarks/history.py`` records it with every entry).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter, defaultdict

clock = time.thread_time
"""Compiles run on the calling thread: its CPU time does not count other processes' load."""


def profile(game: str, n: int = 1000, strategies=None, jobs: int | None = None) -> dict:
    """Compile statistics of one run of ``game`` in this process (the cache as it is set)."""
    from numba.core import event as ev

    class Recorder(ev.Listener):
        def __init__(self):
            self.stack = []  # [kind, name, start, nested]
            self.functions = defaultdict(float)
            self.specialisations = defaultdict(set)
            self.passes = defaultdict(float)
            self.llvm = 0.0
            self.compiles = 0

        def on_start(self, event):
            if event.kind == "numba:llvm_lock":
                self.llvm_start = clock()
                return
            if event.kind == "numba:compile":
                disp = event.data["dispatcher"]
                name = f"{disp.py_func.__module__}.{disp.py_func.__qualname__}"
                self.specialisations[name].add(str(event.data["args"]))
                self.compiles += 1
            else:
                name = event.data["name"].split(" [", 1)[0]
            self.stack.append([event.kind, name, clock(), 0.0, 0.0])

        def on_end(self, event):
            now = clock()
            if event.kind == "numba:llvm_lock":
                self.llvm += now - self.llvm_start
                return
            kind, name, start, nested, nested_compiles = self.stack.pop()
            total = now - start
            if kind == "numba:compile":
                # a function's own time: its callees' compiles (nested in its passes) taken out
                self.functions[name] += total - nested_compiles
                for frame in reversed(self.stack):  # the caller being compiled
                    if frame[0] == "numba:compile":
                        frame[4] += total
                        break
            else:
                self.passes[name] += total - nested
            if self.stack:
                self.stack[-1][3] += total

    import numpy as np  # noqa: F401
    start = clock()
    import montecards
    from montecards.api import simulate
    imported = clock() - start
    recorder = Recorder()
    start = clock()
    wall = time.perf_counter()
    with ev.install_listener("numba:compile", recorder), \
            ev.install_listener("numba:run_pass", recorder), \
            ev.install_listener("numba:llvm_lock", recorder):
        simulate(game, n=n, strategies=strategies, seed=1, jobs=jobs)
    elapsed = clock() - start
    wall = time.perf_counter() - wall
    del montecards
    return {
        "game": game,
        "import_s": round(imported, 3),
        "run_cpu_s": round(elapsed, 3),
        "run_wall_s": round(wall, 3),
        "compile_s": round(sum(recorder.functions.values()), 3),
        "llvm_lock_s": round(recorder.llvm, 3),
        "compiles": recorder.compiles,
        "functions": {k: {"s": round(v, 4), "specialisations": len(recorder.specialisations[k]),
                          **({"signatures": sorted(recorder.specialisations[k])}
                             if len(recorder.specialisations[k]) > 1 else {})}
                      for k, v in sorted(recorder.functions.items(), key=lambda kv: -kv[1])},
        "passes": {k: round(v, 4) for k, v in sorted(recorder.passes.items(), key=lambda kv: -kv[1])},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("-n", type=int, default=1000)
    parser.add_argument("-s", "--strategy", action="append", default=None)
    parser.add_argument("-j", "--jobs", type=int, default=None)
    parser.add_argument("--warm", action="store_true", help="use the current numba cache")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    if not args.warm:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="montecards-cold-")
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    result = profile(args.game, args.n, args.strategy, args.jobs)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.game}: import {result['import_s']} s, run {result['run_cpu_s']} s CPU of this thread ({result['run_wall_s']} s wall), compile (exclusive, "
          f"all functions) {result['compile_s']} s, LLVM lock {result['llvm_lock_s']} s, "
          f"{result['compiles']} specialisations compiled")
    dup = {k: v for k, v in result["functions"].items() if v["specialisations"] > 1}
    print(f"functions compiled more than once: {len(dup)}: " + ", ".join(
        f"{k.rsplit('.', 1)[-1]}x{v['specialisations']}" for k, v in dup.items()))
    for k, v in dup.items():
        if k.startswith("montecards"):
            print(f"  {k}:")
            for sig in v["signatures"]:
                print(f"     {sig}")
    print("\ntop functions (exclusive s, specialisations):")
    for name, row in list(result["functions"].items())[: args.top]:
        print(f"  {row['s']:8.3f}  x{row['specialisations']}  {name}")
    print("\ntop passes (exclusive s):")
    for name, seconds in list(result["passes"].items())[: args.top]:
        print(f"  {seconds:8.3f}  {name}")
    sums = Counter()
    for name, seconds in result["passes"].items():
        low = name.lower()
        group = ("parfor" if "parfor" in low or "parallel" in low else
                 "inline" if "inline" in low else
                 "type inference" if "type" in low else
                 "lowering (LLVM IR + optimisation)" if "lowering" in low else "other")
        sums[group] += seconds
    print("\nby group:", ", ".join(f"{k} {v:.2f} s" for k, v in sums.most_common()))


if __name__ == "__main__":
    main()

"""Dask backend at scale (issue #8): peak memory of a long summary-only run, and throughput of
a LocalCluster of single-threaded workers against the local backend.

    python benchmarks/dask_scale.py memory [-n 100000000] [-s random] [--workers 2] [--backend local|dask]
    python benchmarks/dask_scale.py throughput [-n 20000000] [-s random] [--workers 2] [--repeat 1]

``memory`` runs ``montecards.simulate(..., backend="dask")`` (summary only) on a LocalCluster
and samples, every 0.5 s, the resident memory of this process (client, scheduler and nannies)
and of every worker process; it prints the peak of each and of their sum, and the run's
numbers. With ``--backend local`` the same run plays on this process's numba threads
(``--workers`` of them), and the peak is this one process's. ``throughput`` runs the same seeded run on the local backend (``--workers`` numba
threads) and on the Dask backend (a LocalCluster of ``--workers`` single-threaded workers,
started and warmed up before the clock starts, as ``simulate`` does), alternating them
``--repeat`` times, checks the two give the same numbers, and prints games/s, the ratio, and
CPU seconds used by montecards' own processes (on a shared machine, wall-clock figures move
with the other load; CPU seconds do not).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psutil  # noqa: E402

import montecards as mc  # noqa: E402

NUMBERS = ("win_share", "mean_score", "mean_turns", "unfinished", "metrics")


class TreeSampler:
    """Samples the RSS of this process and of its descendants (the Dask workers)."""

    def __init__(self, interval: float = 0.5):
        self.interval = interval
        self.me = psutil.Process()
        self.peak_self = 0
        self.peak_children: dict[int, int] = {}
        self.peak_total = 0
        self.cpu_children: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> None:
        total = rss = self.me.memory_info().rss
        self.peak_self = max(self.peak_self, rss)
        for child in self.me.children(recursive=True):
            try:
                with child.oneshot():
                    child_rss = child.memory_info().rss
                    times = child.cpu_times()
            except psutil.Error:
                continue
            total += child_rss
            self.peak_children[child.pid] = max(self.peak_children.get(child.pid, 0), child_rss)
            self.cpu_children[child.pid] = times.user + times.system
        self.peak_total = max(self.peak_total, total)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(self.interval)

    def __enter__(self) -> TreeSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._sample()
        self._stop.set()
        self._thread.join()


def mb(x: int) -> str:
    return f"{x / 2**20:.0f} MB"


def memory(args) -> None:
    with TreeSampler() as sampler:
        start = time.perf_counter()
        res = mc.simulate("parade", n=args.n, strategies=args.strategy, seed=args.seed,
                          backend=args.backend, jobs=args.workers, progress=args.progress)
        wall = time.perf_counter() - start
    where = (f"dask LocalCluster {args.workers} single-threaded workers" if args.backend == "dask"
             else f"local backend, {args.workers} numba threads")
    print(f"parade n={args.n:,} strategy={args.strategy} seed={args.seed} {where}, summary only")
    print(f"wall {wall:.0f} s (run {res.elapsed_seconds:.0f} s, {res.games_per_second:,.0f} games/s)")
    print(f"peak RSS: client+scheduler+nannies {mb(sampler.peak_self)}; workers "
          + ", ".join(mb(v) for v in sampler.peak_children.values())
          + f"; whole tree (sum at one instant) {mb(sampler.peak_total)}")
    print(json.dumps({k: res.to_dict()[k] for k in NUMBERS}))


def throughput(args) -> None:
    from montecards.api import prepare
    from montecards.run.dask_backend import dask_client, execute_dask, warm_up_workers
    from montecards.run.runner import execute, warm_up

    spec, config, _, _ = prepare("parade", None, args.strategy, None, args.seed)
    me = psutil.Process()
    warm_up(spec, config)
    results = {"local": [], "dask": []}
    with dask_client(None, None, args.workers) as client:
        warm_up_workers(client, config)
        workers = [psutil.Process(pid) for pid in client.run(lambda: __import__("os").getpid()).values()]

        def cpu(procs) -> float:
            return sum(p.cpu_times().user + p.cpu_times().system for p in procs)

        for _ in range(args.repeat):
            for backend in ("local", "dask"):
                procs = [me] + (workers if backend == "dask" else [])
                cpu0, t0 = cpu(procs), time.perf_counter()
                if backend == "local":
                    summary, _ = execute(spec, config, args.n, args.workers, progress=False)
                else:
                    summary, _ = execute_dask(spec, config, args.n, args.workers, progress=False,
                                              client=client)
                wall, used = time.perf_counter() - t0, cpu(procs) - cpu0
                results[backend].append((wall, used, summary))
                print(f"{backend:5}: {args.n:,} games in {wall:.1f} s = {args.n / wall:,.0f} games/s "
                      f"({used:.0f} CPU-s, {args.n / used:,.0f} games per CPU-s)", flush=True)
    a, b = results["local"][0][2], results["dask"][0][2]
    same = (a.n_games == b.n_games and (a.sums == b.sums).all() and (a.sumsq == b.sumsq).all())
    best = {k: min(w for w, _, _ in v) for k, v in results.items()}
    print(f"identical summaries: {same}")
    print(f"dask / local throughput (best wall of {args.repeat}): {best['local'] / best['dask']:.1%}")
    sums = {k: sum(w for w, _, _ in v) for k, v in results.items()}
    print(f"dask / local throughput (total wall): {sums['local'] / sums['dask']:.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("mode", choices=["memory", "throughput"])
    parser.add_argument("-n", type=int, default=None)
    parser.add_argument("-s", "--strategy", default="random")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--progress", action="store_true")
    parser.add_argument("--backend", choices=["local", "dask"], default="dask")
    args = parser.parse_args()
    if args.mode == "memory":
        args.n = args.n or 100_000_000
        memory(args)
    else:
        args.n = args.n or 20_000_000
        throughput(args)


if __name__ == "__main__":
    main()

"""The Dask backend on a real LocalCluster (2 single-threaded worker processes).

Same seed, same result as the local backend — summaries and per-game rows, for every game;
rows stream and checkpoints resume on the cluster too; a worker killed mid-run changes
nothing (chunks are pure tasks, played again elsewhere).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest

import montecards as mc
from montecards import games
from montecards.api import prepare
from montecards.engine.spec import InputError
from montecards.run import dask_backend
from montecards.run.dask_backend import dask_client, execute_dask, worker_threads
from montecards.run.runner import execute

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parent.parent
NUMBERS = ("n_games", "seed", "players", "strategies", "params", "win_share", "win_share_ci95",
           "mean_score", "mean_turns", "unfinished", "metrics", "seat_outputs")


@pytest.fixture(scope="module")
def client():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs 2 cores for 2 workers")
    with dask_client(None, None, 2) as c:  # the LocalCluster the backend starts itself
        yield c


def assert_same_run(a, b) -> None:
    da, db = a.to_dict(), b.to_dict()
    for key in NUMBERS:
        assert da[key] == db[key], key
    sa, sb = a.summary_data, b.summary_data
    assert sa.n_games == sb.n_games and sa.shared_wins == sb.shared_wins
    assert np.array_equal(sa.sums, sb.sums) and np.array_equal(sa.sumsq, sb.sumsq)
    assert sa.hists.keys() == sb.hists.keys()
    for key in sa.hists:
        assert np.array_equal(sa.hists[key], sb.hists[key]), key


def test_the_cluster_has_two_single_threaded_workers(client):
    assert sorted(client.nthreads().values()) == [1, 1]
    assert set(client.run(dask_backend.worker_numba_threads).values()) == {1}


@pytest.mark.parametrize("name", games.names())
def test_dask_gives_the_local_result_for_every_game(client, name):
    spec = games.get(name)
    players = spec.default_players
    strategies = [spec.strategies[k % len(spec.strategies)] for k in range(players)]
    run = dict(n=450, players=players, strategies=strategies, seed=2024, chunk_size=64,
               keep_games=True)
    local = mc.simulate(name, jobs=1, **run)
    remote = mc.simulate(name, client=client, **run)
    assert remote.backend == "dask" and remote.jobs == 2
    assert_same_run(local, remote)
    assert remote.games.equals(local.games)


SEARCHING = [name for name in games.names() if "ismcts" in games.get(name).strategies]


@pytest.mark.parametrize("name", SEARCHING)
def test_the_search_player_gives_the_local_result_on_the_cluster(client, name):
    """``ismcts`` (few iterations, so the test stays short) against the game's ``greedy``: the
    local numbers and rows, whichever worker plays a chunk."""
    spec = games.get(name)
    weights = spec.seat_params["ismcts"].default
    label = "ismcts[" + ",".join(str(v) for v in (20, *weights[1:])) + "]"
    players = spec.default_players
    run = dict(n=24, players=players, strategies=[label] + ["greedy"] * (players - 1), seed=11,
               chunk_size=6, keep_games=True)
    local = mc.simulate(name, jobs=1, **run)
    remote = mc.simulate(name, client=client, **run)
    assert remote.backend == "dask"
    assert_same_run(local, remote)
    assert remote.games.equals(local.games)
    assert local.strategies[0].startswith("ismcts[20,")  # the seat played the label given


def test_user_strategies_play_on_the_cluster(client, tmp_path):
    """A worker imports a user strategy by its file path (hash-checked): the local numbers; a
    strategy defined only here (not importable) and a fault on a worker are one clear line."""
    twin = str(ROOT / "montecards" / "strategies" / "parade_greedy.py") + ":choose"
    run = dict(n=600, players=3, strategies=[twin, "random", "greedy"], seed=5, chunk_size=100,
               keep_games=True)
    local = mc.simulate("parade", jobs=1, **run)
    remote = mc.simulate("parade", client=client, **run)
    assert_same_run(local, remote)
    assert remote.games.equals(local.games)

    def here_only(obs, legal, params, memory, rng):
        return 0

    with pytest.raises(InputError, match="another process cannot import"):
        mc.simulate("parade", n=100, strategies=[here_only, "greedy"], client=client)
    bad = tmp_path / "bad_on_worker.py"
    bad.write_text("def choose(obs, legal, params, memory, rng):\n    return len(legal)\n")
    with pytest.raises(mc.StrategyError, match=r"seat 0\) in game 0 returned index"):
        mc.simulate("parade", n=300, strategies=[f"{bad}:choose", "greedy"], client=client, chunk_size=100)


def test_scheduler_address_and_window_of_one(client):
    local = mc.simulate("parade", n=700, players=4, seed=5, chunk_size=100, keep_games=True,
                        jobs=1)
    via_address = mc.simulate("parade", n=700, players=4, seed=5, chunk_size=100,
                              keep_games=True, backend="dask",
                              scheduler=client.scheduler.address)
    assert_same_run(local, via_address)
    assert via_address.games.equals(local.games)
    spec, config, _, _ = prepare("parade", 4, None, None, 5)
    summary, rows = execute_dask(spec, config, 700, None, 100, True, False, client, window=1)
    assert np.array_equal(rows, execute(spec, config, 700, 1, 100, keep_games=True)[1])


class CountingClient:
    """A client that counts chunks submitted and not yet merged (merges seen through on_rows)."""

    def __init__(self, client):
        self.client, self.loop = client, client.loop
        self.submitted = self.merged = self.peak = 0

    def nthreads(self):
        return self.client.nthreads()

    def cancel(self, futures):
        self.client.cancel(futures)

    def submit(self, *args, **kwargs):
        self.submitted += 1
        self.peak = max(self.peak, self.submitted - self.merged)
        return self.client.submit(*args, **kwargs)

    def on_rows(self, start, rows):
        self.merged += 1


def test_outstanding_chunks_stay_within_the_window(client):
    spec, config, _, _ = prepare("parade", 2, "random", None, 9)
    counting = CountingClient(client)
    _, rows = execute_dask(spec, config, 3000, None, 100, False, False, counting,
                           on_rows=counting.on_rows, window=3)
    assert counting.submitted == counting.merged == 30
    assert counting.peak == 3
    default = CountingClient(client)
    execute_dask(spec, config, 3000, None, 100, False, False, default, on_rows=default.on_rows)
    assert default.peak == 4  # max(4, 2 x 2 threads)


def test_cli_on_a_running_cluster(client, tmp_path):
    path = tmp_path / "g.csv"
    out = subprocess.run(
        [sys.executable, "-m", "montecards", "simulate", "parade", "-n", "900", "--seed", "3",
         "--chunk-size", "200", "--backend", "dask", "--scheduler", client.scheduler.address,
         "--json", "-o", str(path)],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
        env={"MONTECARDS_NO_PROGRESS": "1", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert out.returncode == 0, out.stderr
    remote = json.loads(out.stdout)
    local = mc.simulate("parade", n=900, seed=3, jobs=1, keep_games=True)
    for key in NUMBERS:
        assert remote[key] == json.loads(json.dumps(local.to_dict()))[key], key
    assert remote["backend"] == "dask"
    frame = pd.read_csv(path, index_col="game")
    frame.index.name = None
    assert frame.equals(local.games)


def test_streaming_and_checkpoints_work_on_the_cluster(client, tmp_path):
    ck, path = tmp_path / "ck", tmp_path / "g.parquet"
    run = dict(n=1200, players=3, seed=77, chunk_size=100)
    local = mc.simulate("parade", jobs=1, keep_games=True, **run)
    # a checkpoint half written by the local backend is finished on the cluster
    mc.simulate("parade", jobs=1, checkpoint=ck, **run)
    for chunk in sorted(ck.glob("chunk-*.npz"))[::2]:
        chunk.unlink()
    resumed = mc.simulate("parade", client=client, checkpoint=ck, **run)
    assert resumed.extra["checkpoint"]["resumed_chunks"] == 6
    assert_same_run(local, resumed)
    assert len(list(ck.glob("chunk-*.npz"))) == 12
    # rows streamed in chunk order from the cluster, through a checkpoint that records them
    streamed = mc.simulate("parade", client=client, checkpoint=tmp_path / "ck2", output=path,
                           **run)
    assert_same_run(local, streamed)
    assert pd.read_parquet(path).equals(local.games)
    with pytest.raises(InputError, match="another run"):
        mc.simulate("parade", client=client, checkpoint=ck, **(run | {"seed": 78}))


def test_an_unreachable_scheduler_is_one_clear_error(monkeypatch):
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(InputError, match="cannot connect to the dask scheduler"):
        mc.simulate("parade", n=10, seed=1, backend="dask", scheduler="tcp://127.0.0.1:9")


TIMING = ("elapsed_seconds", "games_per_second", "backend", "jobs")


def _numbers(d):
    """A result's JSON object without its timing fields (at every depth)."""
    if isinstance(d, dict):
        return {k: _numbers(v) for k, v in d.items() if k not in TIMING}
    if isinstance(d, list):
        return [_numbers(v) for v in d]
    return d


def _analyses(**where):
    from montecards.analysis import balance, compare_variants, matchups, seat_advantage, sweep

    return {
        "balance": balance("parade", {"opening_parade": [5, 6]}, players=3, n=300, budget=600, keep=1,
                           held_out=400, seed=3, **where),
        "seats": seat_advantage("parade", players=[2, 3], n=1500, seed=4, **where),
        "compare": compare_variants("parade", [{"two_player_margin": 2}, {"two_player_margin": 1}],
                                    n=1200, seed=5, **where),
        "matchups": matchups("parade", ["greedy", "random"], n=600, seed=6, **where),
        "sweep": sweep("tulips", "secret_reveal", [2, 5], n=400, seed=7, **where),
        "adaptive": __import__("montecards.analysis", fromlist=["x"]).simulate_adaptive(
            "wigout", precision=0.05, seed=8, **where),
    }


def test_analyses_on_the_cluster_give_the_local_numbers(client):
    local = _analyses(jobs=1)
    remote = _analyses(client=client)
    for name in local:
        assert _numbers(json.loads(json.dumps(remote[name].to_dict(), default=str))) == _numbers(
            json.loads(json.dumps(local[name].to_dict(), default=str))), name


def test_analysis_commands_take_the_dask_backend(client):
    host = client.scheduler.address
    args = ["seats", "parade", "-n", "800", "--seed", "9", "--json"]
    env = {"MONTECARDS_NO_PROGRESS": "1", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    run = lambda extra: subprocess.run([sys.executable, "-m", "montecards", *args, *extra],  # noqa: E731
                                       capture_output=True, text=True, timeout=600, env=env)
    remote, local = run(["--backend", "dask", "--scheduler", host]), run(["-j", "1"])
    assert remote.returncode == 0 and local.returncode == 0, remote.stderr + local.stderr
    assert _numbers(json.loads(remote.stdout)) == _numbers(json.loads(local.stdout))
    bad = run(["--scheduler", host])
    assert bad.returncode == 2 and "backend" in bad.stderr


def test_a_report_on_the_cluster_is_the_local_report(client, tmp_path):
    """The same page, figure for figure, apart from the seconds each analysis took."""
    import re

    from montecards.report import build_report

    def page(path):
        text = path.read_text()
        text = re.sub(r"\| [0-9.]+ \|\n", "| s |\n", text)  # the run-size table's seconds column
        return [line for line in text.splitlines()
                if not line.startswith("Generated by") and "second" not in line and " min" not in line]

    # Wig Out!'s quick report: every kind of section (ladder, tuning, seats, variants, a sweep,
    # matchups) at the fewest games: 3 s of play a build, where Parade's takes 8 s (its search
    # players' games) and Gift of Tulips' ~60 s (10,000-iteration searches)
    local = build_report("wigout", tmp_path / "local", quick=True, seed=3, jobs=1)
    remote = build_report("wigout", tmp_path / "remote", quick=True, seed=3, client=client)
    assert page(remote) == page(local)
    assert sorted(p.name for p in (tmp_path / "remote").glob("*.png")) == sorted(
        p.name for p in (tmp_path / "local").glob("*.png"))


def test_a_worker_killed_mid_run_does_not_change_the_result(client):
    """Runs last: it kills one of the fixture's workers (its nanny starts a new one).

    The worker is killed when, from the third chunk on, a chunk's rows arrive while a worker
    is busy with another chunk. Chunks of ~40 ms leave many such moments; with chunks of a
    few ms, every chunk had sometimes finished before the scheduler was asked.
    """
    spec, config, _, _ = prepare("parade", 3, None, None, 21)
    n, chunk = 60_000, 3_750
    reference = execute(spec, config, n, 1, chunk, keep_games=True)
    pids = client.run(os.getpid)
    killed: list[tuple[int, tuple]] = []

    def kill_a_busy_worker(start: int, rows: np.ndarray) -> None:
        if start < 2 * chunk or killed:
            return
        busy = {w: keys for w, keys in client.processing().items() if keys}
        if busy:
            worker = next(iter(busy))
            os.kill(pids[worker], signal.SIGKILL)
            killed.append((pids[worker], tuple(busy[worker])))

    summary, rows = execute_dask(spec, config, n, None, chunk, True, False, client,
                                 on_rows=kill_a_busy_worker)
    assert killed, "no chunk's rows arrived while a worker was busy"
    pid, lost = killed[0]
    assert any(str(key).startswith("montecards-chunk-") for key in lost), "killed an idle worker"
    assert np.array_equal(rows, reference[1])
    assert np.array_equal(summary.sums, reference[0].sums)
    assert np.array_equal(summary.sumsq, reference[0].sumsq)
    client.wait_for_workers(2, timeout=120)
    assert pid not in client.run(os.getpid).values()
    assert worker_threads(client) == 2


def test_a_worker_killed_mid_analysis_does_not_change_it(client):
    """Runs last, after the other killing test: a worker is killed while a seat analysis's
    chunks run (a watcher thread kills the first worker seen busy with a chunk)."""
    import threading

    from montecards.analysis import seat_advantage

    client.wait_for_workers(2, timeout=120)
    pids = client.run(os.getpid)
    killed: list[int] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set() and not killed:
            busy = [w for w, keys in client.processing().items()
                    if any(str(k).startswith("montecards-chunk-") for k in keys)]
            if busy and busy[0] in pids:
                os.kill(pids[busy[0]], signal.SIGKILL)
                killed.append(pids[busy[0]])
            stop.wait(0.01)

    local = seat_advantage("parade", players=[2, 4], n=40_000, seed=12, jobs=1)
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        remote = seat_advantage("parade", players=[2, 4], n=40_000, seed=12, client=client)
    finally:
        stop.set()
        watcher.join()
    assert killed, "no worker was seen busy with a chunk"
    assert _numbers(remote.to_dict()) == _numbers(local.to_dict())


def test_tuning_on_the_cluster_gives_the_local_result(client):
    """mc.tune on the Dask backend: the same search, winner and held-out figures as locally."""
    strategy = str(ROOT / "montecards/strategies/parade_weighted.py") + ":choose"
    args = dict(strategy=strategy, x0=[-1.0, -0.5], players=2, budget=8_000, deals=500, popsize=2,
                holdout=500, seed=4, progress=False)
    local = mc.tune("parade", jobs=1, **args)
    remote = mc.tune("parade", client=client, **args)
    assert remote.best == local.best
    assert remote.history.equals(local.history)
    assert remote.holdout == local.holdout


def test_a_tournament_on_the_cluster_is_the_local_one(client):
    args = dict(players=3, n=150, seed=12, bootstrap=20)
    local = mc.tournament("parade", ["random", "greedy"], **args)
    remote = mc.tournament("parade", ["random", "greedy"], client=client, **args)
    assert remote.games_played == local.games_played == 2 * 3 * 150
    assert np.array_equal(remote.ratings.rating, local.ratings.rating)
    assert np.array_equal(remote.ratings.draws, local.ratings.draws)


def test_luck_on_the_cluster_gives_the_local_numbers_and_checkpoints_record_it(client, tmp_path):
    run = dict(n=600, players=2, strategies="greedy", seed=91, chunk_size=200, luck=True)
    local = mc.simulate("parade", jobs=1, **run)
    ck = tmp_path / "ck"
    remote = mc.simulate("parade", client=client, checkpoint=ck, **run)
    assert_same_run(local, remote)
    for key in ("win_share_adjusted", "win_share_adjusted_low", "win_share_adjusted_high", "variance_ratio"):
        assert local.to_dict()[key] == remote.to_dict()[key]
    manifest = json.loads((ck / "manifest.json").read_text())
    assert manifest["luck"]["value"].endswith("2p-greedy-greedy.json")
    with pytest.raises(InputError, match="another run"):  # the same run without luck is another run
        mc.simulate("parade", client=client, checkpoint=ck, **(run | {"luck": False}))


def test_luck_on_seats_and_matchups_on_the_cluster_gives_the_local_numbers(client):
    from montecards.analysis import seat_advantage
    from montecards.analysis.matchups import matchups as play_matchups

    args = dict(players=2, n=300, strategy="greedy", seed=92, luck=True)
    local = seat_advantage("parade", jobs=1, **args).to_dict()["players"]["2"]
    remote = seat_advantage("parade", client=client, **args).to_dict()["players"]["2"]
    for key in ("win_share", "win_share_adjusted", "win_share_adjusted_low", "variance_ratio"):
        assert local[key] == remote[key], key
    pair = dict(players=2, n=150, seed=93, luck=True)
    local_m = play_matchups("parade", ["greedy", "random"], jobs=1, **pair).table()
    remote_m = play_matchups("parade", ["greedy", "random"], client=client, **pair).table()
    pd.testing.assert_frame_equal(local_m, remote_m)

"""Resumable runs (--checkpoint / checkpoint=) and streamed per-game output files.

A run killed with SIGKILL and started again with the same arguments plays only the missing
chunks and gives the result of an uninterrupted run; a checkpoint of another run is refused
with one clear line (exit 2). Rows stream to .parquet/.csv chunk by chunk, identical to the
kept DataFrame.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import montecards as mc
from montecards.engine.spec import InputError

ROOT = Path(__file__).resolve().parent.parent
ENV = {"MONTECARDS_NO_PROGRESS": "1", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
NUMBERS = ("n_games", "seed", "players", "strategies", "params", "win_share", "win_share_ci95",
           "mean_score", "mean_turns", "unfinished", "metrics", "seat_outputs")


def cli(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "montecards", *args], capture_output=True,
                          text=True, timeout=600, env=ENV, cwd=ROOT, **kwargs)


def chunk_files(directory: Path) -> list[Path]:
    return sorted(directory.glob("chunk-*.npz")) if directory.is_dir() else []


def same_numbers(a: dict, b: dict) -> None:
    for key in NUMBERS:
        assert a[key] == b[key], key


def test_killed_run_resumes_with_only_the_missing_chunks(tmp_path):
    ck = tmp_path / "ck"
    n, chunk = 40_000, 500  # 80 chunks
    args = ("simulate", "parade", "-n", str(n), "--seed", "11", "-j", "1",
            "--chunk-size", str(chunk), "--checkpoint", str(ck), "--json")
    proc = subprocess.Popen([sys.executable, "-m", "montecards", *args], env=ENV, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    while len(chunk_files(ck)) < 4 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL, "the run finished before it could be killed"
    before = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in chunk_files(ck)}
    assert 4 <= len(before) < n // chunk
    assert not any(p.name.endswith(".npz") and not p.name.startswith("chunk-")
                   for p in ck.iterdir())

    resumed = cli(*args)
    assert resumed.returncode == 0, resumed.stderr
    assert f"resumed {len(before)} of {n // chunk} chunks" in resumed.stderr
    after = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in chunk_files(ck)}
    assert len(after) == n // chunk
    for name, stamp in before.items():
        assert after[name] == stamp, f"{name} was played again"

    whole = mc.simulate("parade", n=n, seed=11, jobs=1).to_dict()
    same_numbers(json.loads(resumed.stdout), json.loads(json.dumps(whole)))


def test_a_checkpoint_of_another_run_is_refused_with_one_line(tmp_path):
    ck = tmp_path / "ck"
    base = dict(n=600, seed=1, chunk_size=200, jobs=1)
    mc.simulate("parade", checkpoint=ck, **base)
    files = {p.name: p.read_bytes() for p in ck.iterdir()}
    for change in (dict(seed=2), dict(n=800), dict(players=3), dict(strategies="random"),
                   dict(params={"two_player_margin": 1}), dict(chunk_size=100)):
        with pytest.raises(InputError, match="another run") as info:
            mc.simulate("parade", checkpoint=ck, **(base | change))
        assert "\n" not in str(info.value)
    if "wigout" in mc.game_names():
        with pytest.raises(InputError, match="game"):
            mc.simulate("wigout", checkpoint=ck, **base)
    out = cli("simulate", "parade", "-n", "600", "--seed", "2", "--chunk-size", "200",
              "--checkpoint", str(ck), "--json")
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "another run (seed 2 != 1 recorded)" in lines[0]
    assert {p.name: p.read_bytes() for p in ck.iterdir()} == files  # nothing mixed in


def test_a_directory_that_is_no_checkpoint_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match="no manifest.json"):
        mc.simulate("parade", n=100, seed=1, checkpoint=tmp_path)
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match="not a directory"):
        mc.simulate("parade", n=100, seed=1, checkpoint=tmp_path / "file")


def test_resume_without_seed_takes_the_recorded_seed_and_rows_are_recorded(tmp_path):
    ck = tmp_path / "ck"
    full = mc.simulate("parade", n=1000, seed=99, chunk_size=150, jobs=1, keep_games=True,
                       checkpoint=ck)
    assert full.extra["checkpoint"]["resumed_chunks"] == 0
    for path in chunk_files(ck)[2:5]:
        path.unlink()
    again = mc.simulate("parade", n=1000, chunk_size=150, jobs=1, keep_games=True, checkpoint=ck)
    assert again.seed == 99
    assert again.extra["checkpoint"]["resumed_chunks"] == 7 - 3
    assert again.games.equals(full.games)
    assert np.array_equal(again.summary_data.sumsq, full.summary_data.sumsq)
    # a checkpoint written without rows still serves a run that keeps rows: chunks replay
    summary_only = tmp_path / "summary_only"
    mc.simulate("parade", n=1000, seed=99, chunk_size=150, jobs=1, checkpoint=summary_only)
    rows = mc.simulate("parade", n=1000, seed=99, chunk_size=150, jobs=1, keep_games=True,
                       checkpoint=summary_only)
    assert rows.games.equals(full.games)


@pytest.mark.parametrize("suffix", ["parquet", "csv"])
def test_rows_stream_to_files_identical_to_the_kept_frame(tmp_path, suffix):
    path = tmp_path / f"games.{suffix}"
    kept = mc.simulate("parade", n=2000, seed=8, players=4, chunk_size=300, jobs=1,
                       keep_games=True)
    streamed = mc.simulate("parade", n=2000, seed=8, players=4, chunk_size=300, jobs=1,
                           output=path)
    assert streamed.games is None
    assert streamed.to_dict()["win_share"] == kept.to_dict()["win_share"]
    if suffix == "parquet":
        import pyarrow.parquet as pq

        assert pq.ParquetFile(path).metadata.num_row_groups == 7  # one per chunk
        assert pd.read_parquet(path).equals(kept.games)
    else:
        buf = io.StringIO()
        kept.games.to_csv(buf, index_label="game")
        assert path.read_text() == buf.getvalue()
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary left behind


def test_streamed_output_resumes_from_a_checkpoint(tmp_path):
    ck, path = tmp_path / "ck", tmp_path / "g.parquet"
    run = dict(n=3000, seed=2, chunk_size=500, jobs=1, checkpoint=ck, output=path)
    mc.simulate("parade", **run)
    reference = pd.read_parquet(path)
    chunk_files(ck)[3].unlink()
    path.unlink()
    again = mc.simulate("parade", **run)
    assert again.extra["checkpoint"]["resumed_chunks"] == 5
    assert pd.read_parquet(path).equals(reference)
    assert len(reference) == 3000


def test_bad_chunk_size_and_stream_suffix_are_refused(tmp_path):
    with pytest.raises(InputError, match="chunk size"):
        mc.simulate("parade", n=10, seed=1, chunk_size=0)
    with pytest.raises(InputError, match="parquet"):
        mc.simulate("parade", n=10, seed=1, output=tmp_path / "x.json")
    from montecards.cli import cli as group

    with pytest.raises(InputError, match="chunk size"):
        group.main(["simulate", "parade", "-n", "10", "--chunk-size", "0"], standalone_mode=False)
    with pytest.raises(InputError, match="--backend dask"):
        group.main(["simulate", "parade", "-n", "10", "--scheduler", "tcp://127.0.0.1:1"],
                   standalone_mode=False)
    assert os.listdir(tmp_path) == []

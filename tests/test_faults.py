"""Nothing lost, nothing unclear: bad paths, damaged checkpoints, full disks and Ctrl-C.

Every fault is injected: a bad path for each command that writes, a truncated or corrupted
checkpoint chunk, a checkpoint of another version or kernel, a write that fails part-way
(a full disk, a revoked permission), and SIGINT in the middle of a checkpointed run.
"""

from __future__ import annotations

import errno
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import montecards as mc
from montecards.errors import InputError
from montecards.run import checkpoint as ck_module
from montecards.run.output import RowsWriter

ROOT = Path(__file__).resolve().parent.parent
ENV = {"MONTECARDS_NO_PROGRESS": "1", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "montecards", *args], capture_output=True,
                          text=True, timeout=600, env=ENV, cwd=cwd)


def one_line_exit_2(out: subprocess.CompletedProcess, *words: str) -> None:
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert out.returncode == 2, out.stderr
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    assert "Traceback" not in out.stderr
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture
def paths(tmp_path):
    (tmp_path / "afile").write_text("x")
    (tmp_path / "adir").mkdir()
    return tmp_path


def bad_paths(tmp: Path, suffix: str) -> list[tuple[str, str]]:
    """(path, a word its error must name) for the ways a written path can be wrong."""
    return [
        (str(tmp / "missing" / f"x{suffix}"), "does not exist"),
        (str(tmp / "afile" / f"x{suffix}"), "is a file"),
        (str(tmp / "x.unknown"), "must end in") if suffix else (str(tmp / "afile"), "is a file"),
    ]


@pytest.mark.parametrize(
    "command, option, suffix",
    [
        (("simulate", "parade", "-n", "10"), "-o", ".csv"),
        (("simulate", "parade", "-n", "10"), "-o", ".json"),
        (("simulate", "parade", "-n", "10"), "--checkpoint", ""),
        (("seats", "parade", "-n", "20"), "--plot", ".png"),
        (("compare", "parade", "-s", "greedy", "-s", "random", "-n", "20"), "--plot", ".png"),
        (("sweep", "parade", "two_player_margin", "0,1", "-n", "20"), "--plot", ".png"),
        (("report", "parade", "--quick"), "-o", ""),
    ],
)
def test_every_bad_path_is_one_line_and_exit_2(paths, command, option, suffix):
    for path, word in bad_paths(paths, suffix):
        out = cli(*command, option, path)
        one_line_exit_2(out, word)
    assert sorted(p.name for p in paths.iterdir()) == ["adir", "afile"]  # nothing written


def test_a_folder_without_write_permission_is_refused(paths, monkeypatch):
    """As root every folder is writable, so the refusal is injected where the check writes."""
    from montecards.run import paths as paths_module

    def denied(folder):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(paths_module, "probe_write", denied)
    with pytest.raises(InputError, match="cannot write in folder .*permission denied"):
        mc.simulate("parade", n=10, seed=1, output=paths / "adir" / "g.csv")
    with pytest.raises(InputError, match="cannot write in folder"):
        mc.simulate("parade", n=10, seed=1, checkpoint=paths / "adir" / "ck")


def test_help_texts_read_right():
    for command in ("simulate", "seats", "compare", "sweep", "report", "trace"):
        out = cli(command, "--help")
        assert out.returncode == 0
        assert "%%" not in out.stdout, command


@pytest.mark.parametrize("error", [errno.ENOSPC, errno.EACCES])
@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_write_failing_mid_run_is_one_line_and_leaves_no_file(tmp_path, monkeypatch, error, suffix):
    real = RowsWriter._write
    calls = []

    def failing(self, start, rows):
        calls.append(start)
        if len(calls) == 3:
            raise OSError(error, "injected")
        real(self, start, rows)

    monkeypatch.setattr(RowsWriter, "_write", failing)
    path = tmp_path / f"games{suffix}"
    with pytest.raises(InputError, match=f"writing {path} failed: injected") as info:
        mc.simulate("parade", n=2000, seed=3, chunk_size=300, jobs=1, output=path)
    assert "\n" not in str(info.value)
    assert list(tmp_path.iterdir()) == []  # neither the file nor its temporary


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    else:  # one flipped byte inside the stored (uncompressed) arrays: the zip still opens
        with np.load(path) as z:
            arrays = {k: z[k] for k in z.files}
        arrays["sums"] = arrays["sums"].copy()
        arrays["sums"].flat[0] += 1
        np.savez(path, **arrays)


@pytest.mark.parametrize("how", ["truncated", "corrupted"])
def test_a_damaged_chunk_is_detected_and_played_again(tmp_path, how):
    ck = tmp_path / "ck"
    run = dict(n=3000, seed=21, chunk_size=500, jobs=1, checkpoint=ck)
    whole = mc.simulate("parade", **run).to_dict()
    chunks = sorted(ck.glob("chunk-*.npz"))
    _damage(chunks[2], how)
    again = mc.simulate("parade", **run)
    assert again.extra["checkpoint"]["resumed_chunks"] == len(chunks) - 1
    for key in ("win_share", "mean_score", "mean_turns", "metrics", "seat_outputs"):
        assert again.to_dict()[key] == whole[key], key
    third = mc.simulate("parade", **run)  # the replayed chunk was written whole again
    assert third.extra["checkpoint"]["resumed_chunks"] == len(chunks)


def test_a_checkpoint_of_another_version_or_kernel_is_refused(tmp_path):
    ck = tmp_path / "ck"
    run = dict(n=600, seed=5, chunk_size=200, jobs=1, checkpoint=ck)
    mc.simulate("parade", **run)
    manifest_path = ck / ck_module.MANIFEST
    manifest = json.loads(manifest_path.read_text())
    for key, value in (("kernel", "0" * 64), ("montecards_version", "0.0.1")):
        changed = dict(manifest, **{key: value})
        manifest_path.write_text(json.dumps(changed))
        with pytest.raises(InputError, match="another montecards version or kernel") as info:
            mc.simulate("parade", **run)
        assert "\n" not in str(info.value)
    manifest_path.write_text(json.dumps(dict(manifest, montecards_checkpoint=1)))
    with pytest.raises(InputError, match="checkpoint format 1"):
        mc.simulate("parade", **run)


def test_ctrl_c_stops_cleanly_and_the_same_command_resumes(tmp_path):
    ck = tmp_path / "ck"
    # tuned (~80,000 games/s on one thread, ~12 s for the run): a margin for a loaded machine
    args = ("simulate", "parade", "-n", "1000000", "-s", "tuned", "--seed", "13", "-j", "1",
            "--chunk-size", "500", "--checkpoint", str(ck), "--json")
    # Ctrl-C as in a terminal: SIGINT at its default in the child. A child inherits an ignored
    # SIGINT (Python then installs no KeyboardInterrupt handler), and an xdist worker can hold
    # one after other tests (dask's): the child then ran to the end with status 0 on CI.
    proc = subprocess.Popen([sys.executable, "-m", "montecards", *args], env=ENV, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 300
    while len(list(ck.glob("chunk-*.npz"))) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("interrupted"), err
    assert out == ""
    assert not [p for p in ck.iterdir() if p.name.endswith(".tmp")]
    resumed = cli(*args)
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed" in resumed.stderr
    whole = mc.simulate("parade", n=1_000_000, strategies="tuned", seed=13, jobs=1)
    whole = json.loads(json.dumps(whole.to_dict()))
    got = json.loads(resumed.stdout)
    for key in ("win_share", "mean_score", "mean_turns", "metrics"):
        assert got[key] == whole[key], key

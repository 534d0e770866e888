"""Resumable runs: a directory that records every finished chunk of one run.

Layout of a checkpoint directory::

    manifest.json          the run's arguments (game, seed, players, strategies, params, n,
                           chunk size) and what played it (montecards version, a hash of the
                           game's kernel sources); another run, version or kernel is refused,
                           never mixed in
    chunk-00000017.npz     chunk 17: its start, count and Summary (and its per-game rows when
                           the run that wrote it kept or streamed rows), with a SHA-256 of them;
                           a chunk file that is truncated or corrupted is played again

Every file is written to a temporary name and renamed into place, so a run killed at any
moment (even by SIGKILL) leaves only whole chunk files; starting it again with the same
arguments plays only the chunks that are missing. A chunk is a pure function of the run's
arguments and its ``(start, count)``, so the resumed result is identical to an uninterrupted
run.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from montecards.engine.spec import InputError
from montecards.run.paths import write_failure
from montecards.run.summary import Summary

FORMAT = 2
MANIFEST = "manifest.json"
_CHUNK_FILE = re.compile(r"^chunk-(\d{8})\.npz$")
_MANIFEST_KEYS = ("game", "seed", "players", "strategies", "params", "n", "chunk_size", "luck")
_PLAYER_KEYS = ("montecards_version", "kernel")
"""What played the chunks: a checkpoint of another version or kernel is refused."""


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def run_manifest(
    game: str, seed: int, players: int, strategies: list[str], params: dict[str, Any], n: int,
    chunk_size: int, version: str = "", kernel: str = "", luck: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The arguments that identify a run (everything its chunks depend on), as plain JSON.

    ``version``: the montecards version; ``kernel``: a hash of the game's kernel sources;
    ``luck``: a run with ``--luck``, its value (file and weights), recorded only then.
    """
    manifest = {
        "montecards_checkpoint": FORMAT,
        "montecards_version": version,
        "kernel": kernel,
        "game": game,
        "seed": int(seed),
        "players": int(players),
        "strategies": list(strategies),
        "params": params,
        "n": int(n),
        "chunk_size": int(chunk_size),
    }
    if luck is not None:
        manifest["luck"] = luck
    return json.loads(json.dumps(_jsonable(manifest)))


def read_manifest(directory: str | os.PathLike) -> dict[str, Any] | None:
    """The manifest of an existing checkpoint directory, or None when there is none yet."""
    path = Path(directory) / MANIFEST
    if not path.is_file():
        return None
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise InputError(f"checkpoint {directory}: unreadable {MANIFEST} ({exc})") from None
    if not isinstance(manifest, dict) or "montecards_checkpoint" not in manifest:
        raise InputError(f"checkpoint {directory}: {MANIFEST} is not a montecards checkpoint manifest")
    if manifest["montecards_checkpoint"] != FORMAT:
        raise InputError(
            f"checkpoint {directory} was written by another montecards version (checkpoint format "
            f"{manifest['montecards_checkpoint']}, this one reads {FORMAT}): use a new directory"
        )
    return manifest


def _write_atomic(path: Path, write) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            write(f)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise write_failure(path, exc) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


class Checkpoint:
    """The checkpoint directory of one run. Open it with :meth:`open`."""

    def __init__(self, directory: Path, manifest: dict[str, Any]):
        self.directory = directory
        self.manifest = manifest
        self.resumed = 0
        """How many chunks this run took from the directory instead of playing them."""

    @classmethod
    def open(cls, directory: str | os.PathLike, manifest: dict[str, Any]) -> Checkpoint:
        """Create the directory for this run, or reopen it if it records this very run.

        Raises InputError (one line) when it records another run or is not a checkpoint.
        """
        path = Path(directory)
        if path.exists() and not path.is_dir():
            raise InputError(f"checkpoint {directory} is a file, not a directory")
        existing = read_manifest(path)
        if existing is None:
            if path.is_dir() and any(not p.name.startswith(".") for p in path.iterdir()):
                raise InputError(
                    f"checkpoint {directory} is not empty and has no {MANIFEST}: "
                    "give a new or empty directory"
                )
            path.mkdir(parents=True, exist_ok=True)
            _write_atomic(path / MANIFEST, lambda f: f.write(json.dumps(manifest, indent=1).encode()))
        else:
            if any(manifest.get(key) != existing.get(key) for key in _PLAYER_KEYS):
                raise InputError(
                    f"checkpoint {directory} was written by another montecards version or kernel "
                    f"(version {existing.get('montecards_version')!r}, kernel "
                    f"{str(existing.get('kernel'))[:12]}; this is {manifest.get('montecards_version')!r}, "
                    f"{str(manifest.get('kernel'))[:12]}): its games may differ, use a new directory"
                )
            diffs = [
                f"{key} {_show(manifest.get(key))} != {_show(existing.get(key))}"
                for key in _MANIFEST_KEYS
                if manifest.get(key) != existing.get(key)
            ]
            if diffs:
                raise InputError(
                    f"checkpoint {directory} was written by another run ({'; '.join(diffs)} "
                    "recorded): rerun with the recorded arguments or use a new directory"
                )
        return cls(path, manifest)

    def _path(self, index: int) -> Path:
        return self.directory / f"chunk-{index:08d}.npz"

    def recorded(self, plan: list[tuple[int, int]], need_rows: bool) -> set[int]:
        """Indices of the chunks of ``plan`` already recorded whole (with their rows if needed).

        A chunk file that cannot be read, or whose checksum does not match its contents
        (truncated, corrupted), is left out: the run plays that chunk again and overwrites it.
        """
        done = set()
        for entry in os.scandir(self.directory):
            match = _CHUNK_FILE.match(entry.name)
            if not match:
                continue
            index = int(match.group(1))
            if index >= len(plan):
                continue
            try:
                with np.load(entry.path) as data:
                    arrays = {name: data[name] for name in data.files}
            except Exception:  # a truncated zip raises BadZipFile, EOFError, ValueError, OSError...
                continue
            if "sha256" not in arrays or bytes(arrays.pop("sha256")) != _checksum(arrays):
                continue
            if need_rows and "rows" not in arrays:
                continue
            done.add(index)
        return done

    def record(self, index: int, start: int, count: int, summary: Summary,
               rows: np.ndarray | None = None) -> None:
        """Record a finished chunk (its summary, and its rows when given)."""
        arrays = {
            "start": np.int64(start),
            "count": np.int64(count),
            "n_games": np.int64(summary.n_games),
            "sums": summary.sums,
            "sumsq": summary.sumsq,
            "shared_wins": np.int64(summary.shared_wins),
        }
        for key, hist in summary.hists.items():
            arrays[f"hist_{key}"] = hist
        if rows is not None:
            arrays["rows"] = rows
        arrays["sha256"] = np.frombuffer(_checksum(arrays), np.uint8)
        save = np.savez_compressed if rows is not None else np.savez  # rows are large, summaries not
        _write_atomic(self._path(index), lambda f: save(f, **arrays))

    def load(self, index: int, start: int, count: int,
             need_rows: bool = False) -> tuple[Summary, np.ndarray | None]:
        """The summary (and rows, if asked) of a recorded chunk."""
        path = self._path(index)
        with np.load(path) as data:
            if int(data["start"]) != start or int(data["count"]) != count:
                raise InputError(
                    f"checkpoint {self.directory}: {path.name} records games "
                    f"{int(data['start'])}+{int(data['count'])}, expected {start}+{count}"
                )
            hists = {
                name[len("hist_"):]: data[name] for name in data.files if name.startswith("hist_")
            }
            summary = Summary(
                int(data["n_games"]), data["sums"], data["sumsq"], hists, int(data["shared_wins"])
            )
            rows = data["rows"] if need_rows else None
        self.resumed += 1
        return summary, rows


def _checksum(arrays: dict[str, np.ndarray]) -> bytes:
    """SHA-256 over a chunk's arrays (names, dtypes, shapes and bytes, in name order)."""
    digest = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
        digest.update(a.tobytes())
    return digest.digest()


def _show(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))

"""A report's analyses kept as they finish, so that an interrupted report resumes where it
stopped: the long strong-play runs of Gift of Tulips and Joker Marbles (tens of minutes each)
can span several sittings.

Every analysis of a report runs through ``base.timed``, in the same order at every run of the
same recipe. Each finished analysis is written to ``<out>/.checkpoint/<k>.pkl`` (its result,
what it was, its size and the seconds it took); a rerun of the same command loads the first
analyses from there instead of playing them again, and plays on from the first one missing.
The folder is removed when the report is written.

A checkpoint is used only by the run that could have written it: the same game, seed and size,
and the same montecards sources (a hash of every ``.py`` file of the package, so a change to
the analysis code, not only to the kernels, starts the report afresh). Another checkpoint in the
folder is discarded, with a line on stderr saying why. A stored analysis must also name the same
analysis and size as the one the recipe asks for at that place, or it is played again.

The files are Python pickles that this module wrote itself; do not put others in the folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from montecards._cache import PACKAGE_ROOT

CHECKPOINT_DIR = ".checkpoint"
IDENTITY_FILE = "identity.json"


def sources_hash(root: Path = PACKAGE_ROOT) -> str:
    """SHA-256 (hex) of every ``.py`` file of the package (paths and bytes)."""
    digest = hashlib.sha256()
    for file in sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts):
        digest.update(file.relative_to(root).as_posix().encode() + b"\0")
        digest.update(file.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    return digest.hexdigest()


class AnalysisCheckpoint:
    """The checkpoint folder of one report run (module docstring)."""

    def __init__(self, out_dir: str | Path, game: str, seed: int, quick: bool):
        self.folder = Path(out_dir) / CHECKPOINT_DIR
        self.identity = {"game": game, "seed": seed, "size": "quick" if quick else "full",
                         "sources": sources_hash()}
        self.count = 0  # analyses asked for so far
        self.loaded = 0  # of which loaded from the folder
        self.opened = False  # the folder is opened by the first analysis (bad input writes nothing)

    def _open(self) -> None:
        """Keep the folder's analyses if this run could have written them, else start it afresh."""
        self.opened = True
        manifest = self.folder / IDENTITY_FILE
        if self.folder.exists():
            try:
                found = json.loads(manifest.read_text())
            except (OSError, ValueError):
                found = None
            if found != self.identity:
                why = ("it has no readable identity" if found is None else
                       "it was written by another run (" + ", ".join(
                           k for k in self.identity if found.get(k) != self.identity[k]) + " differ)")
                print(f"discarding the checkpoint in {self.folder}: {why}", file=sys.stderr)
                shutil.rmtree(self.folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        manifest.write_text(json.dumps(self.identity))

    def run(self, what: str, size: str, func: Callable[[], Any]) -> tuple[Any, float, bool]:
        """``func()``'s value for the next analysis, the seconds it took (when it was played)
        and whether it came from the checkpoint."""
        if not self.opened:
            self._open()
        self.count += 1
        path = self.folder / f"{self.count:03d}.pkl"
        if path.exists():
            try:
                with path.open("rb") as f:
                    stored = pickle.load(f)
                if stored["what"] == what and stored["size"] == size:
                    self.loaded += 1
                    return stored["value"], stored["seconds"], True
            except Exception:  # noqa: BLE001  (a torn or foreign file: play the analysis again)
                pass
        start = time.perf_counter()
        value = func()
        seconds = time.perf_counter() - start
        tmp = path.with_suffix(".tmp")
        try:
            with tmp.open("wb") as f:
                pickle.dump({"what": what, "size": size, "seconds": seconds, "value": value}, f,
                            protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)  # whole or not at all: a kill mid-write leaves no torn .pkl
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            tmp.unlink(missing_ok=True)
            print(f"not checkpointed: {what} ({exc})", file=sys.stderr)
        return value, seconds, False

    def finish(self) -> None:
        """The report is written: its checkpoint is no longer needed."""
        shutil.rmtree(self.folder, ignore_errors=True)

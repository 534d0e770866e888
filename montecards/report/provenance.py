"""Where a report comes from, and whether it still matches the code.

Every report writes ``provenance.json`` beside its README: the montecards version, the git
commit it was built at (with ``dirty`` when the work tree had uncommitted changes), the exact
command, the seed, the wall-clock and CPU seconds, and the **kernel hash** of its game.

The kernel hash is a SHA-256 over every source file a game's kernels can reach, the same set
that keys numba's cache (``montecards/_cache.py``): the game's package
(``montecards/games/<game>/``), ``montecards/engine/`` and ``montecards/rng.py``. An edit of
any of them can change the games a seed plays, so it changes the hash; an edit of the CLI, the
analysis layer, the reports or another game does not.

:func:`staleness` compares a report folder's recorded hash with today's and returns the
problems (empty when current); ``tests/test_report_provenance.py`` runs it on a generated
report and on the committed ones.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import subprocess
from pathlib import Path
from typing import Any

from montecards._cache import PACKAGE_ROOT, SHARED

PROVENANCE_FILE = "provenance.json"


def kernel_sources(game: str, root: Path = PACKAGE_ROOT) -> list[Path]:
    """The source files ``game``'s kernels can reach, in a fixed order."""
    folders = [root / "games" / game, *(root / s for s in SHARED)]
    files: list[Path] = []
    for path in folders:
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.py") if "__pycache__" not in p.parts))
        elif path.is_file():
            files.append(path)
    if not any(p.is_relative_to(root / "games" / game) for p in files):
        raise ValueError(f"no kernel sources for game {game!r} under {root / 'games'}")
    return files


def kernel_hash(game: str, root: Path = PACKAGE_ROOT) -> str:
    """SHA-256 (hex) of ``game``'s kernel sources: each file's path below ``root`` and its
    bytes with line endings normalised (a checkout with CRLF endings hashes the same)."""
    digest = hashlib.sha256()
    for file in kernel_sources(game, root):
        digest.update(file.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(file.read_bytes().replace(b"\r\n", b"\n"))
        digest.update(b"\0")
    return digest.hexdigest()


def git_commit(root: Path = PACKAGE_ROOT) -> tuple[str | None, bool]:
    """The commit checked out at ``root`` and whether the package's sources (the tracked files
    below ``root``) differ from it: a report being written changes tracked files of its own
    folder, which do not make the code it ran uncommitted (``(None, False)`` outside a git
    checkout, e.g. an installed wheel)."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                              timeout=30, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "."], cwd=root,
                               capture_output=True, text=True, timeout=30, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None, False
    return head or None, bool(dirty)


def provenance(game: str, command: str, seed: int, quick: bool, jobs: int | None, wall_seconds: float,
               cpu_seconds: float) -> dict[str, Any]:
    """The record written beside a report (see the module docstring)."""
    from montecards import __version__

    commit, dirty = git_commit()
    return {
        "game": game,
        "montecards": __version__,
        "commit": commit,
        "dirty": dirty,
        "command": command,
        "seed": seed,
        "size": "quick" if quick else "full",
        "jobs": jobs,
        "wall_seconds": round(wall_seconds, 1),
        "cpu_seconds": round(cpu_seconds, 1),
        "kernel_hash": kernel_hash(game),
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def read_provenance(report_dir: str | Path) -> dict[str, Any] | None:
    """The provenance recorded in ``report_dir`` (None when the report has none)."""
    path = Path(report_dir) / PROVENANCE_FILE
    if not path.exists():
        return None
    return json.loads(path.read_text())


def staleness(report_dir: str | Path, game: str | None = None, root: Path = PACKAGE_ROOT) -> list[str]:
    """Why the report in ``report_dir`` does not match today's kernel sources: an empty list
    when it does; otherwise one sentence per problem (no provenance, no or another kernel hash,
    another game)."""
    report_dir = Path(report_dir)
    record = read_provenance(report_dir)
    if record is None:
        return [f"{report_dir} has no {PROVENANCE_FILE}: it predates recorded provenance; regenerate it"]
    game = game or record.get("game")
    problems = []
    if record.get("game") != game:
        problems.append(f"{report_dir} records game {record.get('game')!r}, expected {game!r}")
    recorded = record.get("kernel_hash")
    today = kernel_hash(game, root)
    if recorded != today:
        problems.append(
            f"{report_dir} was built from other kernel sources (recorded kernel hash "
            f"{str(recorded)[:12]}, today {today[:12]}, commit {record.get('commit')}): regenerate it "
            f"with `{record.get('command')}`"
        )
    return problems

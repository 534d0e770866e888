"""Checks of the files and folders a run writes, before any game is played.

Each check raises :class:`~montecards.errors.InputError` with one line naming the path and
what is wrong with it (the CLI prints it and exits with status 2): a folder that does not
exist, a path that runs through a file, a folder the user may not write in, a suffix that is
not allowed. Writing failures during a run (a full disk) are turned into one line by
:func:`write_failure`.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from montecards.errors import InputError


def _first_file_on(path: Path) -> Path | None:
    """The first existing component of ``path`` (not ``path`` itself) that is not a folder."""
    for parent in reversed(path.parents):
        if parent.exists() and not parent.is_dir():
            return parent
    return None


def probe_write(folder: Path) -> None:
    """Create and remove a file in ``folder`` (the one test of write permission that holds
    for root, ACLs and read-only mounts alike); raises ``OSError``."""
    with tempfile.TemporaryFile(dir=folder):
        pass


def _check_writable_folder(folder: Path, what: str, shown: str) -> None:
    try:
        probe_write(folder)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise InputError(f"{what} {shown}: cannot write in folder {folder} ({reason.lower()})") from None


def check_output_file(path: str | os.PathLike, suffixes: Sequence[str], what: str = "output") -> Path:
    """A file the run will write (replacing it): an allowed suffix, in a writable folder."""
    p = Path(path)
    shown = str(path)
    if p.suffix.lower() not in suffixes:
        raise InputError(f"{what} must end in {', '.join(suffixes)}, got {shown!r}")
    if p.is_dir():
        raise InputError(f"{what} {shown}: is a folder, not a file")
    blocker = _first_file_on(p)
    if blocker is not None:
        raise InputError(f"{what} {shown}: {blocker} is a file, not a folder")
    folder = p.parent
    if not folder.is_dir():
        raise InputError(f"{what} {shown}: folder {folder} does not exist")
    _check_writable_folder(folder, what, shown)
    return p


def check_output_folder(path: str | os.PathLike, what: str = "checkpoint") -> Path:
    """A folder the run will create or fill: not a file, under an existing, writable folder."""
    p = Path(path)
    shown = str(path)
    if p.exists() and not p.is_dir():
        raise InputError(f"{what} {shown} is a file, not a directory")
    blocker = _first_file_on(p)
    if blocker is not None:
        raise InputError(f"{what} {shown}: {blocker} is a file, not a folder")
    if p.is_dir():
        _check_writable_folder(p, what, shown)
        return p
    if not p.parent.is_dir():
        raise InputError(f"{what} {shown}: folder {p.parent} does not exist")
    _check_writable_folder(p.parent, what, shown)
    return p


class WriteError(InputError):
    """Writing a run's file failed part-way (a full disk, a revoked permission)."""


def write_failure(path: str | os.PathLike, exc: OSError) -> WriteError:
    """One line for an ``OSError`` raised while writing ``path``."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    return WriteError(f"writing {path} failed: {reason.lower()} (no partial file was left)")

"""A numba cache that cannot serve stale kernels: keyed on the sources a kernel can inline.

Numba's cache checks only a function's own source file. A game kernel in ``kernel.py``
inlines rule functions from ``rules.py``: after an edit of ``rules.py`` the cached kernel
(its own file unchanged) would load and run the *old* rules, and tests would pass against
stale code. This module installs, before any montecards function is jitted, a cache locator
for the files of this package whose **source stamp is a hash of every source file the
function's code can reach**: its own game package, ``montecards/engine`` and
``montecards/rng.py`` (for a function of the engine or rng: those two). Any edit of any of
them makes every cached kernel of that game (or, for the engine, every kernel) miss and
compile afresh; an edit of the CLI, the analysis layer or another game does not.

``MONTECARDS_SAFE_JIT=1`` (see ``engine/jit.py``) compiles different machine code from the
same sources, so its kernels are cached in a separate folder (``__pycache__/safe-jit``).

Functions outside the package (a user's strategy, a notebook) keep numba's own locators.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from numba.core import caching, config

PACKAGE_ROOT = Path(__file__).resolve().parent
SHARED = ("engine", "rng.py")
"""What every jitted function of the package may call, besides its own game."""

SAFE_JIT = os.environ.get("MONTECARDS_SAFE_JIT", "").strip().lower() not in ("", "0", "false", "no")


def _sources(paths: tuple[Path, ...]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return files


@functools.cache
def _stamp_of(paths: tuple[Path, ...], stats: tuple[tuple[float, int], ...], flag: bytes) -> str:
    digest = hashlib.sha256()
    for file in _sources(paths):
        digest.update(file.name.encode())
        digest.update(file.read_bytes())
    digest.update(flag)
    return digest.hexdigest()


def reachable_sources(py_file: str | os.PathLike, root: Path = PACKAGE_ROOT) -> tuple[Path, ...]:
    """The folders and files whose sources a jitted function in ``py_file`` may reach."""
    relative = Path(py_file).resolve().relative_to(root)
    shared = tuple(root / s for s in SHARED)
    if len(relative.parts) >= 3 and relative.parts[0] == "games":
        return (root / "games" / relative.parts[1], *shared)
    return shared


def source_stamp(py_file: str | os.PathLike, root: Path = PACKAGE_ROOT, jit_mode: bool = True) -> str:
    """A hash of every source ``py_file``'s jitted functions may reach (memoised per stat).

    ``jit_mode``: fold in whether ``MONTECARDS_SAFE_JIT`` is on (different machine code, the
    same games); off for a stamp of the games themselves (checkpoints).
    """
    paths = reachable_sources(py_file, root)
    stats = tuple((f.stat().st_mtime, f.stat().st_size) for f in _sources(paths))
    flag = (b"safe-jit" if SAFE_JIT else b"fast-jit") if jit_mode else b""
    return _stamp_of(paths, stats, flag)


def _inside(py_file: str, root: Path) -> bool:
    try:
        Path(py_file).resolve().relative_to(root)
    except (ValueError, OSError):
        return False
    return True


class PackageSourceLocator(caching._CacheLocator):
    """numba's in-tree (or ``NUMBA_CACHE_DIR``) cache, stamped by ``source_stamp``.

    ``root``: the package tree it serves (a test serves a temporary tree by subclassing).
    """

    root = PACKAGE_ROOT

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        if config.CACHE_DIR:
            base = os.path.join(config.CACHE_DIR, self.get_suitable_cache_subpath(py_file))
        else:
            base = os.path.join(os.path.dirname(py_file), "__pycache__")
        self._cache_path = os.path.join(base, "safe-jit") if SAFE_JIT else base

    def get_cache_path(self):
        return self._cache_path

    def get_source_stamp(self):
        return source_stamp(self._py_file, self.root)

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _inside(py_file, cls.root):
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:
            return None  # a read-only install: numba's other locators take over
        return self


def install(locator: type[PackageSourceLocator] = PackageSourceLocator) -> None:
    """Put ``locator`` first among numba's locators (once)."""
    classes = caching.CacheImpl._locator_classes
    if locator not in classes:
        classes.insert(0, locator)


install()

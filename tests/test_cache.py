"""The numba cache cannot serve a stale kernel: it is keyed on every source a kernel reaches.

numba's own cache checks only a function's file, so a kernel that inlines a rule from another
file would keep running the old rule after that file changed. ``montecards._cache`` stamps
the cache of every function of the package with a hash of its game package, the engine and
rng. The end-to-end test plays a kernel in a fresh process, edits the rule it inlines, and
plays it again in another fresh process: numba's own locator returns the stale answer (so the
test can tell), montecards' returns the new one.
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from montecards import _cache

ROOT = Path(__file__).resolve().parent.parent


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "pkg"
    (root / "games" / "toy").mkdir(parents=True)
    (root / "games" / "other").mkdir(parents=True)
    (root / "engine").mkdir()
    (root / "rng.py").write_text("X = 1\n")
    (root / "engine" / "jit.py").write_text("Y = 1\n")
    (root / "games" / "toy" / "rules.py").write_text(
        "from numba import njit\n\n\n@njit(cache=True, inline='always')\ndef rule(x):\n    return x + 1\n"
    )
    (root / "games" / "toy" / "kernel.py").write_text(
        "import sys\nfrom numba import njit\nsys.path.insert(0, __file__.rsplit('/', 1)[0])\n"
        "from rules import rule\n\n\n@njit(cache=True)\ndef kernel(x):\n    return rule(x) * 10\n"
    )
    (root / "games" / "other" / "rules.py").write_text("Z = 1\n")
    return root


def test_a_game_kernel_reaches_its_package_the_engine_and_rng(tmp_path):
    root = _tree(tmp_path)
    reached = _cache.reachable_sources(root / "games" / "toy" / "kernel.py", root)
    assert reached == (root / "games" / "toy", root / "engine", root / "rng.py")
    assert _cache.reachable_sources(root / "engine" / "jit.py", root) == (root / "engine", root / "rng.py")


def test_the_stamp_moves_with_the_game_engine_and_rng_but_not_with_another_game(tmp_path):
    root = _tree(tmp_path)
    kernel = root / "games" / "toy" / "kernel.py"
    first = _cache.source_stamp(kernel, root)
    (root / "games" / "other" / "rules.py").write_text("Z = 2  # another game\n")
    assert _cache.source_stamp(kernel, root) == first
    for edited in (root / "games" / "toy" / "rules.py", root / "engine" / "jit.py", root / "rng.py"):
        before = _cache.source_stamp(kernel, root)
        edited.write_text(edited.read_text() + "# edited\n")
        assert _cache.source_stamp(kernel, root) != before, edited


PLAY = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {repo!r})
    from pathlib import Path
    if {ours}:
        from montecards import _cache

        class Toy(_cache.PackageSourceLocator):
            root = Path({root!r})

        _cache.install(Toy)
    sys.path.insert(0, {games!r})
    from kernel import kernel
    print(kernel(1))
    """
)


def _play(root: Path, ours: bool) -> int:
    code = PLAY.format(repo=str(ROOT), ours=ours, root=str(root), games=str(root / "games" / "toy"))
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return int(out.stdout.split()[-1])


def _edit_rule(root: Path) -> None:
    rules = root / "games" / "toy" / "rules.py"
    rules.write_text(rules.read_text().replace("x + 1", "x + 2"))


def test_numbas_own_cache_serves_the_stale_kernel(tmp_path):
    """The failure this module exists for (if numba ever fixes it, this test says so)."""
    root = _tree(tmp_path)
    assert _play(root, ours=False) == 20
    _edit_rule(root)
    assert _play(root, ours=False) == 20  # stale: the edited rule would give 30


def test_an_edited_rule_recompiles_the_kernel_that_inlines_it(tmp_path):
    root = _tree(tmp_path)
    assert _play(root, ours=True) == 20
    assert _play(root, ours=True) == 20  # from the cache
    assert any(p.suffix == ".nbi" for p in (root / "games" / "toy" / "__pycache__").iterdir())
    _edit_rule(root)
    assert _play(root, ours=True) == 30

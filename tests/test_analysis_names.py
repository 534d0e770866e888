"""``from montecards.analysis import matchups`` is the function whatever was imported before:
the functions named as their modules stay functions once their module is imported (a test-order
failure in test_plots.py came from this: the module came back when another test had imported
``montecards.analysis.matchups`` first)."""

from __future__ import annotations

import subprocess
import sys

SAME_NAMED = ("matchups", "luck", "balance", "tune", "tournament")


def test_functions_named_as_their_modules_stay_functions():
    code = "\n".join(
        [f"import montecards.analysis.{name}" for name in SAME_NAMED]
        + [f"from montecards.analysis import {', '.join(SAME_NAMED)}",
           f"assert all(callable(f) and f.__module__ == 'montecards.analysis.' + f.__name__ "
           f"for f in ({', '.join(SAME_NAMED)},)), [type(f) for f in ({', '.join(SAME_NAMED)},)]",
           "import sys",
           "assert type(sys.modules['montecards.analysis.matchups']).__name__ == 'module'",
           "from montecards.analysis.matchups import MatchupResult"]
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr

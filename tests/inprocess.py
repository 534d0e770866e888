"""A ``montecards`` command run in the test's own process, as ``python -m montecards`` runs it
(``montecards.cli.main``: its exit status, stdout and stderr), returned like ``subprocess.run``'s
result. A subprocess per command would import montecards and load numba's cache again each time;
the tests that need a real process (an interpreter's exit, a new process's cache) keep one."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys


def run_main(*args: str) -> subprocess.CompletedProcess:
    from montecards.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    old = sys.argv
    sys.argv = ["montecards", *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv = old
    return subprocess.CompletedProcess(["montecards", *args], code, out.getvalue(), err.getvalue())

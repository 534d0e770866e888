"""Test settings: the repository root on sys.path (for ``tests.naive``), no progress bars; and
``--numba-compiles N``: the kernels the tests compiled (numba cache misses: what neither
``montecards warmup`` nor an earlier test had put in the cache), the N slowest listed with the
test that paid for each (.ci/run passes it: the suite's time is mostly such compiles)."""

import os
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("MONTECARDS_NO_PROGRESS", "1")

_COMPILES: list[dict] = []  # this process's compiles (an xdist worker sends its own at the end)


def pytest_addoption(parser):
    parser.addoption("--numba-compiles", type=int, default=None, metavar="N",
                     help="list the N slowest numba compiles (cache misses) with the test that caused each")


def pytest_configure(config):
    if config.getoption("numba_compiles") is None:
        return
    from numba.core import event

    starts: list[float] = []

    class Listener(event.Listener):
        def on_start(self, ev):
            starts.append(time.perf_counter())

        def on_end(self, ev):
            began = starts.pop()
            if starts:  # a function compiled inside a kernel's compile: counted in the kernel's
                return
            func = ev.data["dispatcher"].py_func
            test = os.environ.get("PYTEST_CURRENT_TEST", "(outside a test)").rsplit(" (", 1)[0]
            _COMPILES.append({"kernel": f"{func.__module__}.{func.__qualname__}",
                              "signature": str(tuple(ev.data["args"])),
                              "seconds": time.perf_counter() - began, "test": test})

    event.register("numba:compile", Listener())


def pytest_sessionfinish(session):
    if hasattr(session.config, "workeroutput"):  # an xdist worker: hand them to the controller
        session.config.workeroutput["numba_compiles"] = list(_COMPILES)


@pytest.hookimpl(optionalhook=True)  # an xdist hook
def pytest_testnodedown(node, error):
    _COMPILES.extend(getattr(node, "workeroutput", {}).get("numba_compiles", []))


def pytest_terminal_summary(terminalreporter, config):
    top = config.getoption("numba_compiles")
    if top is None or hasattr(config, "workeroutput"):
        return
    write = terminalreporter.write_line
    terminalreporter.section("numba compiles in the tests (cache misses)")
    total = sum(c["seconds"] for c in _COMPILES)
    write(f"{len(_COMPILES)} compiles, {total:.0f} s (in this process and the xdist workers; "
          "subprocesses not counted)")
    seen: dict[tuple, int] = {}
    for c in _COMPILES:
        seen[(c["kernel"], c["signature"])] = seen.get((c["kernel"], c["signature"]), 0) + 1
    twice = sum(k - 1 for k in seen.values())
    if twice:
        write(f"{twice} of them compiled a kernel another worker compiled too")
    for c in sorted(_COMPILES, key=lambda c: -c["seconds"])[:top]:
        options = c["signature"][-70:]  # the option tuples and deal argument end the signature
        write(f"{c['seconds']:7.1f}s {c['kernel']} ...{options}  <- {c['test']}")

"""montecards warmup: every game's kernels compiled (or loaded), with progress and times."""

from click.testing import CliRunner

from montecards import games
from montecards.cli import cli
from montecards.warmup import default_jobs, largest_first, warm


def test_every_game_in_some_order_and_jobs_bounded():
    assert sorted(largest_first(games.names())) == sorted(games.names())
    assert 1 <= default_jobs(5) <= 5
    assert default_jobs(1) == 1


def test_warm_reports_each_game():
    seen = []
    results = warm(["anomia"], jobs=1, report=lambda w, k, total: seen.append((w.game, k, total)))
    assert seen == [("anomia", 1, 1)]
    assert not results[0].error and results[0].kernels == ["run", "trace", "script", "decisions"]


def test_the_command_says_how_long_it_took():
    out = CliRunner().invoke(cli, ["warmup", "anomia", "-j", "1"])
    assert out.exit_code == 0, out.output
    assert "[1/1] anomia: ready in" in out.output
    assert "warmup: 1 of 1 games ready in" in out.output


def test_warmup_user_compiles_the_user_trace_too():
    """After ``warmup --user parade``, a new process's first ``trace`` with a user strategy
    loads the trace kernel's user path from the cache: it compiles no kernel."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    results = warm(["parade"], jobs=1, user=True)
    assert not results[0].error and results[0].kernels[-2:] == ["user", "user trace"]
    root = Path(__file__).resolve().parent.parent
    probe = (
        "from numba.core import event as ev\n"
        "import montecards as mc\n"
        "compiled = []\n"
        "class Count(ev.Listener):\n"
        "    def on_start(self, e): compiled.append(e.data['dispatcher'].py_func.__qualname__)\n"
        "    def on_end(self, e): pass\n"
        "with ev.install_listener('numba:compile', Count()):\n"
        f"    mc.trace('parade', seed=7, index=3,\n"
        f"             strategies=['{root}/montecards/strategies/parade_greedy.py:choose', 'greedy'])\n"
        "print(sorted(set(compiled)))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=1800,
                         env={**os.environ, "PYTHONPATH": str(root)})
    assert out.returncode == 0, out.stderr[-2000:]
    assert "trace_one" not in out.stdout, out.stdout


def test_kernels_names_the_kinds_compiled():
    """``warmup --kernels run,trace`` compiles the run and trace kernels only (CI's safe-JIT
    pass has no use for the scripted or decision-log kernels beyond what its tests compile)."""
    results = warm(["anomia"], jobs=1, kernels=("run", "trace"))
    assert not results[0].error and results[0].kernels == ["run", "trace"]
    out = CliRunner().invoke(cli, ["warmup", "anomia", "-j", "1", "--kernels", "trace"])
    assert out.exit_code == 0, out.output
    assert "(" in out.output and "; trace)" in out.output


def test_an_unknown_kernel_kind_is_one_line_and_exit_2():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "montecards", "warmup", "anomia", "--kernels", "run,rnu"],
                         capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        "error: --kernels: unknown kind 'rnu' (choose from run, trace, script, decisions)"]

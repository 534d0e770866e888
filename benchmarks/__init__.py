"""Throughput benchmarks of montecards (issue #9): run, record, compare, plot, CI smoke.

``python benchmarks/run.py`` measures every registered game; ``compare.py`` compares the
current tree with the recorded history; ``plot.py`` draws ``history.png``; ``smoke.py`` is the
CI guard against gross regressions. See ``benchmarks/README.md``.
"""

"""An interrupted report resumes from its checkpoint (report/checkpoint.py): the analyses its
first run finished are loaded, not played again, and the page is the one an uninterrupted run
writes; a checkpoint of another run is discarded; the analyses' results survive the pickle."""

from __future__ import annotations

import json
import pickle
import types

import pandas as pd
import pytest

import montecards.report as report_pkg
from montecards.analysis import compare_variants, matchups, seat_advantage, sweep
from montecards.analysis.tournament import tournament
from montecards.report import build_report
from montecards.report.base import timed
from montecards.report.checkpoint import CHECKPOINT_DIR, AnalysisCheckpoint


class Stop(Exception):
    pass


def _recipe(calls: list[str], stop_at: str | None):
    """A recipe of three analyses (each counts its calls); ``stop_at`` raises before that one,
    as a killed run stops."""

    def build(rep):
        values = []
        for name in ("first", "second", "third"):
            if name == stop_at:
                raise Stop(name)
            values.append(timed(rep, f"{name} analysis", "10 games",
                                lambda name=name: calls.append(name) or {"name": name, "x": len(name)}))
        rep.section("Values", ", ".join(f"{v['name']}={v['x']}" for v in values))

    return types.SimpleNamespace(build=build)


def test_an_interrupted_report_resumes_where_it_stopped(tmp_path, monkeypatch):
    out = tmp_path / "rep"
    calls: list[str] = []
    monkeypatch.setattr(report_pkg, "recipe", lambda game: _recipe(calls, "third"))
    with pytest.raises(Stop):
        build_report("parade", out, quick=True, seed=3)
    assert calls == ["first", "second"]
    assert sorted(p.name for p in (out / CHECKPOINT_DIR).glob("*.pkl")) == ["001.pkl", "002.pkl"]

    monkeypatch.setattr(report_pkg, "recipe", lambda game: _recipe(calls, None))
    page = build_report("parade", out, quick=True, seed=3).read_text()
    assert calls == ["first", "second", "third"]  # only the missing analysis was played again
    assert "first=5, second=6, third=5" in page
    assert "2 of its 3 analyses came from that run's checkpoint" in page
    assert json.loads((out / "provenance.json").read_text())["resumed_analyses"] == 2
    assert not (out / CHECKPOINT_DIR).exists()  # removed once the report is written

    # an uninterrupted run plays everything and says nothing of a checkpoint
    page = build_report("parade", tmp_path / "fresh", quick=True, seed=3).read_text()
    assert calls[3:] == ["first", "second", "third"] and "checkpoint" not in page.split("## Run sizes")[0]


def test_a_checkpoint_of_another_run_is_discarded(tmp_path, monkeypatch, capsys):
    out = tmp_path / "rep"
    calls: list[str] = []
    monkeypatch.setattr(report_pkg, "recipe", lambda game: _recipe(calls, "third"))
    with pytest.raises(Stop):
        build_report("parade", out, quick=True, seed=3)
    monkeypatch.setattr(report_pkg, "recipe", lambda game: _recipe(calls, None))
    build_report("parade", out, quick=True, seed=4)  # another seed: other games
    assert calls == ["first", "second", "first", "second", "third"]
    err = capsys.readouterr().err
    assert "discarding the checkpoint" in err and "(seed differ)" in err


def test_a_stored_analysis_must_be_the_one_asked_for(tmp_path):
    first = AnalysisCheckpoint(tmp_path, "parade", 1, True)
    value, seconds, loaded = first.run("a", "1 game", lambda: 1)
    assert (value, loaded) == (1, False) and seconds >= 0
    again = AnalysisCheckpoint(tmp_path, "parade", 1, True)
    assert again.run("a", "1 game", lambda: 2) == (1, seconds, True) and again.loaded == 1
    other = AnalysisCheckpoint(tmp_path, "parade", 1, True)
    assert other.run("b", "1 game", lambda: 3)[0] == 3 and other.loaded == 0  # another analysis there
    (tmp_path / CHECKPOINT_DIR / "001.pkl").write_bytes(b"torn")  # a torn file: played again
    assert AnalysisCheckpoint(tmp_path, "parade", 1, True).run("b", "1 game", lambda: 4)[0] == 4


def test_the_reports_analysis_results_survive_the_pickle():
    """The objects the recipes keep (runs, matchups, variants, sweeps, ratings) pickle whole:
    the same tables after the round trip."""
    kw = {"seed": 5, "jobs": 1}
    results = {
        "seats": seat_advantage("parade", players=[2, 3], n=200, **kw),
        "matchups": matchups("parade", ["greedy", "random"], players=2, n=100, **kw),
        "variants": compare_variants("wigout", {"rules": {}, "hand_size=5": {"hand_size": 5}}, n=100, players=4,
                                     **kw),
        "sweep": sweep("wigout", "speed", ["1,1,1,1", "2,1,1,1"], n=100, players=4, **kw),
        "tournament": tournament("parade", ["greedy", "random"], players=2, n=100, **kw),
    }
    back = {name: pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
            for name, value in results.items()}
    for name in ("seats", "matchups", "tournament"):
        pd.testing.assert_frame_equal(back[name].table(), results[name].table())
    pd.testing.assert_frame_equal(back["sweep"].table("win_0"), results["sweep"].table("win_0"))
    assert back["variants"].difference("hand_size=5", "win_0") == results["variants"].difference("hand_size=5",
                                                                                                   "win_0")
    assert back["sweep"].plot.curve(["win_0"]) is not None  # the recipes plot from loaded results


def test_bad_input_writes_no_checkpoint(tmp_path, monkeypatch):
    """A report refused for bad input (here -j 0) leaves no checkpoint behind, and says nothing
    of an old one (its error stays one line: tests/test_bad_input.py)."""
    from montecards.errors import InputError

    calls: list[str] = []
    monkeypatch.setattr(report_pkg, "recipe", lambda game: _recipe(calls, None))
    with pytest.raises(InputError, match="jobs"):
        build_report("parade", tmp_path / "rep", quick=True, jobs=0)
    assert calls == [] and not (tmp_path / "rep" / CHECKPOINT_DIR).exists()

"""The benchmark suite's logic on synthetic history entries (no timing, no kernels)."""

from __future__ import annotations

import json

import pytest

from benchmarks import compare, core, history, instructions, plot


def case(key: str, ratio: float, games_per_s: float = 1000.0, reps: list[float] | None = None) -> dict:
    game, label, strategy, threads = key.split("/")
    return {
        "key": key,
        "game": game,
        "label": label,
        "players": int(label.split("p")[0]),
        "params": {},
        "strategy": strategy,
        "threads": threads[1:],
        "thread_count": 1 if threads == "t1" else 2,
        "n": 1000,
        "games_per_s": games_per_s,
        "turns_per_s": 30 * games_per_s,
        "turns_per_game": 30.0,
        "cpu_games_per_s": games_per_s,
        "calib_per_s": games_per_s / ratio,
        "ratio": ratio,
        "ratio_spread": 0.0,
        "reps": {"ratio": reps if reps is not None else [ratio] * 5},
    }


def entry(
    date: str, cases: list[dict], commit: str = "a" * 40, quick: bool = False, version: int = 1
) -> dict:
    return {
        "schema": 1,
        "date": date,
        "commit": commit,
        "dirty": False,
        "quick": quick,
        "machine": {"cpu": "test cpu", "cores": 2},
        "load": {"before": [1.0, 1.0, 1.0]},
        "settings": {"repeats": 5, "calibration_version": version},
        "cases": cases,
    }


KEY = "parade/2p/greedy/t1"
OTHER = "wigout/4p/greedy/t1"


def test_compare_flags_only_slowdowns_beyond_threshold():
    base = entry("2026-01-01T00:00:00", [case(KEY, 0.10), case(OTHER, 0.20)])
    now = entry("2026-01-02T00:00:00", [case(KEY, 0.05), case(OTHER, 0.18)])  # 2x slower; 1.11x slower
    rows = {r["key"]: r for r in history.compare_entries(now, base, [base], 0.30)}
    assert rows[KEY]["regression"] and rows[KEY]["slowdown"] == pytest.approx(2.0)
    assert not rows[OTHER]["regression"]
    assert rows[KEY]["ratio_change"] == pytest.approx(-0.5)


def test_threshold_never_tighter_than_observed_noise():
    # the ratio of this case wandered by up to 1.5x between unchanged runs
    past = [entry(f"2026-01-0{i}T00:00:00", [case(KEY, r)]) for i, r in enumerate([0.1, 0.15, 0.1, 0.1], 1)]
    assert history.observed_noise(KEY, past) == pytest.approx(0.5)
    assert history.threshold_for(KEY, past, 0.30) == pytest.approx(0.5)
    now = entry("2026-02-01T00:00:00", [case(KEY, 0.072)])  # 1.39x slower than the last: within noise
    rows = history.compare_entries(now, past[-1], past, 0.30)
    assert not rows[0]["regression"]
    now = entry("2026-02-01T00:00:00", [case(KEY, 0.05)])  # 2x slower: beyond it
    assert history.compare_entries(now, past[-1], past, 0.30)[0]["regression"]


def test_within_run_spread_counts_as_noise():
    noisy = entry("2026-01-01T00:00:00", [case(KEY, 0.10, reps=[0.08, 0.10, 0.14])])
    assert history.observed_noise(KEY, [noisy]) == pytest.approx(0.6)
    assert history.threshold_for(KEY, [noisy], 0.30) == pytest.approx(0.6)


def test_other_calibration_kernel_is_never_compared():
    base = entry("2026-01-01T00:00:00", [case(KEY, 0.10)], version=1)
    now = entry("2026-01-02T00:00:00", [case(KEY, 0.01)], version=2)
    rows = history.compare_entries(now, base, [base], 0.30)
    assert not rows[0]["regression"]
    assert history.smoke_baseline(KEY, [base], now) is None


def test_smoke_catches_a_2x_slowdown_and_tolerates_noise():
    ratios = [0.09, 0.30, 0.10, 0.11]
    past = [entry(f"2026-01-0{i}T00:00:00", [case(KEY, r)]) for i, r in enumerate(ratios, 1)]
    baseline = history.smoke_baseline(KEY, past, past[-1])
    assert baseline == pytest.approx(0.11)  # median of the last three: one odd entry does not rule
    assert history.smoke_verdict(baseline / 2, baseline) == "fail"
    assert history.smoke_verdict(baseline / 1.8, baseline) == "fail"
    assert history.smoke_verdict(baseline * 0.75, baseline) == "ok"
    assert history.smoke_verdict(baseline * 3, baseline) == "ok"
    assert history.smoke_verdict(0.01, None) == "no baseline"


def test_save_load_latest(tmp_path):
    first = entry("2026-01-01T10:00:00", [case(KEY, 0.1)], commit="1" * 40)
    quick = entry("2026-01-03T10:00:00", [case(KEY, 0.1)], commit="3" * 40, quick=True)
    second = entry("2026-01-02T10:00:00", [case(KEY, 0.1)], commit="2" * 40)
    for e in (first, quick, second):
        history.save_entry(e, tmp_path)
    again = history.save_entry(second, tmp_path)  # same date and commit: never overwritten
    assert again.name == "2026-01-02-2222222222-2.json"
    loaded = history.load_history(tmp_path)
    assert [e["commit"][0] for e in loaded] == ["1", "2", "2", "3"]
    assert history.latest(loaded)["commit"][0] == "2"
    assert history.latest(loaded, full_only=False)["commit"][0] == "3"


def test_compare_command_on_files(tmp_path, capsys):
    hist = tmp_path / "history"
    history.save_entry(entry("2026-01-01T00:00:00", [case(KEY, 0.10), case(OTHER, 0.2)]), hist)
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps(entry("2026-01-02T00:00:00", [case(KEY, 0.095), case(OTHER, 0.21)])))
    slow = tmp_path / "slow.json"
    slow.write_text(json.dumps(entry("2026-01-02T00:00:00", [case(KEY, 0.05), case(OTHER, 0.21)])))
    assert compare.main(["--current", str(ok), "--history", str(hist)]) == 0
    assert compare.main(["--current", str(slow), "--history", str(hist)]) == 1
    assert "REGRESSION" in capsys.readouterr().out


def test_plot_writes_png(tmp_path):
    hist = tmp_path / "history"
    for i, r in enumerate([0.10, 0.11, 0.09], 1):
        cases = [case(KEY, r), case(OTHER, 2 * r)]
        history.save_entry(entry(f"2026-01-0{i}T00:00:00", cases, commit=str(i) * 40), hist)
    out = tmp_path / "history.png"
    assert plot.main(["--history", str(hist), "--output", str(out)]) == 0
    assert out.stat().st_size > 1000


def test_helpers():
    assert core.parse_slowdown("2") == {"*": 2.0}
    assert core.parse_slowdown("parade=2, wigout=1.5") == {"parade": 2.0, "wigout": 1.5}
    assert core.slowdown_for("anomia", core.parse_slowdown("parade=2")) == 1.0
    assert core.slowdown_for("anomia", core.parse_slowdown("3")) == 3.0
    assert core.split(10, 3) == [(0, 3), (3, 3), (6, 4)]
    assert sum(c for _, c in core.split(1001, 16)) == 1001
    assert core.round_n(123456) == 120000 and core.round_n(17) == 17
    teams = core.Case("marbles", 4, (("teams", "pairs"),), "greedy", "all")
    assert teams.key == "marbles/4p,teams=pairs/greedy/tall"


def test_every_registered_game_has_cases():
    from montecards import games

    for name in games.names():
        cases = core.cases_for(name)
        spec = games.get(name)
        assert {c.strategy for c in cases} == set(spec.strategies)
        assert {c.threads for c in cases} == {"1", "all"}
        assert core.smoke_case(name).key in {c.key for c in cases}


def test_merged_baseline_takes_each_case_from_its_latest_entry():
    first = entry("2026-01-01T00:00:00", [case(KEY, 0.10), case(OTHER, 0.20)])
    later = entry("2026-01-02T00:00:00", [case(OTHER, 0.25)])  # only one game re-measured
    quick = entry("2026-01-03T00:00:00", [case(KEY, 0.01)], quick=True)
    first["_file"], later["_file"], quick["_file"] = "a.json", "b.json", "c.json"
    merged = history.cases_by_key(history.merged_baseline([first, later, quick]))
    assert merged[KEY]["ratio"] == 0.10 and merged[KEY]["from"] == "a.json"  # full beats quick
    assert merged[OTHER]["ratio"] == 0.25 and merged[OTHER]["from"] == "b.json"
    other_kernel = entry("2026-01-04T00:00:00", [case(KEY, 0.5)], version=2)
    merged = history.cases_by_key(history.merged_baseline([first, later, other_kernel]))
    assert set(merged) == {KEY} and merged[KEY]["ratio"] == 0.5


def test_all_threads_cases_get_a_looser_least_threshold():
    assert history.threshold_for("parade/2p/greedy/tall", [], 0.30) == history.ALL_THREADS_THRESHOLD
    assert history.threshold_for("parade/2p/greedy/t1", [], 0.30) == pytest.approx(0.30)
    base = entry("2026-01-01T00:00:00", [case("anomia/4p/default/tall", 0.48)])
    now = entry("2026-01-02T00:00:00", [case("anomia/4p/default/tall", 0.355)])  # 1.35x: load noise
    assert not history.compare_entries(now, base, [base], 0.30)[0]["regression"]


def test_instruction_count_sums_the_self_cost_of_the_jitted_objects(tmp_path):
    """callgrind's format: compressed object names defined on ``ob=`` or on ``cob=`` (the
    jitted code's ``???`` first appears as a call target here), relative positions, and the
    inclusive cost line after ``calls=``, which is not the caller's own."""
    out = tmp_path / "callgrind.out"
    out.write_text(
        "version: 1\ncreator: callgrind\npositions: line\nevents: Ir\n"
        "ob=(1) /usr/bin/python3.11\nfl=(1) ???\nfn=(1) main\n"
        "0 100\n"
        "cob=(2) ???\ncfi=(1)\ncfn=(2) 0x1000\ncalls=1 0\n0 5000\n"
        "ob=(2)\nfl=(1)\nfn=(2)\n"
        "0 40\n+2 7\n* 3\n"
        "cob=(1)\ncfn=(1)\ncalls=2 0\n0 900\n"
        "ob=(1)\nfn=(1)\n0 11\n"
        "ob=(3) ???\nfn=(3) 0x2000\n-1 50\n"
        "totals: 5161\nsummary: 5161\n"
    )
    assert instructions.jitted_instructions(out) == 40 + 7 + 3 + 50


def test_run_measures_only_the_strategies_and_threads_asked_for(monkeypatch):
    from benchmarks import run, suite

    seen = {}

    def fake_suite(names, settings, compile_time=True, cli=True, cases=None):
        seen["cases"] = cases
        return {"errors": [], "cases": []}

    monkeypatch.setattr(suite, "run_suite", fake_suite)
    monkeypatch.setattr(suite, "format_entry", lambda entry: "")
    assert run.main(["--games", "parade", "anomia", "--strategies", "greedy", "default", "--threads", "1",
                     "--no-compile", "--no-cli"]) == 0
    assert {(c.game, c.strategy, c.threads) for c in seen["cases"]} == {
        ("parade", "greedy", "1"), ("anomia", "default", "1")}
    with pytest.raises(SystemExit):
        run.main(["--strategies", "nosuch", "--no-compile", "--no-cli"])

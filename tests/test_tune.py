"""The tuner (analysis/tune.py): CMA-ES and racing on common random numbers, held-out checks,
checkpoints that resume to the uninterrupted result, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import numpy as np
import pytest

import montecards as mc
from montecards.engine.spec import InputError
from tests.inprocess import run_main

tune_module = import_module("montecards.analysis.tune")  # (montecards.analysis.tune is the function)

ROOT = Path(__file__).resolve().parent.parent
WEIGHTED = str(ROOT / "montecards/strategies/parade_weighted.py") + ":choose"
SMALL = dict(players=2, opponents="greedy", budget=24_000, deals=1_000, holdout=1_500, seed=11,
             popsize=4, progress=False, x0=[-1.0, -0.5], bounds=[(-3, 1), (-2, 2)])
# (parade_weighted reads its first two weights, score_change and cards_taken; the rest default)


@pytest.fixture(scope="module")
def small():
    return mc.tune("parade", strategy=WEIGHTED, **SMALL)


def test_cma_result_has_history_winner_and_holdout(small):
    r = small
    # 4 candidates + centre + baseline per generation, each 1,000 deals x 2 seatings
    generations = SMALL["budget"] // (6 * 1_000 * 2)
    assert generations == 2
    assert list(r.history.generation.unique()) == [0, 1]
    assert (r.history.role == "candidate").sum() == 4 * generations
    assert r.games_played == generations * 6 * 2_000 + 2 * 1_500 * 2
    assert -3 <= r.best[0] <= 1 and -2 <= r.best[1] <= 2
    h = r.holdout
    assert h["deals"] == 1_500 and h["low"] <= h["share"] <= h["high"]
    assert h["gain_low"] <= h["gain"] <= h["gain_high"]
    assert abs(h["gain"] - (h["share"] - h["baseline_share"])) < 1e-12
    # the label names the file as first registered in this process (absolute or relative to the cwd)
    file, sep, _ = r.label.partition(":choose[")
    assert sep and Path(file).resolve() == Path(WEIGHTED.rpartition(":")[0]).resolve()
    assert r.weights == {"w0": r.best[0], "w1": r.best[1]}
    json.dumps(r.to_dict())
    assert "held out" in r.text()
    fig = r.plot()
    assert len(fig.axes) == 2
    # the baseline row each generation is the starting weights; gen 0's centre is x0 too
    base = r.history[r.history.role == "baseline"]
    assert (base.w_w0 == -1.0).all() and (base.w_w1 == -0.5).all()
    centre0 = r.history[(r.history.role == "centre") & (r.history.generation == 0)].iloc[0]
    assert centre0.gain == 0 and centre0.share == base.iloc[0].share


def test_same_seed_same_tuning(small):
    again = mc.tune("parade", strategy=WEIGHTED, **SMALL)
    assert again.best == small.best
    assert again.history.equals(small.history)
    assert again.holdout == small.holdout


def test_an_interrupted_tuning_resumes_to_the_same_result(small, tmp_path, monkeypatch):
    path = tmp_path / "t.npz"
    real = tune_module._Checkpoint.save
    calls = {"n": 0}

    def stop_after_one(self, state, arrays):
        real(self, state, arrays)
        calls["n"] += 1
        raise KeyboardInterrupt

    monkeypatch.setattr(tune_module._Checkpoint, "save", stop_after_one)
    with pytest.raises(KeyboardInterrupt):
        mc.tune("parade", strategy=WEIGHTED, checkpoint=path, **SMALL)
    monkeypatch.setattr(tune_module._Checkpoint, "save", real)
    assert calls["n"] == 1 and path.exists()
    resumed = mc.tune("parade", strategy=WEIGHTED, checkpoint=path, **SMALL)
    assert resumed.best == small.best
    assert resumed.history.equals(small.history)
    assert resumed.holdout == small.holdout
    with pytest.raises(InputError, match="differs in seed"):
        mc.tune("parade", strategy=WEIGHTED, checkpoint=path, **{**SMALL, "seed": 12})
    # the file is numbers and JSON only: it loads without pickle, and the sampler is written out
    with np.load(path, allow_pickle=False) as data:
        assert set(data.files) == {"meta", "fitness", "mean", "sigma", "covariance", "path_c", "path_sigma"}
        assert data["fitness"].shape == (2, SMALL["popsize"])
        state = json.loads(str(data["meta"]))["state"]
    assert state["generation"] == 2 and state["sampler"]["bit_generator"] == "PCG64"


def test_a_resume_without_a_seed_takes_the_checkpoints(tmp_path):
    """Run the same command again (no seed given either time): it resumes, not refuses."""
    path = tmp_path / "t.npz"
    args = {**SMALL, "budget": 12_000, "seed": None}
    first = mc.tune("parade", strategy=WEIGHTED, checkpoint=path, **args)
    again = mc.tune("parade", strategy=WEIGHTED, checkpoint=path, **args)
    assert again.seed == first.seed and again.best == first.best and again.holdout == first.holdout


def test_a_checkpoint_from_another_cma_state_is_refused(small, tmp_path, monkeypatch):
    """Resuming replays the saved generations' ask and tell; if that does not give the saved
    mean (another cma version, an edited file), the file is refused instead of silently
    tuning something else."""
    path = tmp_path / "t.npz"
    args = {**SMALL, "budget": 12_000}  # one generation
    mc.tune("parade", strategy=WEIGHTED, checkpoint=path, **args)
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["mean"] = arrays["mean"] + 1e-12
    np.savez(path, **arrays)
    with pytest.raises(InputError, match="does not replay to the saved state"):
        mc.tune("parade", strategy=WEIGHTED, checkpoint=path, **args)


def test_an_interrupted_race_resumes_to_the_same_result(tmp_path, monkeypatch):
    args = dict(strategy=WEIGHTED, method="race", candidates=[[0, 1], [-1, -0.5], [0, 0.5], [-1, 0]],
                players=2, budget=16_000, deals=1_000, holdout=500, seed=6, progress=False)
    whole = mc.tune("parade", **args)
    path = tmp_path / "race.npz"
    real = tune_module._Checkpoint.save

    def stop_after_one(self, state, arrays):
        real(self, state, arrays)
        raise KeyboardInterrupt

    monkeypatch.setattr(tune_module._Checkpoint, "save", stop_after_one)
    with pytest.raises(KeyboardInterrupt):
        mc.tune("parade", checkpoint=path, **args)
    monkeypatch.setattr(tune_module._Checkpoint, "save", real)
    resumed = mc.tune("parade", checkpoint=path, **args)
    assert resumed.best == whole.best and resumed.history.equals(whole.history)
    assert whole.history.generation.nunique() == 2  # it did stop between rounds


class _Payload:
    """Unpickling this creates ``marker``: what a malicious pickle would do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_a_crafted_checkpoint_cannot_run_code(tmp_path):
    import pickle

    marker = tmp_path / "ran"
    # a pickle, named .pkl: refused before it is opened
    pkl = tmp_path / "run.pkl"
    pkl.write_bytes(pickle.dumps({"version": 1, "payload": _Payload(marker)}))
    with pytest.raises(InputError, match="no longer pickles"):
        mc.tune("parade", strategy=WEIGHTED, checkpoint=pkl, **SMALL)
    # the same pickle named .npz, and an .npz holding a pickled object array: read without pickle
    disguised = tmp_path / "run.npz"
    disguised.write_bytes(pkl.read_bytes())
    holder = tmp_path / "holder.npz"
    payload = np.empty(1, dtype=object)
    payload[0] = _Payload(marker)
    np.savez(holder, meta=np.array("{}"), fitness=payload)
    for crafted in (disguised, holder):
        with pytest.raises(InputError, match="cannot be read"):
            mc.tune("parade", strategy=WEIGHTED, checkpoint=crafted, **SMALL)
    assert not marker.exists()
    # (the payload does run when unpickled: the test would notice a loader that unpickles)
    pickle.loads(pkl.read_bytes())
    assert marker.exists()


def test_every_candidate_plays_the_same_deals_and_streams():
    """Two identical candidates score identically in every round: common random numbers."""
    r = mc.tune("parade", strategy=WEIGHTED, method="race", candidates=[[-1, -0.5], [-1, -0.5], [0, 1]],
                players=2, budget=12_000, deals=500, holdout=500, seed=3, progress=False)
    first = r.history[r.history.generation == 0].set_index("candidate").share
    assert first[0] == first[1]


def test_racing_keeps_the_better_candidate():
    """[0, 1] ignores the score and takes as many cards as it can: it loses clearly."""
    r = mc.tune("parade", strategy=WEIGHTED, method="race", candidates=[[0, 1], [-1, -0.5], [0, 1]],
                players=2, budget=20_000, deals=1_000, holdout=1_000, seed=5, progress=False)
    assert list(r.best) == [-1, -0.5]
    r0 = r.history[r.history.generation == 0]
    assert r0.kept.sum() == 2 and r0[r0.candidate == 1].kept.all()
    assert r.holdout["gain"] > 0.1 and r.holdout["gain_low"] > 0  # vs the first (the baseline)
    assert len(r.plot().axes) == 2


@pytest.mark.parametrize("kwargs, words", [
    ({"strategy": "greedy"}, "reads no weights"),
    ({"method": "grid"}, "unknown tuning method"),
    ({"bounds": [(0, 1)]}, "one \\(low, high\\) pair per weight"),
    ({"bounds": [(2, 3), (-1, 1)]}, "outside the bounds"),
    ({"candidates": [[-1, 0]]}, "candidates are for method='race'"),
    ({"method": "race", "candidates": [[1, 0]]}, "at least 2 candidates"),
    ({"method": "race", "candidates": [[1, 0], [1]]}, "list of 2"),
    ({"opponents": ["greedy", "greedy"]}, "exactly 1"),
    ({"budget": 0}, "budget"),
    ({"sigma": 2}, "sigma"),
])
def test_bad_tuning_input_is_named(kwargs, words):
    args = {"strategy": WEIGHTED, "x0": [-1, -0.5], "players": 2, "budget": 1000, "deals": 10,
            "holdout": 10, "seed": 1, "progress": False, **kwargs}
    with pytest.raises(InputError, match=words):
        mc.tune("parade", **args)


def test_a_game_without_decisions_cannot_be_tuned():
    with pytest.raises(InputError, match="no player decisions"):
        mc.tune("anomia", progress=False)


def test_a_user_strategy_without_params_needs_x0():
    with pytest.raises(InputError, match="declares no params"):
        mc.tune("parade", strategy=WEIGHTED, progress=False)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "montecards", "tune", *args], capture_output=True,
                          text=True, timeout=900, env={"MONTECARDS_NO_PROGRESS": "1", "PATH": "/usr/bin:/bin",
                                                       "PYTHONPATH": str(ROOT)})


def test_cli_tune_json_plot_and_errors(tmp_path):
    plot = tmp_path / "t.png"
    ok = _cli("parade", "-s", WEIGHTED, "--x0=-1,-0.5", "--bounds=-3:1,-2:2", "--budget", "12000",
              "--deals", "1000", "--popsize", "4", "--holdout", "500", "--seed", "2", "--json",
              "--plot", str(plot), "-j", "1")
    assert ok.returncode == 0, ok.stderr
    out = json.loads(ok.stdout)
    assert out["method"] == "cma" and len(out["best"]) == 2 and out["holdout"]["deals"] == 500
    assert plot.stat().st_size > 10_000
    for args, words in [(("parade", "-s", "greedy"), "reads no weights"),
                        (("parade", "-s", WEIGHTED, "--x0", "1,x"), "--x0 takes numbers"),
                        (("parade", "-s", WEIGHTED, "--x0=-1,-0.5", "--bounds", "0-1,2"), "--bounds takes"),
                        (("parade", "-s", WEIGHTED, "--x0=-1,-0.5", "--checkpoint", str(tmp_path / "x.txt")),
                         "must end in .npz"),
                        (("parade", "-s", WEIGHTED, "--x0=-1,-0.5", "--checkpoint", str(tmp_path / "x.pkl")),
                         "no longer pickles")]:
        bad = run_main("tune", *args)  # in this process (the command itself ran as one above)
        assert bad.returncode == 2 and words in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1


def test_tuning_the_weighted_builtin_and_playing_the_winner():
    """The built-in ``weighted``: its features and bounds come from the spec; the winner's label
    plays again as a strategy and serves as a later run's opponent."""
    r = mc.tune("parade", strategy="weighted", players=2, budget=12_000, deals=200, holdout=400,
                seed=8, progress=False)
    spec = mc.get_game("parade")
    w = spec.seat_params["weighted"]
    assert r.features == w.features and r.baseline == w.default
    assert all(lo <= b <= hi for b, (lo, hi) in zip(r.best, w.bounds, strict=True))
    assert r.label.startswith("weighted[")
    res = mc.simulate("parade", n=200, seed=1, strategies=[r.label, "greedy"], progress=False)
    assert res.to_dict()["strategies"][0] == r.label
    again = mc.tune("parade", strategy="weighted", opponents=r.label, players=2, method="race",
                    candidates=[list(w.default), list(r.best)], budget=2_000, deals=200, holdout=200,
                    seed=9, progress=False)
    assert again.opponents == [r.label]


def test_x0_must_give_every_declared_param(tmp_path):
    """Issue 28 point 4: an x0 shorter (or longer) than the params a strategy declares used to
    tune fewer weights silently; the CLI says so in one line, exit 2."""
    path = tmp_path / "declared.py"
    path.write_text("import montecards as mc\n\n\n"
                    "@mc.strategy('parade', params={'first': 1.0, 'spread': 0.5, 'zero': 0.0})\n"
                    "def choose(obs, legal, params, memory, rng):\n"
                    "    return 0 if params[0] > 0 else len(legal) - 1\n")
    for x0 in ([1.0, 0.5], [1.0, 0.5, 0.0, 2.0]):
        with pytest.raises(InputError, match=r"x0 has \d weights, but .* declares 3 params \(first, sp"):
            mc.tune("parade", strategy=f"{path}:choose", x0=x0, progress=False)
    bad = run_main("tune", "parade", "-s", f"{path}:choose", "--x0", "1,0.5")
    assert bad.returncode == 2 and "declares 3 params" in bad.stderr, bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1

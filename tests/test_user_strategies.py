"""User strategies through the engine and every front end (Parade as the example game).

The games' own tests (``tests/test_user_<game>.py``) prove that each game's interface twin
plays the built-in's very games; here: loading, binding params, faults, the CLI, checkpoints,
outputs, Dask, and the numba facts the design stands on (``engine/user.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import montecards as mc
from montecards.engine import strategies as user_strategies
from montecards.engine import user as jit_user
from montecards.errors import InputError, StrategyError
from montecards.games.parade import kernel as parade_kernel

ROOT = Path(__file__).resolve().parents[1]
TWIN = str(ROOT / "examples" / "strategies" / "parade_greedy.py") + ":choose"


def write(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(body)
    return str(path)


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "montecards", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=600)


# --------------------------------------------------------------------------- the same games


def test_the_twin_by_file_reference_plays_greedys_games():
    mine = mc.simulate("parade", n=3000, players=3, strategies=[TWIN, "random", "greedy"], seed=5,
                       keep_games=True, jobs=2)
    theirs = mc.simulate("parade", n=3000, players=3, strategies=["greedy", "random", "greedy"],
                         seed=5, keep_games=True, jobs=2)
    assert mine.games.equals(theirs.games)
    assert mine.to_dict()["strategies"][0].endswith("parade_greedy.py:choose")


def test_a_function_object_plays_the_same_games_as_its_file_reference():
    module = user_strategies.load_module(TWIN.rsplit(":", 1)[0])
    by_object = mc.simulate("parade", n=1000, strategies=[module.choose, "greedy"], seed=8, keep_games=True)
    by_file = mc.simulate("parade", n=1000, strategies=[TWIN, "greedy"], seed=8, keep_games=True)
    assert by_object.games.equals(by_file.games)


def test_decorated_strategy_with_params_and_its_label():
    @mc.strategy("parade", params=[0.7])
    def threshold(obs, legal, params, memory, rng):
        return 0 if params[0] > 0.5 else len(legal) - 1

    res = mc.simulate("parade", n=500, strategies=[threshold, threshold],
                      strategy_params=[None, [0.2]], seed=1)
    assert res.to_dict()["strategies"] == ["threshold[0.7]", "threshold[0.2]"]
    first = mc.simulate("parade", n=500, strategies=[threshold.bind([0.9]), threshold.bind([0.1])],
                        seed=1, keep_games=True)
    again = mc.simulate("parade", n=500, strategies=[threshold, threshold],
                        strategy_params=[[0.9], [0.1]], seed=1, keep_games=True)
    assert first.games.equals(again.games)
    plain = mc.simulate("parade", n=500, strategies=[threshold, "greedy"], strategy_params=[[0.2], None],
                        seed=1, keep_games=True)
    assert not plain.games.equals(first.games)


def test_memory_is_zeroed_and_rng_is_the_seats_own_stream():
    from montecards.rng import bounded

    def counter(obs, legal, params, memory, rng):
        memory[0] += 1.0  # decisions so far in this game: starts at 0 in every game
        if memory[0] > 60:
            return len(legal)  # a bad index: only if memory leaked from an earlier game
        return bounded(rng, len(legal))

    a = mc.simulate("parade", n=2000, strategies=[counter, "greedy"], seed=2, keep_games=True, jobs=2)
    b = mc.simulate("parade", n=2000, strategies=[counter, "greedy"], seed=2, keep_games=True, jobs=1,
                    chunk_size=333)
    assert a.games.equals(b.games)  # the seat's own stream: the same games whatever the threads


# --------------------------------------------------------------------------- faults


@pytest.mark.parametrize(
    "body, message",
    [
        ("def choose(obs, legal, params, memory, rng):\n    return len(legal)\n",
         r"seat 0\) in game 0 returned index \d+, outside its \d+ legal moves"),
        ("def choose(obs, legal, params, memory, rng):\n    return -1\n",
         r"returned index -1, outside"),
        ("from montecards.games.parade import view\n"
         "def choose(obs, legal, params, memory, rng):\n"
         "    if view.obs_turns(obs) > 8:\n        raise ValueError('boom')\n    return 0\n",
         r"seat 0\) in game 0 raised ValueError: boom"),
        ("def choose(obs, legal, params, memory, rng):\n    legal[0] = 3\n    return 0\n",
         r"does not compile .*writes to a read-only argument"),
        ("def choose(obs, legal, params, memory, rng):\n    return undefined_name\n",
         r"does not compile"),
        ("def choose(obs, legal):\n    return 0\n", r"has the wrong signature"),
        ("choose = 3\n", r"must be a function"),
        ("raise RuntimeError('broken file')\n", r"running .* failed: RuntimeError: broken file"),
    ],
)
def test_a_broken_strategy_stops_with_one_line(tmp_path, body, message):
    ref = write(tmp_path, "broken", body) + ":choose"
    with pytest.raises(StrategyError, match=message) as caught:
        mc.simulate("parade", n=3000, strategies=[ref, "greedy"], seed=4, jobs=2)
    assert "\n" not in str(caught.value)


def test_a_fault_names_the_first_broken_game_whatever_the_threads(tmp_path):
    ref = write(tmp_path, "late", "from montecards.games.parade import view\n"
                "def choose(obs, legal, params, memory, rng):\n"
                "    return len(legal) if view.obs_turns(obs) == 20 and view.obs_hand_card(obs, 0) == 5 else 0\n") + ":choose"
    found = []
    for jobs, chunk in ((1, 1 << 17), (2, 1 << 17), (2, 1000)):
        with pytest.raises(StrategyError) as caught:
            mc.simulate("parade", n=5000, strategies=[ref, "random"], seed=9, jobs=jobs, chunk_size=chunk)
        found.append(str(caught.value))
    assert len(set(found)) == 1 and "in game" in found[0]


def test_missing_file_module_and_name(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        mc.simulate("parade", n=10, strategies=[str(tmp_path / "none.py") + ":choose"])
    with pytest.raises(InputError, match="no module named 'nowhere_at_all'"):
        mc.simulate("parade", n=10, strategies=["nowhere_at_all.sub:choose"])
    with pytest.raises(InputError, match="defines no 'nope'"):
        mc.simulate("parade", n=10, strategies=[TWIN.replace(":choose", ":nope")])
    with pytest.raises(InputError, match="unknown strategy 'gredy'"):
        mc.simulate("parade", n=10, strategies=["gredy"])


def test_wrong_game_and_games_without_decisions():
    parade_only = user_strategies.load(TWIN, "parade")
    with pytest.raises(InputError, match="written for parade, not for tulips"):
        mc.simulate("tulips", n=10, strategies=[parade_only])
    with pytest.raises(InputError, match="anomia has no player decisions"):
        mc.simulate("anomia", n=10, strategies=[TWIN])


def test_params_for_a_builtin_seat_are_refused(tmp_path):
    ref = write(tmp_path, "reads", "def choose(obs, legal, params, memory, rng):\n"
                "    return 0 if params.shape[0] == 0 or params[0] > 0 else len(legal) - 1\n") + ":choose"
    with pytest.raises(InputError, match="seat 1 plays the built-in greedy"):
        mc.simulate("parade", n=10, strategies=[ref, "greedy"], strategy_params=[[1.0], [2.0]])
    with pytest.raises(InputError, match="finite"):
        mc.simulate("parade", n=10, strategies=[ref, "greedy"], strategy_params=[[float("nan")], None])


def test_a_fault_leaves_the_output_and_checkpoint_intact(tmp_path):
    bad = write(tmp_path, "bad", "from montecards.games.parade import view\n"
                "def choose(obs, legal, params, memory, rng):\n"
                "    return len(legal) if view.obs_draw_pile(obs) == 3 else 0\n") + ":choose"
    out = tmp_path / "rows.parquet"
    with pytest.raises(StrategyError):
        mc.simulate("parade", n=300_000, strategies=[bad, "random"], seed=3, output=out,
                    chunk_size=20_000, checkpoint=tmp_path / "ck")
    assert not out.exists()
    good = mc.simulate("parade", n=40_000, strategies=[TWIN, "random"], seed=3,
                       chunk_size=20_000, checkpoint=tmp_path / "ck2")
    assert good.n_games == 40_000


# --------------------------------------------------------------------------- checkpoints


def test_a_checkpoint_refuses_another_strategy_source(tmp_path):
    ref = write(tmp_path, "mine", "def choose(obs, legal, params, memory, rng):\n    return 0\n") + ":choose"
    ck = tmp_path / "ck"
    mc.simulate("parade", n=4000, strategies=[ref, "greedy"], seed=1, chunk_size=1000, checkpoint=ck)
    manifest = json.loads((ck / "manifest.json").read_text())
    seat = manifest["strategies"][0]
    assert seat["strategy"].endswith("mine.py:choose") and len(seat["source_hash"]) == 64
    again = mc.simulate("parade", n=4000, strategies=[ref, "greedy"], seed=1, chunk_size=1000, checkpoint=ck)
    assert again.extra["checkpoint"]["resumed_chunks"] == 4
    Path(ref.rsplit(":", 1)[0]).write_text(
        "def choose(obs, legal, params, memory, rng):\n    return len(legal) - 1\n")
    user_strategies.sys.modules.pop("_montecards_user.mine", None)
    with pytest.raises(InputError, match="checkpoint"):
        mc.simulate("parade", n=4000, strategies=[ref, "greedy"], seed=1, chunk_size=1000, checkpoint=ck)


# --------------------------------------------------------------------------- CLI


def test_cli_mixes_files_modules_and_builtins(tmp_path):
    ref = write(tmp_path, "weights", "def choose(obs, legal, params, memory, rng):\n"
                "    return 0 if params[0] > 0 else len(legal) - 1\n") + ":choose"
    done = run_cli("simulate", "parade", "-n", "2000", "-p", "3", "-s", ref, "-s", "greedy", "-s",
                   "examples.strategies.parade_greedy:choose", "--strategy-params", "1",
                   "--strategy-params", "-", "--strategy-params", "-", "--seed", "3", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["strategies"][0].endswith("weights.py:choose[1]")
    assert out["strategies"][2] == "examples.strategies.parade_greedy:choose"
    bad = write(tmp_path, "bad", "def choose(obs, legal, params, memory, rng):\n    return 99\n") + ":choose"
    failed = run_cli("simulate", "parade", "-n", "100", "-s", bad, "-s", "greedy")
    assert failed.returncode == 2
    assert failed.stderr.count("\n") == 1 and "returned index 99" in failed.stderr
    assert "Traceback" not in failed.stderr
    traced = run_cli("trace", "parade", "--seed", "3", "--index", "2", "-s", TWIN, "-s", "greedy", "--json")
    assert traced.returncode == 0, traced.stderr
    builtin = run_cli("trace", "parade", "--seed", "3", "--index", "2", "-s", "greedy", "--json")
    assert json.loads(traced.stdout)["events"] == json.loads(builtin.stdout)["events"]


def test_analyses_take_user_strategies():
    from montecards.analysis.matchups import matchups
    from montecards.analysis.seats import seat_advantage

    def last(obs, legal, params, memory, rng):
        return len(legal) - 1

    table = matchups("parade", [TWIN, last, "greedy"], n=400, seed=1, jobs=1)
    assert set(table.strategies) == {user_strategies.load(TWIN).label, "last", "greedy"}
    seats = seat_advantage("parade", players=2, strategy=TWIN, n=2000, seed=1, jobs=1)
    builtin = seat_advantage("parade", players=2, strategy="greedy", n=2000, seed=1, jobs=1)
    mine, theirs = seats.to_dict()["players"]["2"], builtin.to_dict()["players"]["2"]
    assert mine["win_share"] == theirs["win_share"]
    assert mine["strategies"][0].endswith("parade_greedy.py:choose")


# --------------------------------------------------------------------------- numba facts


def test_one_kernel_serves_every_user_strategy():
    """The fact the design stands on (first-class function types are experimental in numba;
    this guards an upgrade): the user path of the kernel is compiled once, whichever user
    strategies the tuple holds, and a dispatcher is never part of its type."""

    def first(obs, legal, params, memory, rng):
        return 0

    def last(obs, legal, params, memory, rng):
        return len(legal) - 1

    mc.simulate("parade", n=50, strategies=[first, "greedy"], seed=1)
    before = len(parade_kernel.play_block.signatures)
    mc.simulate("parade", n=50, strategies=[last, first], seed=1)
    mc.simulate("parade", n=50, strategies=["greedy", TWIN], seed=1)
    assert len(parade_kernel.play_block.signatures) == before
    user_sigs = [sig for sig in parade_kernel.play_block.signatures if "FunctionType" in str(sig)]
    assert user_sigs and all("Dispatcher" not in str(sig) for sig in user_sigs)


def test_builtin_runs_keep_the_user_path_compiled_out():
    mc.simulate("parade", n=50, strategies="greedy", seed=1)
    builtin = [sig for sig in parade_kernel.play_block.signatures if "none" in str(sig[-2]).lower()]
    assert builtin, "a run of built-ins must call the kernel with user=None"


def test_a_later_process_loads_the_user_kernel_from_cache(tmp_path):
    script = (
        "import montecards as mc\n"
        "from montecards.games.parade import kernel\n"
        f"mc.simulate('parade', n=200, strategies=[{TWIN!r}, 'greedy'], seed=1)\n"
        "stats = kernel.play_block.stats\n"
        "print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, cwd=ROOT, timeout=900)
    done = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True,
                          cwd=ROOT, timeout=900)
    hits, misses = done.stdout.split()[-2:]
    assert int(misses) == 0 and int(hits) >= 1, done.stdout


def test_the_signature_is_read_only_where_the_docs_say():
    args = jit_user.SIG.args
    assert [a.mutable for a in args[:3]] == [False, False, False]
    assert args[3].mutable and args[4].mutable


def test_two_functions_of_one_name_keep_apart_in_analyses():
    def make(k):
        def choose(obs, legal, params, memory, rng):
            return min(k, len(legal) - 1)
        return choose

    first, last = make(0), make(5)
    labels = user_strategies.as_labels([first, last, first])
    assert labels[0] == labels[2] != labels[1]
    assert user_strategies.known(labels[1]).function is last

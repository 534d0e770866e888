"""User strategies through the engine and every front end (Parade as the example game).

The games' own tests (``tests/test_user_<game>.py``) prove that each game's interface twin
plays the built-in's very games; here: loading, binding params, faults, the CLI, checkpoints,
outputs, Dask, and the numba facts the design stands on (``engine/user_seats.py``).
"""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import montecards as mc
from montecards.engine import user_seats as jit_user
from montecards.engine import user_strategies
from montecards.errors import InputError, StrategyError
from montecards.games.parade import kernel as parade_kernel
from tests.inprocess import run_main

ROOT = Path(__file__).resolve().parents[1]
TWIN = str(ROOT / "montecards" / "strategies" / "parade_greedy.py") + ":choose"


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
    """The docs promise mc.StrategyError for these (issue 28 point 5)."""
    with pytest.raises(StrategyError, match="no such file"):
        mc.simulate("parade", n=10, strategies=[str(tmp_path / "none.py") + ":choose"])
    with pytest.raises(StrategyError, match="no module named 'nowhere_at_all'"):
        mc.simulate("parade", n=10, strategies=["nowhere_at_all.sub:choose"])
    with pytest.raises(StrategyError, match="parade_greedy.py defines no 'nope'"):
        mc.simulate("parade", n=10, strategies=[TWIN.replace(":choose", ":nope")])
    not_a_function = write(tmp_path, "notfn", "choose = 3\n") + ":choose"
    with pytest.raises(StrategyError, match=r"strategy .*notfn\.py:choose is not a function \(it is a int\)"):
        mc.load_strategy(not_a_function)
    two_args = write(tmp_path, "twoargs", "def choose(obs, legal):\n    return 0\n") + ":choose"
    with pytest.raises(StrategyError, match=r"strategy .*twoargs\.py:choose has the wrong signature"):
        mc.load_strategy(two_args)

    def short(obs, legal):
        return 0

    with pytest.raises(StrategyError, match=r"strategy short \(in .*test_user_strategies\.py\) has the"):
        mc.simulate("parade", n=10, strategies=[short, "greedy"])
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
                   "montecards.strategies.parade_greedy:choose", "--strategy-params", "1",
                   "--strategy-params", "-", "--strategy-params", "-", "--seed", "3", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["strategies"][0].endswith("weights.py:choose[1]")
    assert out["strategies"][2] == "montecards.strategies.parade_greedy:choose"
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
    user = list(inspect.signature(parade_kernel.play_block.py_func).parameters).index("user")
    builtin = [sig for sig in parade_kernel.play_block.signatures if "none" in str(sig[user]).lower()]
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


# --------------------------------------------------------------------------- issue 28: a new user's afternoon

LOWCARD = (
    "from montecards.games.parade import view\n\n\n"
    "def choose(obs, legal, params, memory, rng):\n"
    "    if view.obs_kind(obs) == view.DECISION_DISCARD:\n"
    "        return 0\n"
    "    best, low = 0, 99\n"
    "    for i in range(len(legal)):\n"
    "        value = view.value_of(view.move_card(legal[i]))\n"
    "        if value < low:\n"
    "            best, low = i, value\n"
    "    return best\n"
)
DECLARED = (
    "import montecards as mc\n\n\n"
    "@mc.strategy('parade', params={'first': 1.0, 'spread': 0.5, 'zero': 0.0})\n"
    "def choose(obs, legal, params, memory, rng):\n"
    "    return 0 if params[0] + params[1] * len(legal) > 2 else len(legal) - 1\n"
)


def _linked_cache(root: Path) -> Path:
    """An empty NUMBA_CACHE_DIR but for the kernels: the tree's own kernel caches are linked in
    (where numba would look for them under NUMBA_CACHE_DIR), so that only the user strategy's
    cache starts empty and the test does not recompile every kernel."""
    import hashlib

    root.mkdir()
    for folder in (ROOT / "montecards").rglob("__pycache__"):
        source = folder.parent.resolve()
        name = f"{source.name}_{hashlib.sha1(str(source).encode()).hexdigest()}"  # numba's cache subpath
        (root / name).symlink_to(folder, target_is_directory=True)
    return root


def test_cli_import_cli_share_no_cache_entry(tmp_path):
    """Issue 28 point 1: ``-s lowcard.py:choose`` on the CLI and ``from lowcard import choose`` in
    Python, in any order, with an empty and then a warm NUMBA_CACHE_DIR, in one process or across
    processes: each form has its own cache entries, and every run plays the same games."""
    import os

    (tmp_path / "lowcard.py").write_text(LOWCARD)
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}",
           "NUMBA_CACHE_DIR": str(_linked_cache(tmp_path / "cache")), "MONTECARDS_NO_PROGRESS": "1"}
    cli = [sys.executable, "-m", "montecards", "simulate", "parade", "-n", "3000", "-s",
           "lowcard.py:choose", "-s", "greedy", "--seed", "4", "--json"]
    script = (
        "import json, montecards as mc\n"
        "from montecards.engine.user_strategies import load\n"
        "from lowcard import choose\n"
        "a = mc.simulate('parade', n=3000, strategies=[choose, 'greedy'], seed=4)\n"
        "b = mc.simulate('parade', n=3000, strategies=['lowcard.py:choose', 'greedy'], seed=4)\n"
        "hits = [sum(mc.UserStrategy.compiled(s).stats.cache_hits.values())\n"
        "        for s in (mc.strategy()(choose), load('lowcard.py:choose'))]\n"
        "print(json.dumps([a.win_share, b.win_share, hits]))\n"
    )
    shares = []
    for cache in ("empty", "warm"):
        first = subprocess.run(cli, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=900)
        assert first.returncode == 0, (cache, first.stderr)
        both = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path,
                              env=env, timeout=900)
        assert both.returncode == 0, (cache, both.stderr)
        again = subprocess.run(cli, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=900)
        assert again.returncode == 0, (cache, again.stderr)
        by_object, by_file, hits = json.loads(both.stdout)
        shares += [json.loads(first.stdout)["win_share"], by_object, by_file,
                   json.loads(again.stdout)["win_share"]]
        if cache == "warm":
            assert hits == [1, 1], hits  # each form loads its own entry
    assert all(s == shares[0] for s in shares)
    entries = sorted(p.relative_to(tmp_path / "cache")
                     for p in (tmp_path / "cache").glob("**/lowcard.*.nbi"))
    assert len(entries) == 2 and {p.parent.name for p in entries} >= {"_montecards_user.lowcard"}, entries


def test_every_printed_label_is_valid_input(tmp_path):
    """Point 2: a user strategy's label with its params (``file.py:choose[1,0.5,0]``) plays the
    very same strategy again: ``strategies=``, the CLI's ``-s``, and ``tune``'s opponents."""
    ref = write(tmp_path, "declared", DECLARED) + ":choose"
    first = mc.simulate("parade", n=1500, strategies=[ref, "greedy"], strategy_params=[[3, -1], None],
                        seed=6, keep_games=True)
    label = first.strategies[0]
    assert label == f"{ref}[3,-1,0]"
    again = mc.simulate("parade", n=1500, strategies=[label, "greedy"], seed=6, keep_games=True)
    assert again.strategies == first.strategies and again.games.equals(first.games)
    by_cli = run_cli("simulate", "parade", "-n", "1500", "-s", label, "-s", "greedy", "--seed", "6", "--json")
    assert by_cli.returncode == 0, by_cli.stderr
    assert json.loads(by_cli.stdout)["win_share"] == first.win_share
    opponent = mc.tune("parade", strategy=ref, opponents=label, players=2, method="race",
                       candidates=[[1, 0.5, 0], [3, -1, 0]], budget=2_000, deals=100, holdout=100, seed=1,
                       progress=False)
    assert opponent.opponents == [label]

    @mc.strategy("parade", params=[0.7])
    def cutoff(obs, legal, params, memory, rng):
        return 0 if params[0] > 0.5 else len(legal) - 1

    here = mc.simulate("parade", n=300, strategies=[cutoff, "greedy"], strategy_params=[[0.2], None],
                       seed=2)
    assert here.strategies[0] == "cutoff[0.2]"  # a function object's label: valid in this process
    replay = mc.simulate("parade", n=300, strategies=here.strategies, seed=2)
    assert replay.win_share == here.win_share


def test_a_tuned_user_strategy_replays_as_printed(tmp_path):
    """Points 2 and 8: ``tune``'s label, its "play it" line and ``res.strategy`` are valid input
    for a user strategy; declared param names name the tuned weights."""
    import shlex

    ref = write(tmp_path, "declared", DECLARED) + ":choose"
    res = mc.tune("parade", strategy=ref, players=2, opponents="greedy", budget=6_000, deals=300,
                  holdout=300, seed=3, popsize=4, progress=False)
    assert res.features == ("first", "spread", "zero")
    assert res.label.startswith(f"{ref}[") and res.strategy == f"{ref}[1,0.5,0]"
    text = res.text()
    assert "first" in text and not re.search(r"^\s*w0\b", text, re.M)  # (a tmp path may hold "gw0")
    play = [line for line in text.splitlines() if line.startswith("play it:")][0]
    args = shlex.split(play.removeprefix("play it:"))
    assert args == ["-s", res.label]
    mine = mc.simulate("parade", n=400, strategies=[res.label, "greedy"], seed=1)
    assert mine.strategies[0] == res.label
    start = mc.simulate("parade", n=400, strategies=[res.strategy, "greedy"], seed=1)
    assert start.strategies[0] == res.strategy
    by_cli = run_cli("simulate", "parade", "-n", "400", *args, "-s", "greedy", "--seed", "1", "--json")
    assert by_cli.returncode == 0, by_cli.stderr
    assert json.loads(by_cli.stdout)["win_share"] == mine.win_share


def _untimed(found):
    """A JSON output without its timings (the only part that differs between two runs)."""
    if isinstance(found, dict):
        return {k: _untimed(v) for k, v in found.items() if k not in ("elapsed_seconds", "games_per_second")}
    if isinstance(found, list):
        return [_untimed(v) for v in found]
    return found


def test_strategy_params_on_the_analysis_commands(tmp_path):
    """Point 3: ``compare``, ``seats`` and ``sweep`` take ``--strategy-params`` with simulate's
    rules; the params bound give the same numbers as the label that carries them. (In this
    process: 9 commands; the CLI with a user strategy in a new process: the tests above.)"""
    ref = write(tmp_path, "reads", "def choose(obs, legal, params, memory, rng):\n"
                "    return len(legal) - 1 if params.shape[0] > 0 and params[0] > 0 else 0\n") + ":choose"
    cases = [
        (["compare", "parade", "-s", ref, "-s", "greedy", "-n", "300", "--strategy-params", "1"],
         ["compare", "parade", "-s", f"{ref}[1]", "-s", "greedy", "-n", "300"]),
        (["compare", "parade", "-s", ref, "-s", "greedy", "--strategy-params", "1", "--strategy-params", "-",
          "--variant", "two_player_margin=0", "--variant", "two_player_margin=2", "-n", "300"],
         ["compare", "parade", "-s", f"{ref}[1]", "-s", "greedy", "--variant", "two_player_margin=0",
          "--variant", "two_player_margin=2", "-n", "300"]),
        (["seats", "parade", "-p", "2", "-s", ref, "--strategy-params", "1", "-n", "300"],
         ["seats", "parade", "-p", "2", "-s", f"{ref}[1]", "-n", "300"]),
        (["sweep", "parade", "two_player_margin", "0", "2", "-s", ref, "-s", "greedy",
          "--strategy-params", "1", "--strategy-params", "-", "-n", "300"],
         ["sweep", "parade", "two_player_margin", "0", "2", "-s", f"{ref}[1]", "-s", "greedy", "-n", "300"]),
    ]
    for given, labelled in cases:
        a = run_main(*given, "--seed", "2", "--json")
        b = run_main(*labelled, "--seed", "2", "--json")
        assert a.returncode == 0 and b.returncode == 0, (given, a.stderr, b.stderr)
        assert f"{ref}[1]" in a.stdout, given
        assert _untimed(json.loads(a.stdout)) == _untimed(json.loads(b.stdout)), given
    bad = run_main("compare", "parade", "-s", ref, "-s", "greedy", "--strategy-params", "1",
                  "--strategy-params", "2", "-n", "100")
    assert bad.returncode == 2 and "strategy 1 plays the built-in greedy" in bad.stderr, bad.stderr


def test_silent_wrong_answers_are_refused(tmp_path):
    """Point 4: each of these used to play and exit 0."""
    declared = write(tmp_path, "declared", DECLARED) + ":choose"
    low = write(tmp_path, "lowcard", LOWCARD) + ":choose"
    floaty = write(tmp_path, "floaty", "def choose(obs, legal, params, memory, rng):\n"
                   "    return 0.5 * (len(legal) - 1)\n") + ":choose"
    cases = [
        (dict(strategies=[declared, "greedy"], strategy_params=[[1, 2, 3, 4, 5, 6, 7], None]),
         r"declares 3 params \(first, spread, zero\), got 7"),
        (dict(strategies=[f"{declared}[1,2,3,4]", "greedy"]), "declares 3 params"),
        (dict(strategies=[low, "greedy"], strategy_params=[[1.0], None]),
         "declares no params and its code never reads 'params'"),
        (dict(strategies=[floaty, "greedy"]), "returns float64, not an integer"),
    ]
    for kwargs, message in cases:
        with pytest.raises(StrategyError, match=message):
            mc.simulate("parade", n=100, seed=1, **kwargs)
    # a Parade strategy in Gift of Tulips: its code reads Parade's view (here through a helper)
    helped = write(tmp_path, "helped", "from numba import njit\n"
                   "from montecards.games.parade.view import obs_kind\n\n\n"
                   "@njit(cache=True)\n"
                   "def kind(obs):\n    return obs_kind(obs)\n\n\n"
                   "def choose(obs, legal, params, memory, rng):\n    return 0 if kind(obs) == 0 else 0\n")
    for ref in (low, helped + ":choose"):
        with pytest.raises(StrategyError, match="reads montecards.games.parade, so it is written for parade, "
                           "not for tulips"):
            mc.simulate("tulips", n=100, strategies=[ref], seed=1)
    assert user_strategies.games_read(user_strategies.load(TWIN).function) == {"parade"}


def test_stray_params_and_wrong_game_fail_on_the_cli(tmp_path):
    low = write(tmp_path, "lowcard", LOWCARD) + ":choose"
    for args, words in [(("parade", "-s", low, "-s", "greedy", "--strategy-params", "1",
                          "--strategy-params", "-"), "never reads 'params'"),
                        (("tulips", "-s", low), "written for parade, not for tulips")]:
        done = run_main("simulate", *args, "-n", "100")  # (a real process's: test_cli_mixes_...)
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr

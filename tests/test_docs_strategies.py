"""docs/strategies.md: its example runs, and its sizes are the games' own."""

import re
from importlib import import_module
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "strategies.md"


def test_the_example_runs():
    code = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    runnable = [c for c in code if "decisions(" in c]
    assert runnable
    for block in runnable:
        exec(compile(block, str(DOC), "exec"), {})


def test_the_sizes_are_the_games_own():
    text = DOC.read_text()
    for game, title in (("parade", "Parade"), ("tulips", "Gift of Tulips"), ("marbles", "Joker Marbles"),
                        ("wigout", "Wig Out!")):
        section = text.split(f"### {title}")[1].split("### ")[0]
        view = import_module(f"montecards.games.{game}.view")
        assert f"OBS_SIZE = {view.OBS_SIZE}" in section, game
        assert f"MAX_LEGAL = {view.MAX_LEGAL}" in section, game


def test_the_how_to_strategy_runs(tmp_path):
    import montecards as mc

    code = [c for c in re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S) if c.startswith("# my_parade.py")]
    assert len(code) == 1
    path = tmp_path / "my_parade.py"
    path.write_text(code[0])
    res = mc.simulate("parade", n=300, strategies=[f"{path}:choose", "greedy"], seed=1)
    assert res.to_dict()["strategies"][0].endswith("my_parade.py:choose")
    assert abs(sum(res.to_dict()["win_share"]) - 1) < 1e-9

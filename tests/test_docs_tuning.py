"""docs/tuning.md: its Python example runs and finds what it says."""

import re
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "tuning.md"


def test_the_example_runs():
    code = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(code) == 1
    scope: dict = {}
    exec(compile(code[0], str(DOC), "exec"), scope)
    res = scope["res"]
    assert res.method == "cma" and res.holdout["deals"] == 2_000
    assert res.label.startswith("weighted[")


def test_the_shipped_tuned_weights_are_the_records():
    """Every ``tuned`` built-in plays exactly the winner its tuning record names."""
    import json

    import montecards as mc

    for record in sorted((DOC.parent / "tuning").glob("*.json")):
        data = json.loads(record.read_text())
        spec = mc.get_game(data["game"])
        assert spec.weighted["tuned"].default == tuple(data["best"]), record.name
        assert data["holdout"]["low"] > 1 / data["players"], record.name

"""docs/ratings.md: its Python examples run, in order, and give what the page says."""

import re
from pathlib import Path

import numpy as np

DOC = Path(__file__).resolve().parent.parent / "docs" / "ratings.md"


def test_the_examples_run():
    code = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(code) == 2
    scope: dict = {}
    for block in code:
        exec(compile(block, str(DOC), "exec"), scope)
    res, held = scope["res"], scope["held"]
    assert res.players == 3 and len(res.lineups) == 4 and res.games_played == 4 * 3 * 2_000
    assert res.ratings.baseline == "random"
    assert res.table().iloc[-1]["strategy"] == "random"  # the weakest, well below the others
    assert np.isclose(sum(res.ratings.predict(["tuned", "random", "random"])), 1.0)
    out = held.lineups().query("held_out")
    assert set(out["strategy"]) == {"greedy", "tuned", "random"}
    assert res.depth()["points"] > 0 and res.cycles() == []

"""Every question at every strength (report/strengths.py): one table per question, the verdict
from the intervals, length in the game's unit and per player, the deviation figure."""

from __future__ import annotations

import json

from montecards.analysis import seat_advantage
from montecards.report.base import Report
from montecards.report.strengths import record, rows
from montecards.report.verdicts import unsupported_verdicts


def test_answers_at_every_strength(tmp_path):
    rep = Report("parade", tmp_path, True, 11, 1, "montecards report parade --quick")
    runs = {"simple": ("greedy", 3_000), "tuned": ("tuned", 600), "strong": ("random", 60)}
    for label, (strategy, n) in runs.items():
        sa = seat_advantage("parade", players=[2, 3], n=n, strategy=strategy, seed=11, jobs=1)
        record(rep, label, strategy, sa)
    table = rows(rep)
    assert [r["players"] for r in table] == [2, 3]
    three = table[1]
    assert set(three["strengths"]) == {"simple", "tuned", "strong"}
    assert three["strengths"]["strong"]["small"] and not three["strengths"]["simple"]["small"]
    # 60 games at one strength: never "holds at every strength"
    assert three["seat_kind"] in ("depends", "unresolved") and three["seat_kind"] != "holds"
    s = three["strengths"]["simple"]
    assert abs(s["per_player"] - s["length"][0] / 3) < 1e-9 and 0 < s["balance"] <= 1
    page = rep.write(1.0).read_text()
    head = page.index("## Answers at every strength")
    assert page.index("## Run sizes") < head < page.index("### Seat advantage") < page.index("### Length")
    assert "Turns per game [95 % interval] and turns per player" in page and "### Ties" in page
    assert "seats_by_strength.png" in page and (tmp_path / "seats_by_strength.svg").exists()
    assert unsupported_verdicts(page) == []
    data = json.loads((tmp_path / "data.json").read_text())
    assert [r["players"] for r in data["summary"]] == [2, 3]


def test_a_variant_at_every_strength(tmp_path):
    from montecards.report.strengths import variant_at_strengths

    rep = Report("parade", tmp_path, True, 11, 1, "montecards report parade --quick")
    margins = {"margin=2": {"two_player_margin": 2}, "margin=0": {"two_player_margin": 0}}
    variant_at_strengths(rep, "Margin", margins, 2, {"simple": ("greedy", 2_000), "tuned": ("tuned", 60)},
                         {"win_0": "first seat's win share", "shared": "ties"})
    page = rep.write(1.0).read_text()
    table = page[page.index("### Margin"):]
    assert "| variant | quantity | simple | tuned | verdict |" in table
    assert table.count("| margin=0 |") == 2 and "(inconclusive)" in table  # 60 deals at tuned
    assert "holds at every strength" not in table  # the tuned column decides nothing
    assert unsupported_verdicts(page) == []

"""reports/SUMMARY.md and the cross-game figures, computed from the reports' data.json
(report/summary.py), and the skill depth a report records from its ratings."""

from __future__ import annotations

import json
import shutil

from montecards.analysis import seat_advantage
from montecards.report.base import Report, ratings_block
from montecards.report.strengths import record
from montecards.report.summary import write_summary
from montecards.report.verdicts import unsupported_verdicts


def test_summary_from_generated_reports(tmp_path):
    reports = tmp_path / "reports"
    out = reports / "parade"
    out.mkdir(parents=True)
    rep = Report("parade", out, True, 13, 1, "montecards report parade --quick")
    for label, strategy, n in (("simple", "greedy", 400), ("tuned", "tuned", 200)):
        record(rep, label, strategy, seat_advantage("parade", players=[2, 3], n=n, strategy=strategy, seed=13,
                                                    jobs=1))
    res = ratings_block(rep, 2, ["random", "greedy"], 150)
    # the deal's share as report/luck.py records it (its analysis: tests/test_report_pages.py)
    rep.facts["deal_share"] = {"share": 0.014, "low": 0.008, "high": 0.020, "players": 2, "deals": 4000,
                               "replays": 8}
    rep.write(1.0)
    depth = json.loads((out / "data.json").read_text())["facts"]["skill_depth"]
    assert depth["points"] == res.depth()["points"] and depth["from"] == "random" and depth["players"] == 2
    # a second game whose report carries no data.json yet (predates it)
    shutil.copytree(out, reports / "wigout")
    (reports / "wigout" / "data.json").unlink()
    page = write_summary(reports).read_text()
    rows = [ln for ln in page.splitlines() if ln.startswith("| parade |")]
    assert len(rows) == 2 and f"{depth['points']:.0f} [" in rows[0]
    assert "regenerate them): wigout." in page
    assert "![Skill depth by game](skill_depth.png)" in page and (reports / "skill_depth.svg").exists()
    assert "No report measured a luck share yet" in page
    assert "1.4 % [0.8, 2.0] (2p)" in rows[0] and "| deal share | luck share |" in page
    assert "![The deal's share by game](deal_share.png)" in page and (reports / "deal_share.svg").exists()
    assert unsupported_verdicts(page) == []

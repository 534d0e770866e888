"""The top rung's verdict (report/base.py skill_verdict): "skill pays" only beyond a small edge."""

from __future__ import annotations


def test_skill_pays_only_beyond_a_small_edge():
    """Wig Out!'s +1.3 pp top-against-bottom edge is measurable but not "skill pays" (issue 34)."""
    from montecards.report.base import skill_verdict
    from montecards.report.verdicts import Estimate, unsupported_verdicts

    fair = 0.25
    small = Estimate(0.263, 0.2619, 0.2649, 50_000, null=fair)
    assert skill_verdict(small) == "a measurable edge, but under 5 pp: skill matters little here"
    straddles = Estimate(0.29, 0.27, 0.31, 500, null=fair)
    assert skill_verdict(straddles) == "a measurable edge, not resolved whether above 5 pp"
    large = Estimate(0.927, 0.907, 0.947, 150, null=fair)
    assert skill_verdict(large).startswith("skill pays")
    assert unsupported_verdicts(f"One seat wins 92.7 %: {skill_verdict(large)}.") == []
    assert skill_verdict(Estimate(0.9, 0.3, 1.0, 4, null=fair)).startswith("not resolved")  # 4 deals

"""Verdict words only where their intervals support them (report/verdicts.py)."""

from __future__ import annotations

from montecards.report.verdicts import (
    MIN_DEALS,
    Estimate,
    across_strengths,
    claim,
    marker,
    unsupported_verdicts,
)


def pp(e: Estimate) -> str:
    return f"{100 * (e.value - e.null):+.1f} pp"


UP = Estimate(0.30, 0.28, 0.32, 5_000, null=0.25)
DOWN = Estimate(0.20, 0.18, 0.22, 5_000, null=0.25)
FLAT = Estimate(0.251, 0.246, 0.256, 50_000, null=0.25)
WIDE = Estimate(0.26, 0.20, 0.32, 400, null=0.25)
TINY = Estimate(1.0, 0.51, 1.0, 4, null=0.25)  # Marbles' old "skill pays" on 4 deals


def test_claim_decides_the_word_from_the_interval():
    assert claim(UP).startswith("advantage<!--verdict advantage")
    assert claim(DOWN).startswith("disadvantage<!--verdict disadvantage")
    assert claim(FLAT).startswith("no effect<!--verdict no effect")
    assert claim(WIDE).startswith("not resolved at this size (about ")
    small = claim(TINY, up="skill pays")
    assert "skill pays" not in small and "inconclusive" in small and f"fewer than {MIN_DEALS}" in small
    assert TINY.small and TINY.direction is None and UP.direction == 1 and FLAT.direction == 0


def test_deals_needed_shrinks_the_interval_enough():
    need = WIDE.deals_needed()
    half = (WIDE.high - WIDE.low) / 2 * (WIDE.n / need) ** 0.5
    gap = abs(WIDE.value - WIDE.null)
    assert need > WIDE.n and half < max(gap, WIDE.margin - gap)
    assert TINY.deals_needed() >= MIN_DEALS


def test_three_verdicts_across_strengths():
    holds = across_strengths({"greedy": UP, "tuned": UP}, pp)
    assert holds.kind == "holds" and holds.text.startswith("holds at every strength: advantage")
    depends = across_strengths({"greedy": DOWN, "strong": UP}, pp)
    assert depends.kind == "depends" and "greedy -5.0 pp, strong +5.0 pp" in depends.text
    assert across_strengths({"greedy": UP, "strong": FLAT}, pp).kind == "depends"
    unresolved = across_strengths({"greedy": UP, "strong": TINY}, pp)
    assert unresolved.kind == "unresolved" and "strong needs about" in unresolved.text
    single = across_strengths({"simple": UP}, pp)
    assert single.kind == "holds" and "every strength" not in single.text
    assert single.text.startswith("advantage") and "at one strength only" in single.text
    for v in (holds, depends, unresolved, single):
        assert unsupported_verdicts(f"- Seat 1: {v.text}.") == []


def test_the_scan_fails_on_unsupported_words():
    assert unsupported_verdicts(f"- The first seat has an {claim(UP)} (30.0 % ± 2.0 %).") == []
    # the word without a marker, a marker whose interval crosses the null, too few deals
    assert len(unsupported_verdicts("- Skill pays: the top rung wins 100 % (95 % CI 51–100 %).")) == 1
    crossing = f"- an advantage{marker('advantage', WIDE)} (26 % ± 6 %)"
    problems = unsupported_verdicts(crossing)
    assert len(problems) == 2 and "do not support" in problems[0]
    assert unsupported_verdicts(f"- skill pays{marker('skill pays', TINY)}")
    # one marker backs one occurrence; a marker of another word backs nothing
    assert len(unsupported_verdicts(f"- {claim(UP)}, and an advantage again")) == 1
    assert len(unsupported_verdicts(f"- beats{marker('advantage', UP)}")) == 1
    # a verdict word in a disadvantage's marker is not a second claim; headings are topics
    assert unsupported_verdicts(f"- {claim(DOWN)}") == []
    assert unsupported_verdicts("## How much skill pays\n### Seat advantage") == []
    assert len(unsupported_verdicts("text\n\nThe strongest player saturates.")) == 2


def test_a_generated_page_backs_every_verdict_word(tmp_path):
    from montecards.analysis import seat_advantage
    from montecards.report.base import Report, seat_section
    from montecards.report.strengths import record

    rep = Report("parade", tmp_path, True, 5, 1, "montecards report parade --quick")
    seat_section(rep, "greedy", [2, 3], 400)
    small = seat_advantage("parade", players=[3], n=40, strategy="greedy", seed=5, jobs=1)
    record(rep, "strong", "greedy", small)
    page = rep.write(1.0).read_text()
    assert "(inconclusive)" in page and "now inconclusive, 40 deals" in page  # 40 games decide nothing
    assert unsupported_verdicts(page) == []
    # the same page with a verdict its numbers do not give is caught
    bad = page.replace("not resolved at this size", "an advantage", 1)
    assert bad != page and unsupported_verdicts(bad)

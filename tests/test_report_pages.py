"""Generated report pages (quick size) of the games whose recipes run no search: every verdict
word backed by its interval, and each recipe's answers (issue 34, parts 2 and 7). Parade's page
is generated and scanned by tests/test_report.py; Gift of Tulips' and Joker Marbles' quick
reports play searching players and are left to the regeneration."""

from __future__ import annotations

import json

import pytest

from montecards.report import build_report
from montecards.report.verdicts import unsupported_verdicts


@pytest.mark.parametrize("game", ["anomia", "wigout"])
def test_a_generated_page_claims_only_what_its_intervals_support(game, tmp_path):
    page = build_report(game, tmp_path, quick=True, jobs=2).read_text()
    assert unsupported_verdicts(page) == []
    assert page.count("## Answers at every strength") == 1 and "## Findings" not in page
    data = json.loads((tmp_path / "data.json").read_text())
    assert data["summary"] and data["facts"]["skill_depth"]["points"] > 0
    # how much the deal decides (report/luck.py), at 4 players, into the facts SUMMARY.md reads
    assert page.count("## How much the deal decides") == 1 and "The deal decides" in page
    deal = data["facts"]["deal_share"]
    assert deal["players"] == 4 and 0 <= deal["low"] <= deal["share"] <= deal["high"] <= 1
    if game == "wigout":
        # its own questions lead; the symmetric seats are one line
        assert page.index("## Deadlocks") < page.index("## What a speed edge") < page.index("## Answers")
        assert "**Seat symmetry check**" in page and "### Seat advantage" not in page
        assert "100 % faster" in page
        # the deadlock remedies are the designer section's search (report/designer.py), answered once
        assert page.count("## Rules a designer could change") == 1
        assert page.count("**Verdict (deadlocks at 5–6 players):**") == 1
        # the race's length in minutes, under its stated assumption (report/wigout.py)
        assert "## How long a game takes, in minutes" in page and "**Assumption:** one unit is 2 s" in page
        assert "4 players (greedy): a game lasts" in page and "minutes of play" in page
    else:
        assert "## Why the first seats win more" in page and "92 category cards (92 mod 5 = 2" in page
        assert data["facts"]["skill_depth"]["to"] == "theta=1"
        assert not (tmp_path / "game_length.png").exists()  # the length is fixed by the deck

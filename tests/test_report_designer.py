"""The designer section's rules (report/designer.py): the size of a change and what meeting a
target within its interval means. The section on a generated page: tests/test_report.py."""

from __future__ import annotations

from types import SimpleNamespace

from montecards.analysis.balance import parse_target
from montecards.report.designer import _change, _meets


def test_a_change_is_sized_by_rules_changed_then_relative_size():
    official = {"opening_parade": 6, "end_colours": 6, "start_points": [0, 0, 0]}
    assert _change(official, official) == (0, 0.0)
    one = _change({"opening_parade": 3, "end_colours": 6, "start_points": [0, 0, 0]}, official)
    two = _change({"opening_parade": 5, "end_colours": 5, "start_points": [0, 0, 0]}, official)
    assert one == (1, 0.5) and two[0] == 2 and one < two  # fewer rules first, however far
    points = _change({"opening_parade": 6, "end_colours": 6, "start_points": [4, 2, 0]}, official)
    assert points == (1, 6.0)  # a list: element by element, relative to at least 1


def _metrics(shares, lows, highs, deadlocks=(0.0, 0.0, 0.0)):
    return {"players": len(shares), "win_share": shares, "win_share_low": lows, "win_share_high": highs,
            "first_seat": shares[0], "first_seat_low": lows[0], "first_seat_high": highs[0],
            "fair_within_interval": all(lo <= 1 / len(shares) <= hi for lo, hi in zip(lows, highs)),
            "length": 40.0, "spread": max(shares) - min(shares), "balance": 1 - max(shares) + min(shares),
            "ties": 0.0, "means": {"deadlocks": deadlocks[0]},
            "means_interval": {"deadlocks": list(deadlocks[1:])}}


def test_meeting_a_target_needs_the_whole_interval():
    fair = _metrics([0.33, 0.34, 0.33], [0.32, 0.33, 0.32], [0.34, 0.35, 0.34])
    skewed = _metrics([0.30, 0.36, 0.34], [0.29, 0.35, 0.33], [0.31, 0.37, 0.35])
    res = SimpleNamespace(targets=[parse_target("fair")])
    assert _meets(res, SimpleNamespace(held_out={"metrics": {3: fair}}), True)
    assert not _meets(res, SimpleNamespace(held_out={"metrics": {3: skewed}}), True)
    assert _meets(res, SimpleNamespace(metrics={3: fair}), False)  # the search's own numbers
    res = SimpleNamespace(targets=[parse_target("deadlocks<=0.01")])
    low_mean_wide = _metrics([0.33, 0.34, 0.33], [0.32, 0.33, 0.32], [0.34, 0.35, 0.34], (0.008, 0.0, 0.02))
    none = _metrics([0.33, 0.34, 0.33], [0.32, 0.33, 0.32], [0.34, 0.35, 0.34], (0.0, 0.0, 0.0))
    assert not _meets(res, SimpleNamespace(held_out={"metrics": {5: low_mean_wide}}), True)
    assert _meets(res, SimpleNamespace(held_out={"metrics": {5: none}}), True)

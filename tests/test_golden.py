"""A refactor changes no game: every golden case gives exactly its recorded numbers.

The cases (``tests/golden/__init__.py``) cover every game, built-in strategy, player count and
key parameter; ``scripts/record_golden.py`` recorded them. A failure here means a game's
outcome changed for the same seed: either a bug, or a rule change that must be recorded
deliberately (and said in its commit).
"""

import pytest

from tests import golden

EXPECTED = golden.load()


@pytest.mark.parametrize("case", golden.CASES, ids=golden.case_key)
def test_case_gives_its_recorded_numbers(case):
    key = golden.case_key(case)
    assert key in EXPECTED, f"no recorded result for {key}: run scripts/record_golden.py"
    got = golden.fingerprint(case)
    want = EXPECTED[key]
    assert got["summary"] == want["summary"]
    assert got["rows_sha256"] == want["rows_sha256"]
    assert got["trace_sha256"] == want["trace_sha256"]


def test_every_recorded_case_is_still_played():
    assert set(EXPECTED) == {golden.case_key(c) for c in golden.CASES}

"""Record the golden results (tests/golden/results.json) from the current tree.

Run it only when a game is *meant* to change (a rule fix), and say so in the commit: the
golden file is what proves that a refactor changed no game.

    python scripts/record_golden.py [--check]

``--check`` compares instead of writing and lists every case that differs (exit 1).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import golden  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the recorded file")
    args = parser.parse_args()
    if not args.check:
        results = golden.record()
        print(f"recorded {len(results)} cases in {golden.GOLDEN_FILE}")
        return 0
    expected = golden.load()
    bad = 0
    for case in golden.CASES:
        key = golden.case_key(case)
        got = golden.fingerprint(case)
        if expected.get(key) != got:
            bad += 1
            print(f"DIFFERS: {key}")
    print(f"{len(golden.CASES) - bad} same, {bad} different")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Test settings: the repository root on sys.path (for ``tests.naive``), no progress bars."""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("MONTECARDS_NO_PROGRESS", "1")

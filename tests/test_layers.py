"""Imports only point down: the import-linter contracts of pyproject.toml hold.

The CLI sits above the report builder, the Python API, the analysis layer, the plots, the run
layer, the games and the engine; the engine and the run layer import no game; the analysis
layer and the reports import no kernel; the CLI uses only the public API (see
``[tool.importlinter]`` and docs/architecture.md).
"""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_hold():
    exe = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    out = subprocess.run([exe], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "0 broken" in out.stdout

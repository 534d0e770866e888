"""Running a docs page's examples as a reader would: its Python blocks in order, its shell
blocks' ``montecards`` lines through the CLI, in a scratch folder holding the page's files.

Only the sizes shrink (games, budgets), so that the examples run in seconds; every
replacement is listed in ``SMALLER`` and ``smaller_command``.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SMALLER = {"n=1_000_000": "n=2_000", "n=100_000": "n=2_000", "n=10_000": "n=1_000",
           "budget=40_000": "budget=12_000", "holdout=2_000": "holdout=500"}
"""Sizes in the Python examples, and what the tests play instead."""


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """Every fenced block as ``(language, code)``, in page order (indented fences too)."""
    blocks, lang, lines, indent = [], "", None, 0
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped.startswith("```"):
            if lines is None:
                lang, lines, indent = stripped[3:].strip(), [], len(line) - len(stripped)
            else:
                blocks.append((lang, "\n".join(lines) + "\n"))
                lines = None
        elif lines is not None:
            lines.append(line[indent:])
    return blocks


def python_blocks(text: str) -> list[str]:
    return [code for lang, code in fenced_blocks(text) if lang == "python"]


def command_lines(text: str) -> list[str]:
    """The ``montecards ...`` lines of the shell blocks (continuations joined, comments cut)."""
    out = []
    for lang, code in fenced_blocks(text):
        if lang not in ("", "bash", "sh"):
            continue
        for line in code.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line.startswith("montecards "):
                out.append(line)
    return out


def smaller_code(code: str) -> str:
    for big, small in SMALLER.items():
        code = code.replace(big, small)
    return code


def _set(args: list[str], option: str, value: str) -> list[str]:
    """``args`` with ``option value`` (replaced where given, else added)."""
    for k, arg in enumerate(args):
        if arg == option:
            return args[: k + 1] + [value] + args[k + 2:]
        if arg.startswith(option + "="):
            return args[:k] + [f"{option}={value}"] + args[k + 1:]
    return args + [option, value]


def smaller_command(line: str) -> list[str]:
    """A documented command line as arguments, with fewer games."""
    args = shlex.split(line)[1:]
    command = args[0]
    if command in ("simulate", "compare", "seats"):
        args = _set(args, "-n", "300")
    if command == "tune":
        for option, value in (("--budget", "1200"), ("--deals", "100"), ("--holdout", "100")):
            args = _set(args, option, value)
        if "--method" not in args:
            args = _set(args, "--popsize", "4")
    return args


def run_command(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """``montecards ARGS`` in ``cwd``, as a user runs it (this tree first on the path)."""
    env = {**os.environ, "MONTECARDS_NO_PROGRESS": "1",
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(cwd)])}
    return subprocess.run([sys.executable, "-m", "montecards", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=1800)


def workspace(tmp_path: Path, files: dict[str, str]) -> Path:
    """A scratch folder holding ``files`` and the repository's ``examples/`` (linked)."""
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    return tmp_path

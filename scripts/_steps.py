"""Shared by the maintenance scripts: their command line, and running their commands in order."""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_steps(steps: list[list[str]], dry_run: bool) -> int:
    """Run each command from the repository root, stopping at the first that fails.

    Returns the exit status to leave with: 0, or the failing command's status. With
    ``dry_run`` the commands are only printed, one per line.
    """
    for step in steps:
        line = shlex.join(step)
        if dry_run:
            print(line)
            continue
        print(f"$ {line}", flush=True)
        started = time.perf_counter()
        status = subprocess.run(step, cwd=ROOT).returncode
        if status != 0:
            print(f"failed (exit {status}): {line}", file=sys.stderr)
            return status
        print(f"  done in {time.perf_counter() - started:.0f} s", flush=True)
    return 0


def script_parser(doc: str) -> argparse.ArgumentParser:
    """An argument parser showing the script's docstring, with ``--dry-run``."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    return parser


def check_games(parser: argparse.ArgumentParser, games: list[str]) -> None:
    """Exit with status 2 and one line naming the first unknown game, if any."""
    from montecards.games import names

    unknown = [game for game in games if game not in names()]
    if unknown:
        parser.exit(2, f"error: unknown game {unknown[0]!r}; expected one of {', '.join(names())}\n")

"""Verdicts decided from intervals, and the check that a page claims nothing its numbers do not
support.

A report says "advantage", "beats", "skill pays" ... only through :func:`claim` and
:func:`across_strengths`, which decide the word from an :class:`Estimate` (value, 95 % interval,
deals behind it, and the value that means "no effect": the fair share, or 0 for a difference):

- the interval lies above the null, on at least :data:`MIN_DEALS` deals: the "up" word
  (advantage, beats, stronger, skill pays);
- below it: the "down" word (disadvantage, loses to);
- inside ``null ± margin`` (the smallest effect worth naming), on at least :data:`MIN_DEALS`
  deals: "no effect" (or "saturates" for a gain between strengths);
- otherwise, or under :data:`MIN_DEALS` deals: "not resolved at this size", with the deals that
  would resolve it (:meth:`Estimate.deals_needed`). Figures draw such estimates hollow.

Every verdict word the helpers write carries an invisible marker (an HTML comment holding its
numbers). :func:`unsupported_verdicts` scans a page: a verdict word on a line without a marker
for it, or whose marker's interval does not support it, is reported — ``tests/test_verdicts.py``
runs it on generated pages.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

MIN_DEALS = 100
"""Fewer deals than this: inconclusive whatever the interval (a Wilson interval on a handful of
games is not to be trusted), and drawn as a hollow marker."""

UP_WORDS = ("advantage", "beats", "stronger", "strongest", "skill pays")
DOWN_WORDS = ("disadvantage",)
NULL_WORDS = ("no effect", "saturates")
VERDICT_WORDS = UP_WORDS + DOWN_WORDS + NULL_WORDS

_WORD = re.compile(
    r"\b(disadvantage\w*|advantage\w*|beats|stronger|strongest|skill pays|saturates|no effect)\b",
    re.IGNORECASE,
)
_MARK = re.compile(r"<!--verdict ([a-z ]+?) (\S+) (\S+) (\S+) (\S+) (\d+) (\S+)-->")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


@dataclass(frozen=True)
class Estimate:
    """A measured quantity: ``value`` with its 95 % interval ``[low, high]`` on ``n`` deals;
    ``null`` is its no-effect value (the fair share, or 0 for a difference) and ``margin`` the
    smallest departure from it worth naming (in the value's unit)."""

    value: float
    low: float
    high: float
    n: int
    null: float = 0.0
    margin: float = 0.01
    label: str = ""

    @property
    def small(self) -> bool:
        """Under :data:`MIN_DEALS` deals: inconclusive, drawn hollow."""
        return self.n < MIN_DEALS

    @property
    def direction(self) -> int | None:
        """+1 (above the null), -1 (below), 0 (within ``null ± margin``), None (not resolved)."""
        if self.small:
            return None
        if self.low > self.null:
            return 1
        if self.high < self.null:
            return -1
        if self.null - self.margin <= self.low and self.high <= self.null + self.margin:
            return 0
        return None

    def deals_needed(self) -> int:
        """About how many deals would resolve the estimate (its interval away from the null, or
        inside ``null ± margin``), if the value stayed where it is and the interval shrank as
        1/√n; at least :data:`MIN_DEALS`."""
        half = max((self.high - self.low) / 2, 1e-12)
        gap = abs(self.value - self.null)
        room = self.margin - gap
        targets = [t for t in (gap, room) if t > 0]
        if not targets:
            return max(MIN_DEALS, self.n)
        need = self.n * (half / max(targets)) ** 2 * 1.2
        return max(MIN_DEALS, int(math.ceil(need / 100.0) * 100))


def marker(word: str, est: Estimate) -> str:
    """The invisible record of a verdict word's numbers, checked by :func:`unsupported_verdicts`."""
    return (f"<!--verdict {word.lower()} {est.value:.6g} {est.low:.6g} {est.high:.6g} {est.null:.6g} "
            f"{int(est.n)} {est.margin:.6g}-->")


def unresolved(est: Estimate) -> str:
    """"not resolved at this size", with the deals that would resolve it."""
    if est.small:
        return (f"not resolved at this size (only {est.n:,} deals, fewer than {MIN_DEALS}: inconclusive; "
                f"about {est.deals_needed():,} would resolve it)")
    return f"not resolved at this size (about {est.deals_needed():,} deals would resolve it)"


def claim(est: Estimate, up: str = "advantage", down: str = "disadvantage", none: str = "no effect") -> str:
    """The verdict phrase the interval supports: ``up`` (above the null), ``down`` (below),
    ``none`` (inside ``null ± margin``), else :func:`unresolved`. A phrase holding a verdict
    word carries its marker."""
    phrase = {1: up, -1: down, 0: none}.get(est.direction)
    if phrase is None:
        return unresolved(est)
    return phrase + "".join(marker(w, est) for w in _words(phrase))


def _words(text: str) -> list[str]:
    return [_normal(m.group(1)) for m in _WORD.finditer(text)]


def _normal(word: str) -> str:
    word = word.lower()
    if word.startswith("disadvantage"):
        return "disadvantage"
    if word.startswith("advantage"):
        return "advantage"
    return word


@dataclass(frozen=True)
class Verdict:
    kind: str  # "holds", "depends" or "unresolved"
    text: str


def across_strengths(estimates: Mapping[str, Estimate], fmt, up: str = "advantage",
                     down: str = "disadvantage", none: str = "no effect") -> Verdict:
    """One question's answer over the strengths (label → estimate), one of three verdicts:
    "holds at every strength" (every strength resolved the same way; with one strength
    measured, the answer "at one strength only"), "depends on strength"
    (two strengths resolved differently; named with their values), "not resolved at this size"
    (otherwise; with the deals each unresolved strength needs). ``fmt(est)`` formats a value."""
    dirs = {label: e.direction for label, e in estimates.items()}
    resolved = {d for d in dirs.values() if d is not None}
    values = ", ".join(f"{label} {fmt(e)}" for label, e in estimates.items())
    if len(resolved) > 1:
        return Verdict("depends", f"depends on strength ({values})")
    if None not in dirs.values():
        d = resolved.pop()
        word = {1: up, -1: down, 0: none}[d]
        marks = "".join(marker(w, e) for e in estimates.values() for w in _words(word))
        if len(estimates) == 1:  # one strength: nothing to say about others
            return Verdict("holds", f"{word}{marks} ({values}; at one strength only)")
        return Verdict("holds", f"holds at every strength: {word}{marks} ({values})")
    need = "; ".join(f"{label} needs about {e.deals_needed():,} deals" + (" (now inconclusive, "
                     f"{e.n:,} deals)" if e.small else "")
                     for label, e in estimates.items() if dirs[label] is None)
    return Verdict("unresolved", f"not resolved at this size ({values}; {need})")


def _supports(word: str, value: float, low: float, high: float, null: float, n: int, margin: float) -> bool:
    if n < MIN_DEALS:
        return False
    if word in UP_WORDS:
        return low > null
    if word in DOWN_WORDS:
        return high < null
    if word in NULL_WORDS:
        return null - margin <= low and high <= null + margin
    return False


def unsupported_verdicts(page: str) -> list[str]:
    """Every verdict word on ``page`` (Markdown or HTML) that no interval on its line supports:
    one line per problem, empty when every claim is backed. Headings (lines starting with
    ``#``) name topics and are not claims."""
    problems = []
    for number, line in enumerate(page.splitlines(), 1):
        if line.lstrip().startswith("#"):
            continue
        backed: dict[str, int] = {}
        for m in _MARK.finditer(line):
            word, nums = m.group(1), m.groups()[1:]
            value, low, high, null = (float(x) for x in nums[:4])
            n, margin = int(nums[4]), float(nums[5])
            if _supports(word, value, low, high, null, n, margin):
                backed[word] = backed.get(word, 0) + 1
            else:
                problems.append(f"line {number}: '{word}' marked with numbers that do not support it "
                                f"({value:g} [{low:g}, {high:g}], null {null:g}, {n} deals)")
        for m in _WORD.finditer(_COMMENT.sub("", line)):
            word = _normal(m.group(1))
            if backed.get(word, 0) > 0:
                backed[word] -= 1
            else:
                problems.append(f"line {number}: '{m.group(1)}' without an interval that supports it: "
                                f"{line.strip()[:160]}")
    return problems

"""Confidence intervals: Wilson for proportions, normal for means."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion observed as ``share`` over ``n`` trials.

    Conservative for shares of shared wins: a share is a mean of values in [0, 1] whose
    variance is at most that of 0/1 outcomes with the same mean.
    """
    if n <= 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, share))
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def normal_mean(mean: float, variance: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Normal-approximation interval of a mean from its sample variance over ``n`` values."""
    if n <= 0:
        return (float("nan"), float("nan"))
    half = z * math.sqrt(max(variance, 0.0) / n)
    return (mean - half, mean + half)

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


def half_width(interval: tuple[float, float] | list[float]) -> float:
    """Half the width of an interval (the "±" of a reported value)."""
    return (interval[1] - interval[0]) / 2.0


def t_quantile(df: int, z: float = Z95) -> float:
    """Student t quantile matching the normal quantile ``z`` (Cornish-Fisher expansion; within
    1 % of the exact value for df >= 3, 0.2 % for df >= 5, exact in the limit)."""
    if df <= 0:
        return float("inf")
    v = float(df)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
    )


def mean_interval(values, z: float = Z95) -> tuple[float, float, float]:
    """Mean of per-game values and its 95 % interval: ``(mean, low, high)`` — normal, with the
    Student t quantile for small samples (below 200 values).

    Used for paired differences (common random numbers): pass the per-game differences.
    """
    import numpy as np

    arr = np.asarray(values, dtype=np.float64)
    n = arr.shape[0]
    if n == 0:
        return (float("nan"), float("nan"), float("nan"))
    mean = float(arr.mean())
    var = float(arr.var(ddof=1)) if n > 1 else 0.0
    if n == 1:
        return (mean, float("-inf"), float("inf"))
    low, high = normal_mean(mean, var, n, t_quantile(n - 1, z) if n < 200 else z)
    return (mean, low, high)


def share_interval(values, z: float = Z95) -> tuple[float, float, float]:
    """Mean of per-game shares in [0, 1] with its Wilson 95 % interval: ``(share, low, high)``."""
    import numpy as np

    arr = np.asarray(values, dtype=np.float64)
    n = arr.shape[0]
    share = float(arr.mean()) if n else float("nan")
    low, high = wilson(share, n, z)
    return (share, low, high)

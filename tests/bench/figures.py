"""The one definition of a percentile the benchmarks print, so their p99s compare."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` percentile (0 < q ≤ 1) of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]

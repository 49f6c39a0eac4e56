"""The one definition of a percentile the benchmarks print, so their p99s compare."""

from __future__ import annotations

import math
import sqlite3
import time
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` percentile (0 < q ≤ 1) of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def flush_times(folder: Path, samples: int) -> list[float]:
    """Milliseconds of one small row INSERTed and COMMITted with fsync in ``folder``, with the
    journal's settings (WAL, ``synchronous=FULL``): the floor no press can go below."""
    with closing(sqlite3.connect(folder / "flush.sqlite3", isolation_level=None)) as db:
        assert db.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE IF NOT EXISTS t (n INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        db.execute("DELETE FROM t")
        timings = []
        for n in range(samples):
            start = time.perf_counter()
            db.execute("BEGIN IMMEDIATE")
            db.execute(
                "INSERT INTO t VALUES (?, ?)", (n, '{"type":"life_changed","seat":1,"delta":-1}')
            )
            db.execute("COMMIT")
            timings.append((time.perf_counter() - start) * 1000)
            assert db.execute("SELECT count(*) FROM t").fetchone()[0] == n + 1
    return timings

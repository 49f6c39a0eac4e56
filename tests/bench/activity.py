"""How often a process wakes and how much CPU it uses, read from ``/proc`` (Linux).

A wake is a context switch of any of the process's threads: each time a thread that slept is
run again (voluntary) or is taken off the CPU (involuntary).  An idle kiosk that really sleeps
wakes only for its own deadlines; one that polls wakes at its polling rate.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

_TICK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Activity:
    wakes: int  # context switches of every thread alive when read
    cpu: float  # seconds of CPU, user and system

    @classmethod
    def of(cls, pid: int | str = "self") -> Activity:
        wakes = 0
        ticks = 0
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                status = (task / "status").read_text()
                stat = (task / "stat").read_text()
            except OSError:
                continue  # a thread that ended meanwhile
            wakes += sum(
                int(line.split()[1]) for line in status.splitlines() if "ctxt_switches:" in line
            )
            fields = stat.rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
        return cls(wakes, ticks / _TICK)

    def __sub__(self, earlier: Activity) -> Activity:
        return Activity(self.wakes - earlier.wakes, self.cpu - earlier.cpu)

"""What importing the kiosk costs, as JSON.  Run: python tests/bench/imports.py [--runs N] [--top N]

Imports ``display.kiosk`` — everything the kiosk needs before its first frame; the event link,
the card data fetcher and the console are loaded only when used — in ``--runs`` fresh
interpreters under ``python -X importtime``, with the modules compiled first as pip leaves an
installed copy (with nothing compiled, Python would compile every module on each start).  From
each run's report:

- ``total_ms``: ``display.kiosk``'s cumulative time, i.e. the whole import; the quickest run and
  the median (the quickest is the machine's figure; the others add what else it was doing).
- ``split_ms``: the same run's self times added up by who wrote the module: ``ours`` (device,
  display, drivers) and ``libraries`` (pydantic, pygame, msgspec and the standard library's
  modules they and we import) — what no change of ours can take away.
- ``ours_by_module_ms``: our slowest modules by self time in that run: mostly the pydantic
  models and dataclasses a module makes when it is imported.
- ``libraries_alone_ms``: the floor.  A fresh interpreter lists every module importing
  ``display.kiosk`` loads that is not ours, in the order they were loaded; then ``--runs`` more
  interpreters import just those (``__import__``, which ``-X importtime`` reports, where
  ``importlib.import_module`` bypasses it), alternating with the kiosk's runs, and add up their
  self times.  It is what importing the kiosk would cost if our own modules cost nothing; each
  run is checked to have imported every listed module.

Every run is checked to have imported ``display.kiosk`` and nothing is timed that failed.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OURS = ("device", "display", "drivers")
ALIASES = (
    "typing.",
    "importlib._bootstrap",
)  # names sys.modules holds for modules imported under another
LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \| ( *)(\S+)")


@dataclass(frozen=True)
class Run:
    total_us: int
    ours_us: int
    libraries_us: int
    by_module_us: dict[str, int]


def parse(report: str) -> Run:
    """One ``-X importtime`` report (stderr) as figures; raises if ``display.kiosk`` is not in it."""
    # The report lists each import after the ones it caused, so display.kiosk's tree is every line
    # after the top-level import before it (the interpreter's own start-up: site, encodings, …).
    ours = libraries = 0
    by_module: dict[str, int] = {}
    for line in report.splitlines():
        found = LINE.match(line)
        if found is None:
            continue
        own, cumulative, name = int(found[1]), int(found[2]), found[4]
        if name.split(".")[0] in OURS:
            ours += own
            by_module[name] = own
        else:
            libraries += own
        if not found[3]:  # a top-level import: its tree ends here
            if name == "display.kiosk":
                return Run(cumulative, ours, libraries, by_module)
            ours = libraries = 0
            by_module = {}
    raise RuntimeError(f"the report does not show display.kiosk imported:\n{report[-2000:]}")


def compile_ours() -> None:
    """Compile our modules as pip leaves an installed copy (else each start would compile them)."""
    for package in OURS:
        compileall.compile_dir(ROOT / package, quiet=1)


def python(*args: str) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter run with ``args`` in this checkout, reading the compiled modules."""
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # read the compiled modules, as an installed copy does
    result = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    if result.returncode != 0:
        raise RuntimeError(f"python {' '.join(args)[:200]} failed:\n{result.stderr[-2000:]}")
    return result


def one_run() -> Run:
    return parse(python("-X", "importtime", "-c", "import display.kiosk").stderr)


def library_modules() -> list[str]:
    """Every module importing ``display.kiosk`` loads that is not ours, in the order it loaded them."""
    listing = (
        "import sys\nstarted = set(sys.modules)\nimport display.kiosk\n"
        f"print(*(name for name in sys.modules if name not in started and name.split('.')[0] not in {OURS!r}))"
    )
    return python("-c", listing).stdout.split()


def importing(names: list[str]) -> str:
    """Code that imports ``names`` in order; ``__import__``, which ``-X importtime`` reports."""
    return f"for name in {names!r}: __import__(name)"


def libraries_run(names: list[str]) -> int:
    """The self times, in µs, of importing just ``names`` in a fresh interpreter."""
    report = python("-X", "importtime", "-c", importing(names)).stderr
    own = {found[4]: int(found[1]) for found in map(LINE.match, report.splitlines()) if found}
    # sys.modules also holds aliases that are never imported by that name (typing.re, …)
    missing = [name for name in names if name not in own and not name.startswith(ALIASES)]
    if missing:
        raise RuntimeError(f"the libraries' run did not import {missing[:10]}")
    wanted = set(names)
    return sum(us for name, us in own.items() if name in wanted)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument(
        "--top", type=int, default=12, help="how many of our slowest modules to list"
    )
    args = parser.parse_args(argv)
    compile_ours()
    names = library_modules()
    runs, alone = [], []
    for _ in range(args.runs):  # alternately, so both see the machine alike
        runs.append(one_run())
        alone.append(libraries_run(names))
    quickest = min(runs, key=lambda run: run.total_us)
    slowest_ours = sorted(quickest.by_module_us.items(), key=lambda item: -item[1])[: args.top]
    print(
        json.dumps(
            {
                "import": "display.kiosk, python -X importtime, the modules compiled",
                "runs": args.runs,
                "total_ms": {
                    "quickest": round(quickest.total_us / 1000, 1),
                    "median": round(statistics.median(run.total_us for run in runs) / 1000, 1),
                },
                "split_ms": {
                    "ours": round(quickest.ours_us / 1000, 1),
                    "libraries": round(quickest.libraries_us / 1000, 1),
                },
                "ours_by_module_ms": {name: round(us / 1000, 1) for name, us in slowest_ours},
                "libraries_alone_ms": {
                    "modules": len(names),
                    "quickest": round(min(alone) / 1000, 1),
                    "median": round(statistics.median(alone) / 1000, 1),
                },
                "python": sys.version.split()[0],
            },
            indent=1,
            ensure_ascii=False,
        )
    )
    return 0


if __name__ == "__main__":
    from display.cli import playing_the_gadget

    with playing_the_gadget():
        raise SystemExit(main())

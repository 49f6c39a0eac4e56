"""The README keeps its promises: the two set-up commands, and every console command documented."""

from __future__ import annotations

import re
from pathlib import Path

from device.console import entries

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_exactly_two_setup_commands_near_the_top() -> None:
    top = README[: README.index("## A game at the console")]
    commands = re.findall(r"```sh\n(.*?)\n```", top, re.S)
    assert commands == [
        "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/aetherbox",
        "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest",
    ]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert (
        "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest"
        in ci
    )


def test_every_console_command_is_in_the_reference() -> None:
    reference = README[README.index("## Console reference") :]
    for entry in entries():
        usage = entry.usage.replace("|", "\\|")
        assert f"| `{usage}`" in reference, f"README lacks {entry.usage!r}"

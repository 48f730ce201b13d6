"""Start-up time of the command line: median wall time of whole processes.

Each command runs ``--runs`` times as a subprocess of this script, with every installed
plugin loaded (``TAUTRAIT_LOAD_PLUGINS`` is unset) and bytecode caches written, and the
median wall time is printed.
The baseline, measured in the same run and the same way: an empty Python (``python -c
pass``) and one that only imports click, the floor under any click command line.

    python bench/startup.py --runs 15

To see what a command imports: ``python -X importtime $(which tautrait) plugins``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

UNSET_VARIABLES = ("TAUTRAIT_LOAD_PLUGINS", "PYTHONDONTWRITEBYTECODE")
"""Unset for the measured commands: every plugin loads, and the untimed first run of each
writes the bytecode caches of editable sources, as installing a wheel would have."""


def commands() -> list[tuple[str, list[str]]]:
    """(label, argv) of the baseline and the measured commands."""
    python = sys.executable
    tautrait = shutil.which("tautrait", path=str(Path(python).parent)) or shutil.which("tautrait")
    if tautrait is None:
        raise SystemExit("tautrait is not installed next to this Python (make install)")
    return [
        ("python -c pass", [python, "-c", "pass"]),
        ('python -c "import click"', [python, "-c", "import click"]),
        ("tautrait --help", [tautrait, "--help"]),
        ("tautrait plugins", [tautrait, "plugins"]),
        ("tautrait run --help", [tautrait, "run", "--help"]),
    ]


def wall_seconds(argv: list[str], environment: dict[str, str]) -> float:
    """Wall time of one run of ``argv``; a failing command stops the benchmark."""
    start = time.perf_counter()
    completed = subprocess.run(argv, env=environment, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if completed.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{completed.stderr.decode()}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command")
    arguments = parser.parse_args()
    environment = {key: value for key, value in os.environ.items() if key not in UNSET_VARIABLES}
    measured = commands()
    times: dict[str, list[float]] = {label: [] for label, _argv in measured}
    for _label, argv in measured:  # one untimed run each, so every file is in the page cache
        wall_seconds(argv, environment)
    for _run in range(arguments.runs):  # interleaved, so a burst of load hits all alike
        for label, argv in measured:
            times[label].append(wall_seconds(argv, environment))
    print(f"median wall time of {arguments.runs} runs (min-max), {os.cpu_count()} CPUs")
    for label, samples in times.items():
        median = statistics.median(samples)
        print(
            f"  {label:<26} {median * 1000:7.0f} ms"
            f"  ({min(samples) * 1000:.0f}-{max(samples) * 1000:.0f})"
        )


if __name__ == "__main__":
    main()

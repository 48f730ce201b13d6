"""Start-up time of the command line: median wall time of whole processes.

Each command runs ``--runs`` times as a subprocess of this script, with every installed
plugin loaded (``TAUTRAIT_LOAD_PLUGINS`` is unset) and bytecode caches written, and the
median wall time is printed, with the median CPU time (user + system), which a loaded
machine inflates less.
The baseline, measured in the same run and the same way: an empty Python (``python -c
pass``) and one that only imports click, the floor under any click command line.

    python bench/startup.py --runs 15

To see what a command imports: ``python -X importtime $(which tautrait) plugins``.
"""

from __future__ import annotations

import argparse
import os
import resource
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


def timed_run(argv: list[str], environment: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run of ``argv``; a failing command stops
    the benchmark."""
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run(argv, env=environment, capture_output=True, check=False)
    wall = time.perf_counter() - start
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if completed.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{completed.stderr.decode()}")
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command")
    arguments = parser.parse_args()
    environment = {key: value for key, value in os.environ.items() if key not in UNSET_VARIABLES}
    measured = commands()
    walls: dict[str, list[float]] = {label: [] for label, _argv in measured}
    cpus: dict[str, list[float]] = {label: [] for label, _argv in measured}
    for _label, argv in measured:  # one untimed run each: page cache and bytecode caches
        timed_run(argv, environment)
    for _run in range(arguments.runs):  # interleaved, so a burst of load hits all alike
        for label, argv in measured:
            wall, cpu = timed_run(argv, environment)
            walls[label].append(wall)
            cpus[label].append(cpu)
    load = os.getloadavg()[0]
    print(f"{arguments.runs} runs each, {os.cpu_count()} CPUs, load average {load:.1f}")
    print(f"  {'command':<26} {'median wall':>11} {'(min-max)':>13} {'median CPU':>11}")
    for label, samples in walls.items():
        spread = f"({min(samples) * 1000:.0f}-{max(samples) * 1000:.0f})"
        print(
            f"  {label:<26} {statistics.median(samples) * 1000:8.0f} ms {spread:>13}"
            f" {statistics.median(cpus[label]) * 1000:8.0f} ms"
        )


if __name__ == "__main__":
    main()

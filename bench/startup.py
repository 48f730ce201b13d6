"""Start-up time of the command line: median wall time of whole processes.

Each command runs ``--runs`` times as a subprocess of this script, with every installed
plugin loaded (``TAUTRAIT_LOAD_PLUGINS`` is unset) and bytecode caches written, and the
median wall time is printed, with the median CPU time (user + system), which a loaded
machine inflates less.
The baseline, measured in the same run and the same way: an empty Python (``python -c
pass``) and one that only imports click, the floor under any click command line.

Also measured: a whole model-backed run of one telehealth episode (tool-calling agent, llm
user) against ``tautrait serve-scripted`` started by this script, by the direct path (the
default for an OpenAI-compatible server, which never imports litellm) and with
``TAUTRAIT_LLM_TRANSPORT=litellm`` (every call through litellm, as before).

    python bench/startup.py --runs 15

To see what a command imports: ``python -X importtime $(which tautrait) plugins``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

UNSET_VARIABLES = ("TAUTRAIT_LOAD_PLUGINS", "PYTHONDONTWRITEBYTECODE")
"""Unset for the measured commands: every plugin loads, and the untimed first run of each
writes the bytecode caches of editable sources, as installing a wheel would have."""


def tautrait_command() -> str:
    """The ``tautrait`` next to this Python."""
    python = sys.executable
    tautrait = shutil.which("tautrait", path=str(Path(python).parent)) or shutil.which("tautrait")
    if tautrait is None:
        raise SystemExit("tautrait is not installed next to this Python (make install)")
    return tautrait


def commands(api_base: str, results_db: Path) -> list[tuple[str, list[str], dict[str, str]]]:
    """(label, argv, extra environment) of the baseline and the measured commands; the
    model-backed runs call the scripted server at ``api_base``."""
    python = sys.executable
    tautrait = tautrait_command()
    model_run = [
        *(tautrait, "run", "--domain", "telehealth", "--task-ids", "0"),
        *("--agent", "tool-calling", "--agent-model", "openai/scripted"),
        *("--agent-api-base", api_base, "--user", "llm", "--user-model", "openai/scripted"),
        *("--user-api-base", api_base, "--results-db", str(results_db)),
    ]
    return [
        ("python -c pass", [python, "-c", "pass"], {}),
        ('python -c "import click"', [python, "-c", "import click"], {}),
        ("tautrait --help", [tautrait, "--help"], {}),
        ("tautrait plugins", [tautrait, "plugins"], {}),
        ("tautrait run --help", [tautrait, "run", "--help"], {}),
        ("run 1 episode, direct", model_run, {}),
        ("run 1 episode, litellm", model_run, {"TAUTRAIT_LLM_TRANSPORT": "litellm"}),
    ]


@contextlib.contextmanager
def scripted_server() -> Iterator[str]:
    """``tautrait serve-scripted --domain telehealth`` on a free port; yields its api base."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = [tautrait_command(), "serve-scripted", "--domain", "telehealth", "--port", str(port)]
    server = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("tautrait serve-scripted did not start") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.terminate()
        server.wait()


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
    with tempfile.TemporaryDirectory() as folder, scripted_server() as api_base:
        measured = commands(api_base, Path(folder) / "results.db")
        walls: dict[str, list[float]] = {label: [] for label, _argv, _env in measured}
        cpus: dict[str, list[float]] = {label: [] for label, _argv, _env in measured}
        for _label, argv, extra in measured:  # one untimed run each: page and bytecode caches
            timed_run(argv, {**environment, **extra})
        for _run in range(arguments.runs):  # interleaved, so a burst of load hits all alike
            for label, argv, extra in measured:
                wall, cpu = timed_run(argv, {**environment, **extra})
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

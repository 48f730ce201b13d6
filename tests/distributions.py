"""Fake installed distributions for subprocess tests of entry-point discovery."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def make_distribution(
    site: Path,
    dist: str,
    module: str,
    source: str | None,
    version: str = "1.2.0",
    target: str | None = None,
) -> None:
    """A minimal installed distribution with a ``tautrait`` entry point.

    ``source`` is written as ``<module>.py``; with ``source=None`` the entry point names
    ``target`` (an importable module) instead.
    """
    if source is not None:
        (site / f"{module}.py").write_text(textwrap.dedent(source))
    info = site / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(f"[tautrait]\n{module} = {target or module}\n")


def toy_site(site: Path) -> Path:
    """A site folder where the toy library domain is an installed plugin."""
    site.mkdir(parents=True, exist_ok=True)
    make_distribution(site, "tautrait-toylib", "toylib", None, target="tests.plugins.toy_library")
    return site


def tautrait_env(site: Path, **environment: str) -> dict[str, str]:
    """Environment for a ``python -m tautrait_core`` subprocess that sees ``site``."""
    env = {k: v for k, v in os.environ.items() if k != "TAUTRAIT_LOAD_PLUGINS"}
    env.update(PYTHONPATH=os.pathsep.join([str(site), str(REPO)]), **environment)
    return env


def tautrait_command(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "tautrait_core", *arguments]


def run_tautrait(
    site: Path, *arguments: str, **environment: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        tautrait_command(*arguments),
        capture_output=True,
        text=True,
        env=tautrait_env(site, **environment),
        timeout=300,
    )


@contextlib.contextmanager
def running_tautrait(
    site: Path, environment: dict[str, str], arguments: list[str], ready: Callable[[], bool]
) -> Iterator[subprocess.Popen[str]]:
    """``tautrait ARGUMENTS`` started (output piped) and running once ``ready()`` holds
    (within 60 s); killed on leaving, however the block ends."""
    process = subprocess.Popen(
        tautrait_command(*arguments),
        env=tautrait_env(site, **environment),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not ready():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.01)
        yield process
    finally:
        process.kill()

"""An ``Error:`` line at an 80-column terminal is broken at spaces, a path kept whole on
one line, never cut inside a word; into a pipe it stays one line for ``grep`` and logs."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tmux_terminal import Terminal

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def junk_db() -> Iterator[Path]:
    """A file of random bytes whose path is 70 columns long: a few words fit beside it on
    an 80-column line, not the whole message (whatever the length of pytest's folder)."""
    folder = Path(tempfile.mkdtemp(prefix="tautrait-"))
    try:
        path = folder / ("r" * (70 - len(str(folder)) - len("/.db")) + ".db")
        path.write_bytes(os.urandom(4096))
        yield path
    finally:
        shutil.rmtree(folder)


def runs_list(path: Path) -> list[str]:
    return [sys.executable, "-m", "tautrait_core", "runs", "list", "--results-db", str(path)]


def test_an_error_at_a_terminal_is_broken_at_spaces(junk_db: Path, tmp_path: Path) -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    env = f"TAUTRAIT_HOME={shlex.quote(str(tmp_path / 'home'))} TAUTRAIT_LOAD_PLUGINS="
    command = f"cd {shlex.quote(str(ROOT))} && env {env} {shlex.join(runs_list(junk_db))}"
    terminal = Terminal(f"{command}; echo EXIT $?; sleep 600", f"tautrait-error-{os.getpid()}")
    try:
        screen = terminal.wait_for("EXIT 1")
    finally:
        terminal.close()
    lines = [line.rstrip() for line in screen.splitlines() if line.strip()]
    shown = lines[: lines.index("EXIT 1")]
    assert shown[0].startswith("Error:") and len(shown) > 1
    assert all(len(line) <= 80 for line in shown if " " in line.strip()), shown
    assert all(line.startswith("  ") for line in shown[1:]), shown  # continued lines
    assert str(junk_db) in [word for line in shown for word in line.split()]  # whole
    assert " ".join(" ".join(shown).split()).startswith(f"Error: {junk_db} is not a tautrait")


def test_an_error_into_a_pipe_stays_one_line(junk_db: Path, tmp_path: Path) -> None:
    env = {**os.environ, "TAUTRAIT_HOME": str(tmp_path / "home"), "COLUMNS": "80"}
    done = subprocess.run(runs_list(junk_db), capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert (
        line.startswith(f"Error: {junk_db} is not a tautrait results database") and len(line) > 80
    )

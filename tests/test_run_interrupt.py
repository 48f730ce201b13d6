"""Ctrl-C and SIGTERM stop an offline run (oracle agent, scripted user) promptly, as they
stop a model-backed one: the running episodes finish, the run is marked interrupted, the
command exits 130 and ``--resume`` completes the run."""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

import pytest

from tests.distributions import run_tautrait, running_tautrait, toy_site
from tests.plugins.toy_library import TASKS

TRIALS = 100
"""Enough episodes (300) that the run lasts a few seconds when nothing stops it."""
PLANNED = len(TASKS) * TRIALS


def stored_pairs(database: Path) -> set[tuple[int, int]]:
    try:
        with sqlite3.connect(database) as connection:
            rows = connection.execute("SELECT task_id, trial FROM episodes").fetchall()
        connection.close()
    except sqlite3.OperationalError:  # not created yet
        return set()
    return {(task_id, trial) for task_id, trial in rows}


def run_row(database: Path) -> tuple[str, str]:
    with sqlite3.connect(database) as connection:
        run_id, status = connection.execute("SELECT id, status FROM runs").fetchone()
    connection.close()
    return run_id, status


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_an_offline_run_early_and_resume_completes_it(
    tmp_path: Path, stop_signal: signal.Signals
) -> None:
    site = toy_site(tmp_path / "site")
    database = tmp_path / "results.db"
    home = {"TAUTRAIT_HOME": str(tmp_path / "home"), "COLUMNS": "80"}
    arguments = ["run", "--domain", "toylib", "--agent", "oracle", "--num-trials", str(TRIALS)]
    arguments += ["--results-db", str(database)]

    def under_way() -> bool:  # and its signal handler in place
        return len(stored_pairs(database)) >= 3

    with running_tautrait(site, home, arguments, under_way) as process:
        process.send_signal(stop_signal)
        stdout, stderr = process.communicate(timeout=60)

    assert process.returncode == 130, stderr
    assert "Stopping: no new episodes" in stderr
    stopped = stored_pairs(database)
    assert len(stopped) < PLANNED // 2, "the run went on after the signal"
    run_id, status = run_row(database)
    assert status == "interrupted"
    assert f"tautrait run --resume {run_id}" in stdout

    resumed = run_tautrait(site, "run", "--resume", run_id, "--results-db", str(database), **home)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(stopped)} of {PLANNED} episodes already finished" in resumed.stderr
    assert len(stored_pairs(database)) == PLANNED
    assert run_row(database) == (run_id, "finished")

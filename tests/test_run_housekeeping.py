"""Run housekeeping from the command line: ``runs list`` chooses runs by domain, number
and date, ``runs delete`` removes a run (never one that is running), and ``--resume`` with
a higher ``--num-trials`` adds trials to a finished run."""

from __future__ import annotations

import datetime as dt
import json
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.distributions import (
    make_distribution,
    run_tautrait,
    running_tautrait,
    toy_site as toylib_site,
)
from tests.plugins.toy_library import TASKS


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A site where two toy domains are installed: toylib and toyphone."""
    folder = toylib_site(tmp_path / "site")
    make_distribution(
        folder, "tautrait-toyphone", "toyphone", None, "1.2.0", "tests.plugins.toy_phone"
    )
    return folder


@pytest.fixture
def home(tmp_path: Path) -> dict[str, str]:
    return {
        "TAUTRAIT_HOME": str(tmp_path / "home"),
        "TAUTRAIT_LOAD_PLUGINS": "toylib,toyphone",
        "COLUMNS": "80",
    }


def tautrait(site: Path, home: dict[str, str], *arguments: str) -> subprocess.CompletedProcess[str]:
    return run_tautrait(site, *arguments, **home)


def new_run(site: Path, home: dict[str, str], domain: str, *options: str) -> str:
    """Run ``domain`` offline; its run id."""
    done = tautrait(site, home, "run", "--domain", domain, "--agent", "oracle", "--json", *options)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["run_id"]


def listed(site: Path, home: dict[str, str], *options: str) -> list[str]:
    done = tautrait(site, home, "runs", "list", "--json", *options)
    assert done.returncode == 0, done.stderr
    return [row["id"] for row in json.loads(done.stdout)]


def stored(home: dict[str, str], query: str) -> list[tuple]:
    database = Path(home["TAUTRAIT_HOME"]) / "results.db"
    with sqlite3.connect(database) as connection:
        rows = connection.execute(query).fetchall()
    connection.close()
    return rows


def lease_holders(home: dict[str, str]) -> list[str]:
    """The runs a process holds a lease on (none before the database is made)."""
    if not (Path(home["TAUTRAIT_HOME"]) / "results.db").exists():
        return []
    try:
        return [run_id for (run_id,) in stored(home, "SELECT run_id FROM run_leases")]
    except sqlite3.OperationalError:
        return []


def test_runs_list_chooses_runs_by_domain_number_and_date(site: Path, home: dict[str, str]) -> None:
    first = new_run(site, home, "toylib")
    phone = new_run(site, home, "toyphone")
    last = new_run(site, home, "toylib")
    today = dt.datetime.now(dt.UTC).date().isoformat()

    assert listed(site, home, "--domain", "toylib") == [last, first]
    assert listed(site, home, "--limit", "2") == [last, phone]
    assert listed(site, home, "--domain", "toyphone", "--since", today) == [phone]
    assert listed(site, home, "--since", "2999-01-01") == []
    nothing = tautrait(site, home, "runs", "list", "--domain", "nowhere")
    assert nothing.returncode == 0
    assert nothing.stdout.startswith("No runs match in ")


def test_runs_made_in_the_same_second_list_newest_first(site: Path, home: dict[str, str]) -> None:
    """Runs created in the same second (run ids in random order) list in the order they
    were made, newest first, every time; ``latest`` is the newest of them."""
    first = new_run(site, home, "toylib")
    last = new_run(site, home, "toylib")
    renamed = "29991231-235959-ffff"  # an id that sorts after the later run's
    database = Path(home["TAUTRAIT_HOME"]) / "results.db"
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE runs SET created_at = '2026-11-27T03:00:00+00:00'")
        connection.execute("UPDATE runs SET id = ? WHERE id = ?", (renamed, first))
        connection.execute("UPDATE episodes SET run_id = ? WHERE run_id = ?", (renamed, first))
    connection.close()

    assert listed(site, home) == [last, renamed]
    assert listed(site, home, "--limit", "1") == [last]
    shown = tautrait(site, home, "report", "latest", "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["run"]["id"] == last


def test_runs_delete_removes_a_run_and_all_it_holds(site: Path, home: dict[str, str]) -> None:
    kept = new_run(site, home, "toylib")
    doomed = new_run(site, home, "toylib", "--num-trials", "2")

    done = tautrait(site, home, "runs", "delete", doomed, "--yes")

    assert done.returncode == 0, done.stderr
    assert done.stdout == f"Deleted run {doomed} ({2 * len(TASKS)} episodes)\n"
    assert listed(site, home) == [kept]
    assert stored(home, "SELECT DISTINCT run_id FROM episodes") == [(kept,)]
    again = tautrait(site, home, "show", doomed, "--task", "0")
    assert again.returncode == 1 and f"no run {doomed!r}" in again.stderr


def test_runs_delete_refuses_a_running_run(site: Path, home: dict[str, str]) -> None:
    arguments = ["run", "--domain", "toylib", "--agent", "oracle", "--num-trials", "200"]
    with running_tautrait(site, home, arguments, lambda: bool(lease_holders(home))) as process:
        (run_id,) = lease_holders(home)

        refused = tautrait(site, home, "runs", "delete", run_id, "--yes")

        process.send_signal(signal.SIGINT)
        process.communicate(timeout=60)
    assert refused.returncode == 1
    assert f"run {run_id} is running, so it was not deleted" in refused.stderr
    assert listed(site, home) == [run_id]
    assert stored(home, "SELECT count(*) FROM episodes")[0][0] > 0
    deleted = tautrait(site, home, "runs", "delete", run_id, "--yes")
    assert deleted.returncode == 0, deleted.stderr
    assert listed(site, home) == []


def test_resume_with_more_trials_adds_them_to_a_finished_run(
    site: Path, home: dict[str, str]
) -> None:
    run_id = new_run(site, home, "toylib", "--num-trials", "2")

    more = tautrait(site, home, "run", "--resume", run_id, "--num-trials", "4")

    assert more.returncode == 0, more.stderr
    assert f"{2 * len(TASKS)} of {4 * len(TASKS)} episodes already finished" in more.stderr
    assert "pass^4: 1.000" in more.stdout
    trials = stored(home, "SELECT DISTINCT trial FROM episodes ORDER BY trial")
    assert trials == [(0,), (1,), (2,), (3,)]
    (row,) = json.loads(tautrait(site, home, "runs", "list", "--json").stdout)
    assert (row["num_trials"], row["status"], row["pass"]) == (4, "finished", 4 * len(TASKS))
    fewer = tautrait(site, home, "run", "--resume", run_id, "--num-trials", "3")
    assert fewer.returncode == 1
    assert "--num-trials 3 (the run has 4; trials can be added, never taken away)" in fewer.stderr

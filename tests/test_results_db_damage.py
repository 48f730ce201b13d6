"""A results database whose pages are damaged, or that sits on a full disk, is one
``Error:`` line naming the file and what to do, for every command that uses it: never a
driver traceback, and never "not a tautrait results database" for a healthy file."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.config.run_config import RunConfig
from tautrait_core.run.runner import execute

DAMAGED = "is damaged; restore a backup or pass another --results-db"
FULL = "the disk is full; free some space or pass another --results-db"


def damage_tables(path: Path, *tables: str) -> None:
    """Overwrite the first page of each of ``tables`` in the middle (the page header and
    cell pointers), as a failing disk or a stray write would; the file keeps its size."""
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the file itself
    roots = dict(connection.execute("SELECT name, rootpage FROM sqlite_master"))
    (page_size,) = connection.execute("PRAGMA page_size").fetchone()
    connection.close()
    with path.open("r+b") as stream:
        for table in tables:
            stream.seek((roots[table] - 1) * page_size + 8)
            stream.write(b"\xff" * 64)


@pytest.fixture
def damaged_db(toy_plugin: Any, tmp_path: Path) -> tuple[Path, str]:
    """A results database holding one run, then damaged inside its pages."""
    path = tmp_path / "results.db"
    report = execute(RunConfig(domain="toylib", agent="oracle", task_ids=[0], results_db=str(path)))
    damage_tables(path, "runs", "episodes")
    return path, report.run.id


@pytest.mark.parametrize(
    "command",
    [
        ["runs", "list"],
        ["report", "RUN"],
        ["export", "RUN"],
        ["rescore", "RUN"],
        ["show", "RUN", "--task", "0"],
        ["run", "--resume", "RUN"],
    ],
    ids=lambda command: " ".join(command[:2]),
)
def test_a_database_damaged_inside_is_one_line(
    damaged_db: tuple[Path, str], command: list[str]
) -> None:
    path, run_id = damaged_db
    args = [run_id if arg == "RUN" else arg for arg in command]
    result = CliRunner().invoke(cli, [*args, "--results-db", str(path)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.output.splitlines() == [f"Error: {path} {DAMAGED}"], result.output


def lose_run_ids(path: Path) -> None:
    """Make every run's id read as NULL, as a page damaged without SQLite noticing can
    (the ORM then gives ``None`` for the row): the schema's NOT NULL is edited away first,
    since SQLite itself would refuse the update."""
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA writable_schema = ON")
    connection.execute(
        "UPDATE sqlite_master SET sql = replace(sql, 'id VARCHAR NOT NULL PRIMARY KEY',"
        " 'id VARCHAR PRIMARY KEY') WHERE name = 'runs'"
    )
    connection.commit()
    connection.close()
    connection = sqlite3.connect(path)
    connection.execute("UPDATE runs SET id = NULL")
    connection.commit()
    connection.close()


@pytest.mark.parametrize("command", [["runs", "list"], ["report", "latest"]])
def test_a_run_row_read_without_its_id_is_damage(
    toy_plugin: Any, tmp_path: Path, command: list[str]
) -> None:
    path = tmp_path / "results.db"
    execute(RunConfig(domain="toylib", agent="oracle", task_ids=[0], results_db=str(path)))
    lose_run_ids(path)
    result = CliRunner().invoke(cli, [*command, "--results-db", str(path)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.output.splitlines() == [f"Error: {path} {DAMAGED}"], result.output


def full_disk(tmp_path: Path) -> Path:
    """A folder on a 256 KB tmpfs (through bubblewrap) that the command fills first."""
    if shutil.which("bwrap") is None:
        pytest.skip("needs bubblewrap (bwrap) for a small tmpfs")
    probe = subprocess.run(
        ["bwrap", "--dev-bind", "/", "/", "--size", "4096", "--tmpfs", str(tmp_path / "d"), "true"],
        capture_output=True,
    )
    if probe.returncode != 0:
        pytest.skip(f"bubblewrap cannot mount a tmpfs here: {probe.stderr.decode()[:200]}")
    return tmp_path / "disk"


def on_full_disk(disk: Path, copy: Path | None, *args: str) -> subprocess.CompletedProcess:
    """``tautrait ARGS`` with ``disk`` a full tmpfs holding ``copy`` (when given)."""
    fill = f"cp {copy} {disk}/ && " if copy else ""
    script = f'{fill}dd if=/dev/zero of={disk}/filler bs=4k 2>/dev/null; "$@"'  # dd stops when full
    return subprocess.run(
        [
            *["bwrap", "--dev-bind", "/", "/", "--size", str(256 * 1024), "--tmpfs", str(disk)],
            *["sh", "-c", script, "sh", sys.executable, "-m", "tautrait_core", *args],
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=disk.parent,
    )


def test_creating_a_database_on_a_full_disk_is_one_line(tmp_path: Path) -> None:
    disk = full_disk(tmp_path)
    path = disk / "results.db"
    done = on_full_disk(
        disk, None, "run", "--domain", "telehealth", "--agent", "oracle", "--results-db", str(path)
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [f"Error: {path}: {FULL}"], done.stderr


@pytest.mark.parametrize("command", [["runs", "list"], ["report", "latest"]])
def test_a_healthy_database_on_a_full_disk_is_not_called_foreign(
    toy_plugin: Any, tmp_path: Path, command: list[str]
) -> None:
    disk = full_disk(tmp_path)
    healthy = tmp_path / "results.db"
    execute(RunConfig(domain="toylib", agent="oracle", task_ids=[0], results_db=str(healthy)))
    path = disk / "results.db"
    done = on_full_disk(disk, healthy, *command, "--results-db", str(path))
    assert done.returncode == 1, done.stderr
    assert "not a tautrait results database" not in done.stderr
    assert done.stderr.splitlines() == [f"Error: {path}: {FULL}"], done.stderr

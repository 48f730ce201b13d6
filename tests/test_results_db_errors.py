"""A results database that cannot be used is one ``Error:`` line naming the file, for
``tautrait run`` as for every other command: a damaged file or another program's database
(never written to), a database another program keeps locked, and a mistyped
``--results-db`` given to a command that only reads (never created)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.config.run_config import RunConfig
from tautrait_core.errors import StorageError
from tautrait_core.run.runner import execute
from tautrait_core.store import database_file
from tautrait_core.store.results import ResultStore
from tests.test_readable_errors import assert_one_line_error, foreign_db, junk_db, truncated_db

RUN = ["run", "--domain", "toylib", "--agent", "oracle", "--task-ids", "0"]
NOT_OURS = "is not a tautrait results database"
DAMAGED = [junk_db, truncated_db, foreign_db]


# -- damaged files ---------------------------------------------------------------------------


@pytest.mark.parametrize("make", DAMAGED)
@pytest.mark.parametrize(
    "options", [[], ["--resume", "20250101-000000-abcd"]], ids=["new run", "resume"]
)
def test_run_names_a_damaged_results_db_and_never_writes_it(
    toy_plugin, tmp_path: Path, make: Any, options: list[str]
) -> None:
    path = make(tmp_path)
    before = path.read_bytes()
    result = CliRunner().invoke(cli, [*RUN, *options, "--results-db", str(path)])
    assert_one_line_error(result, str(path), NOT_OURS, "--results-db")
    assert path.read_bytes() == before


@pytest.mark.parametrize("make", DAMAGED)
def test_run_names_a_damaged_default_results_db(
    toy_plugin, tmp_path: Path, isolated_home: Path, make: Any
) -> None:
    isolated_home.mkdir(parents=True, exist_ok=True)
    default = isolated_home / "results.db"
    shutil.copyfile(make(tmp_path), default)
    before = default.read_bytes()
    result = CliRunner().invoke(cli, RUN)
    assert_one_line_error(result, str(default), NOT_OURS)
    assert default.read_bytes() == before


@pytest.mark.parametrize("make", DAMAGED)
def test_the_library_raises_a_storage_error_for_a_damaged_results_db(
    toy_plugin, tmp_path: Path, make: Any
) -> None:
    path = make(tmp_path)
    config = RunConfig(domain="toylib", agent="oracle", task_ids=[0], results_db=str(path))
    with pytest.raises(StorageError, match=NOT_OURS):
        execute(config)
    from tautrait_core.analysis.recorded_episodes import load_source

    with pytest.raises(StorageError, match=NOT_OURS):
        load_source("latest", results_db=path)


# -- a mistyped --results-db ------------------------------------------------------------------


READING_COMMANDS = [
    ["runs", "list"],
    ["report", "latest"],
    ["compare", "latest", "latest"],
    ["show", "latest", "--task", "0"],
    ["export", "latest"],
    ["rescore", "latest"],
    ["diagnose", "latest", "--model", "gpt-4o"],
    ["traits", "audit", "latest"],
    ["run", "--resume", "latest"],
    ["sweep", "--resume", "grid"],
]


@pytest.mark.parametrize("command", READING_COMMANDS, ids=lambda command: " ".join(command))
def test_a_missing_results_db_is_an_error_for_commands_that_read(
    tmp_path: Path, command: list[str]
) -> None:
    path = tmp_path / "typo" / "results.db"
    result = CliRunner().invoke(cli, [*command, "--results-db", str(path)])
    assert_one_line_error(result, str(path), "does not exist", "--results-db")
    assert not path.parent.exists()


def test_a_missing_default_results_db_is_still_an_empty_list(isolated_home: Path) -> None:
    listed = CliRunner().invoke(cli, ["runs", "list", "--json"])
    assert listed.exit_code == 0, listed.output
    assert json.loads(listed.output) == []


def test_run_still_creates_a_new_results_db(toy_plugin, tmp_path: Path) -> None:
    path = tmp_path / "new" / "results.db"
    result = CliRunner().invoke(cli, [*RUN, "--results-db", str(path), "--json"])
    assert result.exit_code == 0, result.output
    listed = CliRunner().invoke(cli, ["runs", "list", "--json", "--results-db", str(path)])
    assert [row["id"] for row in json.loads(listed.output)] == [json.loads(result.output)["run_id"]]


# -- a database locked by another program -----------------------------------------------------


@pytest.fixture
def locked_results_db(toy_plugin, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A results database holding one finished run, locked by another process for writing
    (``BEGIN EXCLUSIVE``); the wait for a lock is cut to half a second."""
    path = tmp_path / "results.db"
    report = execute(RunConfig(domain="toylib", agent="oracle", task_ids=[0], results_db=str(path)))
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            "connection = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "connection.execute('BEGIN EXCLUSIVE')\n"
            "print('locked', flush=True)\n"
            "time.sleep(60)\n",
            str(path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        monkeypatch.setattr(database_file, "BUSY_TIMEOUT_S", 0.5)
        yield path, report.run.id
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.parametrize("resume", [False, True], ids=["new run", "resume"])
def test_run_on_a_locked_results_db_is_one_line(locked_results_db: Any, resume: bool) -> None:
    path, run_id = locked_results_db
    options = ["run", "--resume", run_id] if resume else RUN
    started = time.monotonic()
    result = CliRunner().invoke(cli, [*options, "--results-db", str(path)])
    assert_one_line_error(result, str(path), "is locked by another program", "try again")
    assert time.monotonic() - started < 20


def test_a_store_write_on_a_locked_results_db_is_a_storage_error(locked_results_db: Any) -> None:
    path, run_id = locked_results_db
    store = ResultStore(path)
    assert store.get_run(run_id).status == "finished"  # reading is not blocked
    started = time.monotonic()
    with pytest.raises(StorageError, match="is locked by another program") as error:
        store.set_status(run_id, "interrupted")
    waited = time.monotonic() - started
    stated = float(re.search(r"waited ([\d.]+) s", str(error.value)).group(1))  # type: ignore[union-attr]
    assert 0.5 <= stated <= round(waited, 1)

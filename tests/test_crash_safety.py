"""A killed or interrupted run loses no finished episode and resumes to exactly one result
per (task, trial); a full results disk is a clear error that corrupts nothing."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from sqlalchemy import event

from tautrait_core.config.run_config import RunConfig
from tautrait_core.errors import StorageError
from tautrait_core.run.runner import execute
from tautrait_core.scripted.scripts import GoldScript
from tautrait_core.store import engine, results
from tests.distributions import run_tautrait, tautrait_command, tautrait_env, toy_site
from tests.plugins.toy_library import TASKS

TRIALS = 4
PAIRS = {(task, trial) for task in range(len(TASKS)) for trial in range(TRIALS)}


def stored_pairs(database: Path) -> list[tuple[int, int]]:
    if not database.exists():
        return []
    try:
        with sqlite3.connect(database) as connection:
            return [tuple(row) for row in connection.execute("SELECT task_id, trial FROM episodes")]
    except sqlite3.OperationalError:  # the run is still creating its tables
        return []


def wait_for(predicate, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the run to make progress")
        time.sleep(0.05)


def run_arguments(server_url: str, database: Path) -> list[str]:
    return [
        "run",
        "--domain",
        "toylib",
        "--agent",
        "tool-calling",
        "--agent-model",
        "openai/scripted",
        "--agent-api-base",
        server_url,
        "--user",
        "llm",
        "--user-model",
        "openai/scripted",
        "--user-api-base",
        server_url,
        "--num-trials",
        str(TRIALS),
        "--concurrency",
        "2",
        "--results-db",
        str(database),
    ]


@pytest.fixture
def slow_server():
    from tautrait_core.scripted.server import ScriptedModelServer

    with ScriptedModelServer(
        GoldScript(TASKS, ["transfer_to_librarian"]), latency_s=0.15
    ) as server:
        yield server


def run_id_of(database: Path) -> str:
    with sqlite3.connect(database) as connection:
        return connection.execute("SELECT id FROM runs").fetchone()[0]


def assert_complete_and_unique(database: Path) -> None:
    pairs = stored_pairs(database)
    assert len(pairs) == len(set(pairs)), "an episode was stored twice"
    assert set(pairs) == PAIRS
    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        outcomes = {row[0] for row in connection.execute("SELECT outcome FROM episodes")}
    assert outcomes == {"pass"}


def test_sigkill_mid_run_then_resume(tmp_path: Path, slow_server) -> None:
    site = toy_site(tmp_path / "site")
    database = tmp_path / "results.db"
    process = subprocess.Popen(
        tautrait_command(*run_arguments(slow_server.base_url, database)),
        env=tautrait_env(site, TAUTRAIT_HOME=str(tmp_path / "home")),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: len(stored_pairs(database)) >= 3)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        process.kill()
    before = stored_pairs(database)
    assert 3 <= len(before) < len(PAIRS)
    resumed = run_tautrait(
        site,
        "run",
        "--resume",
        run_id_of(database),
        "--results-db",
        str(database),
        TAUTRAIT_HOME=str(tmp_path / "home"),
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(before)} of {len(PAIRS)} episodes already finished" in resumed.stderr
    assert_complete_and_unique(database)


def test_ctrl_c_lets_running_episodes_finish_and_prints_how_to_resume(
    tmp_path: Path, slow_server
) -> None:
    site = toy_site(tmp_path / "site")
    database = tmp_path / "results.db"
    process = subprocess.Popen(
        tautrait_command(*run_arguments(slow_server.base_url, database)),
        env=tautrait_env(site, TAUTRAIT_HOME=str(tmp_path / "home")),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for(lambda: len(stored_pairs(database)) >= 2)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "no new episodes; waiting for" in stderr
    assert "running episodes finished and were stored" in stdout
    run_id = run_id_of(database)
    assert f"tautrait run --resume {run_id}" in stdout
    stored = stored_pairs(database)
    assert len(stored) < len(PAIRS)
    with sqlite3.connect(database) as connection:
        assert connection.execute("SELECT status FROM runs").fetchone()[0] == "interrupted"
    resumed = run_tautrait(site, "run", "--resume", run_id, "--results-db", str(database))
    assert resumed.returncode == 0, resumed.stderr
    assert_complete_and_unique(database)


def test_full_disk_is_a_clear_error_and_corrupts_nothing(
    toy_plugin, tmp_path: Path, monkeypatch
) -> None:
    database = tmp_path / "results.db"
    configure = engine._configure_connection
    limit = {"pages": 0}

    def capped(path, dbapi_connection, record) -> None:  # type: ignore[no-untyped-def]
        configure(path, dbapi_connection, record)
        if limit["pages"]:
            dbapi_connection.execute(f"PRAGMA max_page_count = {limit['pages']}")

    monkeypatch.setattr(engine, "_configure_connection", capped)
    # the database file is as big as the disk allows once the run record is in
    store = results.ResultStore(database)
    pages = sqlite3.connect(database).execute("PRAGMA page_count").fetchone()[0]
    del store
    limit["pages"] = pages + 1
    config = RunConfig(domain="toylib", agent="oracle", num_trials=TRIALS, results_db=str(database))
    with pytest.raises(StorageError) as error:
        execute(config)
    message = str(error.value)
    assert "the disk is full" in message and "tautrait run --resume" in message
    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    saved = stored_pairs(database)
    assert len(saved) == len(set(saved)) < len(PAIRS)

    limit["pages"] = 0  # space freed
    run_id = run_id_of(database)
    resumed = execute(RunConfig(resume=run_id, results_db=str(database)))
    assert resumed.run.status == "finished"
    assert_complete_and_unique(database)
    assert event  # sqlalchemy events stay usable after the failure

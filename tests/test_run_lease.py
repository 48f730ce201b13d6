"""One writer per run, safe first use of a shared database, and honest run status: a second
live writer is refused, a dead one never blocks a resume, an error never replaces a scored
episode, SIGTERM stops a run like Ctrl-C, and a run whose process is gone shows as stale."""

from __future__ import annotations

import json
import multiprocessing
import signal
import socket
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tautrait_core.errors import StorageError
from tautrait_core.scripted.scripts import GoldScript
from tautrait_core.scripted.server import ScriptedModelServer
from tautrait_core.store import database_file
from tautrait_core.store.results import ResultStore
from tautrait_core.types.result import EpisodeResult, Outcome, Termination
from tests.distributions import run_tautrait, tautrait_command, tautrait_env, toy_site
from tests.plugins.toy_library import TASKS
from tests.test_crash_safety import (
    PAIRS,
    assert_complete_and_unique,
    run_arguments,
    run_id_of,
    stored_pairs,
    wait_for,
)

OPENERS = 6


@pytest.fixture
def slow_server() -> Iterator[ScriptedModelServer]:
    """Slow enough that a run outlasts the start of a second ``tautrait`` process."""
    with ScriptedModelServer(GoldScript(TASKS, ["transfer_to_librarian"]), latency_s=0.5) as server:
        yield server


def _open_store(path: str, barrier: Any) -> None:
    barrier.wait()
    ResultStore(path)


def test_processes_creating_one_database_at_once_all_succeed(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    for attempt in range(3):
        path = tmp_path / f"shared-{attempt}.db"
        barrier = context.Barrier(OPENERS)
        processes = [
            context.Process(target=_open_store, args=(str(path), barrier)) for _ in range(OPENERS)
        ]
        for process in processes:
            process.start()
        for process in processes:
            process.join(timeout=120)
        assert [process.exitcode for process in processes] == [0] * OPENERS
        with sqlite3.connect(path) as connection:
            names = [row[0] for row in connection.execute("SELECT name FROM _migrations")]
        assert len(names) == len(set(names))


def start_run(site: Path, server_url: str, database: Path, home: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        tautrait_command(*run_arguments(server_url, database)),
        env=tautrait_env(site, TAUTRAIT_HOME=str(home)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_resume_of_a_live_run_is_refused_and_of_a_killed_one_allowed(
    tmp_path: Path,
    slow_server: ScriptedModelServer,
) -> None:
    site = toy_site(tmp_path / "site")
    database, home = tmp_path / "results.db", tmp_path / "home"
    process = start_run(site, slow_server.base_url, database, home)
    try:
        wait_for(lambda: len(stored_pairs(database)) >= 2)
        run_id = run_id_of(database)
        second = run_tautrait(
            site, "run", "--resume", run_id, "--results-db", str(database), TAUTRAIT_HOME=str(home)
        )
        assert second.returncode == 1, second.stderr
        assert second.stderr.splitlines() == [
            f"Error: run {run_id} is being written by process {process.pid}: wait for it"
        ]  # one line within 80 columns (was 270: since when, why, how to stop it)
        assert "Traceback" not in second.stderr
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        process.kill()
        process.communicate()
    listing = run_tautrait(site, "runs", "list", "--results-db", str(database))
    assert f"Run {run_id} is stale" in listing.stdout
    assert f"tautrait run --resume {run_id}" in listing.stdout
    listed = run_tautrait(site, "runs", "list", "--json", "--results-db", str(database))
    assert json.loads(listed.stdout)[0]["status"] == "stale"
    shown = run_tautrait(site, "report", run_id, "--results-db", str(database))
    assert "(status stale). Continue with: tautrait run --resume" in " ".join(shown.stdout.split())
    resumed = run_tautrait(
        site, "run", "--resume", run_id, "--results-db", str(database), TAUTRAIT_HOME=str(home)
    )
    assert resumed.returncode == 0, resumed.stderr
    assert_complete_and_unique(database)


def test_sigterm_stops_a_run_like_ctrl_c(tmp_path: Path, slow_server: ScriptedModelServer) -> None:
    site = toy_site(tmp_path / "site")
    database = tmp_path / "results.db"
    process = start_run(site, slow_server.base_url, database, tmp_path / "home")
    wait_for(lambda: len(stored_pairs(database)) >= 2)
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "SIGTERM received. Stopping: no new episodes" in stderr
    run_id = run_id_of(database)
    assert f"tautrait run --resume {run_id}" in stdout
    with sqlite3.connect(database) as connection:
        assert connection.execute("SELECT status FROM runs").fetchone()[0] == "interrupted"
        assert connection.execute("SELECT count(*) FROM run_leases").fetchone()[0] == 0
    assert len(stored_pairs(database)) < len(PAIRS)


def stored_run(tmp_path: Path) -> tuple[ResultStore, str]:
    from tautrait_core.config.run_config import RunConfig

    store = ResultStore(tmp_path / "results.db")
    record = store.create_run(RunConfig(domain="toylib", user="scripted"), "test", [0], {})
    return store, record.id


def test_lease_of_a_live_holder_blocks_and_an_expired_one_does_not(tmp_path: Path) -> None:
    from tautrait_core.errors import RunBusyError
    from tautrait_core.store.leases import RunLease

    store, run_id = stored_run(tmp_path)
    with sqlite3.connect(store.path) as connection:
        connection.execute(
            "INSERT INTO run_leases VALUES (?, 4242, 'other-host', 'then', ?)",
            (run_id, time.time() + 600),
        )
    assert socket.gethostname() != "other-host"
    with pytest.raises(RunBusyError, match="process 4242 on other-host"):
        RunLease(store.path, run_id).acquire()
    assert store.get_run(run_id).status == "running"
    with sqlite3.connect(store.path) as connection:
        connection.execute("UPDATE run_leases SET expires_at = ?", (time.time() - 1,))
    assert store.get_run(run_id).status == "stale"
    with RunLease(store.path, run_id):
        assert store.get_run(run_id).status == "running"
        with pytest.raises(RunBusyError):  # the same process twice is two writers too
            RunLease(store.path, run_id).acquire()


def episode(outcome: Outcome, reward: float) -> EpisodeResult:
    return EpisodeResult(
        task_id=0,
        trial=0,
        outcome=outcome,
        reward=reward,
        termination=Termination.USER_STOP
        if outcome is not Outcome.ERROR
        else Termination.PROVIDER_ERROR,
        messages=[],
        error="agent: provider down" if outcome is Outcome.ERROR else None,
    )


def test_an_error_never_replaces_a_scored_episode(tmp_path: Path) -> None:
    store, run_id = stored_run(tmp_path)
    store.save_episode(run_id, episode(Outcome.PASS, 1.0))
    store.save_episode(run_id, episode(Outcome.ERROR, 0.0))
    assert [e.outcome for e in store.episodes(run_id)] == [Outcome.PASS]
    store.save_episode(run_id, episode(Outcome.FAIL, 0.0))  # a scored re-run still replaces
    assert [e.outcome for e in store.episodes(run_id)] == [Outcome.FAIL]


@pytest.fixture
def writer_on_a_new_database(tmp_path: Path) -> Iterator[tuple[Path, threading.Event]]:
    """A new database file whose write lock another connection holds (as a second process
    creating it holds it), until the test sets the event it is given."""
    path = tmp_path / "new.db"
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writer.execute("BEGIN IMMEDIATE")
    release = threading.Event()

    def finish() -> None:
        release.wait(timeout=30)
        writer.execute("ROLLBACK")
        writer.close()

    finisher = threading.Thread(target=finish)
    finisher.start()
    try:
        yield path, release
    finally:
        release.set()
        finisher.join()


def test_a_new_database_waits_for_a_writer_before_it_switches_to_wal(
    writer_on_a_new_database: tuple[Path, threading.Event],
) -> None:
    # Switching a new file to WAL upgrades a read lock to the write lock, which SQLite
    # refuses at once (no busy wait) while another connection holds the write lock.
    path, release = writer_on_a_new_database
    threading.Timer(0.3, release.set).start()
    started = time.monotonic()
    ResultStore(path)
    assert time.monotonic() - started >= 0.3
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        names = {row[0] for row in connection.execute("SELECT name FROM _migrations")}
    assert "m001_initial" in names


def test_a_writer_that_keeps_a_new_database_is_reported_with_the_time_waited(
    writer_on_a_new_database: tuple[Path, threading.Event], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _release = writer_on_a_new_database
    monkeypatch.setattr(database_file, "BUSY_TIMEOUT_S", 0.5)
    started = time.monotonic()
    with pytest.raises(StorageError, match=r"is locked by another program \(waited 0\.[5-9] s"):
        ResultStore(path)
    assert time.monotonic() - started >= 0.5

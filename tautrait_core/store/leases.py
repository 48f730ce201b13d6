"""Leases on runs: which process writes a run, so that a second writer is refused.

A process running or resuming a run holds a lease (a row of ``run_leases``: process id,
host, expiry) and renews it from a background thread until it releases it. Another process
that wants to write the same run is refused while the lease is live. A lease is dead once it
has expired, or at once when its process is gone (same host, no such process), so a resume
after ``kill -9`` is never blocked; a run marked ``running`` without a live lease is shown
as ``stale``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import socket
import sqlite3
import threading
import time
from pathlib import Path

from tautrait_core.errors import RunBusyError
from tautrait_core.store import database_file

LEASE_S = 60.0
"""How long a lease lasts without renewal."""
RENEW_S = 15.0
"""How often the holder renews its lease."""
STALE_STATUS = "stale"
"""The status shown for a run marked ``running`` whose process is gone."""

_held: set[tuple[Path, str]] = set()
"""(database, run id) of the leases this process holds now."""


def is_live(pid: int, host: str, expires_at: float) -> bool:
    """Whether a lease held by ``pid`` on ``host`` until ``expires_at`` still counts."""
    if expires_at < time.time():
        return False
    if host != socket.gethostname():
        return True
    if pid == os.getpid():
        return True  # this process: the caller knows whether it holds the lease
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a process of another user
        return True
    return True


class RunLease:
    """The lease of this process on one run (a context manager: acquire, then release)."""

    def __init__(self, database: Path, run_id: str) -> None:
        self.database = Path(database).resolve()
        self.run_id = run_id
        self.pid = os.getpid()
        self.host = socket.gethostname()
        self.acquired_at = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None

    def __enter__(self) -> RunLease:
        self.acquire()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(
            self.database, timeout=database_file.BUSY_TIMEOUT_S, isolation_level=None
        )

    def acquire(self) -> None:
        """Take the lease, or raise :class:`RunBusyError` if a live process holds it
        (:class:`~tautrait_core.errors.StorageError` if another program keeps the database
        locked)."""
        key = (self.database, self.run_id)
        connection = self._connect()
        try:
            started = time.monotonic()
            try:
                connection.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if database_file.is_locked(exc):
                    waited = time.monotonic() - started
                    raise database_file.locked_error(self.database, waited) from exc
                raise
            row = connection.execute(
                "SELECT pid, host, acquired_at, expires_at FROM run_leases WHERE run_id = ?",
                (self.run_id,),
            ).fetchone()
            if row is not None:
                pid, host, _since, expires_at = row
                ours = pid == self.pid and host == self.host and key not in _held
                if is_live(pid, host, expires_at) and not ours:
                    connection.execute("ROLLBACK")
                    where = "" if host == self.host else f" on {host}"
                    raise RunBusyError(  # one line, within 80 columns on this machine
                        f"run {self.run_id} is being written by process {pid}{where}: wait for it"
                    )
            connection.execute(
                "INSERT OR REPLACE INTO run_leases (run_id, pid, host, acquired_at, expires_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (self.run_id, self.pid, self.host, self.acquired_at, time.time() + LEASE_S),
            )
            connection.execute("COMMIT")
        finally:
            connection.close()
        _held.add(key)
        self._renewer = threading.Thread(
            target=self._renew, name=f"lease-{self.run_id}", daemon=True
        )
        self._renewer.start()

    def _renew(self) -> None:
        while not self._stop.wait(RENEW_S):
            self._on_own_row("UPDATE run_leases SET expires_at = ?", time.time() + LEASE_S)

    def release(self) -> None:
        """Give the lease up (quietly: the database itself may be what failed)."""
        self._stop.set()
        if self._renewer is not None:
            self._renewer.join()
        _held.discard((self.database, self.run_id))
        self._on_own_row("DELETE FROM run_leases")

    def _on_own_row(self, statement: str, *values: object) -> None:
        """Run ``statement`` on this lease's own row only (never on a lease another process
        took over), quietly: a failed renewal or release leaves the lease to expire."""
        with contextlib.suppress(sqlite3.Error):
            connection = self._connect()
            try:
                connection.execute(
                    f"{statement} WHERE run_id = ? AND pid = ? AND host = ? AND acquired_at = ?",
                    (*values, self.run_id, self.pid, self.host, self.acquired_at),
                )
            finally:
                connection.close()

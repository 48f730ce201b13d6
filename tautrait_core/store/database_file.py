"""The results database as a file: what is checked before it is opened, and what a locked
database says.

:func:`check_results_database` runs before every opening (see
:class:`~tautrait_core.store.results.ResultStore`), so a damaged file or another program's
database is reported in one line and never written to; a database that another program keeps
locked for longer than :data:`BUSY_TIMEOUT_S` is a :class:`~tautrait_core.errors.StorageError`
(:func:`locked_error`), never a driver traceback. :func:`switch_to_wal` puts a new database in
WAL mode, waiting for other connections as every other lock does.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from tautrait_core.errors import StorageError
from tautrait_core.store.sqlite_failures import disk_failure, file_failure

BUSY_TIMEOUT_S = 30.0
"""How long an operation waits for a database that another connection has locked (read at
each connection, so a test may lower it)."""
WAL_RETRY_S = 0.01
"""How long :func:`switch_to_wal` sleeps before it tries again."""

_NOT_OURS_FIX = "pass another file with --results-db, or move this one away"


def check_results_database(path: Path | str, *, must_exist: bool = False) -> None:
    """Refuse a file that is not a (whole) tautrait results database, before opening it.

    A missing or empty file is fine (it becomes a new database) unless ``must_exist`` (a
    command that only reads, given a path explicitly); anything else must be a complete
    SQLite file holding tautrait's tables, so that a damaged file or another program's
    database is reported and never written to.

    Raises:
        StorageError: naming the file and what is wrong with it.
    """
    path = Path(path)
    if must_exist and not path.exists():
        raise StorageError(
            f"{path} does not exist; check the --results-db path, or leave the option out "
            "to use the default database"
        )
    if not path.exists() or (path.is_file() and path.stat().st_size == 0):
        return
    if not path.is_file():
        raise StorageError(
            f"{path} is not a tautrait results database (not a file); {_NOT_OURS_FIX}"
        )
    # Only SQLite itself reads the file: closing a descriptor of our own on it would drop
    # the locks that this process's open connections hold (a sweep opens one run's store
    # while its own is open), and other processes would then see a disk I/O error.
    wal = Path(f"{path}-wal")
    settled = _wal_is_empty(wal)  # page_count below is then the file's own header's
    connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S)
    started = time.monotonic()
    try:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        (page_size,) = connection.execute("PRAGMA page_size").fetchone()
        (pages,) = connection.execute("PRAGMA page_count").fetchone()
    except sqlite3.DatabaseError as exc:
        if is_locked(exc):
            raise locked_error(path, time.monotonic() - started) from exc
        failure = disk_failure(path, exc)
        if failure is not None:
            raise failure from exc
        code = getattr(exc, "sqlite_errorcode", None)
        reason = "not SQLite" if code == sqlite3.SQLITE_NOTADB else str(exc)
        raise StorageError(
            f"{path} is not a tautrait results database ({reason}); {_NOT_OURS_FIX}"
        ) from exc
    finally:
        connection.close()
    size = path.stat().st_size
    if settled and _wal_is_empty(wal) and size < pages * page_size:
        raise StorageError(
            f"{path} is not a tautrait results database: it is truncated "
            f"({size} of {pages * page_size} bytes); {_NOT_OURS_FIX}"
        )
    if tables and "_migrations" not in tables:
        raise StorageError(
            f"{path} is not a tautrait results database (a SQLite file with other tables); "
            f"{_NOT_OURS_FIX}"
        )


def _wal_is_empty(wal: Path) -> bool:
    """Whether the write-ahead log holds no pages (none written, none to checkpoint)."""
    try:
        return wal.stat().st_size == 0
    except FileNotFoundError:
        return True


def is_locked(exc: BaseException) -> bool:
    """Whether ``exc`` (a ``sqlite3`` error) says the database is locked by another
    connection (SQLite's ``SQLITE_BUSY``)."""
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF == sqlite3.SQLITE_BUSY
    return "database is locked" in str(exc)


def locked_error(path: Path | str, waited_s: float) -> StorageError:
    """The error for a results database that another program kept locked for the
    ``waited_s`` seconds this process waited."""
    return StorageError(
        f"{path} is locked by another program (waited {waited_s:.1f} s for it); close "
        "what holds it (a database browser, a script, another tautrait process writing "
        "to it) and try again, or pass another file with --results-db"
    )


def switch_to_wal(connection: sqlite3.Connection, path: Path | str) -> None:
    """Put the database of ``connection`` in WAL mode (a no-op for one that is: SQLite keeps
    the mode in the file), waiting up to :data:`BUSY_TIMEOUT_S` for other connections.

    Switching a new database takes a read lock and then upgrades it to the write lock; while
    another connection holds the write lock (another process creating the same database)
    SQLite refuses the upgrade at once, without waiting the busy timeout, to rule out a
    deadlock. The switch holds no lock between tries, so it is tried again until it is done.

    Raises:
        StorageError: the database stayed locked for :data:`BUSY_TIMEOUT_S`
            (:func:`locked_error`), the disk is full or the file is damaged.
    """
    started = time.monotonic()
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            waited = time.monotonic() - started
            if not is_locked(exc):
                failure = file_failure(path, exc)
                if failure is not None:
                    raise failure from exc
                raise
            if waited >= BUSY_TIMEOUT_S:
                raise locked_error(path, waited) from exc
        time.sleep(WAL_RETRY_S)

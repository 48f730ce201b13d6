"""SQLite failures of the results database that are about the file, not the program: a
full disk, a disk that fails to read or write, and a file damaged inside its pages.

:func:`file_failure` turns each into one :class:`~tautrait_core.errors.StorageError`
naming the file and what to do, wherever it happens: while the file is checked, while a
new database is put in WAL mode, or in any statement (:func:`report_file_failure`, a
SQLAlchemy ``handle_error`` hook). Other errors are left as they are.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from tautrait_core.errors import StorageError

if TYPE_CHECKING:
    from sqlalchemy.engine import ExceptionContext

NEARLY_FULL_BYTES = 1024 * 1024
"""Free space below which a failed write is put down to a full disk."""

T = TypeVar("T")

_OPTION = "--results-db"
_DAMAGED_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
_UNEXPLAINED = (sqlite3.DatabaseError, sqlite3.OperationalError)
"""Errors that damage may cause without saying so (a table read as empty, say); never an
``IntegrityError``, which is about the data written."""
_UNDECODABLE = "Could not decode to UTF-8"
"""How Python's sqlite3 reports text that a damaged page turned into invalid UTF-8."""


def file_failure(path: Path | str, exc: BaseException) -> StorageError | None:
    """The error to report for the SQLite error ``exc`` met on the results database
    ``path``, or ``None`` when ``exc`` is not about the file (a lock, a program error)."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return None
    failure = disk_failure(path, exc)
    if failure is not None:
        return failure
    damaged = _primary_code(exc) in _DAMAGED_CODES or _UNDECODABLE in str(exc)
    if damaged or (type(exc) in _UNEXPLAINED and _fails_check(Path(path))):
        return _damaged_error(path)
    return None


def disk_failure(path: Path | str, exc: sqlite3.DatabaseError) -> StorageError | None:
    """The error for ``exc`` when the disk holding ``path`` is full or failed, else
    ``None``."""
    primary = _primary_code(exc)
    if primary == sqlite3.SQLITE_FULL or (
        primary == sqlite3.SQLITE_IOERR and _disk_is_full(Path(path))
    ):
        return StorageError(f"{path}: the disk is full; free some space or pass another {_OPTION}")
    if primary == sqlite3.SQLITE_IOERR:
        return StorageError(f"{path}: {exc}; check the disk or pass another {_OPTION}")
    return None


def checked_records(path: Path | str, records: Sequence[T | None]) -> list[T]:
    """The records a select of whole rows returned from the results database ``path``.

    The ORM gives ``None`` for a row whose primary key reads as NULL, which no tautrait
    table allows: only a page damaged without SQLite noticing yields one, so it is the
    damaged-file error rather than a ``NoneType`` crash further on."""
    if any(record is None for record in records):
        raise _damaged_error(path)
    return [record for record in records if record is not None]


def _damaged_error(path: Path | str) -> StorageError:
    """The error for a results database damaged inside its pages."""
    return StorageError(f"{path} is damaged; restore a backup or pass another {_OPTION}")


def report_file_failure(context: ExceptionContext) -> None:
    """Raise a :func:`file_failure` of a statement as its one-line error (a SQLAlchemy
    ``handle_error`` hook; other errors pass through unchanged)."""
    database = context.engine.url.database if context.engine is not None else None
    if not database:
        return
    failure = file_failure(database, context.original_exception)
    if failure is not None:
        raise failure from context.original_exception


def _primary_code(exc: sqlite3.DatabaseError) -> int | None:
    """SQLite's primary result code of ``exc`` (``SQLITE_IOERR`` for an extended one)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def _disk_is_full(path: Path) -> bool:
    """Whether the disk holding ``path`` has (almost) no room left."""
    try:
        return shutil.disk_usage(path.parent).free < NEARLY_FULL_BYTES
    except OSError:
        return False


def _fails_check(path: Path) -> bool:
    """Whether SQLite's own consistency check finds ``path`` damaged (run only after a
    statement failed, so a healthy database never pays for it)."""
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        rows = connection.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError:
        return True
    finally:
        connection.close()
    return rows != [("ok",)]

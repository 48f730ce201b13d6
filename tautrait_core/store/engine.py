"""The SQLAlchemy engine of a results database.

Each connection is put in WAL mode (:func:`~tautrait_core.store.database_file.switch_to_wal`)
with ``synchronous=NORMAL`` and foreign keys on, and waits up to
:data:`~tautrait_core.store.database_file.BUSY_TIMEOUT_S` for a lock. A statement that
still meets a lock is one :class:`~tautrait_core.errors.StorageError` naming the time it
waited; one that fails for the file's sake (full disk, damage) is one naming the file
(:func:`~tautrait_core.store.sqlite_failures.report_file_failure`).
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import event
from sqlmodel import create_engine

from tautrait_core.store import database_file
from tautrait_core.store.database_file import is_locked, locked_error, switch_to_wal
from tautrait_core.store.sqlite_failures import report_file_failure

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection, Engine, ExceptionContext


def results_engine(path: Path) -> Engine:
    """The engine of the results database at ``path`` (see the module docstring)."""
    engine = create_engine(
        f"sqlite:///{path}", connect_args={"timeout": database_file.BUSY_TIMEOUT_S}
    )
    event.listen(engine, "connect", partial(_configure_connection, path))
    event.listen(engine, "before_cursor_execute", _note_statement_start)
    event.listen(engine, "handle_error", _report_locked)
    event.listen(engine, "handle_error", report_file_failure)
    return engine


_STATEMENT_START = "tautrait_statement_start"
"""The key of a connection's ``info`` that holds when its latest statement started."""


def _note_statement_start(connection: Connection, *_statement: Any) -> None:
    """Note when a statement starts (a SQLAlchemy ``before_cursor_execute`` hook), so that
    a locked database is reported with the time waited for it."""
    connection.info[_STATEMENT_START] = time.monotonic()


def _report_locked(context: ExceptionContext) -> None:
    """Raise a locked database as a one-line :class:`StorageError` naming the time the
    statement waited (a SQLAlchemy ``handle_error`` hook; other errors pass through
    unchanged). A lock met while connecting is reported by :func:`switch_to_wal`."""
    if context.connection is not None and is_locked(context.original_exception):
        database = context.engine.url.database if context.engine is not None else None
        waited = time.monotonic() - context.connection.info[_STATEMENT_START]
        raise locked_error(database or "the results database", waited) from (
            context.original_exception
        )


def _configure_connection(path: Path, dbapi_connection: Any, _record: Any) -> None:
    switch_to_wal(dbapi_connection, path)
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()

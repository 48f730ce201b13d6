"""A cache kept in one SQLite file: opened (or created) with its schema, shared by a
process's threads under one lock, and failing with one line that names the file.

A file that is not such a cache (damaged, or another database) is refused when it is
opened; a read or write that fails afterwards (a full disk, say) is a storage fault, never
the agent's or the user's failure.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar, TypeVar

from tautrait_core.errors import StorageError

Result = TypeVar("Result")


class SqliteCache:
    """Base of the caches: subclasses name their ``kind``, ``schema`` and what to do
    about a file that is not theirs (``damaged_fix``)."""

    kind: ClassVar[str]
    """What the cache is called in messages (``"response cache"``)."""
    schema: ClassVar[str]
    """The ``CREATE TABLE IF NOT EXISTS`` statement of its table."""
    damaged_fix: ClassVar[str]
    """What to do about a file at its path that is not such a cache."""

    def __init__(self, path: Path) -> None:
        """Open (or create) the cache file at ``path``.

        Raises:
            StorageError: the file is not such a cache.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._connection = sqlite3.connect(path, check_same_thread=False, timeout=30)
        try:
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._connection.execute(self.schema)
            self._connection.commit()
        except sqlite3.DatabaseError as exc:
            self._connection.close()
            raise self.not_this_cache(path, exc) from exc
        self._lock = threading.Lock()

    @classmethod
    def not_this_cache(cls, path: Path, exc: Exception) -> StorageError:
        """The error for a file at ``path`` that is not such a cache."""
        return StorageError(f"{path} is not a tautrait {cls.kind} ({exc}); {cls.damaged_fix}")

    def reading(self, query: Callable[[sqlite3.Connection], Result]) -> Result:
        """``query``'s result on the connection, under the lock.

        Raises:
            StorageError: the cache could not be read.
        """
        try:
            with self._lock:
                return query(self._connection)
        except sqlite3.Error as exc:
            raise StorageError(f"could not read the {self.kind} {self.path}: {exc}") from exc

    def writing(self, change: Callable[[sqlite3.Connection], object]) -> None:
        """Run ``change`` on the connection and commit, under the lock; a failed change is
        rolled back.

        Raises:
            StorageError: the cache could not be written (e.g. the disk is full).
        """
        try:
            with self._lock:
                change(self._connection)
                self._connection.commit()
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                self._connection.rollback()
            raise StorageError(f"could not write the {self.kind} {self.path}: {exc}") from exc

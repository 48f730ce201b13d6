"""A response cache for model calls, in SQLite, keyed by the full request.

With ``--cache`` a request identical to an earlier one (same model, messages, tools,
temperature, and the same episode: task and trial) is answered from the cache, so a run can
be re-run reproducibly and without cost. The episode is part of the key so that trials of a
task stay independent samples. API keys are never part of what is stored.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

from tautrait_core.llm.sqlite_cache import SqliteCache

SCHEMA = "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, response TEXT NOT NULL)"
EXCLUDED_ARGUMENTS = ("api_key", "timeout", "num_retries", "max_retries")


def request_key(arguments: dict[str, Any], scope: str) -> str:
    """sha256 of the canonical JSON of a request (secrets and transport settings left out)."""
    material = {k: v for k, v in arguments.items() if k not in EXCLUDED_ARGUMENTS}
    text = json.dumps({"scope": scope, "request": material}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class ResponseCache(SqliteCache):
    """Stored model responses (as OpenAI-style JSON), one row per request key."""

    kind = "response cache"
    schema = SCHEMA
    damaged_fix = "delete it with: tautrait cache clear"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored answer to the request ``key`` (``None``: none is stored).

        Raises:
            StorageError: the cache could not be read.
        """
        row = self.reading(
            lambda db: db.execute("SELECT response FROM responses WHERE key = ?", (key,)).fetchone()
        )
        return None if row is None else json.loads(row[0])

    def put(self, key: str, response: dict[str, Any]) -> None:
        """Store the answer to the request ``key``.

        Raises:
            StorageError: the cache could not be written (e.g. the disk is full).
        """
        from tautrait_core.llm.keys import redact

        stored = redact(json.dumps(response))
        self.writing(
            lambda db: db.execute(
                "INSERT OR REPLACE INTO responses (key, response) VALUES (?, ?)", (key, stored)
            )
        )


_caches: dict[Path, ResponseCache] = {}


def open_cache(path: Path) -> ResponseCache:
    """The process-wide cache object for ``path``.

    Raises:
        StorageError: the file is not a response cache.
    """
    if path not in _caches:
        _caches[path] = ResponseCache(path)
    return _caches[path]


def cache_entries(path: Path) -> int:
    """How many answers the cache file at ``path`` holds (0 when there is none).

    Raises:
        StorageError: the file is not a response cache.
    """
    if not path.exists():
        return 0
    try:
        connection = sqlite3.connect(path, timeout=30)
        try:
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
            if "responses" not in tables:
                if tables:
                    raise sqlite3.DatabaseError(f"it holds other tables: {', '.join(tables)}")
                return 0
            return int(connection.execute("SELECT COUNT(*) FROM responses").fetchone()[0])
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        raise ResponseCache.not_this_cache(path, exc) from exc


def clear_cache(path: Path) -> None:
    """Delete every stored answer from the cache file at ``path`` (and free the space).

    Raises:
        StorageError: the file is not a response cache.
    """
    if not path.exists():
        return
    try:
        connection = sqlite3.connect(path, timeout=30)
        try:
            connection.execute("DELETE FROM responses")
            connection.commit()
            connection.execute("VACUUM")
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        raise ResponseCache.not_this_cache(path, exc) from exc


def remove_cache_file(path: Path) -> None:
    """Delete the cache file at ``path`` (and SQLite's side files), whatever it holds: how
    a damaged cache is cleared.

    Raises:
        StorageError: a file could not be deleted.
    """
    from tautrait_core.errors import StorageError

    _caches.pop(path, None)
    for name in (path.name, f"{path.name}-wal", f"{path.name}-shm"):
        try:
            (path.parent / name).unlink(missing_ok=True)
        except OSError as exc:
            raise StorageError(f"could not delete {path.parent / name}: {exc.strerror}") from exc

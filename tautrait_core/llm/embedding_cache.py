"""The embeddings cache: vectors by model and text hash, in one SQLite file.

Documents are embedded once per machine and model: later runs (and later processes of a
run, such as Ray workers) read their vectors from here. A file that is not such a cache
(damaged, or another database) is an error naming it and the fix; nothing is overwritten.
"""

from __future__ import annotations

import sqlite3
import threading
from array import array
from pathlib import Path

from tautrait_core.errors import StorageError

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS embeddings (model TEXT NOT NULL, text_sha256 TEXT NOT NULL, "
    "vector BLOB NOT NULL, PRIMARY KEY (model, text_sha256))"
)


class EmbeddingCache:
    """Stored vectors (float64) keyed by (model, sha256 of the embedded text)."""

    def __init__(self, path: Path) -> None:
        """Open (or create) the cache at ``path``.

        Raises:
            StorageError: the file is not an embeddings cache.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._connection = sqlite3.connect(path, check_same_thread=False, timeout=30)
        try:
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._connection.execute(SCHEMA)
            self._connection.commit()
        except sqlite3.DatabaseError as exc:
            self._connection.close()
            raise _not_a_cache(path, exc) from exc
        self._lock = threading.Lock()

    def get_many(self, model: str, keys: list[str]) -> dict[str, list[float]]:
        """The stored vectors of ``keys`` (those the cache has)."""
        found: dict[str, list[float]] = {}
        wanted = list(dict.fromkeys(keys))
        with self._lock:
            for start in range(0, len(wanted), 500):  # SQLite's bound-parameter limit
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                try:
                    rows = self._connection.execute(
                        f"SELECT text_sha256, vector FROM embeddings "
                        f"WHERE model = ? AND text_sha256 IN ({marks})",
                        (model, *chunk),
                    ).fetchall()
                except sqlite3.DatabaseError as exc:
                    raise _not_a_cache(self.path, exc) from exc
                for key, blob in rows:
                    found[key] = array("d", blob).tolist()
        return found

    def put_many(self, model: str, vectors: dict[str, list[float]]) -> None:
        """Store ``vectors`` (by text hash) for ``model``."""
        rows = [(model, key, array("d", vector).tobytes()) for key, vector in vectors.items()]
        with self._lock:
            try:
                self._connection.executemany(
                    "INSERT OR REPLACE INTO embeddings (model, text_sha256, vector) "
                    "VALUES (?, ?, ?)",
                    rows,
                )
                self._connection.commit()
            except sqlite3.DatabaseError as exc:
                raise _not_a_cache(self.path, exc) from exc


_caches: dict[Path, EmbeddingCache] = {}
_caches_lock = threading.Lock()


def open_embedding_cache(path: Path) -> EmbeddingCache:
    """The process-wide cache object for ``path``.

    Raises:
        StorageError: the file is not an embeddings cache.
    """
    with _caches_lock:
        if path not in _caches:
            _caches[path] = EmbeddingCache(path)
        return _caches[path]


def _not_a_cache(path: Path, exc: Exception) -> StorageError:
    return StorageError(
        f"{path} is not a tautrait embeddings cache ({exc}); delete it (documents are "
        "embedded again on the next run) or move it away"
    )

"""The embeddings cache: vectors by model and text hash, in one SQLite file.

Documents are embedded once per machine and model: later runs (and later processes of a
run, such as Ray workers) read their vectors from here. A file that is not such a cache
(damaged, or another database) is an error naming it and the fix; nothing is overwritten.
"""

from __future__ import annotations

import threading
from array import array
from pathlib import Path

from tautrait_core.llm.sqlite_cache import SqliteCache

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS embeddings (model TEXT NOT NULL, text_sha256 TEXT NOT NULL, "
    "vector BLOB NOT NULL, PRIMARY KEY (model, text_sha256))"
)


class EmbeddingCache(SqliteCache):
    """Stored vectors (float64) keyed by (model, sha256 of the embedded text)."""

    kind = "embeddings cache"
    schema = SCHEMA
    damaged_fix = "delete it (documents are embedded again on the next run) or move it away"

    def get_many(self, model: str, keys: list[str]) -> dict[str, list[float]]:
        """The stored vectors of ``keys`` (those the cache has).

        Raises:
            StorageError: the cache could not be read.
        """
        found: dict[str, list[float]] = {}
        wanted = list(dict.fromkeys(keys))
        for start in range(0, len(wanted), 500):  # SQLite's bound-parameter limit
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self.reading(
                lambda db, chunk=chunk, marks=marks: db.execute(
                    f"SELECT text_sha256, vector FROM embeddings "
                    f"WHERE model = ? AND text_sha256 IN ({marks})",
                    (model, *chunk),
                ).fetchall()
            )
            for key, blob in rows:
                found[key] = array("d", blob).tolist()
        return found

    def put_many(self, model: str, vectors: dict[str, list[float]]) -> None:
        """Store ``vectors`` (by text hash) for ``model``.

        Raises:
            StorageError: the cache could not be written (e.g. the disk is full).
        """
        rows = [(model, key, array("d", vector).tobytes()) for key, vector in vectors.items()]
        self.writing(
            lambda db: db.executemany(
                "INSERT OR REPLACE INTO embeddings (model, text_sha256, vector) VALUES (?, ?, ?)",
                rows,
            )
        )


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

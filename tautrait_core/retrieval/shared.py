"""Indexes and retrieval configurations built once per document collection and process.

Every episode and trial of a run, every run of a sweep in the process and every
configuration that searches the same way (``bm25``, ``bm25_grep`` and ``alltools`` share
one BM25 index) reuse what was built. Keys hold the collection's fingerprint (a hash of
its documents in order), so a changed collection is indexed anew.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from tautrait_core.config.parts import RetrievalSettings
from tautrait_core.domain.documents import DocumentCollection
from tautrait_core.retrieval.base import Retrieval

Built = TypeVar("Built")

_built: dict[Hashable, Any] = {}
_locks: dict[Hashable, threading.Lock] = {}
_guard = threading.Lock()


def _once(key: Hashable, build: Callable[[], Built]) -> Built:
    """``build()``'s value for ``key``, built by one thread once and then kept."""
    if key in _built:
        return _built[key]
    with _guard:
        lock = _locks.setdefault(key, threading.Lock())
    with lock:
        if key not in _built:
            _built[key] = build()
    return _built[key]


def shared_index(kind: str, documents: DocumentCollection, build: Callable[[], Built]) -> Built:
    """The index ``kind`` (``"bm25"``, ``"grep"``, ...) of ``documents``: ``build()`` on
    first use in this process, kept afterwards."""
    return _once(("index", kind, documents.fingerprint), build)


def retrieval_instance(
    configuration: type[Retrieval], documents: DocumentCollection, settings: RetrievalSettings
) -> Retrieval:
    """The configuration serving ``documents`` with ``settings``, made once per process."""
    key = ("retrieval", configuration, documents.fingerprint, settings)
    return _once(key, lambda: configuration(documents, settings))


def forget_built() -> None:
    """Drop every kept index and configuration (tests and benchmarks time fresh builds)."""
    with _guard:
        _built.clear()
        _locks.clear()

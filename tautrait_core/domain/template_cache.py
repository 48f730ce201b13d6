"""Read-only values computed once per template database and shared by its episodes.

A domain often has data that no tool changes (a product catalog, a flight timetable). Every
episode of one :class:`~tautrait_core.domain.state.StateTemplate` sees the same rows there,
so the domain can read them once, into plain Python objects, and serve look-ups without
SQL. :func:`per_template` turns the function that reads them into one that computes its
value on the first call for a template and returns the same value for every later
episode of that template. The rows stay in the database, so they remain part of every
state hash and of the export.
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

from tautrait_core.domain.state import EpisodeDB, StateTemplate

Value = TypeVar("Value")


class TemplateCache(Generic[Value]):
    """``build(db)`` computed once per ``db.template`` (see :func:`per_template`).

    Thread-safe: concurrent first calls may each build a value, and all of them get the one
    stored first. Weakly keyed: a template's value goes when the template does.
    """

    def __init__(self, build: Callable[[EpisodeDB], Value]) -> None:
        self.build = build
        self._values: weakref.WeakKeyDictionary[StateTemplate, Value] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()
        functools.update_wrapper(self, build)

    def __call__(self, db: EpisodeDB) -> Value:
        """The value for ``db``'s template, built from ``db`` on first use."""
        with self._lock:
            found = self._values.get(db.template)
        if found is not None:
            return found
        value = self.build(db)
        with self._lock:
            return self._values.setdefault(db.template, value)


def per_template(build: Callable[[EpisodeDB], Value]) -> TemplateCache[Value]:
    """Decorate a function that reads read-only data from an episode database, so that it
    runs once per template and its result is shared by every episode of that template.

    The function must read only what no tool changes, and its result must not be changed
    by the callers (hand out copies of mutable parts)::

        @per_template
        def catalog_of(db: EpisodeDB) -> Catalog:
            return Catalog(list(db.exec(select(Product))))
    """
    return TemplateCache(build)

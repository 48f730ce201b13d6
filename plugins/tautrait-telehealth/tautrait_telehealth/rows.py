"""Rows read with plain SQL, read by the tools like the ORM objects of their tables.

On a database this small, loading rows as ORM objects cost most of a read-only tool
call, and every loaded row made each later flush slower (its JSON values are compared for
in-place changes). The read-only look-ups therefore use the episode database's plain-SQL
reads (:meth:`~tautrait_core.EpisodeDB.read_row`, :meth:`~tautrait_core.EpisodeDB.read_rows`)
and wrap each row in a :class:`RowView`; tools that change a row set its fields on the
view and write the changed columns back with :meth:`~tautrait_core.EpisodeDB.update_row`.
"""

from __future__ import annotations

import copy
from typing import Any

from sqlmodel import SQLModel

from tautrait_core import EpisodeDB


class RowView:
    """The column values of one row, read as attributes (``view.name``), with the
    :class:`~tautrait_core.RecordRow` methods ``field``, ``has_field``, ``set_field`` and
    ``to_record``; :meth:`changes` gives the columns that ``set_field`` changed."""

    __slots__ = ("_changed", "_values")

    def __init__(self, values: dict[str, Any]) -> None:
        self._values = values
        self._changed: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def has_field(self, key: str) -> bool:
        """Whether the upstream record has ``key`` (possibly with the value null)."""
        return key in self._values["field_order"]

    def field(self, key: str) -> Any:
        """The value of ``key``; ``KeyError(key)`` when the record lacks it."""
        if not self.has_field(key):
            raise KeyError(key)
        return self._values[key]

    def set_field(self, key: str, value: Any) -> None:
        """Set ``key``, adding it after the existing keys if the record lacked it."""
        self._values[key] = value
        self._changed.add(key)
        if not self.has_field(key):
            self._values["field_order"] = [*self._values["field_order"], key]
            self._changed.add("field_order")

    def changes(self) -> dict[str, Any]:
        """Column name -> value of every column that :meth:`set_field` changed."""
        return {name: self._values[name] for name in self._changed}

    def to_record(self) -> dict[str, Any]:
        """The upstream record: exactly the keys it has, in upstream order (a deep copy)."""
        return {key: copy.deepcopy(self._values[key]) for key in self._values["field_order"]}


def view(db: EpisodeDB, model: type[SQLModel], key: Any) -> RowView | None:
    """The ``model`` row with primary key ``key`` (``None`` if there is none)."""
    values = db.read_row(model, key)
    return None if values is None else RowView(values)


def views(
    db: EpisodeDB, model: type[SQLModel], where: str = "", parameters: tuple[Any, ...] = ()
) -> list[RowView]:
    """The ``model`` rows that match ``where`` (see ``EpisodeDB.read_rows``), in upstream
    order (by ``position``)."""
    return [RowView(values) for values in db.read_rows(model, where, parameters, '"position"')]

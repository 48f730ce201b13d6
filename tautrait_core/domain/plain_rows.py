"""Plain SQL access to the rows of one table, for tools on hot paths.

Loading a row as an ORM object, and writing it back through the session's unit of work,
costs several times more than the tool's own logic on a small database. A
:class:`PlainTable` reads and writes one table's rows with prepared SQL on the episode's
connection instead, converting each column with the column type's own bind and result
processors, so a value is stored and read back exactly as the ORM would store and read it
(JSON columns, :class:`~tautrait_core.compat.records.JSONValue` columns). The change-log
triggers see these writes like any other, so state hashes are unaffected.

Tools use it through :meth:`~tautrait_core.domain.state.EpisodeDB.read_row` and the other
``*_row`` methods of an episode database. A tool that reads and changes the same row many
times (a device's settings) takes it as a :class:`PlainRecord`
(:meth:`~tautrait_core.domain.state.EpisodeDB.record`): attributes as on the ORM object,
changes written in one ``UPDATE`` at the episode's next flush or query.
"""

from __future__ import annotations

import json
import marshal
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, bindparam, inspect as sa_inspect
from sqlalchemy.engine import Dialect
from sqlalchemy.sql import Select
from sqlmodel import Session, SQLModel, select

if TYPE_CHECKING:
    from tautrait_core.domain.state import EpisodeDB

Processor = Callable[[Any], Any] | None


class PlainTable:
    """Prepared SQL and value conversions for one table.

    Args:
        model: The table's SQLModel class.
        dialect: The SQL dialect of the episode databases (for the column types' processors).
    """

    def __init__(self, model: type[SQLModel], dialect: Dialect) -> None:
        table = model.__table__  # type: ignore[attr-defined]
        self.columns: list[str] = [column.name for column in table.columns]
        self.pk: list[str] = [column.name for column in table.primary_key.columns]
        types = {column.name: column.type.dialect_impl(dialect) for column in table.columns}
        self._decoders: list[Processor] = [
            _json_text_decoder
            if type(column.type) is JSON and dialect._json_deserializer is None  # type: ignore[attr-defined]
            else types[column.name].result_processor(dialect, None)
            for column in table.columns
        ]
        self._encoders: dict[str, Processor] = {
            name: types[name].bind_processor(dialect) for name in self.columns
        }
        quoted = ", ".join(f'"{name}"' for name in self.columns)
        self._where = " AND ".join(f'"{name}" = ?' for name in self.pk)
        self.select_all = f'SELECT {quoted} FROM "{table.name}"'
        self.select_one = f"{self.select_all} WHERE {self._where}"
        self.insert = (
            f'INSERT INTO "{table.name}" ({quoted}) VALUES ({", ".join("?" * len(self.columns))})'
        )
        self.delete = f'DELETE FROM "{table.name}" WHERE {self._where}'
        self.name: str = table.name
        self.json_columns: list[str] = [c.name for c in table.columns if type(c.type) is JSON]
        self._updates: dict[tuple[str, ...], str] = {}

    def key_values(self, key: Any) -> list[Any]:
        """The primary-key parameters for ``key`` (a value, or a tuple for a composite key)."""
        return list(key) if len(self.pk) > 1 else [key]

    def decode(self, values: Sequence[Any]) -> dict[str, Any]:
        """Column name -> value, as the ORM reads it, for one fetched row."""
        return {
            name: value if decoder is None else decoder(value)
            for name, value, decoder in zip(self.columns, values, self._decoders, strict=True)
        }

    def encode(self, name: str, value: Any) -> Any:
        """The value stored for ``value`` in column ``name``, as the ORM stores it."""
        encoder = self._encoders[name]
        return value if encoder is None else encoder(value)

    def update(self, names: tuple[str, ...]) -> str:
        """``UPDATE`` of the columns ``names`` of the row with a given primary key."""
        statement = self._updates.get(names)
        if statement is None:
            assignments = ", ".join(f'"{name}" = ?' for name in names)
            statement = f'UPDATE "{self.name}" SET {assignments} WHERE {self._where}'
            self._updates[names] = statement
        return statement


class PlainRecord:
    """One row as plain values with attribute access, held by an episode (see
    :meth:`PlainRowAccess.record`). Setting an attribute marks its column changed; JSON
    values changed in place are found by comparing with the value read."""

    __slots__ = ("_changed", "_json_read", "_key", "_table", "_values")

    def __init__(self, table: PlainTable, key: Any, values: dict[str, Any]) -> None:
        object.__setattr__(self, "_table", table)
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "_changed", set())
        json_read = {name: marshal.dumps(values[name], 2) for name in table.json_columns}
        object.__setattr__(self, "_json_read", json_read)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"{self._table.name} has no column {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._values:
            raise AttributeError(f"{self._table.name} has no column {name!r}")
        self._values[name] = value
        self._changed.add(name)

    def _asdict(self) -> dict[str, Any]:
        """Column name -> value, in the table's column order (a copy)."""
        return dict(self._values)

    def pending_update(self, in_place: bool) -> tuple[str, list[Any]] | None:
        """The ``UPDATE`` and its parameters that write the changed columns (``None`` when
        nothing changed); the record then counts as written. ``in_place``: also look for
        JSON values changed in place (as the episode's explicit flushes do for ORM rows)."""
        changed = self._changed
        for name, read in self._json_read.items() if in_place else ():
            current = marshal.dumps(self._values[name], 2)
            if current != read:
                changed.add(name)
                self._json_read[name] = current
        if not changed:
            return None
        names = tuple(sorted(changed))
        changed.clear()
        parameters = [self._table.encode(name, self._values[name]) for name in names]
        return self._table.update(names), parameters + self._table.key_values(self._key)


def _json_text_decoder(value: Any) -> Any:
    """What SQLAlchemy's SQLite ``JSON`` result processor returns for a stored value, in one
    call instead of three: ``None``, the parsed text, or a number as SQLite's numeric
    affinity gives it back."""
    return json.loads(value) if isinstance(value, str | bytes) else value


_plain_tables: dict[type[SQLModel], PlainTable] = {}
_plain_tables_lock = threading.Lock()


def plain_table(model: type[SQLModel], dialect: Dialect) -> PlainTable:
    """The :class:`PlainTable` of ``model``, made on first use."""
    with _plain_tables_lock:
        found = _plain_tables.get(model)
        if found is None:
            found = _plain_tables[model] = PlainTable(model, dialect)
        return found


def column_values(row: SQLModel) -> dict[str, Any]:
    """Column name -> value of an ORM row object."""
    mapper = sa_inspect(type(row))
    return {prop.columns[0].name: getattr(row, prop.key) for prop in mapper.column_attrs}


_by_primary_key: dict[type[SQLModel], Select[Any]] = {}


def select_by_primary_key(model: type[SQLModel]) -> Select[Any]:
    """``SELECT`` of the ``model`` row whose single-column primary key is ``:key``, built
    once per model (building a statement per call cost most of a ``Session.get``)."""
    found = _by_primary_key.get(model)
    if found is None:
        (column,) = model.__table__.primary_key.columns  # type: ignore[attr-defined]
        found = select(model).where(column == bindparam("key"))
        _by_primary_key[model] = found
    return found


class PlainRowAccess:
    """The plain-SQL row methods of :class:`~tautrait_core.domain.state.EpisodeDB`, and its
    faster :meth:`get`.

    Reads first write the session's pending changes, as an ORM query does; writes first
    flush every change (in-place JSON edits included) and then expire the row's ORM object
    if the session holds one, so ORM and plain access can be mixed within an episode.
    """

    def record(self: EpisodeDB, model: type[SQLModel], key: Any) -> PlainRecord | None:
        """The ``model`` row ``key`` as a :class:`PlainRecord` held for the episode (the same
        object every time), or ``None`` if there is no such row. While it is held, change
        that row only through it, :meth:`update_row` or :meth:`delete_row`."""
        found = self._records.get((model, key))
        if found is None:
            values = self.read_row(model, key)
            if values is None:
                return None
            table = plain_table(model, self.template.engine.dialect)
            found = self._records[(model, key)] = PlainRecord(table, key, values)
        return found

    def _write_records(self: EpisodeDB, in_place: bool) -> None:
        """Write the changes of the records the episode holds (``in_place``: JSON values
        changed in place too); an ORM object of the same row, if the session holds one, is
        expired, so it reloads what was written."""
        for (model, key), record in self._records.items():
            update = record.pending_update(in_place)
            if update is not None:
                self._raw().execute(*update)
                loaded = self.identity_map.get(self.identity_key(model, key))
                if loaded is not None:
                    self.expire(loaded)

    def get(self: EpisodeDB, entity: Any, ident: Any, **options: Any) -> Any:
        """``Session.get``: the object already in the session, else the row loaded (after
        an autoflush, as ``Session.get`` does) with a statement prepared once per table."""
        table = getattr(entity, "__table__", None)
        if (
            options
            or table is None
            or len(table.primary_key.columns) != 1
            or not isinstance(ident, str | int)
            or self.identity_map.get(self.identity_key(entity, ident)) is not None
        ):
            return Session.get(self, entity, ident, **options)
        return self.exec(select_by_primary_key(entity), params={"key": ident}).first()

    def plain_select(
        self: EpisodeDB, statement: str, parameters: Sequence[Any] = ()
    ) -> list[tuple[Any, ...]]:
        """The rows of a plain SQL query (``?`` parameters) on this episode's copy.

        Values come back as SQLite stores them (JSON columns as text)."""
        self._autoflush()
        return self._raw().execute(statement, parameters).fetchall()

    def read_row(self: EpisodeDB, model: type[SQLModel], key: Any) -> dict[str, Any] | None:
        """Column name -> value of the ``model`` row with primary key ``key`` (a tuple for a
        composite key), read without making an ORM object; ``None`` if there is no such row."""
        table = plain_table(model, self.template.engine.dialect)
        self._autoflush()
        found = self._raw().execute(table.select_one, table.key_values(key)).fetchone()
        return None if found is None else table.decode(found)

    def read_rows(
        self: EpisodeDB,
        model: type[SQLModel],
        where: str = "",
        parameters: Sequence[Any] = (),
        order_by: str = "",
    ) -> list[dict[str, Any]]:
        """Column name -> value of each ``model`` row that matches ``where`` (an SQL
        condition with ``?`` parameters, e.g. ``'"patient_id" = ?'``; every row if empty),
        in ``order_by`` order (an SQL ordering, e.g. ``'"position"'``)."""
        table = plain_table(model, self.template.engine.dialect)
        statement = table.select_all
        if where:
            statement += f" WHERE {where}"
        if order_by:
            statement += f" ORDER BY {order_by}"
        self._autoflush()
        return [table.decode(found) for found in self._raw().execute(statement, parameters)]

    def update_row(
        self: EpisodeDB, model: type[SQLModel], key: Any, values: Mapping[str, Any]
    ) -> None:
        """Set the columns ``values`` (name -> value) of the ``model`` row ``key``."""
        table = plain_table(model, self.template.engine.dialect)
        self.flush()
        names = tuple(values)
        parameters = [table.encode(name, values[name]) for name in names]
        self._raw().execute(table.update(names), parameters + table.key_values(key))
        self._forget(model, key)

    def insert_row(self: EpisodeDB, model: type[SQLModel], values: Mapping[str, Any]) -> None:
        """Insert a ``model`` row; ``values`` (column name -> value) names every column."""
        table = plain_table(model, self.template.engine.dialect)
        self.flush()
        parameters = [table.encode(name, values[name]) for name in table.columns]
        self._raw().execute(table.insert, parameters)

    def delete_row(self: EpisodeDB, model: type[SQLModel], key: Any) -> None:
        """Delete the ``model`` row ``key`` (nothing happens if there is none)."""
        table = plain_table(model, self.template.engine.dialect)
        self.flush()
        self._raw().execute(table.delete, table.key_values(key))
        self._forget(model, key)

    def _forget(self: EpisodeDB, model: type[SQLModel], key: Any) -> None:
        self._records.pop((model, key), None)
        loaded = self.identity_map.get(self.identity_key(model, key))
        if loaded is not None:
            self.expire(loaded)

"""Read-only look-ups that bypass the ORM.

The episode database checks every tracked row's JSON values for in-place changes after
each tool call, and building an ORM query costs far more than SQLite takes to answer it. Tools
that only read (the user and reservation look-ups) therefore fetch one row by primary key
straight from the episode's SQLite connection and decode its JSON columns themselves; a
tool that changes a row loads it with ``db.get`` as usual. The session has nothing to
flush when a tool starts (every tool call ends with a flush), so these reads see the
episode's current state.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache, partial
from types import SimpleNamespace
from typing import Any

from sqlmodel import JSON

from tautrait_airline.schema import RecordList
from tautrait_core import EpisodeDB, JSONValue


def columns(model: Any) -> list[Any]:
    """Every column attribute of a table model, in declaration order."""
    return [getattr(model, name) for name in model.model_fields]


def _decoder(column: Any) -> Callable[[Any], Any] | None:
    """How a stored value of ``column`` becomes its Python value (``None``: as stored)."""
    if isinstance(column.type, JSONValue | RecordList):
        return partial(column.type.process_result_value, dialect=None)
    if isinstance(column.type, JSON):
        return json.loads
    return None


@cache
def _plan(model: Any) -> tuple[str, tuple[str, ...], tuple[Callable[[Any], Any] | None, ...]]:
    table = model.__table__
    (key,) = table.primary_key.columns
    names = tuple(column.name for column in table.columns)
    decoders = tuple(_decoder(column) for column in table.columns)
    listed = ", ".join(f'"{name}"' for name in names)
    return f'SELECT {listed} FROM "{table.name}" WHERE "{key.name}" = ?', names, decoders


def read_row(db: EpisodeDB, model: Any, key: str) -> Any:
    """The row of ``model`` with primary key ``key`` as a plain namespace (attributes by
    column name, JSON decoded into new objects), or ``None``."""
    sql, names, decoders = _plan(model)
    connection = db.connection().connection.dbapi_connection
    found = connection.execute(sql, (key,)).fetchone()  # type: ignore[union-attr]
    if found is None:
        return None
    return SimpleNamespace(
        **{
            name: decode(value) if decode is not None and value is not None else value
            for name, value, decode in zip(names, found, decoders, strict=True)
        }
    )


def row_exists(db: EpisodeDB, model: Any, key: str) -> bool:
    """Whether ``model`` has a row with primary key ``key``."""
    table = model.__table__
    (column,) = table.primary_key.columns
    connection = db.connection().connection.dbapi_connection
    sql = f'SELECT 1 FROM "{table.name}" WHERE "{column.name}" = ?'
    return connection.execute(sql, (key,)).fetchone() is not None  # type: ignore[union-attr]


def next_position(db: EpisodeDB, model: Any) -> int:
    """The ``position`` after the last row of ``model``'s table (0 when it is empty)."""
    connection = db.connection().connection.dbapi_connection
    sql = f'SELECT MAX(position) FROM "{model.__table__.name}"'
    (last,) = connection.execute(sql).fetchone()  # type: ignore[union-attr]
    return 0 if last is None else last + 1

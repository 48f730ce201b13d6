"""Upstream JSON records as table rows: the pieces every domain plugin needs.

Upstream (tau-bench / tau-trait) keeps a domain's data as JSON collections, one file per
collection, each an object keyed by record id (or a list). A domain stores each record as
one row and must rebuild the JSON exactly, because upstream's data hash tells ``25`` from
``25.0`` and depends on every key being where it was:

* :class:`JSONValue` is a column type for a bare JSON value whose type matters (a price, a
  balance, a flag). SQLite's numeric affinity would read a float ``85.0`` stored in a
  numeric or JSON column back as the integer ``85``; this column stores the JSON text.
* :class:`RecordRow` is the base of a table whose rows stand for records whose keys vary:
  it keeps the record's keys in upstream order (``field_order``) and its place in the
  collection (``position``), builds a row from a record and the record back from a row.
* :func:`json_field` and :func:`json_value_field` declare the optional column of such a key
  (NULL while the record lacks it): a JSON column for an object or list, a
  :class:`JSONValue` column for a bare number or boolean.
* :func:`check_record_keys` and :func:`check_record_id` refuse records that would not
  round-trip, with errors that name the collection and the record.

Reading and writing the collection files is :mod:`tautrait_core.compat.data_files`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from typing import Any, ClassVar, Self

from sqlalchemy import Text, TypeDecorator
from sqlmodel import JSON, Field, SQLModel, select


class JSONValue(TypeDecorator[Any]):
    """A column holding any JSON value as its JSON text, so ``25`` and ``25.0`` stay apart.

    ``None`` is stored as SQL NULL. Use it for top-level numbers and booleans of upstream
    records; nested objects and lists keep their number types in plain JSON columns.
    """

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Any) -> str | None:
        """The JSON text stored for ``value``."""
        return None if value is None else json.dumps(value)

    def process_result_value(self, value: str | None, dialect: Any) -> Any:
        """The value decoded from its stored JSON text."""
        return None if value is None else json.loads(value)


def json_field() -> Any:
    """An optional JSON column (an object or a list): NULL, ``None`` on the row, until set.

    In a :class:`RecordRow` table it is the column of an upstream key holding an object or
    a list, NULL while the record lacks the key.
    """
    return Field(default=None, sa_type=JSON, nullable=True)


def json_value_field() -> Any:
    """An optional :class:`JSONValue` column: NULL, ``None`` on the row, until set.

    In a :class:`RecordRow` table it is the column of an upstream key holding a bare
    number or boolean, NULL while the record lacks the key.
    """
    return Field(default=None, sa_type=JSONValue, nullable=True)


class RecordRow(SQLModel):
    """A row that stands for one upstream JSON record whose keys vary from record to record.

    Subclasses declare one column per upstream key (text columns for strings, JSON columns
    for objects and lists, :class:`JSONValue` for bare numbers and booleans), a ``position``
    column (the record's place in its collection) and, where the table has look-up columns
    derived from the record, list them in ``BOOKKEEPING``. ``field_order`` lists the keys
    the record has, in upstream order: a key missing from it is absent upstream (its column
    holds NULL); a listed key whose column is NULL holds ``null``.
    """

    BOOKKEEPING: ClassVar[frozenset[str]] = frozenset({"position", "field_order"})
    """Columns that are not upstream keys."""

    field_order: list[str] = Field(default_factory=list, sa_type=JSON)

    @classmethod
    def upstream_fields(cls) -> list[str]:
        """The upstream keys this table has columns for."""
        return [name for name in cls.model_fields if name not in cls.BOOKKEEPING]

    @classmethod
    def from_record(cls, record: dict[str, Any], position: int, **lookup: Any) -> Self:
        """The row for an upstream record at ``position`` in its collection.

        ``lookup`` sets the table's derived look-up columns. Raises ``ValueError`` for a key
        the table has no column for, or for a non-string value of a text column (SQLite
        would store its text, changing the data hash).
        """
        known = cls.upstream_fields()
        unknown = [key for key in record if key not in known]
        if unknown:
            raise ValueError(f"{cls.__tablename__}: unknown field(s) {', '.join(unknown)}")
        columns = cls.__table__.columns  # type: ignore[attr-defined]
        for key, value in record.items():
            is_text = not isinstance(columns[key].type, JSON | JSONValue)
            if is_text and not isinstance(value, str | None):
                raise ValueError(
                    f"{cls.__tablename__}: field {key!r} holds {value!r}, expected a string"
                )
        values = copy.deepcopy(record)
        return cls(**values, **lookup, position=position, field_order=list(record))

    @classmethod
    def read_record(cls, db: Any, key: Any) -> dict[str, Any] | None:
        """The upstream record of the row with primary key ``key`` (``None`` if absent),
        read without loading the row as an object (for tools that only show it)."""
        table = cls.__table__  # type: ignore[attr-defined]
        (primary_key,) = table.primary_key.columns
        found = db.execute(select(*table.columns).where(primary_key == key)).first()
        if found is None:
            return None
        values = found._mapping
        return {name: values[name] for name in values["field_order"]}

    def has_field(self, key: str) -> bool:
        """Whether the upstream record has ``key`` (possibly with the value null)."""
        return key in self.field_order

    def field(self, key: str) -> Any:
        """The value of ``key``; raises ``KeyError(key)`` when the record lacks it, as
        upstream's ``record[key]`` does."""
        if key not in self.field_order:
            raise KeyError(key)
        return getattr(self, key)

    def set_field(self, key: str, value: Any) -> None:
        """Set ``key``, adding it after the existing keys if the record lacked it."""
        setattr(self, key, value)
        if key not in self.field_order:
            self.field_order = [*self.field_order, key]

    def to_record(self) -> dict[str, Any]:
        """The upstream record: exactly the keys it has, in upstream order (a deep copy)."""
        return {key: copy.deepcopy(getattr(self, key)) for key in self.field_order}


def check_record_keys(
    where: str, record: Any, fields: Iterable[str], *, more_allowed: bool = False
) -> None:
    """Refuse a record that is not an object with exactly ``fields`` as keys, in order.

    Args:
        where: The record's place, for the message (e.g. ``"users['mia_1']"``).
        record: The upstream record.
        fields: Its expected keys, in upstream order.
        more_allowed: Accept further keys after ``fields`` (keys that tools append).

    Raises:
        ValueError: The record is not an object, or its keys differ.
    """
    if not isinstance(record, dict):
        raise ValueError(f"{where} must be an object")
    expected = list(fields)
    keys = list(record)
    head = keys[: len(expected)] if more_allowed else keys
    if head != expected:
        raise ValueError(
            f"{where} has the keys {keys}; upstream records have {expected} (in this order)"
            + (", then possibly more" if more_allowed else "")
        )


def check_record_id(collection: str, key: str, record: Any, id_field: str) -> None:
    """Refuse a record stored under a key other than its own id (upstream keys each
    record of an object collection by its ``id_field``).

    Raises:
        ValueError: ``record[id_field]`` differs from ``key``.
    """
    if isinstance(record, dict) and record.get(id_field) != key:
        raise ValueError(
            f"{collection}: the record under key {key!r} has {id_field}="
            f"{record.get(id_field)!r}; upstream keys each record by its own id"
        )

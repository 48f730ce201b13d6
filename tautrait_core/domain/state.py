"""Episode state: SQLModel tables in SQLite, a template per process, a copy per episode.

* :class:`StateTemplate` builds a domain's database once (tables, seed rows, change-log
  triggers) and keeps it as a serialized SQLite image.
* :class:`EpisodeDB` is a SQLModel ``Session`` over a private in-memory copy of that image
  (``sqlite3.Connection.deserialize``: a memory copy, no re-parsing of seed data). Tools get
  it as their first argument. An episode's changes stay in one transaction, rolled back
  when the episode ends; the copy, back to the template's rows, is kept (up to
  ``KEPT_COPIES``) for a later episode, which skips opening a copy and parsing its schema.
  ``db.today`` is the episode's date, fixed when it starts, so a tool that stamps dates
  does so identically in the agent's run and in the gold replay.
* The canonical state hash covers every table. It is computed from the template's content
  hash plus the rows that differ from the template (triggers log every written primary
  key), so its cost grows with what an episode changed, not with the size of the database:
  two copies of one template have equal hashes exactly when all their tables hold equal
  rows. :meth:`EpisodeDB.full_state_hash` recomputes the same digest by scanning every table.

JSON columns may be mutated in place by tools (``order.items[0]["price"] = 3``); such
changes are found by comparing with a snapshot taken when the row was loaded (no
``flag_modified`` needed), at explicit flushes: after every call of a write tool
(:meth:`tautrait_core.domain.domain.Domain.run_tool`) and before hashing, not before every
query. So a SQL filter on the content of a JSON value changed in place sees the old value;
loaded rows are returned as the changed objects (the identity map), which tools read.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import marshal
import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sqlalchemy import JSON, Engine, create_engine, event, exc, insert, inspect as sa_inspect
from sqlalchemy.orm import attributes
from sqlalchemy.pool import QueuePool, StaticPool
from sqlmodel import Session, SQLModel

from tautrait_core.compat.hashing import canonical_json
from tautrait_core.domain.episode_image import ANY_CHANGE, CHANGE_LOG, EpisodeImageAccess
from tautrait_core.domain.plain_rows import PlainRecord, PlainRowAccess, column_values

KEPT_COPIES = 4
"""Copies of a template kept for reuse once their episode ends (see :class:`StateTemplate`)."""
RowKey = tuple[str, str]
"""(table name, primary key as JSON text)."""


class _TableInfo:
    """What the hash needs to know about one table."""

    def __init__(self, model: type[SQLModel]) -> None:
        table = model.__table__  # type: ignore[attr-defined]
        self.model = model
        self.name: str = table.name
        self.columns: list[str] = [column.name for column in table.columns]
        self.pk: list[str] = [column.name for column in table.primary_key.columns]
        if not self.pk:
            raise ValueError(f"table {self.name} needs a primary key")
        self.json_indexes = [
            index for index, column in enumerate(table.columns) if isinstance(column.type, JSON)
        ]
        quoted = ", ".join(f'"{c}"' for c in self.columns)
        where = " AND ".join(f'"{c}" IS ?' for c in self.pk)
        self.select_one = f'SELECT {quoted} FROM "{self.name}" WHERE {where}'
        self.select_all = f'SELECT {quoted} FROM "{self.name}"'
        self.json_attributes = [
            prop.key
            for prop in sa_inspect(model).column_attrs
            if any(isinstance(column.type, JSON) for column in prop.columns)
        ]

    def fingerprint(self, values: Sequence[Any]) -> str:
        """Canonical text of a row: JSON parsed with keys sorted; ints stay apart from floats."""
        canonical = list(values)
        for index in self.json_indexes:
            raw = canonical[index]
            # SQLite gives a column declared JSON numeric affinity: a scalar such as 25
            # comes back as a number rather than JSON text.
            if isinstance(raw, str | bytes):
                try:
                    canonical[index] = canonical_json(raw)
                except RecursionError:  # nested too deeply to canonicalize: the text itself
                    canonical[index] = ("unparsed JSON", raw)
        try:
            return repr(tuple(canonical))
        except RecursionError:
            return repr(tuple(("unparsed JSON", value) for value in values))

    def pk_text(self, values: Sequence[Any]) -> str:
        positions = [self.columns.index(c) for c in self.pk]
        return json.dumps([values[p] for p in positions])

    def triggers(self) -> list[str]:
        def key(prefix: str) -> str:
            return "json_array(" + ", ".join(f'{prefix}."{c}"' for c in self.pk) + ")"

        log = f"INSERT OR IGNORE INTO \"{CHANGE_LOG}\" (tbl, pk) VALUES ('{self.name}', "
        return [
            f'CREATE TRIGGER "_tt_{self.name}_i" AFTER INSERT ON "{self.name}" '
            f"BEGIN {log}{key('NEW')}); END",
            f'CREATE TRIGGER "_tt_{self.name}_u" AFTER UPDATE ON "{self.name}" '
            f"BEGIN {log}{key('OLD')}); {log}{key('NEW')}); END",
            f'CREATE TRIGGER "_tt_{self.name}_d" AFTER DELETE ON "{self.name}" '
            f"BEGIN {log}{key('OLD')}); END",
        ]


class StateTemplate:
    """A domain's database, built once per process and copied for each episode."""

    def __init__(
        self, name: str, tables: Sequence[type[SQLModel]], rows: Iterable[SQLModel]
    ) -> None:
        self.name = name
        self.tables = {info.name: info for info in (_TableInfo(model) for model in tables)}
        builder = sqlite3.connect(":memory:", check_same_thread=False)
        build_engine = create_engine("sqlite://", creator=lambda: builder, poolclass=StaticPool)
        SQLModel.metadata.create_all(
            build_engine,
            tables=[model.__table__ for model in tables],  # type: ignore[attr-defined]
        )
        by_table: dict[type[SQLModel], list[dict[str, Any]]] = {}
        for row in rows:
            by_table.setdefault(type(row), []).append(column_values(row))
        with build_engine.begin() as connection:
            for model, values in by_table.items():
                if model.__table__.name not in self.tables:  # type: ignore[attr-defined]
                    raise ValueError(f"seed row of unknown table {model.__name__}")
                connection.execute(insert(model.__table__), values)  # type: ignore[attr-defined]
        builder.execute(
            f'CREATE TABLE "{CHANGE_LOG}" '
            "(tbl TEXT NOT NULL, pk TEXT NOT NULL, PRIMARY KEY (tbl, pk))"
        )
        for info in self.tables.values():
            for statement in info.triggers():
                builder.execute(statement)
        builder.commit()
        self.image: bytes = builder.serialize()
        self.content_hash = _digest(_scan(builder, self.tables.values()))
        builder.close()
        self._reader = self._copy()
        self._template_fingerprints: dict[RowKey, str | None] = {}
        self._lock = threading.Lock()
        self.engine: Engine = create_engine(
            "sqlite://",
            creator=self._copy,
            poolclass=QueuePool,
            pool_size=KEPT_COPIES,
            max_overflow=-1,
            pool_reset_on_return="rollback",
        )
        event.listen(self.engine, "checkout", _refuse_changed_copy)
        for info in self.tables.values():
            _watch_json(info)

    def _copy(self) -> sqlite3.Connection:
        connection = sqlite3.connect(":memory:", check_same_thread=False)
        connection.deserialize(self.image)
        return connection

    def new_episode(self, today: dt.date | None = None) -> EpisodeDB:
        """A fresh private copy of the database for one episode."""
        return EpisodeDB(self, today or dt.date.today())

    def template_fingerprint(self, key: RowKey) -> str | None:
        """The fingerprint of a row in the template (``None`` if the row does not exist)."""
        with self._lock:
            if key not in self._template_fingerprints:
                self._template_fingerprints[key] = _read_fingerprint(self._reader, self.tables, key)
            return self._template_fingerprints[key]

    def size_bytes(self) -> int:
        """Size of the serialized database (what each episode copies)."""
        return len(self.image)


class EpisodeDB(PlainRowAccess, EpisodeImageAccess, Session):
    """The database of one episode: a SQLModel session over a private in-memory copy.

    Besides the session's ORM methods, tools on hot paths can use plain rows
    (:meth:`read_row`, :meth:`record`, :meth:`update_row` and the others of
    :mod:`tautrait_core.domain.plain_rows`),
    and a set-up copy's content can be taken and loaded whole (:meth:`take_image`,
    :meth:`load_image`; see :mod:`tautrait_core.domain.episode_image`).

    Attributes:
        template: The template this copy was made from.
        today: The episode's date; tools must use it instead of the wall clock.
    """

    def __init__(self, template: StateTemplate, today: dt.date) -> None:
        self.template = template
        self.today = today
        self._connection = template.engine.connect()
        self._sqlite: sqlite3.Connection = self._connection.connection.dbapi_connection  # type: ignore[assignment]
        self._json_snapshots: dict[tuple[int, str], bytes] = {}
        # Loaded rows stay referenced (the identity map is weak) until a flush checks them.
        self._loaded_rows: list[SQLModel] = []
        self._records: dict[tuple[type[SQLModel], Any], PlainRecord] = {}
        self._autoflushing = False
        super().__init__(bind=self._connection, autoflush=True, expire_on_commit=False)

    def close(self) -> None:
        """Discard the copy."""
        super().close()
        self._restore_template_content()
        self._connection.close()

    def __enter__(self) -> EpisodeDB:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def flush(self, objects: Any = None) -> None:
        """Flush pending changes, including JSON values that were mutated in place."""
        if self._records:
            self._write_records(in_place=True)
        if not self.identity_map and not self._new and not self._deleted:
            return  # no ORM object in the session (tools on plain rows): nothing to write
        if not self._autoflushing:
            self._flag_mutated_json()
        super().flush(objects)

    def _autoflush(self) -> None:
        # Before a query only the changes SQLAlchemy tracks itself are written; looking
        # for in-place JSON changes in every loaded row before every query cost a quarter
        # of a tool call's time (see the module docstring for when they are looked for).
        if self._records:
            self._write_records(in_place=False)
        self._autoflushing = True
        try:
            super()._autoflush()
        finally:
            self._autoflushing = False

    def _flag_mutated_json(self) -> None:
        snapshots = self._json_snapshots
        for target in [*self.identity_map.values(), *self.new]:
            state = target.__dict__
            for name in _json_names(type(target), self):
                if name not in state:  # expired: its reload takes a new snapshot
                    continue
                current = _snapshot(state[name])
                key = (id(target), name)
                previous = snapshots.get(key)
                if previous != current:
                    if previous is not None:
                        attributes.flag_modified(target, name)
                    snapshots[key] = current

    def _raw(self) -> sqlite3.Connection:
        return self._sqlite

    def changes(self) -> dict[RowKey, str | None]:
        """Rows that differ from the template: key -> fingerprint (``None`` = deleted)."""
        self.flush()
        raw = self._raw()
        result: dict[RowKey, str | None] = {}
        for table, pk in raw.execute(f'SELECT tbl, pk FROM "{CHANGE_LOG}"').fetchall():
            key = (table, pk)
            current = _read_fingerprint(raw, self.template.tables, key)
            if current != self.template.template_fingerprint(key):
                result[key] = current
        return result

    def state_hash(self) -> str:
        """The canonical hash of every table's content (see the module docstring)."""
        return state_hash(self.template, self.changes())

    def full_state_hash(self) -> str:
        """The same hash as :meth:`state_hash`, by scanning every row (slow; for checks)."""
        self.flush()
        current = dict(_scan(self._raw(), self.template.tables.values()))
        with self.template._lock:
            original = dict(_scan(self.template._reader, self.template.tables.values()))
        diff: dict[RowKey, str | None] = {
            key: value for key, value in current.items() if original.get(key) != value
        }
        diff.update({key: None for key in original if key not in current})
        return state_hash(self.template, diff)


def state_hash(template: StateTemplate, changes: dict[RowKey, str | None]) -> str:
    """Hash of a template's content plus a normalized change set."""
    digest = hashlib.sha256(template.content_hash.encode())
    for (table, pk), fingerprint in sorted(changes.items()):
        digest.update(f"\n{table}\t{pk}\t{fingerprint}".encode())
    return digest.hexdigest()


def describe_differences(
    first: dict[RowKey, str | None], second: dict[RowKey, str | None]
) -> list[str]:
    """``table[pk]`` for every row whose content differs between two change sets."""
    keys = sorted(set(first) | set(second))
    return [
        f"{table}{pk}"
        for table, pk in keys
        if first.get((table, pk), "") != second.get((table, pk), "")
    ]


# -- internals ---------------------------------------------------------------------------


def _refuse_changed_copy(connection: sqlite3.Connection, _record: Any, _proxy: Any) -> None:
    """Hand out a kept copy only when it holds the template's rows again: its episode's
    transaction was rolled back, so the change log is empty. A copy whose changes were
    committed is dropped, and the pool makes a fresh one."""
    if connection.in_transaction or connection.execute(ANY_CHANGE).fetchone() is not None:
        raise exc.DisconnectionError("an episode committed its changes to this copy")


def _read_fingerprint(
    connection: sqlite3.Connection, tables: dict[str, _TableInfo], key: RowKey
) -> str | None:
    info = tables[key[0]]
    found = connection.execute(info.select_one, json.loads(key[1])).fetchone()
    return None if found is None else info.fingerprint(found)


def _scan(connection: sqlite3.Connection, tables: Iterable[_TableInfo]) -> list[tuple[RowKey, str]]:
    rows = []
    for info in tables:
        for values in connection.execute(info.select_all):
            rows.append(((info.name, info.pk_text(values)), info.fingerprint(values)))
    rows.sort()
    return rows


def _digest(rows: list[tuple[RowKey, str]]) -> str:
    digest = hashlib.sha256()
    for (table, pk), fingerprint in rows:
        digest.update(f"{table}\t{pk}\t{fingerprint}\n".encode())
    return digest.hexdigest()


_WATCHED: set[type[SQLModel]] = set()


def _snapshot(value: Any) -> bytes:
    """Bytes that change whenever a JSON value changes (1 and 1.0 included).

    Marshal version 2 writes no back-references, so equal values always give equal bytes
    (version 3 and later depend on reference counts).
    """
    return marshal.dumps(value, 2)


def _watch_json(info: _TableInfo) -> None:
    """Snapshot JSON attributes when a row loads, so in-place mutation is noticed."""
    model = info.model
    if model in _WATCHED or not info.json_attributes:
        return
    _WATCHED.add(model)
    names = info.json_attributes

    def snapshot(target: SQLModel, context: Any) -> None:
        session = context.session
        if isinstance(session, EpisodeDB):
            session._loaded_rows.append(target)
            state = target.__dict__
            for name in names:
                session._json_snapshots[(id(target), name)] = _snapshot(state.get(name))

    event.listen(model, "load", snapshot)
    event.listen(model, "refresh", lambda target, context, _attrs: snapshot(target, context))


def _json_names(model: type, session: EpisodeDB) -> list[str]:
    table = getattr(model, "__table__", None)
    info = session.template.tables.get(table.name) if table is not None else None
    return info.json_attributes if info is not None else []


_template_cache: dict[tuple[str, str], StateTemplate] = {}
_template_lock = threading.Lock()


def get_template(
    domain_name: str,
    data_id: str,
    tables: Sequence[type[SQLModel]],
    load_rows: Callable[[], Iterable[SQLModel]],
) -> StateTemplate:
    """The process-wide template for ``(domain, data_id)``, built on first use."""
    key = (domain_name, data_id)
    with _template_lock:
        template = _template_cache.get(key)
        if template is None:
            template = StateTemplate(f"{domain_name}:{data_id}", tables, load_rows())
            _template_cache[key] = template
        return template

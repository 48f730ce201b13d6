"""The results database's migrations and its SQLModel tables describe one schema."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlmodel import SQLModel, create_engine

from tautrait_core.store import tables
from tautrait_core.store.results import ResultStore

TABLES = [
    tables.RunRecord,
    tables.EpisodeRecord,
    tables.DiagnosisRecord,
    tables.TraitRatingRecord,
    tables.SweepRecord,
    tables.SweepPointRecord,
]


def describe(path: Path) -> dict[str, object]:
    """Columns (name, type, not null, primary key), unique constraints and indexes per table."""
    connection = sqlite3.connect(path)
    names = [
        row[0]
        for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 1) != '_'"
        )
    ]
    schema: dict[str, object] = {}
    for table in sorted(names):
        columns = sorted(
            (name, kind.upper(), bool(notnull), bool(pk))
            for _cid, name, kind, notnull, _default, pk in connection.execute(
                f'PRAGMA table_info("{table}")'
            )
        )
        indexes = sorted(
            (
                bool(unique),
                tuple(row[2] for row in connection.execute(f'PRAGMA index_info("{index}")')),
            )
            for _seq, index, unique, _origin, _partial in connection.execute(
                f'PRAGMA index_list("{table}")'
            )
        )
        foreign_keys = sorted(
            (row[3], row[2], row[4])
            for row in connection.execute(f'PRAGMA foreign_key_list("{table}")')
        )
        schema[table] = {"columns": columns, "indexes": indexes, "foreign_keys": foreign_keys}
    connection.close()
    return schema


def test_migrations_build_the_schema_the_tables_declare(tmp_path: Path) -> None:
    migrated = tmp_path / "migrated.db"
    ResultStore(migrated)
    declared = tmp_path / "declared.db"
    engine = create_engine(f"sqlite:///{declared}")
    SQLModel.metadata.create_all(engine, tables=[t.__table__ for t in TABLES])  # type: ignore[attr-defined]
    engine.dispose()
    assert describe(migrated) == describe(declared)


def test_every_table_is_compared() -> None:
    declared = {t.__tablename__ for t in TABLES}  # type: ignore[attr-defined]
    assert declared == {
        table.name
        for table in SQLModel.metadata.tables.values()
        if table.name
        in {"runs", "episodes", "diagnoses", "trait_ratings", "sweeps", "sweep_points"}
    }
    assert len(TABLES) == len(
        [v for v in vars(tables).values() if isinstance(v, type) and hasattr(v, "__table__")]
    )

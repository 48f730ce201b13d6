"""The results database's schema: ordered, named migrations (``m001_initial``, ...).

Each migration is applied once and recorded in ``_migrations``; a database written by an
older version is upgraded when it is opened. Never edit a migration that has shipped: add
the next one.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import text
from sqlmodel import Session

M001_INITIAL = (
    """CREATE TABLE runs (
        id VARCHAR NOT NULL PRIMARY KEY,
        created_at VARCHAR NOT NULL,
        name VARCHAR,
        domain VARCHAR NOT NULL,
        task_set VARCHAR NOT NULL,
        agent VARCHAR NOT NULL,
        agent_model VARCHAR,
        user_strategy VARCHAR NOT NULL,
        user_model VARCHAR,
        traits VARCHAR NOT NULL,
        num_trials INTEGER NOT NULL,
        task_ids JSON NOT NULL,
        config JSON NOT NULL,
        plugins JSON NOT NULL,
        status VARCHAR NOT NULL,
        finished_at VARCHAR
    )""",
    """CREATE TABLE episodes (
        id INTEGER NOT NULL PRIMARY KEY,
        run_id VARCHAR NOT NULL REFERENCES runs (id),
        task_id INTEGER NOT NULL,
        trial INTEGER NOT NULL,
        outcome VARCHAR NOT NULL,
        reward FLOAT NOT NULL,
        termination VARCHAR NOT NULL,
        reward_info JSON,
        messages JSON NOT NULL,
        error VARCHAR,
        agent_usage JSON NOT NULL,
        user_usage JSON NOT NULL,
        cost FLOAT,
        steps INTEGER NOT NULL,
        duration_s FLOAT NOT NULL,
        finished_at VARCHAR NOT NULL,
        UNIQUE (run_id, task_id, trial)
    )""",
    "CREATE INDEX ix_episodes_run_id ON episodes (run_id)",
)


MIGRATIONS_TABLE = "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT)"


M002_MODEL_CALLS = ("ALTER TABLE episodes ADD COLUMN calls JSON",)


M003_DIAGNOSES = (
    """CREATE TABLE diagnoses (
        id INTEGER NOT NULL PRIMARY KEY,
        run_id VARCHAR NOT NULL REFERENCES runs (id),
        task_id INTEGER NOT NULL,
        trial INTEGER NOT NULL,
        fault VARCHAR NOT NULL,
        fault_type VARCHAR NOT NULL,
        explanation VARCHAR NOT NULL,
        model VARCHAR NOT NULL,
        cost FLOAT,
        created_at VARCHAR NOT NULL,
        UNIQUE (run_id, task_id, trial)
    )""",
)


M005_SWEEPS = (
    """CREATE TABLE sweeps (
        name VARCHAR NOT NULL PRIMARY KEY,
        created_at VARCHAR NOT NULL,
        fingerprint VARCHAR NOT NULL,
        spec JSON NOT NULL,
        source VARCHAR NOT NULL
    )""",
    """CREATE TABLE sweep_points (
        id INTEGER NOT NULL PRIMARY KEY,
        sweep VARCHAR NOT NULL REFERENCES sweeps (name),
        point_index INTEGER NOT NULL,
        point JSON NOT NULL,
        run_id VARCHAR REFERENCES runs (id),
        UNIQUE (sweep, point_index)
    )""",
    "CREATE INDEX ix_sweep_points_sweep ON sweep_points (sweep)",
)


TRAIT_RATINGS = (
    """CREATE TABLE trait_ratings (
        id INTEGER NOT NULL PRIMARY KEY,
        run_id VARCHAR NOT NULL REFERENCES runs (id),
        task_id INTEGER NOT NULL,
        trial INTEGER NOT NULL,
        turn INTEGER NOT NULL,
        turns INTEGER NOT NULL,
        trait VARCHAR NOT NULL,
        rating INTEGER NOT NULL,
        reason VARCHAR NOT NULL,
        model VARCHAR NOT NULL,
        cost FLOAT,
        created_at VARCHAR NOT NULL,
        UNIQUE (run_id, task_id, trial, turn, trait, model)
    )""",
    "CREATE INDEX ix_trait_ratings_run_id ON trait_ratings (run_id)",
)


MIGRATIONS: list[tuple[str, tuple[str, ...]]] = [
    ("m001_initial", M001_INITIAL),
    ("m002_model_calls", M002_MODEL_CALLS),
    ("m003_diagnoses", M003_DIAGNOSES),
    ("m004_episode_date", ("ALTER TABLE episodes ADD COLUMN env_date VARCHAR",)),
    ("m005_sweeps", M005_SWEEPS),
    ("m006_trait_ratings", TRAIT_RATINGS),
]
"""Ordered schema migrations; never edit one that has shipped, add the next."""


def apply_migrations(session: Session) -> None:
    """Apply, in order and in one transaction, every migration the database lacks."""
    session.execute(text(MIGRATIONS_TABLE))
    applied = {row[0] for row in session.execute(text("SELECT name FROM _migrations"))}
    for name, statements in MIGRATIONS:
        if name not in applied:
            for statement in statements:
                session.execute(text(statement))
            session.execute(
                text("INSERT INTO _migrations (name, applied_at) VALUES (:n, :t)"),
                {"n": name, "t": dt.datetime.now(dt.UTC).isoformat(timespec="seconds")},
            )
    session.commit()

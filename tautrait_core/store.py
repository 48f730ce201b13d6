"""The results database: runs and their episodes, in SQLite through SQLModel.

Every finished episode is committed at once (WAL journal), so a run that is killed loses
nothing it finished, and ``--resume`` skips what is stored. Episodes whose outcome is
``error`` are replaced when they are re-run. The schema is created by ordered, named
migrations recorded in ``_migrations`` (``m001_initial``, ...), applied on open.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, Column, UniqueConstraint, event, text
from sqlmodel import Field, Session, SQLModel, create_engine, select

from tautrait_core.errors import RunNotFoundError
from tautrait_core.keys import redact
from tautrait_core.models import (
    EpisodeResult,
    Message,
    ModelCall,
    Outcome,
    RewardInfo,
    RunConfig,
    Usage,
)


class RunRecord(SQLModel, table=True):
    """A run: its configuration, the plugins it ran with, and its status."""

    __tablename__ = "runs"

    id: str = Field(primary_key=True)
    created_at: str
    name: str | None = None
    domain: str
    task_set: str
    agent: str
    agent_model: str | None = None
    user_strategy: str
    user_model: str | None = None
    traits: str
    num_trials: int
    task_ids: list[int] = Field(sa_column=Column(JSON, nullable=False))
    config: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    plugins: dict[str, str] = Field(sa_column=Column(JSON, nullable=False))
    status: str = "running"
    finished_at: str | None = None

    def run_config(self) -> RunConfig:
        """The stored configuration as a :class:`RunConfig`."""
        return RunConfig.model_validate(self.config)


class EpisodeRecord(SQLModel, table=True):
    """One finished episode of a run."""

    __tablename__ = "episodes"
    __table_args__ = (UniqueConstraint("run_id", "task_id", "trial"),)

    id: int | None = Field(default=None, primary_key=True)
    run_id: str = Field(foreign_key="runs.id", index=True)
    task_id: int
    trial: int
    outcome: str
    reward: float
    termination: str
    reward_info: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    messages: list[dict[str, Any]] = Field(sa_column=Column(JSON, nullable=False))
    error: str | None = None
    agent_usage: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    user_usage: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    calls: list[dict[str, Any]] | None = Field(default=None, sa_column=Column(JSON))
    cost: float | None = None
    steps: int
    duration_s: float
    finished_at: str
    env_date: str | None = None
    """ISO date the domain's tools took as today (``None`` before migration m004)."""

    def to_result(self) -> EpisodeResult:
        """The stored episode as an :class:`EpisodeResult`."""
        return EpisodeResult(
            task_id=self.task_id,
            trial=self.trial,
            outcome=Outcome(self.outcome),
            reward=self.reward,
            termination=self.termination,  # type: ignore[arg-type]
            reward_info=RewardInfo.model_validate(self.reward_info) if self.reward_info else None,
            messages=[Message.model_validate(m) for m in self.messages],
            error=self.error,
            agent_usage=Usage.model_validate(self.agent_usage),
            user_usage=Usage.model_validate(self.user_usage),
            calls=[ModelCall.model_validate(c) for c in self.calls or []],
            steps=self.steps,
            duration_s=self.duration_s,
            env_date=dt.date.fromisoformat(self.env_date) if self.env_date else None,
        )


class DiagnosisRecord(SQLModel, table=True):
    """Why a failed episode failed, as judged by a model (``tautrait diagnose``)."""

    __tablename__ = "diagnoses"
    __table_args__ = (UniqueConstraint("run_id", "task_id", "trial"),)

    id: int | None = Field(default=None, primary_key=True)
    run_id: str = Field(foreign_key="runs.id")
    task_id: int
    trial: int
    fault: str
    """``user``, ``agent`` or ``environment``."""
    fault_type: str
    """``goal_partially_completed``, ``wrong_tool``, ``wrong_argument``,
    ``unintended_action`` or ``other``."""
    explanation: str
    model: str
    cost: float | None = None
    created_at: str = ""


class SweepRecord(SQLModel, table=True):
    """A sweep (``tautrait sweep``): its file's settings and the fingerprint of its points."""

    __tablename__ = "sweeps"

    name: str = Field(primary_key=True)
    created_at: str
    fingerprint: str
    """Hash of every point's run settings; a changed file has a different one."""
    spec: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    """``{"base": {...}, "grid": {...}}`` as read from the file."""
    source: str
    """The file the sweep was first run from."""


class SweepPointRecord(SQLModel, table=True):
    """One grid point of a sweep and the run that evaluates it (once started)."""

    __tablename__ = "sweep_points"
    __table_args__ = (UniqueConstraint("sweep", "point_index"),)

    id: int | None = Field(default=None, primary_key=True)
    sweep: str = Field(foreign_key="sweeps.name", index=True)
    point_index: int
    point: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    run_id: str | None = Field(default=None, foreign_key="runs.id")


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

MIGRATIONS: list[tuple[str, tuple[str, ...]]] = [
    ("m001_initial", M001_INITIAL),
    ("m002_model_calls", M002_MODEL_CALLS),
    ("m003_diagnoses", M003_DIAGNOSES),
    ("m004_episode_date", ("ALTER TABLE episodes ADD COLUMN env_date VARCHAR",)),
    ("m005_sweeps", M005_SWEEPS),
]
"""Ordered schema migrations; never edit one that has shipped, add the next."""


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def new_run_id() -> str:
    """A sortable, readable run id: ``20261122-153012-7f3a``."""
    return dt.datetime.now().strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)


def episode_cost(result: EpisodeResult) -> float | None:
    """Dollars spent on both sides (``None`` when a price is unknown)."""
    total = Usage()
    total.add(result.agent_usage)
    total.add(result.user_usage)
    return total.cost


class ResultStore:
    """Runs and episodes in one SQLite file."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.engine = create_engine(f"sqlite:///{self.path}", connect_args={"timeout": 30})
        event.listen(self.engine, "connect", _configure_connection)
        self._migrate()

    def _migrate(self) -> None:
        with Session(self.engine) as session:
            session.execute(text(MIGRATIONS_TABLE))
            applied = {row[0] for row in session.execute(text("SELECT name FROM _migrations"))}
            for name, statements in MIGRATIONS:
                if name not in applied:
                    for statement in statements:
                        session.execute(text(statement))
                    session.execute(
                        text("INSERT INTO _migrations (name, applied_at) VALUES (:n, :t)"),
                        {"n": name, "t": _now()},
                    )
            session.commit()

    @contextmanager
    def session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session:
            yield session

    # -- runs ------------------------------------------------------------------------

    def create_run(
        self, config: RunConfig, task_set: str, task_ids: list[int], plugins: dict[str, str]
    ) -> RunRecord:
        """Record a new run and return it."""
        config = RunConfig.model_validate_json(redact(config.model_dump_json()))
        record = RunRecord(
            id=new_run_id(),
            created_at=_now(),
            name=config.run_name,
            domain=config.domain,
            task_set=task_set,
            agent=config.agent,
            agent_model=config.agent_model,
            user_strategy=config.user,
            user_model=config.user_model,
            traits=config.traits.label(),
            num_trials=config.num_trials,
            task_ids=task_ids,
            config=json.loads(config.model_dump_json()),
            plugins=plugins,
        )
        with self.session() as session:
            session.add(record)
            session.commit()
        return record

    def get_run(self, run_id: str) -> RunRecord:
        """The run ``run_id`` (a unique prefix is enough); ``latest`` is the newest run."""
        with self.session() as session:
            if run_id == "latest":
                found = session.exec(select(RunRecord).order_by(RunRecord.id.desc())).first()  # type: ignore[union-attr]
                if found is None:
                    raise RunNotFoundError(f"no runs yet in {self.path}")
                return found
            exact = session.get(RunRecord, run_id)
            if exact is not None:
                return exact
            matches = session.exec(select(RunRecord).where(RunRecord.id.startswith(run_id))).all()  # type: ignore[union-attr]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise RunNotFoundError(
                f"run id {run_id!r} is ambiguous: {', '.join(m.id for m in matches[:5])}"
            )
        raise RunNotFoundError(
            f"no run {run_id!r} in {self.path}. List runs with: tautrait runs list"
        )

    def list_runs(self) -> list[RunRecord]:
        """All runs, newest first."""
        with self.session() as session:
            return list(session.exec(select(RunRecord).order_by(RunRecord.id.desc())).all())  # type: ignore[union-attr]

    def set_status(self, run_id: str, status: str) -> None:
        """Mark a run ``running``, ``finished``, ``interrupted`` or ``stopped``."""
        with self.session() as session:
            record = session.get(RunRecord, run_id)
            if record is None:
                raise RunNotFoundError(f"no run {run_id!r}")
            record.status = status
            record.finished_at = _now() if status != "running" else None
            session.add(record)
            session.commit()

    # -- episodes --------------------------------------------------------------------

    def save_episode(self, run_id: str, result: EpisodeResult) -> None:
        """Store one finished episode (replacing an earlier ``error`` of the same pair).

        Known API key values are redacted from everything stored.
        """
        result = EpisodeResult.model_validate_json(redact(result.model_dump_json()))
        record = EpisodeRecord(
            run_id=run_id,
            task_id=result.task_id,
            trial=result.trial,
            outcome=result.outcome.value,
            reward=result.reward,
            termination=result.termination.value,
            reward_info=result.reward_info.model_dump() if result.reward_info else None,
            messages=[m.model_dump(exclude_none=True) for m in result.messages],
            error=result.error,
            agent_usage=result.agent_usage.model_dump(),
            user_usage=result.user_usage.model_dump(),
            calls=[call.model_dump() for call in result.calls],
            cost=episode_cost(result),
            steps=result.steps,
            duration_s=result.duration_s,
            finished_at=_now(),
            env_date=result.env_date.isoformat() if result.env_date else None,
        )
        with self.session() as session:
            existing = session.exec(
                select(EpisodeRecord).where(
                    EpisodeRecord.run_id == run_id,
                    EpisodeRecord.task_id == result.task_id,
                    EpisodeRecord.trial == result.trial,
                )
            ).first()
            if existing is not None:
                session.delete(existing)
                session.flush()
            session.add(record)
            session.commit()

    def run_spend(self, run_id: str) -> float:
        """Dollars spent by a run's stored episodes (unknown prices count as 0)."""
        with self.session() as session:
            costs = session.exec(
                select(EpisodeRecord.cost).where(EpisodeRecord.run_id == run_id)
            ).all()
        return sum(cost for cost in costs if cost is not None)

    def finished_pairs(self, run_id: str) -> set[tuple[int, int]]:
        """(task_id, trial) pairs that finished without an infrastructure error."""
        with self.session() as session:
            rows = session.exec(
                select(EpisodeRecord.task_id, EpisodeRecord.trial).where(
                    EpisodeRecord.run_id == run_id, EpisodeRecord.outcome != Outcome.ERROR.value
                )
            ).all()
        return {(task_id, trial) for task_id, trial in rows}

    def episodes(self, run_id: str) -> list[EpisodeResult]:
        """All stored episodes of a run, ordered by trial then task."""
        with self.session() as session:
            records = session.exec(
                select(EpisodeRecord)
                .where(EpisodeRecord.run_id == run_id)
                .order_by(EpisodeRecord.trial, EpisodeRecord.task_id)  # type: ignore[arg-type]
            ).all()
        return [record.to_result() for record in records]

    def episode_counts(self, run_id: str) -> dict[str, int]:
        """How many stored episodes of a run passed, failed and errored."""
        with self.session() as session:
            rows = session.exec(
                select(EpisodeRecord.outcome).where(EpisodeRecord.run_id == run_id)
            ).all()
        counts = {outcome.value: 0 for outcome in Outcome}
        for outcome in rows:
            counts[outcome] = counts.get(outcome, 0) + 1
        return counts

    # -- diagnoses -------------------------------------------------------------------

    def save_diagnosis(self, diagnosis: DiagnosisRecord) -> None:
        """Store a diagnosis, replacing an earlier one of the same episode."""
        with self.session() as session:
            existing = session.exec(
                select(DiagnosisRecord).where(
                    DiagnosisRecord.run_id == diagnosis.run_id,
                    DiagnosisRecord.task_id == diagnosis.task_id,
                    DiagnosisRecord.trial == diagnosis.trial,
                )
            ).first()
            if existing is not None:
                session.delete(existing)
                session.flush()
            diagnosis.created_at = diagnosis.created_at or _now()
            session.add(diagnosis)
            session.commit()

    def diagnoses(self, run_id: str) -> list[DiagnosisRecord]:
        """The stored diagnoses of a run, ordered by trial then task."""
        with self.session() as session:
            return list(
                session.exec(
                    select(DiagnosisRecord)
                    .where(DiagnosisRecord.run_id == run_id)
                    .order_by(DiagnosisRecord.trial, DiagnosisRecord.task_id)  # type: ignore[arg-type]
                ).all()
            )

    # -- sweeps ----------------------------------------------------------------------

    def get_sweep(self, name: str) -> SweepRecord | None:
        """The sweep stored under ``name``, if any."""
        with self.session() as session:
            return session.get(SweepRecord, name)

    def create_sweep(
        self,
        name: str,
        fingerprint: str,
        spec: dict[str, Any],
        source: str,
        points: list[dict[str, Any]],
    ) -> SweepRecord:
        """Record a new sweep and its points (not yet linked to runs), in one transaction."""
        record = SweepRecord(
            name=name, created_at=_now(), fingerprint=fingerprint, spec=spec, source=source
        )
        with self.session() as session:
            session.add(record)
            session.flush()
            for index, point in enumerate(points):
                session.add(SweepPointRecord(sweep=name, point_index=index, point=point))
            session.commit()
        return record

    def sweep_runs(self, name: str) -> dict[int, str]:
        """``{point index: run id}`` for the points of a sweep that have a run."""
        with self.session() as session:
            rows = session.exec(
                select(SweepPointRecord.point_index, SweepPointRecord.run_id).where(
                    SweepPointRecord.sweep == name
                )
            ).all()
        return {index: run_id for index, run_id in rows if run_id is not None}

    def link_sweep_point(self, name: str, index: int, run_id: str) -> None:
        """Record that point ``index`` of sweep ``name`` is evaluated by run ``run_id``."""
        with self.session() as session:
            point = session.exec(
                select(SweepPointRecord).where(
                    SweepPointRecord.sweep == name, SweepPointRecord.point_index == index
                )
            ).one()
            point.run_id = run_id
            session.add(point)
            session.commit()


def _configure_connection(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()

"""The tables of the results database, as SQLModel classes: runs, episodes, diagnoses,
trait ratings, sweeps and sweep points, and the leases of runs being written.

The schema itself is created by the migrations in :mod:`tautrait_core.store.migrations`;
a test checks that both describe the same columns.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, Column, UniqueConstraint, literal_column
from sqlalchemy.sql.elements import UnaryExpression
from sqlmodel import Field, SQLModel, col

from tautrait_core.config.run_config import RunConfig
from tautrait_core.types.messages import Message
from tautrait_core.types.result import EpisodeResult, Outcome
from tautrait_core.types.reward import RewardInfo
from tautrait_core.types.usage import ModelCall, Usage


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


def newest_runs_first() -> tuple[UnaryExpression[Any], ...]:
    """The order that lists runs newest first: by creation time, then (for runs created in
    the same second) the later insertion first, so a listing never shuffles."""
    return (col(RunRecord.created_at).desc(), literal_column("runs.rowid").desc())


class EpisodeKeyColumns(SQLModel):
    """The columns that tie a row to one episode of a run: the row's own id and the
    episode's key (run, task, trial). Episodes, their diagnoses and their trait ratings
    have them, in this order, as their first columns."""

    id: int | None = Field(default=None, primary_key=True)
    run_id: str = Field(foreign_key="runs.id", index=True)
    task_id: int
    trial: int


class EpisodeRecord(EpisodeKeyColumns, table=True):
    """One finished episode of a run."""

    __tablename__ = "episodes"
    __table_args__ = (UniqueConstraint("run_id", "task_id", "trial"),)

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


class DiagnosisRecord(EpisodeKeyColumns, table=True):
    """Why a failed episode failed, as judged by a model (``tautrait diagnose``)."""

    __tablename__ = "diagnoses"
    __table_args__ = (UniqueConstraint("run_id", "task_id", "trial"),)

    run_id: str = Field(foreign_key="runs.id")
    """Not indexed here (migration m003 made no index on it)."""
    fault: str
    """``user``, ``agent`` or ``environment``."""
    fault_type: str
    """``goal_partially_completed``, ``wrong_tool``, ``wrong_argument``,
    ``unintended_action`` or ``other``."""
    explanation: str
    model: str
    cost: float | None = None
    created_at: str = ""


class TraitRatingRecord(EpisodeKeyColumns, table=True):
    """How strongly one user turn showed one trait, as rated by a judge model
    (``tautrait traits audit``)."""

    __tablename__ = "trait_ratings"
    __table_args__ = (UniqueConstraint("run_id", "task_id", "trial", "turn", "trait", "model"),)

    turn: int
    """Position of the rated message among the episode's user turns (0 is the first)."""
    turns: int
    """How many user turns the episode has (to place ``turn`` early or late)."""
    trait: str
    rating: int
    """0 (not shown), 1 (somewhat) or 2 (strongly)."""
    reason: str
    model: str
    cost: float | None = None
    """This rating's share of the judge call that rated the turn on every trait."""
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


class RunLeaseRecord(SQLModel, table=True):
    """The process writing a run (see :mod:`tautrait_core.store.leases`)."""

    __tablename__ = "run_leases"

    run_id: str = Field(primary_key=True, foreign_key="runs.id")
    pid: int
    host: str
    acquired_at: str
    expires_at: float
    """Unix time after which the lease counts as abandoned unless renewed."""

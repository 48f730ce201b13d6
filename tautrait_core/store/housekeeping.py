"""Keeping the results database tidy: choosing runs to list, deleting a run, and adding
trials to a stored run.

A run is deleted under its lease (see :mod:`tautrait_core.store.leases`), so a run that a
live process is writing is never deleted from under it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlmodel import col, delete, select, update

from tautrait_core.errors import RunBusyError
from tautrait_core.store.results import ResultStore
from tautrait_core.store.tables import (
    DiagnosisRecord,
    EpisodeRecord,
    RunLeaseRecord,
    RunRecord,
    SweepPointRecord,
    TraitRatingRecord,
    newest_runs_first,
)


@dataclass(frozen=True)
class RunFilter:
    """Which stored runs to list: at most ``limit`` of the newest, of one ``domain``,
    created at or after ``since`` (UTC); ``None`` leaves a criterion out."""

    limit: int | None = None
    domain: str | None = None
    since: dt.datetime | None = None


def find_runs(store: ResultStore, chosen: RunFilter) -> list[RunRecord]:
    """The runs ``chosen`` selects, newest first."""
    statement = select(RunRecord).order_by(*newest_runs_first())
    if chosen.domain is not None:
        statement = statement.where(RunRecord.domain == chosen.domain)
    if chosen.since is not None:
        since = chosen.since.replace(tzinfo=chosen.since.tzinfo or dt.UTC)
        statement = statement.where(col(RunRecord.created_at) >= since.isoformat())
    if chosen.limit is not None:
        statement = statement.limit(chosen.limit)
    with store.session() as session:
        records = store.records(session, statement)
    return store.with_live_status(records)


@dataclass(frozen=True)
class DeletedRun:
    """What :func:`delete_run` removed."""

    run: RunRecord
    episodes: int
    sweep_points: int
    """Sweep points that named the run: they have no run now (the sweep starts a new one)."""


def delete_run(store: ResultStore, run_id: str) -> DeletedRun:
    """Delete a run with its episodes, diagnoses and trait ratings, in one transaction.

    Raises:
        RunNotFoundError: no such run.
        RunBusyError: a live process is writing the run.
    """
    record = store.get_run(run_id)
    lease = store.lease(record.id)
    try:
        lease.acquire()
    except RunBusyError as exc:
        raise RunBusyError(
            f"run {record.id} is running, so it was not deleted: stop it first (Ctrl-C) "
            f"or wait for it to finish ({exc})"
        ) from exc
    try:
        with store.session() as session:
            episodes = len(
                session.exec(
                    select(EpisodeRecord.id).where(EpisodeRecord.run_id == record.id)
                ).all()
            )
            points = store.records(
                session, select(SweepPointRecord).where(SweepPointRecord.run_id == record.id)
            )
            for point in points:
                point.run_id = None
                session.add(point)
            for table in (TraitRatingRecord, DiagnosisRecord, EpisodeRecord, RunLeaseRecord):
                session.exec(delete(table).where(col(table.run_id) == record.id))  # type: ignore[call-overload]
            session.exec(delete(RunRecord).where(col(RunRecord.id) == record.id))  # type: ignore[call-overload]
            session.commit()
    finally:
        lease.release()
    return DeletedRun(run=record, episodes=episodes, sweep_points=len(points))


def add_trials(store: ResultStore, record: RunRecord, num_trials: int) -> RunRecord:
    """Record that the run of ``record`` now has ``num_trials`` trials of each task, more
    than it had (its stored episodes stay as they are); the updated record is returned."""
    config = {**record.config, "num_trials": num_trials}
    with store.session() as session:
        session.exec(
            update(RunRecord)  # type: ignore[call-overload]
            .where(col(RunRecord.id) == record.id)
            .values(num_trials=num_trials, config=config)
        )
        session.commit()
    return store.get_run(record.id)

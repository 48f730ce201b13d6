"""Keeping the results database tidy: deleting a run, and adding trials to a stored run.

A run is deleted under its lease (see :mod:`tautrait_core.store.leases`), so a run that a
live process is writing is never deleted from under it.
"""

from __future__ import annotations

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
)


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

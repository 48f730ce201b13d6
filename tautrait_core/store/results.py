"""The results database: runs and their episodes, in SQLite through SQLModel.

Every finished episode is committed at once (WAL journal), so a run that is killed loses
nothing it finished, and ``--resume`` skips what is stored. Episodes whose outcome is
``error`` are replaced when they are re-run; an ``error`` never replaces a scored episode.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlmodel import Session, col, select

from tautrait_core.config.run_config import RunConfig
from tautrait_core.errors import RunNotFoundError
from tautrait_core.store.database_file import check_results_database
from tautrait_core.store.engine import results_engine
from tautrait_core.store.leases import STALE_STATUS, RunLease, is_live
from tautrait_core.store.migrations import apply_migrations
from tautrait_core.store.rows import episode_record, now, run_record
from tautrait_core.store.run_names import only_run_of_sweep
from tautrait_core.store.sqlite_failures import checked_records
from tautrait_core.store.tables import (
    DiagnosisRecord,
    EpisodeRecord,
    RunLeaseRecord,
    RunRecord,
    SweepPointRecord,
    SweepRecord,
    TraitRatingRecord,
    newest_runs_first,
)
from tautrait_core.types.result import EpisodeResult, Outcome

if TYPE_CHECKING:
    from sqlmodel.sql.expression import SelectOfScalar

T = TypeVar("T")


@dataclass(frozen=True)
class RunFilter:
    """Which stored runs to list: at most ``limit`` of the newest, of one ``domain``,
    created at or after ``since`` (UTC); ``None`` leaves a criterion out."""

    limit: int | None = None
    domain: str | None = None
    since: dt.datetime | None = None


class ResultStore:
    """Runs and episodes in one SQLite file.

    Opening checks the file first (:func:`check_results_database`): a file that is not a
    tautrait results database, or a missing one with ``must_exist``, is a
    :class:`~tautrait_core.errors.StorageError`, and so is any operation on a database that
    another program keeps locked for longer than
    :data:`~tautrait_core.store.database_file.BUSY_TIMEOUT_S`, on a full disk, or damaged
    inside its pages (:mod:`~tautrait_core.store.sqlite_failures`).
    """

    def __init__(self, path: Path | str, *, must_exist: bool = False) -> None:
        self.path = Path(path)
        check_results_database(self.path, must_exist=must_exist)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.engine = results_engine(self.path)
        with Session(self.engine) as session:
            apply_migrations(session)

    @contextmanager
    def session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session:
            yield session

    def records(self, session: Session, statement: SelectOfScalar[T]) -> list[T]:
        """The whole rows ``statement`` selects; a row that a damaged page left without
        its primary key is the damaged-file error (see :func:`checked_records`)."""
        return checked_records(self.path, session.exec(statement).all())

    # -- runs ------------------------------------------------------------------------

    def create_run(
        self, config: RunConfig, task_set: str, task_ids: list[int], plugins: dict[str, str]
    ) -> RunRecord:
        """Record a new run and return it."""
        record = run_record(config, task_set, task_ids, plugins)
        with self.session() as session:
            session.add(record)
            session.commit()
        return record

    def import_run(
        self,
        config: RunConfig,
        task_set: str,
        task_ids: list[int],
        plugins: dict[str, str],
        results: list[EpisodeResult],
        status: str,
    ) -> RunRecord:
        """Store a finished run and all its episodes in one transaction (all or nothing).

        Of results repeating a (task, trial) pair the last one is kept.
        """
        record = run_record(config, task_set, task_ids, plugins)
        record.status, record.finished_at = status, now()
        latest = {(result.task_id, result.trial): result for result in results}
        with self.session() as session:
            session.add(record)
            session.flush()
            for result in latest.values():
                session.add(episode_record(record.id, result))
            session.commit()
        return record

    def get_run(self, run_id: str) -> RunRecord:
        """The run ``run_id`` (a unique prefix is enough), or the run named ``run_id``
        (``--name``; a sweep names its runs ``SWEEP/POINT``), or the only run of the sweep
        named ``run_id``; ``latest`` is the newest run."""
        with self.session() as session:
            if run_id == "latest":
                newest = self.records(
                    session, select(RunRecord).order_by(*newest_runs_first()).limit(1)
                )
                if not newest:
                    raise RunNotFoundError(f"no runs yet in {self.path}")
                return self.with_live_status(newest)[0]
            exact = session.get(RunRecord, run_id)
            if exact is not None:
                return self.with_live_status([exact])[0]
            matches = self.records(
                session, select(RunRecord).where(RunRecord.id.startswith(run_id))
            )  # type: ignore[union-attr]
            if not matches:
                matches = self.records(session, select(RunRecord).where(RunRecord.name == run_id))
        if len(matches) == 1:
            return self.with_live_status(matches)[0]
        if matches:
            raise RunNotFoundError(
                f"run id or name {run_id!r} is ambiguous: "
                f"{', '.join(m.id for m in matches[:5])}; give one of these ids"
            )
        sweep_run = only_run_of_sweep(self, run_id)
        if sweep_run is not None:
            return sweep_run
        raise RunNotFoundError(
            f"no run {run_id!r} in {self.path}. List runs with: tautrait runs list"
        )

    def list_runs(self, chosen: RunFilter | None = None) -> list[RunRecord]:
        """The runs ``chosen`` selects (all of them when ``None``), newest first."""
        statement = select(RunRecord).order_by(*newest_runs_first())
        chosen = chosen or RunFilter()
        if chosen.domain is not None:
            statement = statement.where(RunRecord.domain == chosen.domain)
        if chosen.since is not None:
            since = chosen.since.replace(tzinfo=chosen.since.tzinfo or dt.UTC)
            statement = statement.where(col(RunRecord.created_at) >= since.isoformat())
        if chosen.limit is not None:
            statement = statement.limit(chosen.limit)
        with self.session() as session:
            records = self.records(session, statement)
        return self.with_live_status(records)

    def with_live_status(self, records: list[RunRecord]) -> list[RunRecord]:
        """The records, with status ``stale`` for runs marked ``running`` that no live
        process holds (killed, or gone without a word); the stored status is unchanged."""
        running = [record for record in records if record.status == "running"]
        if not running:
            return records
        with self.session() as session:
            leases = session.exec(
                select(RunLeaseRecord).where(
                    RunLeaseRecord.run_id.in_([record.id for record in running])  # type: ignore[attr-defined]
                )
            ).all()
        live = {
            lease.run_id for lease in leases if is_live(lease.pid, lease.host, lease.expires_at)
        }
        for record in running:
            if record.id not in live:
                record.status = STALE_STATUS
        return records

    def lease(self, run_id: str) -> RunLease:
        """A lease on ``run_id`` for this process (enter it to take it; see
        :mod:`tautrait_core.store.leases`)."""
        return RunLease(self.path, run_id)

    def set_status(self, run_id: str, status: str) -> None:
        """Mark a run ``running``, ``finished``, ``interrupted`` or ``stopped``."""
        with self.session() as session:
            record = session.get(RunRecord, run_id)
            if record is None:
                raise RunNotFoundError(f"no run {run_id!r}")
            record.status = status
            record.finished_at = now() if status != "running" else None
            session.add(record)
            session.commit()

    # -- episodes --------------------------------------------------------------------

    def save_episode(self, run_id: str, result: EpisodeResult) -> None:
        """Store one finished episode (replacing an earlier ``error`` of the same pair; an
        ``error`` never replaces a scored episode).

        Known API key values are redacted from everything stored.
        """
        record = episode_record(run_id, result)
        with self.session() as session:
            existing = session.exec(
                select(EpisodeRecord).where(
                    EpisodeRecord.run_id == run_id,
                    EpisodeRecord.task_id == result.task_id,
                    EpisodeRecord.trial == result.trial,
                )
            ).first()
            if existing is not None:
                if record.outcome == Outcome.ERROR.value != existing.outcome:
                    return
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
            records = self.records(
                session,
                select(EpisodeRecord)
                .where(EpisodeRecord.run_id == run_id)
                .order_by(EpisodeRecord.trial, EpisodeRecord.task_id),  # type: ignore[arg-type]
            )
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
            _replace_record(session, diagnosis, ("run_id", "task_id", "trial"))
            session.commit()

    def diagnoses(self, run_id: str) -> list[DiagnosisRecord]:
        """The stored diagnoses of a run, ordered by trial then task."""
        with self.session() as session:
            return self.records(
                session,
                select(DiagnosisRecord)
                .where(DiagnosisRecord.run_id == run_id)
                .order_by(DiagnosisRecord.trial, DiagnosisRecord.task_id),  # type: ignore[arg-type]
            )

    # -- trait ratings ---------------------------------------------------------------

    def save_trait_ratings(self, ratings: list[TraitRatingRecord]) -> None:
        """Store ratings in one transaction, replacing earlier ones of the same turn, trait
        and judge model."""
        with self.session() as session:
            for rating in ratings:
                key = ("run_id", "task_id", "trial", "turn", "trait", "model")
                _replace_record(session, rating, key)
            session.commit()

    def trait_ratings(self, run_id: str, model: str | None = None) -> list[TraitRatingRecord]:
        """A run's stored trait ratings (of one judge model, when given), in turn order."""
        statement = select(TraitRatingRecord).where(TraitRatingRecord.run_id == run_id)
        if model is not None:
            statement = statement.where(TraitRatingRecord.model == model)
        order = (
            TraitRatingRecord.model,
            TraitRatingRecord.trial,
            TraitRatingRecord.task_id,
            TraitRatingRecord.turn,
            TraitRatingRecord.id,
        )
        with self.session() as session:
            return self.records(session, statement.order_by(*order))  # type: ignore[arg-type]

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
            name=name, created_at=now(), fingerprint=fingerprint, spec=spec, source=source
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


def _replace_record(
    session: Session, record: DiagnosisRecord | TraitRatingRecord, key: tuple[str, ...]
) -> None:
    """Add ``record`` (stamped with the time, unless it has one) in place of the stored
    record that has the same values in the ``key`` columns, if any."""
    table = type(record)
    same_key = [getattr(table, name) == getattr(record, name) for name in key]
    existing = session.exec(select(table).where(*same_key)).first()
    if existing is not None:
        session.delete(existing)
        session.flush()
    record.created_at = record.created_at or now()
    session.add(record)

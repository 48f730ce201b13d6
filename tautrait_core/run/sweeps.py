"""Running a sweep as one resumable job: every grid point is one run in the results database.

The sweep and its points (point -> run id) are stored in the results database, so running
the same sweep again skips finished runs, resumes unfinished ones and starts missing ones.
A file that changed under a stored name is refused (:class:`SweepError`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from tautrait_core.config.run_config import RunConfig
from tautrait_core.errors import SweepError
from tautrait_core.grading.metrics import RunMetrics, summarize
from tautrait_core.run.control import RunProgress
from tautrait_core.run.runner import execute
from tautrait_core.run.sweep_file import Sweep, SweepPoint, build_sweep
from tautrait_core.store.results import ResultStore
from tautrait_core.store.tables import RunRecord

Action = Literal["start", "resume", "done"]


@dataclass
class PointPlan:
    """What a sweep invocation does with one point."""

    point: SweepPoint
    action: Action
    run_id: str | None = None
    finished: int = 0
    """Episodes of the point's run already finished."""


@dataclass
class PointOutcome:
    """A point after the sweep: its run (if started) and the run's metrics."""

    point: SweepPoint
    run: RunRecord | None
    metrics: RunMetrics | None


@dataclass
class SweepReport:
    """The outcome of :func:`run_sweep`."""

    sweep: Sweep
    results_db: Path
    points: list[PointOutcome]
    interrupted: bool = False
    stop_reasons: list[str] = field(default_factory=list)
    """Why runs stopped before finishing (e.g. their ``max_cost``), one line per run."""
    warnings: list[str] = field(default_factory=list)


class SweepProgress(RunProgress, Protocol):
    """Progress events of a sweep: the whole sweep, then each run's own events."""

    def sweep_started(self, name: str, total: int, already_done: int) -> None: ...

    def point_started(self, plan: PointPlan, position: int, count: int) -> None: ...


def stored_sweep(store: ResultStore, name: str) -> Sweep:
    """The sweep stored under ``name``, validated again (``tautrait sweep --resume NAME``)."""
    record = store.get_sweep(name)
    if record is None:
        raise SweepError(
            f"no sweep {name!r} in {store.path}; start one with: tautrait sweep FILE.toml"
        )
    return build_sweep(name, record.spec["base"], record.spec["grid"], record.source)


def renamed(sweep: Sweep, store: ResultStore) -> Sweep:
    """``sweep`` under the first free name ``NAME-2``, ``NAME-3``, ... (``--new``)."""
    number = 2
    while store.get_sweep(f"{sweep.name}-{number}") is not None:
        number += 1
    return build_sweep(f"{sweep.name}-{number}", sweep.base, sweep.grid, sweep.source)


def plan_sweep(sweep: Sweep, store: ResultStore) -> list[PointPlan]:
    """What running ``sweep`` would do with each point (writes nothing)."""
    record = store.get_sweep(sweep.name)
    if record is None:
        return [PointPlan(point, "start") for point in sweep.points]
    if record.fingerprint != sweep.fingerprint:
        raise SweepError(
            f"sweep {sweep.name!r} in {store.path} was stored from a different grid or "
            f"settings (first run from {record.source}); restore the file, give it another "
            "name (name = ... in the file), or start it over under a new name with --new"
        )
    runs = store.sweep_runs(sweep.name)
    runs.update(_unlinked_runs(sweep, store, runs))
    plans = []
    for point in sweep.points:
        run_id = runs.get(point.index)
        if run_id is None:
            plans.append(PointPlan(point, "start"))
            continue
        finished = len(store.finished_pairs(run_id))
        action: Action = "done" if finished >= point.episodes else "resume"
        plans.append(PointPlan(point, action, run_id, finished))
    return plans


def _unlinked_runs(sweep: Sweep, store: ResultStore, linked: dict[int, str]) -> dict[int, str]:
    """Runs this sweep started but had not linked to their point when it was killed (the
    run is stored first, then linked); recognised by their name and settings."""
    unlinked = {f"{sweep.name}/{p.index}": p for p in sweep.points if p.index not in linked}
    found: dict[int, str] = {}
    if not unlinked:
        return found
    for record in store.list_runs():
        point = unlinked.get(record.name or "")
        if point is not None and record.run_config().settings() == point.config.settings():
            found.setdefault(point.index, record.id)
    return found


def run_sweep(
    sweep: Sweep,
    store: ResultStore,
    progress: SweepProgress | None = None,
    handle_signals: bool = False,
    executor: dict[str, str | None] | None = None,
) -> SweepReport:
    """Run every point that is not finished, in grid order; stop after an interrupted run.

    ``executor`` (``{"executor": "ray", "ray_address": ...}``) applies to every run.
    """
    plans = plan_sweep(sweep, store)
    if store.get_sweep(sweep.name) is None:
        points = [point.values for point in sweep.points]
        store.create_sweep(sweep.name, sweep.fingerprint, sweep.spec, sweep.source, points)
    if progress is not None:
        total = sum(plan.point.episodes for plan in plans)
        progress.sweep_started(sweep.name, total, sum(plan.finished for plan in plans))
    for plan in plans:
        if plan.run_id is not None:
            store.link_sweep_point(sweep.name, plan.point.index, plan.run_id)
    report = SweepReport(sweep, store.path, [])
    pending = [plan for plan in plans if plan.action != "done"]
    for position, plan in enumerate(pending, start=1):
        if progress is not None:
            progress.point_started(plan, position, len(pending))
        run_report = execute(
            _run_config(plan, store, executor or {}),
            progress,
            handle_signals,
            on_created=lambda run, index=plan.point.index: store.link_sweep_point(
                sweep.name, index, run.id
            ),
        )
        report.warnings.extend(w for w in run_report.warnings if w not in report.warnings)
        if run_report.stop_reason:
            report.stop_reasons.append(f"point {plan.point.index}: {run_report.stop_reason}")
        if run_report.run.status == "interrupted":
            report.interrupted = True
            break
    report.points = sweep_outcomes(sweep, store)
    return report


def sweep_outcomes(sweep: Sweep, store: ResultStore) -> list[PointOutcome]:
    """Every point with its run and metrics (``None`` for points not started)."""
    runs = store.sweep_runs(sweep.name)
    outcomes = []
    for point in sweep.points:
        run_id = runs.get(point.index)
        if run_id is None:
            outcomes.append(PointOutcome(point, None, None))
            continue
        metrics = summarize(store.episodes(run_id), max_k=point.config.num_trials)
        outcomes.append(PointOutcome(point, store.get_run(run_id), metrics))
    return outcomes


def _run_config(plan: PointPlan, store: ResultStore, executor: dict[str, str | None]) -> RunConfig:
    update = {"results_db": str(store.path), "resume": plan.run_id}
    update.update({key: value for key, value in executor.items() if value is not None})
    return plan.point.config.with_settings(**update)

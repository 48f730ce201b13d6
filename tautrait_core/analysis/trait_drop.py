"""The trait-drop table of the tau-Trait README, with bootstrap intervals.

Rows are groups of runs (one per domain and agent model, or whatever else separates the
groups), columns are trait mixes, and a cell is the relative change of pass^1 of the run
with that mix against the row's no-trait base run: ``(p_trait - p_base) / p_base``.

Both pass^1 values are taken over the tasks the two runs share (paired by task). The
interval is a percentile bootstrap over tasks: the row's tasks are resampled with
replacement, and on each resample every cell is recomputed over the drawn tasks both of
its runs have, and the row average over the cells. Resampling the same tasks for every
cell of a row keeps the cells and their average paired too. A resample on which a base
never succeeds leaves that cell (and the average) undefined and is left out of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from tautrait_core.analysis.grouping import RunGroup, comparable_settings, trait_sort_key
from tautrait_core.analysis.summary import BootstrapSettings
from tautrait_core.grading.metrics import bootstrap_draws, percentile_interval, task_counts
from tautrait_core.store.tables import RunRecord
from tautrait_core.types.result import EpisodeResult


class TraitDropCell(BaseModel):
    """One run with traits against its base."""

    traits: str
    run_id: str
    pass_hat_1: float | None
    """pass^1 of the run over the paired tasks (``None`` when there are none)."""
    base_pass_hat_1: float | None
    """pass^1 of the base over the same tasks."""
    relative_change: float | None
    """``None`` when the base never succeeds on the paired tasks."""
    low: float | None
    high: float | None
    tasks: int
    """Paired tasks: both runs have at least one scored trial."""
    differences: dict[str, list[Any]] = {}
    """Settings that differ from the base (only with ``--allow-mismatch``)."""


class TraitDropRow(BaseModel):
    """A base run and its cells, one per trait mix."""

    label: str
    base_run_id: str
    base_pass_hat_1: float | None
    cells: list[TraitDropCell]
    average: float | None
    """Mean relative change over the row's cells (the README's Average column)."""
    average_low: float | None
    average_high: float | None


class TraitDropTable(BaseModel):
    """The whole table, with how its intervals were computed."""

    columns: list[str]
    rows: list[TraitDropRow]
    resamples: int
    seed: int
    confidence: float

    def cell(self, row: TraitDropRow, column: str) -> TraitDropCell | None:
        """The cell of ``row`` for the trait mix ``column`` (``None`` if not run)."""
        return next((cell for cell in row.cells if cell.traits == column), None)


def success_rates(results: list[EpisodeResult]) -> dict[int, float]:
    """``{task_id: successes / scored trials}`` (tasks with no scored trial left out)."""
    return {task: c / n for task, (c, n) in task_counts(results).items() if n}


def trait_drop_table(
    groups: list[RunGroup],
    results: dict[str, list[EpisodeResult]],
    bootstrap: BootstrapSettings,
) -> TraitDropTable:
    """Build the table from grouped runs and each run's episodes (by run id)."""
    rates = {run_id: success_rates(episodes) for run_id, episodes in results.items()}
    labels = row_labels([group.base for group in groups])
    rows = sorted(
        (_row(group, labels[group.base.id], rates, bootstrap) for group in groups),
        key=lambda row: row.label,
    )
    mixes = {
        run.record.traits: run.record.run_config().user.traits for g in groups for run in g.runs
    }
    columns = sorted(mixes, key=lambda label: trait_sort_key(mixes[label]))
    return TraitDropTable(
        columns=columns,
        rows=rows,
        resamples=bootstrap.resamples,
        seed=bootstrap.seed,
        confidence=bootstrap.confidence,
    )


def row_labels(bases: Sequence[RunRecord]) -> dict[str, str]:
    """``domain · agent model`` per base run, plus what else tells rows apart when needed."""
    short = {b.id: f"{b.domain} · {b.agent_model or b.agent}" for b in bases}
    settings = {b.id: comparable_settings(b) for b in bases}
    labels = {}
    for base in bases:
        twins = [b for b in bases if short[b.id] == short[base.id]]
        names = sorted(
            {
                name
                for t in twins
                for name in settings[t.id]
                if settings[t.id][name] != settings[base.id][name]
            }
        )
        extra = ", ".join(f"{name}={settings[base.id][name]}" for name in names)
        labels[base.id] = f"{short[base.id]} ({extra})" if extra else short[base.id]
    return labels


def _relative_change(base_sum: float, run_sum: float) -> float | None:
    return None if base_sum == 0 else (run_sum - base_sum) / base_sum


def _row(
    group: RunGroup,
    label: str,
    rates: dict[str, dict[int, float]],
    bootstrap: BootstrapSettings,
) -> TraitDropRow:
    base_rates = rates[group.base.id]
    runs = sorted(group.runs, key=lambda run: trait_sort_key(run.record.run_config().user.traits))
    tasks = sorted(set(base_rates).union(*(rates[run.record.id] for run in runs)))
    paired = [
        [task in base_rates and task in rates[run.record.id] for task in tasks] for run in runs
    ]
    cell_samples: list[list[float]] = [[] for _ in runs]
    average_samples: list[float] = []
    for draw in bootstrap_draws(len(tasks), bootstrap.resamples, bootstrap.seed):
        changes = []
        for position, run in enumerate(runs):
            run_rates = rates[run.record.id]
            drawn = [tasks[i] for i in draw if paired[position][i]]
            change = _relative_change(
                sum(base_rates[t] for t in drawn), sum(run_rates[t] for t in drawn)
            )
            if change is not None:
                cell_samples[position].append(change)
                changes.append(change)
        if changes and len(changes) == len(runs):
            average_samples.append(sum(changes) / len(changes))
    cells = [
        _cell(run.record, run.differences, base_rates, rates[run.record.id], samples, bootstrap)
        for run, samples in zip(runs, cell_samples, strict=True)
    ]
    defined = [cell.relative_change for cell in cells if cell.relative_change is not None]
    average = sum(defined) / len(defined) if defined and len(defined) == len(cells) else None
    average_low, average_high = (
        _interval(average_samples, bootstrap) if average is not None else (None, None)
    )
    return TraitDropRow(
        label=label,
        base_run_id=group.base.id,
        base_pass_hat_1=sum(base_rates.values()) / len(base_rates) if base_rates else None,
        cells=cells,
        average=average,
        average_low=average_low,
        average_high=average_high,
    )


def _cell(
    record: RunRecord,
    differences: dict[str, tuple[Any, Any]],
    base_rates: dict[int, float],
    run_rates: dict[int, float],
    samples: list[float],
    bootstrap: BootstrapSettings,
) -> TraitDropCell:
    shared = sorted(set(base_rates) & set(run_rates))
    base_sum = sum(base_rates[t] for t in shared)
    run_sum = sum(run_rates[t] for t in shared)
    change = _relative_change(base_sum, run_sum) if shared else None
    low, high = _interval(samples, bootstrap) if change is not None else (None, None)
    return TraitDropCell(
        traits=record.traits,
        run_id=record.id,
        pass_hat_1=run_sum / len(shared) if shared else None,
        base_pass_hat_1=base_sum / len(shared) if shared else None,
        relative_change=change,
        low=low,
        high=high,
        tasks=len(shared),
        differences={name: list(pair) for name, pair in differences.items()},
    )


def _interval(
    samples: list[float], bootstrap: BootstrapSettings
) -> tuple[float | None, float | None]:
    if not samples:
        return None, None
    return percentile_interval(samples, bootstrap.confidence)

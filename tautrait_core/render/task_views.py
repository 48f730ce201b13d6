"""The per-task view of a run (``tautrait report --tasks``): which tasks failed, on which
trials, and which parts of the reward those trials missed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import RenderableType

    from tautrait_core.analysis.task_outcomes import TaskOutcome


def trial_list(trials: Sequence[int]) -> str:
    """``0, 2`` (``-`` for none)."""
    return ", ".join(map(str, trials)) or "-"


def counted_parts(failing: dict[str, int]) -> str:
    """``database 2, outputs 1`` (``-`` for none)."""
    return ", ".join(f"{name} {count}" for name, count in failing.items()) or "-"


def task_outcomes_view(outcomes: Sequence[TaskOutcome]) -> list[RenderableType]:
    """A line counting the tasks that passed every trial, then a table of the others:
    passed trials, failed and errored trial numbers, and the missed reward parts (with
    how many failed trials missed each). Fits 80 columns."""
    from rich import box
    from rich.table import Column, Table
    from rich.text import Text

    flawed = [task for task in outcomes if not task.always_passed]
    lines: list[RenderableType] = [
        Text(
            f"Tasks: {len(outcomes)}; {len(outcomes) - len(flawed)} passed every trial, "
            f"{len(flawed)} failed or errored in some"
        )
    ]
    if not flawed:
        return lines
    table = Table(
        Column("task", justify="right", no_wrap=True),
        Column("passed", justify="right", no_wrap=True),
        Column("failed trials", overflow="fold"),
        Column("errored trials", overflow="fold"),
        Column("failing parts (times)", overflow="fold", ratio=1),
        box=box.SIMPLE_HEAD,
    )
    for task in flawed:
        table.add_row(
            str(task.task_id),
            f"{len(task.passed)}/{task.trials}",
            Text(trial_list(task.failed)),
            Text(trial_list(task.errored)),
            Text(counted_parts(task.failing)),
        )
    return [*lines, table]

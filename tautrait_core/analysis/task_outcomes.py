"""A run task by task: which trials passed, failed or errored, and which part of the
reward each failed trial missed (``report --tasks``, ``tautrait view``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tautrait_core.types.result import FINISHED_TERMINATIONS, EpisodeResult, Outcome


def failing_parts(result: EpisodeResult) -> list[str]:
    """The parts of the reward a scored episode missed, in a word each.

    An episode cut short (``max_steps``, ``timeout``, ``agent_error``, ...) names how it
    ended first. Then a τ²-graded episode names its reward components below 1 (``DB``,
    ``COMMUNICATE``, ...) or ``not scoreable``; a τ-bench-graded one ``database`` (its
    final state differs from the gold replay) and ``outputs`` (a required output was never
    said). A passing or errored episode has none.
    """
    info = result.reward_info
    if result.outcome != Outcome.FAIL:
        return []
    ended = [] if result.termination in FINISHED_TERMINATIONS else [result.termination.value]
    if info is None:
        return [*ended, "not scored"]
    if info.reward_basis:
        if info.not_scoreable is not None:
            return [*ended, "not scoreable"]
        breakdown = info.reward_breakdown or {}
        parts = [name for name, reward in breakdown.items() if reward < 1.0]
    else:
        parts = [] if info.r_actions else ["database"]
        if info.r_outputs is False or not all(info.outputs.values()):
            parts.append("outputs")
    return [*ended, *parts] or [result.termination.value]


@dataclass
class TaskOutcome:
    """One task's trials of a run.

    Attributes:
        passed / failed / errored: The trial numbers of each outcome (errored: an
            infrastructure error, not counted as a failure).
        failing: How many failed trials missed each part of the reward (see
            :func:`failing_parts`), most first.
    """

    task_id: int
    passed: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    errored: list[int] = field(default_factory=list)
    failing: dict[str, int] = field(default_factory=dict)

    @property
    def trials(self) -> int:
        """How many trials of the task are stored."""
        return len(self.passed) + len(self.failed) + len(self.errored)

    @property
    def always_passed(self) -> bool:
        """Whether every stored trial passed."""
        return not self.failed and not self.errored

    def as_json(self) -> dict[str, Any]:
        """The outcome as a JSON object (``report --tasks --json``)."""
        return {
            "task_id": self.task_id,
            "trials": self.trials,
            "passed": self.passed,
            "failed": self.failed,
            "errored": self.errored,
            "failing_parts": self.failing,
        }


def task_outcomes(results: Sequence[EpisodeResult]) -> list[TaskOutcome]:
    """Every task of ``results`` with its trials by outcome, in task order."""
    tasks: dict[int, TaskOutcome] = {}
    parts: dict[int, Counter[str]] = {}
    for result in sorted(results, key=lambda r: (r.task_id, r.trial)):
        task = tasks.setdefault(result.task_id, TaskOutcome(result.task_id))
        if result.outcome == Outcome.PASS:
            task.passed.append(result.trial)
        elif result.outcome == Outcome.FAIL:
            task.failed.append(result.trial)
            parts.setdefault(result.task_id, Counter()).update(failing_parts(result))
        else:
            task.errored.append(result.trial)
    for task_id, counts in parts.items():
        tasks[task_id].failing = dict(counts.most_common())  # ties: as first met (endings first)
    return list(tasks.values())

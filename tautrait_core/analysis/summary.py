"""What ``tautrait report`` says about one run: metrics, pass^k intervals, errors, diagnoses."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tautrait_core.grading.metrics import (
    DEFAULT_BOOTSTRAP_SEED,
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    PassHatKInterval,
    RunMetrics,
    pass_hat_k_intervals,
    summarize,
)
from tautrait_core.store.results import ResultStore
from tautrait_core.store.tables import DiagnosisRecord, RunRecord
from tautrait_core.types.result import EpisodeResult, Outcome


@dataclass(frozen=True)
class BootstrapSettings:
    """How confidence intervals are computed (see :mod:`tautrait_core.grading.metrics`)."""

    resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_BOOTSTRAP_SEED
    confidence: float = DEFAULT_CONFIDENCE


@dataclass
class RunSummary:
    """One run with its episodes and everything a report shows about it."""

    record: RunRecord
    results: list[EpisodeResult]
    metrics: RunMetrics
    intervals: list[PassHatKInterval]
    diagnoses: list[DiagnosisRecord] = field(default_factory=list)

    @property
    def failed(self) -> int:
        """Episodes that were scored and did not pass."""
        return sum(1 for r in self.results if r.outcome is Outcome.FAIL)

    @property
    def missing(self) -> int:
        """Episodes the run's configuration asks for that are not stored yet."""
        return max(len(self.record.task_ids) * self.record.num_trials - len(self.results), 0)

    def errors(self) -> list[dict[str, Any]]:
        """The infrastructure errors: task, trial, termination and message."""
        return [
            {
                "task_id": r.task_id,
                "trial": r.trial,
                "termination": r.termination.value,
                "error": r.error,
            }
            for r in self.results
            if r.outcome is Outcome.ERROR
        ]

    def diagnosis_counts(self) -> dict[str, Any]:
        """How many failed episodes are diagnosed, counted by fault and by fault type."""
        return {
            "diagnosed": len(self.diagnoses),
            "failed": self.failed,
            "fault": _by_count(Counter(d.fault for d in self.diagnoses)),
            "fault_type": _by_count(Counter(d.fault_type for d in self.diagnoses)),
        }

    def as_json(self, bootstrap: BootstrapSettings) -> dict[str, Any]:
        """The JSON form of ``tautrait report --json`` for this run."""
        return {
            "run": self.record.model_dump(exclude={"config"}),
            "config": self.record.config,
            "metrics": self.metrics.model_dump(),
            "pass_hat_k_intervals": [interval.model_dump() for interval in self.intervals],
            "bootstrap": {
                "method": "percentile bootstrap over tasks",
                "resamples": bootstrap.resamples,
                "seed": bootstrap.seed,
                "confidence": bootstrap.confidence,
            },
            "errors": self.errors(),
            "diagnoses": self.diagnosis_counts(),
        }


def _by_count(counter: Counter[str]) -> dict[str, int]:
    return dict(sorted(counter.items(), key=lambda item: (-item[1], item[0])))


def summarize_run(
    store: ResultStore, record: RunRecord, bootstrap: BootstrapSettings
) -> RunSummary:
    """Load a run's episodes and diagnoses and compute its metrics and intervals."""
    from tautrait_core.interchange.result_files import task_set_rules

    results = store.episodes(record.id)
    rules = task_set_rules(record.domain, record.task_set)
    metrics = summarize(results, max_k=record.num_trials, rules=rules)
    return RunSummary(
        record=record,
        results=results,
        metrics=metrics,
        intervals=pass_hat_k_intervals(
            results,
            max_k=len(metrics.pass_hat_k) if rules == "tau3" else record.num_trials,
            resamples=bootstrap.resamples,
            seed=bootstrap.seed,
            confidence=bootstrap.confidence,
        ),
        diagnoses=store.diagnoses(record.id),
    )

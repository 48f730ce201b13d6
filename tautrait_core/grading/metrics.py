"""Run metrics: average reward and pass^k (tau-bench's pass-hat-k).

``pass^k = mean over tasks of C(c, k) / C(n, k)``, where a task has ``n`` scored trials
of which ``c`` succeeded. Episodes with outcome ``error`` (infrastructure failures) are not
scored: they are counted separately and left out of both the average and pass^k. When
errors leave a task with fewer than ``k`` scored trials, that task is left out of pass^k
for that ``k`` and the number of tasks counted is reported with it.

A task set with τ³'s rules (τ²-bench v1.x) lowers the largest k as τ³ does: to the
smallest number of scored trials of any task that has one, so one infrastructure error in
one task shortens pass^k for the whole run (:func:`tau3_max_k`).

Confidence intervals are percentile bootstrap intervals over tasks: the tasks a value
averages over are resampled with replacement (``DEFAULT_RESAMPLES`` times, from a seeded
generator, so a report is reproducible), the value is recomputed on every resample, and
the interval is the central ``confidence`` share of those values. Trials stay with their
task, so the interval reflects how much the value depends on which tasks were drawn.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from math import comb

from pydantic import BaseModel

from tautrait_core.types.result import EpisodeResult, Outcome, Termination
from tautrait_core.types.usage import Usage

SUCCESS_TOLERANCE = 1e-6
DEFAULT_RESAMPLES = 2000
DEFAULT_CONFIDENCE = 0.95
DEFAULT_BOOTSTRAP_SEED = 0


def is_success(reward: float) -> bool:
    """Whether a reward counts as a success (1 within floating-point tolerance)."""
    return abs(reward - 1.0) <= SUCCESS_TOLERANCE


class PassHatK(BaseModel):
    """pass^k for one k, and how many tasks it averages over."""

    k: int
    value: float | None
    """``None`` when no task has ``k`` scored trials (there is nothing to average)."""
    tasks: int


NOT_SCOREABLE = "not scoreable"
"""How the error of an episode that needs a judge model to be graded begins."""


class RunMetrics(BaseModel):
    """What ``tautrait report`` shows for a run."""

    episodes: int
    scored: int
    errors: int
    tasks: int
    average_reward: float | None
    pass_hat_k: list[PassHatK]
    cost: float | None
    """Dollars for both sides; ``None`` when some call had no known price."""
    agent_usage: Usage
    user_usage: Usage
    cached_calls: int = 0
    """Model calls answered from the response cache (``--cache``), at no cost."""
    agent_errors: int = 0
    """Scored episodes the agent ended by failing (``agent_error``: it raised, or a remote
    agent timed out or answered badly); each counts reward 0."""
    rules: str = "tau2"
    """``"tau3"`` when the largest k was lowered as τ³ lowers it (:func:`tau3_max_k`)."""
    not_scoreable: int = 0
    """Of the errors, episodes that ran but cannot be graded without a judge model (their
    task's basis holds NL_ASSERTION): ``--resume`` with ``--judge-model`` scores them."""


def task_counts(results: Iterable[EpisodeResult]) -> dict[int, tuple[int, int]]:
    """``{task_id: (successes, scored trials)}`` over the non-error episodes."""
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for result in results:
        if result.outcome is Outcome.ERROR:
            continue
        entry = counts[result.task_id]
        entry[0] += is_success(result.reward)
        entry[1] += 1
    return {task: (c, n) for task, (c, n) in counts.items()}


def pass_hat_k(counts: dict[int, tuple[int, int]], k: int) -> PassHatK:
    """pass^k over the tasks that have at least ``k`` scored trials."""
    eligible = [(c, n) for c, n in counts.values() if n >= k]
    if not eligible:
        return PassHatK(k=k, value=None, tasks=0)
    value = sum(comb(c, k) / comb(n, k) for c, n in eligible) / len(eligible)
    return PassHatK(k=k, value=value, tasks=len(eligible))


def tau3_max_k(results: Iterable[EpisodeResult], num_trials: int) -> int:
    """τ³'s largest k: ``num_trials`` lowered to the fewest scored trials of any task that
    has a scored trial (infrastructure errors left out)."""
    counts = task_counts(results)
    return min([num_trials, *(n for _, n in counts.values())]) if counts else 0


def summarize(
    results: list[EpisodeResult], max_k: int | None = None, rules: str = "tau2"
) -> RunMetrics:
    """Metrics of a list of episodes; pass^k for k = 1..max_k (default: most trials),
    with τ³'s ``rules`` for k = 1..:func:`tau3_max_k`."""
    scored = [r for r in results if r.outcome is not Outcome.ERROR]
    counts = task_counts(results)
    if rules == "tau3":
        most = max((n for _, n in counts.values()), default=0)
        max_k = tau3_max_k(results, max_k if max_k is not None else most)
    top_k = max_k if max_k is not None else max((n for _, n in counts.values()), default=0)
    agent_usage, user_usage = Usage(), Usage()
    for result in results:
        agent_usage.add(result.agent_usage)
        user_usage.add(result.user_usage)
    total = Usage()
    total.add(agent_usage)
    total.add(user_usage)
    return RunMetrics(
        episodes=len(results),
        scored=len(scored),
        errors=len(results) - len(scored),
        tasks=len({r.task_id for r in results}),
        average_reward=sum(r.reward for r in scored) / len(scored) if scored else None,
        pass_hat_k=[pass_hat_k(counts, k) for k in range(1, top_k + 1)],
        cost=total.cost,
        agent_usage=agent_usage,
        user_usage=user_usage,
        cached_calls=sum(call.cached for result in results for call in result.calls),
        agent_errors=sum(r.termination is Termination.AGENT_ERROR for r in scored),
        not_scoreable=sum((r.error or "").startswith(NOT_SCOREABLE) for r in results),
        rules=rules,
    )


class PassHatKInterval(BaseModel):
    """pass^k with its bootstrap confidence interval over tasks."""

    k: int
    value: float | None
    """``None`` (and so are the bounds) when no task has ``k`` scored trials."""
    tasks: int
    low: float | None
    high: float | None


def bootstrap_draws(count: int, resamples: int, seed: int) -> list[list[int]]:
    """``resamples`` lists of ``count`` indices into ``range(count)``, drawn with replacement."""
    rng = random.Random(seed)
    population = range(count)
    return [rng.choices(population, k=count) for _ in range(resamples)]


def percentile_interval(samples: Sequence[float], confidence: float) -> tuple[float, float]:
    """The central ``confidence`` share of ``samples`` (linear interpolation between ranks)."""
    if not samples:
        raise ValueError("no samples to take an interval of")
    ordered = sorted(samples)
    tail = (1.0 - confidence) / 2.0
    return _quantile(ordered, tail), _quantile(ordered, 1.0 - tail)


def _quantile(ordered: list[float], q: float) -> float:
    position = q * (len(ordered) - 1)
    lower = int(position)
    upper = min(lower + 1, len(ordered) - 1)
    return ordered[lower] + (ordered[upper] - ordered[lower]) * (position - lower)


def pass_hat_k_intervals(
    results: list[EpisodeResult],
    max_k: int | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
) -> list[PassHatKInterval]:
    """pass^k for k = 1..max_k, each with a bootstrap interval over its eligible tasks."""
    counts = task_counts(results)
    top_k = max_k if max_k is not None else max((n for _, n in counts.values()), default=0)
    intervals = []
    for k in range(1, top_k + 1):
        per_task = [comb(c, k) / comb(n, k) for _, (c, n) in sorted(counts.items()) if n >= k]
        point = pass_hat_k(counts, k)
        if not per_task:
            intervals.append(PassHatKInterval(k=k, value=None, tasks=0, low=None, high=None))
            continue
        samples = [
            sum(per_task[i] for i in draw) / len(draw)
            for draw in bootstrap_draws(len(per_task), resamples, seed)
        ]
        low, high = percentile_interval(samples, confidence)
        intervals.append(
            PassHatKInterval(k=k, value=point.value, tasks=point.tasks, low=low, high=high)
        )
    return intervals

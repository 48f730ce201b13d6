"""pass^k under τ³'s rules: infrastructure errors are left out and the largest k is lowered
to the fewest scored trials of any task, for the whole run; the fork's rules keep every k
and leave out only the tasks short of trials."""

from __future__ import annotations

from tautrait_core.grading.metrics import summarize, tau3_max_k
from tautrait_core.types.result import EpisodeResult, Outcome, Termination


def _episode(task_id: int, trial: int, outcome: Outcome) -> EpisodeResult:
    reward = 1.0 if outcome is Outcome.PASS else 0.0
    return EpisodeResult(
        task_id=task_id,
        trial=trial,
        outcome=outcome,
        reward=reward,
        termination=Termination.USER_STOP,
    )


RESULTS = [
    *(_episode(0, trial, Outcome.PASS) for trial in range(4)),
    *(_episode(1, trial, Outcome.PASS) for trial in range(3)),
    _episode(1, 3, Outcome.ERROR),  # one infrastructure error in task 1
    *(_episode(2, trial, Outcome.ERROR) for trial in range(4)),  # task 2: all errors
]


def test_tau3_lowers_the_largest_k_for_the_whole_run() -> None:
    assert tau3_max_k(RESULTS, 4) == 3
    metrics = summarize(RESULTS, max_k=4, rules="tau3")
    assert [entry.k for entry in metrics.pass_hat_k] == [1, 2, 3]
    assert all(entry.tasks == 2 and entry.value == 1.0 for entry in metrics.pass_hat_k)
    assert (metrics.errors, metrics.scored, metrics.rules) == (5, 7, "tau3")


def test_the_forks_rules_keep_every_k() -> None:
    metrics = summarize(RESULTS, max_k=4)
    assert [(entry.k, entry.tasks) for entry in metrics.pass_hat_k] == [
        (1, 2),
        (2, 2),
        (3, 2),
        (4, 1),
    ]

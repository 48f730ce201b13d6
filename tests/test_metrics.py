"""pass^k and the treatment of infrastructure errors."""

from __future__ import annotations

from math import comb

from tautrait_core.grading.metrics import summarize
from tautrait_core.types.result import EpisodeResult, Outcome, Termination
from tautrait_core.types.usage import Usage


def episode(
    task: int, trial: int, reward: float, outcome: Outcome | None = None, cost: float | None = 0.01
) -> EpisodeResult:
    return EpisodeResult(
        task_id=task,
        trial=trial,
        outcome=outcome or (Outcome.PASS if reward == 1 else Outcome.FAIL),
        reward=reward,
        termination=Termination.USER_STOP,
        agent_usage=Usage(calls=1, cost=cost),
    )


def test_pass_hat_k_is_the_mean_of_combination_ratios() -> None:
    # task 0: 3/4 successes, task 1: 1/4, task 2: 4/4
    rewards = {0: [1, 1, 0, 1], 1: [0, 0, 1, 0], 2: [1, 1, 1, 1]}
    results = [episode(t, i, r) for t, rs in rewards.items() for i, r in enumerate(rs)]
    metrics = summarize(results)
    for k in range(1, 5):
        expected = (comb(3, k) + comb(1, k) + comb(4, k)) / comb(4, k) / 3
        assert abs(metrics.pass_hat_k[k - 1].value - expected) < 1e-12
    assert metrics.average_reward == 8 / 12
    assert abs(metrics.cost - 0.12) < 1e-9


def test_errors_are_excluded_and_counted_apart() -> None:
    results = [
        episode(0, 0, 1),
        episode(0, 1, 0, Outcome.ERROR),
        episode(1, 0, 0),
        episode(1, 1, 1),
    ]
    metrics = summarize(results, max_k=2)
    assert (metrics.episodes, metrics.scored, metrics.errors) == (4, 3, 1)
    assert metrics.average_reward == 2 / 3
    assert metrics.pass_hat_k[0].value == (1 + 0.5) / 2 and metrics.pass_hat_k[0].tasks == 2
    # task 0 has only one scored trial: pass^2 averages over task 1 alone
    assert metrics.pass_hat_k[1].value == 0.0 and metrics.pass_hat_k[1].tasks == 1


def test_unknown_prices_make_the_cost_unknown() -> None:
    assert summarize([episode(0, 0, 1), episode(1, 0, 1, cost=None)]).cost is None

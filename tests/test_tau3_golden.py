"""τ³ golden agreement: a τ³ checkout (τ²-bench v1.x) built from the reference material is
imported; every golden record of τ³'s airline, retail, mock and small telecom sets (gold
replays and failing variants) is rebuilt as a trajectory and graded with τ³'s rules, and
must get τ³'s reward and every RewardInfo component; every gold call, run live, gives τ³'s
output byte for byte. τ³'s re-grade of the fork's gold trajectories (``regrade_old_*``) is
reproduced the same way. NL assertions are judged by a stub that marks each met, as the
golden records' own stub did."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from tautrait_core.compat.tau2.reward_info import tau2_reward_info
from tautrait_core.grading.criteria_reward import grade_criteria
from tautrait_core.testing.reference import missing_reference_material, reference_material_dir
from tautrait_core.testing.tau2_golden import golden_trajectory, read_golden_records
from tautrait_core.types.messages import Message
from tests.golden_sets import GoldenSet, golden_params, imported_golden_sets

PEERS = reference_material_dir(__file__)
TAU3 = PEERS / "tau3-bench"
SETS = {
    # golden set: (tautrait domain, task set, plugin entry point)
    "mock": ("tau2-mock", "tau2:mock", "tau2-mock"),
    "airline": ("tau2-airline", "tau2:airline", "tau2-airline"),
    "retail": ("tau2-retail", "tau2:retail", "tau2-retail"),
    "telecom_small": ("tau2-telecom", "tau2:telecom/small", "telecom"),
}
FOLDERS = ["mock", "airline", "retail", "telecom"]
MOCK_GOLD_FAILURES = {"update_task_with_history_and_env_assertions", "update_task_with_user_tools"}
"""The two mock tasks whose env assertion needs a user action the gold actions lack."""


def stub_judge(messages: Sequence[Message], assertions: Sequence[str]) -> list[dict[str, Any]]:
    """The golden records' judge: every assertion met."""
    return [
        {"nl_assertion": text, "met": True, "justification": "STUB: LLM judge not run; marked met"}
        for text in assertions
    ]


@pytest.fixture(scope="module")
def tau3_sets(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, GoldenSet]]:
    """Every τ³ golden set's domain, imported once for the module."""
    from tautrait_core.testing.tau3_reference import build_tau3_checkout

    if not TAU3.is_dir():
        pytest.skip(missing_reference_material(TAU3))
    with imported_golden_sets(
        tmp_path_factory.mktemp("tautrait-home"),
        sorted({entry for *_, entry in SETS.values()}),
        lambda: build_tau3_checkout(PEERS, tmp_path_factory.mktemp("tau3") / "ck", FOLDERS),
        {name: (domain, task_set) for name, (domain, task_set, _) in SETS.items()},
    ) as sets:
        yield sets


def _grade(golden: GoldenSet, task_id: str, messages: list[Message], reason: str) -> Any:
    task = golden.tasks[task_id]
    assert golden.task_set.rules == "tau3"
    return grade_criteria(
        golden.domain, task, golden.template, messages, reason, None, stub_judge, rules="tau3"
    )


@pytest.mark.parametrize("record", golden_params(TAU3, list(SETS)))
def test_the_grade_equals_tau3s(record: dict[str, Any], tau3_sets: dict[str, GoldenSet]) -> None:
    golden = tau3_sets[record["task_set"]]
    messages = golden_trajectory(record, golden.tasks[record["task_id"]])
    info = _grade(golden, record["task_id"], messages, record["termination_reason"])
    if record["evaluator_exception"] is not None:
        assert info.reward == 0.0
        errors = [check.get("error") for check in info.env_assertions or []]
        expected = record["evaluator_exception"].partition(": ")[2]
        assert any(error and expected in error for error in errors), errors
        return
    assert info.reward == record["reward"]
    assert tau2_reward_info(info, rules="tau3") == record["reward_info"]


@pytest.mark.parametrize("record", golden_params(TAU3, list(SETS), gold_only=True))
def test_every_gold_call_gives_tau3s_output(
    record: dict[str, Any], tau3_sets: dict[str, GoldenSet]
) -> None:
    from tautrait_core.testing.tau2_reference import (
        apply_initial_state_for_test,
        run_side_call,
    )

    golden = tau3_sets[record["task_set"]]
    task = golden.tasks[record["task_id"]]
    with golden.template.new_episode() as db:
        apply_initial_state_for_test(golden.domain, db, task)
        for call in record["calls"]:
            output = run_side_call(
                golden.domain, db, call["requestor"], call["name"], call["arguments"]
            )
            assert (output, golden.domain.is_error(output)) == (call["output"], call["error"])


@pytest.mark.parametrize(
    "record", golden_params(TAU3, ["regrade_old_airline", "regrade_old_retail"])
)
def test_tau3s_regrade_of_the_forks_gold_is_reproduced(
    record: dict[str, Any], tau3_sets: dict[str, GoldenSet]
) -> None:
    fork_records = read_golden_records(
        PEERS / "tau2-bench" / "golden" / f"{record['task_set']}.jsonl"
    )
    fork = next(
        r for r in fork_records if r["task_id"] == record["task_id"] and r["variant"] == "gold"
    )
    golden = tau3_sets[record["task_set"]]
    replay = {**fork, "calls": record["tau3_calls"]}
    messages = golden_trajectory(replay, golden.tasks[record["task_id"]])
    info = _grade(golden, record["task_id"], messages, "user_stop")
    assert info.reward == record["tau3_reward"]
    assert tau2_reward_info(info, rules="tau3") == record["reward_info"]


def test_gold_replays_score_one_except_two_mock_tasks(tau3_sets: dict[str, GoldenSet]) -> None:
    failing = []
    for name in SETS:
        for record in read_golden_records(TAU3 / "golden" / f"{name}.jsonl"):
            if record["variant"] == "gold":
                golden = tau3_sets[name]
                messages = golden_trajectory(record, golden.tasks[record["task_id"]])
                info = _grade(golden, record["task_id"], messages, "user_stop")
                if info.reward != 1.0:
                    failing.append(record["task_id"])
    assert set(failing) == MOCK_GOLD_FAILURES

"""τ²'s grading components that need no environment (ACTION, COMMUNICATE, the premature
ending), checked against every golden record of the reference material: each record is a
gold replay or a failing variant that τ² itself graded."""

from __future__ import annotations

from typing import Any

import pytest

from tautrait_core.compat.tau2.reward_info import tau2_reward_info
from tautrait_core.compat.tau2.tasks import read_tau2_tasks
from tautrait_core.grading.criteria_checks import action_matches, grade_actions, grade_communicate
from tautrait_core.grading.criteria_reward import grade_criteria
from tautrait_core.testing.reference import missing_reference_material, reference_material_dir
from tautrait_core.testing.tau2_golden import golden_trajectory, read_golden_records
from tautrait_core.types.task import Action, Task

TAU2 = reference_material_dir(__file__) / "tau2-bench"
TASK_FILES = {
    "mock": "mock/tasks.json",
    "airline": "airline/tasks.json",
    "retail": "retail/tasks.json",
    "telecom": "telecom/tasks.json",
    "telecom_small": "telecom/tasks_small.json",
}


def _records(*, graded: bool) -> list[Any]:
    """Golden records of every set: those τ² graded in full (``graded``) or those cut
    short by the step limit."""
    if not TAU2.is_dir():
        return [
            pytest.param(
                None, id="absent", marks=pytest.mark.skip(reason=missing_reference_material(TAU2))
            )
        ]
    params = []
    for task_set in TASK_FILES:
        for index, record in enumerate(read_golden_records(TAU2 / "golden" / f"{task_set}.jsonl")):
            if (record["termination_reason"] == "user_stop") == graded:
                params.append(pytest.param(record, id=f"{task_set}-{index}-{record['variant']}"))
    return params


_tasks: dict[str, dict[str, Task]] = {}


def _task(record: dict[str, Any]) -> Task:
    task_set = record["task_set"]
    if task_set not in _tasks:
        tasks = read_tau2_tasks(TAU2 / "data" / TASK_FILES[task_set])
        _tasks[task_set] = {task.id: task for task in tasks if task.id}
    return _tasks[task_set][record["task_id"]]


@pytest.mark.parametrize("record", _records(graded=True))
def test_action_and_communicate_checks_equal_tau2s(record: dict[str, Any]) -> None:
    expected = record["reward_info"]
    if expected is None:
        assert record["evaluator_exception"]  # τ² crashed: its grader gave nothing to compare
        pytest.skip(f"τ²'s evaluator raised {record['evaluator_exception']}")
    task = _task(record)
    criteria = task.evaluation_criteria
    assert criteria is not None
    messages = golden_trajectory(record, task)
    reward, checks, note = grade_actions(criteria.actions or [], messages)
    assert checks == expected["action_checks"]
    assert note == expected["info"]["action"]
    if "ACTION" in expected["reward_breakdown"]:
        assert reward == expected["reward_breakdown"]["ACTION"]
    reward, checks, note = grade_communicate(criteria.communicate_info, messages)
    assert checks == expected["communicate_checks"]
    assert note == expected["info"]["communicate"]
    if "COMMUNICATE" in expected["reward_breakdown"]:
        assert reward == expected["reward_breakdown"]["COMMUNICATE"]


@pytest.mark.parametrize("record", _records(graded=False))
def test_a_premature_ending_scores_as_tau2_scores_it(record: dict[str, Any]) -> None:
    task = _task(record)
    info = grade_criteria(
        None,  # type: ignore[arg-type]  # a premature ending never looks at the state
        task,
        None,  # type: ignore[arg-type]
        golden_trajectory(record, task),
        record["termination_reason"],
        None,
    )
    assert tau2_reward_info(info) == record["reward_info"]


def test_an_action_matches_as_tau2_matches_it() -> None:
    grade_action_match = action_matches
    gold = Action(name="refuel", kwargs={"line": "L1", "gb": 2.0})
    assert grade_action_match(gold, "refuel", {"line": "L1", "gb": 2})
    assert grade_action_match(gold, "refuel", {})  # compare_args null: the call's own keys
    assert grade_action_match(gold, "refuel", {"line": "L1"})
    assert not grade_action_match(gold, "refuel", {"line": "L1", "extra": 1})
    assert not grade_action_match(gold, "refuel", {"line": "L2"})
    assert not grade_action_match(gold, "refill", {"line": "L1", "gb": 2.0})
    named = gold.model_copy(update={"compare_args": ["line"]})
    assert grade_action_match(named, "refuel", {"line": "L1", "gb": 9})
    assert not grade_action_match(named, "refuel", {"gb": 2.0})
    anything = gold.model_copy(update={"compare_args": []})
    assert grade_action_match(anything, "refuel", {"whatever": 1})

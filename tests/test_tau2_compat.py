"""τ²-bench compatibility helpers: tool-output serialisation, database hash, task files."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from pydantic import BaseModel

from tautrait_core.compat.tau2.hashing import tau2_db_hash
from tautrait_core.compat.tau2.serialise import tau2_json
from tautrait_core.compat.tau2.tasks import read_tau2_tasks, render_user_scenario
from tautrait_core.errors import TaskSetError


class _Task(BaseModel):
    task_id: str
    done: bool
    hours: float
    description: str | None = None
    due: dt.datetime | None = None


def test_a_string_is_the_observation_as_it_is() -> None:
    assert tau2_json("Transfer successful") == "Transfer successful"
    assert tau2_json('{"a":1}') == '{"a":1}'


def test_numbers_and_booleans_of_plain_values_become_strings() -> None:
    usage = {"line_id": "L1002", "data_used_gb": 8.7, "cycle_end_date": dt.date(2025, 2, 28)}
    assert tau2_json(usage) == (
        '{"line_id": "L1002", "data_used_gb": "8.7", "cycle_end_date": "2025-02-28"}'
    )
    assert tau2_json([True, 2, None, ("a", 1)]) == '["True", "2", null, ["a", "1"]]'
    assert tau2_json(3) == '"3"'


def test_a_model_keeps_its_numbers_its_nulls_and_its_field_order() -> None:
    task = _Task(task_id="t1", done=False, hours=1.5, due=dt.datetime(2025, 1, 15, 10, 30))
    assert tau2_json(task) == (
        '{"task_id": "t1", "done": false, "hours": 1.5, "description": null, '
        '"due": "2025-01-15 10:30:00"}'
    )
    assert tau2_json([task])[0] == "["


def test_non_ascii_text_is_escaped_as_tau2_writes_it() -> None:
    assert tau2_json({"name": "Zoë"}) == '{"name": "Zo\\u00eb"}'


def test_a_value_tau2_cannot_write_is_refused() -> None:
    with pytest.raises(TypeError, match="set"):
        tau2_json({"ids": {1, 2}})


def test_the_hash_sorts_keys_and_writes_dates_as_text() -> None:
    assert tau2_db_hash({"b": 1, "a": {"d": dt.date(2025, 1, 2), "c": 1.0}}) == tau2_db_hash(
        {"a": {"c": 1.0, "d": "2025-01-02"}, "b": 1}
    )
    assert tau2_db_hash({"a": 1}) != tau2_db_hash({"a": 1.0})


def test_the_mock_database_hashes_as_tau2_hashes_it(reference_material: Path) -> None:
    data = json.loads((reference_material / "tau2-bench/data/mock/db.json").read_text())
    assert tau2_db_hash(data) == (
        "107f83a70b7bf4f616e283b0b0b8451346fe7681173398d4498a1ec15c5fdfc6"
    )


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("mock/tasks.json", 9),
        ("airline/tasks.json", 50),
        ("retail/tasks.json", 114),
        ("telecom/tasks.json", 114),
        ("telecom/tasks_small.json", 20),
    ],
)
def test_every_tau2_task_file_loads(reference_material: Path, name: str, count: int) -> None:
    tasks = read_tau2_tasks(reference_material / "tau2-bench/data" / name)
    assert len(tasks) == count
    assert len({task.id for task in tasks}) == count
    assert all(task.evaluation_criteria is not None for task in tasks)


def test_a_telecom_task_keeps_both_sides_actions_and_its_initial_state(
    reference_material: Path,
) -> None:
    task = read_tau2_tasks(reference_material / "tau2-bench/data/telecom/tasks.json")[0]
    assert task.id == "[mobile_data_issue]data_mode_off|data_usage_exceeded[PERSONA:None]"
    assert [(a.requestor, a.name) for a in task.actions] == [
        ("user", "toggle_data"),
        ("assistant", "refuel_data"),
    ]
    assert task.actions[1].kwargs["gb_amount"] == 2.0
    assert task.initial_state is not None and task.initial_state.initialization_actions
    assert task.initial_state.initialization_actions[0].func_name == "set_user_info"
    criteria = task.evaluation_criteria
    assert criteria is not None and criteria.reward_basis == ["ENV_ASSERTION"]
    assert criteria.env_assertions and criteria.env_assertions[0].env_type == "user"
    assert task.ticket and task.ticket.startswith("The user is experiencing")
    assert task.instruction.startswith("Instructions:\n\tDomain: telecom\n\tReason for call:\n\t\t")
    assert "\tKnown info:\n\t\tYou are John Smith" in task.instruction
    assert "Unknown info" not in task.instruction


def test_a_task_without_a_basis_gets_tau2s_default(reference_material: Path) -> None:
    task = read_tau2_tasks(reference_material / "tau2-bench/data/retail/tasks.json")[0]
    assert task.evaluation_criteria is not None
    assert task.evaluation_criteria.reward_basis == ["DB", "COMMUNICATE"]


def test_the_scenario_renders_in_tau2s_layout() -> None:
    text = render_user_scenario(
        {
            "persona": "Terse.",
            "instructions": {
                "domain": "mock",
                "reason_for_call": "Line one.\nLine two.",
                "known_info": None,
                "unknown_info": "Your id.",
                "task_instructions": "Ask.",
            },
        }
    )
    assert text == (
        "Persona:\n\tTerse.\nInstructions:\n\tDomain: mock\n\tReason for call:\n"
        "\t\tLine one.\n\t\tLine two.\n\tUnknown info:\n\t\tYour id.\n"
        "\tTask instructions:\n\t\tAsk."
    )
    assert render_user_scenario({"persona": None, "instructions": "Do it."}) == (
        "Instructions:\n\tDo it."
    )


def test_a_tasks_object_file_loads_too(tmp_path: Path) -> None:
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps({"tasks": [{"id": "a", "user_scenario": {"instructions": "x"}}]}))
    [task] = read_tau2_tasks(path)
    assert task.id == "a" and task.evaluation_criteria is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "the τ² task file is not valid JSON"),
        ("", "the τ² task file is empty"),
        ("[" * 100_000 + "]" * 100_000, "the τ² task file is nested too deeply"),
        ('{"rows": []}', "not a τ² task file"),
        ('[{"user_scenario": {}}]', "task 0 (id None) is invalid: task has no 'id'"),
        (
            '[{"id": "a", "user_scenario": {}, "evaluation_criteria": {"reward_basis": ["X"]}}]',
            "task 0 (id 'a') is invalid: reward_basis.0:",
        ),
    ],
)
def test_a_bad_task_file_is_one_clear_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "tasks.json"
    path.write_text(content)
    with pytest.raises(TaskSetError) as caught:
        read_tau2_tasks(path)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)

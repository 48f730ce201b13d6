"""τ²-bench task files -> :class:`~tautrait_core.types.task.Task`.

A τ² task file is a JSON list of task objects, or ``{"tasks": [...]}`` (domain-spec §2).
Each task keeps its ``id``, ``ticket``, ``initial_state`` and ``evaluation_criteria``; the
customer's scenario becomes the task's ``instruction`` in the layout τ²'s user simulator
reads (§2.1), and the gold actions of both sides become the task's ``actions``.

τ³ (τ²-bench v1.x) adds ``user_tools``, ``required_documents`` and ``issues`` to a task,
a folder of one-task files (``tasks/task_*.json``, :func:`read_tau3_task_folder`) and the
named subsets of ``split_tasks.json`` (:func:`read_split_file`).
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tautrait_core.compat.file_items import parse_items
from tautrait_core.compat.tau2.actions import action_from_tau2
from tautrait_core.errors import TaskSetError, first_line
from tautrait_core.files import read_json_file
from tautrait_core.types.criteria import EvaluationCriteria, InitialState
from tautrait_core.types.task import Task

_TAB = "\t"
_STRUCTURED_PARTS = (
    ("reason_for_call", "Reason for call"),
    ("known_info", "Known info"),
    ("unknown_info", "Unknown info"),
    ("task_instructions", "Task instructions"),
)


def render_user_scenario(scenario: dict[str, Any]) -> str:
    """The text τ²'s user simulator gets for a task's ``user_scenario`` (§2.1)."""
    instructions = scenario.get("instructions")
    if isinstance(instructions, dict):
        lines = [f"Domain: {instructions.get('domain')}"]
        for key, title in _STRUCTURED_PARTS:
            value = instructions.get(key)
            if value is not None or key in ("reason_for_call", "task_instructions"):
                lines.append(f"{title}:\n{textwrap.indent(str(value), _TAB)}")
        instructions = "\n".join(lines)
    lines = []
    persona = scenario.get("persona")
    if persona is not None:
        lines += ["Persona:", textwrap.indent(str(persona), _TAB)]
    lines += ["Instructions:", textwrap.indent(str(instructions), _TAB)]
    return "\n".join(lines)


def task_from_tau2(data: dict[str, Any]) -> Task:
    """One τ² task object as a :class:`Task`.

    Raises:
        ValueError: a required field is missing or has the wrong type.
    """
    if not isinstance(data, dict):
        raise ValueError(f"a task must be a JSON object, not {type(data).__name__}")
    for key in ("id", "user_scenario"):
        if key not in data:
            raise ValueError(f"task has no {key!r}")
    criteria_data = data.get("evaluation_criteria")
    actions = [action_from_tau2(item) for item in (criteria_data or {}).get("actions") or []]
    criteria = None
    if criteria_data is not None:
        criteria = EvaluationCriteria.model_validate(
            {
                **criteria_data,
                "actions": actions if criteria_data.get("actions") is not None else None,
            }
        )
    initial_state = data.get("initial_state")
    return Task(
        id=str(data["id"]),
        user_id="",
        instruction=render_user_scenario(data["user_scenario"]),
        actions=actions,
        ticket=data.get("ticket"),
        initial_state=InitialState.model_validate(initial_state) if initial_state else None,
        evaluation_criteria=criteria,
        user_tools=_optional_list(data, "user_tools"),
        required_documents=_optional_list(data, "required_documents"),
        issues=_optional_list(data, "issues"),
        user_scenario=data["user_scenario"] if isinstance(data["user_scenario"], dict) else None,
    )


def _optional_list(data: dict[str, Any], key: str) -> list[Any] | None:
    value = data.get(key)
    if value is not None and not isinstance(value, list):
        raise ValueError(f"{key} must be a list, not {type(value).__name__}")
    return value


def read_tau3_task_folder(folder: Path) -> list[Task]:
    """The tasks of τ³'s one-task-per-file folder (``tasks/task_*.json``), by file name.

    Raises:
        TaskSetError: a file is unreadable, not JSON or not a valid task (the message names
            the file).
    """
    tasks = []
    for path in sorted(Path(folder).glob("task_*.json")):
        data = read_json_file(path, TaskSetError, "the τ³ task file")
        try:
            tasks.append(task_from_tau2(data))
        except (ValueError, KeyError, TypeError) as exc:
            raise TaskSetError(f"{path}: invalid task ({_one_line(exc)})") from exc
    return tasks


def read_split_file(path: Path) -> dict[str, list[str]]:
    """τ³'s ``split_tasks.json``: each split's name and the ids of its tasks.

    Raises:
        TaskSetError: the file is unreadable or not an object of id lists.
    """
    data = read_json_file(Path(path), TaskSetError, "the τ³ split file")
    if not isinstance(data, dict) or not all(isinstance(ids, list) for ids in data.values()):
        raise TaskSetError(f'{path}: not a split file (expected {{"split": [task ids]}})')
    return {str(name): [str(task_id) for task_id in ids] for name, ids in data.items()}


def read_tau2_tasks(path: Path) -> list[Task]:
    """The tasks of a τ² task file (a JSON list, or an object with a ``"tasks"`` list).

    Raises:
        TaskSetError: the file is unreadable, not JSON, not a task list, or a task is invalid
            (the message names the file and the task's index and id).
    """
    data = read_json_file(Path(path), TaskSetError, "the τ² task file")
    if isinstance(data, dict) and isinstance(data.get("tasks"), list):
        data = data["tasks"]
    if not isinstance(data, list):
        raise TaskSetError(
            f'{path}: not a τ² task file (expected a JSON list of tasks or {{"tasks": [...]}})'
        )
    return parse_items(
        data,
        task_from_tau2,
        (ValueError, KeyError, TypeError),
        lambda index, item: f"{path}: task {index} (id {_task_id(item)!r}) is invalid",
        _one_line,
    )


def _task_id(item: Any) -> Any:
    return item.get("id") if isinstance(item, dict) else None


def _one_line(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        return f"{where}: {error['msg']}"
    return first_line(exc)

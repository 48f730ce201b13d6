"""τ²-bench task files as :class:`~tautrait_core.domain.task.Task` objects (domain-spec §2).

A τ² task has no ``user_id`` and gives the user simulator a scenario rather than one
instruction: the scenario is rendered to the instruction text as τ² renders it (§2.1), the
gold actions become :class:`Action` objects (both sides), and the task keeps its ``id``,
``ticket``, ``initial_state`` and ``evaluation_criteria``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tautrait_core.domain.task import Action, Task
from tautrait_core.errors import TaskSetError

SCENARIO_PARTS = (
    ("domain", "Domain"),
    ("reason_for_call", "Reason for call"),
    ("known_info", "Known info"),
    ("unknown_info", "Unknown info"),
    ("task_instructions", "Task instructions"),
)
"""The keys of structured instructions, in τ²'s order, with their headings."""


def _indent(text: str, tabs: int) -> str:
    return "\n".join("\t" * tabs + line for line in text.split("\n"))


def render_scenario(scenario: dict[str, Any]) -> str:
    """The user simulator's instruction text for a τ² ``user_scenario``."""
    lines: list[str] = []
    persona = scenario.get("persona")
    if persona is not None:
        lines += ["Persona:", _indent(str(persona), 1)]
    lines.append("Instructions:")
    instructions = scenario.get("instructions")
    if isinstance(instructions, dict):
        for key, heading in SCENARIO_PARTS:
            value = instructions.get(key)
            if value is None and key in ("known_info", "unknown_info"):
                continue
            lines += [f"\t{heading}:", _indent(str(value), 2)]
    else:
        lines.append(_indent(str(instructions), 1))
    return "\n".join(lines)


def task_from_tau2(item: dict[str, Any]) -> Task:
    """One τ² task object as a :class:`Task` (raises ``ValidationError``/``ValueError``)."""
    if not isinstance(item, dict):
        raise ValueError("a task must be a JSON object")
    criteria = item.get("evaluation_criteria") or None
    gold = (criteria or {}).get("actions") or []
    actions = [
        Action(
            name=action["name"],
            kwargs=action.get("arguments") or {},
            requestor=action.get("requestor") or "assistant",
            action_id=action.get("action_id"),
            compare_args=action.get("compare_args"),
            info=action.get("info"),
        )
        for action in gold
    ]
    return Task.model_validate(
        {
            "id": str(item["id"]),
            "user_id": "",
            "instruction": render_scenario(item.get("user_scenario") or {}),
            "actions": actions,
            "outputs": (criteria or {}).get("communicate_info") or [],
            "ticket": item.get("ticket"),
            "initial_state": item.get("initial_state"),
            "evaluation_criteria": criteria,
        }
    )


def read_tau2_task_file(path: Path) -> list[Task]:
    """The tasks of a τ² task file (a JSON list, or ``{"tasks": [...]}``).

    Raises:
        TaskSetError: unreadable file, bad JSON, or an invalid task (one line naming the
            file and the task).
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TaskSetError(f"{path}: cannot read it ({exc.strerror})") from exc
    except (ValueError, RecursionError) as exc:
        raise TaskSetError(f"{path} is not valid JSON ({exc})") from exc
    if isinstance(data, dict) and isinstance(data.get("tasks"), list):
        data = data["tasks"]
    if not isinstance(data, list):
        raise TaskSetError(f"{path} is not a JSON list of τ² tasks")
    tasks = []
    for index, item in enumerate(data):
        try:
            tasks.append(task_from_tau2(item))
        except (ValidationError, ValueError, KeyError, TypeError) as exc:
            label = item.get("id", index) if isinstance(item, dict) else index
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            if isinstance(exc, KeyError):
                reason = f"missing field {exc}"
            raise TaskSetError(f"{path}: task {label!r} is invalid ({reason})") from exc
    return tasks

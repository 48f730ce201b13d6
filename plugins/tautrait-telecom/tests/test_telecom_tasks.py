"""Telecom's own rules for its built-in tasks (every task's gold replay and reward are checked
by the contract suite in ``test_telecom_plugin.py``)."""

from __future__ import annotations

from tautrait_telecom.domain import load_tasks
from tautrait_telecom.tools import WRITE_TOOLS

TASKS = load_tasks()


def test_services_are_both_added_and_removed() -> None:
    services = {
        action.kwargs["action"] for task in TASKS for action in task.actions
        if action.name == "manage_service"
    }  # fmt: skip
    assert services == {"add", "remove"}


def test_every_read_only_task_asks_for_outputs() -> None:
    for index, task in enumerate(TASKS):
        if not {action.name for action in task.actions} & set(WRITE_TOOLS):
            assert task.outputs, index

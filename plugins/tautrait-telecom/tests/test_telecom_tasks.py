"""Telecom's own rules for its built-in tasks (every task's gold replay and reward are checked
by the contract suite in ``test_telecom_plugin.py``)."""

from __future__ import annotations

from tautrait_telecom.domain import build_domain, load_tasks

TASKS = load_tasks()
WRITE_TOOLS = build_domain().write_tools


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


def test_the_tools_marked_as_writing_are_those_that_change_the_database() -> None:
    assert sorted(WRITE_TOOLS) == [
        "add_device",
        "create_support_ticket",
        "manage_billing",
        "manage_service",
        "modify_support_ticket",
        "record_payment",
    ]

"""Telehealth's own rules for its built-in tasks (every task's gold replay and reward are
checked by the contract suite in ``test_telehealth_plugin.py``)."""

from __future__ import annotations

from tautrait_telehealth.domain import build_domain, load_tasks

TASKS = load_tasks()
WRITE_TOOLS = build_domain().write_tools


def test_every_read_only_task_asks_for_outputs_or_a_transfer() -> None:
    for index, task in enumerate(TASKS):
        names = {action.name for action in task.actions}
        if not names & set(WRITE_TOOLS):
            assert task.outputs or "transfer_to_human_support" in names, index


def test_the_tools_marked_as_writing_are_those_that_change_the_database() -> None:
    assert sorted(WRITE_TOOLS) == [
        "cancel_appointment",
        "reschedule_appointment",
        "schedule_appointment",
        "update_medical_record_note",
        "update_prescription_supplier",
    ]

"""Telehealth's own rules for its built-in tasks (every task's gold replay and reward are
checked by the contract suite in ``test_telehealth_plugin.py``)."""

from __future__ import annotations

from tautrait_telehealth.domain import load_tasks
from tautrait_telehealth.tools import WRITE_TOOLS

TASKS = load_tasks()


def test_every_read_only_task_asks_for_outputs_or_a_transfer() -> None:
    for index, task in enumerate(TASKS):
        names = {action.name for action in task.actions}
        if not names & set(WRITE_TOOLS):
            assert task.outputs or "transfer_to_human_support" in names, index

"""Retail's own rules for its built-in tasks (every task's gold replay and reward are checked
by the contract suite in ``test_retail_plugin.py``)."""

from __future__ import annotations

from tautrait_retail.domain import load_tasks
from tautrait_retail.tools import WRITE_TOOLS

TASKS = load_tasks()


def test_at_least_ten_tasks_ask_for_outputs() -> None:
    assert sum(1 for task in TASKS if task.outputs) >= 10


def test_every_read_only_task_asks_for_outputs_or_a_transfer() -> None:
    for index, task in enumerate(TASKS):
        names = {action.name for action in task.actions}
        if not names & set(WRITE_TOOLS):
            assert task.outputs or "transfer_to_human_agents" in names, index

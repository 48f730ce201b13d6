"""The built-in task set is sound: every gold action works and every task can be solved."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tautrait_retail.domain import load_tasks
from tautrait_retail.tools import WRITE_TOOLS

from tautrait_core import (
    Domain,
    EpisodeDB,
    StateTemplate,
    Task,
    check_task,
    compute_reward,
    replay_actions,
)

TASKS = load_tasks()


def _writes(task: Task) -> list[str]:
    return [action.name for action in task.actions if action.name in WRITE_TOOLS]


def test_the_task_set_is_large_and_covers_every_write_tool() -> None:
    assert len(TASKS) >= 40
    assert {name for task in TASKS for name in _writes(task)} == set(WRITE_TOOLS)
    assert sum(1 for task in TASKS if task.outputs) >= 10


def test_every_read_only_task_asks_for_outputs_or_a_transfer() -> None:
    for index, task in enumerate(TASKS):
        if not _writes(task):
            names = {action.name for action in task.actions}
            assert task.outputs or "transfer_to_human_agents" in names, index


@pytest.mark.parametrize("index", range(len(TASKS)))
def test_gold_actions_replay_cleanly(
    domain: Domain, template: StateTemplate, db: EpisodeDB, index: int
) -> None:
    """What ``tautrait check`` reports (the user exists, no gold action errs, writes change
    the database, every output is in some tool output) finds nothing; a read-only task
    changes nothing."""
    task = TASKS[index]
    assert check_task(domain, template, index, task).problems == []
    if not _writes(task):
        replay_actions(domain, db, task.actions)
        assert not db.changes(), "a read-only task changed the database"


@pytest.mark.parametrize("index", range(len(TASKS)))
def test_gold_actions_and_outputs_earn_the_reward(
    domain: Domain, db: EpisodeDB, index: int
) -> None:
    task = TASKS[index]
    replay_actions(domain, db, task.actions)
    reward = compute_reward(domain, task, db, ["Here you go: " + "; ".join(task.outputs)])
    assert reward.reward == 1.0, reward


def test_doing_nothing_fails_every_write_task(
    domain: Domain, new_episode: Callable[[], EpisodeDB]
) -> None:
    for index, task in enumerate(TASKS):
        if _writes(task):
            assert compute_reward(domain, task, new_episode(), []).reward == 0.0, index

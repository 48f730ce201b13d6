"""The mock domain's tools and assertion functions, as τ²-bench's ``MockTools`` has them.

Outputs are τ²'s model JSON (field order, ``null`` kept); errors are raised with τ²'s texts
and come back as ``Error: <text>``.
"""

from __future__ import annotations

import json
from typing import Literal

from sqlmodel import func, select

from tautrait_core import EpisodeDB
from tautrait_core.tau2 import Tau2Tool, tau2_found, tau2_tool, tau2_transfer_tool
from tautrait_mock.data import task_record, user_record
from tautrait_mock.schema import MockTask, MockUser

mock_tool = tau2_tool("MockTools")


def _task(db: EpisodeDB, task_id: str) -> MockTask:
    return tau2_found(db.get(MockTask, task_id), f"Task {task_id} not found")


def _user(db: EpisodeDB, user_id: str) -> MockUser:
    return tau2_found(db.get(MockUser, user_id), f"User {user_id} not found")


@mock_tool(writes=True)
def create_task(db: EpisodeDB, user_id: str, title: str, description: str | None = None) -> str:
    """Create a new task for a user.

    Args:
        user_id: The id of the user who owns the task.
        title: The task's title.
        description: An optional description of the task.
    """
    user = _user(db, user_id)
    count = db.exec(select(func.count()).select_from(MockTask)).one()
    task_id = f"task_{count + 1}"
    task = db.get(MockTask, task_id)
    if task is None:
        last = db.exec(select(func.max(MockTask.position))).one()
        task = MockTask(
            task_id=task_id, position=-1 if last is None else last + 1, title="", status=""
        )
    task.title, task.description, task.status = title, description, "pending"
    db.add(task)
    user.tasks = [*user.tasks, task_id]
    db.add(user)
    return json.dumps(task_record(task))


@mock_tool
def get_users(db: EpisodeDB) -> str:
    """Get all users with their tasks."""
    users = db.exec(select(MockUser).order_by(MockUser.position)).all()
    return json.dumps([user_record(user) for user in users])


transfer_to_human_agents = tau2_transfer_tool(mock_tool)


@mock_tool(writes=True)
def update_task_status(db: EpisodeDB, task_id: str, status: Literal["pending", "completed"]) -> str:
    """Set the status of a task.

    Args:
        task_id: The id of the task.
        status: The new status.
    """
    task = _task(db, task_id)
    task.status = status
    db.add(task)
    return json.dumps(task_record(task))


TOOLS: list[Tau2Tool] = [create_task, get_users, transfer_to_human_agents, update_task_status]


def assert_number_of_tasks(db: EpisodeDB, user_id: str, expected_number: int) -> bool:
    """Whether the user has ``expected_number`` tasks."""
    return len(_user(db, user_id).tasks) == expected_number


def assert_task_status(db: EpisodeDB, task_id: str, expected_status: str) -> bool:
    """Whether the task has the status ``expected_status``."""
    return _task(db, task_id).status == expected_status


AGENT_FUNCTIONS = {
    "assert_number_of_tasks": assert_number_of_tasks,
    "assert_task_status": assert_task_status,
}

"""τ²'s mock database shape (``{"tasks": {...}, "users": {...}}``): rows from it, the export
to it, its hash, and the merge of a task's ``initialization_data``."""

from __future__ import annotations

from typing import Any

from sqlmodel import SQLModel, delete, select

from tautrait_core import EpisodeDB
from tautrait_core.tau2 import tau2_db_hash, tau2_deep_merge
from tautrait_mock.schema import TASK_FIELDS, USER_FIELDS, MockTask, MockUser


def rows_from(data: dict[str, Any]) -> list[SQLModel]:
    """Table rows for a database in τ²'s shape (records validated as τ² validates them)."""
    rows: list[SQLModel] = []
    for position, record in enumerate(data.get("tasks", {}).values()):
        rows.append(MockTask.model_validate({**_fields(record, TASK_FIELDS), "position": position}))
    for position, record in enumerate(data.get("users", {}).values()):
        rows.append(MockUser.model_validate({**_fields(record, USER_FIELDS), "position": position}))
    return rows


def _fields(record: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    return {key: record.get(key) for key in fields if key in record}


def task_record(task: MockTask) -> dict[str, Any]:
    """A task as τ²'s model dumps it (field order, ``None`` kept)."""
    return {key: getattr(task, key) for key in TASK_FIELDS}


def user_record(user: MockUser) -> dict[str, Any]:
    """A user as τ²'s model dumps it."""
    return {key: list(user.tasks) if key == "tasks" else getattr(user, key) for key in USER_FIELDS}


def export(db: EpisodeDB) -> dict[str, Any]:
    """The episode database in τ²'s shape (what τ²'s ``model_dump`` gives)."""
    tasks = db.exec(select(MockTask).order_by(MockTask.position)).all()
    users = db.exec(select(MockUser).order_by(MockUser.position)).all()
    return {
        "tasks": {task.task_id: task_record(task) for task in tasks},
        "users": {user.user_id: user_record(user) for user in users},
    }


def agent_db_hash(db: EpisodeDB) -> str:
    """τ²'s hash of the mock database."""
    return tau2_db_hash(export(db))


def merge_initial_data(db: EpisodeDB, side: str, data: dict[str, Any]) -> None:
    """Deep-merge a task's ``initialization_data`` into the (agent-side) database."""
    if side != "assistant":
        raise ValueError("the mock domain has no user database")
    merged = tau2_deep_merge(export(db), data)
    db.exec(delete(MockTask))  # type: ignore[call-overload]
    db.exec(delete(MockUser))  # type: ignore[call-overload]
    db.expunge_all()
    db.add_all(rows_from(merged))
    db.flush()

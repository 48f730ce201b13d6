"""The mock database: tasks and the users who own them (τ²'s ``MockDB``).

``position`` is a record's place in τ²'s ``tasks``/``users`` objects, so reads and the
export keep τ²'s order.
"""

from __future__ import annotations

from sqlmodel import JSON, Field, SQLModel


class MockTask(SQLModel, table=True):
    """A task: title, optional description, status (any text; τ² does not check it)."""

    __tablename__ = "tau2_mock_tasks"

    task_id: str = Field(primary_key=True)
    position: int
    title: str
    description: str | None = None
    status: str


class MockUser(SQLModel, table=True):
    """A user and the ids of their tasks."""

    __tablename__ = "tau2_mock_users"

    user_id: str = Field(primary_key=True)
    position: int
    name: str
    tasks: list[str] = Field(sa_type=JSON)


class MockNotification(SQLModel, table=True):
    """τ³: a notification in the customer's inbox (the customer's side)."""

    __tablename__ = "tau2_mock_notifications"

    notification_id: str = Field(primary_key=True)
    position: int
    message: str
    status: str = "unread"
    task_id: str | None = None


TABLES: list[type[SQLModel]] = [MockTask, MockUser]
USER_TABLES: list[type[SQLModel]] = [MockNotification]

TASK_FIELDS = ("task_id", "title", "description", "status")
USER_FIELDS = ("user_id", "name", "tasks")
NOTIFICATION_FIELDS = ("notification_id", "message", "status", "task_id")

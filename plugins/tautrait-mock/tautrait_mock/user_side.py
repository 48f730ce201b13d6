"""τ³'s mock customer side (τ²-bench v1.x): a notification inbox (``user_db.json``), the
customer's tools ``check_notifications`` (read) and ``dismiss_notification`` (write),
and the functions tasks use on that side (``add_notification`` as an initialization
action, ``assert_notification_status`` as an env assertion).

The database shape and tool names are τ³'s; τ³'s reference material records no output of
the two tools, so their texts here are tautrait's own (a notification as its JSON record).
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import SQLModel, func, select

from tautrait_core import EpisodeDB
from tautrait_core.tau2 import Tau2Tool, tau2_found, tau2_tool
from tautrait_mock.schema import NOTIFICATION_FIELDS, MockNotification

user_tool = tau2_tool("MockUserTools")


def notification_rows(data: dict[str, Any]) -> list[SQLModel]:
    """Rows of the customer's inbox from τ³'s ``user_db.json``."""
    return [
        MockNotification.model_validate(
            {**{key: record.get(key) for key in NOTIFICATION_FIELDS}, "position": position}
        )
        for position, record in enumerate(data.get("notifications", {}).values())
    ]


def notification_record(row: MockNotification) -> dict[str, Any]:
    """A notification as τ³'s model dumps it."""
    return {key: getattr(row, key) for key in NOTIFICATION_FIELDS}


@user_tool
def check_notifications(db: EpisodeDB) -> str:
    """Check the notifications in your inbox."""
    rows = db.exec(select(MockNotification).order_by(MockNotification.position)).all()
    return json.dumps([notification_record(row) for row in rows])


@user_tool(writes=True)
def dismiss_notification(db: EpisodeDB, notification_id: str) -> str:
    """Dismiss a notification (it is marked read).

    Args:
        notification_id: The notification's id, e.g. 'notif_1'.
    """
    row = tau2_found(
        db.get(MockNotification, notification_id), f"Notification {notification_id} not found"
    )
    row.status = "read"
    db.add(row)
    return json.dumps(notification_record(row))


def add_notification(db: EpisodeDB, notification_id: str, message: str, task_id: str) -> None:
    """Put an unread notification in the inbox (replacing one with the same id)."""
    row = db.get(MockNotification, notification_id)
    if row is None:
        position = db.exec(select(func.count()).select_from(MockNotification)).one()
        row = MockNotification(notification_id=notification_id, position=position, message="")
    row.message, row.status, row.task_id = message, "unread", task_id
    db.add(row)
    db.flush()


def assert_notification_status(db: EpisodeDB, notification_id: str, expected_status: str) -> bool:
    """Whether the notification has the status ``expected_status``."""
    row = db.get(MockNotification, notification_id)
    return row is not None and row.status == expected_status


USER_TOOLS: list[Tau2Tool] = [check_notifications, dismiss_notification]
USER_FUNCTIONS = {
    "add_notification": add_notification,
    "assert_notification_status": assert_notification_status,
}

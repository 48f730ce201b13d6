"""A tiny dual-control domain (a phone line and the customer's phone), registered
in-process by the dual-control tests (never installed).

The agent sees and changes the line; the customer sees and changes their phone. The sync
keeps the phone's signal consistent with both: no signal in airplane mode or while the
line is suspended.
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Field, SQLModel

from tautrait_core import Domain, EpisodeDB, Task, TaskSet, hookimpl, tool


class Line(SQLModel, table=True):
    __tablename__ = "toyphone_lines"

    line_id: str = Field(primary_key=True)
    status: str = "active"


class Phone(SQLModel, table=True):
    __tablename__ = "toyphone_phones"

    phone_id: str = Field(primary_key=True)
    line_id: str
    airplane_mode: bool = False
    signal: str = "good"


@tool
def get_line(db: EpisodeDB, line_id: str) -> str:
    """Show a line's status.

    Args:
        line_id: The line id, such as 'L1'.
    """
    line = db.get(Line, line_id)
    if line is None:
        raise ValueError(f"line {line_id} not found")
    return line.model_dump_json()


@tool
def resume_line(db: EpisodeDB, line_id: str) -> str:
    """Resume a suspended line.

    Args:
        line_id: The line id, such as 'L1'.
    """
    line = db.get(Line, line_id)
    if line is None:
        raise ValueError(f"line {line_id} not found")
    line.status = "active"
    db.add(line)
    return line.model_dump_json()


@tool
def check_status_bar(db: EpisodeDB) -> str:
    """Look at the phone's status bar."""
    phone = db.get(Phone, "P1")
    airplane = "on" if phone.airplane_mode else "off"
    return f"Airplane mode: {airplane}. Signal: {phone.signal}"


@tool
def toggle_airplane_mode(db: EpisodeDB) -> str:
    """Switch airplane mode on or off."""
    phone = db.get(Phone, "P1")
    phone.airplane_mode = not phone.airplane_mode
    db.add(phone)
    return f"Airplane mode is now {'on' if phone.airplane_mode else 'off'}."


def turn_airplane_mode_on(db: EpisodeDB) -> None:
    phone = db.get(Phone, "P1")
    phone.airplane_mode = True
    db.add(phone)


def suspend_line(db: EpisodeDB, line_id: str) -> None:
    line = db.get(Line, line_id)
    line.status = "suspended"
    db.add(line)


def has_service(db: EpisodeDB) -> bool:
    return db.get(Phone, "P1").signal == "good"


def sync_signal(db: EpisodeDB) -> None:
    phone = db.get(Phone, "P1")
    line = db.get(Line, phone.line_id)
    phone.signal = "none" if phone.airplane_mode or line.status != "active" else "good"
    db.add(phone)


SIDE_TABLES = {"assistant": {"lines": Line}, "user": {"phones": Phone}}


def merge_initial_data(db: EpisodeDB, side: str, data: dict[str, Any]) -> None:
    for collection, rows in data.items():
        model = SIDE_TABLES[side][collection]
        for key, fields in rows.items():
            row = db.get(model, key)
            for name, value in fields.items():
                setattr(row, name, value)
            db.add(row)


def seed_rows() -> list[SQLModel]:
    return [Line(line_id="L1"), Phone(phone_id="P1", line_id="L1")]


RESTORE = {
    "user_id": "P1",
    "instruction": "Your phone has no signal. You want it fixed.",
    "id": "restore",
    "ticket": "Customer P1 has no signal on line L1.",
    "initial_state": {
        "initialization_data": {"agent_data": {"lines": {"L1": {"status": "suspended"}}}},
        "initialization_actions": [
            {"env_type": "user", "func_name": "turn_airplane_mode_on", "arguments": {}}
        ],
    },
    "evaluation_criteria": {
        "actions": [
            {"action_id": "0", "name": "resume_line", "arguments": {"line_id": "L1"}},
            {
                "action_id": "1",
                "requestor": "user",
                "name": "toggle_airplane_mode",
                "arguments": {},
            },
            {
                "action_id": "2",
                "requestor": "user",
                "name": "check_status_bar",
                "arguments": {},
            },
        ],
        "env_assertions": [{"env_type": "user", "func_name": "has_service", "arguments": {}}],
        "reward_basis": ["ENV_ASSERTION"],
    },
}
HISTORY = {
    "user_id": "P1",
    "instruction": "You asked about your line; now you want to know your signal.",
    "id": "history",
    "initial_state": {
        "message_history": [
            {"role": "user", "content": "Is my line fine?"},
            {
                "role": "assistant",
                "tool_calls": [{"id": "h1", "name": "get_line", "arguments": {"line_id": "L1"}}],
            },
            {"role": "tool", "id": "h1", "content": '{"line_id":"L1","status":"active"}'},
            {"role": "assistant", "content": "Your line is active. Please check your phone."},
        ]
    },
}


def tasks() -> list[Task]:
    return [Task.model_validate(RESTORE), Task.model_validate(HISTORY)]


def build_domain() -> Domain:
    return Domain(
        name="toyphone",
        policy="Help the customer get their signal back. Ask them to act on their phone.",
        tables=[Line, Phone],
        seed_data=seed_rows,
        tools=[get_line, resume_line],
        task_sets={"test": TaskSet("test", tasks)},
        user_tools=[check_status_bar, toggle_airplane_mode],
        user_tables=[Phone],
        agent_functions={"suspend_line": suspend_line},
        user_functions={"turn_airplane_mode_on": turn_airplane_mode_on, "has_service": has_service},
        sync_state=sync_signal,
        merge_initial_data=merge_initial_data,
        solo_policy="Resolve the ticket yourself, on the line and on the phone.",
    )


def state(db: EpisodeDB) -> dict[str, Any]:
    """Both sides' rows, for assertions."""
    return {
        "line": json.loads(db.get(Line, "L1").model_dump_json()),
        "phone": json.loads(db.get(Phone, "P1").model_dump_json()),
    }


@hookimpl
def register_domains(register: Any) -> None:
    register(build_domain())

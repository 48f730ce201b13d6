"""Tasks and their gold actions.

Field names follow upstream tau-bench / tau-trait (``user_id``, ``instruction``, ``actions``,
``outputs``), so upstream task files port over unchanged.
"""

from __future__ import annotations

import json
from os import PathLike
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

RESPOND_ACTION = "respond"
"""Name of the pseudo-action an agent uses to talk to the user (upstream ``respond``)."""


class Action(BaseModel):
    """One agent action: a tool call, or ``respond`` with ``kwargs={"content": ...}``."""

    name: str
    kwargs: dict[str, Any] = Field(default_factory=dict)


class Task(BaseModel):
    """A task: who the user is, what they want, and the gold actions and outputs.

    The reward compares the agent's final database with the database obtained by replaying
    ``actions``, and requires every string in ``outputs`` to appear in an agent reply.
    Unknown fields (upstream's ``annotator``) are ignored.
    """

    model_config = ConfigDict(extra="ignore")

    user_id: str
    instruction: str
    actions: list[Action] = Field(default_factory=list)
    outputs: list[str] = Field(default_factory=list)

    @classmethod
    def list_from_file(cls, path: str | PathLike[str]) -> list[Task]:
        """The tasks of a JSON file holding a list of task objects (a domain's task set)."""
        with open(path, encoding="utf-8") as file:
            return [cls.model_validate(item) for item in json.load(file)]

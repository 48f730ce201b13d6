"""τ²-bench golden records (``golden/<set>.jsonl`` of the reference material) as
trajectories, so a grader can be checked against τ²'s own rewards.

A record holds a task's gold replay or a failing variant of it: the tool calls made (both
sides, with τ²'s exact outputs), the agent's final text and how the run ended. The
trajectory τ² graded is rebuilt from it: the task's message history (or τ²'s greeting and a
customer message), one message per call followed by its result, the final agent text and
the customer's stop.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tautrait_core.domain.initial_state import history_messages
from tautrait_core.types.messages import STOP_TOKEN, Message, tool_call_messages
from tautrait_core.types.task import Task

GREETING = "Hi! How can I help you today?"
"""The agent's first message in a τ² run without a message history."""


def read_golden_records(path: Path) -> list[dict[str, Any]]:
    """The records of a golden ``.jsonl`` file, in file order."""
    with open(path, encoding="utf-8") as file:
        return [json.loads(line) for line in file if line.strip()]


def golden_trajectory(record: dict[str, Any], task: Task) -> list[Message]:
    """The trajectory τ² graded for ``record`` (a record of ``task``)."""
    history = task.initial_state.message_history if task.initial_state else None
    if history:
        messages = history_messages(history)
    else:
        messages = [
            Message(role="assistant", content=GREETING),
            Message(role="user", content="I need help with my account."),
        ]
    for index, call in enumerate(record["calls"]):
        messages += tool_call_messages(
            f"call_{index}", call["requestor"], call["name"], call["arguments"], call["output"]
        )
    messages.append(Message(role="assistant", content=record["final_assistant_text"]))
    messages.append(Message(role="user", content=STOP_TOKEN))
    return messages

"""τ²-bench trajectory messages <-> :class:`~tautrait_core.episode.messages.Message`.

τ² keeps tool-call arguments as objects and marks each call and tool result with the side
that made it (``requestor``); tautrait keeps arguments as JSON text and marks only the
customer's calls (``requestor="user"``).
"""

from __future__ import annotations

import json
from typing import Any

from tautrait_core.episode.messages import Message, ToolCall

_MESSAGE_ROLES = ("system", "user", "assistant", "tool")


def message_from_tau2(data: dict[str, Any]) -> Message:
    """One τ² message (system, user, assistant or tool) as a :class:`Message`.

    Raises:
        ValueError: ``data`` is not a τ² message.
    """
    role = data.get("role") if isinstance(data, dict) else None
    if role not in _MESSAGE_ROLES:
        raise ValueError(f"not a τ² message (role {role!r})")
    if role == "tool":
        return Message(
            role="tool",
            content=data.get("content"),
            tool_call_id=data.get("id"),
            requestor="user" if data.get("requestor") == "user" else None,
        )
    calls = data.get("tool_calls")
    return Message(
        role=role,
        content=data.get("content"),
        tool_calls=[
            ToolCall(
                id=call.get("id") or "",
                name=call["name"],
                arguments=json.dumps(call.get("arguments") or {}),
            )
            for call in calls
        ]
        if calls is not None
        else None,
        requestor="user" if role == "user" and calls is not None else None,
    )


def message_to_tau2(message: Message, turn_idx: int | None = None) -> dict[str, Any]:
    """A :class:`Message` in τ²'s JSON shape (every field, as ``tau2 run`` dumps it)."""
    requestor = message.requestor or ("user" if message.role == "user" else "assistant")
    if message.role == "tool":
        return {
            "id": message.tool_call_id or "",
            "role": "tool",
            "content": message.content,
            "requestor": requestor,
            "error": bool(message.content and message.content.startswith("Error")),
            "turn_idx": turn_idx,
            "timestamp": None,
        }
    if message.role == "system":
        return {
            "role": "system",
            "content": message.content,
            "turn_idx": turn_idx,
            "timestamp": None,
        }
    return {
        "role": message.role,
        "content": message.content,
        "tool_calls": [
            {
                "id": call.id,
                "name": call.name,
                "arguments": _arguments(call),
                "requestor": requestor,
            }
            for call in message.tool_calls
        ]
        if message.tool_calls is not None
        else None,
        "turn_idx": turn_idx,
        "timestamp": None,
        "cost": None,
        "usage": None,
        "raw_data": None,
    }


def _arguments(call: ToolCall) -> Any:
    try:
        return call.parsed_arguments()
    except ValueError:
        return call.arguments

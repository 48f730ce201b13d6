"""tautrait messages as τ²-bench trajectory messages (reading them back:
:func:`tautrait_core.domain.initial_state.history_messages`).

τ² keeps tool-call arguments as objects and marks each call and tool result with the side
that made it (``requestor``); tautrait keeps arguments as JSON text and marks only the
customer's calls (``requestor="user"``).
"""

from __future__ import annotations

from typing import Any

from tautrait_core.types.messages import Message, ToolCall


def message_to_tau2(message: Message, turn_idx: int | None = None) -> dict[str, Any]:
    """An assistant, user or tool :class:`Message` in τ²'s JSON shape (every field, as
    ``tau2 run`` dumps it; τ² trajectories hold no system message)."""
    requestor = message.requestor or ("user" if message.role == "user" else "assistant")
    if message.role == "tool":
        return {
            "id": message.tool_call_id or "",
            "role": "tool",
            "content": message.content,
            "requestor": requestor,
            "error": message.tool_error,
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

"""What a gym policy sends and sees: actions parsed into messages, observations as JSON text.

Observations are JSON written with ``ensure_ascii``, so they hold only printable ASCII and
fit a gymnasium ``Text`` space over :data:`CHARSET`. This module does not import gymnasium.
"""

from __future__ import annotations

import json
import string
from typing import Any

from tautrait_core.types.messages import Message, ToolCall

CHARSET = string.printable
"""The characters of the environments' text spaces: printable ASCII and whitespace."""

MAX_OBSERVATION = 10_000_000
"""The longest observation text (a whole conversation and the tool schemas)."""

MAX_ACTION = 100_000
"""The longest action text (small enough that ``action_space.sample()`` is a usable random
policy: a random message to the user)."""


def to_json(value: Any) -> str:
    """``value`` as compact ASCII JSON (what the observations hold)."""
    return json.dumps(value, ensure_ascii=True)


def conversation_json(messages: list[Message]) -> str:
    """The agent-side conversation in OpenAI chat form, as JSON text."""
    return to_json([message.to_openai() for message in messages])


class ActionError(ValueError):
    """An action that is neither text nor a message of the documented JSON shape."""


def agent_message(action: str | dict[str, Any] | Message, call_prefix: str) -> Message:
    """The agent message an action stands for.

    An action is a :class:`Message`, a dict, or a string. A string that parses as a JSON
    object is read as a dict; any other string is a message to the user. A dict holds
    ``content`` (text for the user) and/or ``tool_calls``: a list of ``{"name": ...,
    "arguments": {...} or "{...}"}`` or of OpenAI tool calls (``{"id": ..., "type":
    "function", "function": {"name": ..., "arguments": "{...}"}}``). As in any episode only
    the first tool call runs. Calls without an ``id`` get ``call_prefix`` plus their index.

    Raises:
        ActionError: a dict without ``content`` or ``tool_calls``, or a malformed call.
    """
    if isinstance(action, Message):
        return action
    if isinstance(action, str):
        try:
            parsed = json.loads(action)
        except ValueError:
            return Message(role="assistant", content=action)
        if not isinstance(parsed, dict):
            return Message(role="assistant", content=action)
        action = parsed
    if not isinstance(action, dict) or not ({"content", "tool_calls"} & action.keys()):
        raise ActionError(
            'an action is text, or a JSON object with "content" and/or "tool_calls", such as '
            '{"tool_calls": [{"name": "find_user", "arguments": {"user_id": "u1"}}]}'
        )
    raw_calls = action.get("tool_calls") or []
    if not isinstance(raw_calls, list):
        raise ActionError('"tool_calls" must be a list of {"name": ..., "arguments": {...}}')
    calls = [_tool_call(raw, f"{call_prefix}{index}") for index, raw in enumerate(raw_calls)]
    content = action.get("content")
    return Message(
        role="assistant",
        content=None if content is None else str(content),
        tool_calls=calls or None,
    )


def _tool_call(raw: Any, default_id: str) -> ToolCall:
    if not isinstance(raw, dict):
        raise ActionError(f"a tool call must be a JSON object, not {raw!r}")
    function = raw.get("function") if isinstance(raw.get("function"), dict) else raw
    name = function.get("name")
    if not isinstance(name, str) or not name:
        raise ActionError(f'a tool call needs a "name": {raw!r}')
    arguments = function.get("arguments", {})
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments)
    return ToolCall(id=str(raw.get("id") or default_id), name=name, arguments=arguments)

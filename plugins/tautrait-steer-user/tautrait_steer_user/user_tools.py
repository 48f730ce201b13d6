"""The customer's tools through a steer service, which speaks text only.

In a dual-control domain the simulated customer may call their own tools. A steer service
answers with text, so the tools travel as text: the system prompt lists them and says how
to call one (a line ``Tool call: {"name": ..., "arguments": {...}}``), the customer's
earlier calls are written back into their turns in that form, and each tool result
becomes a ``user`` turn (``Tool result (NAME): ...``). A steered answer holding such a line
is read back as a tool call; the text before it stays the customer's private note.
"""

from __future__ import annotations

import json
from typing import Any

from tautrait_core import ToolCall

TOOL_CALL_PREFIX = "Tool call:"
TOOL_RESULT_PREFIX = "Tool result"

TOOLS_SECTION = f"""

Your tools (on your own device):
{{tools}}
To use one, answer with a single line: {TOOL_CALL_PREFIX} {{{{"name": "TOOL", \
"arguments": {{{{...}}}}}}}}
The results come back to you alone as "{TOOL_RESULT_PREFIX} (TOOL): ..." turns."""


def describe_tools(tools: list[dict[str, Any]]) -> str:
    """One line per tool: its name, description and argument names."""
    lines = []
    for schema in tools:
        function = schema.get("function", schema)
        arguments = ", ".join(function.get("parameters", {}).get("properties", {}))
        lines.append(f"- {function['name']}({arguments}): {function.get('description', '')}")
    return "\n".join(lines)


def text_messages(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The customer's chat with tool calls and results written as text, the tools listed
    in the system prompt."""
    written: list[dict[str, Any]] = []
    for message in messages:
        role = message["role"]
        content = str(message.get("content") or "")
        if role == "system":
            content += TOOLS_SECTION.format(tools=describe_tools(tools))
        elif role == "tool":
            role = "user"
            content = f"{TOOL_RESULT_PREFIX} ({message.get('name') or 'tool'}): {content}"
        for call in message.get("tool_calls") or []:
            function = call["function"]
            line = json.dumps(
                {"name": function["name"], "arguments": json.loads(function["arguments"] or "{}")}
            )
            content = f"{content}\n{TOOL_CALL_PREFIX} {line}".strip()
        written.append({"role": role, "content": content})
    return written


def read_tool_calls(text: str, call_id: str) -> tuple[str, list[ToolCall] | None]:
    """The text before the first ``Tool call:`` line, and the calls it names (``None``
    when the answer holds no readable call: it is then a message to the agent)."""
    before, marker, after = text.partition(TOOL_CALL_PREFIX)
    if not marker:
        return text, None
    try:
        call, _ = json.JSONDecoder().raw_decode(after.strip())
    except ValueError:
        return text, None
    if not isinstance(call, dict) or not isinstance(call.get("name"), str):
        return text, None
    arguments = call.get("arguments") or {}
    return before.strip(), [
        ToolCall(id=call_id, name=call["name"], arguments=json.dumps(arguments))
    ]

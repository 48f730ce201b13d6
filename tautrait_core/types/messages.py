"""The agent-side conversation: messages and tool calls in OpenAI chat form."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel

STOP_TOKEN = "###STOP###"
"""A user message containing this token ends the episode."""
TRANSFER_TOKEN = "###TRANSFER###"
"""With the τ² protocol, a user message containing this token ends the episode: the
customer was transferred to a human."""
OUT_OF_SCOPE_TOKEN = "###OUT-OF-SCOPE###"
"""With the τ² protocol, a user message containing this token ends the episode: the
customer's situation does not cover what the conversation needs."""
END_SIGNALS = (STOP_TOKEN, TRANSFER_TOKEN, OUT_OF_SCOPE_TOKEN)
"""The tokens that end an episode when a customer message contains one."""
TAU2_GREETING = "Hi! How can I help you today?"
"""The agent's fixed opening message with the τ² protocol."""
NOOP_REPLY = "I am not able to do anything for you."
"""What the ``noop`` agent answers, every turn: it never calls a tool."""


def read_out(text: str) -> str:
    """``text`` as a customer reading it aloud says it: the end signals it mentions become
    plain words (``STOP``), so reading an instruction never ends the episode (τ³'s banking
    instructions tell the customer when not to use ``###OUT-OF-SCOPE###``)."""
    for token in END_SIGNALS:
        text = text.replace(token, token.strip("#"))
    return text


class ToolCall(BaseModel):
    """A tool call as a model sent it; ``arguments`` is the raw JSON text."""

    id: str
    name: str
    arguments: str = "{}"

    def parsed_arguments(self) -> dict[str, Any]:
        """The arguments as a dict; raises ``ValueError`` if they are not a JSON object."""
        value = json.loads(self.arguments or "{}")
        if not isinstance(value, dict):
            raise ValueError("tool arguments must be a JSON object")
        return value


class Message(BaseModel):
    """One message of the agent-side conversation, in OpenAI chat form."""

    role: Literal["system", "user", "assistant", "tool"]
    content: str | None = None
    tool_calls: list[ToolCall] | None = None
    tool_call_id: str | None = None
    name: str | None = None
    requestor: Literal["assistant", "user"] | None = None
    """Who made a tool call (on a ``tool`` message, whose call it answers), in dual-control
    domains; ``None`` means the agent, as in every single-control episode."""
    error: bool | None = None
    """On a ``tool`` message: whether the call raised (τ²'s ToolMessage ``error``), kept
    only where a leading ``Error`` says otherwise (a tool's own ``Error: ...`` text, as τ³'s
    banking tools return); ``None``: as the text reads (see :attr:`tool_error`)."""

    @property
    def tool_error(self) -> bool:
        """Whether this tool message reports a call that raised."""
        if self.error is not None:
            return self.error
        return bool(self.content and self.content.startswith("Error"))

    def to_openai(self) -> dict[str, Any]:
        """The message as an OpenAI / litellm chat message dict."""
        message: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments},
                }
                for call in self.tool_calls
            ]
        if self.role == "tool":
            message["tool_call_id"] = self.tool_call_id
            message["name"] = self.name
        return message


def error_flag(content: str | None, raised: bool) -> bool | None:
    """:attr:`Message.error` for a tool result: ``raised`` where the text's leading
    ``Error`` says otherwise, else ``None``."""
    return None if raised == bool(content and content.startswith("Error")) else raised


def tool_call_messages(
    call_id: str, requestor: str, name: str, arguments: dict[str, Any], observation: str
) -> list[Message]:
    """One tool call and its result as an episode records them (``requestor`` ``"user"``
    for the customer's call in a dual-control domain)."""
    by_user: Literal["user"] | None = "user" if requestor == "user" else None
    call = ToolCall(id=call_id, name=name, arguments=json.dumps(arguments))
    return [
        Message(role=by_user or "assistant", tool_calls=[call], requestor=by_user),
        Message(
            role="tool", content=observation, tool_call_id=call_id, name=name, requestor=by_user
        ),
    ]

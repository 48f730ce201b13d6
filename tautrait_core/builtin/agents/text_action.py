"""The ``act`` and ``react`` agents: the model writes its action as text, not as a tool call.

The system prompt is the domain policy, a description of the tools (with ``respond`` for
talking to the customer) and the answer format. Each answer must hold one JSON object
``{"name": ..., "arguments": {...}}``; ``react`` writes a ``Thought:`` line before it,
``act`` writes the object alone. The agent turns the object into a tool call, or into a
message to the customer when the name is ``respond`` (``{"content": ...}``).

An answer whose action cannot be read is not sent anywhere: the agent shows the model its
answer and what was wrong, and asks again, at most :data:`FORMAT_RETRIES` times within the
step. When every attempt fails, :class:`ActionParseError` ends the episode as the agent's
failure (``fail`` / ``agent_error``, the reason and the last answer in ``error``). A
readable action whose ``arguments`` are not an object becomes a tool call anyway, so the
tool answers ``Error: ...`` as it would for a malformed native tool call.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from tautrait_core.episode.agent import Agent
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.llm.client import complete
from tautrait_core.types.messages import Message, ToolCall
from tautrait_core.types.task import RESPOND_ACTION

FORMAT_RETRIES = 2
"""How many times one step asks the model again after an unreadable action."""

ACTION_MARKER = "Action:"
THOUGHT_MARKER = "Thought:"
ACTION_LINE = re.compile(rf"^[ \t]*{ACTION_MARKER}", re.MULTILINE)

TOOLS_SECTION = """## Tools

You work one action at a time. An action is either a call to one of the tools below or a \
message to the customer. Each tool is given as JSON: its name, what it does, and the \
JSON schema of its arguments.

{tools}

To write to the customer, use the action "{respond}" with one argument, "content", holding \
your message. The customer sees only these messages; after a tool call you get the tool's \
result before you choose your next action."""

ACT_FORMAT = """## How to answer

Every answer is exactly one JSON object and nothing else, for example:
{{"name": "<tool name, or {respond}>", "arguments": {{"<argument>": "<value>"}}}}"""

REACT_FORMAT = """## How to answer

Every answer has two parts. First a line starting with "{thought}" where you reason \
briefly about the situation and what to do next; then a line starting with "{action}" \
followed by exactly one JSON object, for example:
{thought} The customer wants to know ... so I need to look up ...
{action} {{"name": "<tool name, or {respond}>", "arguments": {{"<argument>": "<value>"}}}}"""

RETRY_NOTE = (
    "Error: your last answer could not be carried out: {reason}. Answer again with one "
    "action in the format described in your instructions."
)


class ActionParseError(ValueError):
    """The model's answer holds no action the agent can carry out."""


@dataclass(frozen=True)
class TextAction:
    """An action read from the model's text.

    Attributes:
        name: A tool name, or ``respond``.
        arguments: The ``arguments`` value as written (normally an object).
        thought: The text before ``Action:`` (react's reasoning; may be empty).
    """

    name: str
    arguments: Any
    thought: str = ""


def parse_action(text: str) -> TextAction:
    """Read the action from a model's answer: the first JSON object after the first line
    that starts with ``Action:`` (or anywhere in the answer when there is no such line).

    Raises:
        ActionParseError: there is no JSON object, or it has no ``name``.
    """
    marker = ACTION_LINE.search(text)
    thought, body = (text[: marker.start()], text[marker.end() :]) if marker else ("", text)
    start = body.find("{")
    if start < 0:
        raise ActionParseError('no JSON object {"name": ..., "arguments": {...}} was found')
    try:
        value, _ = json.JSONDecoder().raw_decode(body[start:])
    except json.JSONDecodeError as exc:
        raise ActionParseError(f"the action is not valid JSON ({exc})") from exc
    if not isinstance(value, dict):
        raise ActionParseError("the action must be a JSON object")
    name = value.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ActionParseError('the action has no "name"')
    thought = thought.strip().removeprefix(THOUGHT_MARKER).strip()
    return TextAction(name=name.strip(), arguments=value.get("arguments", {}), thought=thought)


def action_message(action: TextAction, call_id: str) -> Message:
    """The agent message for ``action``: a reply to the customer, or one tool call (with
    the thought as its text).

    Raises:
        ActionParseError: a ``respond`` action without a string ``content``.
    """
    if action.name == RESPOND_ACTION:
        content = action.arguments.get("content") if isinstance(action.arguments, dict) else None
        if not isinstance(content, str):
            raise ActionParseError(f'"{RESPOND_ACTION}" needs {{"content": "<your message>"}}')
        return Message(role="assistant", content=content)
    call = ToolCall(id=call_id, name=action.name, arguments=json.dumps(action.arguments))
    return Message(role="assistant", content=action.thought or None, tool_calls=[call])


def describe_tools(schemas: list[dict[str, Any]]) -> str:
    """One JSON line per tool: name, description and argument schema."""
    return "\n".join(json.dumps(schema.get("function", schema)) for schema in schemas)


class TextActionAgent(Agent):
    """Shared by ``act`` and ``react``: prompt building, action parsing and retries.

    The model sees its own earlier answers exactly as it wrote them; the customer's
    messages come as ``user`` turns and tool results as ``user`` turns naming the tool.
    """

    answer_format: ClassVar[str]

    def __init__(self, context: EpisodeContext) -> None:
        super().__init__(context)
        self._answers: list[str] = []

    def system_prompt(self, policy: str) -> str:
        """The policy, the tools and the answer format."""
        tools = TOOLS_SECTION.format(
            tools=describe_tools(list(self.context.domain.tool_schemas)), respond=RESPOND_ACTION
        )
        answer = self.answer_format.format(
            respond=RESPOND_ACTION, thought=THOUGHT_MARKER, action=ACTION_MARKER
        )
        return f"{policy}\n\n{tools}\n\n{answer}"

    def prompt(self, conversation: list[Message]) -> list[dict[str, Any]]:
        """The conversation as this agent's model reads it."""
        policy = self.context.domain.policy
        answers = iter(self._answers)
        messages: list[dict[str, Any]] = []
        for message in conversation:
            if message.role == "system":
                policy = message.content or policy
            elif message.role == "user":
                messages.append({"role": "user", "content": message.content or ""})
            elif message.role == "tool":
                result = f"Result of {message.name}: {message.content or ''}"
                messages.append({"role": "user", "content": result})
            else:
                messages.append({"role": "assistant", "content": next(answers, "")})
        return [{"role": "system", "content": self.system_prompt(policy)}, *messages]

    async def next_message(self, conversation: list[Message]) -> Message:
        messages = self.prompt(conversation)
        call_id = f"action_{len(self._answers) + 1}"
        attempts = 0
        while True:
            completion = await complete(self.context.agent_model(), messages)
            self.usage.add(completion.usage)
            attempts += 1
            answer = completion.message.content or ""
            try:
                reply = action_message(parse_action(answer), call_id)
            except ActionParseError as exc:
                if attempts > FORMAT_RETRIES:
                    raise ActionParseError(
                        f"no readable action after {attempts} attempts: {exc}; "
                        f"last answer: {answer[:300]!r}"
                    ) from exc
                messages.append({"role": "assistant", "content": answer})
                messages.append({"role": "user", "content": RETRY_NOTE.format(reason=exc)})
                continue
            self._answers.append(answer)
            return reply


class ActAgent(TextActionAgent):
    """Writes each action as a bare JSON object."""

    name = "act"
    description = "writes each action as a JSON object in its text (no native tool calls)"
    answer_format = ACT_FORMAT


class ReActAgent(TextActionAgent):
    """Writes a thought, then the action as a JSON object."""

    name = "react"
    description = "writes a thought, then the action as a JSON object (no native tool calls)"
    answer_format = REACT_FORMAT

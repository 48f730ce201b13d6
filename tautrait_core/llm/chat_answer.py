"""An OpenAI-compatible chat-completion answer, read the way litellm reads it.

The direct path (:mod:`tautrait_core.llm.direct`) reads a server's JSON answer itself, so
that its message, tool calls, finish reason and usage are the ones ``litellm.acompletion``
gives for the same answer:

- reasoning a model wrote into its text (``<think>...</think>`` before the answer) is taken
  out of the text, unless the answer carries its reasoning in a field of its own;
- a tool call without an id gets a fresh one, arguments given as an object are written as
  JSON, and OpenAI's ``multi_tool_use.parallel`` pseudo-call becomes the calls it wraps;
- finish reasons are OpenAI's (``tool_calls`` for a ``stop`` with tool calls, ``stop`` for
  a missing or unknown one).

:func:`read_answer` gives the answer as the OpenAI-style dict that the response cache stores
and that :func:`tautrait_core.llm.client.complete` turns into a completion.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from typing import Any

FINISH_REASONS = {
    "length": {"length", "max_tokens", "MAX_TOKENS", "CONTINUATION", "compaction", "pause_turn"}
    | {"model_context_window_exceeded"},
    "tool_calls": {"tool_calls", "tool_use", "TOOL_CALL"},
    "function_call": {"function_call"},
    "content_filter": {"content_filter", "content_filtered", "refusal", "sensitive"}
    | {"ERROR_TOXIC", "SAFETY", "RECITATION", "LANGUAGE", "OTHER", "BLOCKLIST", "SPII"}
    | {"PROHIBITED_CONTENT", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT", "NO_IMAGE"}
    | {"IMAGE_RECITATION", "IMAGE_OTHER", "ESCALATION", "guardrail_intervened"},
}
"""OpenAI's finish reasons and the ones other servers report that litellm reads as each
(litellm's mapping); any other (``stop``, ``eos``, ``end_turn``, unknown ones) is ``stop``."""

_OPENAI_FINISH = {given: openai for openai, names in FINISH_REASONS.items() for given in names}

PARALLEL_PSEUDO_CALL = "multi_tool_use.parallel"

_REASONING_FIELDS = ("reasoning_content", "reasoning")
_THINKING = re.compile(
    r"<(?:think|thinking|budget:thinking)>(.*?)</(?:think|thinking|budget:thinking)>(.*)", re.S
)


class NotAChatCompletion(ValueError):
    """The answer is JSON but not a chat completion."""


def read_answer(data: Any) -> dict[str, Any]:
    """The chat completion ``data`` (the server's parsed JSON) as litellm would give it:
    the first choice's message, finish reason, and the usage.

    Raises:
        NotAChatCompletion: ``data`` holds no choice with a message.
    """
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices:
        raise NotAChatCompletion(f"no choices in the answer: {str(data)[:200]}")
    choice = choices[0]
    raw = choice.get("message") if isinstance(choice, dict) else None
    if not isinstance(raw, dict):
        raise NotAChatCompletion(f"the first choice has no message: {str(choice)[:200]}")
    content = raw.get("content")
    if content is not None and not isinstance(content, str):
        raise NotAChatCompletion(f"the message's content is not text: {str(content)[:200]}")
    if content and not any(field in raw for field in _REASONING_FIELDS):
        thinking = _THINKING.match(content)
        if thinking:
            content = thinking.group(2)
    message: dict[str, Any] = {"role": "assistant", "content": content}
    tool_calls = _tool_calls(raw.get("tool_calls"))
    if tool_calls is not None:
        message["tool_calls"] = tool_calls
    finish = choice.get("finish_reason") or "stop"
    if finish == "stop" and tool_calls:
        finish = "tool_calls"
    finish = _OPENAI_FINISH.get(finish, "stop") if isinstance(finish, str) else "stop"
    usage = data.get("usage")
    return {
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": usage if isinstance(usage, dict) else {},
    }


def _tool_calls(raw: Any) -> list[dict[str, Any]] | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(isinstance(call, dict) for call in raw):
        raise NotAChatCompletion(f"the message's tool calls are not a list: {str(raw)[:200]}")
    calls = [_tool_call(call) for call in raw]
    return _unwrap_parallel(calls)


def _tool_call(raw: dict[str, Any]) -> dict[str, Any]:
    function = raw.get("function")
    if not isinstance(function, dict):
        raise NotAChatCompletion(f"a tool call has no function: {str(raw)[:200]}")
    arguments = function.get("arguments")
    if arguments is None:
        arguments = ""
    elif not isinstance(arguments, str):
        arguments = json.dumps(arguments)
    return {
        "id": raw.get("id") or str(uuid.uuid4()),
        "type": "function",
        "function": {"name": function.get("name") or "", "arguments": arguments},
    }


def _unwrap_parallel(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``multi_tool_use.parallel`` calls replaced by the calls they wrap (left as they are
    when any call's arguments are not JSON)."""
    try:
        arguments = [json.loads(call["function"]["arguments"]) for call in calls]
        unwrapped = []
        for call, given in zip(calls, arguments, strict=True):
            if call["function"]["name"] != PARALLEL_PSEUDO_CALL:
                unwrapped.append(call)
                continue
            for index, use in enumerate(given["tool_uses"]):
                name = use["recipient_name"].removeprefix("functions.")
                unwrapped.append(
                    {
                        "id": f"{call['id']}_{index}",
                        "type": "function",
                        "function": {"name": name, "arguments": json.dumps(use["parameters"])},
                    }
                )
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return calls  # RecursionError: arguments nested too deeply to parse
    return unwrapped


def nesting_depths(text: str) -> Iterator[tuple[int, int]]:
    """``(index, depth)`` at each ``[`` or ``{`` of the JSON text ``text`` outside its
    strings: how deeply its arrays and objects nest there, found without parsing it."""
    depth = 0
    in_string = escaped = False
    for index, character in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif character == "\\":
                escaped = True
            elif character == '"':
                in_string = False
        elif character == '"':
            in_string = True
        elif character in "[{":
            depth += 1
            yield index, depth
        elif character in "]}":
            depth -= 1


def cut_past_depth(text: str, limit: int) -> str:
    """The JSON text ``text`` cut where its arrays and objects nest deeper than ``limit``
    (``text`` itself when they never do), found without parsing it."""
    for index, depth in nesting_depths(text):
        if depth > limit:
            return text[:index]
    return text

"""How the direct path reads a chat-completion answer: as litellm reads it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tautrait_core.llm.chat_answer import NotAChatCompletion, read_answer

USAGE = {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}


def answer(message: dict[str, Any], finish_reason: Any = "stop", **fields: Any) -> dict[str, Any]:
    choice = {"index": 0, "message": message, "finish_reason": finish_reason}
    return {"choices": [choice], "usage": USAGE, **fields}


def call(name: str, arguments: Any, id: str | None = "c1") -> dict[str, Any]:
    called: dict[str, Any] = {"type": "function", "function": {"name": name}}
    if arguments is not None:
        called["function"]["arguments"] = arguments
    if id is not None:
        called["id"] = id
    return called


def read(data: dict[str, Any]) -> tuple[Any, Any, Any]:
    """Content, tool calls (id, name, arguments) and finish reason."""
    read_data = read_answer(data)
    choice = read_data["choices"][0]
    calls = [
        (c["id"], c["function"]["name"], c["function"]["arguments"])
        for c in choice["message"].get("tool_calls") or []
    ]
    return choice["message"]["content"], calls, choice["finish_reason"]


@pytest.mark.parametrize(
    ("content", "fields", "expected"),
    [
        ("<think>plan</think>Hello", {}, "Hello"),
        ("<think>\nplan\n</think>\n\nHello", {}, "\n\nHello"),
        ("<thinking>plan</thinking>Hi", {}, "Hi"),
        ("Hello <think>not a prefix</think>", {}, "Hello <think>not a prefix</think>"),
        ("<think>plan</think>Hello", {"reasoning_content": "r"}, "<think>plan</think>Hello"),
        ("<think>plan</think>Hello", {"reasoning": "r"}, "<think>plan</think>Hello"),
    ],
)
def test_reasoning_written_before_the_text_is_taken_out(content, fields, expected) -> None:
    message = {"role": "assistant", "content": content, **fields}
    assert read(answer(message))[0] == expected


@pytest.mark.parametrize(
    ("finish_reason", "with_calls", "expected"),
    [
        ("stop", False, "stop"),
        (None, False, "stop"),
        ("length", False, "length"),
        ("eos", False, "stop"),
        ("banana", False, "stop"),
        ("max_tokens", False, "length"),
        ("tool_use", True, "tool_calls"),
        ("stop", True, "tool_calls"),
        (None, True, "tool_calls"),
        ("eos", True, "stop"),
        ("content_filter", False, "content_filter"),
    ],
)
def test_finish_reasons_are_openais(finish_reason, with_calls, expected) -> None:
    message: dict[str, Any] = {"role": "assistant", "content": "x"}
    if with_calls:
        message["tool_calls"] = [call("f", "{}")]
    assert read(answer(message, finish_reason))[2] == expected


def test_tool_calls_are_completed_as_litellm_completes_them() -> None:
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [call("f", {"a": 1}), call("g", None), call("h", "{}", id=None)],
    }
    content, calls, finish = read(answer(message, "tool_calls"))
    assert content is None and finish == "tool_calls"
    assert calls[:2] == [("c1", "f", '{"a": 1}'), ("c1", "g", "")]
    assert calls[2][1:] == ("h", "{}") and len(calls[2][0]) == 36  # a fresh uuid


def test_openais_parallel_pseudo_call_becomes_the_calls_it_wraps() -> None:
    uses = [
        {"recipient_name": "functions.find", "parameters": {"x": 1}},
        {"recipient_name": "list", "parameters": {}},
    ]
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [call("multi_tool_use.parallel", json.dumps({"tool_uses": uses}))],
    }
    assert read(answer(message))[1] == [("c1_0", "find", '{"x": 1}'), ("c1_1", "list", "{}")]


def test_malformed_arguments_are_kept_as_they_are() -> None:
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [call("multi_tool_use.parallel", '{"tool_uses": ['), call("f", '{"a": 1')],
    }
    assert [c[2] for c in read(answer(message))[1]] == ['{"tool_uses": [', '{"a": 1']


def test_usage_is_kept_and_a_missing_one_is_empty() -> None:
    message = {"role": "assistant", "content": "x"}
    assert read_answer(answer(message))["usage"] == USAGE
    assert read_answer({"choices": [{"message": message}]})["usage"] == {}


@pytest.mark.parametrize(
    "data",
    [
        {"choices": []},
        {"error": {"message": "overloaded"}},
        [],
        {"choices": [{"message": None}]},
        {"choices": [{"message": {"content": [{"type": "text", "text": "hi"}]}}]},
        {"choices": [{"message": {"content": "x", "tool_calls": "f"}}]},
    ],
    ids=["no-choices", "error-object", "list", "no-message", "content-list", "bad-tool-calls"],
)
def test_what_is_not_a_chat_completion_is_refused(data) -> None:
    with pytest.raises(NotAChatCompletion):
        read_answer(data)

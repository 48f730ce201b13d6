"""``tautrait export --format sft|preference``: training data in the OpenAI chat shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.interchange.training_data import chat_messages
from tautrait_core.scripted.server import ScriptedModelServer, reply_text
from tautrait_core.types.messages import STOP_TOKEN, Message, ToolCall

REFUSAL = "Sorry, I cannot help with that."
ROLES = {"system", "user", "assistant", "tool"}


def invoke(*arguments: str) -> str:
    """What the command wrote on standard output (its notes go to standard error)."""
    result = CliRunner().invoke(cli, list(arguments), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def run_id(*arguments: str) -> str:
    return json.loads(invoke("run", "--domain", "toylib", *arguments, "--json"))["run_id"]


def oracle_run() -> str:
    """Every task passes."""
    return run_id("--agent", "oracle")


def refusing_run(server: ScriptedModelServer) -> str:
    """Every task fails: the agent refuses at once, the scripted user stops."""
    return run_id(
        "--agent", "tool-calling", "--agent-model", "openai/refuser",
        "--agent-api-base", server.base_url, "--user", "scripted",
    )  # fmt: skip


def jsonl(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def assert_chat_messages(messages: list[dict[str, Any]]) -> None:
    """The OpenAI chat fine-tuning message shape, strictly."""
    calls: set[str] = set()
    for message in messages:
        assert message["role"] in ROLES
        if message["role"] == "assistant" and "tool_calls" in message:
            assert set(message) <= {"role", "content", "tool_calls"}
            for call in message["tool_calls"]:
                assert set(call) == {"id", "type", "function"} and call["type"] == "function"
                assert set(call["function"]) == {"name", "arguments"}
                assert isinstance(json.loads(call["function"]["arguments"]), dict)
                calls.add(call["id"])
        elif message["role"] == "tool":
            assert set(message) == {"role", "tool_call_id", "content"}
            assert message["tool_call_id"] in calls
        else:
            assert set(message) == {"role", "content"} and isinstance(message["content"], str)


def assert_tools(tools: list[dict[str, Any]]) -> None:
    assert tools and all(t["type"] == "function" for t in tools)
    assert all({"name", "description", "parameters"} <= set(t["function"]) for t in tools)


def test_sft_lines_are_the_passing_conversations(toy_plugin, tmp_path: Path) -> None:
    run = oracle_run()
    out = tmp_path / "sft.jsonl"
    invoke("export", run, "--format", "sft", "-o", str(out))
    lines = jsonl(out.read_text())
    assert len(lines) == 3
    for line in lines:
        assert set(line) == {"messages", "tools", "parallel_tool_calls"}
        assert_chat_messages(line["messages"])
        assert_tools(line["tools"])
    task = toy_plugin.TASKS[0]
    messages = lines[0]["messages"]
    assert messages[:2] == [
        {"role": "system", "content": toy_plugin.build_domain().policy},
        {"role": "user", "content": task.instruction},
    ]
    assert messages[2] == {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "oracle_1",
                "type": "function",
                "function": {
                    "name": "find_member",
                    "arguments": json.dumps(task.actions[0].kwargs),
                },
            }
        ],
    }
    assert messages[3] == {"role": "tool", "tool_call_id": "oracle_1", "content": "ann_1"}
    assert messages[4]["tool_calls"][0]["function"]["name"] == "borrow_book"
    assert messages[5]["content"].startswith("Dune lent to Ann Lee")
    assert messages[6]["role"] == "assistant" and messages[7] == {
        "role": "user",
        "content": STOP_TOKEN,
    }
    assert [t["function"]["name"] for t in lines[0]["tools"]][:2] == ["find_member", "get_book"]


def test_outcome_and_min_reward_choose_the_episodes(toy_plugin) -> None:
    with ScriptedModelServer(lambda request: reply_text(REFUSAL)) as server:
        failing = refusing_run(server)
    passing = oracle_run()
    assert jsonl(invoke("export", failing, "--format", "sft")) == []  # pass by default
    failed = jsonl(invoke("export", failing, "--format", "sft", "--outcome", "fail"))
    assert len(failed) == 3
    assert all(line["messages"][2] == {"role": "assistant", "content": REFUSAL} for line in failed)
    both = jsonl(invoke("export", failing, passing, "--format", "sft", "--outcome", "all"))
    assert len(both) == 6
    high = ["--outcome", "all", "--min-reward", "1"]
    rewarded = jsonl(invoke("export", failing, passing, "--format", "sft", *high))
    assert rewarded == jsonl(invoke("export", passing, "--format", "sft"))
    refused = CliRunner().invoke(
        cli, ["export", passing, "--format", "tau-bench", "--min-reward", "1"]
    )
    assert refused.exit_code == 2 and "--format sft only" in refused.output
    two = CliRunner().invoke(cli, ["export", passing, failing])
    assert two.exit_code == 2 and "one RUN id" in two.output


def test_preference_pairs_a_pass_and_a_fail_of_the_same_task(toy_plugin) -> None:
    with ScriptedModelServer(lambda request: reply_text(REFUSAL)) as server:
        failing = refusing_run(server)
    passing = oracle_run()
    pairs = jsonl(invoke("export", passing, failing, "--format", "preference"))
    assert len(pairs) == 3
    policy = toy_plugin.build_domain().policy
    for pair, task in zip(pairs, toy_plugin.TASKS, strict=True):
        assert set(pair) == {"input", "preferred_output", "non_preferred_output"}
        assert pair["input"]["messages"] == [
            {"role": "system", "content": policy},
            {"role": "user", "content": task.instruction},
        ]
        assert_tools(pair["input"]["tools"])
        assert pair["non_preferred_output"] == [
            {"role": "assistant", "content": REFUSAL},
            {"role": "user", "content": STOP_TOKEN},
        ]
        preferred = pair["preferred_output"]
        assert preferred[0]["tool_calls"][0]["function"]["name"] == task.actions[0].name
        assert_chat_messages(pair["input"]["messages"] + preferred)
    assert jsonl(invoke("export", passing, "--format", "preference")) == []  # nothing fails


def test_imported_upstream_results_export_too(toy_plugin, tmp_path: Path) -> None:
    with ScriptedModelServer(lambda request: reply_text(REFUSAL)) as server:
        failing = refusing_run(server)
    upstream = tmp_path / "toylib_results.json"
    invoke("export", failing, "-o", str(upstream))
    records = json.loads(upstream.read_text())
    records[0]["traj"][2]["tool_calls"] = [  # upstream keeps calls that never ran
        {"id": "x", "type": "function", "function": {"name": "think", "arguments": "{}"}}
    ]
    upstream.write_text(json.dumps(records))
    imported = json.loads(
        invoke("import-results", str(upstream), "--task-set", "test", "--traits", "none", "--json")
    )["run"]["id"]
    from_import = jsonl(invoke("export", imported, "--format", "sft", "--outcome", "fail"))
    original = jsonl(invoke("export", failing, "--format", "sft", "--outcome", "fail"))
    assert from_import == original
    pairs = jsonl(invoke("export", oracle_run(), imported, "--format", "preference"))
    assert len(pairs) == 3


def test_chat_messages_add_a_missing_policy_and_drop_unanswered_calls() -> None:
    transcript = [
        Message(role="user", content="hi"),
        Message(
            role="assistant",
            tool_calls=[
                ToolCall(id="a", name="look", arguments='{"q": 1}'),
                ToolCall(id="b", name="look"),
            ],
        ),
        Message(role="tool", content="found", tool_call_id="a", name="look"),
        Message(role="assistant", content="Found it."),
    ]
    assert chat_messages(transcript, "the policy") == [
        {"role": "system", "content": "the policy"},
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "a",
                    "type": "function",
                    "function": {"name": "look", "arguments": '{"q": 1}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "a", "content": "found"},
        {"role": "assistant", "content": "Found it."},
    ]

"""The act, react and few-shot agents, through litellm to the scripted server."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tautrait_core.builtin.agents.few_shot import FewShotAgent, load_demonstrations
from tautrait_core.builtin.agents.text_action import ActionParseError, parse_action
from tautrait_core.config.run_config import RunConfig
from tautrait_core.errors import ConfigError
from tautrait_core.run.runner import RunReport, execute
from tautrait_core.scripted.scripts import StrategyScript
from tautrait_core.scripted.server import Failure, Reply, ScriptedModelServer, reply_tool_call
from tautrait_core.types.result import Outcome, Termination
from tests.scripted_runs import scripted_config

TEXT_AGENTS = ["act", "react"]
ALL_AGENTS = ["act", "react", "few-shot"]
TERMINATING = ["transfer_to_librarian"]


@pytest.fixture
def few_shot_file(tmp_path: Path) -> Path:
    path = tmp_path / "few_shot.jsonl"
    lines = [
        json.dumps({"messages_display": f"user: example {n}\nassistant: ok"}) for n in range(7)
    ]
    path.write_text("\n".join(lines) + "\n\n")
    return path


def config(server: ScriptedModelServer, agent: str, few_shot: Path, **overrides: Any) -> RunConfig:
    return scripted_config(server, agent=agent, few_shot_file=str(few_shot), **overrides)


def agent_side(request: dict[str, Any]) -> bool:
    return request["model"] == "scripted-agent"


def failing_agent(
    script: StrategyScript, answers: list[Reply | Failure | str]
) -> Callable[[dict[str, Any]], object]:
    """The script, except that the agent's first requests get ``answers``, in order."""
    pending = list(answers)

    def responder(request: dict[str, Any]) -> object:
        if agent_side(request) and pending:
            return pending.pop(0)
        return script(request)

    return responder


def run(
    toy_plugin: Any, agent: str, few_shot: Path, answers: list[Any] = (), **overrides: Any
) -> tuple[RunReport, list[dict[str, Any]]]:
    script = StrategyScript(toy_plugin.TASKS, TERMINATING)
    with ScriptedModelServer(failing_agent(script, list(answers))) as server:
        report = execute(config(server, agent, few_shot, **overrides))
        return report, list(server.requests)


@pytest.mark.parametrize("agent", ALL_AGENTS)
def test_every_agent_passes_every_task(toy_plugin, few_shot_file, agent) -> None:
    report, requests = run(toy_plugin, agent, few_shot_file, num_trials=2)
    assert len(report.results) == 6
    assert report.metrics.average_reward == 1.0
    assert {r.termination for r in report.results} == {Termination.USER_STOP}
    first = next(r for r in report.results if r.task_id == 0)
    assert [m.name for m in first.messages if m.role == "tool"] == ["find_member", "borrow_book"]
    assert first.agent_usage.calls == 3
    system = next(r for r in requests if agent_side(r))["messages"][0]["content"]
    assert system.startswith(toy_plugin.build_domain().policy)


@pytest.mark.parametrize("agent", TEXT_AGENTS)
def test_text_agents_describe_tools_in_the_prompt_and_send_none(
    toy_plugin, few_shot_file, agent
) -> None:
    report, requests = run(toy_plugin, agent, few_shot_file, task_ids=[1])
    assert report.results[0].outcome is Outcome.PASS
    agent_requests = [r for r in requests if agent_side(r)]
    assert all("tools" not in r for r in agent_requests)
    system = agent_requests[0]["messages"][0]["content"]
    assert '"name": "borrow_book"' in system and '"respond"' in system
    assert ("Thought:" in system) is (agent == "react")
    # the tool result came back to the model as a user turn naming the tool
    last = agent_requests[-1]["messages"]
    assert last[-1]["role"] == "user" and last[-1]["content"].startswith("Result of get_book:")
    assert last[-2]["role"] == "assistant" and "get_book" in last[-2]["content"]
    # the customer saw only the reply, not the JSON action
    reply = report.results[0].messages[-2]
    assert reply.role == "assistant" and reply.content == "Here you go: CL-4"


def test_react_keeps_its_thought_with_the_tool_call(toy_plugin, few_shot_file) -> None:
    report, _ = run(toy_plugin, "react", few_shot_file, task_ids=[1])
    call = next(m for m in report.results[0].messages if m.tool_calls)
    assert call.content == "next step."
    assert json.loads(call.tool_calls[0].arguments) == {"book_id": "B2"}


@pytest.mark.parametrize("agent", ALL_AGENTS)
def test_transient_failures_are_retried(toy_plugin, few_shot_file, agent) -> None:
    failures = [
        Failure(status=429, retry_after=0.01),
        Failure(status=503),
        Failure(delay_s=1.5),  # past the client timeout
        Failure(truncated=True),
    ]
    report, requests = run(toy_plugin, agent, few_shot_file, failures, task_ids=[0], timeout_s=1)
    result = report.results[0]
    assert result.outcome is Outcome.PASS, result.error
    assert [c.attempts for c in result.calls if c.role == "agent"] == [5, 1, 1]
    assert len([r for r in requests if agent_side(r)]) == 3 + 4


@pytest.mark.parametrize("agent", ALL_AGENTS)
def test_persistent_provider_failure_is_an_error_and_every_pair_is_stored(
    toy_plugin, few_shot_file, agent
) -> None:
    script = StrategyScript(toy_plugin.TASKS, TERMINATING)
    broken = {"agent": True}

    def responder(request: dict[str, Any]) -> object:
        if agent_side(request) and broken["agent"]:
            return Failure(status=500)
        return script(request)

    with ScriptedModelServer(responder) as server:
        report = execute(config(server, agent, few_shot_file, max_retries=1, num_trials=2))
        assert sorted((r.task_id, r.trial) for r in report.results) == [
            (t, n) for t in range(3) for n in range(2)
        ]
        assert {(r.outcome, r.termination) for r in report.results} == {
            (Outcome.ERROR, Termination.PROVIDER_ERROR)
        }
        assert "after 2 attempts" in (report.results[0].error or "")
        broken["agent"] = False
        resumed = execute(config(server, agent, few_shot_file, resume=report.run.id))
    assert [r.outcome for r in resumed.results] == [Outcome.PASS] * 6


@pytest.mark.parametrize("agent", TEXT_AGENTS)
def test_an_unreadable_action_is_asked_again(toy_plugin, few_shot_file, agent) -> None:
    garbage = ["I will look that up for you.", '{"arguments": {}}', '{"name": "respond"']
    report, requests = run(toy_plugin, agent, few_shot_file, garbage[:2], task_ids=[1])
    result = report.results[0]
    assert result.outcome is Outcome.PASS
    assert result.agent_usage.calls == 2 + 2
    attempts = [r["messages"] for r in requests if agent_side(r)]
    assert attempts[1][-2:] == [
        {"role": "assistant", "content": garbage[0]},
        {
            "role": "user",
            "content": "Error: your last answer could not be carried out: no JSON object "
            '{"name": ..., "arguments": {...}} was found. Answer again with one action in '
            "the format described in your instructions.",
        },
    ]
    assert 'the action has no "name"' in attempts[2][-1]["content"]
    # failed attempts are not part of the agent's later prompts
    later = [r for r in requests if agent_side(r)][-1]["messages"]
    assert all(m["content"] not in garbage for m in later)


@pytest.mark.parametrize("agent", TEXT_AGENTS)
def test_actions_that_stay_unreadable_fail_the_episode(toy_plugin, few_shot_file, agent) -> None:
    script = StrategyScript(toy_plugin.TASKS, TERMINATING)

    def responder(request: dict[str, Any]) -> object:
        return '{"name": "respond", "arguments": {}}' if agent_side(request) else script(request)

    with ScriptedModelServer(responder) as server:
        report = execute(config(server, agent, few_shot_file, num_trials=2))
    assert len(report.results) == 6
    result = report.results[0]
    assert (result.outcome, result.termination) == (Outcome.FAIL, Termination.AGENT_ERROR)
    assert result.error.startswith("agent: ActionParseError: no readable action after 3 attempts")
    assert '"respond" needs {"content": "<your message>"}' in result.error
    assert result.reward_info is not None and result.agent_usage.calls == 3


def test_bad_arguments_in_a_text_action_are_a_tool_error(toy_plugin, few_shot_file) -> None:
    bad = '{"name": "find_member", "arguments": "ann@example.org"}'
    report, _ = run(toy_plugin, "act", few_shot_file, [bad], task_ids=[0])
    result = report.results[0]
    observations = [m.content for m in result.messages if m.role == "tool"]
    assert observations[0].startswith("Error: the arguments for find_member are not a valid")
    assert result.outcome is Outcome.PASS  # the script went on with the next gold action


def test_malformed_native_tool_call_arguments_are_a_tool_error(toy_plugin, few_shot_file) -> None:
    malformed = reply_tool_call("find_member", '{"email": ')
    report, _ = run(toy_plugin, "few-shot", few_shot_file, [malformed], task_ids=[0])
    result = report.results[0]
    assert result.messages[3].content.startswith("Error: the arguments for find_member")
    assert result.outcome is Outcome.PASS


def test_few_shot_prompt_shows_five_seeded_examples(toy_plugin, few_shot_file) -> None:
    _, requests = run(toy_plugin, "few-shot", few_shot_file, task_ids=[1], num_trials=2)
    systems = [r["messages"][0]["content"] for r in requests if agent_side(r)]
    assert systems[0].count("### Example ") == 5
    assert "## Example conversations" in systems[0]
    _, again = run(toy_plugin, "few-shot", few_shot_file, task_ids=[1], num_trials=2)
    assert [r["messages"][0]["content"] for r in again if agent_side(r)] == systems


def test_few_shot_file_problems_are_config_errors(tmp_path: Path) -> None:
    def check(path: str | None) -> str:
        with pytest.raises(ConfigError) as caught:
            FewShotAgent.check_config(RunConfig(agent="few-shot", few_shot_file=path))
        return str(caught.value)

    assert "--few-shot-file" in check(None)
    assert "not found" in check(str(tmp_path / "missing.jsonl"))
    (tmp_path / "empty.jsonl").write_text("\n")
    assert "has no examples" in check(str(tmp_path / "empty.jsonl"))
    (tmp_path / "bad.jsonl").write_text('{"messages_display": "a"}\n{"messages": []}\n')
    assert "line 2: expected a JSON object with a non-empty 'messages_display'" in check(
        str(tmp_path / "bad.jsonl")
    )
    (tmp_path / "broken.jsonl").write_text("{oops\n")
    assert "line 1: not JSON" in check(str(tmp_path / "broken.jsonl"))
    (tmp_path / "ok.jsonl").write_text('{"messages_display": "a"}\n\n{"messages_display": "b"}')
    assert load_demonstrations(tmp_path / "ok.jsonl") == ["a", "b"]


def test_a_bad_few_shot_file_stops_the_run_before_it_starts(toy_plugin, tmp_path: Path) -> None:
    with ScriptedModelServer() as server:
        with pytest.raises(ConfigError, match="not found"):
            execute(config(server, "few-shot", tmp_path / "missing.jsonl"))
        assert server.requests == []


@pytest.mark.parametrize(
    ("text", "name", "arguments", "thought"),
    [
        ('{"name": "get_book", "arguments": {"book_id": "B2"}}', "get_book", {"book_id": "B2"}, ""),
        (
            'Thought: look it up.\nAction: {"name": "get_book", "arguments": {}}',
            "get_book",
            {},
            "look it up.",
        ),
        (
            'Thought: my next Action: is a lookup\nAction:\n```json\n{"name": "x"}\n```',
            "x",
            {},
            "my next Action: is a lookup",
        ),
        (
            'Action: {"name": "respond", "arguments": {"content": "Action: {}"}}',
            "respond",
            {"content": "Action: {}"},
            "",
        ),
    ],
)
def test_parse_action_reads_the_action(text, name, arguments, thought) -> None:
    action = parse_action(text)
    assert (action.name, action.arguments, action.thought) == (name, arguments, thought)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("just words", "no JSON object"),
        ('Action: {"name": "x", ', "not valid JSON"),
        ('{"name": ""}', 'no "name"'),
        ("Action: [1, 2]", "no JSON object"),
    ],
)
def test_parse_action_names_what_is_wrong(text, reason) -> None:
    with pytest.raises(ActionParseError, match=reason):
        parse_action(text)

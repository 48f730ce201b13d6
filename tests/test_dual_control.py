"""Dual control (τ²-bench protocol): initial state, who runs and sees which tool calls, and
how an episode ends. The toy phone domain is driven through the real litellm path by the
scripted model server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tautrait_core.analysis.transcript import transcript
from tautrait_core.domain.initial_state import InitialStateError, apply_initial_state
from tautrait_core.domain.state import StateTemplate
from tautrait_core.interchange.tau2_results import _tau2_termination
from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager
from tautrait_core.run.runner import execute
from tautrait_core.scripted.server import Reply, ScriptedModelServer, reply_text, reply_tool_call
from tautrait_core.types.messages import TAU2_GREETING
from tautrait_core.types.result import EpisodeResult, Outcome, Termination
from tautrait_core.types.task import Task
from tests.plugins import toy_phone
from tests.scripted_runs import scripted_config

USER_TOOLS = {"check_status_bar", "toggle_airplane_mode"}


@pytest.fixture
def phone_plugin() -> Iterator[Any]:
    reset_plugin_manager()
    manager = get_plugin_manager()
    manager.register(toy_phone, name="toy_phone")
    try:
        yield toy_phone
    finally:
        manager.unregister("toy_phone")
        reset_plugin_manager()


class Script:
    """Answers the agent's and the user's requests from two lists, in order."""

    def __init__(self, agent: list[Reply], user: list[Reply]) -> None:
        self.replies = {"scripted-agent": list(agent), "scripted-user": list(user)}
        self.requests: dict[str, list[dict[str, Any]]] = {"scripted-agent": [], "scripted-user": []}

    def __call__(self, request: dict[str, Any]) -> Reply:
        model = request["model"]
        self.requests[model].append(request)
        pending = self.replies[model]
        return pending.pop(0) if pending else reply_text("###STOP###")


def run(script: Script, task_id: int = 0, **overrides: Any) -> EpisodeResult:
    with ScriptedModelServer(script) as server:
        settings = {"domain": "toyphone", "task_ids": [task_id], "max_steps": 50, **overrides}
        report = execute(scripted_config(server, **settings))
    (result,) = report.results
    return result


def two_calls(*calls: tuple[str, dict[str, Any]]) -> Reply:
    return Reply(tool_calls=list(calls))


def fixing_script() -> Script:
    """The customer reports no signal; the agent checks and resumes the line in one message
    of two calls, then asks for airplane mode off; the customer toggles it, looks at the
    status bar and stops."""
    return Script(
        agent=[
            two_calls(("get_line", {"line_id": "L1"}), ("resume_line", {"line_id": "L1"})),
            reply_text("Your line is back. Please switch airplane mode off."),
        ],
        user=[
            reply_text("My phone has no signal."),
            reply_tool_call("toggle_airplane_mode", {}),
            reply_tool_call("check_status_bar", {}),
            reply_text("It works now. ###STOP###"),
        ],
    )


def test_initial_state_merges_data_runs_actions_and_syncs(phone_plugin) -> None:
    domain = phone_plugin.build_domain()
    template = StateTemplate("toyphone", domain.tables, domain.seed_data())
    with template.new_episode() as db:
        assert apply_initial_state(domain, db, domain.task_sets["test"].tasks[0]) == []
        assert phone_plugin.state(db) == {
            "line": {"line_id": "L1", "status": "suspended"},
            "phone": {"phone_id": "P1", "line_id": "L1", "airplane_mode": True, "signal": "none"},
        }


def test_history_tool_calls_are_run_again_and_checked(phone_plugin) -> None:
    domain = phone_plugin.build_domain()
    template = StateTemplate("toyphone", domain.tables, domain.seed_data())
    task = domain.task_sets["test"].tasks[1]
    with template.new_episode() as db:
        history = apply_initial_state(domain, db, task)
    assert [(m.role, m.tool_call_id, m.name) for m in history] == [
        ("user", None, None),
        ("assistant", None, None),
        ("tool", "h1", "get_line"),
        ("assistant", None, None),
    ]
    assert json.loads(history[1].tool_calls[0].arguments) == {"line_id": "L1"}

    changed = task.model_dump()
    changed["initial_state"]["message_history"][2]["content"] = '{"status": "suspended"}'
    with template.new_episode() as db, pytest.raises(InitialStateError, match="get_line"):
        apply_initial_state(domain, db, Task.model_validate(changed))


def test_an_unknown_initialization_function_is_named(phone_plugin) -> None:
    domain = phone_plugin.build_domain()
    template = StateTemplate("toyphone", domain.tables, domain.seed_data())
    task = Task.model_validate(
        {
            "user_id": "P1",
            "instruction": "x",
            "initial_state": {
                "initialization_actions": [
                    {"env_type": "assistant", "func_name": "toggle_airplane_mode"}
                ]
            },
        }
    )
    with template.new_episode() as db, pytest.raises(InitialStateError, match="assistant-side"):
        apply_initial_state(domain, db, task)


def test_each_side_runs_its_own_calls_in_order_and_sees_only_its_own(phone_plugin) -> None:
    script = fixing_script()
    result = run(script)
    assert result.termination is Termination.USER_STOP
    assert result.reward == 1.0  # graded on the task's env assertion: the phone has service
    assert result.reward_info.reward_basis == ["ENV_ASSERTION"]
    roles = [(m.role, m.requestor, m.name) for m in result.messages]
    assert roles == [
        ("system", None, None),
        ("assistant", None, None),  # the greeting
        ("user", None, None),
        ("assistant", None, None),  # two calls in one message
        ("tool", None, "get_line"),
        ("tool", None, "resume_line"),
        ("assistant", None, None),
        ("user", "user", None),
        ("tool", "user", "toggle_airplane_mode"),
        ("user", "user", None),
        ("tool", "user", "check_status_bar"),
        ("user", None, None),
    ]
    assert result.messages[1].content == TAU2_GREETING
    assert json.loads(result.messages[5].content)["status"] == "active"  # both calls ran
    assert result.messages[10].content == "Airplane mode: off. Signal: good"  # synced
    assert result.steps == 9  # hops: each message and each batch of tool results

    agent_requests = script.requests["scripted-agent"]
    offered = {tool["function"]["name"] for tool in agent_requests[0]["tools"]}
    assert offered == {"get_line", "resume_line"}
    last_agent_view = json.dumps(agent_requests[-1]["messages"])
    assert not any(name in last_agent_view for name in USER_TOOLS)
    assert agent_requests[-1]["messages"][1] == {"role": "assistant", "content": TAU2_GREETING}

    user_requests = script.requests["scripted-user"]
    assert {t["function"]["name"] for t in user_requests[0]["tools"]} == USER_TOOLS
    assert user_requests[0]["messages"][1]["content"] == TAU2_GREETING
    last_user_view = user_requests[-1]["messages"]
    assert "get_line" not in json.dumps(last_user_view)  # the agent's calls stay hidden
    assert [m["role"] for m in last_user_view[-4:]] == ["assistant", "tool", "assistant", "tool"]
    assert last_user_view[-1]["content"] == "Airplane mode: off. Signal: good"

    shown = [(entry.kind, entry.tool) for entry in transcript(result)]
    assert ("tool_call", "toggle_airplane_mode") in shown  # the customer's calls are shown
    assert ("user", None) not in shown[7:9]  # a call without text shows no empty message


@pytest.mark.parametrize(
    ("termination", "tau2_reason"),
    [
        (Termination.USER_TRANSFER, "user_stop"),
        (Termination.USER_OUT_OF_SCOPE, "user_stop"),
        (Termination.AGENT_STOP, "agent_stop"),
        (Termination.TOO_MANY_ERRORS, "too_many_errors"),
    ],
)
def test_tau2_results_files_name_each_termination_as_tau2_does(termination, tau2_reason) -> None:
    result = EpisodeResult(
        task_id=0, trial=0, outcome=Outcome.FAIL, reward=0.0, termination=termination
    )
    assert _tau2_termination(result) == tau2_reason


@pytest.mark.parametrize(
    ("signal", "termination"),
    [
        ("###STOP###", Termination.USER_STOP),
        ("Thanks, I was transferred. ###TRANSFER###", Termination.USER_TRANSFER),
        ("###OUT-OF-SCOPE###", Termination.USER_OUT_OF_SCOPE),
    ],
)
def test_each_user_signal_has_its_own_termination(phone_plugin, signal, termination) -> None:
    result = run(
        Script(agent=[reply_text("How can I help?")], user=[reply_text("Hi"), reply_text(signal)])
    )
    assert result.termination is termination
    assert result.messages[-1].content == signal
    assert result.reward == 0.0  # nothing was fixed: the env assertion fails


def test_a_signal_beside_a_tool_call_does_not_stop(phone_plugin) -> None:
    script = Script(
        agent=[reply_text("Please check.")],
        user=[
            reply_text("No signal."),
            Reply(content="###STOP###", tool_calls=[("check_status_bar", {})]),
            reply_text("###STOP###"),
        ],
    )
    result = run(script)
    assert [m.role for m in result.messages[-3:]] == ["user", "tool", "user"]
    assert result.termination is Termination.USER_STOP


def test_the_step_limit_counts_hops(phone_plugin) -> None:
    script = Script(agent=[reply_text("Go on.")] * 5, user=[reply_text("Still broken.")] * 5)
    result = run(script, max_steps=3)
    assert result.termination is Termination.MAX_STEPS and result.reward == 0.0
    assert [m.role for m in result.messages] == ["system", "assistant", "user", "assistant", "user"]


def test_too_many_tool_errors_end_the_episode(phone_plugin) -> None:
    bad = reply_tool_call("get_line", {"line_id": "L9"})
    result = run(Script(agent=[bad] * 5, user=[reply_text("No signal.")]), max_errors=2)
    assert result.termination is Termination.TOO_MANY_ERRORS and result.reward == 0.0
    errors = [m.content for m in result.messages if m.role == "tool"]
    assert errors == ["Error: line L9 not found"] * 2


def test_a_user_tool_is_unknown_to_the_agent_and_vice_versa(phone_plugin) -> None:
    script = Script(
        agent=[reply_tool_call("toggle_airplane_mode", {}), reply_text("Please look.")],
        user=[reply_text("No signal."), reply_tool_call("resume_line", {"line_id": "L1"})],
    )
    result = run(script)
    tool_results = [m for m in result.messages if m.role == "tool"]
    assert tool_results[0].requestor is None
    assert tool_results[0].content.startswith("Error: unknown tool 'toggle_airplane_mode'")
    assert tool_results[1].requestor == "user"
    assert tool_results[1].content == "Error: Tool 'resume_line' not found."


def test_a_history_hands_over_to_whoever_its_last_message_addresses(phone_plugin) -> None:
    script = Script(agent=[], user=[reply_text("Thanks ###STOP###")])
    result = run(script, task_id=1)
    assert [m.role for m in result.messages] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
    ]
    assert TAU2_GREETING not in [m.content for m in result.messages]
    user_view = script.requests["scripted-user"][0]["messages"]
    assert [m["role"] for m in user_view[1:]] == ["assistant", "user"]  # no agent tool call
    assert user_view[-1]["content"] == "Your line is active. Please check your phone."

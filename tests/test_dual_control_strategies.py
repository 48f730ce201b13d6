"""Dual control with each kind of participant: the oracle and scripted user replaying both
sides, solo mode, the oracle-plan agent, a person typing the customer's tool calls, the
react and verify users, traits through the prompt backend, and the τ² protocol asked for
by a single-control task set."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from tautrait_core.builtin.agents.oracle_plan import plan_steps
from tautrait_core.builtin.agents.solo import DONE_TOOL, SOLO_INSTRUCTIONS
from tautrait_core.builtin.traits.prompt import describe_traits
from tautrait_core.cli import cli
from tautrait_core.config.run_config import RunConfig
from tautrait_core.domain.domain import TaskSet
from tautrait_core.errors import ConfigError
from tautrait_core.grading.gold import gold_actions
from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager
from tautrait_core.run.runner import execute
from tautrait_core.scripted.server import Reply, reply_text, reply_tool_call
from tautrait_core.trait_mix import TraitMix
from tautrait_core.types.messages import TAU2_GREETING
from tautrait_core.types.result import EpisodeResult, Termination
from tests.plugins import toy_phone
from tests.test_dual_control import Script, fixing_script, run as run_model

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


def run_offline(**overrides: Any) -> EpisodeResult:
    options: dict[str, Any] = {"domain": "toyphone", "agent": "oracle", "task_ids": [0]}
    options.update(overrides)
    (result,) = execute(RunConfig.model_validate(options)).results
    return result


def final_phone(result: EpisodeResult) -> str:
    return [m.content for m in result.messages if m.name == "check_status_bar"][-1]


def test_the_oracle_and_the_scripted_user_replay_both_sides(phone_plugin) -> None:
    result = run_offline()
    assert result.termination is Termination.USER_STOP
    assert result.reward == 1.0
    calls = [
        (m.requestor, call.name) for m in result.messages if m.tool_calls for call in m.tool_calls
    ]
    assert calls == [
        (None, "resume_line"),
        ("user", "toggle_airplane_mode"),
        ("user", "check_status_bar"),
    ]
    assert final_phone(result) == "Airplane mode: off. Signal: good"
    assert result.messages[-1].content == "###STOP###"
    asked = [m.content for m in result.messages if m.role == "assistant" and m.content]
    assert asked[1] == (
        "Please do the following on your side: toggle_airplane_mode(), then check_status_bar()."
    )


def test_solo_mode_with_the_oracle_runs_both_sides_and_stops_itself(phone_plugin) -> None:
    result = run_offline(solo=True)
    assert result.termination is Termination.AGENT_STOP
    assert result.reward == 1.0  # graded as it ran: the agent's user-tool calls count
    assert result.messages[0].content == phone_plugin.build_domain().solo_policy
    assert TAU2_GREETING not in [m.content for m in result.messages]
    assert all(m.role in ("system", "assistant", "tool") for m in result.messages)
    assert {m.requestor for m in result.messages} == {None}  # the agent made every call
    assert final_phone(result) == "Airplane mode: off. Signal: good"


def test_the_solo_agent_gets_the_ticket_and_both_sides_tools(phone_plugin) -> None:
    script = Script(
        agent=[
            Reply(tool_calls=[("resume_line", {"line_id": "L1"}), ("toggle_airplane_mode", {})]),
            reply_tool_call(DONE_TOOL, {}),
        ],
        user=[],
    )
    result = run_model(script, agent="solo", solo=True)
    assert result.termination is Termination.AGENT_STOP
    assert result.reward == 1.0
    assert result.messages[-1].content == "###STOP###"
    request = script.requests["scripted-agent"][0]
    system = request["messages"][0]["content"]
    assert SOLO_INSTRUCTIONS in system and "Customer P1 has no signal on line L1." in system
    offered = {tool["function"]["name"] for tool in request["tools"]}
    assert offered == {"get_line", "resume_line", DONE_TOOL} | USER_TOOLS
    assert script.requests["scripted-user"] == []
    assert json.loads(result.messages[2].content)["status"] == "active"
    assert result.messages[3].content == "Airplane mode is now off."


def test_solo_mode_needs_a_dual_control_domain(toy_plugin) -> None:
    with pytest.raises(ConfigError, match="does not support solo mode"):
        execute(RunConfig(domain="toylib", agent="oracle", solo=True))


def test_solo_mode_needs_an_agent_that_works_alone(phone_plugin) -> None:
    with pytest.raises(ConfigError, match="--agent solo"):
        execute(
            RunConfig(domain="toyphone", agent="tool-calling", agent_model="openai/x", solo=True)
        )


def test_the_oracle_plan_agent_is_given_the_gold_plan(phone_plugin) -> None:
    script = fixing_script()
    run_model(script, agent="oracle-plan")
    system = script.requests["scripted-agent"][0]["messages"][0]["content"]
    assert "[Step 1] Perform the following action: resume_line(line_id=L1)." in system
    assert (
        "[Step 2] Instruct the user to perform the following action: toggle_airplane_mode()."
        in system
    )
    task = phone_plugin.build_domain().task_sets["test"].tasks[0]
    assert plan_steps(gold_actions(task)) in system


@pytest.mark.parametrize("user", ["react", "verify"])
def test_model_user_strategies_call_user_tools(phone_plugin, user) -> None:
    verdict = reply_text("Verdict: accept\nReason: fine.")
    replies = {
        "react": [
            reply_text("Thought: say it.\nResponse: No signal."),
            Reply(content="Thought: the agent asked.", tool_calls=[("toggle_airplane_mode", {})]),
            reply_text("Thought: done.\nResponse: ###STOP###"),
        ],
        "verify": [
            reply_text("No signal."),
            verdict,
            reply_tool_call("toggle_airplane_mode", {}),
            reply_text("###STOP###"),
            verdict,
        ],
    }[user]
    script = Script(agent=[reply_text("Please switch airplane mode off.")], user=replies)
    result = run_model(script, user=user)
    assert result.termination is Termination.USER_STOP
    toggled = [m for m in result.messages if m.name == "toggle_airplane_mode"]
    assert toggled and toggled[0].requestor == "user"
    assert "Thought" not in json.dumps(script.requests["scripted-agent"][-1]["messages"])


def test_traits_reach_a_dual_control_customer_through_the_prompt(phone_plugin) -> None:
    script = fixing_script()
    result = run_model(script, traits="impatience=high")
    assert result.termination is Termination.USER_STOP
    request = script.requests["scripted-user"][0]
    system = request["messages"][0]["content"]
    assert system.endswith(describe_traits(TraitMix.parse("impatience=high")))
    assert "Your device" in system and "###TRANSFER###" in system
    assert {tool["function"]["name"] for tool in request["tools"]} == USER_TOOLS


def test_play_lets_a_person_call_their_own_tools(phone_plugin) -> None:
    typed = "\n".join(
        [
            "My phone has no signal.",
            "/tools",
            "/tool toggle_airplane_mode",
            "/tool check_status_bar {}",
            "It works.",
            "/stop",
        ]
    )
    result = CliRunner().invoke(
        cli,
        ["play", "--domain", "toyphone", "--task", "0", "--as", "user", "--strategy", "oracle"],
        input=typed + "\n",
        catch_exceptions=False,
    )
    out = result.output
    assert result.exit_code == 0, out
    assert f"Agent: {TAU2_GREETING}" in out
    assert "Your tools: check_status_bar, toggle_airplane_mode" in out
    assert "toggle_airplane_mode(): Switch airplane mode on or off." in out
    assert "Agent: Please do the following on your side: toggle_airplane_mode()" in out
    assert "[toggle_airplane_mode] Airplane mode is now off." in out
    assert "[check_status_bar] Airplane mode: off. Signal: good" in out


def test_a_single_control_task_set_may_ask_for_the_tau2_protocol(toy_plugin) -> None:
    domain = get_plugin_manager().get("domain", "toylib")
    test_set = domain.task_sets["test"]
    domain.task_sets["tau2"] = TaskSet("tau2", test_set.load_tasks, protocol="tau2")
    try:
        result = run_offline(domain="toylib", task_set="tau2")
        plain = run_offline(domain="toylib", task_set="test")
    finally:
        del domain.task_sets["tau2"]
    assert result.messages[1].content == TAU2_GREETING
    assert plain.messages[1].role == "user"
    assert result.reward == plain.reward == 1.0


def test_the_scripted_user_states_its_request_after_a_history(phone_plugin) -> None:
    result = run_offline(task_ids=[1])
    after_history = [(m.role, m.content) for m in result.messages[5:]]
    task = phone_plugin.build_domain().task_sets["test"].tasks[1]
    assert after_history == [
        ("user", task.instruction),
        ("assistant", "Everything you asked for is done. Is there anything else?"),
        ("user", "###STOP###"),
    ]


def test_the_scripted_user_reads_stop_signals_in_its_instruction_out(phone_plugin) -> None:
    # τ³'s banking instructions tell the customer when *not* to use ###OUT-OF-SCOPE###
    domain = get_plugin_manager().get("domain", "toyphone")
    test_set = domain.task_sets["test"]
    task = test_set.tasks[0]
    warned = task.model_copy(
        update={"instruction": task.instruction + " Never say ###OUT-OF-SCOPE### or ###STOP###."}
    )
    domain.task_sets["warned"] = TaskSet("warned", lambda: [warned], protocol="tau2")
    try:
        result = run_offline(task_set="warned")
    finally:
        del domain.task_sets["warned"]
    opening = next(m.content for m in result.messages if m.role == "user")
    assert opening.endswith("Never say OUT-OF-SCOPE or STOP.")
    assert result.termination is Termination.USER_STOP
    assert result.reward == 1.0


def test_the_scripted_server_s_customer_reads_stop_signals_in_its_instruction_out(
    phone_plugin,
) -> None:
    """As the scripted user does: a model-driven customer played by ``serve-scripted`` opens
    with its instruction, whose end signals (τ³'s banking instructions name them) must not
    end the episode before the agent has done anything."""
    from tautrait_core.cli.serve import _episode_script
    from tautrait_core.scripted.server import ScriptedModelServer

    domain = get_plugin_manager().get("domain", "toyphone")
    task = domain.task_sets["test"].tasks[0]
    warned = task.model_copy(
        update={"instruction": task.instruction + " Never say ###OUT-OF-SCOPE### or ###STOP###."}
    )
    domain.task_sets["warned"] = TaskSet("warned", lambda: [warned], protocol="tau2")
    try:
        with ScriptedModelServer(_episode_script("toyphone", "warned")) as server:
            models = {"agent_api_base": server.base_url, "user_api_base": server.base_url}
            result = run_offline(
                task_set="warned",
                agent="tool-calling",
                agent_model="openai/scripted",
                user="llm",
                user_model="openai/scripted",
                **models,
            )
    finally:
        del domain.task_sets["warned"]
    opening = next(m.content for m in result.messages if m.role == "user")
    assert opening.endswith("Never say OUT-OF-SCOPE or STOP.")
    assert result.termination is Termination.USER_STOP
    assert result.reward == 1.0


def test_serve_scripted_plays_the_solo_agent(phone_plugin) -> None:
    """``tautrait serve-scripted --domain D`` answers ``--solo --agent solo`` too (it
    recognised no customer's opening: every episode was an infrastructure error)."""
    from tautrait_core.scripted.scripts import StrategyScript
    from tautrait_core.scripted.server import ScriptedModelServer

    domain = phone_plugin.build_domain()
    tasks = domain.task_sets["test"].tasks
    with ScriptedModelServer(StrategyScript(tasks, tau2=True)) as server:
        report = execute(
            RunConfig(
                domain="toyphone",
                agent="solo",
                solo=True,
                agent_model="openai/scripted",
                agent_api_base=server.base_url,
                retry_base_s=0.01,
                timeout_s=5,
            )
        )
    assert [r.outcome.value for r in report.results] == ["pass"] * len(tasks)
    assert {r.termination for r in report.results} == {Termination.AGENT_STOP}


def test_the_solo_agent_without_solo_mode_says_to_add_it(phone_plugin, monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)  # was: the user model's missing key
    with pytest.raises(ConfigError, match=r"^agent 'solo' works without a customer: add --solo$"):
        execute(RunConfig(domain="toyphone", agent="solo", agent_model="openai/x"))

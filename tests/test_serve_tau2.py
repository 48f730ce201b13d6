"""The scripted model server plays τ²-bench domains (dual control) through the real litellm
path: the customer answers the agent's greeting, makes its gold tool calls when asked, and
stops; the agent makes its gold calls and asks for the customer's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from tautrait_core import Domain
from tautrait_core.cli import cli
from tautrait_core.scripted.scripts import StrategyScript
from tautrait_core.scripted.server import ScriptedModelServer
from tautrait_core.types.messages import TAU2_GREETING


@pytest.fixture
def telecom(monkeypatch: pytest.MonkeyPatch) -> Iterator[Domain]:
    """The ``tau2-telecom`` domain (its built-in tasks need no τ²-bench checkout)."""
    from tautrait_core.plugins import get_plugin_manager, lookup, reset_plugin_manager

    monkeypatch.setenv("TAUTRAIT_LOAD_PLUGINS", "telecom")
    reset_plugin_manager()
    if "tau2-telecom" not in get_plugin_manager().names("domain"):
        pytest.skip("the telecom plugin with τ² telecom is not installed")
    yield lookup("domain", "tau2-telecom")
    reset_plugin_manager()


@pytest.fixture
def served(telecom: Domain) -> Iterator[ScriptedModelServer]:
    """A server playing tau2-telecom's tasks, as ``tautrait serve-scripted`` builds it."""
    from tautrait_core.cli.serve import _episode_script

    with ScriptedModelServer(_episode_script("tau2-telecom", None)) as server:
        yield server


def model_run(base_url: str, agent: str, *extra: str) -> list[str]:
    return [
        "run",
        "--domain",
        "tau2-telecom",
        "--agent",
        agent,
        "--agent-model",
        "openai/scripted",
        "--agent-api-base",
        base_url,
        "--user",
        "llm",
        "--user-model",
        "openai/scripted",
        "--user-api-base",
        base_url,
        "--json",
        *extra,
    ]


def metrics(output: str) -> dict[str, Any]:
    """The run's metrics, from ``tautrait run --json``."""
    return json.loads(output)["metrics"]


@pytest.mark.parametrize("agent", ["tool-calling", "oracle-plan"])
def test_every_builtin_telecom_task_passes_against_the_scripted_server(
    served: ScriptedModelServer, telecom: Domain, agent: str
) -> None:
    result = CliRunner().invoke(
        cli, model_run(served.base_url, agent, "--traits", "impatience=high")
    )
    assert result.exit_code == 0, result.output
    summary = metrics(result.output)
    # every reward is 1.0: all nine scored and their mean is the maximum
    assert (summary["episodes"], summary["scored"], summary["errors"]) == (9, 9, 0)
    assert summary["average_reward"] == 1.0


def test_the_customer_answers_the_greeting_and_makes_its_gold_calls_when_asked(
    telecom: Domain,
) -> None:
    from tautrait_core.domain.task_sets import resolve_task_set
    from tautrait_core.types.messages import STOP_TOKEN

    tasks = resolve_task_set(telecom, None).tasks
    task = next(t for t in tasks if t.id == "[service]overdue_bill")
    script = StrategyScript(tasks, tau2=True)
    tools = [{"type": "function", "function": {"name": "make_payment", "parameters": {}}}]
    system = {"role": "system", "content": f"You are a customer.\n{task.instruction}"}
    customer: list[dict[str, Any]] = [system, {"role": "user", "content": TAU2_GREETING}]
    agent: list[dict[str, Any]] = [
        {"role": "system", "content": telecom.policy},
        {"role": "assistant", "content": TAU2_GREETING},
    ]

    def customer_says() -> Any:
        reply = script({"messages": customer, "tools": tools})
        customer.append(
            {"role": "assistant", "content": reply.content, "tool_calls": reply.tool_calls}
        )
        return reply

    def agent_says() -> Any:
        reply = script({"messages": agent, "tools": tools})
        agent.append(
            {"role": "assistant", "content": reply.content, "tool_calls": reply.tool_calls}
        )
        return reply

    opening = customer_says().content
    assert opening == " ".join(task.instruction.split())
    agent.append({"role": "user", "content": opening})
    assert [name for name, _ in agent_says().tool_calls] == ["send_payment_request"]
    agent.append({"role": "tool", "content": "ok"})
    asked = agent_says()
    assert not asked.tool_calls and "make_payment(" in asked.content
    customer.append({"role": "user", "content": asked.content})
    assert [name for name, _ in customer_says().tool_calls] == ["make_payment"]
    customer.append({"role": "tool", "content": "paid"})
    done = customer_says().content
    agent.append({"role": "user", "content": done})
    assert [name for name, _ in agent_says().tool_calls] == ["resume_line"]
    agent.append({"role": "tool", "content": "ok"})
    asked = agent_says()
    assert "reboot_device(" in asked.content
    customer.append({"role": "user", "content": asked.content})
    assert [name for name, _ in customer_says().tool_calls] == ["reboot_device"]
    customer.append({"role": "tool", "content": "rebooted"})
    agent.append({"role": "user", "content": customer_says().content})
    final = agent_says()
    assert not final.tool_calls and "make_payment(" not in final.content
    customer.append({"role": "user", "content": final.content})
    assert customer_says().content == STOP_TOKEN


def test_tasks_sharing_an_instruction_are_told_apart_by_a_prior_conversation() -> None:
    """As τ²'s mock tasks: the same request, once after a prior conversation (whose tool
    results are not this plan's progress) and once from the start."""
    from tautrait_core.types.task import Action, Task

    history = [{"role": "user", "content": "Create a task."}]
    later = Task.model_validate(
        {
            "user_id": "u",
            "instruction": "Mark my task done.",
            "actions": [Action(name="update", kwargs={"id": 2})],
            "initial_state": {"message_history": history},
        }
    )
    fresh = Task(user_id="u", instruction="Mark my task done.", actions=[Action(name="create")])
    script = StrategyScript([later, fresh], tau2=True)
    tools = [{"type": "function", "function": {"name": "update", "parameters": {}}}]
    system = {"role": "system", "content": "policy"}
    after_history = [
        system,
        {"role": "user", "content": "Create a task."},
        {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "create"}}]},
        {"role": "tool", "content": "created", "tool_call_id": "c"},
        {"role": "assistant", "content": "Created."},
        {"role": "user", "content": "Mark my task done."},
    ]
    from_start = [
        system,
        {"role": "assistant", "content": TAU2_GREETING},
        {"role": "user", "content": "Mark my task done."},
    ]
    assert script({"messages": after_history, "tools": tools}).tool_calls == [("update", {"id": 2})]
    assert script({"messages": from_start, "tools": tools}).tool_calls == [("create", {})]


def test_tasks_sharing_an_instruction_are_told_apart_on_the_customer_s_side(
    telecom: Domain, tau2_imported: Any
) -> None:
    """τ²'s small telecom set: 20 tasks, pairs of them with one instruction and different
    phones, and instructions that hold one another (a persona put before some)."""
    from tautrait_core.cli.serve import _episode_script
    from tautrait_core.plugins import reset_plugin_manager

    tau2_imported("telecom")
    reset_plugin_manager()  # the domain is built again, on the imported data
    with ScriptedModelServer(_episode_script("tau2-telecom", "tau2:telecom-small")) as server:
        result = CliRunner().invoke(
            cli, model_run(server.base_url, "tool-calling", "--task-set", "tau2:telecom-small")
        )
        customer_calls = [
            call["function"]["name"]
            for request in server.requests
            for message in request["messages"]
            for call in message.get("tool_calls") or []
        ]
    assert result.exit_code == 0, result.output
    summary = metrics(result.output)
    assert (summary["episodes"], summary["scored"]) == (20, 20)
    assert summary["average_reward"] == 1.0
    assert "check_status_bar" in customer_calls or "check_network_status" in customer_calls

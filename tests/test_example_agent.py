"""The example Agents SDK service (examples/openai-agents-a2a) scored on real domains: on
telehealth, and on τ² telecom (dual control: the customer's own tools stay with tautrait's
simulated user), against the built-in ``tool-calling`` agent driven by the same scripted
answers."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.cli.serve import _episode_script
from tautrait_core.run.runner import execute
from tautrait_core.scripted.server import ScriptedModelServer
from tests.remote_agents import a2a_config, example_agent, native_config

pytest.importorskip("agents", reason="the example agent needs openai-agents")
pytest.importorskip("a2a", reason="--agent a2a needs a2a-sdk")

DOMAINS = {"telehealth": "telehealth", "tau2-telecom": "telecom"}
"""Each domain and the plugin (entry point) that registers it."""


def loaded(name: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Load only the plugin of domain ``name`` (skip when it is not installed)."""
    from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager

    monkeypatch.setenv("TAUTRAIT_LOAD_PLUGINS", DOMAINS[name])
    reset_plugin_manager()
    if name not in get_plugin_manager().names("domain"):
        pytest.skip(f"the plugin of {name} is not installed")
    yield name
    reset_plugin_manager()


@pytest.fixture(params=sorted(DOMAINS))
def domain(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    yield from loaded(request.param, monkeypatch)


@pytest.fixture
def telehealth(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    yield from loaded("telehealth", monkeypatch)


def test_the_example_agent_scores_as_tool_calling_on_the_same_answers(domain: str) -> None:
    tasks = {"task_ids": list(range(9)), "concurrency": 9}
    with ScriptedModelServer(_episode_script(domain, None)) as server:
        native = execute(native_config(server, domain=domain, **tasks))
        with example_agent(server) as url:
            remote = execute(a2a_config(server, url, domain=domain, **tasks))
    rewards = {r.task_id: r.reward for r in remote.results}
    assert rewards == {r.task_id: r.reward for r in native.results}
    assert remote.metrics.average_reward == native.metrics.average_reward == 1.0
    for mine, theirs in zip(remote.results, native.results, strict=True):
        assert mine.reward_info == theirs.reward_info
        names = [[m.name for m in r.messages if m.role == "tool"] for r in (mine, theirs)]
        assert names[0] == names[1]  # both sides' tool calls, the customer's included
    customer_calls = [m for r in remote.results for m in r.messages if m.requestor == "user"]
    assert bool(customer_calls) == (domain == "tau2-telecom")


def test_the_readme_commands_evaluate_the_example_agent_with_traits(telehealth: str) -> None:
    """`tautrait run --agent a2a --agent-url URL` as the README has it, with a trait mix."""
    with (
        ScriptedModelServer(_episode_script("telehealth", None)) as server,
        example_agent(server) as url,
    ):
        result = CliRunner().invoke(
            cli,
            [
                "run",
                "--domain",
                "telehealth",
                "--agent",
                "a2a",
                "--agent-url",
                url,
                "--agent-timeout",
                "30",
                "--user-model",
                "openai/scripted",
                "--user-api-base",
                server.base_url,
                "--traits",
                "impatience=high",
                "--task-ids",
                "0,1,2",
                "--json",
            ],
        )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["metrics"]["average_reward"] == 1.0
    # without --user the customer is the model-driven one that carries the traits (a
    # scripted one would ignore them, with a warning)
    assert summary["warnings"] == []

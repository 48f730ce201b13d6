"""``tautrait play`` and the human agent: a person's turns typed on stdin (CliRunner)."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner, Result

from tautrait_core.builtin.human import HumanAgent
from tautrait_core.cli import cli
from tautrait_core.config.run_config import RunConfig
from tautrait_core.errors import ConfigError
from tautrait_core.run.play import play_config
from tautrait_core.scripted.scripts import StrategyScript
from tautrait_core.scripted.server import Failure, ScriptedModelServer


def play(*arguments: str, input: str) -> Result:
    return CliRunner().invoke(
        cli, ["play", "--domain", "toylib", *arguments], input=input, catch_exceptions=False
    )


def test_play_as_user_against_the_oracle(toy_plugin) -> None:
    result = play(
        "--task", "0", "--as", "user", "--strategy", "oracle", "--traits", "impatience=high",
        input="\nHi, I am Ann and want Dune\n/stop\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    assert toy_plugin.TASKS[0].instruction in out
    assert "Play this personality: impatience=high" in out
    assert "Agent: Everything you asked for is done" in out
    assert "Reward 1 (pass)." in out and "Database matches the gold replay." in out
    assert "Ended because the user ended the conversation (user_stop)" in out


def test_play_as_user_against_a_model_agent(toy_plugin) -> None:
    opening = StrategyScript.opening(toy_plugin.TASKS[1])
    with ScriptedModelServer(StrategyScript(toy_plugin.TASKS)) as server:
        result = play(
            "--task", "1", "--as", "user", "--model", "openai/scripted-agent",
            "--api-base", server.base_url,
            input=f"{opening}\n",  # then the input closes: the customer leaves
        )  # fmt: skip
        agent_requests = [r for r in server.requests if r.get("tools")]
    assert result.exit_code == 0, result.output
    assert "Agent: Here you go: CL-4" in result.output
    assert "Reward 1 (pass)." in result.output
    assert agent_requests and agent_requests[0]["messages"][1]["content"] == opening


def test_play_as_agent_against_a_model_user(toy_plugin) -> None:
    typed = "\n".join(
        [
            "/tools",
            "/policy",
            "/fly",
            "",
            '/tool find_member {"email": "ann@example.org"}',
            '/tool borrow_book {"member_id": "ann_1", "book_id": "B1", "days": 7}',
            "Done: Dune is yours for 7 days.",
        ]
    )
    with ScriptedModelServer(StrategyScript(toy_plugin.TASKS)) as server:
        result = play(
            "--task", "0", "--as", "agent", "--strategy", "react",
            "--model", "openai/scripted-user", "--api-base", server.base_url,
            input=typed + "\n",
        )  # fmt: skip
    out = result.output
    assert result.exit_code == 0, out
    assert f"Customer: {StrategyScript.opening(toy_plugin.TASKS[0])}" in out
    assert "Thought:" not in out  # the react user's thoughts stay private
    assert "borrow_book(member_id: string, book_id: string, days: integer): Lend a book" in out
    assert "Identify the member by email before lending." in out
    assert 'Commands: /tool NAME {"argument": "value"}, /tools, /policy' in out
    assert "[find_member] ann_1" in out and "[borrow_book] Dune lent to Ann Lee for 7 days" in out
    assert "Reward 1 (pass)." in out


def test_play_as_agent_with_a_bad_call_then_leaving(toy_plugin) -> None:
    with ScriptedModelServer(StrategyScript(toy_plugin.TASKS)) as server:
        result = play(
            "--task", "0", "--as", "agent", "--model", "openai/scripted-user",
            "--api-base", server.base_url,
            input='/tool borrow_book {"member_id": \n',
        )  # fmt: skip
    out = result.output
    assert result.exit_code == 0, out
    assert "[borrow_book] Error: the arguments for borrow_book are not a valid JSON object" in out
    assert "Reward 0 (fail)." in out
    assert "Error: agent: HumanLeftError: the person playing the agent closed the input" in out


def test_play_with_a_failing_model_reports_the_error(toy_plugin) -> None:
    with ScriptedModelServer(lambda request: Failure(status=400)) as server:
        result = play(
            "--task", "0", "--as", "agent", "--model", "openai/scripted-user",
            "--api-base", server.base_url, input="",
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Reward 0 (error)." in result.output
    assert "a model provider kept failing (provider_error)" in result.output


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--task", "0", "--as", "user"], "agent 'tool-calling' calls a model: pass --model"),
        (["--task", "9", "--as", "user", "--strategy", "oracle"], "task ids [9] are out of range"),
        (["--task", "0", "--as", "agent", "--strategy", "nope"], "unknown user 'nope'"),
    ],
)
def test_play_refuses_bad_settings_before_it_starts(toy_plugin, arguments, message) -> None:
    result = play(*arguments, input="")
    assert result.exit_code == 1
    assert message in result.output


def test_play_config_maps_the_model_to_the_other_side(toy_plugin) -> None:
    as_user = play_config("user", model="m", api_base="http://x", domain="toylib")
    user, agent = as_user.user, as_user.agent
    assert (user.strategy, agent.strategy, agent.model) == ("human", "tool-calling", "m")
    assert agent.api_base == "http://x" and user.api_base is None
    as_agent: Any = play_config("agent", "verify", "m", "openai", domain="toylib")
    user, agent = as_agent.user, as_agent.agent
    assert (agent.strategy, user.strategy, user.model) == ("human", "verify", "m")
    assert user.provider == "openai" and agent.model is None


def test_human_agent_needs_one_episode_at_a_time() -> None:
    with pytest.raises(ConfigError, match="--concurrency 1"):
        HumanAgent.check_config(RunConfig(agent="human", concurrency=3))

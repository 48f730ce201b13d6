"""Gymnasium environments: a policy plays the agent or the customer of a toy task."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tautrait_core.gym import AgentEnv, UserEnv, register_envs
from tautrait_core.gym.actions import ActionError
from tautrait_core.scripted.scripts import StrategyScript
from tautrait_core.scripted.server import ScriptedModelServer
from tautrait_core.types.messages import STOP_TOKEN

TODAY = "2026-01-05"


def gold_tool_calls(task: Any) -> list[str]:
    """The task's gold actions as agent actions (JSON text), terminating tools included."""
    return [
        json.dumps({"tool_calls": [{"name": a.name, "arguments": dict(a.kwargs)}]})
        for a in task.actions
    ]


def play_agent(env: AgentEnv, actions: list[str], **reset: Any) -> list[tuple]:
    """Reset, then step ``actions`` until the episode ends; every step's return value."""
    env.reset(**reset)
    steps = []
    for action in actions:
        steps.append(env.step(action))
        if steps[-1][2] or steps[-1][3]:
            break
    return steps


def test_importing_the_core_does_not_import_gymnasium() -> None:
    code = "import sys, tautrait_core; tautrait_core.RunConfig; print('gymnasium' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_gold_actions_score_1_and_the_observation_is_the_conversation(toy_plugin) -> None:
    task = toy_plugin.TASKS[0]
    env = AgentEnv(domain="toylib", task_id=0, today=TODAY)  # the scripted user by default
    observation, info = env.reset(seed=1)
    assert env.observation_space.contains(observation)
    conversation = json.loads(observation["messages"])
    assert conversation == [
        {"role": "system", "content": toy_plugin.build_domain().policy},
        {"role": "user", "content": task.instruction},
    ]
    tool_names = [t["function"]["name"] for t in json.loads(observation["tools"])]
    assert tool_names[:3] == ["find_member", "get_book", "borrow_book"]
    assert info == {"task_id": 0, "traits": "none"}

    steps = play_agent(env, [*gold_tool_calls(task), "Dune is yours for 7 days."], seed=1)
    rewards = [s[1] for s in steps]
    assert rewards == [0.0, 0.0, 1.0]
    assert [(s[2], s[3]) for s in steps] == [(False, False), (False, False), (True, False)]
    after_first = json.loads(steps[0][0]["messages"])
    assert after_first[-2]["tool_calls"][0]["function"]["name"] == "find_member"
    assert after_first[-1] == {
        "role": "tool",
        "content": "ann_1",
        "tool_call_id": "call_2_0",
        "name": "find_member",
    }
    final = steps[-1][4]
    assert final["outcome"] == "pass" and final["termination"] == "user_stop"
    assert final["reward_info"]["r_actions"] is True
    assert json.loads(steps[-1][0]["messages"])[-1] == {"role": "user", "content": STOP_TOKEN}
    assert env.result is not None and env.result.reward == 1.0
    env.close()


def test_a_wrong_action_scores_0_with_the_breakdown_in_info(toy_plugin) -> None:
    env = AgentEnv(domain="toylib", task_id=0, today=TODAY)
    wrong = json.dumps(
        {
            "tool_calls": [
                {
                    "name": "borrow_book",
                    "arguments": {"member_id": "ann_1", "book_id": "B2", "days": 7},
                }
            ]
        }
    )
    steps = play_agent(env, [wrong, "Emma is yours."], seed=1)
    _, reward, terminated, truncated, info = steps[-1]
    assert (reward, terminated, truncated) == (0.0, True, False)
    assert info["outcome"] == "fail" and info["reward"] == 0.0
    breakdown = info["reward_info"]
    assert breakdown["r_actions"] is False and breakdown["reward"] == 0.0
    assert breakdown["data_hash"] != breakdown["gt_data_hash"] and breakdown["state_diff"]
    env.close()


def test_a_terminating_tool_ends_the_episode_and_only_the_first_call_runs(toy_plugin) -> None:
    env = AgentEnv(domain="toylib", task_id=2, today=TODAY)
    env.reset(seed=0)
    both = {
        "tool_calls": [
            {
                "id": "a",
                "type": "function",
                "function": {
                    "name": "borrow_book",
                    "arguments": '{"member_id": "ann_1", "book_id": "B2"}',
                },
            },
            {"name": "borrow_book", "arguments": {"member_id": "ann_1", "book_id": "B1"}},
        ]
    }
    observation, reward, terminated, _, _ = env.step(both)
    messages = json.loads(observation["messages"])
    assert [m["role"] for m in messages[-2:]] == ["assistant", "tool"]
    assert len(messages[-2]["tool_calls"]) == 1 and messages[-1]["tool_call_id"] == "a"
    assert (reward, terminated) == (0.0, False)
    transfer = gold_tool_calls(toy_plugin.TASKS[2])[1]
    _, reward, terminated, _, info = env.step(transfer)
    assert (reward, terminated, info["termination"]) == (1.0, True, "terminating_tool")
    env.close()


def test_a_malformed_action_is_refused_and_the_episode_waits(toy_plugin) -> None:
    env = AgentEnv(domain="toylib", task_id=0, today=TODAY)
    env.reset(seed=0)
    with pytest.raises(ActionError, match="tool_calls"):
        env.step({"tool": "find_member"})
    with pytest.raises(ActionError, match="name"):
        env.step('{"tool_calls": [{"arguments": {}}]}')
    steps = [env.step(a) for a in gold_tool_calls(toy_plugin.TASKS[0])]
    assert env.step("Done.")[1] == 1.0 and len(steps) == 2
    with pytest.raises(RuntimeError, match="reset"):
        env.step("Anything else?")
    env.close()


def test_a_random_policy_runs_until_the_step_limit(toy_plugin) -> None:
    env = AgentEnv(domain="toylib", task_id=0, max_steps=4, today=TODAY)
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    names = ["find_member", "get_book", "calculate", "think"]
    done, steps = False, 0
    while not done:
        action = {"tool_calls": [{"name": str(rng.choice(names)), "arguments": {}}]}
        _, reward, terminated, truncated, info = env.step(action)
        done, steps = terminated or truncated, steps + 1
    assert (steps, reward, terminated, truncated) == (4, 0.0, False, True)
    assert info["termination"] == "max_steps" and info["outcome"] == "fail"
    env.close()


def test_the_env_passes_the_gymnasium_checker(toy_plugin) -> None:
    env = AgentEnv(domain="toylib", today=TODAY)
    check_env(env, skip_render_check=True)
    env.close()


def test_a_model_user_with_traits_and_the_same_seed_gives_the_same_episode(toy_plugin) -> None:
    script = StrategyScript(toy_plugin.TASKS, ["transfer_to_librarian"])
    with ScriptedModelServer(script) as server:
        env = AgentEnv(
            domain="toylib", user="llm", user_model="openai/scripted-user",
            user_api_base=server.base_url, traits="impatience=high", today=TODAY,
        )  # fmt: skip
        episodes = []
        for seed in (11, 11, 12, 13, 14):
            _, info = env.reset(seed=seed)
            task = toy_plugin.TASKS[info["task_id"]]
            actions = [a for a in gold_tool_calls(task) if "transfer" not in a]
            actions.append("Here you go: " + "; ".join(task.outputs) if task.outputs else "Done.")
            steps = [env.step(a) for a in actions]
            assert steps[-1][1] == 1.0 and steps[-1][4]["traits"] == "impatience=high"
            episodes.append((info["task_id"], env.context.seed, steps[-1][0]["messages"]))
        user_prompts = [r["messages"][0]["content"] for r in server.requests]
    assert episodes[0] == episodes[1]
    assert len({task_id for task_id, _, _ in episodes}) > 1
    assert len({seed for _, seed, _ in episodes}) == 4
    assert all("impatien" in prompt.lower() for prompt in user_prompts)
    env.close()


def test_play_the_customer_against_the_oracle(toy_plugin) -> None:
    task = toy_plugin.TASKS[1]
    env = UserEnv(domain="toylib", agent="oracle", task_id=1, traits="confusion=low", today=TODAY)
    observation, _ = env.reset(seed=0)
    assert env.observation_space.contains(observation)
    assert json.loads(observation["instruction"]) == task.instruction
    assert json.loads(observation["traits"]) == {"confusion": "low"}
    assert json.loads(observation["messages"]) == []
    observation, reward, terminated, _, _ = env.step("Which shelf is Emma on?")
    seen = json.loads(observation["messages"])
    assert seen[0] == {"role": "user", "content": "Which shelf is Emma on?"}
    assert seen[1]["role"] == "assistant" and "CL-4" in seen[1]["content"]
    assert (reward, terminated) == (0.0, False)
    _, reward, terminated, _, info = env.step(f"Thanks! {STOP_TOKEN}")
    assert (reward, terminated, info["outcome"]) == (1.0, True, "pass")

    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(STOP_TOKEN)  # leaves before the agent acts
    assert (reward, terminated) == (0.0, True)
    assert info["reward_info"]["r_actions"] is False or info["reward_info"]["r_outputs"] is False
    env.close()


def test_play_the_customer_against_a_model_agent(toy_plugin) -> None:
    with ScriptedModelServer(StrategyScript(toy_plugin.TASKS)) as server:
        env = UserEnv(
            domain="toylib", agent="tool-calling", agent_model="openai/scripted-agent",
            agent_api_base=server.base_url, task_id=1, today=TODAY,
        )  # fmt: skip
        env.reset(seed=0)
        observation, *_ = env.step(StrategyScript.opening(toy_plugin.TASKS[1]))
        assert "Here you go: CL-4" in json.loads(observation["messages"])[-1]["content"]
        _, reward, terminated, _, _ = env.step(STOP_TOKEN)
    assert (reward, terminated) == (1.0, True)
    env.close()


def test_registered_ids_make_the_environments(toy_plugin) -> None:
    added = register_envs()
    assert "tautrait/toylib-agent-v0" in added and "tautrait/toylib-user-v0" in added
    env = gymnasium.make("tautrait/toylib-agent-v0", task_id=0, today=TODAY)
    observation, _ = env.reset(seed=0)
    assert json.loads(observation["messages"])[1]["role"] == "user"
    env.close()
    env = gymnasium.make("tautrait/user-v0", domain="toylib", agent="oracle", task_id=0)
    assert isinstance(env.unwrapped, UserEnv)
    env.close()


def test_an_episode_failing_inside_reset_raises_from_reset(toy_plugin) -> None:
    from tautrait_core.gym import EpisodeError
    from tautrait_core.scripted.server import Failure

    with ScriptedModelServer(lambda request: Failure(400)) as server:
        env = AgentEnv(
            domain="toylib", user="llm", user_model="openai/scripted-user",
            user_api_base=server.base_url, max_retries=0, today=TODAY,
        )  # fmt: skip
        with pytest.raises(EpisodeError, match="failed before the policy's first turn: user"):
            env.reset(seed=0)
    assert env.result is not None and env.result.outcome.value == "error"
    env.close()


EXIT_WITHOUT_CLOSE = """
import sys
from pathlib import Path
from tests.plugins import toy_library
from tautrait_core.plugins import get_plugin_manager
from tautrait_core.gym import AgentEnv, EpisodeError

get_plugin_manager().register(toy_library, name="toy_library")
env = AgentEnv(domain="toylib", user="llm", user_model="openai/scripted-user",
               user_api_base=sys.argv[1], max_retries=0, today="2026-01-05")
try:
    env.reset(seed=0)
    print("reset")
except EpisodeError:
    print("EpisodeError")
"""


@pytest.mark.parametrize("fails", [False, True], ids=["episode-running", "reset-failed"])
def test_python_exits_quietly_with_an_environment_never_closed(toy_plugin, fails: bool) -> None:
    from tautrait_core.scripted.server import Failure

    script = StrategyScript(toy_plugin.TASKS, ["transfer_to_librarian"])
    with ScriptedModelServer((lambda request: Failure(400)) if fails else script) as server:
        done = subprocess.run(
            [sys.executable, "-c", EXIT_WITHOUT_CLOSE, server.base_url],
            capture_output=True, text=True, timeout=120, cwd=Path(__file__).parents[1],
        )  # fmt: skip
    assert done.stdout.split() == ["EpisodeError" if fails else "reset"]
    assert done.stderr == ""  # no 'Unclosed client session', no traceback of the episode


def test_an_episode_out_of_time_before_the_policy_acts_ends_in_reset(toy_plugin) -> None:
    env = AgentEnv(domain="toylib", task_id=0, episode_timeout_s=1e-6, today=TODAY)
    _, info = env.reset(seed=7)
    assert env.result is not None and env.result.termination.value == "timeout"
    assert (info["termination"], info["outcome"]) == ("timeout", "fail")
    with pytest.raises(RuntimeError, match="reset"):
        env.step("Hello.")
    env.close()


def test_an_episode_past_its_timeout_is_truncated(toy_plugin) -> None:
    env = AgentEnv(domain="toylib", task_id=0, episode_timeout_s=2.0, today=TODAY)
    env.reset(seed=7)
    time.sleep(2.1)  # the policy thinks past the episode's time
    _, reward, terminated, truncated, info = env.step({"tool_calls": [{"name": "think"}]})
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert info["termination"] == "timeout"
    env.close()

"""Replaying a τ-bench-style trajectory: the agent's side of a recorded conversation run
again on a fresh database and scored with the task's gold state and outputs."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from tautrait_core.domain.domain import Domain
from tautrait_core.domain.state import StateTemplate
from tautrait_core.domain.tool_execution import ends_episode, execute_tool_call
from tautrait_core.grading.reward import compute_reward
from tautrait_core.types.messages import Message
from tautrait_core.types.reward import RewardInfo
from tautrait_core.types.task import Task


@dataclass(frozen=True)
class Replay:
    """The outcome of replaying one trajectory."""

    reward_info: RewardInfo
    ending_tool: str | None
    """The terminating tool that ended the replay, if any."""
    ignored_messages: int
    """Assistant messages after the terminating tool, not replayed."""


def replay_trajectory(
    domain: Domain,
    template: StateTemplate,
    task: Task,
    messages: Sequence[Message],
    today: dt.date,
) -> Replay:
    """Replay the agent's side of ``messages`` on a fresh database and score it with ``task``."""
    replies: list[str] = []
    ending_tool: str | None = None
    ignored = 0
    with template.new_episode(today) as db:
        for message in messages:
            if message.role != "assistant":
                continue
            if ending_tool is not None:
                ignored += 1
            elif message.tool_calls:
                call = message.tool_calls[0]
                execute_tool_call(domain, db, call)
                if ends_episode(domain, call):
                    ending_tool = call.name
            else:
                replies.append(message.content or "")
        reward_info = compute_reward(domain, task, db, replies)
    return Replay(reward_info, ending_tool, ignored)

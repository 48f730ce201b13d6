"""Responders for :class:`ScriptedModelServer` that play whole episodes.

:class:`GoldScript` plays both sides of a task set through real model calls: as the user
it opens with the task instruction and stops once the agent has answered; as the agent it
calls the task's gold actions one at a time, then states the required outputs. An episode
run with ``--agent tool-calling --user llm`` against it therefore passes, which exercises
the full litellm path without a paid model. Requests are told apart by whether they carry
tools (agent) or not (user); the task is recognised from the conversation, so concurrent
episodes of different tasks can share one server.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tautrait_core.models import RESPOND_ACTION, STOP_TOKEN, Task
from tautrait_core.testing.server import Reply, reply_text, reply_tool_call


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):  # content parts
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content or ""


class GoldScript:
    """Plays gold-action agents and instruction-reading users for a list of tasks.

    Args:
        tasks: The task set being run.
        terminating_tools: Tools the agent must not call (as the gold replay skips them).
    """

    def __init__(self, tasks: Sequence[Task], terminating_tools: Sequence[str] = ()) -> None:
        self.tasks = list(tasks)
        self.terminating = set(terminating_tools)
        self._by_opening = {self.opening(task): task for task in self.tasks}

    @staticmethod
    def opening(task: Task) -> str:
        """The user's first message for ``task``."""
        return " ".join(task.instruction.split())

    def __call__(self, request: dict[str, Any]) -> Reply:
        messages = request.get("messages", [])
        if request.get("tools"):
            return self.agent_turn(messages)
        return self.user_turn(messages)

    def _task_for_agent(self, messages: list[dict[str, Any]]) -> Task:
        first_user = next(_text(m) for m in messages if m.get("role") == "user")
        return self._by_opening[first_user]

    def agent_turn(self, messages: list[dict[str, Any]]) -> Reply:
        """The next gold action as a tool call, then the final answer."""
        task = self._task_for_agent(messages)
        plan = [
            a for a in task.actions if a.name not in self.terminating and a.name != RESPOND_ACTION
        ]
        done = sum(1 for m in messages if m.get("role") == "tool")
        if done < len(plan):
            action = plan[done]
            return reply_tool_call(action.name, dict(action.kwargs))
        if task.outputs:
            return reply_text("Here you go: " + "; ".join(task.outputs))
        return reply_text("All done.")

    def user_turn(self, messages: list[dict[str, Any]]) -> Reply:
        """The instruction as the opening message, then the stop token."""
        system = _text(messages[0]) if messages else ""
        replies = [m for m in messages if m.get("role") == "assistant"]
        if not replies:
            for task in self.tasks:
                if " ".join(task.instruction.split()) in " ".join(system.split()):
                    return reply_text(self.opening(task))
            return reply_text("I need help with something.")
        return reply_text(STOP_TOKEN)

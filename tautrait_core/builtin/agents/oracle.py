"""The ``oracle`` agent: replays the task's gold actions, then states the required outputs.

An upper bound and an offline dry run: it calls no model.
"""

from __future__ import annotations

import json
from typing import Any

from tautrait_core.domain.reward import gold_plan
from tautrait_core.domain.task import RESPOND_ACTION
from tautrait_core.episode.agent import Agent
from tautrait_core.episode.messages import Message, ToolCall


class OracleAgent(Agent):
    """Replays the task's gold actions one tool call at a time, then tells the user the
    required outputs. Needs no model: an upper bound, and a dry run of the whole pipeline."""

    name = "oracle"
    description = "replays the task's gold actions, then states the required outputs (no model)"
    needs_model = False

    def __init__(self, context: Any) -> None:
        super().__init__(context)
        self._plan = gold_plan(
            context.task.actions, context.domain.terminating_tools, with_replies=True
        )
        self._position = 0

    async def next_message(self, conversation: list[Message]) -> Message:
        while self._position < len(self._plan):
            action = self._plan[self._position]
            self._position += 1
            if action.name == RESPOND_ACTION:
                return Message(role="assistant", content=str(action.kwargs.get("content", "")))
            call = ToolCall(
                id=f"oracle_{self._position}", name=action.name, arguments=json.dumps(action.kwargs)
            )
            return Message(role="assistant", content=None, tool_calls=[call])
        return Message(role="assistant", content=self.final_answer())

    def final_answer(self) -> str:
        """The closing message: the required outputs, or a plain confirmation."""
        outputs = self.context.task.outputs
        if outputs:
            return "Here is what you asked for: " + "; ".join(outputs) + "."
        return "Everything you asked for is done. Is there anything else?"

"""The ``oracle`` agent: replays the task's gold actions, then states the required outputs.

An upper bound and an offline dry run: it calls no model. In a dual-control domain it asks
the customer to perform the customer's gold actions when their turn comes (the ``scripted``
user replays them); in solo mode it runs both sides' actions itself, states the required
outputs (the τ² information to communicate) and then stops.
"""

from __future__ import annotations

import json
from typing import Any

from tautrait_core.episode.agent import Agent
from tautrait_core.grading.gold import describe_call, gold_actions, required_outputs
from tautrait_core.grading.reward import gold_plan
from tautrait_core.types.messages import STOP_TOKEN, Message, ToolCall
from tautrait_core.types.task import RESPOND_ACTION, Action

USER_STEP_REQUEST = "Please do the following on your side: {calls}."
"""The oracle's message when the customer's gold actions come next."""


class OracleAgent(Agent):
    """Replays the task's gold actions one tool call at a time, then tells the user the
    required outputs. Needs no model: an upper bound, and a dry run of the whole pipeline."""

    name = "oracle"
    description = "replays the task's gold actions, then states the required outputs (no model)"
    needs_model = False
    works_solo = True

    def __init__(self, context: Any) -> None:
        super().__init__(context)
        actions = gold_actions(context.task)
        if context.solo:  # the agent runs the customer's actions itself
            actions = [action.model_copy(update={"requestor": "assistant"}) for action in actions]
        # with the τ² protocol a transfer is an ordinary call, replayed like any other
        terminating = () if context.tau2 else context.domain.terminating_tools
        self._plan = gold_plan(actions, terminating, with_replies=True)
        self._position = 0
        self._answered = False

    async def next_message(self, conversation: list[Message]) -> Message:
        while self._position < len(self._plan):
            action = self._plan[self._position]
            self._position += 1
            if action.name == RESPOND_ACTION:
                return Message(role="assistant", content=str(action.kwargs.get("content", "")))
            if action.requestor == "user":
                return Message(role="assistant", content=self._ask_customer(action))
            call = ToolCall(
                id=f"oracle_{self._position}", name=action.name, arguments=json.dumps(action.kwargs)
            )
            return Message(role="assistant", content=None, tool_calls=[call])
        if self.context.solo and (self._answered or not required_outputs(self.context.task)):
            return Message(role="assistant", content=STOP_TOKEN)
        self._answered = True
        return Message(role="assistant", content=self.final_answer())

    def _ask_customer(self, first: Action) -> str:
        """The request for the run of customer actions starting with ``first``."""
        calls = [first]
        while self._position < len(self._plan) and self._plan[self._position].requestor == "user":
            calls.append(self._plan[self._position])
            self._position += 1
        return USER_STEP_REQUEST.format(calls=", then ".join(map(describe_call, calls)))

    def final_answer(self) -> str:
        """The closing message: the required outputs, or a plain confirmation."""
        outputs = required_outputs(self.context.task)
        if outputs:
            return "Here is what you asked for: " + "; ".join(outputs) + "."
        return "Everything you asked for is done. Is there anything else?"

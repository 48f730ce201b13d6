"""The ``scripted`` user: reads the task instruction, then stops. Calls no model; pairs with
the ``oracle`` agent for offline runs.

After a task's prior conversation (its initial state's message history) its first answer
states the instruction. In a dual-control domain it also replays the customer's gold
actions: each time the agent writes to it while some remain, it makes the next run of them
(the calls the ``oracle`` agent asks for), says it is done once their results are in, and
stops when none remain.
"""

from __future__ import annotations

import json

from tautrait_core.episode.context import EpisodeContext
from tautrait_core.episode.trait_backend import TraitBackend
from tautrait_core.episode.user import UserSimulator, UserTurn
from tautrait_core.grading.gold import gold_actions, user_action_runs
from tautrait_core.types.messages import STOP_TOKEN, Message, ToolCall, read_out

DONE_MESSAGE = "Done."
"""What the scripted customer says after its tool calls ran."""


class ScriptedUser(UserSimulator):
    """Opens with the task instruction and ends the conversation at the agent's first reply
    (in a dual-control domain: once it has replayed the customer's gold actions).

    Needs no model; pairs with the ``oracle`` agent for offline dry runs.
    """

    name = "scripted"
    description = "states the task instruction, then stops at the agent's first reply (no model)"
    needs_model = False

    def __init__(self, context: EpisodeContext, traits: TraitBackend) -> None:
        super().__init__(context, traits)
        dual = bool(context.user_tool_schemas)
        self._runs = user_action_runs(gold_actions(context.task)) if dual else []
        self._calls = 0
        self._stated = False

    async def start(self) -> str:
        self._stated = True
        return read_out(self.context.task.instruction.strip())

    def load_history(self, history: list[Message]) -> None:
        """After a task's prior conversation the customer has not yet said what they want
        now: the first answer states the instruction."""
        self._stated = False

    async def reply(self, agent_message: str) -> UserTurn:
        if not self._stated:
            return await self.start()
        if not self._runs:
            return STOP_TOKEN
        calls = []
        for action in self._runs.pop(0):
            self._calls += 1
            calls.append(
                ToolCall(
                    id=f"scripted_{self._calls}",
                    name=action.name,
                    arguments=json.dumps(action.kwargs),
                )
            )
        return Message(role="user", content=None, tool_calls=calls, requestor="user")

    async def observe_tool_results(self, results: list[Message]) -> UserTurn:
        return DONE_MESSAGE

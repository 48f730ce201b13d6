"""The ``scripted`` user: reads the task instruction, then stops. Calls no model; pairs with
the ``oracle`` agent for offline runs.
"""

from __future__ import annotations

from tautrait_core.episode.messages import STOP_TOKEN
from tautrait_core.episode.user import UserSimulator


class ScriptedUser(UserSimulator):
    """Opens with the task instruction and ends the conversation at the agent's first reply.

    Needs no model; pairs with the ``oracle`` agent for offline dry runs.
    """

    name = "scripted"
    description = "states the task instruction, then stops at the agent's first reply (no model)"
    needs_model = False

    async def start(self) -> str:
        return self.context.task.instruction.strip()

    async def reply(self, agent_message: str) -> str:
        return STOP_TOKEN

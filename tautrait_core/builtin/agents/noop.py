"""The ``noop`` agent: does nothing. It calls no tool and no model and answers every turn
with the same sentence, so a task it passes does not test the agent (``tautrait check``
lists such tasks)."""

from __future__ import annotations

from tautrait_core.episode.agent import Agent
from tautrait_core.types.messages import NOOP_REPLY, STOP_TOKEN, Message


class NoopAgent(Agent):
    """Answers :data:`NOOP_REPLY` every turn (``###STOP###`` in solo mode)."""

    name = "noop"
    description = "does nothing: no tool calls, the same reply every turn (no model)"
    needs_model = False
    works_solo = True

    async def next_message(self, conversation: list[Message]) -> Message:
        content = STOP_TOKEN if self.context.solo else NOOP_REPLY
        return Message(role="assistant", content=content)

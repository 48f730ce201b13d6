"""The agent interface: what an agent strategy implements.

An agent class is registered with the ``register_agents`` hook and constructed once per
episode. The orchestrator calls :meth:`Agent.next_message` with the conversation so far
(OpenAI form: system policy, user turns, the agent's own messages and tool results) and
executes the first tool call of the returned message (every call, in order, with the τ²
protocol), or sends its text to the user.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from tautrait_core.episode.context import EpisodeContext
from tautrait_core.episode.strategy import Strategy
from tautrait_core.types.messages import Message
from tautrait_core.types.usage import Usage


class Agent(Strategy, ABC):
    """Base class of agent strategies (``--agent NAME``).

    Attributes:
        needs_model: Whether ``--agent-model`` is required.
        works_solo: Whether the agent can run in solo mode (``--solo``: no customer; it
            gets the task's ticket and the user tools, and ends the episode itself by
            answering ``###STOP###``).
        default_user: The user simulator a run gets when ``--user`` is not given
            (``None``: ``llm`` for agents that need a model, ``scripted`` for the others).
    """

    needs_model: ClassVar[bool] = True
    works_solo: ClassVar[bool] = False
    default_user: ClassVar[str | None] = None

    def __init__(self, context: EpisodeContext) -> None:
        super().__init__(context)
        self.usage = Usage()

    @abstractmethod
    async def next_message(self, conversation: list[Message]) -> Message:
        """The agent's next message: text for the user, or one or more tool calls (with
        τ-bench's protocol only the first is executed, as its policies require one call at
        a time; with τ²'s all are, in order)."""

    async def close(self) -> None:
        """Release what the agent holds for its episode (called once, when the episode ends,
        however it ends); the default holds nothing."""

"""The user simulator interface.

A user class is registered with the ``register_user_simulators`` hook and constructed once
per episode, with the trait backend that renders the run's trait mix. The episode ends when
a user message contains :data:`tautrait_core.types.messages.STOP_TOKEN` (with the τ²
protocol also ``###TRANSFER###`` or ``###OUT-OF-SCOPE###``).

A turn is text (``str``), which is all a single-control domain needs. In a dual-control
domain a turn may instead be a :class:`~tautrait_core.types.messages.Message` with tool
calls on the customer's own tools (:attr:`EpisodeContext.user_tool_schemas`); the episode
runs them in order and hands their results to :meth:`UserSimulator.observe_tool_results`,
whose answer is the next turn. Text-only user simulators need not change.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from tautrait_core.episode.context import EpisodeContext
from tautrait_core.episode.strategy import Strategy
from tautrait_core.episode.trait_backend import TraitBackend
from tautrait_core.types.messages import Message
from tautrait_core.types.usage import Usage

UserTurn = str | Message
"""What a user simulator answers: text for the agent, or a message with tool calls."""


class UserSimulator(Strategy, ABC):
    """Base class of user simulator strategies (``--user NAME``).

    Attributes:
        needs_model: Whether the user is model-driven (through its trait backend).
        calls_user_model: Whether the strategy also calls ``--user-model`` itself, beside
            its trait backend (a reviewer of each message).
    """

    needs_model: ClassVar[bool] = True
    calls_user_model: ClassVar[bool] = False

    def __init__(self, context: EpisodeContext, traits: TraitBackend) -> None:
        super().__init__(context)
        self.traits = traits
        self.usage = Usage()

    @abstractmethod
    async def start(self) -> UserTurn:
        """The user's first turn."""

    @abstractmethod
    async def reply(self, agent_message: str) -> UserTurn:
        """The user's answer to the agent's message."""

    async def observe_tool_results(self, results: list[Message]) -> UserTurn:
        """The user's next turn after its own tool calls ran; ``results`` are their
        ``tool`` messages, in call order. Only user simulators that call tools need it."""
        raise NotImplementedError(
            f"user simulator {self.name!r} made tool calls but does not read their results"
        )

    def load_history(self, history: list[Message]) -> None:
        """Take in a task's prior conversation (τ² ``message_history``) before the episode
        goes on from its end; the default ignores it."""

"""The user simulator interface.

A user class is registered with the ``register_user_simulators`` hook and constructed once
per episode, with the trait backend that renders the run's trait mix. The episode ends when
a user message contains :data:`tautrait_core.episode.messages.STOP_TOKEN`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from tautrait_core.episode.context import EpisodeContext
from tautrait_core.episode.strategy import Strategy
from tautrait_core.episode.trait_backend import TraitBackend
from tautrait_core.llm.usage import Usage


class UserSimulator(Strategy, ABC):
    """Base class of user simulator strategies (``--user NAME``).

    Attributes:
        needs_model: Whether ``--user-model`` is used.
    """

    needs_model: ClassVar[bool] = True

    def __init__(self, context: EpisodeContext, traits: TraitBackend) -> None:
        super().__init__(context)
        self.traits = traits
        self.usage = Usage()

    @abstractmethod
    async def start(self) -> str:
        """The user's first message."""

    @abstractmethod
    async def reply(self, agent_message: str) -> str:
        """The user's answer to the agent's message."""

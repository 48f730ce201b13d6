"""The user simulator interface.

A user class is registered with the ``register_user_simulators`` hook and constructed once
per episode, with the trait backend that renders the run's trait mix. The episode ends when
a user message contains :data:`tautrait_core.episode.messages.STOP_TOKEN`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from tautrait_core.config import RunConfig
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.episode.trait_backend import TraitBackend
from tautrait_core.llm.usage import Usage


class UserSimulator(ABC):
    """Base class of user simulator strategies.

    Attributes:
        name: The strategy's name on the command line (``--user NAME``).
        description: One line for ``tautrait plugins``.
        needs_model: Whether ``--user-model`` is used.
    """

    name: ClassVar[str]
    description: ClassVar[str] = ""
    needs_model: ClassVar[bool] = True

    def __init__(self, context: EpisodeContext, traits: TraitBackend) -> None:
        self.context = context
        self.traits = traits
        self.usage = Usage()

    @classmethod
    def check_config(cls, config: RunConfig) -> None:
        """Raise :class:`~tautrait_core.errors.ConfigError` if the run cannot work with this
        strategy (called before anything runs). The default accepts everything."""
        return None

    @abstractmethod
    async def start(self) -> str:
        """The user's first message."""

    @abstractmethod
    async def reply(self, agent_message: str) -> str:
        """The user's answer to the agent's message."""

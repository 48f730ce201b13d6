"""The trait backend interface: how a trait mix changes the simulated user's words.

A user simulator builds its chat (system prompt + history, with the *same* base prompt
whether traits are on or off) and asks its trait backend for the next utterance. The
``prompt`` backend (core) describes the traits in the system prompt and calls the user
model; the ``steer`` backend (tautrait-steer-user) steers a model's activations instead.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tautrait_core.config import RunConfig
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.llm.usage import Usage
from tautrait_core.trait_mix import TraitMix


@dataclass
class Generation:
    """One generated user utterance and what it cost."""

    text: str
    usage: Usage = field(default_factory=Usage)


class TraitBackend(ABC):
    """Base class of trait backends.

    Attributes:
        name: The backend's name on the command line (``--trait-backend NAME``).
        description: One line for ``tautrait plugins``.
    """

    name: ClassVar[str]
    description: ClassVar[str] = ""
    uses_user_model: ClassVar[bool] = True
    """Whether generation calls ``--user-model`` (its key is then checked before a run)."""

    def __init__(self, context: EpisodeContext) -> None:
        self.context = context

    @classmethod
    def check_config(cls, config: RunConfig) -> None:
        """Raise :class:`ConfigError` if the run cannot work with this backend (called
        before anything runs). The default accepts everything."""
        return None

    @property
    def traits(self) -> TraitMix:
        """The run's trait mix."""
        return self.context.config.traits

    @abstractmethod
    async def generate(self, messages: list[dict[str, Any]]) -> Generation:
        """The user's next utterance for ``messages`` (OpenAI chat form, from the user's
        point of view: the system prompt, then the agent's turns as ``user`` messages and
        the simulated user's own turns as ``assistant`` messages)."""

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

from tautrait_core.episode.strategy import Strategy
from tautrait_core.trait_mix import TraitMix
from tautrait_core.types.messages import ToolCall
from tautrait_core.types.usage import Usage


@dataclass
class Generation:
    """One generated user utterance and what it cost; ``tool_calls`` are the customer's
    calls of their own tools (dual-control domains only)."""

    text: str
    usage: Usage = field(default_factory=Usage)
    tool_calls: list[ToolCall] | None = None


class TraitBackend(Strategy, ABC):
    """Base class of trait backends (``--trait-backend NAME``)."""

    uses_user_model: ClassVar[bool] = True
    """Whether generation calls ``--user-model`` (its key is then checked before a run)."""

    @property
    def traits(self) -> TraitMix:
        """The run's trait mix."""
        return self.context.user.traits

    @abstractmethod
    async def generate(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> Generation:
        """The user's next utterance for ``messages`` (OpenAI chat form, from the user's
        point of view: the system prompt, then the agent's turns as ``user`` messages and
        the simulated user's own turns as ``assistant`` messages, with its own tool calls
        and their ``tool`` results).

        ``tools`` are the schemas of the customer's tools (dual-control domains; ``None``
        otherwise, and then user simulators call ``generate(messages)`` alone, so a
        backend that only serves single-control domains may leave the argument out)."""

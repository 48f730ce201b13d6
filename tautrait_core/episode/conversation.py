"""What an episode's conversation has produced so far, and what it is played with: shared
by both protocols."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from tautrait_core.domain.state import EpisodeDB
from tautrait_core.episode.agent import Agent
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.episode.user import UserSimulator
from tautrait_core.errors import StorageError
from tautrait_core.llm.client import encodable_text
from tautrait_core.types.messages import Message
from tautrait_core.types.result import Termination


@dataclass
class Conversation:
    """The transcript and counters of one episode.

    Attributes:
        messages: Every message, in order (both sides' tool calls included).
        replies: The agent's messages to the customer (for required outputs).
        steps: Agent steps (τ-bench protocol) or hops (τ² protocol).
        tool_errors: Tool calls whose observation reports an error.
        termination: Why it ended (``None`` while it goes on).
        started: When it started (``time.monotonic()``), for ``--episode-timeout-s``.
    """

    messages: list[Message]
    replies: list[str] = field(default_factory=list)
    steps: int = 0
    tool_errors: int = 0
    termination: Termination | None = None
    started: float = field(default_factory=time.monotonic)


@dataclass(eq=False)
class EpisodeProtocol:
    """One conversation played with a protocol (τ-bench's or τ²'s): the episode, its
    database, the two sides, and the :class:`Conversation` the protocol fills in."""

    context: EpisodeContext
    db: EpisodeDB
    agent: Agent
    user: UserSimulator
    conversation: Conversation

    def out_of_time(self) -> bool:
        """Whether the episode has run past ``--episode-timeout-s`` (never without one)."""
        limit = self.context.limits.episode_timeout_s
        return limit is not None and time.monotonic() - self.conversation.started >= limit


class UserFailure(Exception):
    """The user simulator failed; wraps the original error."""


async def user_turn(awaitable: object) -> Message:
    """Await a user simulator's turn and make it a ``user`` message: text as it is (apart
    from characters UTF-8 cannot encode), or the customer's tool calls
    (``requestor="user"``)."""
    try:
        turn = await awaitable  # type: ignore[misc]
    except StorageError:  # the machine's fault, not the simulator's: stops the run
        raise
    except Exception as exc:
        raise UserFailure(str(exc)) from exc
    if isinstance(turn, Message):
        content = None if turn.content is None else encodable_text(turn.content)
        if turn.tool_calls:
            return Message(
                role="user", content=content, tool_calls=turn.tool_calls, requestor="user"
            )
        return Message(role="user", content=content or "")
    return Message(role="user", content=encodable_text(str(turn)))

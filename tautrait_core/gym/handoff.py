"""Stepping an episode from outside: the side a gym policy plays suspends the episode.

The episode runs through :func:`tautrait_core.episode.loop.run_episode` unchanged, as a task
on the environment's own event loop. The side the policy plays is an :class:`ExternalAgent`
or an :class:`ExternalUser`: when the loop asks it for a message, it hands what that side
sees to the environment and waits until :meth:`Handoff.answer` gives the policy's action.
So the loop's rules (first tool call only, terminating tools, ``###STOP###``, the step
limit, the reward and the finished-terminations rule) hold in a gym episode exactly as in a
run, with no second copy of them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from tautrait_core.episode.agent import Agent
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.episode.trait_backend import TraitBackend
from tautrait_core.episode.user import UserSimulator
from tautrait_core.types.messages import Message
from tautrait_core.types.result import EpisodeResult


class Handoff:
    """Runs one episode on an event loop, pausing it whenever the policy must act.

    Args:
        loop: The event loop to run the episode on (the environment's own).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._asked: asyncio.Future[Any] = loop.create_future()
        self._answer: asyncio.Future[Any] | None = None
        self._task: asyncio.Task[EpisodeResult] | None = None

    async def ask(self, view: Any) -> Any:
        """Called inside the episode: show ``view`` to the policy and wait for its action."""
        self._answer = self.loop.create_future()
        self._asked.set_result(view)
        return await self._answer

    def start(self, episode: Coroutine[Any, Any, EpisodeResult]) -> Any | None:
        """Start the episode; what the policy sees first, or ``None`` if it ended at once."""
        self._task = self.loop.create_task(episode)
        return self._run_until_asked()

    def answer(self, action: Any) -> Any | None:
        """Give the policy's action; what it sees next, or ``None`` once the episode ended."""
        if self._answer is None or self._answer.done():
            raise RuntimeError("the episode is not waiting for an action: call reset() first")
        self._answer.set_result(action)
        return self._run_until_asked()

    @property
    def result(self) -> EpisodeResult | None:
        """The finished episode, or ``None`` while it runs."""
        if self._task is None or not self._task.done():
            return None
        return self._task.result()

    def cancel(self) -> None:
        """Stop an unfinished episode (closing its database)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            self.loop.run_until_complete(asyncio.gather(self._task, return_exceptions=True))

    def _run_until_asked(self) -> Any | None:
        assert self._task is not None
        self.loop.run_until_complete(
            asyncio.wait({self._task, self._asked}, return_when=asyncio.FIRST_COMPLETED)
        )
        if self._asked.done():
            view = self._asked.result()
            self._asked = self.loop.create_future()
            return view
        self._task.result()  # re-raise a crash of the episode itself
        return None


class ExternalAgent(Agent):
    """The agent side played by a gym policy: it sees the conversation so far."""

    name = "gym"
    description = "the agent side of a gym environment (the policy outside the loop)"
    needs_model = False

    def __init__(self, context: EpisodeContext, handoff: Handoff) -> None:
        super().__init__(context)
        self.handoff = handoff

    async def next_message(self, conversation: list[Message]) -> Message:
        message = await self.handoff.ask(list(conversation))
        assert isinstance(message, Message)
        return message


class ExternalUser(UserSimulator):
    """The customer played by a gym policy: it sees the agent's messages to the user and
    its own earlier turns (never the tool calls)."""

    name = "gym"
    description = "the user side of a gym environment (the policy outside the loop)"
    needs_model = False

    def __init__(self, context: EpisodeContext, traits: TraitBackend, handoff: Handoff) -> None:
        super().__init__(context, traits)
        self.handoff = handoff
        self.turns: list[dict[str, str]] = []

    async def start(self) -> str:
        return await self._turn()

    async def reply(self, agent_message: str) -> str:
        self.turns.append({"role": "assistant", "content": agent_message})
        return await self._turn()

    async def _turn(self) -> str:
        text = str(await self.handoff.ask(list(self.turns)))
        self.turns.append({"role": "user", "content": text})
        return text

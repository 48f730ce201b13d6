"""One episode's tool channel: tool calls a remote agent makes over MCP, handed to the
episode loop as the agent's own calls, and their observations handed back.

The loop never learns that the agent is remote: :class:`~tautrait_core.remote.agent.A2AAgent`
returns each call taken from the channel as an assistant message with that tool call, the
loop runs it on the episode's database exactly as it runs a native agent's call, and the
observation it appends comes back here to answer the waiting MCP request.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from tautrait_core.types.messages import ToolCall


class ChannelClosed(Exception):
    """The episode the channel served has ended: no more tool calls are taken."""


@dataclass
class PendingCall:
    """A tool call the remote agent waits on, and where its observation goes."""

    call: ToolCall
    observation: asyncio.Future[str]


@dataclass(eq=False)
class ToolChannel:
    """The agent-side tools of one episode, as a remote agent reaches them.

    Attributes:
        tool_schemas: The tools in OpenAI form, the ones native agents get.
    """

    tool_schemas: list[dict[str, Any]]
    closed: bool = False
    _calls: asyncio.Queue[PendingCall] = field(default_factory=asyncio.Queue)
    _waiting: dict[str, PendingCall] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=itertools.count)

    async def call(self, name: str, arguments: dict[str, Any] | None) -> str:
        """Queue a tool call for the episode and wait for its observation.

        Raises:
            ChannelClosed: the episode has ended (before or while the call waited).
        """
        if self.closed:
            raise ChannelClosed("the episode of this tool endpoint has ended")
        call = ToolCall(
            id=f"mcp_{next(self._ids)}", name=name, arguments=json.dumps(arguments or {})
        )
        pending = PendingCall(call, asyncio.get_running_loop().create_future())
        self._waiting[call.id] = pending
        self._calls.put_nowait(pending)
        try:
            return await pending.observation
        finally:
            self._waiting.pop(call.id, None)

    async def next_call(self) -> ToolCall:
        """The next tool call the remote agent made (waits until there is one)."""
        while True:
            pending = await self._calls.get()
            if not pending.observation.done():  # a call whose caller gave up is skipped
                return pending.call

    def answer(self, call_id: str, observation: str) -> None:
        """Hand the observation of call ``call_id`` back to the remote agent."""
        pending = self._waiting.get(call_id)
        if pending is not None and not pending.observation.done():
            pending.observation.set_result(observation)

    def close(self) -> None:
        """End the channel: calls still waiting and every later call are refused."""
        self.closed = True
        for pending in self._waiting.values():
            if not pending.observation.done():
                pending.observation.set_exception(
                    ChannelClosed("the episode of this tool endpoint has ended")
                )

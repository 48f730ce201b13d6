"""The ``a2a`` agent: an agent service of its own (any framework) spoken to over A2A, with
the episode's tools served to it over MCP.

Each episode is one A2A conversation. Every customer turn goes as an A2A message; the
first one's metadata carries ``tautrait.mcp_url``, the episode's tool endpoint (see
``docs/evaluating-your-agent.md``). While the agent works on a turn, each tool call it makes
through that endpoint is returned to the episode loop as this agent's tool call, so it runs
and is recorded exactly as a native agent's; its observation goes back to the remote agent.
The agent's text reply ends the turn.

Cost: the remote agent's model calls are its own, unseen here, so its cost is unknown (never
$0): ``report`` shows the agent's cost, and the run's, as ``unknown``.

Failures: a turn that takes longer than ``--agent-timeout``, an error or malformed answer
fail the episode as the agent's (``agent_error``); an agent unreachable at the episode's
first message is an infrastructure error (``error``, re-run on ``--resume``).
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar
from urllib.parse import urlsplit

from tautrait_core.config.run_config import RunConfig
from tautrait_core.episode.agent import Agent
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.errors import ConfigError, ProviderError
from tautrait_core.remote.a2a_client import A2ASession, AgentUnreachable, RemoteAgentError
from tautrait_core.remote.mcp_server import ToolServer, tool_server
from tautrait_core.remote.options import AGENT_TIMEOUT, AGENT_URL, TOOLS_HOST
from tautrait_core.remote.tool_channel import ToolChannel
from tautrait_core.types.messages import Message
from tautrait_core.types.usage import Usage


class A2AAgent(Agent):
    """A remote agent behind A2A (``--agent a2a --agent-url URL``)."""

    name = "a2a"
    description = "a remote agent over A2A; the episode's tools reach it over MCP"
    needs_model: ClassVar[bool] = False
    default_user: ClassVar[str | None] = "llm"

    @classmethod
    def check_config(cls, config: RunConfig) -> None:
        url = AGENT_URL.value_in(config.plugin_options)
        if not url:
            raise ConfigError("agent 'a2a' talks to a remote agent: pass --agent-url URL")
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ConfigError(f"--agent-url {url!r} is not an http(s) URL: e.g. http://HOST:PORT/")
        if AGENT_TIMEOUT.value_in(config.plugin_options) <= 0:
            raise ConfigError("--agent-timeout must be a positive number of seconds")
        try:
            import a2a.client  # noqa: F401
            import uvicorn  # noqa: F401
        except ImportError:
            raise ConfigError(
                "agent 'a2a' needs the A2A client: pip install 'tautrait-core[a2a]'"
            ) from None

    def __init__(self, context: EpisodeContext) -> None:
        super().__init__(context)
        self.usage = Usage(cost=None)  # the remote agent's model calls are not seen here
        url = context.plugin_option(AGENT_URL.name)
        self.timeout_s = float(context.plugin_option(AGENT_TIMEOUT.name))
        self.session = A2ASession(url, self.timeout_s)
        self.channel = ToolChannel(list(context.domain.tool_schemas))
        self._server: ToolServer | None = None
        self._mcp_url: str | None = None
        self._turn: asyncio.Task[str] | None = None
        self._deadline = 0.0
        self._answered = False

    async def next_message(self, conversation: list[Message]) -> Message:
        last = conversation[-1]
        if last.role == "tool" and last.tool_call_id is not None:
            self.channel.answer(last.tool_call_id, last.content or "")
        elif last.role == "user" and self._turn is None:
            await self._send(last.content or "", conversation)
        elif self._turn is None:
            raise RemoteAgentError("the conversation handed to the agent ends with no turn")
        return await self._next_event()

    async def close(self) -> None:
        """Close the episode's tool endpoint and the conversation."""
        if self._turn is not None:
            self._turn.cancel()
        if self._server is not None and self._mcp_url is not None:
            self._server.close(self._mcp_url)
        self.channel.close()
        await self.session.close()

    async def _send(self, text: str, conversation: list[Message]) -> None:
        """Start the agent's turn: send the customer's message."""
        metadata = None
        if self._mcp_url is None:
            self._server = tool_server(self.context.plugin_option(TOOLS_HOST.name))
            self._mcp_url = await self._server.open(self.channel)
            metadata = {"tautrait": self._first_metadata(conversation)}
        self._deadline = asyncio.get_running_loop().time() + self.timeout_s
        self._turn = asyncio.create_task(self.session.send(text, metadata))

    def _first_metadata(self, conversation: list[Message]) -> dict[str, Any]:
        """What the first message tells the agent: its tools, the domain and its policy, and
        any messages of the task's history before this turn."""
        history = [
            {"role": message.role, "content": message.content or ""}
            for message in conversation[1:-1]
            if message.role in ("user", "assistant") and message.content
        ]
        return {
            "mcp_url": self._mcp_url,
            "domain": self.context.domain.name,
            "policy": (conversation[0].content or "") if conversation else "",
            "history": history,
        }

    async def _next_event(self) -> Message:
        """The agent's next tool call, or its reply that ends the turn."""
        assert self._turn is not None
        getter = asyncio.ensure_future(self.channel.next_call())
        remaining = self._deadline - asyncio.get_running_loop().time()
        try:
            await asyncio.wait(
                {getter, self._turn}, timeout=max(remaining, 0), return_when="FIRST_COMPLETED"
            )
        finally:
            if not getter.done():
                getter.cancel()
        if getter.done() and not getter.cancelled():
            return Message(role="assistant", tool_calls=[getter.result()])
        if not self._turn.done():
            raise RemoteAgentError(
                f"the agent at {self.session.url} took longer than {self.timeout_s:g} s "
                "for one turn (--agent-timeout)"
            )
        turn, self._turn = self._turn, None
        try:
            reply = turn.result()
        except AgentUnreachable as exc:
            if not self._answered:  # never reached: the harness's problem, re-run on resume
                raise ProviderError(str(exc)) from exc
            raise RemoteAgentError(str(exc)) from exc
        self._answered = True
        return Message(role="assistant", content=reply)

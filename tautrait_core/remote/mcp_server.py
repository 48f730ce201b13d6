"""The agent-side tools of each running episode, served over MCP (streamable HTTP).

One server per event loop, started when the first episode opens an endpoint and stopped
when the last one closes. Each episode gets its own endpoint, ``/mcp/<token>`` with a
random, unguessable token; a request to a path whose episode has ended (or never existed)
is refused with 404 before MCP sees it. The server listens on loopback unless the run says
otherwise (``--tools-host``). Tools are listed with the schemas native agents get; a call
goes through the episode's :class:`~tautrait_core.remote.tool_channel.ToolChannel`.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
from dataclasses import dataclass, field
from typing import Any

from tautrait_core.remote.tool_channel import ChannelClosed, ToolChannel

MCP_PATH = "/mcp/"
"""Where the endpoints live: ``MCP_PATH + token``."""
WILDCARDS = ("0.0.0.0", "::")
"""Addresses that listen on every interface: the endpoints' URLs then name this machine's
host name instead."""


@dataclass(eq=False)
class ToolServer:
    """The MCP server of one event loop and host, with the endpoints of open episodes."""

    host: str
    channels: dict[str, ToolChannel] = field(default_factory=dict)
    port: int = 0
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _stop: asyncio.Event | None = None
    _holder: asyncio.Task[None] | None = None

    async def open(self, channel: ToolChannel) -> str:
        """Serve ``channel`` at a new endpoint and return the endpoint's URL."""
        async with self._lock:
            if self._holder is None or self._holder.done():
                await self._start()
            token = secrets.token_urlsafe(24)
            self.channels[token] = channel
        host = socket.getfqdn() if self.host in WILDCARDS else self.host
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}{MCP_PATH}{token}"

    def close(self, url: str) -> None:
        """Close the endpoint at ``url``: its channel is closed, later requests get 404; the
        server stops once no endpoint is open."""
        token = url.rsplit("/", 1)[-1]
        channel = self.channels.pop(token, None)
        if channel is not None:
            channel.close()
        if not self.channels and self._stop is not None:
            self._stop.set()
            self._holder = None

    async def _start(self) -> None:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, 0))
        self.port = sock.getsockname()[1]
        self._stop = asyncio.Event()
        ready = asyncio.get_running_loop().create_future()
        self._holder = asyncio.create_task(self._serve(sock, self._stop, ready))
        await ready

    async def _serve(self, sock: socket.socket, stop: asyncio.Event, ready: asyncio.Future) -> None:
        """Run the server until ``stop`` is set (one task owns the SDK's task group)."""
        import uvicorn
        from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

        manager = StreamableHTTPSessionManager(
            app=self._mcp_server(), stateless=True, json_response=True
        )
        config = uvicorn.Config(
            self._asgi(manager), log_config=None, lifespan="off", access_log=False
        )
        config.load()
        server = uvicorn.Server(config)
        server.lifespan = config.lifespan_class(config)
        try:
            async with manager.run():
                await server.startup(sockets=[sock])
                ready.set_result(None)
                await stop.wait()
                await server.shutdown(sockets=[sock])
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc)
            raise

    def _asgi(self, manager: Any) -> Any:
        """Requests for open endpoints go to MCP; every other path is refused."""
        from starlette.responses import PlainTextResponse

        async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
            if scope["type"] == "http" and token_of(scope["path"]) in self.channels:
                await manager.handle_request(scope, receive, send)
                return
            refusal = PlainTextResponse("no open tautrait tool endpoint at this path", 404)
            await refusal(scope, receive, send)

        return app

    def _mcp_server(self) -> Any:
        from mcp import types
        from mcp.server.lowlevel import Server

        def channel_of(ctx: Any) -> ToolChannel | None:
            request = getattr(ctx, "request", None)
            path = request.url.path if request is not None else ""
            return self.channels.get(token_of(path))

        async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
            channel = channel_of(ctx)
            schemas = channel.tool_schemas if channel is not None else []
            return types.ListToolsResult(tools=[mcp_tool(schema) for schema in schemas])

        async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
            channel = channel_of(ctx)
            try:
                if channel is None:
                    raise ChannelClosed("the episode of this tool endpoint has ended")
                text = await channel.call(params.name, params.arguments)
            except ChannelClosed as exc:
                content = [types.TextContent(type="text", text=f"Error: {exc}")]
                return types.CallToolResult(content=content, is_error=True)
            return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

        return Server("tautrait-tools", on_list_tools=list_tools, on_call_tool=call_tool)


def token_of(path: str) -> str:
    """The endpoint token in a request path (empty when the path is not an endpoint's)."""
    return path[len(MCP_PATH) :].strip("/") if path.startswith(MCP_PATH) else ""


def mcp_tool(schema: dict[str, Any]) -> Any:
    """An OpenAI-form tool schema as an MCP tool (same name, description and parameters)."""
    from mcp import types

    function = schema.get("function", schema)
    parameters = function.get("parameters") or {"type": "object", "properties": {}}
    return types.Tool(
        name=function["name"],
        description=function.get("description", ""),
        input_schema=parameters,
    )


_SERVERS: dict[tuple[asyncio.AbstractEventLoop, str], ToolServer] = {}


def tool_server(host: str) -> ToolServer:
    """The tool server of the running event loop on ``host`` (made on first use)."""
    loop = asyncio.get_running_loop()
    for key in [key for key in _SERVERS if key[0].is_closed()]:
        del _SERVERS[key]
    return _SERVERS.setdefault((loop, host), ToolServer(host))

"""Remote agents for the tests of ``--agent a2a``: the example Agents SDK service started as
a separate process, and run configurations that point at it."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tautrait_core.config.run_config import RunConfig
from tautrait_core.scripted.server import ScriptedModelServer
from tests.scripted_runs import scripted_config

EXAMPLE = (
    Path(__file__).resolve().parents[1] / "examples" / "openai-agents-a2a" / "agent_service.py"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def example_agent(
    model_server: ScriptedModelServer, streaming: bool = True, port: int | None = None
) -> Iterator[str]:
    """The example agent on loopback, its model the scripted server; yields its URL."""
    port = port or free_port()
    command = [sys.executable, str(EXAMPLE), "--port", str(port), "--model", "scripted-agent"]
    command += ["--base-url", model_server.base_url]
    if not streaming:
        command.append("--no-streaming")
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for(url + ".well-known/agent-card.json", process)
        EXAMPLE_PROCESSES[url] = process
        yield url
    finally:
        EXAMPLE_PROCESSES.pop(url, None)
        process.terminate()
        process.wait(timeout=10)
        process.stderr.close()


EXAMPLE_PROCESSES: dict[str, subprocess.Popen[str]] = {}
"""The running example agents by URL (a test kills one mid-run)."""


def wait_for(url: str, process: subprocess.Popen[str] | None, limit_s: float = 60.0) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the example agent exited: {process.stderr.read()}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing answers at {url}")


def a2a_config(model_server: ScriptedModelServer, agent_url: str, **overrides: object) -> RunConfig:
    """A run of the remote agent at ``agent_url`` against the scripted model's user."""
    options: dict[str, object] = {
        "agent": "a2a",
        "agent_url": agent_url,
        "user": "llm",
        "user_model": "openai/scripted-user",
        "user_api_base": model_server.base_url,
        "retry_base_s": 0.01,
        "timeout_s": 5,
    }
    options.update(overrides)
    return RunConfig.model_validate(options)


def native_config(model_server: ScriptedModelServer, **overrides: object) -> RunConfig:
    """The built-in ``tool-calling`` agent on the same scripted model."""
    return scripted_config(model_server, **overrides)


@contextlib.contextmanager
def misbehaving_agent(behaviour: str) -> Iterator[str]:
    """An A2A agent (a2a-sdk server, in a thread) that misbehaves on every message: ``slow``
    (never answers in time), ``raise`` (its executor fails), ``textless`` (answers with no
    text) or ``garbage`` (its JSON-RPC endpoint answers with something else). Yields its URL."""
    import uvicorn
    from a2a.helpers.proto_helpers import new_message
    from a2a.server.agent_execution import AgentExecutor
    from a2a.server.request_handlers import DefaultRequestHandler
    from a2a.server.routes.agent_card_routes import create_agent_card_routes
    from a2a.server.routes.jsonrpc_routes import create_jsonrpc_routes
    from a2a.server.tasks.inmemory_task_store import InMemoryTaskStore
    from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    class Misbehaving(AgentExecutor):
        async def execute(self, context: Any, event_queue: Any) -> None:
            if behaviour == "slow":
                await asyncio.sleep(30)
            elif behaviour == "raise":
                raise RuntimeError("the agent's own database is down")
            await event_queue.enqueue_event(new_message([], context_id=context.context_id))

        async def cancel(self, context: Any, event_queue: Any) -> None:
            return None

    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    card = AgentCard(
        name="misbehaving",
        description=behaviour,
        version="1",
        supported_interfaces=[
            AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="1.0")
        ],
        capabilities=AgentCapabilities(streaming=False),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[AgentSkill(id="fail", name="fail", description=behaviour, tags=["test"])],
    )
    handler = DefaultRequestHandler(
        agent_executor=Misbehaving(), task_store=InMemoryTaskStore(), agent_card=card
    )
    if behaviour == "garbage":

        async def garbage(request: Any) -> JSONResponse:
            return JSONResponse({"surprise": [1, 2, 3]})

        rpc = [Route("/", garbage, methods=["POST"])]
    else:
        rpc = create_jsonrpc_routes(handler, rpc_url="/")
    app = Starlette(routes=[*create_agent_card_routes(card), *rpc])
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="critical", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_for(url + ".well-known/agent-card.json", None)
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=10)

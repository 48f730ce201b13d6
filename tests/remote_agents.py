"""Remote agents for the tests of ``--agent a2a``: the example Agents SDK service started as
a separate process, and run configurations that point at it."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from tautrait_core.config.run_config import RunConfig
from tautrait_core.scripted.server import ScriptedModelServer

EXAMPLE = (
    Path(__file__).resolve().parents[1] / "examples" / "openai-agents-a2a" / "agent_service.py"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def example_agent(model_server: ScriptedModelServer, streaming: bool = True) -> Iterator[str]:
    """The example agent on loopback, its model the scripted server; yields its URL."""
    port = free_port()
    command = [sys.executable, str(EXAMPLE), "--port", str(port), "--model", "scripted-agent"]
    command += ["--base-url", model_server.base_url]
    if not streaming:
        command.append("--no-streaming")
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for(url + ".well-known/agent-card.json", process)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def wait_for(url: str, process: subprocess.Popen[str], limit_s: float = 60.0) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
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
    options: dict[str, object] = {
        "agent": "tool-calling",
        "agent_model": "openai/scripted-agent",
        "agent_api_base": model_server.base_url,
        "user": "llm",
        "user_model": "openai/scripted-user",
        "user_api_base": model_server.base_url,
        "retry_base_s": 0.01,
        "timeout_s": 5,
    }
    options.update(overrides)
    return RunConfig.model_validate(options)

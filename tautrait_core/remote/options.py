"""The run options of remote agents (``--agent-url``, ``--agent-timeout``, ``--tools-host``)."""

from __future__ import annotations

from tautrait_core.run_options import RunOption

AGENT_URL = RunOption(
    name="agent_url",
    help="the A2A agent under test (--agent a2a): its base URL, where its card is served",
    resumable=True,
)
AGENT_TIMEOUT = RunOption(
    name="agent_timeout",
    help="seconds a remote agent may take for one turn before the episode fails",
    type=float,
    default=120.0,
    resumable=True,
)
TOOLS_HOST = RunOption(
    name="tools_host",
    help="the address the episodes' MCP tool endpoints listen on and are handed out with "
    "(0.0.0.0: every interface, handed out as this machine's host name)",
    default="127.0.0.1",
    resumable=True,
)
REMOTE_OPTIONS = (AGENT_URL, AGENT_TIMEOUT, TOOLS_HOST)
"""Every option a remote agent reads."""

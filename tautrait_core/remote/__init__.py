"""Agents that run outside tautrait: the episode's tools served over MCP, and a remote
agent spoken to over A2A (``--agent a2a``).

Above :mod:`tautrait_core.episode` (a remote agent is an :class:`~tautrait_core.episode.agent.Agent`
like any other) and below :mod:`tautrait_core.run`. The MCP and A2A SDKs are imported only
when a remote agent runs.
"""

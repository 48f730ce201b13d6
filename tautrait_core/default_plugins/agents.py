"""Built-in agents, registered through the same hook as third-party plugins.

The classes live in :mod:`.builtin_agents`, imported only when the registry is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tautrait_core.hookspecs import hookimpl


@hookimpl
def register_agents(register: Callable[[type[Any]], None]) -> None:
    from tautrait_core.default_plugins.builtin_agents import OracleAgent, ToolCallingAgent

    register(OracleAgent)
    register(ToolCallingAgent)

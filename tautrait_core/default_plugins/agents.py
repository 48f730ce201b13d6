"""Built-in agents, registered through the same hook as third-party plugins.

The classes live in :mod:`.builtin_agents`, :mod:`.text_action_agents`,
:mod:`.few_shot_agent` and :mod:`.human`, imported only when the registry is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tautrait_core.hookspecs import hookimpl


@hookimpl
def register_agents(register: Callable[[type[Any]], None]) -> None:
    from tautrait_core.default_plugins.builtin_agents import OracleAgent, ToolCallingAgent
    from tautrait_core.default_plugins.few_shot_agent import FewShotAgent
    from tautrait_core.default_plugins.human import HumanAgent
    from tautrait_core.default_plugins.text_action_agents import ActAgent, ReActAgent

    register(OracleAgent)
    register(ToolCallingAgent)
    register(ActAgent)
    register(ReActAgent)
    register(FewShotAgent)
    register(HumanAgent)

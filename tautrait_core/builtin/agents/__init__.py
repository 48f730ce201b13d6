"""Built-in agent strategies, registered through the same hook as third-party plugins.

The classes are imported only when the registry is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tautrait_core.hookspecs import hookimpl


@hookimpl
def register_agents(register: Callable[[type[Any]], None]) -> None:
    from tautrait_core.builtin.agents.few_shot import FewShotAgent
    from tautrait_core.builtin.agents.oracle import OracleAgent
    from tautrait_core.builtin.agents.oracle_plan import OraclePlanAgent
    from tautrait_core.builtin.agents.solo import SoloAgent
    from tautrait_core.builtin.agents.text_action import ActAgent, ReActAgent
    from tautrait_core.builtin.agents.tool_calling import ToolCallingAgent
    from tautrait_core.builtin.human import HumanAgent

    register(OracleAgent)
    register(ToolCallingAgent)
    register(ActAgent)
    register(ReActAgent)
    register(FewShotAgent)
    register(HumanAgent)
    register(OraclePlanAgent)
    register(SoloAgent)

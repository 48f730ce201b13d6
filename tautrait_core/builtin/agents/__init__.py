"""Built-in agent strategies, registered through the same hook as third-party plugins.

Each is registered by name and imported only when a command uses it.
"""

from __future__ import annotations

from collections.abc import Callable

from tautrait_core.hookspecs import hookimpl
from tautrait_core.registrations import DeferredPart

AGENTS = "tautrait_core.builtin.agents"


@hookimpl
def register_agents(register: Callable[[DeferredPart], None]) -> None:
    register(DeferredPart("oracle", f"{AGENTS}.oracle:OracleAgent"))
    register(DeferredPart("tool-calling", f"{AGENTS}.tool_calling:ToolCallingAgent"))
    register(DeferredPart("act", f"{AGENTS}.text_action:ActAgent"))
    register(DeferredPart("react", f"{AGENTS}.text_action:ReActAgent"))
    register(DeferredPart("few-shot", f"{AGENTS}.few_shot:FewShotAgent"))
    register(DeferredPart("human", "tautrait_core.builtin.human:HumanAgent"))
    register(DeferredPart("oracle-plan", f"{AGENTS}.oracle_plan:OraclePlanAgent"))
    register(DeferredPart("solo", f"{AGENTS}.solo:SoloAgent"))

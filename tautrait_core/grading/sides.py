"""Tools by the side that calls them: running one as its side does, each side's
functions, state hashes and τ³'s tool metadata (type, whether it mutates the state)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tautrait_core.domain.domain import Domain
from tautrait_core.domain.state import EpisodeDB, state_hash
from tautrait_core.domain.tool_execution import run_user_tool
from tautrait_core.domain.tools import tool_failure


def run_side_tool(
    domain: Domain, db: EpisodeDB, requestor: str, name: str, arguments: dict[str, Any]
) -> str:
    """Run a tool of the side that calls it (the agent's or, in a dual-control domain, the
    customer's) and return the observation; never raises."""
    if requestor != "user":
        return domain.run_tool(db, name, arguments)
    if not domain.dual_control:
        return tool_failure("User tools not available")
    return run_user_tool(domain, db, name, arguments)


def side_hashes(domain: Domain, db: EpisodeDB) -> tuple[str, str | None]:
    """The canonical hash of the agent's side and of the customer's side (``None`` when
    the domain has no customer-side tables); equal rows give equal hashes."""
    user_tables = {table.__tablename__ for table in domain.user_tables}  # type: ignore[attr-defined]
    changes = db.changes()
    agent_side = {key: value for key, value in changes.items() if key[0] not in user_tables}
    user_side = {key: value for key, value in changes.items() if key[0] in user_tables}
    user_hash = state_hash(db.template, user_side) if user_tables else None
    return state_hash(db.template, agent_side), user_hash


def side_functions(domain: Domain, side: str) -> Mapping[str, Callable[..., Any]]:
    """The functions an env assertion or initialization action may name on ``side``:
    the side's declared functions and its tools (called with the raw return value)."""
    tools = domain.user_tools if side == "user" else domain.tools
    declared = domain.user_functions if side == "user" else domain.agent_functions
    return {**{tool.name: tool.function for tool in tools}, **declared}


def tool_type_of(domain: Domain, name: str) -> str | None:
    """τ³'s type of the tool ``name`` (an agent tool, else a user tool): ``read``,
    ``write``, ``think`` or ``generic``; ``None`` when neither side has it."""
    found = domain.tools_by_name.get(name) or domain.user_tools_by_name.get(name)
    return None if found is None else found.tool_type


def mutates_state_of(domain: Domain, side: str, name: str) -> bool:
    """Whether the tool ``name`` of ``side`` changes the state (τ³'s ``mutates_state``;
    ``False`` for a tool that side lacks)."""
    tools = domain.user_tools_by_name if side == "user" else domain.tools_by_name
    found = tools.get(name)
    return found is not None and found.mutates_state

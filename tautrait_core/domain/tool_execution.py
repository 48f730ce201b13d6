"""Running one tool call of an episode, on the side that made it.

A call is checked before it runs (malformed, oversized or too deeply nested arguments and
unknown tools come back as an ``Error: ...`` observation, never an exception). In a
dual-control domain the customer's calls run the user tools, the agent's calls the agent
tools (in solo mode the agent may call the user tools too), and the domain's state sync
runs after every call that did not raise (τ²'s rule: a tool's own ``Error: ...`` text is
not a failure; see :class:`~tautrait_core.domain.tools.ToolFailure`).
"""

from __future__ import annotations

from typing import Any

from tautrait_core.domain.domain import Domain
from tautrait_core.domain.state import EpisodeDB
from tautrait_core.domain.tau2_tools import TAU2_UNKNOWN_TOOL
from tautrait_core.domain.tools import ToolFailure, raised, tool_failure
from tautrait_core.llm.chat_answer import nesting_depths
from tautrait_core.llm.client import encodable_text
from tautrait_core.types.criteria import Side
from tautrait_core.types.messages import ToolCall

MAX_ARGUMENT_DEPTH = 32
"""Deepest nesting of arrays and objects accepted in tool-call arguments."""
MAX_ARGUMENT_CHARS = 100_000
"""Longest tool-call argument text accepted (and stored)."""


def invalid_arguments_observation(name: str, error: Exception) -> str:
    """What the caller sees when its tool-call arguments are not a JSON object."""
    return tool_failure(f"the arguments for {name} are not a valid JSON object ({error})")


def argument_depth(text: str) -> int:
    """How deeply the arrays and objects of a JSON text nest (without parsing it)."""
    return max((depth for _, depth in nesting_depths(text)), default=0)


def bounded_call(call: ToolCall) -> ToolCall:
    """``call`` as it is stored: arguments cut to :data:`MAX_ARGUMENT_CHARS` characters."""
    if len(call.arguments) <= MAX_ARGUMENT_CHARS:
        return call
    cut = len(call.arguments) - MAX_ARGUMENT_CHARS
    kept = call.arguments[:MAX_ARGUMENT_CHARS] + f"...[{cut} more characters not stored]"
    return call.model_copy(update={"arguments": kept})


def runs_user_tool(domain: Domain, name: str, side: Side, solo: bool = False) -> bool:
    """Whether a call of ``name`` by ``side`` runs one of the domain's user tools: every
    call of the customer's, and in solo mode the agent's calls of a user tool's name."""
    return side == "user" or (solo and name in domain.user_tools_by_name)


def run_user_tool(domain: Domain, db: EpisodeDB, name: str, arguments: dict[str, Any]) -> str:
    """Run user tool ``name`` as :meth:`Domain.run_tool` runs an agent tool; an unknown name
    gives τ²-bench's error text (as the grader's replay,
    :func:`tautrait_core.grading.sides.run_side_tool`, does)."""
    if not domain.dual_control:
        return tool_failure("User tools not available")
    found = domain.user_tools_by_name.get(name)
    if found is None:
        return tool_failure(TAU2_UNKNOWN_TOOL.format(name=name))
    observation = found.invoke(db, arguments)
    try:
        db.flush()
    except Exception as exc:
        return tool_failure(str(exc) or type(exc).__name__)
    return observation


def sync_state(domain: Domain, db: EpisodeDB) -> None:
    """Run the domain's state sync (τ²'s ``sync_tools``), when it has one."""
    if domain.sync_state is not None:
        domain.sync_state(db)
        db.flush()


def execute_tool_call(
    domain: Domain, db: EpisodeDB, call: ToolCall, side: Side = "assistant", solo: bool = False
) -> str:
    """Run one tool call as an episode does, on the side that made it.

    Malformed, oversized or too deeply nested arguments and unknown tools give an
    ``Error: ...`` observation, never an exception; every failure is a
    :class:`~tautrait_core.domain.tools.ToolFailure` (the call raised, in τ²'s terms). The
    domain's state sync runs after a call that succeeded.
    """
    if len(call.arguments) > MAX_ARGUMENT_CHARS:
        return tool_failure(
            f"the arguments for {call.name} are {len(call.arguments)} characters long; "
            f"at most {MAX_ARGUMENT_CHARS} are accepted"
        )
    if argument_depth(call.arguments) > MAX_ARGUMENT_DEPTH:
        return tool_failure(
            f"the arguments for {call.name} nest deeper than {MAX_ARGUMENT_DEPTH} "
            "levels of arrays and objects"
        )
    try:
        arguments = call.parsed_arguments()
    except ValueError as exc:
        return invalid_arguments_observation(call.name, exc)
    if runs_user_tool(domain, call.name, side, solo):
        observation = run_user_tool(domain, db, call.name, arguments)
    else:
        observation = domain.run_tool(db, call.name, arguments)
    if domain.sync_state is not None and not raised(observation):  # τ²: unless it raised
        sync_state(domain, db)
    text = encodable_text(observation)
    return ToolFailure(text) if raised(observation) else text


def ends_episode(domain: Domain, call: ToolCall) -> bool:
    """Whether calling ``call`` ends the episode (a registered terminating tool)."""
    return call.name in domain.terminating_tools and call.name in domain.tools_by_name

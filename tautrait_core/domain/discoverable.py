"""Discoverable tools (τ³): tools a domain has but does not list to the model.

The knowledge base names them; the agent unlocks one (``unlock_discoverable_agent_tool``)
and then calls it through ``call_discoverable_agent_tool`` with its arguments as a JSON
string, or hands a customer-side one to the user (``give_discoverable_user_tool``), who
calls it through ``call_discoverable_user_tool``. A domain declares its discoverable tools
in a :class:`Discoverables` catalog, which builds those wrapper tools with τ³'s behaviour
and texts (domain-spec §B.6):

* an unlock is kept for the episode only (``db.info``), never in the database; graders
  replay unlocks with the rest of the trajectory, so a call after an unlock works there too;
* arguments of ``call_discoverable_*`` are parsed with every JSON integer read as a float
  (``25`` and ``25.0`` are the same call);
* a call of a discoverable agent tool is logged in the database (the :class:`Ledger`)
  when the tool changes state, or when the episode's task calls it in its gold actions
  (τ³'s ``read_log_allowlist``); so a read the gold trajectory makes is required, an
  extra read is harmless;
* a customer-side tool first checks that the agent gave it, then logs the call, then runs.

What is logged and how listings read is the domain's :class:`Ledger` (τ³ keeps it in
tables of the domain's database).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from tautrait_core.domain.state import EpisodeDB
from tautrait_core.domain.tau2_tools import Tau2Tool
from tautrait_core.domain.tools import Tool

if TYPE_CHECKING:
    from tautrait_core.types.task import Task

UNLOCKED_KEY = "tautrait.discoverable.unlocked"
"""Where an episode database's session keeps the names of the unlocked agent tools."""
TASK_KEY = "tautrait.episode.task"
"""Where an episode database's session keeps the episode's task (set with the initial state)."""
CALL_AGENT_TOOL = "call_discoverable_agent_tool"
"""The wrapper whose gold calls make up a task's read-log allowlist."""


def remember_task(db: EpisodeDB, task: Task) -> None:
    """Record ``task`` as the task of the episode that ``db`` belongs to."""
    db.info[TASK_KEY] = task


def episode_task(db: EpisodeDB) -> Task | None:
    """The task of the episode ``db`` belongs to (``None``: not recorded)."""
    return db.info.get(TASK_KEY)


def read_log_allowlist(task: Task | None) -> frozenset[str]:
    """The discoverable agent tools ``task``'s gold actions call (τ³'s allowlist)."""
    if task is None:
        return frozenset()
    criteria = task.evaluation_criteria
    actions = criteria.actions if criteria is not None and criteria.actions else task.actions
    return frozenset(
        str(action.kwargs.get("agent_tool_name"))
        for action in actions or []
        if action.name == CALL_AGENT_TOOL
    )


@dataclass(frozen=True)
class Parameter:
    """A parameter as an unlock describes it."""

    name: str
    type: str
    required: bool
    description: str


@dataclass(frozen=True)
class DiscoverableTool:
    """A hidden tool: the function (a :class:`Tool`, so its kind and whether it changes
    state are known), the description and the parameters an unlock shows."""

    tool: Tool
    description: str
    parameters: tuple[Parameter, ...]

    @property
    def name(self) -> str:
        return self.tool.name

    def card(self) -> str:
        """``Tool: ...``, the description and one line per parameter, as τ³ formats them."""
        lines = [f"Tool: {self.name}", f"Description: {self.description}", "Parameters:"]
        for parameter in self.parameters:
            kind = "required" if parameter.required else "optional"
            lines.append(
                f"  - {parameter.name}: {parameter.type} ({kind}) - {parameter.description}"
            )
        if not self.parameters:
            lines.append("  (no parameters)")
        return "\n".join(lines)


class Ledger(Protocol):
    """Where a domain records discoverable-tool use in its episode database."""

    def log_agent_call(self, db: EpisodeDB, name: str) -> None:
        """Record that discoverable agent tool ``name`` was called (once per name)."""
        ...

    def agent_calls(self, db: EpisodeDB) -> str:
        """The text of ``list_discoverable_agent_tools``."""
        ...

    def log_given(self, db: EpisodeDB, name: str) -> None:
        """Record that user tool ``name`` was given to the customer (once per name)."""
        ...

    def is_given(self, db: EpisodeDB, name: str) -> bool:
        """Whether user tool ``name`` was given to the customer."""
        ...

    def log_user_call(self, db: EpisodeDB, name: str, arguments: dict[str, Any]) -> None:
        """Record the customer's call of ``name`` with ``arguments`` (once per pair)."""
        ...

    def given(self, db: EpisodeDB) -> str:
        """The text of ``list_discoverable_user_tools``."""
        ...


def _float_json(text: str) -> Any:
    return json.loads(text, parse_int=float)


class Discoverables:
    """A domain's discoverable tools and the wrapper tools that reach them.

    Args:
        agent: The agent's discoverable tools.
        user: The customer's discoverable tools (given by the agent).
        ledger: Where their use is recorded.
        toolkit: The class name τ³ shows in argument errors of agent tools
            (``KnowledgeTools``).
    """

    def __init__(
        self,
        agent: Sequence[DiscoverableTool],
        user: Sequence[DiscoverableTool],
        ledger: Ledger,
        toolkit: str,
    ) -> None:
        self.agent = {item.name: item for item in agent}
        self.user = {item.name: item for item in user}
        self.ledger = ledger
        self.toolkit = toolkit

    # -- the tools registered under their own names (callable directly, τ³ quirk) --------

    def direct_agent_tools(self) -> list[Tool]:
        """The agent's discoverable tools as plain tools (hidden from the schema list by
        the domain; τ³ lets a model call them by name: no unlock, no log)."""
        return [item.tool for item in self.agent.values()]

    def direct_user_tools(self) -> list[Tool]:
        """The customer's discoverable tools as plain tools, each checking it was given and
        logging the call first."""
        return [self._guarded(item) for item in self.user.values()]

    def _guarded(self, item: DiscoverableTool) -> Tool:
        ledger, inner = self.ledger, item.tool.function
        signature = inspect.signature(inner)

        def run(db: EpisodeDB, **arguments: Any) -> Any:
            try:
                signature.bind(db, **arguments)
            except TypeError:  # Python's own text, as τ³'s call gives, before any check
                return inner(db, **arguments)
            if not ledger.is_given(db, item.name):
                return (
                    f"Error: Tool '{item.name}' has not been given to you by the agent. The "
                    "agent must first use `give_discoverable_user_tool` to give this tool to "
                    "you."
                )
            ledger.log_user_call(db, item.name, arguments)
            return inner(db, **arguments)

        run.__name__ = run.__qualname__ = item.name
        run.__signature__ = signature  # type: ignore[attr-defined]
        return Tau2Tool(
            run,
            description=item.tool.description,
            tool_type=item.tool.tool_type,
            mutates_state=item.tool.mutates_state,
        )

    # -- the wrappers -------------------------------------------------------------------

    def unlock_tool(self) -> Tool:
        """``unlock_discoverable_agent_tool(agent_tool_name)``."""
        catalog = self.agent

        def unlock_discoverable_agent_tool(db: EpisodeDB, agent_tool_name: str) -> str:
            """Unlock a discoverable agent tool found in the knowledge base.

            Args:
                agent_tool_name: The tool's name, as the knowledge base gives it.
            """
            found = catalog.get(agent_tool_name)
            if found is None:
                return _unknown_agent_tool(agent_tool_name)
            db.info.setdefault(UNLOCKED_KEY, set()).add(agent_tool_name)
            return (
                f"Tool unlocked: {agent_tool_name}\nDescription: {found.description}\n\n"
                f"{found.card()}\n\nYou can now use this tool by calling "
                f"`call_discoverable_agent_tool` with agent_tool_name='{agent_tool_name}' and "
                "the required arguments."
            )

        return self._wrapper(unlock_discoverable_agent_tool, "generic", True)

    def call_agent_tool(self) -> Tool:
        """``call_discoverable_agent_tool(agent_tool_name, arguments="{}")``."""
        catalog, ledger = self.agent, self.ledger

        def call_discoverable_agent_tool(
            db: EpisodeDB, agent_tool_name: str, arguments: str = "{}"
        ) -> Any:
            """Call an unlocked discoverable agent tool.

            Args:
                agent_tool_name: The unlocked tool's name.
                arguments: The tool's arguments as a JSON object string.
            """
            found = catalog.get(agent_tool_name)
            if found is None:
                return _unknown_agent_tool(agent_tool_name)
            if agent_tool_name not in db.info.get(UNLOCKED_KEY, ()):
                return (
                    f"Error: Tool '{agent_tool_name}' has not been unlocked. You must first "
                    "use `unlock_discoverable_agent_tool` to unlock this tool before calling "
                    "it."
                )
            try:
                parsed = _float_json(arguments)
            except json.JSONDecodeError as exc:
                return f"Error: Invalid JSON in arguments: {exc}"
            try:
                result = _call_with(found.tool.function, db, parsed)
            except TypeError as exc:
                return f"Error: Invalid arguments: {exc}"
            task = episode_task(db)
            if found.tool.mutates_state or agent_tool_name in read_log_allowlist(task):
                ledger.log_agent_call(db, agent_tool_name)
            return result

        return self._wrapper(call_discoverable_agent_tool, "write", True)

    def list_agent_tools(self) -> Tool:
        """``list_discoverable_agent_tools()``."""
        ledger = self.ledger

        def list_discoverable_agent_tools(db: EpisodeDB) -> str:
            """List the discoverable agent tools called so far."""
            return ledger.agent_calls(db)

        return self._wrapper(list_discoverable_agent_tools, "read", False)

    def give_user_tool(self) -> Tool:
        """``give_discoverable_user_tool(discoverable_tool_name, arguments="{}")``."""
        catalog, ledger = self.user, self.ledger

        def give_discoverable_user_tool(
            db: EpisodeDB, discoverable_tool_name: str, arguments: str = "{}"
        ) -> str:
            """Give the customer a discoverable tool to run themselves.

            Args:
                discoverable_tool_name: The tool's name, as the knowledge base gives it.
                arguments: Suggested arguments as a JSON object string.
            """
            found = catalog.get(discoverable_tool_name)
            if found is None:
                return f"Error: Unknown discoverable tool '{discoverable_tool_name}'."
            try:
                parsed = json.loads(arguments)
            except json.JSONDecodeError as exc:
                return f"Error: Invalid JSON in arguments: {exc}"
            unexpected = _unexpected_parameter(found, parsed)
            if unexpected is not None:
                return unexpected
            ledger.log_given(db, discoverable_tool_name)
            shown = json.dumps(parsed, indent=2) if parsed else "(no arguments)"
            return (
                f"Tool given to user: {discoverable_tool_name}\nDescription: "
                f"{found.description}\nArguments: {shown}\n\nThe user can now execute this "
                "action by calling `call_discoverable_user_tool` with "
                f"discoverable_tool_name='{discoverable_tool_name}' and the same arguments."
            )

        return self._wrapper(give_discoverable_user_tool, "generic", True)

    def call_user_tool(self) -> Tool:
        """``call_discoverable_user_tool(discoverable_tool_name, arguments="{}")`` (a
        customer-side tool)."""
        guarded = {tool.name: tool for tool in self.direct_user_tools()}
        catalog = self.user

        def call_discoverable_user_tool(
            db: EpisodeDB, discoverable_tool_name: str, arguments: str = "{}"
        ) -> Any:
            """Run a tool the agent gave you.

            Args:
                discoverable_tool_name: The tool's name, as the agent gave it.
                arguments: The tool's arguments as a JSON object string.
            """
            found = catalog.get(discoverable_tool_name)
            if found is None:
                return f"Error: Unknown discoverable tool '{discoverable_tool_name}'."
            try:
                parsed = _float_json(arguments)
            except json.JSONDecodeError as exc:
                return f"Error: Invalid JSON in arguments: {exc}"
            for parameter in found.parameters:
                if parameter.required and parameter.name not in parsed:
                    return f"Error: Missing required parameter: {parameter.name}"
            unexpected = _unexpected_parameter(found, parsed)
            if unexpected is not None:
                return unexpected
            try:
                return _call_with(guarded[discoverable_tool_name].function, db, parsed)
            except TypeError as exc:
                return f"Error: Invalid arguments for tool '{discoverable_tool_name}': {exc}"

        return self._wrapper(call_discoverable_user_tool, "write", True, toolkit="UserTools")

    def list_user_tools(self) -> Tool:
        """``list_discoverable_user_tools()`` (a customer-side tool)."""
        ledger = self.ledger

        def list_discoverable_user_tools(db: EpisodeDB) -> str:
            """List the tools the agent gave you."""
            return ledger.given(db)

        return self._wrapper(list_discoverable_user_tools, "read", False, toolkit="UserTools")

    def _wrapper(
        self,
        function: Callable[..., Any],
        tool_type: Any,
        mutates_state: bool,
        toolkit: str | None = None,
    ) -> Tool:
        function.__qualname__ = f"{toolkit or self.toolkit}.{function.__name__}"
        return Tau2Tool(
            function,
            writes=tool_type == "write",
            tool_type=tool_type,
            mutates_state=mutates_state,
        )


def _unexpected_parameter(tool: DiscoverableTool, arguments: dict[str, Any]) -> str | None:
    """τ³'s error for the first argument ``tool`` has no parameter for, if any."""
    names = {parameter.name for parameter in tool.parameters}
    unexpected = next((key for key in arguments if key not in names), None)
    return None if unexpected is None else f"Error: Unexpected parameter: {unexpected}"


def _unknown_agent_tool(name: str) -> str:
    return f"Error: Unknown agent tool '{name}'. This tool is not available."


def _call_with(function: Callable[..., Any], db: EpisodeDB, arguments: Any) -> Any:
    """``function(db, **arguments)``; a JSON value that is not an object fails as τ³'s
    ``**`` does (a ``TypeError``)."""
    if not isinstance(arguments, dict):
        raise TypeError(
            f"{function.__qualname__}() argument after ** must be a mapping, not "
            f"{type(arguments).__name__}"
        )
    return function(db, **arguments)

"""Tools that behave as τ²-bench's do (domain-spec §1.4).

τ²-bench calls a tool as a plain method of a toolkit class, with the model's arguments as
keyword arguments and no schema validation: a missing or unexpected argument gives Python's
own ``TypeError`` text naming the class (``MockTools.create_task() missing 1 required
positional argument: 'title'``). Any exception becomes ``"Error: " + str(exception)``; a
return value is serialised by :func:`tau2_json`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from tautrait_core.compat.tau2.serialise import tau2_json
from tautrait_core.domain.arithmetic import evaluate_arithmetic
from tautrait_core.domain.tools import Tool, ToolType, tool_failure

if TYPE_CHECKING:
    from tautrait_core.domain.state import EpisodeDB

TAU2_UNKNOWN_TOOL = "Tool '{name}' not found."
"""τ²-bench's text for a call of a tool the called side does not have (after ``Error: ``);
a τ² domain passes it as ``Domain(unknown_tool_message=...)``."""


class Tau2Tool(Tool):
    """A tool called the way τ²-bench calls it (see the module docstring)."""

    def invoke(self, db: EpisodeDB, arguments: dict[str, Any]) -> str:
        """Run the tool on the arguments as given; errors come back as ``Error: ...``."""
        try:
            result = self.function(db, **arguments)
        except Exception as exc:  # τ² reports every exception the same way
            return tool_failure(str(exc))
        return tau2_json(result)


def tau2_tool(toolkit: str) -> Callable[..., Any]:
    """The decorator that makes a function a :class:`Tau2Tool` of τ²'s toolkit class
    ``toolkit`` (e.g. ``"MockTools"``): argument errors name ``toolkit.<function>()`` as τ²
    does. Used bare or as ``@decorator(writes=True)`` for a tool that changes the database,
    as :func:`tautrait_core.tool` (which also takes ``tool_type`` and ``mutates_state``)."""

    def wrap(
        function: Callable[..., Any] | None = None,
        *,
        writes: bool = False,
        tool_type: ToolType | None = None,
        mutates_state: bool | None = None,
    ) -> Any:
        def make(function: Callable[..., Any]) -> Tau2Tool:
            function.__qualname__ = f"{toolkit}.{function.__name__}"
            return Tau2Tool(
                function, writes=writes, tool_type=tool_type, mutates_state=mutates_state
            )

        return make if function is None else make(function)

    return wrap


FoundT = TypeVar("FoundT")


def tau2_found(found: FoundT | None, error: str) -> FoundT:
    """``found`` (a row a look-up returned); raises ``ValueError(error)`` when it is
    ``None``, as τ²'s look-ups do (``tau2_found(db.get(User, key), f"User {key} not
    found")``); the tool then answers ``Error: <error>``."""
    if found is None:
        raise ValueError(error)
    return found


CALCULATOR_CHARACTERS = frozenset("0123456789+-*/(). ")


def tau2_calculate(expression: str) -> str:
    """τ²'s ``calculate`` tool body (airline and retail): the expression's value rounded to
    2 decimals, as text; raises ``ValueError("Invalid characters in expression")``, and
    what ``eval`` raises (τ² evaluates with ``eval``), except that an expression whose
    numbers grow too large to compute quickly raises
    :class:`~tautrait_core.domain.arithmetic.ExpressionTooLarge` instead of running on."""
    if not all(char in CALCULATOR_CHARACTERS for char in expression):
        raise ValueError("Invalid characters in expression")
    return str(round(float(evaluate_arithmetic(expression)), 2))


def tau2_calculate_tool(toolkit_tool: Callable[..., Any]) -> Tau2Tool:
    """τ²'s ``calculate`` tool (the same in airline and retail) for the toolkit whose
    decorator :func:`tau2_tool` made: ``calculate = tau2_calculate_tool(airline_tool)``."""

    @toolkit_tool(tool_type="generic")
    def calculate(db: Any, expression: str) -> str:
        """Calculate the result of a mathematical expression.

        Args:
            expression: The expression, e.g. '2 + 2'; numbers, + - * / ( ) . and spaces only.
        """
        return tau2_calculate(expression)

    return calculate


def tau2_transfer_tool(toolkit_tool: Callable[..., Any]) -> Tau2Tool:
    """τ²'s ``transfer_to_human_agents`` tool (the same in airline, retail and mock) for the
    toolkit whose decorator :func:`tau2_tool` made."""

    @toolkit_tool(tool_type="generic")
    def transfer_to_human_agents(db: Any, summary: str) -> str:
        """Transfer the user to a human agent, with a summary of their issue.

        Args:
            summary: A summary of the user's issue.
        """
        return "Transfer successful"

    return transfer_to_human_agents

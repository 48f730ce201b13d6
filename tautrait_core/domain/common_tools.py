"""Tools that several domains share: ``calculate``, ``think`` and ``transfer_to_human_agents``.

They behave as the upstream tools of the same names (outputs and error texts), so a domain
plugin lists them in its ``tools`` instead of writing its own.
"""

from __future__ import annotations

from typing import Any

from tautrait_core.domain.arithmetic import evaluate_arithmetic
from tautrait_core.domain.tools import tool

_ALLOWED_CHARACTERS = set("0123456789+-*/(). ")


@tool
def calculate(db: Any, expression: str) -> str:
    """Work out an arithmetic expression and return the result rounded to two decimals.

    Args:
        expression: Numbers combined with + - * / and parentheses, e.g. '(19.99 + 5) * 2'.
    """
    if not all(character in _ALLOWED_CHARACTERS for character in expression):
        return "Error: invalid characters in expression"
    try:
        return str(round(float(evaluate_arithmetic(expression)), 2))
    except SyntaxError as exc:
        return f"Error: {exc.msg} (<string>, line {exc.lineno})"
    except Exception as exc:
        return f"Error: {exc}"


@tool
def think(db: Any, thought: str) -> str:
    """Write down private reasoning before acting. Nothing is looked up or changed, and the
    user does not see it; useful for planning several steps or checking a calculation.

    Args:
        thought: The reasoning to note.
    """
    return ""


@tool
def transfer_to_human_agents(db: Any, summary: str) -> str:
    """Hand the conversation over to a human agent. Use it only when the user asks for a
    person or when the request cannot be handled with the other tools; the conversation
    ends here.

    Args:
        summary: What the user needs, so the human agent can pick it up.
    """
    return "Transfer successful"

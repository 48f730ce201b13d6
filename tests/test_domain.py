"""Tools: schemas derived from type hints and docstrings, argument validation, errors."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, Strict

from tautrait_core.domain.tools import parse_docstring, tool


@tool
def lookup(db: object, order_id: str, include_items: bool = False, limit: int | None = None) -> str:
    """Find an order.

    Looks it up by id.

    Args:
        order_id: The order id, such as '#W123'.
            It starts with '#W'.
        include_items: Whether to list the items.
        limit: At most this many items.

    Returns:
        The order as JSON.
    """
    return f"{order_id}|{include_items}|{limit}"


@tool(name="cancel")
def cancel_order(
    db: object, reason: Literal["no longer needed", "ordered by mistake"], codes: list[str]
) -> dict:
    """Cancel an order.

    Args:
        reason: Why.
        codes: Codes to void.
    """
    return {"reason": reason, "codes": codes}


def test_schema_comes_from_hints_and_docstring() -> None:
    function = lookup.schema["function"]
    assert function["name"] == "lookup"
    assert function["description"] == "Find an order. Looks it up by id."
    assert function["parameters"] == {
        "type": "object",
        "properties": {
            "order_id": {
                "type": "string",
                "description": "The order id, such as '#W123'. It starts with '#W'.",
            },
            "include_items": {
                "type": "boolean",
                "description": "Whether to list the items.",
                "default": False,
            },
            "limit": {"type": "integer", "description": "At most this many items."},
        },
        "required": ["order_id"],
    }


def test_literal_and_list_arguments_become_enum_and_array() -> None:
    properties = cancel_order.schema["function"]["parameters"]["properties"]
    assert properties["reason"]["enum"] == ["no longer needed", "ordered by mistake"]
    assert properties["codes"] == {
        "type": "array",
        "items": {"type": "string"},
        "description": "Codes to void.",
    }
    assert cancel_order.name == "cancel"


def test_valid_arguments_run_the_tool_and_non_strings_become_json() -> None:
    assert lookup.invoke(None, {"order_id": "#W1", "limit": 3}) == "#W1|False|3"
    assert cancel_order.invoke(None, {"reason": "ordered by mistake", "codes": ["a"]}) == (
        '{"reason": "ordered by mistake", "codes": ["a"]}'
    )


def test_invalid_arguments_are_error_observations_naming_each_problem() -> None:
    observation = lookup.invoke(None, {"order": "#W1", "limit": "many"})
    assert observation.startswith("Error: invalid arguments for lookup: ")
    assert "missing required argument 'order_id'" in observation
    assert "unexpected argument 'order'" in observation
    assert "argument 'limit'" in observation
    assert cancel_order.invoke(None, {"reason": "bored", "codes": []}).startswith("Error: ")


def test_exceptions_inside_a_tool_become_error_observations() -> None:
    @tool
    def fragile(db: object, key: str) -> str:
        """Read a key.

        Args:
            key: The key.
        """
        return {"a": "1"}[key]

    assert fragile.invoke(None, {"key": "zz"}) == "Error: 'zz'"


def test_docstring_parser_handles_continuations_and_other_sections() -> None:
    summary, arguments = parse_docstring(
        "Do a thing.\n\nArgs:\n    x (int): First.\n        More.\n    y: Second.\n\n"
        "Raises:\n    ValueError: never"
    )
    assert summary == "Do a thing."
    assert arguments == {"x": "First. More.", "y": "Second."}


def test_domain_run_tool_reports_unknown_tools(toy_plugin) -> None:
    domain = toy_plugin.build_domain()
    observation = domain.run_tool(None, "teleport", {})  # type: ignore[arg-type]
    assert observation.startswith("Error: unknown tool 'teleport'")
    assert "borrow_book" in observation


def test_annotated_constraints_reach_validation_and_the_schema() -> None:
    @tool
    def refund(db, amount: Annotated[int, Field(ge=1)], express: Annotated[bool, Strict()]) -> str:
        """Refund an amount.

        Args:
            amount: Dollars, at least 1.
            express: Whether to hurry.
        """
        return f"{amount}:{express}"

    properties = refund.schema["function"]["parameters"]["properties"]
    assert properties["amount"]["minimum"] == 1
    assert properties["amount"]["description"] == "Dollars, at least 1."
    assert refund.invoke(None, {"amount": 5, "express": True}) == "5:True"
    assert refund.invoke(None, {"amount": 0, "express": True}).startswith("Error: ")
    assert refund.invoke(None, {"amount": 5, "express": "true"}).startswith("Error: ")


def test_write_tools_are_the_tools_marked_as_writing_unless_the_domain_lists_them() -> None:
    from tautrait_core import Domain

    @tool(writes=True)
    def refund(db: object, order_id: str) -> str:
        """Refund an order."""
        return "refunded"

    tools = [lookup, refund, cancel_order]
    assert (refund.writes, lookup.writes) == (True, False)
    marked = Domain(name="shop", policy="", tables=[], seed_data=list, tools=tools)
    assert list(marked.write_tools) == ["refund"]
    listed = Domain(
        name="shop", policy="", tables=[], seed_data=list, tools=tools, write_tools=["cancel"]
    )
    assert list(listed.write_tools) == ["cancel"]

"""What a domain offers, as ``tautrait domain NAME`` shows it: the policy, the tools of
both sides with their parameters, and the task sets with their sizes and splits."""

from __future__ import annotations

from typing import Any

from tautrait_core.domain.domain import Domain
from tautrait_core.domain.task_sets import all_task_sets, split_sizes
from tautrait_core.domain.tools import Tool


def parameter_type(schema: dict[str, Any]) -> str:
    """A parameter's JSON-schema type in a few words: ``string``, ``array of string``,
    ``one of 'a', 'b'``, ``object | string``."""
    if "enum" in schema:
        return "one of " + ", ".join(repr(value) for value in schema["enum"])
    if "anyOf" in schema:
        return " | ".join(parameter_type(option) for option in schema["anyOf"])
    kind = str(schema.get("type", "any"))
    if kind == "array" and "items" in schema:
        return f"array of {parameter_type(schema['items'])}"
    return kind


def tool_description(tool: Tool, domain: Domain) -> dict[str, Any]:
    """One tool of ``domain`` as a JSON object: name, description, type (``write`` for
    one of the domain's write tools), whether it ends the episode, and each parameter
    (type, description, required, default)."""
    parameters = tool.schema["function"]["parameters"]
    required = set(parameters["required"])
    described = {}
    for name, schema in parameters["properties"].items():
        entry: dict[str, Any] = {
            "type": parameter_type(schema),
            "description": schema.get("description", ""),
            "required": name in required,
        }
        if "default" in schema:
            entry["default"] = schema["default"]
        described[name] = entry
    return {
        "name": tool.name,
        "description": tool.description,
        "tool_type": "write" if tool.name in domain.write_tools else tool.tool_type,
        "terminating": tool.name in domain.terminating_tools,
        "parameters": described,
    }


def describe_domain(domain: Domain) -> dict[str, Any]:
    """Everything ``tautrait domain NAME --json`` prints about ``domain``.

    Raises:
        TaskSetError: a task set's tasks (or its split file) cannot be read.
    """
    task_sets = []
    for name, task_set in all_task_sets(domain).items():
        task_sets.append(
            {
                "name": name,
                "tasks": len(task_set.tasks),
                "protocol": task_set.protocol,
                "default": name == domain.default_task_set,
                "description": task_set.description,
                "splits": split_sizes(task_set),
            }
        )
    documents = domain.documents
    return {
        "name": domain.name,
        "description": domain.description,
        "dual_control": bool(domain.user_tools),
        "policy": domain.policy,
        "solo_policy": domain.solo_policy,
        "documents": None if documents is None else len(documents.documents),
        "agent_tools": [tool_description(t, domain) for t in domain.tools],
        "user_tools": [tool_description(t, domain) for t in domain.user_tools],
        "task_sets": task_sets,
    }

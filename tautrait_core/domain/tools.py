"""Tools: plain functions the agent (or, in a dual-control domain, the user) can call.

:func:`tool` turns a function into a :class:`Tool`. The JSON schema sent to the model is
derived from the type hints and the docstring, and :meth:`Tool.invoke` validates arguments
before the function runs. Every failure (bad arguments, an exception inside the tool) comes
back as an ``Error: ...`` observation; nothing a model sends can crash an episode.
"""

from __future__ import annotations

import inspect
import json
import re
import typing
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, create_model
from pydantic.fields import FieldInfo

if TYPE_CHECKING:
    from tautrait_core.domain.state import EpisodeDB


ERROR_PREFIX = "Error: "


class ToolFailure(str):
    """The observation of a tool call that raised (``Error: `` and the exception's text),
    τ²'s ToolMessage with ``error: true``: only these count as tool errors. A tool that
    returns an ``Error: ...`` text of its own (as τ³'s banking tools do) has not failed."""


def tool_failure(text: str) -> ToolFailure:
    """The observation of a call that raised, ``text`` after ``Error: ``."""
    return ToolFailure(ERROR_PREFIX + text)


def raised(observation: str) -> bool:
    """Whether ``observation`` reports a tool call that raised (see :class:`ToolFailure`)."""
    return isinstance(observation, ToolFailure)


ToolType = Literal["read", "write", "think", "generic"]
"""τ³'s kinds of tool (``ToolType``): reads, writes, thinking, and the rest."""


class Tool:
    """A callable the agent can use: a function plus its derived JSON schema.

    The function's first parameter receives the episode database (:class:`EpisodeDB`); the
    remaining parameters are the tool's arguments. ``writes`` marks a tool that changes the
    database (a domain's ``write_tools`` are derived from it).

    τ³ (τ²-bench v1.x) also types every tool: ``tool_type`` is ``"read"``, ``"write"``,
    ``"think"`` or ``"generic"`` (default: ``"write"`` for a tool that ``writes``, else
    ``"read"``), and ``mutates_state`` says whether a grader replays its calls on the
    predicted database (default: ``tool_type == "write"``; a generic tool such as an unlock
    may mutate state, a write may not).
    """

    def __init__(
        self,
        function: Callable[..., Any],
        name: str | None = None,
        description: str | None = None,
        *,
        writes: bool = False,
        tool_type: ToolType | None = None,
        mutates_state: bool | None = None,
    ) -> None:
        self.function = function
        self.name = name or function.__name__
        self.writes = writes
        self.tool_type: ToolType = tool_type or ("write" if writes else "read")
        self.mutates_state = self.tool_type == "write" if mutates_state is None else mutates_state
        summary, argument_docs = parse_docstring(inspect.getdoc(function) or "")
        self.description = description if description is not None else summary
        self._argument_docs = argument_docs
        self.__doc__ = function.__doc__
        self.__wrapped__ = function

    def __repr__(self) -> str:
        return f"<tool {self.name}>"

    def __call__(self, db: EpisodeDB, **kwargs: Any) -> Any:
        return self.function(db, **kwargs)

    @cached_property
    def arguments_model(self) -> type[BaseModel]:
        """A pydantic model of the arguments (extra arguments forbidden)."""
        signature = inspect.signature(self.function)
        hints = typing.get_type_hints(self.function, include_extras=True)
        parameters = list(signature.parameters.values())[1:]  # skip the database
        fields: dict[str, Any] = {}
        for parameter in parameters:
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                raise TypeError(f"tool {self.name}: *args/**kwargs parameters are not supported")
            annotation = hints.get(parameter.name, Any)
            default = ... if parameter.default is parameter.empty else parameter.default
            fields[parameter.name] = (
                annotation,
                FieldInfo(default=default, description=self._argument_docs.get(parameter.name)),
            )
        config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)
        return create_model(f"{self.name}_arguments", __config__=config, **fields)

    @cached_property
    def schema(self) -> dict[str, Any]:
        """The OpenAI function-calling schema (``{"type": "function", "function": ...}``)."""
        raw = self.arguments_model.model_json_schema()
        defs = raw.get("$defs", {})
        properties = {
            name: _clean_schema(prop, defs) for name, prop in raw.get("properties", {}).items()
        }
        parameters: dict[str, Any] = {
            "type": "object",
            "properties": properties,
            "required": raw.get("required", []),
        }
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": parameters,
            },
        }

    def invoke(self, db: EpisodeDB, arguments: dict[str, Any]) -> str:
        """Validate ``arguments``, run the tool and return the observation text.

        Invalid arguments and exceptions raised by the tool are returned as ``Error: ...``.
        """
        try:
            validated = self.arguments_model.model_validate(arguments)
        except ValidationError as exc:
            return tool_failure(describe_validation_error(self.name, exc))
        values = {name: getattr(validated, name) for name in type(validated).model_fields}
        try:
            result = self.function(db, **values)
        except Exception as exc:  # the agent sees the error; the episode goes on
            return tool_failure(str(exc) or type(exc).__name__)
        return observation_text(result)


def tool(
    function: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    description: str | None = None,
    writes: bool = False,
    tool_type: ToolType | None = None,
    mutates_state: bool | None = None,
) -> Any:
    """Turn a function into a :class:`Tool`.

    The first parameter is the episode database; the others become the tool's arguments.
    Their types come from the annotations and their descriptions from the docstring's
    ``Args:`` section; the docstring's first paragraph is the tool description.
    ``writes=True`` marks a tool that changes the database (``tool_type`` and
    ``mutates_state``: see :class:`Tool`)::

        @tool(writes=True)
        def cancel_appointment(db, appointment_id: str) -> str:
            \"\"\"Cancel a scheduled appointment.

            Args:
                appointment_id: The appointment id, such as 'APPT001'.
            \"\"\"
    """

    def wrap(func: Callable[..., Any]) -> Tool:
        return Tool(
            func,
            name=name,
            description=description,
            writes=writes,
            tool_type=tool_type,
            mutates_state=mutates_state,
        )

    if function is not None:
        return wrap(function)
    return wrap


def observation_text(result: Any) -> str:
    """What the agent sees for a tool's return value."""
    if isinstance(result, str):
        return result
    if result is None:
        return ""
    if isinstance(result, BaseModel):
        return result.model_dump_json()
    return json.dumps(result)


def describe_validation_error(tool_name: str, error: ValidationError) -> str:
    """A one-line description of invalid tool arguments, naming each bad argument."""
    problems = []
    for item in error.errors():
        location = ".".join(str(part) for part in item["loc"]) or "arguments"
        if item["type"] == "missing":
            problems.append(f"missing required argument {location!r}")
        elif item["type"] == "extra_forbidden":
            problems.append(f"unexpected argument {location!r}")
        else:
            problems.append(f"argument {location!r}: {item['msg']}")
    return f"invalid arguments for {tool_name}: " + "; ".join(problems)


_ARGS_HEADER = re.compile(r"^\s*(Args|Arguments|Parameters):\s*$")


_ARG_LINE = re.compile(r"^\s*(\w+)\s*(\([^)]*\))?\s*:\s*(.*)$")


def parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into (description, {argument: description}).

    The description is the text before the first section header; argument descriptions
    may continue on more-indented lines.
    """
    lines = doc.splitlines()
    summary: list[str] = []
    arguments: dict[str, str] = {}
    index = 0
    while index < len(lines) and not _ARGS_HEADER.match(lines[index]):
        if re.match(r"^\s*(Returns|Raises|Yields|Examples?|Notes?):\s*$", lines[index]):
            break
        summary.append(lines[index])
        index += 1
    if index < len(lines) and _ARGS_HEADER.match(lines[index]):
        index += 1
        current: str | None = None
        base_indent: int | None = None
        while index < len(lines):
            line = lines[index]
            if not line.strip():
                index += 1
                continue
            indent = len(line) - len(line.lstrip())
            if base_indent is None:
                base_indent = indent
            if indent < base_indent:
                break
            match = _ARG_LINE.match(line)
            if indent == base_indent and match:
                current = match.group(1)
                arguments[current] = match.group(3).strip()
            elif current is not None:
                arguments[current] = (arguments[current] + " " + line.strip()).strip()
            index += 1
    return " ".join(" ".join(summary).split()), arguments


def _clean_schema(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """Make a pydantic property schema look like a hand-written tool schema.

    Drops ``title``, inlines ``$ref`` and turns ``X | None`` into ``X`` (such arguments are
    optional already).
    """
    if "$ref" in schema:
        schema = {
            **defs[schema["$ref"].split("/")[-1]],
            **{k: v for k, v in schema.items() if k != "$ref"},
        }
    options = schema.get("anyOf")
    if options and any(option.get("type") == "null" for option in options):
        rest = [option for option in options if option.get("type") != "null"]
        if len(rest) == 1:
            merged = {k: v for k, v in schema.items() if k not in ("anyOf", "default")}
            schema = {**rest[0], **merged}
    cleaned: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" or (key == "default" and value is None):
            continue
        if key == "properties" and isinstance(value, dict):
            cleaned[key] = {n: _clean_schema(p, defs) for n, p in value.items()}
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            cleaned[key] = _clean_schema(value, defs)
        elif key == "anyOf" and isinstance(value, list):
            cleaned[key] = [_clean_schema(option, defs) for option in value]
        else:
            cleaned[key] = value
    return cleaned

"""``tautrait domain NAME``: a domain's policy, tools and task sets for people."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tautrait_core.analysis.transcript import visible

if TYPE_CHECKING:
    from rich.console import RenderableType


def tool_lines(tool: dict[str, Any]) -> list[RenderableType]:
    """A tool (see :func:`~tautrait_core.domain.description.tool_description`): its
    name and type, its description, then one line per parameter."""
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    kind = tool["tool_type"] + (", ends the episode" if tool["terminating"] else "")
    lines: list[RenderableType] = [
        Text.assemble((tool["name"], "bold"), f"  ({kind})"),
        Padding(Text(visible(tool["description"] or "(no description)")), (0, 0, 0, 2)),
    ]
    if not tool["parameters"]:
        return lines
    parameters = Table.grid(padding=(0, 1))
    parameters.add_column(no_wrap=True)
    parameters.add_column(overflow="fold")
    for name, parameter in tool["parameters"].items():
        needed = "required" if parameter["required"] else "optional"
        if "default" in parameter:
            needed += f", default {parameter['default']!r}"
        about = f". {parameter['description']}" if parameter["description"] else ""
        text = visible(f": {parameter['type']}, {needed}{about}")
        parameters.add_row("-", Text.assemble((name, "cyan"), text))
    return [*lines, Padding(parameters, (0, 0, 0, 2))]


def domain_view(described: dict[str, Any], source: str) -> list[RenderableType]:
    """The whole page for a domain described by
    :func:`~tautrait_core.domain.description.describe_domain`, supplied by ``source``
    (its distribution)."""
    from rich import box
    from rich.markdown import Markdown
    from rich.rule import Rule
    from rich.table import Column, Table
    from rich.text import Text

    control = "dual control" if described["dual_control"] else "agent-only tools"
    views: list[RenderableType] = [
        Text.assemble(("Domain " + described["name"], "bold"), f"  ({control}; from {source})"),
    ]
    if described["description"]:
        views.append(Text(visible(described["description"])))
    if described["documents"] is not None:
        views.append(Text(f"Knowledge base: {described['documents']} documents (--retrieval)"))
    views += [Rule("policy"), Markdown(visible(described["policy"]))]
    for side in ("agent", "user"):
        tools = described[f"{side}_tools"]
        if tools:
            views.append(Rule(f"{side} tools ({len(tools)})"))
            for tool in tools:
                views += tool_lines(tool)
    views.append(Rule("task sets"))
    table = Table(
        Column("task set", overflow="fold"),
        Column("tasks", justify="right", no_wrap=True),
        Column("protocol", no_wrap=True),
        Column("splits", overflow="fold"),
        Column("description", overflow="fold", ratio=1),
        box=box.SIMPLE_HEAD,
    )
    for task_set in described["task_sets"]:
        splits = ", ".join(f"{name} {count}" for name, count in task_set["splits"].items())
        name = task_set["name"] + (" (default)" if task_set["default"] else "")
        table.add_row(
            Text(visible(name)),
            str(task_set["tasks"]),
            task_set["protocol"],
            Text(splits or "-"),
            Text(visible(task_set["description"])),
        )
    views.append(table)
    return views

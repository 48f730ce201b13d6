"""The scripted server as the ``solo`` agent (``--solo --agent solo``): no customer, the
task is recognised by the ticket in the agent's system prompt, and the agent makes every
gold action of both sides, one tool call at a time, then calls ``done``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tautrait_core.builtin.agents.solo import DONE_TOOL
from tautrait_core.grading.gold import gold_actions
from tautrait_core.grading.reward import gold_plan
from tautrait_core.scripted.server import Reply, reply_tool_call
from tautrait_core.types.task import Task

_TICKET_OPEN, _TICKET_CLOSE = "<ticket>\n", "\n</ticket>"


def tickets(tasks: Sequence[Task]) -> dict[str, Task]:
    """Each ticket a solo agent's system prompt may hold, and its task (the first task, of
    several with the same ticket)."""
    by_ticket: dict[str, Task] = {}
    for task in tasks:
        by_ticket.setdefault((task.ticket or task.instruction).strip(), task)
    return by_ticket


def solo_task(by_ticket: dict[str, Task], system: str) -> Task | None:
    """The task whose ticket the solo agent's system prompt holds (``None``: not a solo
    agent's request, or a task of another set); ``by_ticket`` is :func:`tickets`."""
    start = system.find(_TICKET_OPEN)
    if start < 0:
        return None
    start += len(_TICKET_OPEN)
    end = system.find(_TICKET_CLOSE, start)
    return None if end < 0 else by_ticket.get(system[start:end].strip())


def solo_turn(task: Task, messages: list[dict[str, Any]]) -> Reply:
    """The next gold action (one per tool result so far), then ``done``."""
    plan = gold_plan(gold_actions(task), ())
    made = sum(1 for message in messages if message.get("role") == "tool")
    if made < len(plan):
        return reply_tool_call(plan[made].name, dict(plan[made].kwargs))
    return reply_tool_call(DONE_TOOL, {})

"""Telling apart τ² tasks that share an instruction, for the scripted server.

τ² task sets hold tasks with the same instruction and different starting states (the
customer's phone in airplane mode in one, with mobile data off in another). A scripted
server sees only the conversation, which opens alike for all of them. The customer can tell
them apart, though, by looking at their own side first: :class:`CustomerProbe` finds, for
each group of such tasks, the customer tools that take no arguments, change nothing in any
of the group's starting states, and show something different in some. The scripted
customer calls them before its opening message, and names its task in that message so the
scripted agent plays the same task.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from tautrait_core.domain.domain import Domain
from tautrait_core.domain.initial_state import apply_initial_state
from tautrait_core.domain.state import StateTemplate
from tautrait_core.domain.tool_execution import execute_tool_call
from tautrait_core.types.messages import ToolCall
from tautrait_core.types.task import Task

PROBE_TEXT = "Let me look at my side first."
"""The content of the customer's probing message (the agent never sees it)."""


def group_key(task: Task) -> tuple[str, bool]:
    """What the scripted server sees of a task before any tool call: its instruction (as the
    customer says it) and whether it starts from a prior conversation."""
    state = task.initial_state
    return " ".join(task.instruction.split()), bool(state is not None and state.message_history)


class CustomerProbe:
    """The probing calls of each group of tasks sharing :func:`group_key`, and what they show
    in each task's starting state.

    Args:
        domain: A dual-control domain.
        template: The database template of the task set.
        tasks: The task set's tasks (τ² tasks, with ids).
    """

    def __init__(self, domain: Domain, template: StateTemplate, tasks: Sequence[Task]) -> None:
        groups: dict[tuple[str, bool], list[Task]] = defaultdict(list)
        for task in tasks:
            groups[group_key(task)].append(task)
        self._calls: dict[tuple[str, bool], list[str]] = {}
        self._shown: dict[str, tuple[str | None, ...]] = {}
        self.told_apart: set[str] = set()
        """Ids of the tasks the probe singles out in their group."""
        self.alike = 0
        """How many tasks share an instruction with another and are not told apart (the
        server plays the first of them)."""
        tools = [
            tool.name
            for tool in domain.user_tools_by_name.values()
            if not tool.schema["function"]["parameters"].get("required")
        ]
        for key, group in groups.items():
            if len(group) > 1:
                self._probe_group(domain, template, key, group, tools)
                self.alike += sum(1 for task in group if task.id not in self.told_apart)

    def _probe_group(
        self,
        domain: Domain,
        template: StateTemplate,
        key: tuple[str, bool],
        group: list[Task],
        tools: list[str],
    ) -> None:
        shown = {name: [_observe(domain, template, task, name) for task in group] for name in tools}
        harmless = [name for name in tools if all(o is not None for o in shown[name])]
        calls: list[str] = []
        for name in harmless:  # one more call only while it tells more tasks apart
            before = len({self._seen(shown, calls, i) for i in range(len(group))})
            if len({self._seen(shown, [*calls, name], i) for i in range(len(group))}) > before:
                calls.append(name)
        if not calls:
            return
        self._calls[key] = calls
        seen = [self._seen(shown, calls, i) for i in range(len(group))]
        for index, task in enumerate(group):
            assert task.id is not None  # τ² tasks have ids
            self._shown[task.id] = seen[index]
            if seen.count(seen[index]) == 1:
                self.told_apart.add(task.id)

    @staticmethod
    def _seen(
        shown: dict[str, list[str | None]], calls: list[str], index: int
    ) -> tuple[str | None, ...]:
        return tuple(shown[name][index] for name in calls)

    def calls(self, task: Task) -> list[str]:
        """The tools the customer of ``task``'s group calls first (none: nothing to probe)."""
        return self._calls.get(group_key(task), [])

    def matching(self, group: list[Task], results: dict[str, str]) -> list[Task]:
        """The tasks of ``group`` whose starting state shows ``results`` (tool -> output)."""
        calls = self.calls(group[0])
        seen = tuple(results.get(name) for name in calls)
        return [task for task in group if self._shown.get(task.id or "") == seen]


def _observe(domain: Domain, template: StateTemplate, task: Task, name: str) -> str | None:
    """What calling customer tool ``name`` shows in ``task``'s starting state; ``None`` when
    the call changes that state (it is no probe)."""
    db = template.new_episode()
    try:
        apply_initial_state(domain, db, task)
        before = db.state_hash()
        observation = execute_tool_call(domain, db, ToolCall(id="probe", name=name), "user")
        return observation if db.state_hash() == before else None
    finally:
        db.close()

"""What a domain plugin registers: :class:`Domain` (policy, tools, database schema, task
sets) and :class:`TaskSet`, plus the :class:`UpstreamFormat` protocol for domains that read
and write the upstream tau-trait data shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from tautrait_core.types.task import Task

if TYPE_CHECKING:
    from sqlmodel import SQLModel

    from tautrait_core.domain.documents import DocumentCollection
    from tautrait_core.domain.state import EpisodeDB
from tautrait_core.domain.tools import ERROR_PREFIX, Tool


class TaskLoader(Protocol):
    def __call__(self) -> list[Task]: ...


@dataclass
class TaskSet:
    """A named list of tasks and the database they run against.

    ``load_rows`` returns the seed rows of the database the tasks were written for; when it
    is ``None`` the domain's own seed data is used. ``data_id`` names that database, so two
    task sets on the same data share one template. ``protocol`` says how its episodes run:
    ``"tau-bench"`` (the agent's first tool call of a message runs; the conversation opens
    with the customer) or ``"tau2"`` (every tool call of a message runs in order, the agent
    greets first, steps count hops, τ²'s stop signals and error limit apply). A
    dual-control domain always runs with ``"tau2"``.
    """

    name: str
    load_tasks: TaskLoader
    description: str = ""
    load_rows: Callable[[], Iterable[SQLModel]] | None = None
    data_id: str | None = None
    protocol: Literal["tau-bench", "tau2"] = "tau-bench"

    @cached_property
    def tasks(self) -> list[Task]:
        """The tasks, loaded on first use."""
        return list(self.load_tasks())


@dataclass
class Domain:
    """Everything a domain plugin provides.

    Args:
        name: The domain's name on the command line (``--domain NAME``).
        policy: The policy text, given to the agent as its system prompt.
        tables: The SQLModel table classes of the domain's database.
        seed_data: Returns the rows (table instances) of the built-in database.
        tools: The tools, in the order they are shown to the model.
        task_sets: The built-in task sets, by name (``default_task_set`` is used when a run
            names none).
        terminating_tools: Tools that end the episode when called (and are skipped when the
            gold actions are replayed).
        upstream: How to read and write the upstream tau-trait data shape (optional; needed
            for ``tautrait import tau-trait`` and the upstream hash).
        user_table: The table whose primary key is a task's ``user_id`` (for
            ``tautrait check``).
        write_tools: Tools that change the database (for ``tautrait check``; in-place JSON
            edits are written after these tools run, or after every tool when empty). By
            default the names of the tools marked ``@tool(writes=True)``; a non-empty list
            given here wins over the marks.
        error_markers: Regular expressions that mark an observation as an error, besides a
            leading ``Error`` (for domains whose tools answer "... not found." plainly).

    Dual control (τ²-bench): the customer acts on their own side too.

    Args:
        user_tools: The customer's tools (e.g. on their phone). The user simulator may call
            them; the agent never sees them. They take the same episode database as their
            first argument. A domain with user tools is a dual-control domain.
        user_tables: Which of ``tables`` hold the customer's side (the device); the rest are
            the agent's side. Each side's state is hashed on its own.
        agent_functions: Functions a task's ``initial_state`` and env assertions call by name
            on the agent's side (``f(db, **arguments)``); the agent's tools are found too.
        user_functions: The same on the customer's side; the user tools are found too.
        sync_state: Run after every successful tool call and initialization action, to keep
            the two sides consistent (τ²'s ``sync_tools``); ``None`` when there is nothing to do.
        merge_initial_data: Deep-merges a task's ``initialization_data`` for one side
            (``"assistant"`` or ``"user"``) into the episode database.
        solo_policy: The policy for solo mode (no customer: the agent gets the ticket and
            the user tools).
        unknown_tool_message: The observation for a call of a tool the domain does not
            have, with ``{name}`` for its name (τ²-bench variants: ``"Tool '{name}' not
            found."``); ``None``: tautrait's text, which lists the available tools.

    Discoverable tools (τ³): tools the model is not shown but may call by name.

    Args:
        hidden_tools: Agent tools run when called by name but left out of the schemas sent
            to the model (τ³'s discoverable tools; see
            :mod:`tautrait_core.domain.discoverable`).
        hidden_user_tools: The same on the customer's side.

    Knowledge (τ³): documents the agent may search.

    Args:
        documents: The knowledge base, searched through the run's retrieval configuration
            (``--retrieval``), which adds its tools before ``tools`` and assembles the
            policy (see docs/retrieval.md); ``None``: the domain has no documents.
    """

    name: str
    policy: str
    tables: Sequence[type[SQLModel]]
    seed_data: Callable[[], Iterable[SQLModel]]
    tools: Sequence[Tool]
    task_sets: dict[str, TaskSet] = field(default_factory=dict)
    terminating_tools: Sequence[str] = ()
    default_task_set: str = "test"
    description: str = ""
    upstream: UpstreamFormat | None = None
    user_table: type[SQLModel] | None = None
    write_tools: Sequence[str] = ()
    error_markers: Sequence[str] = ()
    user_tools: Sequence[Tool] = ()
    user_tables: Sequence[type[SQLModel]] = ()
    agent_functions: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    user_functions: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    sync_state: Callable[[EpisodeDB], None] | None = None
    merge_initial_data: Callable[[EpisodeDB, str, dict[str, Any]], None] | None = None
    solo_policy: str | None = None
    unknown_tool_message: str | None = None
    documents: DocumentCollection | None = None
    hidden_tools: Sequence[Tool] = ()
    hidden_user_tools: Sequence[Tool] = ()

    def __post_init__(self) -> None:
        for role, tools in (
            ("tools", [*self.tools, *self.hidden_tools]),
            ("user tools", [*self.user_tools, *self.hidden_user_tools]),
        ):
            names = [t.name for t in tools]
            duplicates = sorted({n for n in names if names.count(n) > 1})
            if duplicates:
                raise ValueError(
                    f"domain {self.name!r} defines {role} twice: {', '.join(duplicates)}"
                )
        if not self.write_tools:
            self.write_tools = tuple(t.name for t in [*self.tools, *self.hidden_tools] if t.writes)

    @property
    def dual_control(self) -> bool:
        """Whether the customer acts too (the domain has user tools)."""
        return bool(self.user_tools)

    @cached_property
    def user_tools_by_name(self) -> dict[str, Tool]:
        return {t.name: t for t in [*self.hidden_user_tools, *self.user_tools]}

    @cached_property
    def user_tool_schemas(self) -> list[dict[str, Any]]:
        """The schemas of the user tools, as sent to the user simulator's model."""
        return [t.schema for t in self.user_tools]

    def is_error(self, observation: str) -> bool:
        """Whether an observation reports a failed tool call."""
        if observation.startswith(("Error", "Unknown action")):
            return True
        return any(re.search(marker, observation) for marker in self.error_markers)

    @cached_property
    def tools_by_name(self) -> dict[str, Tool]:
        return {t.name: t for t in [*self.hidden_tools, *self.tools]}

    @cached_property
    def tool_schemas(self) -> list[dict[str, Any]]:
        """The schemas of all tools, as sent to the model."""
        return [t.schema for t in self.tools]

    def run_tool(self, db: EpisodeDB, name: str, arguments: dict[str, Any]) -> str:
        """Run tool ``name``; unknown tools give an error observation, never an exception."""
        found = self.tools_by_name.get(name)
        if found is None:
            if self.unknown_tool_message is not None:
                return ERROR_PREFIX + self.unknown_tool_message.format(name=name)
            return f"{ERROR_PREFIX}unknown tool {name!r}. Available tools: " + ", ".join(
                tool.name for tool in self.tools
            )
        observation = found.invoke(db, arguments)
        if name in self.write_tools or not self.write_tools:
            # write what the tool changed, in-place JSON edits included, so later queries
            # see it (a read-only tool's accidental edit is still found before hashing)
            try:
                db.flush()
            except Exception as exc:
                return ERROR_PREFIX + (str(exc) or type(exc).__name__)
        return observation


class UpstreamFormat(Protocol):
    """Conversion between a domain's tables and the upstream tau-trait data shape.

    The upstream shape is the dict of collections that upstream's ``load_data`` returns
    (e.g. ``{"patients": {...}, "appointments": {...}}``).
    """

    def read_data(self, folder: Path) -> dict[str, Any]:
        """Read the upstream JSON files of ``folder`` (upstream's ``data/`` directory)."""
        ...

    def to_rows(self, data: dict[str, Any]) -> Iterable[SQLModel]:
        """Rows for the domain's tables from upstream data."""
        ...

    def export(self, db: EpisodeDB) -> dict[str, Any]:
        """The episode database in the upstream shape (key order as upstream writes it)."""
        ...

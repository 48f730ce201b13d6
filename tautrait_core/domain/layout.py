"""A domain plugin package in the shared layout: the built-in database in the upstream
shape under ``data/``, tasks in ``tasks/<split>.json`` and the policy in ``policy.md``, all
next to the module that builds the domain."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tautrait_core.domain.domain import Domain, TaskSet, UpstreamFormat
from tautrait_core.domain.task import Task

if TYPE_CHECKING:
    from sqlmodel import SQLModel

    from tautrait_core.domain.tools import Tool


@dataclass(frozen=True)
class DomainLayout:
    """The files of a domain package laid out in the shared layout, read through its
    upstream ``codec``; :meth:`domain` assembles the :class:`Domain` from them."""

    package: Path
    """The folder that holds ``data/``, ``tasks/`` and ``policy.md``."""
    codec: UpstreamFormat
    """Reads ``data/`` (the upstream shape) into rows, and is the domain's ``upstream``."""

    @property
    def data_dir(self) -> Path:
        """The built-in database, as upstream JSON files."""
        return self.package / "data"

    @property
    def tasks_dir(self) -> Path:
        """The task files, one ``<split>.json`` per task set."""
        return self.package / "tasks"

    def seed_rows(self) -> Iterable[SQLModel]:
        """The rows of the built-in database (``data/*.json``, in the upstream shape)."""
        return self.codec.to_rows(self.codec.read_data(self.data_dir))

    def load_tasks(self, split: str = "test") -> list[Task]:
        """The built-in tasks of ``tasks/<split>.json``."""
        return Task.list_from_file(self.tasks_dir / f"{split}.json")

    def policy(self) -> str:
        """The agent's policy, ``policy.md``."""
        return (self.package / "policy.md").read_text(encoding="utf-8")

    def domain(
        self,
        name: str,
        *,
        description: str,
        tables: Sequence[type[SQLModel]],
        tools: Sequence[Tool],
        write_tools: Sequence[str] = (),
        user_table: type[SQLModel] | None,
        terminating_tools: Sequence[str],
        error_markers: Sequence[str] = (),
    ) -> Domain:
        """The domain ``name`` with the policy, seed data and ``test`` task set of this
        layout and ``codec`` as its upstream format."""
        return Domain(
            name=name,
            description=description,
            policy=self.policy(),
            tables=tables,
            seed_data=self.seed_rows,
            tools=tools,
            task_sets={
                "test": TaskSet(
                    name="test",
                    load_tasks=self.load_tasks,
                    description=f"{name} tasks written for tautrait",
                )
            },
            default_task_set="test",
            terminating_tools=terminating_tools,
            upstream=self.codec,
            user_table=user_table,
            write_tools=write_tools,
            error_markers=error_markers,
        )

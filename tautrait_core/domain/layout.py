"""Where a domain's files lie, and the :class:`Domain` assembled from them.

:class:`DomainLayout` is a domain plugin package in the shared layout: the built-in
database in the upstream shape under ``data/``, tasks in ``tasks/<split>.json`` and the
policy in ``policy.md``, all next to the module that builds the domain.
:func:`imported_tau2_domain` is a τ²-bench domain whose policy and database are the files
``tautrait import tau2`` copied.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tautrait_core.domain.domain import Domain, TaskSet, UpstreamFormat
from tautrait_core.domain.imported_rows import imported_rows_loader
from tautrait_core.domain.task_sets import (
    TAU2_IMPORT_HINT,
    TAU2_SOURCE,
    tau2_data_dir,
    tau2_data_file,
)
from tautrait_core.domain.tau2_tools import TAU2_UNKNOWN_TOOL
from tautrait_core.errors import ConfigError
from tautrait_core.files import read_json_file
from tautrait_core.types.task import Task

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


def imported_tau2_domain(
    tau2_domain: str,
    *,
    description: str,
    tables: Sequence[type[SQLModel]],
    rows_from: Callable[[dict[str, Any]], Iterable[SQLModel]],
    tools: Sequence[Tool],
    with_solo_policy: bool = False,
    **fields: Any,
) -> Domain:
    """τ²-bench's domain ``tau2_domain`` as ``tau2-<tau2_domain>``, run on what ``tautrait
    import tau2`` copied: its ``policy.md`` (and ``policy_solo.md`` ``with_solo_policy``), its
    ``db.json`` turned into table rows by ``rows_from``, and its tasks as the default task
    set ``tau2:<tau2_domain>``. Until τ²-bench is imported the domain is listed with a
    policy that says so, and has nothing to run.

    Unknown tools get τ²'s answer and ``transfer_to_human_agents`` ends an episode, as in
    τ²-bench; ``fields`` are any further :class:`Domain` fields (``agent_functions``,
    ``merge_initial_data``, ...).
    """
    return Domain(
        unknown_tool_message=TAU2_UNKNOWN_TOOL,
        name=f"{TAU2_SOURCE}-{tau2_domain}",
        description=description,
        policy=_imported_tau2_policy(tau2_domain, "policy.md"),
        solo_policy=(
            _imported_tau2_policy(tau2_domain, "policy_solo.md") if with_solo_policy else None
        ),
        tables=tables,
        seed_data=imported_rows_loader(
            lambda: rows_from(_imported_tau2_db(tau2_domain)),
            lambda: tau2_data_dir(tau2_domain) / "db.json",
            "tautrait import tau2 PATH_TO_TAU2_BENCH_CHECKOUT",
        ),
        tools=tools,
        terminating_tools=["transfer_to_human_agents"],
        default_task_set=f"{TAU2_SOURCE}:{tau2_domain}",
        **fields,
    )


def _imported_tau2_policy(tau2_domain: str, name: str) -> str:
    """The imported policy file ``name``, or a line saying τ²-bench is not imported."""
    try:
        return tau2_data_file(tau2_domain, name).read_text(encoding="utf-8")
    except ConfigError:
        return f"(τ²-bench's {tau2_domain} policy is not imported: tautrait import tau2 PATH)"


def _imported_tau2_db(tau2_domain: str) -> dict[str, Any]:
    """The imported ``db.json`` of a τ² domain."""
    path = tau2_data_file(tau2_domain, "db.json")
    return read_json_file(path, ConfigError, "the imported database", TAU2_IMPORT_HINT)

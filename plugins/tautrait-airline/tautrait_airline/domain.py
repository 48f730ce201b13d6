"""Assembles the airline domain: policy, tables, built-in data, tools and task sets."""

from __future__ import annotations

from pathlib import Path

from sqlmodel import SQLModel

from tautrait_airline.schema import TABLES, User
from tautrait_airline.tools import ALL_TOOLS, WRITE_TOOLS
from tautrait_airline.upstream import AirlineUpstream
from tautrait_core import Domain, Task, TaskSet

PACKAGE = Path(__file__).parent
DATA_DIR = PACKAGE / "data"
TASKS_DIR = PACKAGE / "tasks"


def seed_rows() -> list[SQLModel]:
    """The rows of the built-in database (``data/*.json``, in the upstream shape)."""
    codec = AirlineUpstream()
    return codec.to_rows(codec.read_data(DATA_DIR))


def load_tasks(split: str = "test") -> list[Task]:
    """The built-in tasks of ``tasks/<split>.json``."""
    return Task.list_from_file(TASKS_DIR / f"{split}.json")


def build_domain() -> Domain:
    """The airline domain, as registered by the plugin hook."""
    return Domain(
        name="airline",
        description="airline support: flight search, bookings, changes, cancellations",
        policy=(PACKAGE / "policy.md").read_text(encoding="utf-8"),
        tables=TABLES,
        seed_data=seed_rows,
        tools=ALL_TOOLS,
        task_sets={
            "test": TaskSet(
                name="test",
                load_tasks=load_tasks,
                description="airline tasks written for tautrait",
            )
        },
        default_task_set="test",
        terminating_tools=["transfer_to_human_agents"],
        upstream=AirlineUpstream(),
        user_table=User,
        write_tools=WRITE_TOOLS,
    )

"""Assembles the telecom domain: policy, tables, built-in data, tools and task sets."""

from __future__ import annotations

from pathlib import Path

from sqlmodel import SQLModel

from tautrait_core import Domain, Task, TaskSet
from tautrait_telecom.schema import TABLES, Customer
from tautrait_telecom.tools import ALL_TOOLS, WRITE_TOOLS
from tautrait_telecom.upstream import TelecomUpstream

PACKAGE = Path(__file__).parent
DATA_DIR = PACKAGE / "data"
TASKS_DIR = PACKAGE / "tasks"

TERMINATING_TOOLS = ["transfer_to_human_support"]
"""Upstream names this tool as ending an episode but registers no tool of that name: a
call is an unknown tool (the episode goes on), and gold replays skip it."""


def seed_rows() -> list[SQLModel]:
    """The rows of the built-in database (``data/*.json``, in the upstream shape)."""
    codec = TelecomUpstream()
    return codec.to_rows(codec.read_data(DATA_DIR))


def load_tasks(split: str = "test") -> list[Task]:
    """The built-in tasks of ``tasks/<split>.json``."""
    return Task.list_from_file(TASKS_DIR / f"{split}.json")


def build_domain() -> Domain:
    """The telecom domain, as registered by the plugin hook."""
    return Domain(
        name="telecom",
        description="telecom customer support: plans, devices, billing, support tickets",
        policy=(PACKAGE / "policy.md").read_text(encoding="utf-8"),
        tables=TABLES,
        seed_data=seed_rows,
        tools=ALL_TOOLS,
        task_sets={
            "test": TaskSet(
                name="test",
                load_tasks=load_tasks,
                description="telecom tasks written for tautrait",
            )
        },
        default_task_set="test",
        terminating_tools=TERMINATING_TOOLS,
        upstream=TelecomUpstream(),
        user_table=Customer,
        write_tools=WRITE_TOOLS,
    )

"""Assembles the ``tau2-telecom`` domain: τ²-bench's telecom with dual control.

The agent works on the carrier's systems; the customer acts on their own phone through the
user tools. The domain ships its own small database (``data/``) and task set
(``tasks/test.json``) and policy (``policy.md``), written for tautrait; τ²-bench's own
database, tasks and policies are read from a checkout (:mod:`.checkout`).
"""

from __future__ import annotations

from pathlib import Path

from tautrait_core import Domain, Task, TaskSet
from tautrait_telecom.tau2.database import merge_initial_data, read_rows
from tautrait_telecom.tau2.schema import TABLES, USER_TABLES, Customer
from tautrait_telecom.tau2.sync import sync_state
from tautrait_telecom.tau2.tools import (
    AGENT_FUNCTIONS,
    AGENT_TOOLS,
    USER_FUNCTIONS,
    USER_TOOLS,
    WRITE_TOOLS,
)

PACKAGE = Path(__file__).parent
DATA_DIR = PACKAGE / "data"
TASKS_DIR = PACKAGE / "tasks"
DOMAIN_NAME = "tau2-telecom"


def load_tasks(split: str = "test") -> list[Task]:
    """The plugin's own dual-control tasks of ``tasks/<split>.json``."""
    return Task.list_from_file(TASKS_DIR / f"{split}.json")


def build_domain() -> Domain:
    """The ``tau2-telecom`` domain, as registered by the plugin hook."""
    return Domain(
        name=DOMAIN_NAME,
        description="τ²-bench telecom, dual control: the customer fixes their phone as guided",
        policy=(PACKAGE / "policy.md").read_text(encoding="utf-8"),
        tables=TABLES,
        seed_data=lambda: read_rows(DATA_DIR),
        tools=AGENT_TOOLS,
        task_sets={
            "test": TaskSet(
                name="test",
                load_tasks=load_tasks,
                description="dual-control phone troubleshooting tasks written for tautrait",
            )
        },
        default_task_set="test",
        user_table=Customer,
        write_tools=WRITE_TOOLS,
        user_tools=USER_TOOLS,
        user_tables=list(USER_TABLES.values()),
        agent_functions=AGENT_FUNCTIONS,
        user_functions=USER_FUNCTIONS,
        sync_state=sync_state,
        merge_initial_data=merge_initial_data,
        solo_policy=(PACKAGE / "policy_solo.md").read_text(encoding="utf-8"),
    )

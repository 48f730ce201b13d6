"""Assembles the τ² telecom domains: ``tau2-telecom`` (τ²'s tech-support manual policy)
and ``tau2-telecom-workflow`` (its step-by-step workflow policy), with dual control.

The agent works on the carrier's systems; the customer acts on their own phone through the
user tools. The plugin ships its own small database (``data/``), task set ``test``
(``tasks/test.json``) and policies (``policy.md``, ``policy_solo.md``), written for
tautrait, so the domain runs without τ²-bench. Once τ²-bench is imported
(``tautrait import tau2 PATH``), its database and policies are read from the imported copy
(:mod:`.checkout`), and its tasks appear as the task sets ``tau2:telecom`` and
``tau2:telecom-small``; the ``test`` task set keeps the plugin's own database.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from sqlmodel import SQLModel

from tautrait_core import Domain, Task, TaskSet
from tautrait_core.tau2 import TAU2_UNKNOWN_TOOL, tau2_data_dir
from tautrait_telecom.tau2.checkout import tau2_policy
from tautrait_telecom.tau2.database import (
    AGENT_DB_FILE,
    USER_DB_FILE,
    merge_initial_data,
    read_rows,
)
from tautrait_telecom.tau2.schema import TABLES, USER_TABLES, Customer
from tautrait_telecom.tau2.sync import sync_state
from tautrait_telecom.tau2.tools import (
    AGENT_FUNCTIONS,
    AGENT_TOOLS,
    USER_FUNCTIONS,
    USER_TOOLS,
)

PACKAGE = Path(__file__).parent
DATA_DIR = PACKAGE / "data"
TASKS_DIR = PACKAGE / "tasks"
DOMAIN_NAME = "tau2-telecom"
OWN_DATA_ID = "tautrait"
"""Names the plugin's own database among the templates of the domain."""


def load_tasks(split: str = "test") -> list[Task]:
    """The plugin's own dual-control tasks of ``tasks/<split>.json``."""
    return Task.list_from_file(TASKS_DIR / f"{split}.json")


def own_rows() -> list[SQLModel]:
    """The rows of the plugin's own database."""
    return read_rows(DATA_DIR)


def imported_folder() -> Path | None:
    """The imported copy of τ²-bench's telecom files, or ``None`` before an import."""
    folder = tau2_data_dir("telecom")
    has_data = (folder / AGENT_DB_FILE).is_file() and (folder / USER_DB_FILE).is_file()
    return folder if has_data else None


def build_domain(variant: str = "manual") -> Domain:
    """The τ² telecom domain with τ²'s ``variant`` policy (``"manual"`` or ``"workflow"``),
    as registered by the plugin hook."""
    folder = imported_folder()
    seed_data: Callable[[], Iterable[SQLModel]] = own_rows
    policy = (PACKAGE / "policy.md").read_text(encoding="utf-8")
    solo_policy = (PACKAGE / "policy_solo.md").read_text(encoding="utf-8")
    if folder is not None:
        seed_data = lambda: read_rows(folder)  # noqa: E731
        policy = tau2_policy(folder, variant)
        solo_policy = tau2_policy(folder, variant, solo=True)
    return Domain(
        unknown_tool_message=TAU2_UNKNOWN_TOOL,
        name=DOMAIN_NAME if variant == "manual" else f"{DOMAIN_NAME}-{variant}",
        description=(
            f"τ²-bench telecom ({variant} policy), dual control: the customer fixes their "
            "phone as the agent guides them"
        ),
        policy=policy,
        tables=TABLES,
        seed_data=seed_data,
        tools=AGENT_TOOLS,
        task_sets={
            "test": TaskSet(
                name="test",
                load_tasks=load_tasks,
                description="dual-control phone troubleshooting tasks written for tautrait",
                load_rows=own_rows,
                data_id=OWN_DATA_ID,
                protocol="tau2",
            )
        },
        default_task_set="test",
        user_table=Customer,
        user_tools=USER_TOOLS,
        user_tables=list(USER_TABLES.values()),
        agent_functions=AGENT_FUNCTIONS,
        user_functions=USER_FUNCTIONS,
        sync_state=sync_state,
        merge_initial_data=merge_initial_data,
        solo_policy=solo_policy,
    )


def build_workflow_domain() -> Domain:
    """``tau2-telecom-workflow``: the same domain with τ²'s workflow policy."""
    return build_domain("workflow")

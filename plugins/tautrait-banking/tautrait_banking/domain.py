"""Assembles a bank domain: τ³'s tools over a bank database, its documents and tasks.

Two domains share this: ``banking`` (the plugin's own fictional bank, documents and tasks)
and ``tau2-banking_knowledge`` (τ³'s data, read from an imported checkout).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tautrait_banking.catalog import discoverables
from tautrait_banking.store import SQL_TABLES, merge_initial_data, rows_from
from tautrait_banking.tools import (
    BASE_AGENT_TOOLS,
    apply_for_credit_card,
    request_human_agent_transfer,
    submit_referral,
    submit_transaction,
)
from tautrait_core import DocumentCollection, Domain, TaskSet
from tautrait_core.tau2 import TAU2_UNKNOWN_TOOL


def bank_domain(
    *,
    name: str,
    description: str,
    policy: str,
    load_db: Callable[[], dict[str, Any]],
    documents: DocumentCollection,
    task_sets: dict[str, TaskSet],
    default_task_set: str,
) -> Domain:
    """A bank domain on the database ``load_db`` returns (τ³'s ``db.json`` shape)."""
    catalog = discoverables()
    return Domain(
        name=name,
        description=description,
        policy=policy,
        tables=SQL_TABLES,
        seed_data=lambda: rows_from(load_db()),
        tools=[
            *BASE_AGENT_TOOLS,
            catalog.give_user_tool(),
            catalog.unlock_tool(),
            catalog.call_agent_tool(),
            catalog.list_agent_tools(),
        ],
        hidden_tools=catalog.direct_agent_tools(),
        user_tools=[
            apply_for_credit_card,
            submit_referral,
            catalog.call_user_tool(),
            catalog.list_user_tools(),
            request_human_agent_transfer,
            submit_transaction,
        ],
        hidden_user_tools=catalog.direct_user_tools(),
        task_sets=task_sets,
        default_task_set=default_task_set,
        terminating_tools=["transfer_to_human_agents"],
        unknown_tool_message=TAU2_UNKNOWN_TOOL,
        merge_initial_data=merge_initial_data,
        documents=documents,
    )

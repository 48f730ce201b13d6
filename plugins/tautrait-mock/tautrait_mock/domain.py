"""Assembles τ²-bench's mock domain (``tau2-mock``) from an imported τ²-bench checkout.

The data, policies and tasks are τ²-bench's own, read from the files that ``tautrait import
tau2 PATH`` copied; until then the domain is listed but has nothing to run. A τ³ checkout
(τ²-bench v1.x) adds the customer's notification inbox and its two tools.
"""

from __future__ import annotations

from tautrait_core import Domain
from tautrait_core.tau2 import imported_tau2_domain
from tautrait_mock import data
from tautrait_mock.schema import TABLES, USER_TABLES
from tautrait_mock.tools import AGENT_FUNCTIONS, TOOLS
from tautrait_mock.user_side import USER_FUNCTIONS, USER_TOOLS, notification_rows


def build_domain() -> Domain:
    """The mock domain, as registered by the plugin hook."""
    return imported_tau2_domain(
        "mock",
        description="τ²-bench's mock task tracker (import τ²-bench first)",
        tables=TABLES,
        rows_from=data.rows_from,
        tools=TOOLS,
        with_solo_policy=True,
        agent_functions=AGENT_FUNCTIONS,
        merge_initial_data=data.merge_initial_data,
        tau3_fields={
            "tables": [*TABLES, *USER_TABLES],
            "user_tables": USER_TABLES,
            "user_tools": USER_TOOLS,
            "user_functions": USER_FUNCTIONS,
        },
        user_rows_from=notification_rows,
    )

"""Assembles τ²-bench's mock domain (``tau2-mock``) from an imported τ²-bench checkout.

The data, policies and tasks are τ²-bench's own, read from the files that ``tautrait import
tau2 PATH`` copied; until then the domain is listed but has nothing to run.
"""

from __future__ import annotations

from tautrait_core import TAU2_UNKNOWN_TOOL, ConfigError, Domain, tau2_data_file
from tautrait_mock import data
from tautrait_mock.schema import TABLES
from tautrait_mock.tools import AGENT_FUNCTIONS, TOOLS

NOT_IMPORTED = "(τ²-bench's mock policy is not imported: tautrait import tau2 PATH)"


def _policy(name: str) -> str:
    try:
        return tau2_data_file("mock", name).read_text(encoding="utf-8")
    except ConfigError:
        return NOT_IMPORTED


def build_domain() -> Domain:
    """The mock domain, as registered by the plugin hook."""
    return Domain(
        unknown_tool_message=TAU2_UNKNOWN_TOOL,
        name="tau2-mock",
        description="τ²-bench's mock task tracker (import τ²-bench first)",
        policy=_policy("policy.md"),
        solo_policy=_policy("policy_solo.md"),
        tables=TABLES,
        seed_data=data.seed_rows,
        tools=TOOLS,
        terminating_tools=["transfer_to_human_agents"],
        default_task_set="tau2:mock",
        agent_functions=AGENT_FUNCTIONS,
        merge_initial_data=data.merge_initial_data,
    )

"""Assembles τ²-bench's retail domain (``tau2-retail``) from an imported τ²-bench checkout."""

from __future__ import annotations

from tautrait_core import TAU2_UNKNOWN_TOOL, ConfigError, Domain, tau2_data_file
from tautrait_retail.schema import TABLES
from tautrait_retail.tau2.records import seed_rows
from tautrait_retail.tau2.tools import TOOLS


def _policy() -> str:
    try:
        return tau2_data_file("retail", "policy.md").read_text(encoding="utf-8")
    except ConfigError:
        return "(τ²-bench's retail policy is not imported: tautrait import tau2 PATH)"


def build_domain() -> Domain:
    """τ²-bench's retail domain, as registered by the plugin hook."""
    return Domain(
        unknown_tool_message=TAU2_UNKNOWN_TOOL,
        name="tau2-retail",
        description="τ²-bench's retail variant: orders, returns, exchanges (import τ²-bench first)",
        policy=_policy(),
        tables=TABLES,
        seed_data=seed_rows,
        tools=TOOLS,
        terminating_tools=["transfer_to_human_agents"],
        default_task_set="tau2:retail",
    )

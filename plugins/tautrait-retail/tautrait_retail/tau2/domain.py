"""Assembles τ²-bench's retail domain (``tau2-retail``) from an imported τ²-bench checkout."""

from __future__ import annotations

from tautrait_core import Domain
from tautrait_core.tau2 import imported_tau2_domain
from tautrait_retail.schema import TABLES
from tautrait_retail.tau2.records import rows_from
from tautrait_retail.tau2.tools import TAU3_TOOLS, TOOLS


def build_domain() -> Domain:
    """τ²-bench's retail domain, as registered by the plugin hook."""
    return imported_tau2_domain(
        "retail",
        description="τ²-bench's retail variant: orders, returns, exchanges (import τ²-bench first)",
        tables=TABLES,
        rows_from=rows_from,
        tools=TOOLS,
        tau3_tools=TAU3_TOOLS,
    )

"""Assembles τ²-bench's airline domain (``tau2-airline``) from an imported τ²-bench checkout."""

from __future__ import annotations

from tautrait_airline.schema import TABLES
from tautrait_airline.tau2.records import rows_from
from tautrait_airline.tau2.tools import TOOLS
from tautrait_core import Domain
from tautrait_core.tau2 import imported_tau2_domain


def build_domain() -> Domain:
    """τ²-bench's airline domain, as registered by the plugin hook."""
    return imported_tau2_domain(
        "airline",
        description=(
            "τ²-bench's airline variant: bookings, changes, cancellations (import τ²-bench first)"
        ),
        tables=TABLES,
        rows_from=rows_from,
        tools=TOOLS,
    )

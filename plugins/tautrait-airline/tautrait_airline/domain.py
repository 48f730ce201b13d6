"""Assembles the airline domain: policy, tables, built-in data, tools and task sets."""

from __future__ import annotations

from pathlib import Path

from tautrait_airline.schema import TABLES, User
from tautrait_airline.tools import ALL_TOOLS
from tautrait_airline.upstream import AirlineUpstream
from tautrait_core import Domain, DomainLayout

LAYOUT = DomainLayout(Path(__file__).parent, AirlineUpstream())
DATA_DIR = LAYOUT.data_dir
load_tasks = LAYOUT.load_tasks


def build_domain() -> Domain:
    """The airline domain, as registered by the plugin hook."""
    return LAYOUT.domain(
        "airline",
        description="airline support: flight search, bookings, changes, cancellations",
        tables=TABLES,
        tools=ALL_TOOLS,
        user_table=User,
        terminating_tools=["transfer_to_human_agents"],
    )

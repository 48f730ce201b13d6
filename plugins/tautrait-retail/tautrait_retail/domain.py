"""Assembles the retail domain: policy, tables, built-in data, tools and task sets."""

from __future__ import annotations

from pathlib import Path

from tautrait_core import Domain, DomainLayout
from tautrait_retail.schema import TABLES, User
from tautrait_retail.tools import ALL_TOOLS
from tautrait_retail.upstream import RetailUpstream

LAYOUT = DomainLayout(Path(__file__).parent, RetailUpstream())
DATA_DIR = LAYOUT.data_dir
load_tasks = LAYOUT.load_tasks


def build_domain() -> Domain:
    """The retail domain, as registered by the plugin hook."""
    return LAYOUT.domain(
        "retail",
        description="online store support: orders, returns, exchanges, account changes",
        tables=TABLES,
        tools=ALL_TOOLS,
        user_table=User,
        terminating_tools=["transfer_to_human_agents"],
    )

"""Assembles the telecom domain: policy, tables, built-in data, tools and task sets."""

from __future__ import annotations

from pathlib import Path

from tautrait_core import Domain, DomainLayout
from tautrait_telecom.schema import TABLES, Customer
from tautrait_telecom.tools import ALL_TOOLS
from tautrait_telecom.upstream import TelecomUpstream

LAYOUT = DomainLayout(Path(__file__).parent, TelecomUpstream())
DATA_DIR = LAYOUT.data_dir
load_tasks = LAYOUT.load_tasks

TERMINATING_TOOLS = ["transfer_to_human_support"]
"""Upstream names this tool as ending an episode but registers no tool of that name: a
call is an unknown tool (the episode goes on), and gold replays skip it."""


def build_domain() -> Domain:
    """The telecom domain, as registered by the plugin hook."""
    return LAYOUT.domain(
        "telecom",
        description="telecom customer support: plans, devices, billing, support tickets",
        tables=TABLES,
        tools=ALL_TOOLS,
        user_table=Customer,
        terminating_tools=TERMINATING_TOOLS,
    )

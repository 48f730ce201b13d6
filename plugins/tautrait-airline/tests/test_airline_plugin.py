"""The installed airline plugin passes the domain plugin contract: registration, a light
import, the wheel's contents, every task's gold replay, offline oracle runs."""

from __future__ import annotations

from tautrait_core.testing import UpstreamDomainContract


class TestAirlinePlugin(UpstreamDomainContract):
    domain_name = "airline"
    distribution = "tautrait-airline"
    package = "tautrait_airline"
    package_data_count = 5
    policy_phrase = "at most one tool call at a time"
    min_tasks = 40
    upstream_task_lists = (("test", "TASKS"),)

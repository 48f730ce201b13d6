"""The installed retail plugin passes the domain plugin contract: registration, a light
import, the wheel's contents, every task's gold replay, offline oracle runs."""

from __future__ import annotations

from tautrait_core.testing import UpstreamDomainContract


class TestRetailPlugin(UpstreamDomainContract):
    domain_name = "retail"
    distribution = "tautrait-retail"
    package = "tautrait_retail"
    package_data_count = 5
    policy_phrase = "one tool call per turn"
    min_tasks = 40
    upstream_task_lists = (("test", "TASKS"), ("train", "TASKS"), ("dev", "TASKS"))
    upstream_oracle_splits = ("dev",)

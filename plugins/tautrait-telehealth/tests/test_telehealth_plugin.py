"""The installed telehealth plugin passes the domain plugin contract: registration, a light
import, the wheel's contents, every task's gold replay, offline oracle runs."""

from __future__ import annotations

from tautrait_core.testing import UpstreamDomainContract


class TestTelehealthPlugin(UpstreamDomainContract):
    domain_name = "telehealth"
    distribution = "tautrait-telehealth"
    package = "tautrait_telehealth"
    package_data_count = 11
    min_tasks = 30
    upstream_task_lists = (("test", "TASKS"), ("train", "TASKS"), ("dev", "TASKS"))
    upstream_oracle_splits = ("test",)

"""The installed telecom plugin passes the domain plugin contract: registration, a light
import, the wheel's contents, every task's gold replay, offline oracle runs."""

from __future__ import annotations

from tautrait_core.testing import UpstreamDomainContract


class TestTelecomPlugin(UpstreamDomainContract):
    domain_name = "telecom"
    distribution = "tautrait-telecom"
    package = "tautrait_telecom"
    package_data_count = 7
    policy_phrase = "one tool call at a time"
    min_tasks = 30
    upstream_task_lists = (("test", "TASKS_TEST"), ("train", "TASKS_TRAIN"), ("dev", "TASKS_TEST"))
    """Upstream's task files and the name of the list each one defines."""

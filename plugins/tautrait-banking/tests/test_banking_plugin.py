"""The installed plugin passes the domain plugin contract for ``banking`` where it applies:
registration, a light import, the wheel's contents and an offline oracle run of every own
task. The contract's task checks grade τ-bench style (gold replay hash, no τ² criteria),
which this task set does not use: ``test_banking_builtin.py`` grades each task on its own
criteria instead."""

from __future__ import annotations

from tautrait_core.testing import DomainPluginContract, heavy_modules_imported_by


class TestBankingPlugin(DomainPluginContract):
    domain_name = "banking"
    distribution = "tautrait-banking"
    package = "tautrait_banking"
    package_data = (
        "bank/*.json",
        "bank/policy.md",
        "data/discoverable_tools.json",
    )
    package_data_count = 5
    policy_phrase = "unlock_discoverable_agent_tool"
    min_tasks = 9

    # τ-bench-style task checks (see the module docstring)
    test_the_task_set_is_large_and_covers_every_write_tool = None
    test_gold_actions_replay_cleanly = None
    test_gold_actions_and_outputs_earn_the_reward = None


def test_importing_the_tau3_hook_loads_nothing_heavy() -> None:
    assert heavy_modules_imported_by("tautrait_banking.imported") == []

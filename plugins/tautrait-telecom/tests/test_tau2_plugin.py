"""The installed plugin passes the domain plugin contract for ``tau2-telecom`` where it
applies: registration, a light import, the wheel's contents and an offline oracle run of
every own task (the oracle agent and the scripted user replay both sides; τ²-style
grading). The contract's task checks grade τ-bench style (gold replay hash, no initial
state), which a dual-control task set does not use: ``test_tau2_tasks.py`` checks each
task's initial state, gold replay of both sides and env assertions instead."""

from __future__ import annotations

from tautrait_core.testing import DomainPluginContract


class TestTau2TelecomPlugin(DomainPluginContract):
    domain_name = "tau2-telecom"
    distribution = "tautrait-telecom"
    package = "tautrait_telecom"
    package_data = (
        "tau2/data/*.toml",
        "tau2/tasks/*.json",
        "tau2/policy.md",
        "tau2/policy_solo.md",
    )
    package_data_count = 5
    policy_phrase = "one thing at a time"
    min_tasks = 6

    # τ-bench-style task checks (see the module docstring)
    test_the_task_set_is_large_and_covers_every_write_tool = None
    test_gold_actions_replay_cleanly = None
    test_gold_actions_and_outputs_earn_the_reward = None
    test_doing_nothing_fails_every_write_task = None

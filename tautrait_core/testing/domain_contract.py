"""The checks every domain plugin passes, as one test class its tests subclass.

A plugin's test module names a ``Test...`` subclass and sets a few attributes; pytest then
collects every check below for that plugin::

    from tautrait_core.testing import DomainPluginContract

    class TestClinicPlugin(DomainPluginContract):
        domain_name = "clinic"
        distribution = "tautrait-clinic"
        package = "tautrait_clinic"

A domain that also reads upstream tau-trait data subclasses :class:`UpstreamDomainContract`
and names its upstream task lists, which adds an import of the reference material.

The checks go through what a user installs: the domain comes from the installed entry
point, the wheel is built from the plugin's source folder (the parent of its ``tests/``
folder), and runs use the public runner with the oracle agent, so no model is called.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.domain.domain import Domain
from tautrait_core.domain.task_sets import template_for
from tautrait_core.grading.checks import check_task
from tautrait_core.grading.reward import compute_reward, replay_actions
from tautrait_core.hookmarkers import PROJECT_NAME
from tautrait_core.plugins import reset_plugin_manager
from tautrait_core.testing.plugin_checks import (
    heavy_modules_imported_by,
    oracle_average_reward,
    package_files,
    registered_domain,
    wheel_contents,
    write_upstream_checkout,
)
from tautrait_core.types.task import Task


@cache
def _installed_domain(name: str) -> Domain:
    return registered_domain(name)[0]


def _writes(domain: Domain, task: Task) -> list[str]:
    return [action.name for action in task.actions if action.name in domain.write_tools]


class DomainPluginContract:
    """What an installed domain plugin promises; subclass it as ``Test<Name>Plugin``.

    Attributes:
        domain_name: The name the plugin registers (``--domain NAME``).
        distribution: The distribution that must be credited with it (``tautrait-NAME``).
        package: The import package named by the entry point; importing it loads none of
            :data:`~tautrait_core.testing.plugin_checks.HEAVY_MODULES`.
        package_data: Patterns, relative to ``package``, of the files the wheel must ship.
        package_data_count: How many files ``package_data`` matches (``None``: any number,
            each pattern matching at least one).
        policy_phrase: Text the policy must contain (``None``: not checked).
        min_tasks: The fewest tasks the default task set may hold.
    """

    domain_name: ClassVar[str]
    distribution: ClassVar[str]
    package: ClassVar[str]
    package_data: ClassVar[tuple[str, ...]] = ("data/*.json", "tasks/*.json", "policy.md")
    package_data_count: ClassVar[int | None] = None
    policy_phrase: ClassVar[str | None] = None
    min_tasks: ClassVar[int] = 1

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        """One test per task of every built-in task set, for the checks that take
        ``task_case`` (a task set's name and the task's index in it)."""
        if "task_case" not in metafunc.fixturenames:
            return
        domain = _installed_domain(self.domain_name)
        cases = [
            (task_set.name, index)
            for task_set in domain.task_sets.values()
            for index in range(len(task_set.tasks))
        ]
        single = len(domain.task_sets) == 1
        metafunc.parametrize(
            "task_case",
            cases,
            ids=[str(index) if single else f"{name}-{index}" for name, index in cases],
        )

    @pytest.fixture
    def domain(self) -> Domain:
        """The domain as the installed plugin registers it."""
        return _installed_domain(self.domain_name)

    # the installed package

    def test_the_installed_plugin_registers_the_domain(self, tautrait_home: Path) -> None:
        domain, provenance = registered_domain(self.domain_name)
        assert provenance.distribution == self.distribution
        assert provenance.version == metadata.version(self.distribution)
        (entry_point,) = metadata.distribution(self.distribution).entry_points.select(
            group=PROJECT_NAME, name=provenance.plugin
        )
        assert entry_point.value == self.package
        assert domain.default_task_set in domain.task_sets
        if self.policy_phrase is not None:
            assert self.policy_phrase in domain.policy

    def test_importing_the_plugin_loads_nothing_heavy(self) -> None:
        assert heavy_modules_imported_by(self.package) == []

    def test_the_wheel_ships_the_package_data(
        self, request: pytest.FixtureRequest, tmp_path: Path
    ) -> None:
        plugin_root = request.path.resolve().parents[1]
        names = wheel_contents(plugin_root, tmp_path)
        for pattern in self.package_data:
            assert package_files(plugin_root, self.package, [pattern]), f"nothing at {pattern}"
        shipped = package_files(plugin_root, self.package, self.package_data)
        if self.package_data_count is not None:
            assert len(shipped) == self.package_data_count, sorted(shipped)
        assert shipped <= names, sorted(shipped - names)

    def test_an_offline_oracle_run_passes_every_task(self, tautrait_home: Path) -> None:
        assert oracle_average_reward(self.domain_name) == 1.0

    # the built-in tasks

    def test_the_task_set_is_large_and_covers_every_write_tool(self, domain: Domain) -> None:
        tasks = domain.task_sets[domain.default_task_set].tasks
        assert len(tasks) >= self.min_tasks
        covered = {name for task in tasks for name in _writes(domain, task)}
        assert covered == set(domain.write_tools), set(domain.write_tools) - covered

    def test_gold_actions_replay_cleanly(self, domain: Domain, task_case: tuple[str, int]) -> None:
        """What ``tautrait check`` reports (the user exists, no gold action errs, writes
        change the database, every output is in some tool output) finds nothing; a
        read-only task changes nothing."""
        task_set_name, index = task_case
        task_set = domain.task_sets[task_set_name]
        template = template_for(domain, task_set)
        gold = task_set.tasks[index]
        assert check_task(domain, template, index, gold).problems == []
        if not _writes(domain, gold):
            with template.new_episode() as db:
                replay_actions(domain, db, gold.actions)
                assert not db.changes(), "a read-only task changed the database"

    def test_gold_actions_and_outputs_earn_the_reward(
        self, domain: Domain, task_case: tuple[str, int]
    ) -> None:
        task_set_name, index = task_case
        task_set = domain.task_sets[task_set_name]
        gold = task_set.tasks[index]
        with template_for(domain, task_set).new_episode() as db:
            replay_actions(domain, db, gold.actions)
            reply = "Here you go: " + "; ".join(gold.outputs)
            reward = compute_reward(domain, gold, db, [reply])
        assert reward.reward == 1.0, reward

    def test_doing_nothing_fails_every_write_task(self, domain: Domain) -> None:
        for task_set in domain.task_sets.values():
            template = template_for(domain, task_set)
            for index, task in enumerate(task_set.tasks):
                if _writes(domain, task):
                    with template.new_episode() as db:
                        assert compute_reward(domain, task, db, []).reward == 0.0, index


class UpstreamDomainContract(DomainPluginContract):
    """:class:`DomainPluginContract` for a domain that reads upstream tau-trait data too.

    Attributes:
        upstream_task_lists: Pairs of an upstream split and the name of the list its
            ``tasks_<split>.py`` defines (``(("test", "TASKS"),)``); a checkout is rebuilt
            from the reference material (the ``reference_material`` fixture) and imported
            with ``tautrait import tau-trait``.
        upstream_oracle_splits: The imported splits run with the oracle (every split of
            ``upstream_task_lists`` when empty).
    """

    upstream_task_lists: ClassVar[tuple[tuple[str, str], ...]]
    upstream_oracle_splits: ClassVar[tuple[str, ...]] = ()

    def test_the_installed_plugin_registers_the_domain(self, tautrait_home: Path) -> None:
        super().test_the_installed_plugin_registers_the_domain(tautrait_home)
        assert _installed_domain(self.domain_name).upstream is not None

    def test_imported_upstream_tasks_run_with_the_oracle(
        self, tautrait_home: Path, tmp_path: Path, reference_material: Path
    ) -> None:
        """``tautrait import tau-trait`` reads a checkout (rebuilt here from the reference
        material) through the plugin's codec; every split arrives whole and the imported
        tasks pass with the oracle."""
        peers = reference_material / "tau-trait"
        checkout = write_upstream_checkout(
            peers, self.domain_name, tmp_path / "tau-trait", dict(self.upstream_task_lists)
        )
        reset_plugin_manager()
        try:
            imported = CliRunner().invoke(cli, ["import", "tau-trait", str(checkout)])
        finally:
            reset_plugin_manager()
        assert imported.exit_code == 0, imported.output
        splits = [split for split, _ in self.upstream_task_lists]
        for split in splits:
            tasks: list[Any] = json.loads(
                (peers / "tasks" / f"{self.domain_name}_{split}.json").read_text()
            )
            assert f"tau-trait:{split} ({len(tasks)} tasks)" in imported.output, imported.output
        for split in self.upstream_oracle_splits or splits:
            assert oracle_average_reward(self.domain_name, f"tau-trait:{split}") == 1.0, split

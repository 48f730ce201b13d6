"""The installed plugin: registration, a light import, the wheel's contents, an offline run."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.testing import (
    cli,
    heavy_modules_imported_by,
    oracle_average_reward,
    package_files,
    registered_domain,
    reset_plugin_manager,
    wheel_contents,
    write_upstream_checkout,
)

PLUGIN_ROOT = Path(__file__).resolve().parents[1]
PEERS = PLUGIN_ROOT.parents[1].parent / "shared" / "peers" / "tau-trait"


def test_the_installed_plugin_registers_the_domain(tautrait_home: Path) -> None:
    domain, distribution = registered_domain("telehealth")
    assert distribution == "tautrait-telehealth"
    assert domain.default_task_set in domain.task_sets
    assert domain.upstream is not None


def test_importing_the_plugin_loads_nothing_heavy() -> None:
    assert heavy_modules_imported_by("tautrait_telehealth") == []


def test_the_wheel_ships_data_tasks_and_policy(tmp_path: Path) -> None:
    names = wheel_contents(PLUGIN_ROOT, tmp_path)
    shipped = package_files(
        PLUGIN_ROOT, "tautrait_telehealth", ("data/*.json", "tasks/*.json", "policy.md")
    )
    assert len(shipped) == 11
    assert shipped <= names


def test_an_offline_oracle_run_passes_every_task(tautrait_home: Path) -> None:
    assert oracle_average_reward("telehealth") == 1.0


@pytest.mark.skipif(not PEERS.is_dir(), reason=f"upstream material not found at {PEERS}")
def test_imported_upstream_tasks_run_with_the_oracle(tautrait_home: Path, tmp_path: Path) -> None:
    """``tautrait import tau-trait`` reads a checkout's data through this plugin's codec; the
    imported tasks then pass with the oracle (a checkout is rebuilt here from the peers)."""
    checkout = write_upstream_checkout(
        PEERS,
        "telehealth",
        tmp_path / "tau-trait",
        {"test": "TASKS", "train": "TASKS", "dev": "TASKS"},
    )
    reset_plugin_manager()
    try:
        imported = CliRunner().invoke(cli, ["import", "tau-trait", str(checkout)])
    finally:
        reset_plugin_manager()
    assert imported.exit_code == 0, imported.output
    assert oracle_average_reward("telehealth", "tau-trait:test") == 1.0

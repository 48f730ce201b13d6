"""The installed plugin: registration, a light import, the wheel's contents, an offline run."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from tautrait_core.models import RunConfig
from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager
from tautrait_core.runner import execute

PLUGIN_ROOT = Path(__file__).resolve().parents[1]


def test_the_installed_plugin_registers_the_domain(tautrait_home: Path) -> None:
    reset_plugin_manager()
    try:
        manager = get_plugin_manager()
        domain = manager.get("domain", "telehealth")
        assert manager.source("domain", "telehealth").distribution == "tautrait-telehealth"
        assert domain.default_task_set in domain.task_sets
        assert domain.upstream is not None
        assert "one tool call per turn" in domain.policy
    finally:
        reset_plugin_manager()


def test_importing_the_plugin_loads_nothing_heavy() -> None:
    probe = (
        "import sys, tautrait_telehealth; "
        "print(sorted(m for m in ('sqlmodel', 'sqlalchemy', 'pydantic') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_the_wheel_ships_data_tasks_and_policy(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(tmp_path)],
        cwd=PLUGIN_ROOT,
        capture_output=True,
        check=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    package = PLUGIN_ROOT / "tautrait_telehealth"
    shipped = {
        path.relative_to(PLUGIN_ROOT).as_posix()
        for pattern in ("data/*.json", "tasks/*.json", "policy.md")
        for path in package.glob(pattern)
    }
    assert len(shipped) == 11
    assert shipped <= names


def test_an_offline_oracle_run_passes_every_task(tautrait_home: Path) -> None:
    reset_plugin_manager()
    try:
        report = execute(RunConfig(domain="telehealth", agent="oracle", num_trials=1))
    finally:
        reset_plugin_manager()
    assert report.metrics.average_reward == 1.0

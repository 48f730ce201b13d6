"""The installed plugin: registration, a light import, the wheel's contents, offline runs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.models import RunConfig
from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager
from tautrait_core.runner import execute

PLUGIN_ROOT = Path(__file__).resolve().parents[1]
PEERS = PLUGIN_ROOT.parents[1].parent / "shared" / "peers" / "tau-trait"


def test_the_installed_plugin_registers_the_domain(tautrait_home: Path) -> None:
    reset_plugin_manager()
    try:
        manager = get_plugin_manager()
        domain = manager.get("domain", "airline")
        assert manager.source("domain", "airline").distribution == "tautrait-airline"
        assert domain.default_task_set in domain.task_sets
        assert domain.upstream is not None
        assert "at most one tool call at a time" in domain.policy
    finally:
        reset_plugin_manager()


def test_importing_the_plugin_loads_nothing_heavy() -> None:
    probe = (
        "import sys, tautrait_airline; "
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
    package = PLUGIN_ROOT / "tautrait_airline"
    shipped = {
        path.relative_to(PLUGIN_ROOT).as_posix()
        for pattern in ("data/*.json", "tasks/*.json", "policy.md")
        for path in package.glob(pattern)
    }
    assert len(shipped) == 5
    assert shipped <= names


def test_an_offline_oracle_run_passes_every_task(tautrait_home: Path) -> None:
    reset_plugin_manager()
    try:
        report = execute(RunConfig(domain="airline", agent="oracle", num_trials=1))
    finally:
        reset_plugin_manager()
    assert report.metrics.average_reward == 1.0


@pytest.mark.skipif(not PEERS.is_dir(), reason=f"upstream material not found at {PEERS}")
def test_imported_upstream_tasks_run_with_the_oracle(tautrait_home: Path, tmp_path: Path) -> None:
    """``tautrait import tau-trait`` reads a checkout's data through this plugin's codec; the
    imported test tasks then pass with the oracle (a checkout is rebuilt here from the peers)."""
    envs = tmp_path / "tau-trait" / "tau_trait" / "envs" / "airline"
    shutil.copytree(PEERS / "data" / "airline", envs / "data")
    for split in ("test",):
        tasks = json.loads((PEERS / "tasks" / f"airline_{split}.json").read_text())
        (envs / f"tasks_{split}.py").write_text(_upstream_task_file(tasks))
    reset_plugin_manager()
    try:
        imported = CliRunner().invoke(cli, ["import", "tau-trait", str(tmp_path / "tau-trait")])
        assert imported.exit_code == 0, imported.output
        config = RunConfig(domain="airline", task_set="tau-trait:test", agent="oracle")
        report = execute(config)
    finally:
        reset_plugin_manager()
    assert report.metrics.average_reward == 1.0


def _upstream_task_file(tasks: list[dict[str, Any]]) -> str:
    """An upstream-style ``tasks_<split>.py`` holding ``tasks``."""
    entries = []
    for task in tasks:
        actions = ", ".join(
            f"Action(name={action['name']!r}, kwargs={action['kwargs']!r})"
            for action in task["actions"]
        )
        entries.append(
            f"    Task(annotator='0', user_id={task['user_id']!r}, "
            f"instruction={task['instruction']!r}, actions=[{actions}], "
            f"outputs={task['outputs']!r}),"
        )
    return "from tau_trait.types import Action, Task\n\nTASKS = [\n" + "\n".join(entries) + "\n]\n"

"""``tautrait rescore FILE`` of a τ² results file that tautrait exported from one of its
own runs: graded against the run's own domain and task set, and a task that τ²'s shape
wrote is "changed" only when it really is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli


@pytest.fixture
def exported(toy_plugin: object, isolated_home: Path, tmp_path: Path) -> Path:
    """A τ² export of an oracle run of the toy library (tasks 0 and 1)."""
    runner = CliRunner()
    ran = runner.invoke(
        cli, ["run", "--domain", "toylib", "--agent", "oracle", "--task-ids", "0,1"]
    )
    assert ran.exit_code == 0, ran.output
    out = tmp_path / "toylib.json"
    done = runner.invoke(cli, ["export", "latest", "--format", "tau2", "-o", str(out)])
    assert done.exit_code == 0, done.output
    return out


def test_a_tau2_export_of_a_native_run_rescores_as_that_run(exported: Path) -> None:
    rescored = CliRunner().invoke(cli, ["rescore", str(exported)])
    assert rescored.exit_code == 0, rescored.output  # was: unknown domain 'tau2-toylib'
    assert "toylib/test: 2 episodes, 2 rescored, 2 agree, 0 disagree" in rescored.output
    assert "task changed" not in rescored.output
    assert "recorded with a different task" not in rescored.output


def test_a_task_edited_in_the_export_shows_as_changed(exported: Path) -> None:
    data = json.loads(exported.read_text())
    data["tasks"][0]["user_scenario"]["instructions"] += " Also ask about late fees."
    exported.write_text(json.dumps(data))
    rescored = CliRunner().invoke(cli, ["rescore", str(exported), "--json"])
    assert rescored.exit_code == 0, rescored.output
    changes = [e["task_changes"] for e in json.loads(rescored.output)["episodes"]]
    assert sorted(map(tuple, changes)) == [(), ("instruction",)]

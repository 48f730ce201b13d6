"""Rescoring a result-list file grades it against the task set its records embed: a native
run's export is not graded against the imported upstream set, and a file whose tasks no set
holds is refused with --task-set named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tautrait_core import TaskSet
from tautrait_core.cli import cli
from tautrait_core.domain import task_sets


@pytest.fixture
def upstream_imported(upstream_domain: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """``toyup`` with an imported ``tau-trait:test`` whose tasks are reworded."""
    from tests.plugins.toy_library import TASKS

    reworded = [task.model_copy(update={"instruction": "Upstream words."}) for task in TASKS]
    upstream = TaskSet(name="tau-trait:test", load_tasks=lambda: reworded)
    monkeypatch.setattr(
        task_sets,
        "imported_task_sets",
        lambda domain: {"tau-trait:test": upstream} if domain.name == "toyup" else {},
    )


def exported(tmp_path: Path) -> Path:
    """The tau-bench export of an oracle run of toyup's own tasks 0 and 1."""
    runner = CliRunner()
    ran = runner.invoke(cli, ["run", "--domain", "toyup", "--agent", "oracle", "--task-ids", "0,1"])
    assert ran.exit_code == 0, ran.output
    path = tmp_path / "tb.json"
    assert runner.invoke(cli, ["export", "latest", "-o", str(path)]).exit_code == 0
    return path


def rescored(path: Path, *extra: str) -> Any:
    return CliRunner().invoke(cli, ["rescore", str(path), "--domain", "toyup", *extra])


def test_a_native_export_is_rescored_against_its_own_task_set(
    upstream_imported: None, tmp_path: Path
) -> None:
    result = rescored(exported(tmp_path), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["task_set"] == "test"
    assert [entry["value"] for entry in report["summary"]["pass_hat_k_after"]] == [1.0]


def test_a_file_of_tasks_no_set_holds_is_refused(upstream_imported: None, tmp_path: Path) -> None:
    path = exported(tmp_path)
    records = json.loads(path.read_text())
    for record in records:
        record["info"]["task"]["instruction"] = "A task from somewhere else."
    path.write_text(json.dumps(records))
    result = rescored(path)
    assert result.exit_code != 0
    assert "holds tasks of no task set of toyup" in result.output
    assert "--task-set" in result.output
    assert rescored(path, "--task-set", "test").exit_code == 0

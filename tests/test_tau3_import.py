"""``tautrait import tau2`` of a τ³ checkout (τ²-bench v1.x): its task sets follow τ³'s
rules and carry its splits (``tau2:retail/test``, ``base`` by default, an unknown split
one line naming the others); telecom's splits all filter one ``tasks.json``; banking's
data is copied with a hint when its plugin is missing; a fork checkout keeps the fork's
rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.domain.task_sets import resolve_task_set
from tautrait_core.errors import UnknownNameError
from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager
from tautrait_core.testing import build_tau2_checkout, cli
from tautrait_core.testing.tau3_reference import build_tau3_checkout


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def tau3_checkout(reference_material: Path, tmp_path: Path) -> Path:
    if not (reference_material / "tau3-bench").is_dir():
        pytest.skip("τ³ reference material (tau3-bench/) not found")
    domains = ["mock", "retail", "telecom", "banking_knowledge"]
    return build_tau3_checkout(reference_material, tmp_path / "tau3", domains)


def _domain(name: str, monkeypatch: pytest.MonkeyPatch, entry_point: str):
    monkeypatch.setenv("TAUTRAIT_LOAD_PLUGINS", entry_point)
    reset_plugin_manager()
    manager = get_plugin_manager()
    if name not in manager.names("domain"):
        pytest.skip(f"plugin {entry_point} not installed")
    return manager.get("domain", name)


def test_a_tau3_checkout_is_imported_with_its_splits_and_rules(
    tau3_checkout: Path, tautrait_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = invoke("import", "tau2", str(tau3_checkout))
    assert result.exit_code == 0, result.output
    assert "τ³ checkout" in result.output
    assert "tau2:retail (114 tasks; splits train 74, test 40, base 114)" in result.output
    assert "tau2:telecom-small" not in result.output  # τ³ reads tasks.json only
    assert "pip install tautrait-banking" in result.output
    banking = tautrait_home / "imports" / "tau2" / "banking_knowledge"
    assert (banking / "db.json").is_file() and len(list((banking / "tasks").iterdir())) == 97
    assert "tau2:banking_knowledge (97 tasks)" in result.output
    assert "Run one with: tautrait run --domain tau2-retail --task-set tau2:retail/test" in (
        result.output
    )
    # at 80 columns: the import folder of a long line goes on a line of its own, whole
    assert max(len(line) for line in result.output.splitlines() if " -> " not in line) <= 80

    retail = _domain("tau2-retail", monkeypatch, "tau2-retail")
    test_split = resolve_task_set(retail, "tau2:retail/test")
    assert test_split.rules == "tau3" and len(test_split.tasks) == 40
    assert test_split.name == "tau2:retail/test"
    assert resolve_task_set(retail, "tau2:retail", split="train").tasks[0].id == "0"
    assert len(resolve_task_set(retail, "tau2:retail").tasks) == 114  # base
    with pytest.raises(UnknownNameError, match=r"split 'dev' \(available: base, test, train\)"):
        resolve_task_set(retail, "tau2:retail/dev")
    assert "get_item_details" in retail.tools_by_name

    telecom = _domain("tau2-telecom", monkeypatch, "telecom")
    assert len(resolve_task_set(telecom, "tau2:telecom/small").tasks) == 20
    assert len(resolve_task_set(telecom, "tau2:telecom").tasks) == 114


def test_a_fork_checkout_keeps_the_forks_rules(
    tau2_reference: Path, tautrait_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkout = build_tau2_checkout(tau2_reference, tmp_path / "ck", ["retail"])
    result = invoke("import", "tau2", str(checkout))
    assert result.exit_code == 0, result.output and "τ³" not in result.output
    retail = _domain("tau2-retail", monkeypatch, "tau2-retail")
    task_set = resolve_task_set(retail, "tau2:retail")
    assert task_set.rules == "tau2" and task_set.splits is None
    assert "get_item_details" not in retail.tools_by_name
    with pytest.raises(UnknownNameError, match="has no splits"):
        resolve_task_set(retail, "tau2:retail/test")


def test_task_files_keep_tau3s_new_fields(tau3_checkout: Path) -> None:
    from tautrait_core.compat.tau2.tasks import read_tau2_tasks, read_tau3_task_folder

    banking = read_tau3_task_folder(tau3_checkout / "data/tau2/domains/banking_knowledge/tasks")
    assert len(banking) == 97 and any(task.required_documents for task in banking)
    assert any(task.user_tools is not None for task in banking)
    retail = read_tau2_tasks(tau3_checkout / "data/tau2/domains/retail/tasks.json")
    assert [task.id for task in retail if task.issues] == ["4", "5", "7"]
    dumped = json.loads(retail[0].model_dump_json())
    assert "issues" not in dumped  # unset fields stay out of a dump

"""τ³'s results files (τ²-bench v1.0.1): a run of a τ³ task set exports in τ³'s json
shape and, with --dir, in its folder format; both import back and rescore (with the tasks
the file holds, or --fresh-tasks with the current ones); a fork run still exports in the
fork's shape, and its export rescores without a changed task."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.interchange.tau2_results import is_tau2_results_file, read_tau2_results
from tautrait_core.plugins import reset_plugin_manager
from tautrait_core.testing import build_tau2_checkout, cli
from tautrait_core.testing.tau3_reference import build_tau3_checkout


def _tau3_example(reference_material: Path) -> Path:
    """τ³'s own results file, whose key order an export keeps (skip: material missing)."""
    example = reference_material / "tau3-bench" / "golden" / "example_results_banking_bm25.json"
    if not example.is_file():
        pytest.skip("τ³ reference material (tau3-bench/) not found")
    return example


def invoke(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def _import(checkout: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAUTRAIT_LOAD_PLUGINS", "tau2-mock")
    reset_plugin_manager()
    invoke("import", "tau2", str(checkout))
    reset_plugin_manager()


def _exported_run(
    checkout: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path]:
    """Import ``checkout``, run its mock task set twice with the oracle, export the run as
    a τ² results file: ``(results database, exported file)``."""
    _import(checkout, monkeypatch)
    database = tmp_path / "results.db"
    invoke(
        *["run", "--domain", "tau2-mock", "--task-set", "tau2:mock", "--agent", "oracle"],
        *["--user", "scripted", "--results-db", str(database), "--num-trials", "2"],
    )
    exported = tmp_path / "results.json"
    invoke(
        "export", "latest", "--format", "tau2", "-o", str(exported), "--results-db", str(database)
    )
    return database, exported


def test_a_tau3_run_exports_and_reads_back_in_both_formats(
    reference_material: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tau3 = json.loads(_tau3_example(reference_material).read_text())
    checkout = build_tau3_checkout(reference_material, tmp_path / "ck", ["mock"])
    database, exported = _exported_run(checkout, tmp_path, monkeypatch)
    data = json.loads(exported.read_text())
    assert list(data) == ["timestamp", "info", "tasks", "simulations", "simulation_index"]
    assert data["simulation_index"] is None
    assert data["info"]["text_streaming_config"] == {"chunk_by": "words", "chunk_size": 1}
    assert data["info"]["agent_info"]["voice_settings"] is None
    simulation = data["simulations"][0]
    assert list(simulation) == list(tau3["simulations"][0]) and simulation["mode"] == "half_duplex"
    assert list(data["tasks"][0]) == list(tau3["tasks"][0])
    message = simulation["messages"][0]
    assert list(message)[:4] == ["role", "content", "tool_calls", "is_audio"]
    assert message["contains_speech"] is True
    checks = [c for s in data["simulations"] for c in (s["reward_info"]["action_checks"] or [])]
    assert {check["tool_type"] for check in checks} >= {"write"}

    folder = tmp_path / "dir"
    invoke(
        "export", "latest", "--format", "tau2", "--dir", str(folder), "--results-db", str(database)
    )
    head = json.loads((folder / "results.json").read_text())
    assert "simulations" not in head and len(head["simulation_index"]) == 20
    assert len(list((folder / "simulations").glob("*.json"))) == 20
    assert is_tau2_results_file(folder)
    assert len(read_tau2_results(folder).results) == 20

    for source in (exported, folder):
        output = invoke("rescore", str(source), "--results-db", str(database))
        assert "20 episodes, 20 rescored, 20 agree" in output and "task changed" not in output
        fresh = invoke("rescore", str(source), "--fresh-tasks", "--results-db", str(database))
        assert "20 agree" in fresh and "task changed" not in fresh
        invoke("import-results", str(source), "--results-db", str(database))

    (folder / "simulations" / f"{head['simulation_index'][0]['id']}.json").unlink()
    broken = CliRunner().invoke(cli, ["rescore", str(folder), "--results-db", str(database)])
    assert broken.exit_code == 1 and "do not match the index" in broken.output


def test_tau3s_own_results_file_reads(reference_material: Path) -> None:
    read = read_tau2_results(_tau3_example(reference_material))
    assert len(read.results) == 3 and read.domain == "banking_knowledge"
    assert {result.reward for result in read.results} == {1.0}
    assert read.tasks[0].user_scenario is not None


def test_a_fork_run_round_trips_without_a_changed_task(
    tau2_reference: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkout = build_tau2_checkout(tau2_reference, tmp_path / "ck", ["mock"])
    database, exported = _exported_run(checkout, tmp_path, monkeypatch)
    data = json.loads(exported.read_text())
    assert "simulation_index" not in data  # the fork's own shape
    assert isinstance(data["tasks"][0]["user_scenario"]["instructions"], dict | str)
    output = invoke("rescore", str(exported), "--fresh-tasks", "--results-db", str(database))
    assert "task changed" not in output and "18 agree" in output

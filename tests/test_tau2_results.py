"""τ²-bench results files: read, write, import-results, export --format tau2; a round trip
keeps every reward and every reward component."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.errors import TaskSetError
from tautrait_core.interchange.tau2_results import read_tau2_results, tau2_results, tau2_run_info
from tautrait_core.types.result import Outcome

EXAMPLE = "tau2-bench/golden/example_results_telecom_small.json"
TAU2_TASK = {"id": "a", "user_scenario": {"instructions": "Ask for help."}}


@pytest.fixture
def example(reference_material: Path) -> Path:
    return reference_material / EXAMPLE


def _varied_copy(example: Path, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """The example with a failed, a premature and an unevaluated simulation added."""
    data = json.loads(example.read_text())
    failed = json.loads(json.dumps(data["simulations"][0]))
    failed.update(trial=1)
    failed["reward_info"]["reward"] = 0.0
    failed["reward_info"]["reward_breakdown"] = {"ENV_ASSERTION": 0.0}
    failed["reward_info"]["env_assertions"][0].update(met=False, reward=0.0)
    premature = json.loads(json.dumps(data["simulations"][1]))
    premature.update(trial=1, termination_reason="max_steps")
    premature["reward_info"] = {
        "reward": 0.0,
        "db_check": None,
        "env_assertions": None,
        "action_checks": None,
        "nl_assertions": None,
        "communicate_checks": None,
        "reward_basis": ["DB"],
        "reward_breakdown": None,
        "info": {
            "note": "Simulation terminated prematurely. Termination reason: "
            "TerminationReason.MAX_STEPS"
        },
    }
    unevaluated = json.loads(json.dumps(data["simulations"][2]))
    unevaluated.update(trial=1, reward_info=None)
    data["simulations"] += [failed, premature, unevaluated]
    path = tmp_path / "varied.json"
    path.write_text(json.dumps(data, indent=2))
    return path, data


def _by_key(data: dict[str, Any]) -> dict[tuple[str, int], Any]:
    return {(s["task_id"], s["trial"]): s for s in data["simulations"]}


def test_the_example_file_reads_into_episodes(example: Path) -> None:
    read = read_tau2_results(example)
    assert read.domain == "telecom"
    assert len(read.tasks) == 4 and len(read.results) == 4
    assert [r.reward for r in read.results] == [1.0] * 4
    assert all(r.outcome is Outcome.PASS for r in read.results)
    assert read.task_ids[0] == read.tasks[read.results[0].task_id].id
    first = read.results[0]
    assert first.reward_info is not None and first.reward_info.reward_basis == ["ENV_ASSERTION"]
    by_user = [m for m in first.messages if m.requestor == "user"]
    assert by_user[0].tool_calls and by_user[0].tool_calls[0].name == "toggle_roaming"
    assert by_user[1].role == "tool" and by_user[1].content.startswith("Data Roaming is now ON")


def test_episodes_are_numbered_by_the_task_set_they_are_stored_with(example: Path) -> None:
    read = read_tau2_results(example)
    reversed_tasks = read.tasks[::-1]
    numbered = read.numbered_by(reversed_tasks, example)
    last = len(read.tasks) - 1
    assert [r.task_id for r in numbered.results] == [last - r.task_id for r in read.results]
    assert [r.reward for r in numbered.results] == [r.reward for r in read.results]
    missing = read.task_ids[2]
    fewer = [task for task in read.tasks if task.id != missing]
    with pytest.raises(TaskSetError) as raised:
        read.numbered_by(fewer, example)
    first = read.task_ids.index(missing)
    assert str(raised.value) == (
        f"{example}: simulation {first} is invalid: task {missing!r} is not in the task list"
    )


def test_a_round_trip_keeps_every_reward_and_component(example: Path, tmp_path: Path) -> None:
    path, original = _varied_copy(example, tmp_path)
    read = read_tau2_results(path)
    outcomes = [r.outcome for r in read.results]
    assert outcomes[-3:] == [Outcome.FAIL, Outcome.FAIL, Outcome.ERROR]
    written = tau2_results(
        read.results, read.tasks, tau2_run_info("telecom", None, "a", None, "u", None)
    )
    again = read_tau2_results(_dump(tmp_path / "again.json", written))
    assert [r.reward for r in again.results] == [r.reward for r in read.results]
    expected, got = _by_key(original), _by_key(written)
    assert expected.keys() == got.keys()
    for key, simulation in expected.items():
        assert got[key]["reward_info"] == simulation["reward_info"], key
        assert got[key]["termination_reason"] == simulation["termination_reason"]
        assert [m["role"] for m in got[key]["messages"]] == [
            m["role"] for m in simulation["messages"]
        ]
        calls = [c for m in simulation["messages"] for c in m.get("tool_calls") or []]
        written_calls = [c for m in got[key]["messages"] for c in m.get("tool_calls") or []]
        assert written_calls == calls


def _dump(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data, indent=2))
    return path


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[]", "not a τ² results file"),
        ('{"tasks": [], "simulations": [{"task_id": "x"}]}', "simulation 0 is invalid"),
        (
            json.dumps({"tasks": [TAU2_TASK, TAU2_TASK], "simulations": []}),
            "task ids used more than once: 'a'",
        ),
    ],
)
def test_a_bad_results_file_is_named(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(TaskSetError, match=message):
        read_tau2_results(path)


def test_import_results_then_export_tau2_keeps_every_reward(
    example: Path, tmp_path: Path, isolated_home: Path
) -> None:
    path, original = _varied_copy(example, tmp_path)
    runner = CliRunner()
    imported = runner.invoke(cli, ["import-results", str(path), "--json"])
    assert imported.exit_code == 0, imported.output
    run = json.loads(imported.output)["run"]
    # τ²'s tasks are not imported here: the run keeps the file's task order and ids
    assert run["domain"] == "tau2-telecom" and run["task_set"] == "tau2:telecom"
    assert json.loads(imported.output)["episodes"] == 7
    out = tmp_path / "exported.json"
    exported = runner.invoke(cli, ["export", run["id"], "--format", "tau2", "-o", str(out)])
    assert exported.exit_code == 0, exported.output
    got = _by_key(json.loads(out.read_text()))
    for key, simulation in _by_key(original).items():
        assert got[key]["reward_info"] == simulation["reward_info"], key
    shown = runner.invoke(cli, ["report", run["id"]])
    assert shown.exit_code == 0, shown.output
    assert "Failing reward components (of 6 τ²-graded episodes): ENV_ASSERTION 1" in shown.output


def test_an_imported_file_numbers_its_episodes_by_the_task_set_holding_them(
    example: Path, tau2_imported: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tautrait_core.interchange.run_tasks import tasks_of_run
    from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager

    monkeypatch.setenv("TAUTRAIT_LOAD_PLUGINS", "telecom")
    reset_plugin_manager()
    if "tau2-telecom" not in get_plugin_manager().names("domain"):
        pytest.skip("the telecom plugin with τ² telecom is not installed")
    tau2_imported("telecom")
    result = CliRunner().invoke(cli, ["import-results", str(example), "--json"])
    assert result.exit_code == 0, result.output
    run = json.loads(result.output)["run"]
    assert run["task_set"] == "tau2:telecom-small"
    tasks = tasks_of_run(run["domain"], run["task_set"])
    read = read_tau2_results(example)
    assert sorted(run["task_ids"]) == sorted(
        next(i for i, task in enumerate(tasks) if task.id == task_id) for task_id in read.task_ids
    )


def test_show_and_the_html_report_give_each_component(
    example: Path, tmp_path: Path, isolated_home: Path
) -> None:
    path, _ = _varied_copy(example, tmp_path)
    runner = CliRunner()
    imported = runner.invoke(cli, ["import-results", str(path), "--json"])
    run = json.loads(imported.output)["run"]
    failed = read_tau2_results(path).results[4]  # the copy whose env assertion failed
    shown = runner.invoke(
        cli,
        ["show", run["id"], "--task", str(failed.task_id), "--trial", "1"],
        env={"COLUMNS": "200"},
    )
    assert shown.exit_code == 0, shown.output
    assert "Reward basis: ENV_ASSERTION." in shown.output
    assert "ENV_ASSERTION: 1/2 met; failed assert_mobile_data_status." in shown.output
    assert "ACTION (not counted): 1/1 met." in shown.output
    page = tmp_path / "report.html"
    report = runner.invoke(cli, ["report", run["id"], "--html", str(page)])
    assert report.exit_code == 0, report.output
    html = page.read_text()
    assert "Failing reward components (of 6 τ²-graded episodes): ENV_ASSERTION 1" in html
    assert "ENV_ASSERTION: 1/2 met; failed assert_mobile_data_status." in html


def test_a_run_exported_as_tau2_imports_back_with_every_reward(tmp_path: Path) -> None:
    from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager
    from tests.plugins import toy_phone

    reset_plugin_manager()
    get_plugin_manager().register(toy_phone, name="toy_phone")
    try:
        runner = CliRunner()
        ran = runner.invoke(
            cli,
            [
                *("run", "--domain", "toyphone", "--agent", "oracle", "--user", "scripted"),
                *("--num-trials", "2", "--json"),
            ],
        )
        assert ran.exit_code == 0, ran.output
        out = tmp_path / "toyphone.json"
        exported = runner.invoke(cli, ["export", "latest", "--format", "tau2", "-o", str(out)])
        assert exported.exit_code == 0, exported.output
        data = json.loads(out.read_text())
        assert data["info"]["environment_info"]["domain_name"] == "toyphone"
        assert {s["reward_info"]["reward_basis"][0] for s in data["simulations"]} <= {
            "ENV_ASSERTION",
            "DB",
        }
        imported = runner.invoke(
            cli, ["import-results", str(out), "--domain", "toyphone", "--task-set", "test"]
        )
        assert imported.exit_code == 0, imported.output
        report = runner.invoke(cli, ["report", "latest", "--json"])
        again = runner.invoke(cli, ["export", "latest", "--format", "tau2"])
        assert again.exit_code == 0, again.output
        first, second = _by_key(data), _by_key(json.loads(again.output))
        assert {key: s["reward_info"] for key, s in first.items()} == {
            key: s["reward_info"] for key, s in second.items()
        }
        assert report.exit_code == 0, report.output
    finally:
        get_plugin_manager().unregister(name="toy_phone")
        reset_plugin_manager()


def test_a_tau2_export_of_a_native_run_imports_back_as_that_run(toy_plugin, tmp_path: Path) -> None:
    """Without options, the import restores what the export names: the domain (not
    ``tau2-<domain>``), task set, traits, agent and user; tasks without an id match by
    position."""
    runner = CliRunner()
    ran = runner.invoke(
        cli,
        [
            *("run", "--domain", "toylib", "--agent", "oracle", "--user", "scripted"),
            *("--traits", "impatience=high", "--task-ids", "0,1"),
        ],
    )
    assert ran.exit_code == 0, ran.output
    out = tmp_path / "toylib.json"
    exported = runner.invoke(cli, ["export", "latest", "--format", "tau2", "-o", str(out)])
    assert exported.exit_code == 0, exported.output
    assert {s["task_id"] for s in json.loads(out.read_text())["simulations"]} == {"0", "1"}

    imported = runner.invoke(cli, ["import-results", str(out)])
    assert imported.exit_code == 0, imported.output
    assert "(toylib/test, traits impatience=high)" in imported.output
    listed = json.loads(runner.invoke(cli, ["runs", "list", "--json"]).output)
    run = next(r for r in listed if r["status"] == "imported")
    assert (run["domain"], run["task_set"], run["agent"], run["user_strategy"]) == (
        "toylib",
        "test",
        "oracle",
        "scripted",
    )
    rescored = runner.invoke(cli, ["rescore", run["id"]])
    assert rescored.exit_code == 0, rescored.output

"""``tautrait check`` finds task defects by replaying gold actions."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tautrait_core.cli import cli


def test_sound_task_set_passes(toy_plugin) -> None:
    result = CliRunner().invoke(cli, ["check", "--domain", "toylib"])
    assert result.exit_code == 0, result.output
    assert "toylib/test: 3 tasks, 0 with problems" in result.output


def test_every_kind_of_defect_is_reported(toy_plugin) -> None:
    result = CliRunner().invoke(
        cli, ["check", "--domain", "toylib", "--task-set", "defective", "--json"]
    )
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["tasks"] == 2 and report["defective_tasks"] == 1
    problems = {(p["kind"], p["action_index"]) for p in report["reports"][0]["problems"]}
    assert problems == {
        ("unknown_user", None),
        ("unknown_tool", 0),
        ("invalid_arguments", 1),
        ("action_error", 2),
        ("no_state_change", None),
        ("output_unreachable", None),
    }
    unreachable = [
        p["detail"] for p in report["reports"][0]["problems"] if p["kind"] == "output_unreachable"
    ]
    assert unreachable == ["no tool output contains 'Narnia'"]  # 'Dune' is in get_book's output


def test_human_readable_listing(toy_plugin) -> None:
    result = CliRunner().invoke(cli, ["check", "--domain", "toylib", "--task-set", "defective"])
    assert "task 0 (user ghost_9):" in result.output
    assert "unknown_tool: action 0: no tool 'teleport'" in result.output

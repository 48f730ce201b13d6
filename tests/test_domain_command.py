"""``tautrait domain NAME``: the policy, the tools of both sides and the task sets."""

from __future__ import annotations

import dataclasses
import json

from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.domain.description import describe_domain
from tautrait_core.domain.domain import TaskSet
from tautrait_core.types.task import Task
from tests.plugins import toy_library


def test_domain_prints_policy_tools_with_parameters_and_task_sets(toy_plugin) -> None:
    result = CliRunner().invoke(cli, ["domain", "toylib"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    out = "\n".join(line.rstrip() for line in result.output.splitlines())
    assert out.startswith("Domain toylib  (agent-only tools; from (in-process))")
    assert "Identify the member by email before lending." in out
    assert "agent tools (7)" in out and "user tools" not in out
    assert "borrow_book  (write)\n  Lend a book to a member." in out
    assert "- days: integer, optional, default 14. Loan length in days." in out
    assert "- member_id: string, required. The member's id." in out
    assert "transfer_to_librarian  (read, ends the episode)" in out
    rows = [line.split() for line in out.splitlines() if "toy tasks" in line]
    assert rows == [["test", "(default)", "3", "tau-bench", "-", "toy", "tasks"]]
    assert max(len(line) for line in result.output.splitlines()) <= 80


def test_domain_json_lists_every_tool_parameter_and_task_set(toy_plugin) -> None:
    result = CliRunner().invoke(cli, ["domain", "toylib", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["policy"].startswith("You are a library assistant.")
    borrow = next(t for t in document["agent_tools"] if t["name"] == "borrow_book")
    assert borrow["parameters"]["days"] == {
        "type": "integer",
        "description": "Loan length in days.",
        "required": False,
        "default": 14,
    }
    assert document["user_tools"] == [] and document["dual_control"] is False
    sets = {s["name"]: (s["tasks"], s["default"]) for s in document["task_sets"]}
    assert sets == {"test": (3, True), "defective": (2, False)}


def test_an_unknown_domain_is_one_line_naming_the_installed_ones(toy_plugin) -> None:
    result = CliRunner().invoke(cli, ["domain", "nope"])
    assert result.exit_code == 1
    [line] = result.output.splitlines()
    assert line.startswith("Error: unknown domain 'nope' (available: toylib)")


def test_customer_tools_and_tau3_splits_of_an_imported_task_set() -> None:
    """A dual-control domain lists the customer's tools; a τ³ task set counts its tasks
    in each of its splits (as the import records them from ``split_tasks.json``)."""
    tasks = [Task(id=f"t{n}", user_id="ann_1", instruction="Borrow a book.") for n in range(3)]
    splits = {"train": ["t0", "t1", "other"], "test": ["t2"], "base": ["t0", "t1", "t2"]}
    tau2_set = TaskSet(name="tau2:toy", load_tasks=lambda: tasks, protocol="tau2", splits=splits)
    domain = dataclasses.replace(
        toy_library.build_domain(),
        name="tau2-toy",
        user_tools=[toy_library.get_book],
        task_sets={"tau2:toy": tau2_set},
        default_task_set="tau2:toy",
    )
    described = describe_domain(domain)
    assert described["dual_control"] is True
    assert [tool["name"] for tool in described["user_tools"]] == ["get_book"]
    assert described["task_sets"][0]["splits"] == {"train": 2, "test": 1, "base": 3}

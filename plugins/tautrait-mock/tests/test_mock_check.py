"""``tautrait check`` on τ²'s mock tasks grades each gold replay on the task's own criteria
and reports the task no agent can pass (its gold actions cannot meet its env assertion)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

from tautrait_core.testing import cli


def test_check_reports_the_task_whose_gold_replay_fails_its_criteria(
    tau2_imported: Callable[..., Path],
) -> None:
    tau2_imported("mock")
    result = CliRunner().invoke(
        cli, ["check", "--domain", "tau2-mock", "--task-set", "tau2:mock", "--json"]
    )
    assert result.exit_code == 1, result.output
    flagged = {
        found["task_name"]: [problem["kind"] for problem in found["problems"]]
        for found in json.loads(result.output)["reports"]
        if found["problems"]
    }
    # its message history creates the task, and no gold action completes it; the transfer
    # of impossible_task_1 counts as its gold action (a τ² transfer ends nothing)
    assert flagged == {"update_task_with_history_and_env_assertions": ["gold_replay_fails"]}


def test_an_imported_database_damaged_since_is_one_line_naming_it(
    tau2_imported: Callable[..., Path], tautrait_home: Path
) -> None:
    """``db.json`` still JSON but no longer a database: ``check`` (as ``run`` and
    ``rescore``) names it and how to import again, never the loader's traceback."""
    tau2_imported("mock")
    db_file = tautrait_home / "imports" / "tau2" / "mock" / "db.json"
    db_file.write_text("[]")
    result = CliRunner().invoke(cli, ["check", "--domain", "tau2-mock", "--task-set", "tau2:mock"])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.output.splitlines() == [
        f"Error: {db_file}: the imported data does not load (AttributeError: 'list' object "
        "has no attribute 'get'); import it again: tautrait import tau2 "
        "PATH_TO_TAU2_BENCH_CHECKOUT"
    ]

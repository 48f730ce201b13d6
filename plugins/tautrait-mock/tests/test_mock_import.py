"""``tautrait import tau2`` then ``tautrait run`` / ``tautrait check`` on ``tau2-mock``."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.testing import build_tau2_checkout, cli


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_import_makes_task_sets_runnable(
    tau2_reference: Path, tautrait_home: Path, tmp_path: Path
) -> None:
    checkout = build_tau2_checkout(tau2_reference, tmp_path / "ck", ["mock", "telecom"])
    result = invoke("import", "tau2", str(checkout))
    assert result.exit_code == 0, result.output
    assert "tau2:mock (9 tasks)" in result.output
    assert "tau2:telecom (114 tasks), tau2:telecom-small (20 tasks)" in result.output
    run = invoke("run", "--domain", "tau2-mock", "--task-set", "tau2:mock", "--agent", "oracle")
    assert run.exit_code == 0, run.output
    assert "9 episodes" in run.output


@pytest.mark.parametrize("name", ["tau2:mock", "tau2:nope"])
def test_unimported_task_set_names_the_import(tautrait_home: Path, name: str) -> None:
    result = invoke("check", "--domain", "tau2-mock", "--task-set", name)
    assert result.exit_code == 1
    assert "tautrait import tau2" in result.output


@pytest.mark.parametrize("command", ["run", "check"])
def test_a_damaged_imported_database_is_one_line_naming_it(
    imported_mock: Path, tautrait_home: Path, command: str
) -> None:
    database = tautrait_home / "imports" / "tau2" / "mock" / "db.json"
    database.write_text('{"tasks": {')
    args = ["--domain", "tau2-mock", *(["--agent", "oracle"] if command == "run" else [])]
    result = CliRunner().invoke(cli, [command, *args])
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"Error: {database}: the imported database is not valid JSON")
    assert "tautrait import tau2" in lines[0]

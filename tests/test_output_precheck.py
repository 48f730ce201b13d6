"""``tautrait run`` refuses an output path it cannot write before any episode runs, creating
nothing; a write that still fails at the end says the run is stored and how to write the
file again."""

from __future__ import annotations

import json
import os
import shlex
import sqlite3
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tautrait_core.cli import cli
from tautrait_core.files import write_problem

RUN = ("run", "--domain", "toylib", "--agent", "oracle")


def run(*extra: str) -> Result:
    return CliRunner(env={"COLUMNS": "80"}).invoke(cli, [*RUN, *extra])


def tree(root: Path) -> list[Path]:
    return sorted(root.rglob("*"))


@pytest.fixture
def blocker(tmp_path: Path) -> Path:
    """A plain file where a folder would have to be."""
    path = tmp_path / "blocker"
    path.write_text("not a folder")
    return path


def assert_refused(result: Result, flag: str, problem: str, home: Path) -> None:
    """One error line naming the option, and no run started (no database, no episodes)."""
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"Error: {flag} ") and problem in line and "nothing was run" in line
    assert "Run " not in result.output and "episodes" not in result.stderr
    assert not (home / "results.db").exists()


@pytest.mark.parametrize(
    ("flag", "where", "problem"),
    [
        ("--result-fp", "blocker/x.json", "is not a folder"),
        ("--result-fp", "blocker/deeper/x.json", "is not a folder"),
        ("--result-fp", ".", "it is a folder, not a file"),
        ("--log-dir", "blocker", "it is a file, not a folder"),
        ("--log-dir", "blocker/logs", "is not a folder"),
        ("--results-db", "blocker/r.db", "is not a folder"),
    ],
)
def test_an_unwritable_output_path_is_refused_before_anything_runs(
    toy_plugin, tmp_path: Path, blocker: Path, isolated_home: Path, flag, where, problem
) -> None:
    before = tree(tmp_path)
    result = run(flag, str(tmp_path / where))
    assert_refused(result, flag, problem, isolated_home)
    assert tree(tmp_path) == before


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux's /proc")
def test_a_path_in_a_place_that_takes_no_files_is_refused(toy_plugin, isolated_home) -> None:
    result = run("--result-fp", "/proc/x.json")
    assert_refused(result, "--result-fp", "cannot create files in /proc", isolated_home)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write anywhere")
def test_a_read_only_folder_is_refused(toy_plugin, tmp_path: Path, isolated_home) -> None:
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        result = run("--log-dir", str(folder / "logs"))
    finally:
        folder.chmod(0o700)
    assert_refused(result, "--log-dir", "Permission denied", isolated_home)


def test_the_precheck_creates_no_folder_when_the_run_is_refused(
    toy_plugin, tmp_path: Path, blocker: Path, isolated_home: Path
) -> None:
    wanted = tmp_path / "new" / "deeper" / "x.json"
    result = run("--result-fp", str(wanted), "--results-db", str(blocker / "r.db"))
    assert_refused(result, "--results-db", "is not a folder", isolated_home)
    assert not (tmp_path / "new").exists()


def test_writable_paths_in_folders_yet_to_make_are_written(toy_plugin, tmp_path: Path) -> None:
    result_file = tmp_path / "out" / "deeper" / "results.json"
    result = run("--result-fp", str(result_file), "--results-db", str(tmp_path / "db" / "r.db"))
    assert result.exit_code == 0, result.output
    assert len(json.loads(result_file.read_text())) == 3
    logs = run("--log-dir", str(tmp_path / "logs" / "today"))
    assert logs.exit_code == 0, logs.output
    assert len(list((tmp_path / "logs" / "today").glob("*.json"))) == 1


@pytest.mark.parametrize("flag", ["--result-fp", "--log-dir"])
def test_a_write_that_fails_at_the_end_says_the_run_is_stored_and_how_to_write_again(
    toy_plugin, tmp_path: Path, blocker: Path, monkeypatch: pytest.MonkeyPatch, flag: str
) -> None:
    """The place is fine when the run starts and gone when it ends (here: the precheck is
    skipped); the printed export command writes the file once the place is fixed."""
    monkeypatch.setattr("tautrait_core.files.write_problem", lambda *_, **__: None)
    database = tmp_path / "my db" / "r.db"
    target = blocker / "x.json" if flag == "--result-fp" else blocker / "logs"
    result = run(flag, str(target), "--results-db", str(database))
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.strip().splitlines()[-1:]
    with sqlite3.connect(database) as connection:
        ((run_id, status),) = connection.execute("SELECT id, status FROM runs").fetchall()
    assert status == "finished"
    assert line.startswith(f"Error: {blocker}/") and "cannot write the result list" in line
    assert f"Run {run_id} is stored; write the file again with: tautrait export {run_id}" in line

    command = shlex.split(line.split("write the file again with: ")[1])
    assert command[:4] == ["tautrait", "export", run_id, "--format"]
    assert command[-2:] == ["--results-db", str(database)]
    output = Path(command[command.index("-o") + 1])
    assert output.parent == target.parent if flag == "--result-fp" else output.parent == target
    blocker.unlink()  # the user fixes the place
    exported = CliRunner().invoke(cli, command[1:])
    assert exported.exit_code == 0, exported.output
    assert [record["task_id"] for record in json.loads(output.read_text())] == [0, 1, 2]


def test_write_problem_names_what_is_in_the_way_and_creates_nothing(
    tmp_path: Path, blocker: Path
) -> None:
    assert write_problem(tmp_path / "a" / "b" / "c.json") is None
    assert write_problem(tmp_path / "a" / "b", folder=True) is None
    assert write_problem(blocker) is None  # an existing file is appended to, not changed
    assert blocker.read_text() == "not a folder"
    assert write_problem(tmp_path) == "it is a folder, not a file"
    assert write_problem(blocker, folder=True) == "it is a file, not a folder"
    assert write_problem(blocker / "x.json") == f"{blocker} is not a folder"
    assert tree(tmp_path) == [blocker]

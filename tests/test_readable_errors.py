"""Bad input files give one readable error line naming the file, exit non-zero and change
nothing: trait files, result lists, results databases, imported task files, checkouts."""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tautrait_core import hookimpl
from tautrait_core.cli import cli
from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager
from tests.test_reports_import import upstream_record

IMPORT_SETTINGS = ("--traits", "none", "--task-set", "tau-trait:test")
"""What a published file named ``published_retail.json`` does not say itself."""


def assert_one_line_error(result: Result, *fragments: str) -> str:
    """The command failed with a click error of one line holding every fragment."""
    assert result.exit_code != 0, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def stored_runs(runner: CliRunner, results_db: Path) -> list[dict[str, Any]]:
    listed = runner.invoke(cli, ["runs", "list", "--json", "--results-db", str(results_db)])
    assert listed.exit_code == 0, listed.output
    return json.loads(listed.output)


# -- --traits-file -------------------------------------------------------------------------


def test_a_traits_file_that_is_not_utf8_is_one_line(toy_plugin, tmp_path: Path) -> None:
    path = tmp_path / "traits.json"
    path.write_bytes(b'{"impatience": "\xff\xfehigh"}')
    result = CliRunner().invoke(
        cli, ["run", "--domain", "toylib", "--agent", "oracle", "--traits-file", str(path)]
    )
    assert_one_line_error(result, str(path), "not UTF-8")


@pytest.mark.parametrize(
    ("content", "problem"),
    [("{not json", "not valid JSON"), ('{"patience": "high"}', "unknown trait 'patience'")],
)
def test_a_bad_traits_file_names_the_file(
    toy_plugin, tmp_path: Path, content: str, problem: str
) -> None:
    path = tmp_path / "traits.json"
    path.write_text(content)
    result = CliRunner().invoke(
        cli, ["run", "--domain", "toylib", "--agent", "oracle", "--traits-file", str(path)]
    )
    assert_one_line_error(result, str(path), problem)


# -- import-results and rescore on malformed result lists -----------------------------------


def malformed_result_lists(folder: Path) -> dict[str, tuple[Path, str]]:
    """``{case: (file, expected fragment)}``: every result list the issue found crashing."""
    good = upstream_record(0, 0, 1.0)
    cases: dict[str, tuple[bytes, str]] = {
        "not-utf8": (json.dumps([good]).encode().replace(b'"i"', b'"\xff"'), "not UTF-8"),
        "task-id-text": (json.dumps([{**good, "task_id": "x"}]).encode(), "task_id"),
        "reward-text": (json.dumps([{**good, "reward": "high"}]).encode(), "reward"),
        "task-id-huge": (
            json.dumps([good]).replace('"task_id": 0', '"task_id": 1e308').encode(),
            "task_id",
        ),
        "reward-nan": (json.dumps([{**good, "reward": float("nan")}]).encode(), "reward"),
        "task-id-nan": (json.dumps([{**good, "task_id": float("nan")}]).encode(), "task_id"),
        "deep": (b"[" * 200_000 + b"]" * 200_000, "nested too deeply"),
        "bad-message": (json.dumps([{**good, "traj": [{"role": 5}]}]).encode(), "record 0"),
    }
    files = {}
    for name, (content, fragment) in cases.items():
        path = folder / f"{name}_retail.json"
        path.write_bytes(content)
        files[name] = (path, fragment)
    return files


CASES = [
    "not-utf8",
    "task-id-text",
    "reward-text",
    "task-id-huge",
    "reward-nan",
    "task-id-nan",
    "deep",
    "bad-message",
]


@pytest.mark.parametrize("case", CASES)
def test_import_results_refuses_malformed_files_and_stores_nothing(
    tmp_path: Path, case: str
) -> None:
    runner = CliRunner()
    results_db = tmp_path / "results.db"
    path, fragment = malformed_result_lists(tmp_path)[case]
    result = runner.invoke(
        cli, ["import-results", str(path), *IMPORT_SETTINGS, "--results-db", str(results_db)]
    )
    assert_one_line_error(result, str(path), fragment)
    assert stored_runs(runner, results_db) == []


@pytest.mark.parametrize("case", CASES)
def test_rescore_refuses_malformed_files(toy_plugin, tmp_path: Path, case: str) -> None:
    path, fragment = malformed_result_lists(tmp_path)[case]
    result = CliRunner().invoke(cli, ["rescore", str(path), "--domain", "toylib"])
    assert_one_line_error(result, str(path), fragment)


def test_a_failed_import_leaves_no_orphan_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure while the episodes are stored rolls the whole import back."""
    from tautrait_core.store import rows

    runner = CliRunner()
    results_db = tmp_path / "results.db"
    path = tmp_path / "published_retail.json"
    path.write_text(json.dumps([upstream_record(0, 0, 1.0), upstream_record(1, 0, 0.0)]))
    original = rows.redact

    def fail_on_the_second_episode(text: str) -> str:
        if '"task_id":1,' in text:
            raise OSError("disk I/O error")
        return original(text)

    monkeypatch.setattr(rows, "redact", fail_on_the_second_episode)
    failed = runner.invoke(
        cli, ["import-results", str(path), *IMPORT_SETTINGS, "--results-db", str(results_db)]
    )
    assert failed.exit_code != 0
    assert stored_runs(runner, results_db) == []


# -- damaged results databases ---------------------------------------------------------------


def real_results_db(tmp_path: Path) -> Path:
    results_db = tmp_path / "results.db"
    path = tmp_path / "published_retail.json"
    path.write_text(json.dumps([upstream_record(i, 0, 1.0) for i in range(200)]))
    result = CliRunner().invoke(
        cli, ["import-results", str(path), *IMPORT_SETTINGS, "--results-db", str(results_db)]
    )
    assert result.exit_code == 0, result.output
    connection = sqlite3.connect(results_db)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the main file
    connection.close()
    return results_db


def junk_db(tmp_path: Path) -> Path:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not a database\n" * 100)
    return path


def truncated_db(tmp_path: Path) -> Path:
    results_db = real_results_db(tmp_path)
    content = results_db.read_bytes()
    results_db.write_bytes(content[: len(content) // 2])
    return results_db


def foreign_db(tmp_path: Path) -> Path:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE notes (body TEXT)")
        connection.execute("INSERT INTO notes VALUES ('mine')")
    connection.close()
    return path


@pytest.mark.parametrize("make", [junk_db, truncated_db, foreign_db])
@pytest.mark.parametrize("command", [["runs", "list"], ["report", "latest"], ["rescore", "latest"]])
def test_a_file_that_is_not_a_results_db_is_named_and_never_written(
    tmp_path: Path, make: Any, command: list[str]
) -> None:
    path = make(tmp_path)
    before = path.read_bytes()
    result = CliRunner().invoke(cli, [*command, "--results-db", str(path)])
    assert_one_line_error(result, str(path), "is not a tautrait results database")
    assert path.read_bytes() == before


def test_a_live_results_db_still_opens(tmp_path: Path) -> None:
    results_db = real_results_db(tmp_path)
    assert len(stored_runs(CliRunner(), results_db)) == 1


# -- imported task files ----------------------------------------------------------------------


class StubUpstream:
    """An upstream codec for the toy domain: its data is the toy seed data."""

    def read_data(self, folder: Path) -> dict[str, Any]:
        return {}

    def to_rows(self, data: dict[str, Any]) -> list[Any]:
        from tests.plugins import toy_library

        return toy_library.seed_rows()

    def export(self, db: Any) -> dict[str, Any]:
        return {}


class UpstreamToyPlugin:
    @hookimpl
    def register_domains(self, register: Any) -> None:
        from tests.plugins import toy_library

        domain = toy_library.build_domain()
        register(dataclasses.replace(domain, name="toyup", upstream=StubUpstream()))


@pytest.fixture
def upstream_toy(isolated_home: Path) -> Iterator[Path]:
    """A domain with upstream support; yields its folder of imported tau-trait tasks."""
    reset_plugin_manager()
    get_plugin_manager().register(UpstreamToyPlugin(), name="toyup")
    folder = isolated_home / "imports" / "tau-trait" / "toyup"
    (folder / "data").mkdir(parents=True)
    try:
        yield folder
    finally:
        get_plugin_manager().unregister("toyup")
        reset_plugin_manager()


IMPORTED_TASK_FILES = {
    "empty": (b"", "is empty"),
    "truncated": (b'[{"user_id": "ann_1", "instruction": "Borrow', "not valid JSON"),
    "not-utf8": (b'[{"user_id": "\xff"}]', "is not UTF-8 text"),
    "bad-task": (
        json.dumps([{"user_id": "ann_1", "instruction": "x"}, {"user_id": "bo_2"}]).encode(),
        "task 1 is invalid (instruction",
    ),
}


@pytest.mark.parametrize("case", list(IMPORTED_TASK_FILES))
@pytest.mark.parametrize(
    "command",
    [
        ["tasks", "--domain", "toyup", "--task-set", "tau-trait:test"],
        ["tasks", "--domain", "toyup"],
        ["check", "--domain", "toyup", "--task-set", "tau-trait:test"],
        ["run", "--domain", "toyup", "--task-set", "tau-trait:test", "--agent", "oracle"],
    ],
)
def test_a_damaged_imported_task_file_is_named(
    upstream_toy: Path, tmp_path: Path, case: str, command: list[str]
) -> None:
    content, fragment = IMPORTED_TASK_FILES[case]
    task_file = upstream_toy / "tasks_test.json"
    task_file.write_bytes(content)
    if command[0] == "run":
        command = [*command, "--results-db", str(tmp_path / "results.db")]
    result = CliRunner().invoke(cli, command)
    message = assert_one_line_error(result, str(task_file), fragment)
    assert "tautrait import tau-trait" in message


# -- tautrait import tau-trait -------------------------------------------------------------


def upstream_checkout(root: Path, task_source: str) -> Path:
    domain = root / "tau_trait" / "envs" / "toyup"
    (domain / "data").mkdir(parents=True)
    (domain / "data" / "members.json").write_text("{}")
    (domain / "tasks_test.py").write_text(task_source)
    return root


def test_import_meets_a_fifo_and_reports_it(upstream_toy: Path, tmp_path: Path) -> None:
    checkout = upstream_checkout(
        tmp_path / "checkout",
        'TASKS = [Task(user_id="ann_1", instruction="Borrow Dune.", actions=[], outputs=[])]',
    )
    fifo = checkout / "tau_trait" / "envs" / "toyup" / "data" / "pipe.json"
    os.mkfifo(fifo)
    result = CliRunner().invoke(cli, ["import", "tau-trait", str(checkout)])
    assert_one_line_error(result, f"{fifo.parent}: refused pipe.json (a FIFO)")


def test_import_skips_a_task_with_a_bad_action(upstream_toy: Path, tmp_path: Path) -> None:
    source = """TASKS = [
    Task(user_id="ann_1", instruction="Borrow Dune.", actions=[Action(kwargs={})], outputs=[]),
    Task(user_id="bo_2", instruction="Borrow Narnia.", actions=[], outputs=[]),
]"""
    checkout = upstream_checkout(tmp_path / "checkout", source)
    result = CliRunner().invoke(cli, ["import", "tau-trait", str(checkout)])
    assert result.exit_code == 0, result.output
    assert "tau-trait:test (1 tasks)" in result.output
    assert "task 0 (" in result.output and "skipped" in result.output
    listed = CliRunner().invoke(
        cli, ["tasks", "--domain", "toyup", "--task-set", "tau-trait:test", "--json"]
    )
    assert [task["user_id"] for task in json.loads(listed.output)] == ["bo_2"]


def test_import_names_a_task_file_that_is_not_utf8(upstream_toy: Path, tmp_path: Path) -> None:
    checkout = upstream_checkout(tmp_path / "checkout", "")
    task_file = checkout / "tau_trait" / "envs" / "toyup" / "tasks_test.py"
    task_file.write_bytes(b"TASKS = [\xff]")
    result = CliRunner().invoke(cli, ["import", "tau-trait", str(checkout)])
    assert_one_line_error(result, str(task_file), "not UTF-8")


# -- files tautrait writes, and its data folder ---------------------------------------------


def stored_run(runner: CliRunner) -> str:
    """A small finished run in the test's home; its id."""
    result = runner.invoke(cli, ["run", "--domain", "toylib", "--agent", "oracle"])
    assert result.exit_code == 0, result.output
    return stored_runs(runner, Path(os.environ["TAUTRAIT_HOME"]) / "results.db")[0]["id"]


@pytest.mark.parametrize(
    ("command", "what"),
    [
        (["export", "RUN", "--format", "tau-bench"], "the export"),
        (["export", "RUN", "--format", "tau2"], "the export"),
        (["export", "RUN", "--format", "sft", "--outcome", "all"], "the export"),
        (["report", "RUN", "--html"], "the report"),
    ],
)
def test_an_output_that_cannot_be_written_is_one_line_naming_it(
    toy_plugin, tmp_path: Path, command: list[str], what: str
) -> None:
    runner = CliRunner()
    run_id = stored_run(runner)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    target = blocker / "out.json"  # its folder is a file
    option = [] if "--html" in command else ["-o"]
    arguments = [run_id if part == "RUN" else part for part in command]
    result = runner.invoke(cli, [*arguments, *option, str(target)])
    assert_one_line_error(result, f"{target}: cannot write {what}")
    written = tmp_path / "new" / "folder" / "out.json"
    result = runner.invoke(cli, [*arguments, *option, str(written)])
    assert result.exit_code == 0, result.output
    assert written.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "command",
    [["runs", "list"], ["keys", "list"], ["run", "--domain", "toylib", "--agent", "oracle"]],
)
def test_a_home_that_is_a_file_is_one_line_naming_it(
    toy_plugin, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    home = tmp_path / "home-file"
    home.write_text("")
    monkeypatch.setenv("TAUTRAIT_HOME", str(home))
    result = CliRunner().invoke(cli, command)
    assert_one_line_error(result, f"{home}: cannot keep tautrait's data there", "TAUTRAIT_HOME")


def test_a_traits_file_a_windows_editor_saved_with_a_byte_order_mark_is_read(
    toy_plugin, tmp_path: Path
) -> None:
    path = tmp_path / "traits.json"
    path.write_bytes(b'\xef\xbb\xbf{"impatience": "high"}')
    runner = CliRunner()
    result = runner.invoke(
        cli, ["run", "--domain", "toylib", "--agent", "oracle", "--traits-file", str(path)]
    )
    assert result.exit_code == 0, result.output
    [run] = stored_runs(runner, Path(os.environ["TAUTRAIT_HOME"]) / "results.db")
    assert run["traits"] == "impatience=high", run

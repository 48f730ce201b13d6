"""The follow-up commands that run, sweep, report and import-results print work when pasted:
with a results database other than the default one, each carries ``--results-db``."""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
import socket
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tautrait_core.cli import cli
from tests.test_reports_import import upstream_record

RUN_ID = re.compile(r"\d{8}-\d{6}-[0-9a-f]{4}")


def narrow() -> CliRunner:
    return CliRunner(env={"COLUMNS": "80"})


def database_in(tmp_path: Path) -> Path:
    """A results database in a folder whose name needs shell quoting and holds brackets
    (which rich would read as markup)."""
    folder = tmp_path / "my results [v2]"
    folder.mkdir()
    return folder / "r.db"


def printed_commands(output: str) -> list[list[str]]:
    """The ``tautrait ...`` commands in ``output`` (one per line, wherever on the line), as
    the arguments after ``tautrait``."""
    commands = []
    for line in output.splitlines():
        start = line.find("tautrait ")
        if start >= 0 and (RUN_ID.search(line) or "tautrait sweep --resume" in line):
            commands.append(shlex.split(line[start:])[1:])
    return commands


def run_oracle(runner: CliRunner, *extra: str) -> Result:
    result = runner.invoke(cli, ["run", "--domain", "toylib", "--agent", "oracle", *extra])
    assert result.exit_code == 0, result.output
    return result


def assert_fits_80_columns(output: str) -> None:
    """Only the lines holding a command with the (long) database path may be wider (and
    the heading of a run with long settings)."""
    too_wide = [
        line
        for line in output.splitlines()
        if len(line) > 80 and not line.startswith(("Results: ", "  tautrait ", "Run "))
    ]
    assert not too_wide, too_wide


def runs_in(database: Path) -> list[str]:
    with sqlite3.connect(database) as connection:
        return [row[0] for row in connection.execute("SELECT id FROM runs")]


def test_run_summary_commands_carry_the_results_db_and_work(toy_plugin, tmp_path: Path) -> None:
    database = database_in(tmp_path)
    runner = narrow()
    output = run_oracle(runner, "--results-db", str(database)).stdout
    (run_id,) = runs_in(database)
    quoted = shlex.quote(str(database))
    assert f"  tautrait report {run_id} --results-db {quoted}\n" in output
    assert f"  tautrait export {run_id} --format tau-bench --results-db {quoted}\n" in output
    assert f"Results: {database}  (run {run_id})" in output
    assert_fits_80_columns(output)

    report, export = printed_commands(output)
    reported = runner.invoke(cli, report)
    assert reported.exit_code == 0, reported.output
    assert f"Run {run_id}" in reported.stdout and "Average reward: 1.000" in reported.stdout
    exported = runner.invoke(cli, export)
    assert exported.exit_code == 0, exported.output
    assert len(json.loads(exported.stdout)) == 3


def test_default_database_hints_stay_as_they_were(toy_plugin, isolated_home: Path) -> None:
    runner = narrow()
    for extra in ((), ("--results-db", str(isolated_home / "results.db"))):
        output = run_oracle(runner, *extra).stdout
        run_id = RUN_ID.findall(output)[-1]
        assert output.endswith(
            f"Results: {isolated_home / 'results.db'}  (run {run_id})\n"
            f"  tautrait report {run_id}\n"
            f"  tautrait export {run_id} --format tau-bench\n"
        )
        assert "--results-db" not in output


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_error_hints_carry_the_results_db_and_resume_the_same_run(
    toy_plugin, tmp_path: Path
) -> None:
    """Every episode fails (no model server): the re-run and report hints of run and
    report name the database, and the printed resume command continues that run."""
    database = database_in(tmp_path)
    runner = narrow()
    arguments = ["run", "--domain", "toylib", "--agent", "tool-calling", "--task-ids", "0"]
    arguments += ["--agent-model", "openai/none", "--user", "scripted", "--max-retries", "0"]
    arguments += ["--agent-api-base", f"http://127.0.0.1:{closed_port()}/v1"]
    failed = runner.invoke(cli, [*arguments, "--results-db", str(database)])
    assert failed.exit_code == 1, failed.output
    (run_id,) = runs_in(database)
    resume = f"tautrait run --resume {run_id} --results-db {shlex.quote(str(database))}"
    assert f"re-run by:\n  {resume}\n" in failed.stdout
    see = f"tautrait report {run_id} --results-db {shlex.quote(str(database))}"
    assert f"errors with:\n  {see}\n" in failed.stderr
    assert_fits_80_columns(failed.output)

    commands = printed_commands(failed.output)
    assert ["run", "--resume", run_id, "--results-db", str(database)] in commands
    assert ["report", run_id, "--results-db", str(database)] in commands
    reported = runner.invoke(cli, ["report", run_id, "--results-db", str(database)])
    assert reported.exit_code == 0, reported.output
    assert f"re-run by:\n  {resume}\n" in reported.stdout
    resumed = runner.invoke(cli, ["run", "--resume", run_id, "--results-db", str(database)])
    assert f"Run {run_id}" in resumed.stdout and "no run" not in resumed.output
    assert runs_in(database) == [run_id]


def test_stale_run_hints_of_runs_list_and_report_resume_it(toy_plugin, tmp_path: Path) -> None:
    """A run whose process died with an episode not run: runs list and report say how to
    continue it, and the printed command does, in the same database."""
    database = database_in(tmp_path)
    runner = narrow()
    run_oracle(runner, "--results-db", str(database))
    (run_id,) = runs_in(database)
    with sqlite3.connect(database) as connection:
        connection.execute("DELETE FROM episodes WHERE task_id = 2")
        connection.execute("UPDATE runs SET status = 'running'")
    resume = ["run", "--resume", run_id, "--results-db", str(database)]

    listing = runner.invoke(cli, ["runs", "list", "--results-db", str(database)])
    assert listing.exit_code == 0, listing.output
    assert f"Continue it with:\n  {shlex.join(['tautrait', *resume])}\n" in listing.stdout
    assert printed_commands(listing.stdout) == [resume]
    reported = runner.invoke(cli, ["report", run_id, "--results-db", str(database)])
    assert reported.exit_code == 0, reported.output
    assert f"Continue with:\n  {shlex.join(['tautrait', *resume])}\n" in reported.stdout
    assert printed_commands(reported.stdout) == [resume]
    assert_fits_80_columns(listing.stdout + reported.stdout)

    resumed = runner.invoke(cli, resume)
    assert resumed.exit_code == 0, resumed.output
    assert "Episodes: 3 (3 scored, 0 errors)" in resumed.stdout
    assert runs_in(database) == [run_id]


def test_stopped_run_hint_carries_the_results_db(
    toy_plugin, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tautrait_core.run import runner as run_module

    execute = run_module.execute

    def stopped(*args: object, **kwargs: object) -> object:
        report = execute(*args, **kwargs)
        return dataclasses.replace(report, stop_reason="--max-cost $0.0100 reached")

    monkeypatch.setattr(run_module, "execute", stopped)
    database = database_in(tmp_path)
    output = run_oracle(narrow(), "--results-db", str(database)).stdout
    (run_id,) = runs_in(database)
    quoted = shlex.quote(str(database))
    assert (
        "Stopped early: --max-cost $0.0100 reached. Continue with:\n"
        f"  tautrait run --resume {run_id} --results-db {quoted} --max-cost <higher limit>\n"
    ) in output
    monkeypatch.setattr(run_module, "execute", execute)
    resume = printed_commands(output.replace("<higher limit>", "1"))[0]
    resumed = narrow().invoke(cli, resume)
    assert resumed.exit_code == 0, resumed.output
    assert f"Run {run_id}" in resumed.stdout


def test_ctrl_c_before_the_run_is_set_up_prints_a_resume_with_the_results_db(
    toy_plugin, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from types import SimpleNamespace

    from tautrait_core.run import runner as run_module

    def interrupted(config: object, progress: object, **_: object) -> object:
        progress.started(SimpleNamespace(id="20260101-000000-abcd"), 3, 0)  # type: ignore[attr-defined]
        raise KeyboardInterrupt

    monkeypatch.setattr(run_module, "execute", interrupted)
    database = database_in(tmp_path)
    runner = narrow()
    result = runner.invoke(cli, ["run", "--domain", "toylib", "--results-db", str(database)])
    assert result.exit_code == 130, result.output
    assert (
        "Interrupted. Finished episodes are saved. Resume with:\n"
        f"  tautrait run --resume 20260101-000000-abcd --results-db {shlex.quote(str(database))}"
    ) in result.stderr


SWEEP = """
name = "hint-grid"
[base]
domain = "toylib"
agent = "oracle"
[grid]
seed = [1, 2]
"""


def test_sweep_resume_hint_carries_the_results_db_and_works(
    toy_plugin, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tautrait_core.run import sweeps

    run_sweep = sweeps.run_sweep

    def interrupted(*args: object, **kwargs: object) -> object:
        return dataclasses.replace(run_sweep(*args, **kwargs), interrupted=True)

    monkeypatch.setattr(sweeps, "run_sweep", interrupted)
    file = tmp_path / "grid.toml"
    file.write_text(SWEEP)
    database = database_in(tmp_path)
    runner = narrow()
    result = runner.invoke(cli, ["sweep", str(file), "--results-db", str(database)])
    assert result.exit_code == 130, result.output
    assert (
        "Finished episodes are saved. Resume with:\n"
        f"  tautrait sweep --resume hint-grid --results-db {shlex.quote(str(database))}\n"
    ) in result.stdout
    assert_fits_80_columns(result.stdout)

    monkeypatch.setattr(sweeps, "run_sweep", run_sweep)
    (resume,) = printed_commands(result.stdout)
    resumed = runner.invoke(cli, resume)
    assert resumed.exit_code == 0, resumed.output
    assert "sweep hint-grid" in resumed.stdout and "Resume with" not in resumed.stdout


def test_sweep_hint_with_the_default_database_is_unchanged(
    toy_plugin, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tautrait_core.run import sweeps

    def interrupted(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(sweeps, "run_sweep", interrupted)
    file = tmp_path / "grid.toml"
    file.write_text(SWEEP)
    result = narrow().invoke(cli, ["sweep", str(file)])
    assert result.exit_code == 130, result.output
    assert result.stderr.endswith(
        "Interrupted. Finished episodes are saved. Resume with: tautrait sweep --resume hint-grid\n"
    )


def test_import_results_hint_carries_the_results_db(toy_plugin, tmp_path: Path) -> None:
    published = tmp_path / "published_toylib.json"
    published.write_text(json.dumps([upstream_record(0, 0, 1.0), upstream_record(1, 0, 0.0)]))
    database = database_in(tmp_path)
    runner = narrow()
    arguments = ["import-results", str(published), "--traits", "none"]
    result = runner.invoke(cli, [*arguments, "--results-db", str(database)])
    assert result.exit_code == 0, result.output
    (run_id,) = runs_in(database)
    report = f"tautrait report {run_id} --results-db {shlex.quote(str(database))}"
    assert f"Report it with:\n  {report}\n" in result.stdout
    (command,) = printed_commands(result.stdout)
    reported = runner.invoke(cli, command)
    assert reported.exit_code == 0, reported.output
    assert f"Run {run_id}" in reported.stdout

"""``tautrait sweep``: a grid of runs from a TOML file as one resumable job (toy domain)."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tests.distributions import run_tautrait, tautrait_command, tautrait_env, toy_site
from tests.plugins.toy_library import TASKS
from tests.test_crash_safety import stored_pairs, wait_for

GRID = """
name = "toy-grid"
[base]
agent = "oracle"
num_trials = 2
concurrency = 2
[grid]
domain = ["toylib"]
traits = ["", "impatience=high"]
seed = [1, 2]
"""
EPISODES = len(TASKS) * 2


def write(tmp_path: Path, text: str, name: str = "grid.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def sweep(*arguments: str) -> object:
    return CliRunner(env={"COLUMNS": "200"}).invoke(cli, ["sweep", *arguments])


def table(database: Path, query: str) -> list[tuple]:
    with sqlite3.connect(database) as connection:
        return connection.execute(query).fetchall()


def point_runs(database: Path, name: str = "toy-grid") -> dict[int, str]:
    rows = table(database, f"SELECT point_index, run_id FROM sweep_points WHERE sweep = '{name}'")
    return dict(rows)


def assert_one_result_per_episode(database: Path, runs: dict[int, str], trials: int) -> None:
    expected = {(task, trial) for task in range(len(TASKS)) for trial in range(trials)}
    for run_id in runs.values():
        pairs = table(database, f"SELECT task_id, trial FROM episodes WHERE run_id = '{run_id}'")
        assert len(pairs) == len(set(pairs)), "an episode was stored twice"
        assert set(pairs) == expected
    assert len(table(database, "SELECT id FROM runs")) == len(runs)


def test_grid_runs_every_point_and_a_rerun_skips_them(
    toy_plugin, tmp_path: Path, isolated_home: Path
) -> None:
    path = write(tmp_path, GRID)
    result = sweep(str(path))
    assert result.exit_code == 0, result.output
    database = isolated_home / "results.db"
    runs = point_runs(database)
    assert sorted(runs) == [0, 1, 2, 3] and all(runs.values())
    assert_one_result_per_episode(database, runs, trials=2)
    for run_id in runs.values():
        assert run_id in result.output
    assert "pass^2" in result.output and "impatience=high" in result.output
    configs = [json.loads(row[0]) for row in table(database, "SELECT config FROM runs")]
    assert sorted((c["seed"], c["traits"].get("impatience", -1)) for c in configs) == [
        (1, -1),
        (1, 2),
        (2, -1),
        (2, 2),
    ]

    again = sweep(str(path), "--json")
    assert again.exit_code == 0, again.output
    report = json.loads(again.output)
    assert [point["run_id"] for point in report["points"]] == [runs[i] for i in range(4)]
    assert all(point["metrics"]["average_reward"] == 1.0 for point in report["points"])
    assert point_runs(database) == runs  # nothing new started

    resumed = sweep("--resume", "toy-grid", "--json")
    assert resumed.exit_code == 0, resumed.output
    assert len(table(database, "SELECT id FROM runs")) == 4


def test_a_run_started_but_not_yet_linked_is_adopted(
    toy_plugin, tmp_path: Path, isolated_home: Path
) -> None:
    path = write(tmp_path, GRID)
    assert sweep(str(path)).exit_code == 0
    database = isolated_home / "results.db"
    runs = point_runs(database)
    with sqlite3.connect(database) as connection:  # killed between storing and linking
        connection.execute("UPDATE sweep_points SET run_id = NULL WHERE point_index = 1")
    assert sweep(str(path)).exit_code == 0
    assert point_runs(database) == runs
    assert len(table(database, "SELECT id FROM runs")) == 4


def test_dry_run_lists_points_and_runs_nothing(
    toy_plugin, tmp_path: Path, isolated_home: Path
) -> None:
    path = write(tmp_path, GRID)
    result = sweep(str(path), "--dry-run", "--json")
    assert result.exit_code == 0, result.output
    plan = json.loads(result.output)
    assert [point["action"] for point in plan["points"]] == ["start"] * 4
    assert plan["points"][3]["values"] == {
        "domain": "toylib",
        "traits": "impatience=high",
        "seed": 2,
    }
    database = isolated_home / "results.db"
    assert table(database, "SELECT name FROM sweeps") == []
    assert table(database, "SELECT id FROM runs") == []
    text = sweep(str(path), "--dry-run")
    assert "24 episodes would run" in text.output


def test_task_ids_are_written_as_on_the_command_line(
    toy_plugin, tmp_path: Path, isolated_home: Path
) -> None:
    for written in ('"0,2"', '"0 2"', "[0, 2]"):
        path = write(tmp_path, GRID.replace("[base]", f"[base]\ntask_ids = {written}"))
        result = sweep(str(path), "--dry-run")
        assert result.exit_code == 0, result.output
        assert "16 episodes would run" in result.output  # 4 points x 2 tasks x 2 trials
    path = write(tmp_path, GRID.replace("[base]", '[base]\ntask_ids = "0,two"'))
    result = sweep(str(path), "--dry-run")
    assert result.exit_code != 0
    assert "task_ids: task ids are integers, e.g. '0,3,7'; got '0,two'" in result.output


def test_changed_file_is_refused_and_new_starts_over(
    toy_plugin, tmp_path: Path, isolated_home: Path
) -> None:
    path = write(tmp_path, GRID)
    assert sweep(str(path)).exit_code == 0
    # execution options may change between invocations
    write(tmp_path, GRID.replace("concurrency = 2", "concurrency = 3"))
    assert sweep(str(path)).exit_code == 0
    write(tmp_path, GRID.replace("seed = [1, 2]", "seed = [1, 3]"))
    refused = sweep(str(path))
    assert refused.exit_code != 0
    assert "sweep 'toy-grid'" in refused.output and "--new" in refused.output
    database = isolated_home / "results.db"
    assert len(table(database, "SELECT id FROM runs")) == 4

    fresh = sweep(str(path), "--new")
    assert fresh.exit_code == 0, fresh.output
    assert "toy-grid-2" in fresh.output
    assert_one_result_per_episode(
        database,
        point_runs(database)
        | {4 + i: run for i, run in point_runs(database, "toy-grid-2").items()},
        trials=2,
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "name = 'x'\n[base]\nagent_modle = 'gpt-4o'\n[grid]\ndomain = ['toylib']",
            ("[base] agent_modle is not a run option; did you mean agent_model?",),
        ),
        (
            "name = 'x'\n[base]\nnum_trials = 'four'\n[grid]\ndomain = ['toylib']",
            ("[base] num_trials",),
        ),
        (
            "name = 'x'\n[base]\nagent = 'oracle'\n[grid]\ndomain = ['toylib', 'nowhere']",
            (
                "grid point 1 (domain='nowhere')",
                "unknown domain 'nowhere'",
            ),
        ),
        (
            "name = 'x'\n[base]\nagent = 'oracle'\ndomain = 'toylib'\n"
            "[grid]\ntraits = ['', 'grumpy=1']",
            (
                "grid point 1 (traits='grumpy=1')",
                "grumpy",
            ),
        ),
        (
            "name = 'x'\n[base]\ndomain = 'toylib'\n[grid]\nagent = ['oracle', 'tool-calling']",
            (
                "grid point 1 (agent='tool-calling')",
                "--agent-model",
            ),
        ),
        ("name = 'x'\n[grid]\ndomain = 'toylib'", ("[grid] domain must be a non-empty list",)),
        ("name = 'x'\n[base]\nresults_db = 'r.db'", ("--results-db on the command line",)),
        ("[grid]\ndomain = ['toylib']", ("name must be a non-empty string",)),
        ("name = 'x'\nmodels = 1", ("unknown top-level key(s) models",)),
        ("name = 'x\n", ("bad.toml:2:1: bad TOML: ",)),
        ("a = " + "[" * 100_000 + "]" * 100_000, ("the sweep file is nested too deeply",)),
    ],
)
def test_bad_files_are_clear_errors_before_anything_runs(
    toy_plugin, tmp_path: Path, isolated_home: Path, text: str, expected: tuple[str, ...]
) -> None:
    path = write(tmp_path, text, "bad.toml")
    result = sweep(str(path))
    assert result.exit_code != 0
    assert str(path) in result.output
    for part in expected:
        assert part in result.output, result.output
    database = isolated_home / "results.db"
    if database.exists():
        assert table(database, "SELECT id FROM runs") == []
        assert table(database, "SELECT name FROM sweeps") == []


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "name = 'x'\n[grid]\nagent = ['oracle', 'tool-calling']\n",
            "Error: bad.toml has 1 problem(s); nothing was run:\n"
            '  no domain: add domain = "NAME" to [base] (tautrait plugins lists them)\n',
        ),
        (
            "[base\ndomain = 'toylib'\n",
            "Error: bad.toml:1:6: bad TOML: expected ']' at the end of a table declaration\n",
        ),
        ("name = 'x'\nagent = [1,", "Error: bad.toml:2:12: bad TOML: invalid value\n"),
    ],
    ids=["no-domain", "broken", "broken-at-the-end"],
)
def test_a_file_without_a_domain_or_with_bad_toml_says_so_in_80_columns(
    toy_plugin, tmp_path: Path, isolated_home: Path, text: str, said: str, monkeypatch
) -> None:
    """Said in the CLI's words, once (was: each point's 'RunConfig(domain=...)', or
    tomllib's message after the path on a line of 117 characters)."""
    monkeypatch.chdir(tmp_path)  # the file is named as given, relative
    Path("bad.toml").write_text(text)
    result = CliRunner(env={"COLUMNS": "80"}).invoke(cli, ["sweep", "bad.toml"])
    assert result.exit_code != 0
    assert result.output == said
    assert max(len(line) for line in result.output.splitlines()) <= 80


def test_a_sweep_file_that_is_not_utf8_is_named(toy_plugin, tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes("name = 'café'\n".encode("latin-1"))
    result = sweep(str(path))
    assert result.exit_code == 1
    assert f"{path}: the sweep file is not UTF-8 text (byte" in result.output


def test_resume_of_an_unknown_sweep_is_a_clear_error(toy_plugin) -> None:
    result = sweep("--resume", "nothing")
    assert result.exit_code != 0 and "no sweep 'nothing'" in result.output


SCRIPTED_GRID = """
name = "scripted-grid"
[base]
domain = "toylib"
agent = "tool-calling"
agent_model = "openai/scripted"
agent_api_base = "{url}"
user = "llm"
user_model = "openai/scripted"
user_api_base = "{url}"
num_trials = 2
concurrency = 2
[grid]
seed = [1, 2, 3]
"""


@pytest.fixture
def slow_server():
    from tautrait_core.scripted.scripts import GoldScript
    from tautrait_core.scripted.server import ScriptedModelServer

    with ScriptedModelServer(GoldScript(TASKS, ["transfer_to_librarian"]), latency_s=0.1) as server:
        yield server


def start_sweep(tmp_path: Path, server_url: str, database: Path, **popen: object):
    path = write(tmp_path, SCRIPTED_GRID.format(url=server_url))
    site = toy_site(tmp_path / "site")
    command = tautrait_command("sweep", str(path), "--results-db", str(database))
    process = subprocess.Popen(
        command, env=tautrait_env(site, TAUTRAIT_HOME=str(tmp_path / "home")), **popen
    )
    return path, site, process


def test_sigkill_mid_sweep_then_rerun_completes_once(tmp_path: Path, slow_server) -> None:
    database = tmp_path / "results.db"
    path, site, process = start_sweep(
        tmp_path,
        slow_server.base_url,
        database,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:  # killed in the second point's run
        wait_for(lambda: len(stored_pairs(database)) >= EPISODES + 2)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        process.kill()
    assert len(stored_pairs(database)) < 3 * EPISODES
    rerun = run_tautrait(
        site,
        "sweep",
        str(path),
        "--results-db",
        str(database),
        TAUTRAIT_HOME=str(tmp_path / "home"),
    )
    assert rerun.returncode == 0, rerun.stderr
    runs = point_runs(database, "scripted-grid")
    assert sorted(runs) == [0, 1, 2]
    assert_one_result_per_episode(database, runs, trials=2)
    assert {row[0] for row in table(database, "SELECT outcome FROM episodes")} == {"pass"}


def test_ctrl_c_stops_the_sweep_and_prints_how_to_resume(tmp_path: Path, slow_server) -> None:
    database = tmp_path / "results.db"
    _, site, process = start_sweep(
        tmp_path,
        slow_server.base_url,
        database,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for(lambda: len(stored_pairs(database)) >= 2)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "tautrait sweep --resume scripted-grid" in stdout
    assert len(stored_pairs(database)) < 3 * EPISODES
    resumed = run_tautrait(
        site, "sweep", "--resume", "scripted-grid", "--results-db", str(database)
    )
    assert resumed.returncode == 0, resumed.stderr
    assert_one_result_per_episode(database, point_runs(database, "scripted-grid"), trials=2)

"""``tautrait view``, driven for real: tmux runs it in an 80x24 terminal, ``send-keys``
types, ``capture-pane`` reads the screen."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.store.results import ResultStore
from tests.tmux_terminal import Terminal

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def results_db(toy_plugin: object, tmp_path: Path) -> Path:
    """A results database with two real offline runs of the toy library: the oracle
    (every episode passes), then the oracle cut off after one step (every one fails)."""
    db = tmp_path / "results.db"
    oracle = ["run", "--domain", "toylib", "--agent", "oracle", "--results-db", str(db)]
    assert CliRunner().invoke(cli, oracle).exit_code == 0
    cut = [*oracle, "--max-steps", "1", "--num-trials", "2"]
    assert CliRunner().invoke(cli, cut).exit_code == 0
    return db


@pytest.fixture
def start_view(results_db: Path, isolated_home: Path) -> Iterator[Callable[..., Terminal]]:
    """Starts ``tautrait view --results-db DB ARGS...`` in tmux (stopped afterwards)."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    started: list[Terminal] = []

    def start(*arguments: str) -> Terminal:
        view = [sys.executable, "-m", "tautrait_core", "view", "--results-db", str(results_db)]
        env = f"TAUTRAIT_HOME={shlex.quote(str(isolated_home))} TAUTRAIT_LOAD_PLUGINS= TERM=xterm"
        command = f"cd {shlex.quote(str(ROOT))} && env {env} {shlex.join([*view, *arguments])}"
        command += "; echo VIEW-EXIT $?; sleep 600"
        started.append(Terminal(command, f"tautrait-view-{os.getpid()}-{len(started)}"))
        return started[-1]

    try:
        yield start
    finally:
        for terminal in started:
            terminal.close()


@pytest.fixture
def terminal(start_view: Callable[..., Terminal]) -> Terminal:
    """``tautrait view --results-db DB`` running in tmux."""
    return start_view()


def test_view_picks_a_run_filters_failures_and_reads_a_transcript(terminal: Terminal) -> None:
    runs = terminal.wait_for("Runs (1-2 of 2)", "open run")
    numbers = {line.split()[-1]: line.split()[0] for line in runs.splitlines()[3:5]}
    assert set(numbers) == {"3/0/0", "0/6/0"} and "toylib/test" in runs
    terminal.type(numbers["3/0/0"])
    terminal.wait_for(": 3 episodes (1-3 of 3)", "f: failed only")
    terminal.type("f")
    passing = terminal.wait_for(": 0 of 3 episodes failed or errored (none)", "b: runs")
    assert " pass " not in passing
    terminal.type("b")
    terminal.wait_for("Runs (1-2 of 2)")
    terminal.type(numbers["0/6/0"])
    terminal.type("f")
    failed = terminal.wait_for(": 6 of 6 episodes failed or errored (1-6 of 6)", "b: runs")
    rows = [line.split() for line in failed.splitlines() if line[:3].strip().isdigit()]
    assert [row[1:4] for row in rows[:2]] == [["0", "0", "fail"], ["0", "1", "fail"]]
    assert {row[-1] for row in rows} == {"database", "outputs", "max_steps"}
    terminal.type("1")
    episode = terminal.wait_for("Task 0 trial 0: fail (lines 1-", "r: reward")
    assert "· task 0 · trial 0 · fail" in episode
    assert "  call   " in episode and "user     " in episode
    terminal.type("r")
    reward = terminal.wait_for("Reward 0 (fail).", "b: back")
    assert "Database differs from the gold replay in:" in reward
    terminal.type("b")
    terminal.wait_for("6 of 6 episodes failed or errored")
    terminal.type("q")
    terminal.wait_for("VIEW-EXIT 0")


def test_view_of_a_run_opens_its_episodes_a_page_at_a_time(
    start_view: Callable[..., Terminal], toy_plugin: object, results_db: Path
) -> None:
    many = ["run", "--domain", "toylib", "--agent", "oracle", "--num-trials", "10"]
    assert CliRunner().invoke(cli, [*many, "--results-db", str(results_db)]).exit_code == 0
    stored = ResultStore(results_db).list_runs()
    [run] = [record for record in stored if record.num_trials == 10]
    terminal = start_view(run.id)
    first = terminal.wait_for(": 30 episodes (1-16 of 30)", "b: runs")
    assert "16   1      5       pass" in first
    terminal.type("n")
    second = terminal.wait_for(": 30 episodes (17-30 of 30)", "b: runs")
    assert "30   2      9       pass" in second
    terminal.type("n")
    terminal.wait_for("No more pages that way.")
    terminal.type("b")
    terminal.wait_for("Runs (1-3 of 3)", "open run")
    terminal.type("q")
    terminal.wait_for("VIEW-EXIT 0")


def test_view_outside_a_terminal_says_what_to_use_instead(results_db: Path) -> None:
    result = CliRunner().invoke(cli, ["view", "--results-db", str(results_db)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: tautrait view needs a terminal; in scripts: tautrait report RUN --tasks"
    ]  # one line within 80 columns


def test_view_keeps_run_ids_whole_and_headings_on_one_line(
    start_view: Callable[..., Terminal], toy_plugin: object, results_db: Path
) -> None:
    traits = "impatience=high,confusion=high,skepticism=high,incoherence=high"
    long = ["run", "--domain", "toylib", "--agent", "oracle", "--traits", traits]
    assert CliRunner().invoke(cli, [*long, "--results-db", str(results_db)]).exit_code == 0
    stored = ResultStore(results_db).list_runs()
    terminal = start_view()
    runs = terminal.wait_for("Runs (1-3 of 3)", "open run")
    assert all(f" {record.id} " in runs for record in stored)  # typed into report or show
    assert "pass/fail/err" in runs
    [long_run] = [record.id for record in stored if record.traits != "none"]
    terminal.type(next(line.split()[0] for line in runs.splitlines() if long_run in line))
    episodes = terminal.wait_for(": 3 episodes (1-3 of 3)", "b: runs").splitlines()
    assert episodes[1].startswith("toylib/test  agent oracle") and episodes[2].startswith("#")


def test_view_of_a_database_without_runs_says_so(isolated_home: Path, tmp_path: Path) -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    empty = tmp_path / "empty.db"
    ResultStore(empty)  # a results database holding no run
    view = [sys.executable, "-m", "tautrait_core", "view", "--results-db", str(empty)]
    env = f"TAUTRAIT_HOME={shlex.quote(str(isolated_home))} TAUTRAIT_LOAD_PLUGINS= TERM=xterm"
    command = f"cd {shlex.quote(str(ROOT))} && env {env} {shlex.join(view)}"
    terminal = Terminal(command + "; echo VIEW-EXIT $?; sleep 600", f"tautrait-empty-{os.getpid()}")
    try:
        screen = terminal.wait_for("VIEW-EXIT 1")  # was: an empty table waiting for a number
        assert f"Error: no runs yet in {empty}" in " ".join(screen.split())
    finally:
        terminal.close()

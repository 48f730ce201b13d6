"""``--episode-timeout-s`` and ``--enforce-communication-protocol`` with τ-bench's protocol,
and how a run stores them (the τ² protocol's side is in tests/test_tau3_orchestration.py)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.config.run_config import RunConfig
from tautrait_core.run.runner import execute
from tautrait_core.store.results import ResultStore
from tautrait_core.types.result import Termination


def test_an_episode_past_its_timeout_ends_scored_0(toy_plugin: object, tmp_path: Path) -> None:
    database = str(tmp_path / "results.db")
    config = RunConfig(
        domain="toylib", agent="oracle", task_ids=[0], results_db=database, episode_timeout_s=1e-6
    )
    [result] = execute(config).results
    assert result.termination is Termination.TIMEOUT
    assert (result.outcome.value, result.reward, result.steps) == ("fail", 0.0, 0)
    [stored] = ResultStore(database).list_runs()
    assert stored.config["episode_timeout_s"] == 1e-6  # resumed with the same limit
    shown = CliRunner().invoke(cli, ["show", stored.id, "--task", "0", "--results-db", database])
    assert "the episode ran out of time" in shown.output


def test_the_options_are_left_out_of_a_stored_run_that_does_not_use_them() -> None:
    flat = RunConfig(domain="toylib").flat()
    assert "episode_timeout_s" not in flat and "enforce_communication_protocol" not in flat
    given = RunConfig(domain="toylib", enforce_communication_protocol=True).flat()
    assert given["enforce_communication_protocol"] is True


def test_the_communication_protocol_flag_is_refused_for_tau_bench_task_sets(
    toy_plugin: object, tmp_path: Path
) -> None:
    arguments = ["run", "--domain", "toylib", "--agent", "oracle"]
    database = ["--results-db", str(tmp_path / "results.db")]
    result = CliRunner().invoke(cli, [*arguments, "--enforce-communication-protocol", *database])
    assert result.exit_code == 1
    assert result.output.startswith(
        "Error: --enforce-communication-protocol is a rule of the τ² protocol; task set "
        "'test' of domain 'toylib' runs τ-bench's"
    )
    assert ResultStore(tmp_path / "results.db").list_runs() == []  # refused before a run

"""The command line, driven with click's CliRunner on the toy domain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.cli import _join_multi_values, cli, main


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run_oracle(runner: CliRunner, *extra: str) -> str:
    result = runner.invoke(
        cli, ["run", "--domain", "toylib", "--agent", "oracle", "--num-trials", "2", *extra]
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_offline_run_prints_metrics_and_where_results_are(
    runner, toy_plugin, isolated_home
) -> None:
    output = run_oracle(runner)
    assert "Average reward: 1.000" in output
    assert "pass^1: 1.000" in output and "pass^2: 1.000" in output
    assert f"Results: {isolated_home / 'results.db'}" in output
    assert "Cost: $0.0000" in output


def test_runs_list_report_and_export(runner, toy_plugin, tmp_path: Path) -> None:
    run_oracle(runner, "--name", "smoke")
    listing = json.loads(runner.invoke(cli, ["runs", "list", "--json"]).output)
    assert len(listing) == 1 and listing[0]["name"] == "smoke" and listing[0]["pass"] == 6
    run_id = listing[0]["id"]

    report = json.loads(runner.invoke(cli, ["report", run_id[:10], "--json"]).output)
    assert report["metrics"]["average_reward"] == 1.0
    assert [p["value"] for p in report["metrics"]["pass_hat_k"]] == [1.0, 1.0]
    assert report["errors"] == []
    assert report["run"]["plugins"]["tautrait-core"]

    target = tmp_path / "results.json"
    assert (
        runner.invoke(
            cli, ["export", "latest", "--format", "tau-bench", "-o", str(target)]
        ).exit_code
        == 0
    )
    records = json.loads(target.read_text())
    assert len(records) == 6
    first = records[0]
    assert set(first) == {"task_id", "reward", "info", "traj", "trial"}
    assert first["info"]["task"]["user_id"] == "ann_1"
    assert first["info"]["reward_info"]["info"]["r_actions"] == 1.0
    assert first["traj"][0]["role"] == "system"
    with_outputs = next(r for r in records if r["task_id"] == 1)
    assert with_outputs["info"]["reward_info"]["info"] == {
        "r_outputs": 1.0,
        "outputs": {"CL-4": True},
    }


def test_upstream_flags_and_task_ids(runner, toy_plugin) -> None:
    result = runner.invoke(
        cli,
        [
            "run",
            "--env",
            "toylib",
            "--agent-strategy",
            "oracle",
            "--user-strategy",
            "scripted",
            "--max-concurrency",
            "2",
            "--task-ids",
            "0,2",
            "--shuffle",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["metrics"]["tasks"] == 2 and summary["metrics"]["episodes"] == 2


def test_upstream_space_separated_task_ids_are_joined() -> None:
    assert _join_multi_values(["run", "--task-ids", "1", "2", "3", "--seed", "4"]) == [
        "run",
        "--task-ids",
        "1,2,3",
        "--seed",
        "4",
    ]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["--domain", "nowhere", "--agent", "oracle"],
            "unknown domain 'nowhere' (available: toylib",
        ),
        (
            ["--domain", "toylib", "--agent", "oracle", "--traits", "grumpy=high"],
            "unknown trait 'grumpy'",
        ),
        (["--domain", "toylib", "--agent", "tool-calling"], "pass --agent-model"),
        (["--domain", "toylib", "--agent", "oracle", "--task-ids", "7"], "out of range"),
        (
            ["--domain", "toylib", "--agent", "oracle", "--task-set", "tau-trait:test"],
            "unknown toylib task set 'tau-trait:test' (available: ",
        ),
        (["--agent", "oracle"], "missing --domain"),
    ],
)
def test_bad_input_fails_before_anything_runs(
    runner, toy_plugin, isolated_home, arguments, message
) -> None:
    result = runner.invoke(cli, ["run", *arguments])
    assert result.exit_code != 0
    assert message in result.output
    assert json.loads(runner.invoke(cli, ["runs", "list", "--json"]).output) == []


def test_traits_file_in_upstream_form(runner, toy_plugin, tmp_path: Path) -> None:
    traits = tmp_path / "traits.json"
    traits.write_text(json.dumps({"impatience": "high", "confusion": "low"}))
    run_oracle(runner, "--trait-dict", str(traits))
    listing = json.loads(runner.invoke(cli, ["runs", "list", "--json"]).output)
    assert listing[0]["traits"] == "impatience=high,confusion=low"


def test_report_of_unknown_run_is_a_clear_error(runner, toy_plugin) -> None:
    result = runner.invoke(cli, ["report", "20990101"])
    assert result.exit_code != 0 and "tautrait runs list" in result.output


@pytest.mark.parametrize(
    "argv",
    [
        ["report", "\udcff"],
        ["run", "--domain", "toylib", "--agent", "oracle", "--name", "n\udcff"],
        ["sweep", "--resume", "s\udcff"],
    ],
)
def test_an_argument_that_is_not_utf8_is_one_line(
    toy_plugin, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """A terminal that is not UTF-8 hands such text over as lone surrogates, which can be
    neither stored nor looked up (each was a UnicodeEncodeError traceback)."""
    with pytest.raises(SystemExit) as ended:
        main(argv)
    assert ended.value.code == 2
    shown = next(part for part in argv if "\udcff" in part).replace("\udcff", "\\xff")
    assert capsys.readouterr().err == (
        f"Error: the argument '{shown}' is not UTF-8 text; give names and values in UTF-8\n"
    )


def test_a_file_whose_name_is_not_utf8_is_still_read(
    toy_plugin, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / b"tr\xe9its.json".decode("utf-8", "surrogateescape")
    path.write_text('{"impatience": "high"}')
    with pytest.raises(SystemExit) as ended:
        main(["run", "--domain", "toylib", "--agent", "oracle", "--traits-file", str(path)])
    assert ended.value.code == 0
    assert "traits impatience=high" in capsys.readouterr().out

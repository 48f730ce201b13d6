"""What people read in the terminal: honest costs, escaped control characters, whole ids and
tables that fit 80 columns."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.scripted.scripts import GoldScript
from tautrait_core.scripted.server import ScriptedModelServer
from tests.test_reports_import import upstream_record

RUN_ID = re.compile(r"\d{8}-\d{6}-[0-9a-f]{4}")

IMPORT_SETTINGS = ("--traits", "none", "--task-set", "tau-trait:test")
"""What a published file named ``published_retail.json`` does not say itself."""


def narrow() -> CliRunner:
    return CliRunner(env={"COLUMNS": "80"})


def assert_fits_80_columns(output: str) -> None:
    """No line is wider than 80 columns (paths, which cannot wrap, aside) or cut short."""
    too_wide = [
        line for line in output.splitlines() if len(line) > 80 and not line.startswith("Results: ")
    ]
    assert not too_wide, too_wide
    assert "…" not in output


# -- costs (item 17) --------------------------------------------------------------------------


def test_small_costs_keep_their_digits_and_parts_share_the_total_precision() -> None:
    from tautrait_core.money import format_costs

    assert format_costs(0.0000306, 0.0000102, 0.0000204) == ["$0.000031", "$0.000010", "$0.000020"]
    assert format_costs(1.5, 0.25) == ["$1.5000", "$0.2500"]
    assert format_costs(None, 0.0) == ["unknown", "$0.0000"]


def test_max_cost_stop_reason_shows_the_amounts() -> None:
    from tautrait_core.run.control import SpendTracker
    from tautrait_core.types.result import EpisodeResult, Outcome, Termination
    from tautrait_core.types.usage import Usage

    tracker = SpendTracker(limit=0.00001, spent=0.0)
    tracker.add(
        EpisodeResult(
            task_id=0,
            trial=0,
            outcome=Outcome.PASS,
            reward=1.0,
            termination=Termination.USER_STOP,
            agent_usage=Usage(calls=1, cost=0.000012),
        )
    )
    assert tracker.stop_reason() == "--max-cost reached: spent $0.000012 of $0.000010"


def test_an_imported_run_reports_unknown_cost_not_zero(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "published_retail.json"
    path.write_text(json.dumps([upstream_record(0, 0, 1.0, user_cost=0.0123)]))
    assert runner.invoke(cli, ["import-results", str(path), *IMPORT_SETTINGS]).exit_code == 0
    report = runner.invoke(cli, ["report", "latest"]).output
    assert "Cost: unknown (agent unknown, user $0.0123; model calls not recorded" in report
    shown = runner.invoke(cli, ["show", "latest", "--task", "0"]).output
    assert "Cost: agent unknown, user $0.0123." in shown


def test_cache_hits_are_reported(toy_plugin) -> None:
    runner = CliRunner()
    with ScriptedModelServer(GoldScript(toy_plugin.TASKS, ["transfer_to_librarian"])) as server:
        arguments = [
            "run",
            "--domain",
            "toylib",
            "--agent",
            "tool-calling",
            "--agent-model",
            "openai/scripted",
            "--agent-api-base",
            server.base_url,
            "--user",
            "llm",
            "--user-model",
            "openai/scripted",
            "--user-api-base",
            server.base_url,
            "--cache",
        ]
        first = runner.invoke(cli, arguments)
        calls = len(server.requests)
        again = runner.invoke(cli, arguments)
        assert len(server.requests) == calls  # every answer came from the cache
    assert first.exit_code == 0 and again.exit_code == 0, again.output
    assert "answered from the --cache" not in first.output
    assert f"{calls} model calls, {calls} answered from the --cache at no cost" in again.output
    run_id = RUN_ID.findall(again.output)[0]  # not 'latest': both runs may share a second
    report = json.loads(runner.invoke(cli, ["report", run_id, "--json"]).output)
    assert report["metrics"]["cached_calls"] == calls


# -- control characters in transcripts (item 18) ----------------------------------------------


def test_show_escapes_terminal_control_characters(tmp_path: Path) -> None:
    record = upstream_record(0, 0, 0.0)
    record["traj"][2]["content"] = "Done \x1b[2J\x1b]0;pwned\x07 and \x00 and \u202egnp.exe"
    record["traj"].append({"role": "tool", "name": "get\x1b[31m", "content": "ok\x1b[0m"})
    path = tmp_path / "published_retail.json"
    path.write_text(json.dumps([record]))
    runner = narrow()
    assert runner.invoke(cli, ["import-results", str(path), *IMPORT_SETTINGS]).exit_code == 0
    shown = runner.invoke(cli, ["show", "latest", "--task", "0"])
    assert shown.exit_code == 0, shown.output
    for raw in ("\x1b", "\x00", "\x07", "\u202e"):
        assert raw not in shown.output
    assert "\\x1b[2J" in shown.output and "\\x00" in shown.output
    assert "\\u202e" in shown.output and "get\\x1b[31m" in shown.output


# -- tables at 80 columns (item 19) -----------------------------------------------------------


ALL_TRAITS = "impatience=high,confusion=low,skeptical=medium,incoherence=high"


def test_runs_list_shows_whole_ids_in_80_columns(toy_plugin) -> None:
    runner = narrow()
    for traits in ("", ALL_TRAITS):
        ran = runner.invoke(
            cli, ["run", "--domain", "toylib", "--agent", "oracle", "--traits", traits or "none"]
        )
        assert ran.exit_code == 0, ran.output
    ids = [run["id"] for run in json.loads(runner.invoke(cli, ["runs", "list", "--json"]).output)]
    listed = runner.invoke(cli, ["runs", "list"]).output
    assert_fits_80_columns(listed)
    assert RUN_ID.findall(listed) == ids
    assert "impatience=high," in listed and "incoherence=high" in listed


def test_plugins_table_shows_whole_names_in_80_columns(toy_plugin) -> None:
    listed = narrow().invoke(cli, ["plugins"]).output
    assert_fits_80_columns(listed)
    for name in ("tautrait_core.builtin.agents", "tautrait_core.builtin.users", "toy_library"):
        assert name in listed
    assert "tool-calling" in listed


def test_sweep_summary_keeps_trait_names_whole_in_80_columns(toy_plugin, tmp_path: Path) -> None:
    grid = tmp_path / "grid.toml"
    grid.write_text(
        textwrap.dedent(
            f"""\
            name = "narrow"
            [base]
            agent = "oracle"
            num_trials = 2
            [grid]
            domain = ["toylib"]
            traits = ["", "{ALL_TRAITS}"]
            """
        )
    )
    result = narrow().invoke(cli, ["sweep", str(grid)])
    assert result.exit_code == 0, result.output
    summary = result.stdout  # the progress display on stderr is transient
    assert_fits_80_columns(summary)
    for word in ("impatience=high,", "confusion=low,", "skeptical=medium,", "incoherence=high"):
        assert word in summary
    assert len(RUN_ID.findall(summary)) == 2

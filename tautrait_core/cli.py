"""The ``tautrait`` command line. Thin: parse options, call the library, print.

Heavy modules (SQLModel, litellm, domains) are imported inside the commands that need
them, so ``tautrait --help`` starts quickly.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from tautrait_core.errors import TautraitError
from tautrait_core.output import console, echo_json, print_metrics, runs_table

UPSTREAM_MULTI_VALUE = ("--task-ids",)


def _library_call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call into the library, turning its typed errors into CLI errors."""
    try:
        return function(*args, **kwargs)
    except TautraitError as exc:
        raise click.ClickException(str(exc)) from exc


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="tautrait-core", prog_name="tautrait")
def cli() -> None:
    """Evaluate tool-using agents against simulated users with personality traits.

    \b
    Quick start (offline, no API key):
      tautrait run --domain telehealth --agent oracle --user scripted --num-trials 2
    With models (any litellm model name):
      tautrait run --domain telehealth --agent tool-calling --agent-model gpt-4o \\
                   --user llm --user-model gpt-4o --traits impatience=high
    """


# -- run ---------------------------------------------------------------------------------


@cli.command()
@click.option(
    "--domain", "--env", "domain", default=None, help="Domain to run (see: tautrait plugins)."
)
@click.option(
    "--task-set",
    "--task-split",
    "task_set",
    default=None,
    help="Task set (default: the domain's own 'test' set; 'tau-trait:test' after an import).",
)
@click.option("--agent", "--agent-strategy", "agent", default="tool-calling", show_default=True)
@click.option("--agent-model", "--model", "agent_model", default=None, help="litellm model name.")
@click.option("--agent-provider", "--model-provider", "agent_provider", default=None)
@click.option("--agent-api-base", default=None, help="OpenAI-compatible server for the agent.")
@click.option(
    "--user",
    "--user-strategy",
    "user",
    default=None,
    help="User simulator [default: scripted with --agent oracle, else llm].",
)
@click.option("--user-model", default="gpt-4o", show_default=True)
@click.option("--user-provider", "--user-model-provider", "user_provider", default=None)
@click.option("--user-api-base", default=None, help="OpenAI-compatible server for the user.")
@click.option("--trait-backend", default="prompt", show_default=True)
@click.option("--traits", default=None, help="Trait mix, e.g. impatience=high,confusion=1.")
@click.option(
    "--traits-file",
    "--trait-dict",
    "traits_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="JSON trait mix in upstream trait_dict form.",
)
@click.option(
    "--endpoint", "steer_endpoint", default=None, help="Steer service URL (steer backend)."
)
@click.option(
    "--temperature", type=float, default=0.0, show_default=True, help="Agent temperature."
)
@click.option("--user-temperature", type=float, default=None, help="User temperature.")
@click.option("--num-trials", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--task-ids", default=None, help="Only these task ids: '0,3,7' (or '0 3 7').")
@click.option("--start", "--start-index", "start", type=click.IntRange(min=0), default=0)
@click.option("--end", "--end-index", "end", type=int, default=-1, help="Exclusive; -1: all.")
@click.option("--seed", type=int, default=10, show_default=True)
@click.option(
    "--shuffle", type=int, is_flag=False, flag_value=1, default=0, help="Shuffle task order."
)
@click.option(
    "--concurrency",
    "--max-concurrency",
    "concurrency",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
)
@click.option("--max-steps", type=click.IntRange(min=1), default=30, show_default=True)
@click.option("--max-retries", type=click.IntRange(min=0), default=4, show_default=True)
@click.option(
    "--few-shot-file", "--few-shot-displays-path", "few_shot_file", default=None, hidden=True
)
@click.option("--results-db", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.option("--resume", "resume", default=None, metavar="RUN_ID", help="Continue a stored run.")
@click.option("--name", "run_name", default=None, help="A label stored with the run.")
@click.option(
    "--result-fp", "export_path", default=None, help="Also write upstream result-list JSON here."
)
@click.option(
    "--log-dir", default=None, help="Also write upstream result-list JSON into this folder."
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def run(traits_file: Path | None, as_json: bool, task_ids: str | None, **options: Any) -> None:
    """Run an evaluation: every selected task, --num-trials times.

    Each finished episode is stored at once in the results database; an interrupted run
    continues with --resume RUN_ID. Upstream tau-trait flag names (--env, --model,
    --model-provider, --user-strategy, --max-concurrency, --trait-dict, --task-split, ...)
    are accepted, so an upstream command line ports by replacing `python run.py` with
    `tautrait run`.
    """
    from tautrait_core.models import RunConfig, TraitMix

    if traits_file is not None and options["traits"]:
        raise click.UsageError("give either --traits or --traits-file, not both")
    if traits_file is not None:
        try:
            data = json.loads(traits_file.read_text())
        except json.JSONDecodeError as exc:
            raise click.BadParameter(f"{traits_file} is not valid JSON: {exc}") from exc
        options["traits"] = _library_call(TraitMix.from_trait_dict, data)
    if task_ids:
        try:
            options["task_ids"] = [int(part) for part in task_ids.replace(",", " ").split()]
        except ValueError as exc:
            raise click.BadParameter(f"--task-ids takes integers, got {task_ids!r}") from exc
    if options["domain"] is None and not options["resume"]:
        raise click.UsageError("missing --domain (installed domains: tautrait plugins)")
    options = {key: value for key, value in options.items() if value is not None}
    config = _library_call(RunConfig.model_validate, options)
    report = _execute_with_progress(config, quiet=as_json)
    if config.export_path or config.log_dir:
        from tautrait_core.upstream.results import write_result_list

        path = write_result_list(report, config)
        if not as_json:
            console(stderr=True).print(f"Upstream result list written to {path}")
    if as_json:
        echo_json(
            {
                "run_id": report.run.id,
                "results_db": str(report.results_db),
                "metrics": report.metrics.model_dump(),
            }
        )
        return
    print_metrics(report.run, report.metrics)
    out = console()
    out.print(f"Results: {report.results_db}  (run {report.run.id})")
    out.print(
        f"  tautrait report {report.run.id}    tautrait export {report.run.id} --format tau-bench"
    )


def _execute_with_progress(config: Any, quiet: bool) -> Any:
    from tautrait_core.output import ProgressDisplay
    from tautrait_core.runner import execute

    progress = ProgressDisplay(enabled=not quiet)
    try:
        return _library_call(execute, config, progress)
    except KeyboardInterrupt:
        progress.close()
        run_id = progress.run_id
        message = "Interrupted."
        if run_id:
            message += f" Finished episodes are saved. Resume with: tautrait run --resume {run_id}"
        console(stderr=True).print(message)
        sys.exit(130)
    finally:
        progress.close()


# -- listing ---------------------------------------------------------------------------


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Output JSON.")
def plugins(as_json: bool) -> None:
    """List installed plugins: distribution, version and what each registers."""
    from tautrait_core.plugins import get_plugin_manager

    infos = _library_call(get_plugin_manager().plugin_infos)
    if as_json:
        echo_json([info.__dict__ for info in infos])
        return
    from rich.table import Table

    table = Table("plugin", "distribution", "version", "registers")
    for info in infos:
        registers = "; ".join(
            f"{kind}: {', '.join(names)}" for kind, names in info.registers.items()
        )
        table.add_row(info.name, info.distribution, info.version, registers or "-")
    console().print(table)


@cli.command()
@click.option("--domain", required=True, help="The domain whose tasks to list.")
@click.option("--task-set", default=None, help="Task set (default: the domain's default).")
@click.option("--json", "as_json", is_flag=True, help="Output JSON.")
def tasks(domain: str, task_set: str | None, as_json: bool) -> None:
    """List a domain's task sets, or the tasks of one set."""
    from tautrait_core.plugins import lookup
    from tautrait_core.task_sets import all_task_sets, resolve_task_set

    found = _library_call(lookup, "domain", domain)
    if task_set is None:
        sets = all_task_sets(found)
        rows = [
            {"task_set": name, "tasks": len(s.tasks), "description": s.description}
            for name, s in sets.items()
        ]
        if as_json:
            echo_json(rows)
        else:
            for row in rows:
                console().print(
                    f"{row['task_set']:<20} {row['tasks']:>5} tasks  {row['description']}"
                )
        return
    selected = _library_call(resolve_task_set, found, task_set)
    if as_json:
        echo_json([task.model_dump() for task in selected.tasks])
        return
    for index, task in enumerate(selected.tasks):
        summary = " ".join(task.instruction.split())[:90]
        console().print(f"{index:>4}  {task.user_id:<28} {len(task.actions):>2} actions  {summary}")


@cli.group()
def runs() -> None:
    """Stored runs."""


@runs.command("list")
@click.option("--results-db", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.option("--json", "as_json", is_flag=True, help="Output JSON.")
def runs_list(results_db: Path | None, as_json: bool) -> None:
    """List stored runs, newest first."""
    store = _open_store(results_db)
    rows = []
    for record in store.list_runs():
        counts = store.episode_counts(record.id)
        rows.append({**record.model_dump(exclude={"config", "plugins", "task_ids"}), **counts})
    if as_json:
        echo_json(rows)
    else:
        console().print(runs_table(rows))


@cli.command()
@click.argument("run_id")
@click.option("--results-db", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.option("--json", "as_json", is_flag=True, help="Output JSON.")
def report(run_id: str, results_db: Path | None, as_json: bool) -> None:
    """Metrics of a run: average reward, pass^k, errors and cost (RUN_ID or 'latest')."""
    from tautrait_core.metrics import summarize

    store = _open_store(results_db)
    record = _library_call(store.get_run, run_id)
    results = store.episodes(record.id)
    metrics = summarize(results, max_k=record.num_trials)
    errors = [
        {
            "task_id": r.task_id,
            "trial": r.trial,
            "termination": r.termination.value,
            "error": r.error,
        }
        for r in results
        if r.outcome.value == "error"
    ]
    if as_json:
        echo_json(
            {
                "run": record.model_dump(exclude={"config"}),
                "config": record.config,
                "metrics": metrics.model_dump(),
                "errors": errors,
            }
        )
        return
    print_metrics(record, metrics)
    expected = len(record.task_ids) * record.num_trials
    if metrics.episodes < expected:
        console().print(
            f"{expected - metrics.episodes} of {expected} episodes not run yet "
            f"(status {record.status}). Continue with: tautrait run --resume {record.id}"
        )
    for error in errors[:10]:
        first_line = (error["error"] or "").splitlines()[0] if error["error"] else ""
        console().print(f"  error: task {error['task_id']} trial {error['trial']}: {first_line}")
    if errors:
        console().print(f"Errors are re-run by: tautrait run --resume {record.id}")


@cli.command()
@click.argument("run_id")
@click.option(
    "--format",
    "export_format",
    type=click.Choice(["tau-bench"]),
    default="tau-bench",
    show_default=True,
)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.option("--results-db", type=click.Path(dir_okay=False, path_type=Path), default=None)
def export(run_id: str, export_format: str, output: Path | None, results_db: Path | None) -> None:
    """Export a run as upstream's result-list JSON (task_id, reward, info, traj, trial)."""
    from tautrait_core.runner import prepare
    from tautrait_core.upstream.results import result_list

    store = _open_store(results_db)
    record = _library_call(store.get_run, run_id)
    tasks_of_run = _library_call(prepare, record.run_config()).task_set.tasks
    text = json.dumps(result_list(store.episodes(record.id), tasks_of_run), indent=2)
    if output is None:
        click.echo(text)
    else:
        output.write_text(text)
        console(stderr=True).print(f"Wrote {output}")


@cli.command("import")
@click.argument("source", type=click.Choice(["tau-trait"]))
@click.argument("path", type=click.Path(exists=True, file_okay=False, path_type=Path))
def import_command(source: str, path: Path) -> None:
    """Import upstream task sets and data from a checkout of SOURCE at PATH.

    The task files are parsed, never executed. Afterwards run them with
    --task-set tau-trait:test (or :train, :dev).
    """
    from tautrait_core.plugins import get_plugin_manager
    from tautrait_core.upstream.importer import import_tau_trait

    manager = get_plugin_manager()
    domains = [manager.get("domain", name) for name in _library_call(manager.names, "domain")]
    reports = _library_call(import_tau_trait, path, domains)
    out = console()
    for item in reports:
        splits = ", ".join(f"tau-trait:{s} ({n} tasks)" for s, n in item.splits.items())
        out.print(f"{item.domain}: {splits}; data: {len(item.data_files)} files -> {item.folder}")
        for problem in item.problems:
            out.print(f"  skipped: {problem}")
    first = reports[0]
    split = next(iter(first.splits))
    out.print(
        f"Run one with: tautrait run --domain {first.domain} --task-set tau-trait:{split} ..."
    )


def _open_store(results_db: Path | None) -> Any:
    from tautrait_core.paths import default_results_db
    from tautrait_core.store import ResultStore

    return ResultStore(results_db or default_results_db())


# -- entry point -------------------------------------------------------------------------


def _join_multi_values(argv: list[str]) -> list[str]:
    """Accept upstream's ``--task-ids 1 2 3`` by joining the values into one option value."""
    result: list[str] = []
    index = 0
    while index < len(argv):
        result.append(argv[index])
        if argv[index] in UPSTREAM_MULTI_VALUE:
            values = []
            index += 1
            while index < len(argv) and not argv[index].startswith("-"):
                values.append(argv[index])
                index += 1
            result.append(",".join(values))
            continue
        index += 1
    return result


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: load plugins, add their commands, run the CLI."""
    from tautrait_core.plugins import get_plugin_manager

    arguments = _join_multi_values(list(sys.argv[1:] if argv is None else argv))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        manager = get_plugin_manager()
        manager.add_commands(cli)
    for warning in caught:
        click.echo(f"Warning: {warning.message}", err=True)
    cli.main(args=arguments, prog_name="tautrait")


if __name__ == "__main__":
    main()

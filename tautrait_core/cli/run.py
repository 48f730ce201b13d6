"""``tautrait run``: each option is a flat key of the run configuration
(:class:`~tautrait_core.config.run_config.RunConfig`) under the same name (or an upstream
alias), with its default (``tests/test_run_options.py`` checks). Options that plugins
declare (:class:`~tautrait_core.run_options.RunOption`) are added when the command is
parsed or its help is shown, never at import."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from tautrait_core.cli.root import (
    cli,
    judge_options,
    library_call,
    max_cost_option,
    results_db_option,
    retrieval_options,
    reward_basis_option,
    trait_backend_option,
)
from tautrait_core.cli.run_command import PLUGIN_OPTION_PREFIX, RunCommand
from tautrait_core.cli.run_outputs import check_output_paths, write_result_list_of_run
from tautrait_core.render.console import command_hint, console, echo_json, follow_up, print_metrics

executor_option = click.option(
    "--executor",
    type=click.Choice(["local", "ray"]),
    default=None,
    help="Where episodes run: this process [default: local], or Ray actors across a Ray "
    "cluster (pip install 'tautrait-core[ray]'; workers read API keys from their own "
    "environment).",
)
ray_address_option = click.option(
    "--ray-address",
    default=None,
    help="Ray cluster address for --executor ray (e.g. ray://head:10001) [default: start a "
    "local Ray instance].",
)


@cli.command(cls=RunCommand)
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
@click.option(
    "--split",
    default=None,
    help="Split of a task set that has splits (τ³: train, test, base, ...) [default: base]; "
    "same as --task-set NAME/SPLIT.",
)
@click.option(
    "--agent",
    "--agent-strategy",
    "agent",
    default="tool-calling",
    show_default=True,
    help="Agent strategy (see: tautrait plugins).",
)
@click.option("--agent-model", "--model", "agent_model", default=None, help="litellm model name.")
@click.option(
    "--agent-provider",
    "--model-provider",
    "agent_provider",
    default=None,
    help="litellm provider of --agent-model, when its name does not say.",
)
@click.option("--agent-api-base", default=None, help="OpenAI-compatible server for the agent.")
@click.option(
    "--user",
    "--user-strategy",
    "user",
    default=None,
    help="User simulator [default: scripted with --agent oracle, else llm].",
)
@click.option(
    "--user-model", default="gpt-4o", show_default=True, help="litellm model of the user."
)
@click.option(
    "--user-provider",
    "--user-model-provider",
    "user_provider",
    default=None,
    help="litellm provider of --user-model, when its name does not say.",
)
@click.option("--user-api-base", default=None, help="OpenAI-compatible server for the user.")
@judge_options(
    "Model that judges NL assertions (τ²-style tasks whose reward basis holds "
    "NL_ASSERTION; without it they are not scoreable)."
)
@reward_basis_option
@retrieval_options
@trait_backend_option
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
    "--temperature", type=float, default=0.0, show_default=True, help="Agent temperature."
)
@click.option("--user-temperature", type=float, default=None, help="User temperature.")
@click.option(
    "--num-trials",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Runs of each task (pass^k needs k).",
)
@click.option("--task-ids", default=None, help="Only these task ids: '0,3,7' (or '0 3 7').")
@click.option(
    "--start",
    "--start-index",
    "start",
    type=click.IntRange(min=0),
    default=0,
    help="First task index to run.",
)
@click.option("--end", "--end-index", "end", type=int, default=-1, help="Exclusive; -1: all.")
@click.option(
    "--seed",
    type=int,
    default=10,
    show_default=True,
    help="Seed of the task order (--shuffle) and of each episode's random choices.",
)
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
    help="Episodes in flight at once.",
)
@click.option(
    "--max-steps",
    type=click.IntRange(min=1),
    default=None,
    help="Agent steps [default: 30]; with the τ² protocol (dual control, tau2: task "
    "sets), hops of the conversation [default: 200, as τ²-bench].",
)
@click.option(
    "--max-errors",
    type=click.IntRange(min=1),
    default=None,
    help="End an episode after this many failed tool calls [default: 10 for task sets "
    "with τ³'s rules, no limit otherwise].",
)
@click.option(
    "--episode-timeout-s",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="End an episode that has run this many seconds (termination timeout, scored 0; "
    "checked between turns) [default: no limit].",
)
@click.option(
    "--enforce-communication-protocol",
    is_flag=True,
    default=False,
    help="τ² protocol: end an episode at a message with both text and tool calls "
    "(agent_error or user_error, scored 0), as τ³'s flag of that name.",
)
@click.option(
    "--solo",
    is_flag=True,
    default=False,
    help="No customer: the agent works the task's ticket with both sides' tools "
    "(domains with a solo policy; --agent solo or oracle).",
)
@click.option(
    "--max-retries",
    type=click.IntRange(min=0),
    default=4,
    show_default=True,
    help="Retries of a failed model call (exponential backoff with jitter).",
)
@click.option(
    "--retry-base-s",
    type=click.FloatRange(min=0),
    default=1.0,
    show_default=True,
    help="Seconds before the first retry; each retry waits about twice as long.",
)
@click.option(
    "--timeout-s",
    "--timeout",
    "timeout_s",
    type=click.FloatRange(min=0, min_open=True),
    default=120.0,
    show_default=True,
    help="Seconds one model request may take.",
)
@max_cost_option("Stop starting episodes once the run has spent this many dollars.")
@click.option(
    "--cache", is_flag=True, default=False, help="Reuse stored answers to identical model requests."
)
@click.option(
    "--few-shot-file",
    "--few-shot-displays-path",
    "few_shot_file",
    default=None,
    help="JSONL demonstrations for --agent few-shot (each line has messages_display).",
)
@executor_option
@ray_address_option
@results_db_option
@click.option(
    "--resume",
    "resume",
    default=None,
    metavar="RUN_ID",
    help="Continue a stored run (adding trials when --num-trials is higher).",
)
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
    from tautrait_core.config.run_config import RunConfig, parse_task_ids
    from tautrait_core.trait_mix import TraitMix

    # only what was given: a resumed run keeps its stored settings for the rest
    context = click.get_current_context()
    options = {
        key: value
        for key, value in options.items()
        if context.get_parameter_source(key) != ParameterSource.DEFAULT
    }
    split = options.pop("split", None)
    if split is not None:
        options["task_set"] = f"{options.get('task_set') or ''}/{split}"
    if traits_file is not None and options.get("traits"):
        raise click.UsageError("give either --traits or --traits-file, not both")
    if traits_file is not None:
        options["traits"] = library_call(TraitMix.from_file, traits_file)
    if task_ids is not None:
        try:
            options["task_ids"] = parse_task_ids(task_ids)
        except ValueError as exc:
            raise click.BadParameter(f"--task-ids takes integers, got {task_ids!r}") from exc
    plugin_options = {
        key.removeprefix(PLUGIN_OPTION_PREFIX): options.pop(key)
        for key in list(options)
        if key.startswith(PLUGIN_OPTION_PREFIX)
    }
    options = {key: value for key, value in options.items() if value is not None}
    options["plugin_options"] = {k: v for k, v in plugin_options.items() if v is not None}
    if context.meta.get("upstream_flags") and not options.get("resume"):
        options["task_set"] = _upstream_task_set(options)
    config = library_call(RunConfig.model_validate, options)
    check_output_paths(config)
    # a person typing one side needs the terminal to themselves: no live progress bar
    typed = "human" in (config.agent.strategy, config.user.strategy)
    report = _execute_with_progress(config, quiet=as_json or typed)
    if config.storage.export_path or config.storage.log_dir:
        path = write_result_list_of_run(report, config)
        if not as_json:
            console(stderr=True).print(f"Upstream result list written to {path}")
    if as_json:
        echo_json(
            {
                "run_id": report.run.id,
                "results_db": str(report.results_db),
                "metrics": report.metrics.model_dump(),
                "stop_reason": report.stop_reason,
                "warnings": report.warnings,
            }
        )
        _exit_if_nothing_scored(report)
        return
    run_id, results_db = report.run.id, report.results_db
    print_metrics(report.run, report.metrics, results_db)
    out = console()
    for warning in report.warnings:
        out.print(f"[yellow]Warning: {warning}[/yellow]", soft_wrap=False)
    if report.stop_reason:
        more = " --max-cost <higher limit>" if "--max-cost" in report.stop_reason else ""
        lead = f"Stopped early: {report.stop_reason}. Continue with"
        hint = command_hint(lead, f"tautrait run --resume {run_id}", results_db, more)
        out.print(hint, style="yellow", markup=False)
    out.print(f"Results: {results_db}  (run {run_id})", markup=False)
    tau2 = report.run.task_set.startswith("tau2:") or report.run.domain.startswith("tau2-")
    export_format = "tau2" if tau2 else "tau-bench"
    for command in (f"report {run_id}", f"export {run_id} --format {export_format}"):
        out.print(f"  {follow_up(f'tautrait {command}', results_db)}", markup=False)
    if report.run.status == "interrupted":
        sys.exit(130)
    _exit_if_nothing_scored(report)


def _exit_if_nothing_scored(report: Any) -> None:
    """Exit with status 1 when every episode of the run ended in an infrastructure error."""
    metrics = report.metrics
    if metrics.episodes and metrics.errors == metrics.episodes:
        lead = (
            f"Every episode ({metrics.episodes}) ended in an infrastructure error; nothing "
            "was scored. See the errors with"
        )
        hint = command_hint(lead, f"tautrait report {report.run.id}", report.results_db)
        console(stderr=True).print(hint, style="red", markup=False)
        sys.exit(1)


def _upstream_task_set(options: dict[str, Any]) -> str | None:
    """The task set an upstream command line runs; says which on stderr."""
    from tautrait_core.domain.task_sets import task_set_for_upstream_flags
    from tautrait_core.plugins import get_plugin_manager

    manager = get_plugin_manager()
    domain_name = options.get("domain")
    if domain_name not in manager.names("domain"):
        return options.get("task_set")  # prepare() reports the unknown domain
    domain = manager.get("domain", domain_name)
    task_set, note = task_set_for_upstream_flags(domain, options.get("task_set"))
    if note:
        console(stderr=True).print(note, markup=False, style="yellow")
    return task_set


def _execute_with_progress(config: Any, quiet: bool) -> Any:
    from tautrait_core.render.progress import ProgressDisplay
    from tautrait_core.run.runner import execute

    progress = ProgressDisplay(enabled=not quiet)
    try:
        return library_call(execute, config, progress, handle_signals=True)
    except KeyboardInterrupt:  # before the run's own Ctrl-C handling was in place
        progress.close()
        message = "Interrupted."
        if progress.run_id:
            lead = f"{message} Finished episodes are saved. Resume with"
            resume = f"tautrait run --resume {progress.run_id}"
            message = command_hint(lead, resume, config.storage.results_db)
        console(stderr=True).print(message, markup=False)
        sys.exit(130)
    finally:
        progress.close()

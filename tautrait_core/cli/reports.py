"""Commands that read stored runs: report, compare, show, diagnose."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tautrait_core.cli.root import (
    cli,
    concurrency_option,
    json_option,
    judge_spec,
    library_call,
    open_store,
    results_db_option,
    run_ids_argument,
)
from tautrait_core.money import format_cost
from tautrait_core.render.console import command_hint, console, echo_json, prose

if TYPE_CHECKING:
    from tautrait_core.analysis.summary import BootstrapSettings, RunSummary
    from tautrait_core.analysis.trait_audit import TraitAudit
    from tautrait_core.analysis.trait_drop import TraitDropTable


def bootstrap_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--resamples``, ``--seed`` and ``--confidence`` of the confidence intervals, given to
    ``command`` as one ``bootstrap`` (:class:`BootstrapSettings`) argument."""

    @functools.wraps(command)
    def with_bootstrap(
        resamples: int, bootstrap_seed: int, confidence: float, **options: Any
    ) -> None:
        from tautrait_core.analysis.summary import BootstrapSettings

        bootstrap = BootstrapSettings(resamples, bootstrap_seed, confidence)
        command(bootstrap=bootstrap, **options)

    with_options = click.option(
        "--confidence",
        type=click.FloatRange(0.5, 1.0, min_open=False, max_open=True),
        default=0.95,
        show_default=True,
        help="Confidence level of the intervals.",
    )(with_bootstrap)
    with_options = click.option(
        "--seed",
        "bootstrap_seed",
        type=int,
        default=0,
        show_default=True,
        help="Seed of the bootstrap resampling (same seed, same intervals).",
    )(with_options)
    return click.option(
        "--resamples",
        type=click.IntRange(min=1),
        default=2000,
        show_default=True,
        help="Bootstrap resamples of the tasks for the confidence intervals.",
    )(with_options)


def allow_mismatch_option(help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--allow-mismatch``: group runs whose settings differ; ``help`` says where."""
    return click.option("--allow-mismatch", is_flag=True, help=help)


def _summaries(
    results_db: Path | None, run_ids: tuple[str, ...], bootstrap: BootstrapSettings
) -> list[RunSummary]:
    from tautrait_core.analysis.summary import summarize_run
    from tautrait_core.store.run_names import with_sweep_runs

    store = open_store(results_db)
    run_ids = tuple(library_call(with_sweep_runs, store, run_ids))
    records = [library_call(store.get_run, run_id) for run_id in run_ids]
    return [summarize_run(store, record, bootstrap) for record in records]


def _trait_audits(results_db: Path | None, summaries: list[RunSummary]) -> list[TraitAudit]:
    from tautrait_core.analysis.trait_audit import stored_trait_audits

    return stored_trait_audits(open_store(results_db), [s.record for s in summaries])


def _trait_drop(
    summaries: list[RunSummary], allow_mismatch: bool, bootstrap: BootstrapSettings
) -> TraitDropTable:
    from tautrait_core.analysis.grouping import group_runs
    from tautrait_core.analysis.trait_drop import trait_drop_table

    groups = group_runs([s.record for s in summaries], allow_mismatch)
    return trait_drop_table(groups, {s.record.id: s.results for s in summaries}, bootstrap)


@cli.command()
@run_ids_argument("RUN...")
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write a self-contained HTML report (charts, success grid, transcripts).",
)
@allow_mismatch_option("In the HTML trait-drop chart, compare runs whose settings differ.")
@click.option(
    "--tasks",
    "by_task",
    is_flag=True,
    help="Also list the tasks that failed: their failed trials and missed reward parts.",
)
@bootstrap_options
@results_db_option
@json_option
def report(
    run_ids: tuple[str, ...],
    html_path: Path | None,
    allow_mismatch: bool,
    by_task: bool,
    bootstrap: BootstrapSettings,
    results_db: Path | None,
    as_json: bool,
) -> None:
    """Metrics of runs: average reward, pass^k with confidence intervals, errors, cost.

    RUN is a run id, a unique prefix of one, 'latest', a run's name, or a sweep's name
    (its runs). Intervals are percentile bootstrap intervals over tasks (tasks resampled
    with replacement, their trials kept together). --json prints one object for one run, a
    list for several.
    """
    from tautrait_core.render.terminal import summary_view, with_component_failures

    summaries = _summaries(results_db, run_ids, bootstrap)
    if html_path is not None:
        audits = _trait_audits(results_db, summaries)
        _write_html(html_path, summaries, allow_mismatch, bootstrap, audits)
    if as_json:
        documents = [with_component_failures(s.as_json(bootstrap), s.results) for s in summaries]
        if by_task:
            documents = [_with_tasks(d, s) for d, s in zip(documents, summaries, strict=True)]
        echo_json(documents[0] if len(documents) == 1 else documents)
        return
    out = console()
    for index, summary in enumerate(summaries):
        if index:
            out.print()
        for line in summary_view(summary, bootstrap.confidence, results_db):
            out.print(line)
        if by_task:
            from tautrait_core.analysis.task_outcomes import task_outcomes
            from tautrait_core.render.task_views import task_outcomes_view

            for view in task_outcomes_view(task_outcomes(summary.results)):
                out.print(view)


def _with_tasks(document: dict[str, Any], summary: RunSummary) -> dict[str, Any]:
    """``document`` with ``tasks``: each task's trials by outcome (``--tasks``)."""
    from tautrait_core.analysis.task_outcomes import task_outcomes

    return {**document, "tasks": [t.as_json() for t in task_outcomes(summary.results)]}


def _write_html(
    path: Path,
    summaries: list[RunSummary],
    allow_mismatch: bool,
    bootstrap: BootstrapSettings,
    trait_audits: list[TraitAudit],
) -> None:
    from tautrait_core.errors import ConfigError, TautraitError
    from tautrait_core.files import write_text_file
    from tautrait_core.render.html import html_report

    table, note = None, None
    if len({summary.record.traits for summary in summaries}) > 1:
        try:
            table = _trait_drop(summaries, allow_mismatch, bootstrap)
        except TautraitError as exc:
            note = f"No trait-drop chart: {exc}"
            console(stderr=True).print(note, markup=False, style="yellow")
    page = html_report(summaries, bootstrap, table, note, trait_audits)
    write_text_file(path, page, ConfigError, "the report")
    console(stderr=True).print(f"Wrote {path}", markup=False)


@cli.command()
@run_ids_argument("BASE RUN... | SWEEP")
@allow_mismatch_option(
    "Compare runs that differ in more than their traits (the differences are listed)."
)
@bootstrap_options
@results_db_option
@json_option
def compare(
    run_ids: tuple[str, ...],
    allow_mismatch: bool,
    bootstrap: BootstrapSettings,
    results_db: Path | None,
    as_json: bool,
) -> None:
    """Trait-drop table: relative change of pass^1 of runs with traits against no-trait runs.

    Pass a no-trait BASE run and the runs with traits, or every run of a sweep: runs are
    grouped by their settings (domain, task set and ids, agent, models, user, temperature,
    max steps, trait backend, ...), each group's no-trait run is its base, and each group
    is a row. Runs whose settings differ from every base are refused unless
    --allow-mismatch. Intervals: percentile bootstrap over tasks, paired by task.
    Where the runs' user turns have trait ratings (tautrait traits audit), a trait-fidelity
    table shows beside each run's change how strongly its user showed each trait.
    """
    from tautrait_core.analysis.transcript import official_reward_line
    from tautrait_core.render.terminal import trait_audit_view, trait_drop_view

    summaries = _summaries(results_db, run_ids, bootstrap)
    if len(summaries) < 2:
        raise click.UsageError(
            "compare needs a base run and at least one run with traits, or a sweep"
        )
    table = library_call(_trait_drop, summaries, allow_mismatch, bootstrap)
    audits = _trait_audits(results_db, summaries)
    if as_json:
        document = table.model_dump()
        if audits:
            document["trait_audits"] = [audit.model_dump() for audit in audits]
        echo_json(document)
        return
    out = console()
    for view in trait_drop_view(table):
        out.print(view)
    for summary in summaries:
        line = official_reward_line(summary.results)
        if line is not None:
            out.print(f"{summary.record.id}: {line}", markup=False)
    for audit in audits:
        out.print()
        for view in trait_audit_view(audit, table):
            out.print(view)


@cli.command()
@click.argument("run_id")
@click.option("--task", "task_id", type=int, required=True, help="Task id.")
@click.option("--trial", type=int, default=0, show_default=True, help="Trial number.")
@click.option("--full-system", is_flag=True, help="Show the agent's whole system prompt.")
@results_db_option
@json_option
def show(
    run_id: str,
    task_id: int,
    trial: int,
    full_system: bool,
    results_db: Path | None,
    as_json: bool,
) -> None:
    """One episode as a readable transcript: messages, tool calls, reward breakdown."""
    from tautrait_core.render.terminal import episode_view

    store = open_store(results_db)
    record = library_call(store.get_run, run_id)
    results = store.episodes(record.id)
    result = next((r for r in results if r.task_id == task_id and r.trial == trial), None)
    if result is None:
        trials = sorted(r.trial for r in results if r.task_id == task_id)
        if trials:
            hint = f"task {task_id} has trials {', '.join(map(str, trials))}"
        else:
            tasks = sorted({r.task_id for r in results})
            hint = f"stored tasks: {_id_list(tasks)}" if tasks else "the run has no episodes yet"
        raise click.ClickException(f"run {record.id} has no task {task_id} trial {trial}; {hint}")
    diagnosis = next(
        (d for d in store.diagnoses(record.id) if (d.task_id, d.trial) == (task_id, trial)),
        None,
    )
    if as_json:
        echo_json(
            {
                "run_id": record.id,
                "episode": result.model_dump(mode="json"),
                "diagnosis": diagnosis.model_dump() if diagnosis else None,
            }
        )
        return
    out = console()
    for view in episode_view(record, result, diagnosis, full_system):
        out.print(view)


def _id_list(ids: list[int]) -> str:
    shown = ", ".join(map(str, ids[:20]))
    return shown + (f", ... ({len(ids)} tasks)" if len(ids) > 20 else "")


@cli.command()
@click.argument("run_id")
@click.option("--model", required=True, help="litellm model name of the judge.")
@click.option("--api-base", default=None, help="OpenAI-compatible server for the judge.")
@concurrency_option("Episodes diagnosed at once.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Diagnose at most N.")
@click.option("--redo", is_flag=True, help="Diagnose again episodes that have a diagnosis.")
@results_db_option
@json_option
def diagnose(
    run_id: str,
    model: str,
    api_base: str | None,
    concurrency: int,
    limit: int | None,
    redo: bool,
    results_db: Path | None,
    as_json: bool,
) -> None:
    """Ask a model who caused each failed episode (user, agent, environment) and how.

    One call per failed episode (passes and infrastructure errors are skipped); the
    answers are stored with the run and shown by report and show.
    """
    import asyncio

    from tautrait_core.analysis.diagnose import diagnose_run

    store = open_store(results_db)
    record = library_call(store.get_run, run_id)
    spec = judge_spec(model, api_base, "diagnosis", "diagnose")
    outcome = library_call(asyncio.run, diagnose_run(store, record, spec, concurrency, redo, limit))
    if as_json:
        echo_json(
            {
                "run_id": record.id,
                "diagnosed": [d.model_dump() for d in outcome.diagnosed],
                "unreadable": [list(item) for item in outcome.unreadable],
                "failed": [list(item) for item in outcome.failed],
                "skipped": outcome.skipped,
                "tasks_known": outcome.tasks_known,
                "cost": outcome.cost,
            }
        )
        return
    out = console()
    if not outcome.tasks_known:
        out.print(
            f"Note: task set {record.task_set!r} of domain {record.domain!r} is not installed; "
            "the judge saw the conversation and the check but not the task.",
            markup=False,
            style="yellow",
        )
    out.print(
        prose(
            f"Diagnosed {len(outcome.diagnosed)} failed episodes of run {record.id} with "
            f"{model} ({outcome.skipped} already diagnosed); cost {format_cost(outcome.cost)}"
        ),
        markup=False,
    )
    for task_id, trial, why in outcome.unreadable + outcome.failed:
        out.print(f"  not diagnosed: task {task_id} trial {trial}: {why}", markup=False)
    if outcome.unreadable or outcome.failed:
        lead = "Run the command again to retry those. Counts"
        out.print(command_hint(lead, f"tautrait report {record.id}", results_db), markup=False)

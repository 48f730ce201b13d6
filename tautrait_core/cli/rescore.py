"""``tautrait rescore``: re-grade recorded episodes against the current tasks (no model)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from tautrait_core.cli.root import (
    cli,
    json_option,
    judge_options,
    judge_spec,
    library_call,
    results_db_option,
)
from tautrait_core.render.console import console, echo_json

if TYPE_CHECKING:
    from rich.table import Table

    from tautrait_core.analysis.rescore import EpisodeRescore, RescoreReport
    from tautrait_core.grading.metrics import PassHatK


@cli.command()
@click.argument("source", metavar="FILE_OR_RUN")
@click.option(
    "--domain",
    default=None,
    help="Domain to replay in [default: the run's, or one named in the file name].",
)
@click.option(
    "--task-set",
    default=None,
    help="Task set to score with [default: the run's, or the one holding a file's tasks].",
)
@judge_options(
    "Model that judges the NL assertions of τ²-style tasks whose reward basis holds "
    "them (without one, such episodes are reported as not scoreable)."
)
@results_db_option
@json_option
def rescore(
    source: str,
    domain: str | None,
    task_set: str | None,
    judge_model: str | None,
    judge_api_base: str | None,
    results_db: Path | None,
    as_json: bool,
) -> None:
    """Re-grade recorded episodes with the current tasks and tools, without calling a model.

    FILE_OR_RUN is a run id in the results database ('latest' or a unique prefix works) or
    an upstream result file (tau-bench / tau-Trait result list, or τ²-bench results). Each
    episode's tool calls and replies are replayed on a fresh database and its reward is
    recomputed (τ²-style tasks: every reward component); the output gives old and new
    reward per episode, why they differ, and pass^k before and after.
    """
    from tautrait_core.analysis.rescore import rescore as rescore_source
    from tautrait_core.paths import default_results_db
    from tautrait_core.store.database_file import check_results_database

    if not Path(source).is_file():  # a run: check its database before asking for a judge
        path = results_db or default_results_db()
        library_call(check_results_database, path, must_exist=results_db is not None)
    judge = None
    if judge_model is not None:
        from tautrait_core.grading.nl_judge import ModelJudge

        judge = ModelJudge(judge_spec(judge_model, judge_api_base, "judge", "judge"))
    report = library_call(
        rescore_source,
        source,
        domain=domain,
        task_set=task_set,
        results_db=results_db,
        judge=judge,
    )
    if as_json:
        echo_json(report.model_dump(mode="json"))
        return
    out = console()
    out.print(_episode_table(report))
    summary = report.summary
    causes = ", ".join(f"{kind} {count}" for kind, count in summary.causes.items())
    out.print(
        f"{report.domain}/{report.task_set}: {summary.episodes} episodes, "
        f"{summary.rescored} rescored, {summary.agreements} agree, "
        f"{summary.disagreements} disagree" + (f" ({causes})" if causes else "")
    )
    if summary.skipped:
        out.print(f"[yellow]{summary.skipped} episodes could not be rescored[/yellow]")
    if summary.tasks_changed:
        out.print(f"{summary.tasks_changed} episodes were recorded with a different task")
    for before, after in zip(summary.pass_hat_k_before, summary.pass_hat_k_after, strict=True):
        out.print(f"pass^{before.k}: {_rate(before)} -> {_rate(after)}{_over(after)}")


def _episode_table(report: RescoreReport) -> Table:
    from rich.table import Table

    with_components = any(
        episode.reward_info is not None and episode.reward_info.reward_basis is not None
        for episode in report.episodes
    )
    columns = ["task", "trial", "old", "new", "verdict", "why"]
    table = Table(*columns, *(["components"] if with_components else []))
    table.title = f"Rescore {report.source}"
    for episode in report.episodes:
        new = "-" if episode.new_reward is None else f"{episode.new_reward:g}"
        cells = [
            str(episode.task_id),
            str(episode.trial),
            f"{episode.old_reward:g}",
            new,
            _verdict(episode),
            "; ".join(_reasons(episode)),
        ]
        table.add_row(*cells, *([_components(episode)] if with_components else []))
    return table


def _components(episode: EpisodeRescore) -> str:
    """The reward of each basis component of a τ²-style grade (``-`` for other grades)."""
    info = episode.reward_info
    if info is None or info.reward_basis is None:
        return "-"
    if info.not_scoreable is not None:
        return "not scoreable"
    breakdown = info.reward_breakdown or {}
    return ", ".join(f"{name} {value:g}" for name, value in breakdown.items()) or "-"


def _verdict(episode: EpisodeRescore) -> str:
    if episode.agrees is None:
        return "[yellow]skipped[/yellow]"
    return "same" if episode.agrees else "[bold red]changed[/bold red]"


def _reasons(episode: EpisodeRescore) -> list[str]:
    reasons = [cause.describe() for cause in episode.causes]
    if episode.skipped:
        reasons.append(episode.skipped)
    if episode.task_changes:
        reasons.append("task changed: " + ", ".join(episode.task_changes))
    return reasons + episode.notes


def _rate(entry: PassHatK) -> str:
    return "n/a" if entry.value is None else f"{entry.value:.3f}"


def _over(entry: PassHatK) -> str:
    return f"  (over {entry.tasks} tasks)"

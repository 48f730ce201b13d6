"""``tautrait sweep``: a grid of runs from a TOML file, as one resumable job."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tautrait_core.cli.root import cli, json_option, library_call, open_store, results_db_option
from tautrait_core.cli.run import executor_option, ray_address_option
from tautrait_core.render.console import command_hint, console, echo_json
from tautrait_core.render.progress import ProgressDisplay

if TYPE_CHECKING:
    from tautrait_core.run.sweeps import PointOutcome, PointPlan, SweepReport


@cli.command()
@click.argument(
    "file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option("--resume", "resume_name", default=None, metavar="NAME", help="Continue a sweep.")
@click.option("--new", is_flag=True, help="Start the file over under a new name (NAME-2, ...).")
@click.option("--dry-run", is_flag=True, help="List the points and what would run; run nothing.")
@executor_option
@ray_address_option
@results_db_option
@json_option
def sweep(
    file: Path | None,
    resume_name: str | None,
    new: bool,
    dry_run: bool,
    executor: str | None,
    ray_address: str | None,
    results_db: Path | None,
    as_json: bool,
) -> None:
    """Run a grid of runs (domains x models x trait mixes x ...) as one resumable job.

    \b
    FILE is TOML: a name, [base] options fixed for every run, [grid] lists:
      name = "trait-grid"          # unique in the results database
      [base]                       # any `tautrait run` option (_ for -)
      agent = "tool-calling"
      user_model = "gpt-4o"
      num_trials = 4
      concurrency = 16
      [grid]                       # one run per combination
      domain = ["telehealth", "retail"]
      agent_model = ["gpt-4o", "claude-sonnet-4-5"]
      traits = ["", "impatience=high", "confusion=2,skeptical=1"]

    The whole file is checked before anything runs. Running the same file again (or
    `tautrait sweep --resume NAME`) skips finished runs, resumes unfinished ones and starts
    missing ones; a changed file under a stored name is refused (use --new, or rename it).
    --executor ray runs every run's episodes on a Ray cluster. See docs/sweeps.md.
    """
    from tautrait_core.run.sweep_file import load_sweep_file
    from tautrait_core.run.sweeps import plan_sweep, renamed, run_sweep, stored_sweep

    if (file is None) == (resume_name is None):
        raise click.UsageError("give a sweep FILE or --resume NAME (not both)")
    if new and resume_name:
        raise click.UsageError("--new starts a file over; it does not go with --resume")
    store = open_store(results_db, create=resume_name is None)
    if file is not None:
        spec = library_call(load_sweep_file, file)
        if new:
            spec = library_call(renamed, spec, store)
    else:
        spec = library_call(stored_sweep, store, resume_name)
    if dry_run:
        _print_plan(library_call(plan_sweep, spec, store), spec.name, as_json)
        return
    if executor == "ray":
        from tautrait_core.run.prepared import import_ray

        library_call(import_ray)
    progress = SweepProgressDisplay(enabled=not as_json)
    overrides = {"executor": executor, "ray_address": ray_address}
    try:
        report = library_call(run_sweep, spec, store, progress, True, overrides)
    except KeyboardInterrupt:  # between runs, outside a run's own Ctrl-C handling
        progress.close()
        hint = _resume_hint(spec.name, results_db)
        console(stderr=True).print(f"Interrupted. {hint}", markup=False)
        sys.exit(130)
    finally:
        progress.close()
    _print_report(report, as_json)
    if report.interrupted:
        sys.exit(130)


def _resume_hint(name: str, results_db: Path | None) -> str:
    lead = "Finished episodes are saved. Resume with"
    return command_hint(lead, f"tautrait sweep --resume {shlex.quote(name)}", results_db)


def _print_plan(plans: list[PointPlan], name: str, as_json: bool) -> None:
    rows = [
        {
            "point": plan.point.index,
            "values": plan.point.values,
            "action": plan.action,
            "run_id": plan.run_id,
            "episodes": plan.point.episodes,
            "finished": plan.finished,
        }
        for plan in plans
    ]
    if as_json:
        echo_json({"sweep": name, "points": rows})
        return
    from rich.table import Column, Table

    table = Table(
        Column("point", no_wrap=True),
        Column("settings", overflow="fold", ratio=1),
        Column("episodes", no_wrap=True),
        Column("would", no_wrap=True),
        Column("run", no_wrap=True),
        title=f"sweep {name}",
    )
    words = {"start": "start", "resume": "resume", "done": "skip\n(finished)"}
    for plan in plans:
        done = f"{plan.finished}/{plan.point.episodes}" if plan.run_id else str(plan.point.episodes)
        settings = plan.point.label().replace(", ", "\n")
        table.add_row(str(plan.point.index), settings, done, words[plan.action], plan.run_id or "")
    console().print(table)
    pending = sum(plan.point.episodes - plan.finished for plan in plans if plan.action != "done")
    console().print(f"{pending} episodes would run (dry run: nothing was run)")


def _print_report(report: SweepReport, as_json: bool) -> None:
    if as_json:
        echo_json(
            {
                "sweep": report.sweep.name,
                "results_db": str(report.results_db),
                "interrupted": report.interrupted,
                "stop_reasons": report.stop_reasons,
                "points": [_outcome_json(outcome) for outcome in report.points],
            }
        )
        return
    from tautrait_core.render.terminal import sweep_points_view

    out = console()
    out.print(sweep_points_view(report.points, report.sweep.name))
    for warning in report.warnings:
        out.print(f"[yellow]Warning: {warning}[/yellow]", soft_wrap=False)
    for reason in report.stop_reasons:
        out.print(f"[yellow]Stopped early: {reason}[/yellow]", soft_wrap=False)
    out.print(f"Results: {report.results_db}  (sweep {report.sweep.name})", markup=False)
    if report.interrupted or report.stop_reasons:
        hint = _resume_hint(report.sweep.name, report.results_db)
        out.print(hint, style="yellow", markup=False)


def _outcome_json(outcome: PointOutcome) -> dict[str, Any]:
    return {
        "point": outcome.point.index,
        "values": outcome.point.values,
        "run_id": outcome.run.id if outcome.run else None,
        "status": outcome.run.status if outcome.run else "not started",
        "metrics": outcome.metrics.model_dump() if outcome.metrics else None,
    }


class SweepProgressDisplay(ProgressDisplay):
    """Two bars on stderr: the whole sweep's episodes, and the current run's."""

    def __init__(self, enabled: bool = True) -> None:
        super().__init__(enabled)
        self._sweep_task: Any = None
        self._sweep_total = 0
        self._sweep_done = 0
        self._label = ""

    def sweep_started(self, name: str, total: int, already_done: int) -> None:
        self._sweep_total, self._sweep_done = total, already_done
        if self.enabled:
            done = f" ({already_done} already finished)" if already_done else ""
            console(stderr=True).print(f"Sweep {name}: {total} episodes{done}")

    def point_started(self, plan: PointPlan, position: int, count: int) -> None:
        self._label = f"run {position}/{count} (point {plan.point.index}: {plan.point.label()})"

    def started(self, run: Any, total: int, already_done: int) -> None:
        if self._progress is None:
            super().started(run, total, already_done)
            if self._progress is not None:
                self._sweep_task = self._progress.add_task(
                    "sweep", total=self._sweep_total, completed=self._sweep_done, counts=""
                )
        else:
            self.run_id = run.id
            self._counts = dict.fromkeys(self._counts, 0)
            self._progress.reset(self._task, total=total, completed=already_done, counts="")
        if self._progress is not None:
            self._progress.update(self._task, description=self._label)

    def episode_finished(self, result: Any) -> None:
        super().episode_finished(result)
        if self._progress is not None:
            self._progress.update(self._sweep_task, advance=1)

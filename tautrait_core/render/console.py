"""Terminal output of the CLI: the rich console, JSON output, run tables and metrics."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from tautrait_core.analysis.metrics import RunMetrics
    from tautrait_core.store.tables import RunRecord


def console(stderr: bool = False) -> Console:
    """A rich console on stdout (or stderr)."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def echo_json(data: Any) -> None:
    """Print ``data`` as indented JSON on stdout."""
    click.echo(json.dumps(data, indent=2, default=str))


def format_cost(cost: float | None) -> str:
    """Dollars, or ``unknown`` when some call had no known price (never a silent 0)."""
    return "unknown" if cost is None else f"${cost:.4f}"


def print_metrics(run: RunRecord, metrics: RunMetrics) -> None:
    """The summary block of ``tautrait run`` and ``tautrait report``."""
    out = console()
    models = f"agent {run.agent}" + (f" ({run.agent_model})" if run.agent_model else "")
    user = f"user {run.user_strategy}" + (
        f" ({run.user_model})" if run.user_model and run.user_strategy != "scripted" else ""
    )
    out.print(f"Run {run.id}  {run.domain}/{run.task_set}  {models}  {user}  traits {run.traits}")
    out.print(
        f"Episodes: {metrics.episodes} ({metrics.scored} scored, {metrics.errors} errors)"
        f"  tasks: {metrics.tasks}  trials: {run.num_trials}"
    )
    average = "n/a" if metrics.average_reward is None else f"{metrics.average_reward:.3f}"
    out.print(f"Average reward: {average}")
    for entry in metrics.pass_hat_k:
        if entry.value is None:
            out.print(f"pass^{entry.k}: n/a (no task has {entry.k} scored trials)")
            continue
        note = "" if entry.tasks == metrics.tasks else f"  (over {entry.tasks} tasks)"
        out.print(f"pass^{entry.k}: {entry.value:.3f}{note}")
    if metrics.errors:
        out.print(
            f"[yellow]{metrics.errors} episodes ended in infrastructure errors; they are not "
            f"counted above and are re-run by: tautrait run --resume {run.id}[/yellow]"
        )
    out.print(
        f"Cost: {format_cost(metrics.cost)} (agent {format_cost(metrics.agent_usage.cost)}, "
        f"user {format_cost(metrics.user_usage.cost)}; "
        f"{metrics.agent_usage.calls + metrics.user_usage.calls} model calls)"
    )


def runs_table(rows: list[dict[str, Any]]) -> Table:
    """The table of ``tautrait runs list``."""
    from rich.table import Table

    table = Table(
        "run",
        "created",
        "domain/task set",
        "agent",
        "user",
        "traits",
        "trials",
        "pass/fail/error",
        "status",
    )
    for row in rows:
        agent = row["agent"] + (f" ({row['agent_model']})" if row.get("agent_model") else "")
        table.add_row(
            row["id"],
            row["created_at"].replace("T", " ")[:16],
            f"{row['domain']}/{row['task_set']}",
            agent,
            row["user_strategy"],
            row["traits"],
            str(row["num_trials"]),
            f"{row.get('pass', 0)}/{row.get('fail', 0)}/{row.get('error', 0)}",
            row["status"],
        )
    return table

"""Terminal output of the CLI: the rich console, JSON output, run tables and metrics."""

from __future__ import annotations

import json
import os
import shlex
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tautrait_core.money import format_costs

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from tautrait_core.grading.metrics import RunMetrics
    from tautrait_core.store.tables import RunRecord


def console(stderr: bool = False) -> Console:
    """A rich console on stdout (or stderr)."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def echo_json(data: Any) -> None:
    """Print ``data`` as indented JSON on stdout."""
    click.echo(json.dumps(data, indent=2, default=str))


def follow_up(command: str, results_db: Path | str | None) -> str:
    """``command`` (a ``tautrait ...`` line to paste) for runs stored in ``results_db``.

    When ``results_db`` is not the default results database, ``--results-db PATH``
    (absolute, shell-quoted) is added, so that the pasted command finds the same run;
    otherwise ``command`` is returned as it is.
    """
    if results_db is None:
        return command
    from tautrait_core.errors import TautraitError
    from tautrait_core.paths import default_results_db

    path = Path(os.path.abspath(results_db))
    try:
        if path.resolve() == default_results_db().resolve():
            return command
    except TautraitError:  # no usable default database: name this one
        pass
    return f"{command} --results-db {shlex.quote(str(path))}"


def command_hint(lead: str, command: str, results_db: Path | str | None, more: str = "") -> str:
    """``lead`` (a sentence ending before its colon), then the command to paste and
    ``more`` of it (e.g. ``" --max-cost <higher limit>"``, a value to fill in).

    With the default results database and within 80 columns, ``"lead: command"`` on one
    line; otherwise the command (with ``--results-db PATH`` for another database, see
    :func:`follow_up`) goes on a line of its own, indented two spaces, so that it can be
    copied whole, after the lead wrapped to 80 columns. Print the result with
    ``markup=False``: a path may hold square brackets.
    """
    pasted = follow_up(command, results_db)
    one_line = f"{lead}: {command}{more}"
    if pasted == command and len(one_line) <= 80:
        return one_line
    return f"{textwrap.fill(lead + ':', 80)}\n  {pasted}{more}"


def fit_fields(line: str, width: int = 80, separator: str = "  ", indent: str = "") -> str:
    """``line``, whose fields are separated by ``separator`` (two spaces: ``Run ID
    domain/set  agent ...``), broken into lines of at most ``width`` columns between
    fields, never inside one (a field longer than ``width`` keeps a line of its own). A
    separator that ends in a space keeps the rest of itself (``","``) at the end of the
    broken line; lines after the first start with ``indent``."""
    kept = separator.rstrip(" ")
    lines: list[str] = []
    for field in line.split(separator):
        if lines and len(lines[-1]) + len(separator) + len(field) <= width:
            lines[-1] += separator + field
        elif lines:
            lines[-1] += kept
            lines.append(indent + field)
        else:
            lines.append(field)
    return "\n".join(lines)


def prose(text: str, width: int = 80) -> str:
    """``text`` wrapped at spaces to lines of at most ``width`` columns (a word longer than
    that, a path or URL, is kept whole)."""
    return textwrap.fill(text, width, break_long_words=False, break_on_hyphens=False)


def shortened(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns, its end replaced by an ellipsis when cut."""
    return text if len(text) <= width else text[: width - 1] + "…"


def cost_line(metrics: RunMetrics, imported: bool = False) -> str:
    """``Cost: $T (agent $A, user $U; N model calls, C answered from the cache)``."""
    total, agent, user = format_costs(
        metrics.cost, metrics.agent_usage.cost, metrics.user_usage.cost
    )
    calls = metrics.agent_usage.calls + metrics.user_usage.calls
    if imported and not calls:
        counted = "model calls not recorded in the imported file"
    else:
        counted = f"{calls} model calls"
        if metrics.cached_calls:
            counted += f", {metrics.cached_calls} answered from the --cache at no cost"
    return f"Cost: {total} (agent {agent}, user {user}; {counted})"


def run_sides(run: dict[str, Any]) -> tuple[str, str, str]:
    """How a run's agent, user and traits read in headers and tables: ``oracle (model)``,
    ``llm (model)`` or ``none (solo)``, and the trait mix with its backend when that is not
    the default ``prompt``. ``run`` holds a run row's columns plus ``solo`` and
    ``trait_backend`` from its configuration (see :func:`run_columns`)."""
    agent = run["agent"] + (f" ({run['agent_model']})" if run.get("agent_model") else "")
    user = run["user_strategy"]
    if run.get("solo"):
        user = "none (solo)"
    elif run.get("user_model") and user != "scripted":  # older runs stored an unused model
        user += f" ({run['user_model']})"
    traits = run["traits"].replace(",", ", ")
    backend = run.get("trait_backend")
    if backend and backend != "prompt":
        traits += f" ({backend} backend)"
    return agent, user, traits


def run_columns(run: RunRecord) -> dict[str, Any]:
    """A run row's columns with the settings :func:`run_sides` reads from its config."""
    columns = run.model_dump(exclude={"config", "plugins", "task_ids"})
    config = run.config or {}
    return {
        **columns,
        "solo": config.get("solo", False),
        "trait_backend": config.get("trait_backend"),
    }


def print_metrics(
    run: RunRecord, metrics: RunMetrics, results_db: Path | str | None = None
) -> None:
    """The summary block of ``tautrait run``; its hints name ``results_db`` when that is
    not the default database (see :func:`follow_up`)."""
    out = console()
    out.print(fit_fields(run_heading(run)), markup=False)  # the heading report shows
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
    for line in error_hints(metrics, run.id, results_db):
        out.print(line, style="yellow", markup=False)
    out.print(cost_line(metrics), markup=False)


def error_hints(
    metrics: RunMetrics, run_id: str, results_db: Path | str | None, imported: bool = False
) -> list[str]:
    """What a run's errors mean and what to do: τ³'s rule on them, the infrastructure
    errors (re-run by ``--resume``), the episodes waiting for a judge model, and the
    agent's own failures. ``imported``: the run came from a file and cannot be resumed."""
    lines = []
    if metrics.errors and metrics.rules == "tau3":
        lines.append(tau3_errors_line(metrics))
    infrastructure = metrics.errors - metrics.not_scoreable
    if infrastructure:
        text = (
            f"{infrastructure} episodes ended in infrastructure errors; they are not counted above"
        )
        resume = f"tautrait run --resume {run_id}"
        lines.append(
            text if imported else command_hint(f"{text} and are re-run by", resume, results_db)
        )
    if metrics.not_scoreable:
        text = f"{metrics.not_scoreable} episodes are not scoreable without a judge model"
        judged = f"tautrait run --resume {run_id} --judge-model MODEL"
        lines.append(
            text if imported else command_hint(f"{text}; score them with", judged, results_db)
        )
    if metrics.agent_errors:
        lines.append(agent_errors_line(metrics))
    return lines


def agent_errors_line(metrics: RunMetrics) -> str:
    """How many scored episodes the agent ended by failing (``agent_error``)."""
    return (
        f"{metrics.agent_errors} episodes ended in an agent error (agent_error): the agent's "
        "failure, scored 0 above"
    )


def tau3_errors_line(metrics: RunMetrics) -> str:
    """What τ³'s metrics rule did to a run with errors (infrastructure errors, and
    episodes not scoreable without a judge, which it leaves out alike)."""
    why = "as infrastructure errors" if not metrics.not_scoreable else "as errors"
    return (
        f"{metrics.errors} episodes left out {why}; "
        f"pass^k up to k={len(metrics.pass_hat_k)} (τ³'s rule)"
    )


def run_heading(record: RunRecord) -> str:
    """``Run ID  domain/task set  agent ...  user ...  traits ...``."""
    agent, user, traits = run_sides(run_columns(record))
    name = f"  name {record.name}" if record.name else ""
    retrieval = (record.config or {}).get("retrieval")  # stored for knowledge-base domains
    searched = f"  retrieval {retrieval}" if isinstance(retrieval, str) else ""
    return (
        f"Run {record.id}  {record.domain}/{record.task_set}  agent {agent}  user {user}  "
        f"traits {traits}{searched}{name}"
    )


def runs_table(rows: list[dict[str, Any]]) -> Table:
    """The table of ``tautrait runs list``: whole run ids, fitting 80 columns.

    Each run takes a few lines: its id, creation time and status; its settings one per
    line (long ones wrap at spaces); its episode counts.
    """
    from rich import box
    from rich.table import Column, Table
    from rich.text import Text

    table = Table(
        Column("run", no_wrap=True),
        Column("settings", overflow="fold", ratio=1),
        Column("episodes", no_wrap=True),
        box=box.SIMPLE_HEAD,
        leading=1,
    )
    for row in rows:
        agent, user, traits = run_sides(row)
        name = f"\nname {row['name']}" if row.get("name") else ""
        settings = (
            f"{row['domain']}/{row['task_set']}\nagent {agent}\nuser {user}\ntraits {traits}{name}"
        )
        created = row["created_at"].replace("T", " ")[:16]
        counts = (
            f"{row.get('pass', 0)} pass\n{row.get('fail', 0)} fail\n"
            f"{row.get('error', 0)} error\n{row['num_trials']} trials"
        )
        table.add_row(
            Text(f"{row['id']}\n{created}\n{row['status']}"), Text(settings), Text(counts)
        )
    return table


def plugins_table(infos: list[Any]) -> Table:
    """The table of ``tautrait plugins``: whole names, fitting 80 columns.

    ``infos`` are the plugin manager's ``PluginInfo`` records (name, distribution,
    version, registers).
    """
    from rich import box
    from rich.table import Column, Table
    from rich.text import Text

    table = Table(
        Column("plugin (distribution version)", no_wrap=True),
        Column("registers", overflow="fold", ratio=1),
        box=box.SIMPLE_HEAD,
        leading=1,
    )
    for info in infos:
        registers = "\n".join(
            f"{kind}: {', '.join(names)}" for kind, names in info.registers.items()
        )
        table.add_row(
            Text(f"{info.name}\n{info.distribution} {info.version}"), Text(registers or "-")
        )
    return table

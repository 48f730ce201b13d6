"""Terminal views (rich renderables): the report summary and a readable transcript.

Model and user text (messages, tool data, run names) goes in ``rich.text.Text``: no markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tautrait_core.analysis.grouping import describe_differences
from tautrait_core.analysis.transcript import (
    component_failures,
    component_failures_line,
    official_reward_line,
    reward_breakdown,
    transcript,
    visible,
)
from tautrait_core.interchange.result_import import IMPORTED_STATUS
from tautrait_core.money import format_cost
from tautrait_core.render.console import (
    command_hint,
    cost_line,
    error_hints,
    fit_fields,
    run_heading,
)
from tautrait_core.render.error_lines import error_lines

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import RenderableType

    from tautrait_core.analysis.summary import RunSummary
    from tautrait_core.analysis.trait_audit import RunTraitAudit, TraitAudit
    from tautrait_core.analysis.trait_drop import TraitDropTable
    from tautrait_core.run.sweeps import PointOutcome
    from tautrait_core.store.tables import DiagnosisRecord, RunRecord
    from tautrait_core.types.result import EpisodeResult

ENTRY_STYLES = {
    "system": ("system", "dim"),
    "user": ("user", "bold cyan"),
    "agent": ("agent", "bold green"),
    "tool_call": ("  call", "magenta"),
    "tool_result": ("  result", "yellow"),
}
SYSTEM_PREVIEW_CHARS = 160

RUN_ID_WIDTH = len("20261122-153012-7f3a")
"""Columns a run id takes (see ``tautrait_core.store.rows.new_run_id``): never cut."""


def with_component_failures(
    document: dict[str, Any], results: Sequence[EpisodeResult]
) -> dict[str, Any]:
    """``report --json``'s document of a run, with ``component_failures`` (see
    :func:`component_failures`) when some episode was τ²-graded."""
    failures = component_failures(results)
    return document if failures is None else {**document, "component_failures": failures}


def summary_view(
    summary: RunSummary, confidence: float, results_db: Path | None = None
) -> list[RenderableType]:
    """The lines ``tautrait report`` prints for one run (stored in ``results_db``)."""
    from rich.text import Text

    from tautrait_core.config.run_config import stored_plugin_options

    record, metrics = summary.record, summary.metrics
    options = stored_plugin_options(record.config)
    lines: list[RenderableType] = [
        Text(visible(fit_fields(run_heading(record)))),
        *(
            [Text(visible("Plugin options: " + "  ".join(f"{k}={v}" for k, v in options.items())))]
            if options
            else []
        ),
        Text(
            f"Episodes: {metrics.episodes} ({metrics.scored} scored, {metrics.errors} errors)"
            f"  tasks: {metrics.tasks}  trials: {record.num_trials}"
        ),
        Text(
            "Average reward: "
            + ("n/a" if metrics.average_reward is None else f"{metrics.average_reward:.3f}")
        ),
    ]
    for interval in summary.intervals:
        if interval.value is None or interval.low is None or interval.high is None:
            lines.append(Text(f"pass^{interval.k}: n/a (no task has {interval.k} scored trials)"))
            continue
        over = "" if interval.tasks == metrics.tasks else f"  (over {interval.tasks} tasks)"
        lines.append(
            Text(
                f"pass^{interval.k}: {interval.value:.3f}  "
                f"{confidence:.0%} CI {interval.low:.3f}-{interval.high:.3f}{over}"
            )
        )
    imported = record.status == IMPORTED_STATUS
    lines.append(Text(cost_line(metrics, imported)))
    for line in (component_failures_line(summary.results), official_reward_line(summary.results)):
        lines += [Text(line)] if line is not None else []
    if summary.diagnoses:
        counts = summary.diagnosis_counts()
        faults = ", ".join(f"{name} {n}" for name, n in counts["fault"].items())
        types = ", ".join(f"{name} {n}" for name, n in counts["fault_type"].items())
        lines.append(
            Text(
                f"Diagnoses: {counts['diagnosed']} of {counts['failed']} failed episodes; "
                f"fault: {faults}; type: {types}"
            )
        )
    expected = len(record.task_ids) * record.num_trials
    if summary.missing and imported:
        lines.append(
            Text(f"{summary.missing} of {expected} episodes absent from the imported file")
        )
    elif summary.missing:
        lead = f"{summary.missing} of {expected} episodes not run yet (status {record.status})."
        resume = f"tautrait run --resume {record.id}"
        lines.append(Text(command_hint(f"{lead} Continue with", resume, results_db)))
    errors = summary.errors()
    lines += [Text(line, style="yellow") for line in error_lines(errors)]
    hints = error_hints(metrics, record.id, results_db, imported=imported)
    return lines + [Text(line, style="yellow") for line in hints]


def episode_view(
    record: RunRecord,
    result: EpisodeResult,
    diagnosis: DiagnosisRecord | None,
    full_system: bool = False,
) -> list[RenderableType]:
    """A readable transcript of one episode with its reward breakdown."""
    from rich.rule import Rule
    from rich.table import Table
    from rich.text import Text

    title = (
        f"run {record.id} · task {result.task_id} · trial {result.trial} · {result.outcome.value}"
    )
    conversation = Table.grid(padding=(0, 1))
    conversation.add_column(no_wrap=True)
    conversation.add_column(overflow="fold")
    for entry in transcript(result):
        label, style = ENTRY_STYLES[entry.kind]
        text, tool = visible(entry.text), visible(entry.tool or "")
        if entry.kind == "system" and not full_system and len(text) > SYSTEM_PREVIEW_CHARS:
            text = f"{text[:SYSTEM_PREVIEW_CHARS]}... ({len(text)} chars; --full-system shows all)"
        if entry.kind == "tool_call":
            body = Text.assemble((tool, "bold magenta"), f"({text})")
        elif entry.kind == "tool_result":
            body = Text.assemble((f"{tool}: ", "bold yellow"), text)
        else:
            body = Text(text)
        conversation.add_row(Text(label, style=style), body)
    views: list[RenderableType] = [Rule(Text(visible(title))), conversation, Rule("reward")]
    views.extend(Text(visible(line)) for line in reward_breakdown(result).lines())
    if diagnosis is not None:
        views.append(Rule("diagnosis"))
        views.append(Text(visible(diagnosis_line(diagnosis))))
    return views


def diagnosis_line(diagnosis: DiagnosisRecord) -> str:
    """``Fault: agent; type: wrong_argument (by MODEL). EXPLANATION``."""
    return (
        f"Fault: {diagnosis.fault}; type: {diagnosis.fault_type} (by {diagnosis.model}). "
        f"{diagnosis.explanation}"
    )


def percent(value: float | None) -> str:
    """``-12.3%`` (``n/a`` for ``None``)."""
    return "n/a" if value is None else f"{value:+.1%}"


def change_with_interval(value: float | None, low: float | None, high: float | None) -> str:
    """``-12.3% [-20.1%, -4.0%]``."""
    if value is None:
        return "n/a"
    if low is None or high is None:
        return percent(value)
    return f"{percent(value)} [{percent(low)}, {percent(high)}]"


def trait_drop_view(table: TraitDropTable) -> list[RenderableType]:
    """The trait-drop table, and notes on runs compared despite differing settings. Fits
    80 columns: a group of runs is a section, its base first, then a row per trait mix."""
    import textwrap

    from rich.table import Column, Table
    from rich.text import Text

    grid = Table(
        Column("domain · agent model", overflow="fold", ratio=1),
        Column("traits", overflow="fold", ratio=1),
        Column("pass^1", justify="right", no_wrap=True),
        Column(f"change [{table.confidence:.0%} CI]", justify="right", no_wrap=True),
        title=Text("Relative change of pass^1 against the no-trait run"),
    )
    notes: list[RenderableType] = []
    for row in table.rows:
        grid.add_row(Text(row.label), Text("none (base)"), Text(_rate(row.base_pass_hat_1)), "")
        for cell in row.cells:
            change = change_with_interval(cell.relative_change, cell.low, cell.high)
            traits = Text(cell.traits.replace(",", ", "))  # wraps between traits
            grid.add_row("", traits, Text(_rate(cell.pass_hat_1)), Text(change))
            if cell.differences:
                differing = describe_differences(
                    {name: (a, b) for name, (a, b) in cell.differences.items()}
                )
                note = (
                    f"Note: {cell.run_id} ({cell.traits}) differs from base "
                    f"{row.base_run_id} in {differing}"
                )
                notes.append(Text(textwrap.fill(note, 80), style="yellow"))
        average = change_with_interval(row.average, row.average_low, row.average_high)
        grid.add_row("", "average", "", Text(average), end_section=True)
    caption = Text(
        textwrap.fill(
            f"Intervals: {table.confidence:.0%} percentile bootstrap over tasks, paired by "
            f"task ({table.resamples} resamples, seed {table.seed}).",
            80,
        )
    )
    return [grid, caption, *notes]


def _rate(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def sweep_points_view(outcomes: list[PointOutcome], name: str) -> RenderableType:
    """Every point of a sweep: its settings, reward and pass^k, run id and status.

    Fits 80 columns: settings are one per line (long ones wrap at spaces) and run ids are
    whole.
    """
    from rich import box
    from rich.table import Column, Table
    from rich.text import Text

    shown = ("domain", "agent_model", "traits")
    other = [key for key in outcomes[0].point.values if key not in shown] if outcomes else []
    table = Table(
        Column("point", no_wrap=True),
        Column("settings", overflow="fold", ratio=1),
        Column("results", no_wrap=True),
        Column("run", no_wrap=True),
        title=Text(f"sweep {name}"),
        box=box.SIMPLE_HEAD,
        leading=1,
    )
    for outcome in outcomes:
        config, metrics = outcome.point.config, outcome.metrics
        settings = [
            config.domain,
            f"agent model {config.agent.model or '-'}",
            f"traits {config.user.traits.label().replace(',', ', ')}",
            *(f"{key} {outcome.point.values[key]}" for key in other),
        ]
        average = metrics.average_reward if metrics else None
        results = ["avg reward " + ("-" if average is None else f"{average:.3f}")]
        results += [f"pass^{e.k} {_rate(e.value)}" for e in metrics.pass_hat_k] if metrics else []
        run = f"{outcome.run.id}\n{outcome.run.status}" if outcome.run else "-\nnot started"
        table.add_row(
            str(outcome.point.index),
            Text(visible("\n".join(settings))),
            "\n".join(results),
            Text(run),
        )
    return table


def pass_change_by_run(table: TraitDropTable) -> dict[str, str]:
    """Each run's trait-drop cell as text (``base`` for the no-trait runs), by run id."""
    changes = {row.base_run_id: "base" for row in table.rows}
    for row in table.rows:
        for cell in row.cells:
            changes[cell.run_id] = change_with_interval(cell.relative_change, cell.low, cell.high)
    return changes


def fidelity_cell(run: RunTraitAudit, trait: str) -> str:
    """``1.33 (high)``: mean rating, and the requested intensity when the mix has the trait."""
    from tautrait_core.trait_mix import INTENSITY_WORDS

    entry = run.trait(trait)
    rated = mean_rating_text(entry.mean_rating)
    return rated if entry.requested is None else f"{rated} ({INTENSITY_WORDS[entry.requested]})"


def correlation_lines(audit: TraitAudit) -> list[str]:
    """``Spearman ... across runs: impatience 0.83, ...``, over all runs and per backend."""
    lines = []
    for group, values in audit.correlations.items():
        shown = ", ".join(
            f"{trait} {'n/a' if rho is None else f'{rho:.2f}'}" for trait, rho in values.items()
        )
        lines.append(f"Rank correlation of requested and rated intensity ({group}): {shown}")
    return lines


def trait_audit_view(
    audit: TraitAudit, table: TraitDropTable | None = None
) -> list[RenderableType]:
    """Requested against rated trait intensity per run, with leakage; beside each run's
    change of pass^1 when a trait-drop table is given. Fits 80 columns: a run's settings
    are stacked under its whole id, its four traits are lines of one row."""
    from rich.table import Column, Table
    from rich.text import Text

    from tautrait_core.trait_mix import INTENSITY_WORDS

    changes = pass_change_by_run(table) if table is not None else None
    grid = Table(
        Column("run", min_width=RUN_ID_WIDTH, overflow="fold", ratio=1),
        Column("trait", no_wrap=True),
        Column("requested", no_wrap=True),
        Column("mean rating", justify="right", no_wrap=True),
        title=Text(f"Trait fidelity: mean judge rating 0-2 per user turn ({audit.model})"),
        show_lines=True,
    )
    for run in audit.runs:
        settings = [run.run_id, f"traits {run.traits}", f"backend {run.trait_backend}"]
        if changes is not None:
            settings.append(f"pass^1 change {changes.get(run.run_id, '-')}")
        settings.append(f"leakage {mean_rating_text(run.leakage)}, {run.turns} turns")
        requested = [
            "-" if entry.requested is None else INTENSITY_WORDS[entry.requested]
            for entry in run.fidelity
        ]
        grid.add_row(
            Text("\n".join(settings)),
            Text("\n".join(entry.trait for entry in run.fidelity)),
            Text("\n".join(requested)),
            Text("\n".join(mean_rating_text(entry.mean_rating) for entry in run.fidelity)),
        )
    notes = [
        "Leakage: mean rating of the traits not requested.",
        *correlation_lines(audit),
        f"Judge cost: {format_cost(audit.cost)}",
    ]
    # a correlation's values go on a line of their own, so that each line fits 80 columns
    return [grid, *(Text(note.replace("): ", "):\n  ", 1)) for note in notes)]


def trait_drift_view(audit: TraitAudit) -> list[RenderableType]:
    """Mean rating of each requested trait by where the turn falls in its conversation."""
    from rich.table import Column, Table
    from rich.text import Text

    from tautrait_core.analysis.trait_audit import TURN_THIRDS
    from tautrait_core.trait_mix import INTENSITY_WORDS

    grid = Table(
        Column("run", no_wrap=True, min_width=RUN_ID_WIDTH),
        Column("trait", overflow="fold"),
        *(Column(third, justify="right", no_wrap=True) for third in TURN_THIRDS),
        title=Text("Drift: mean rating of requested traits by third of the conversation"),
    )
    for run in audit.runs:
        for entry in run.fidelity:
            if entry.requested is not None:
                trait = f"{entry.trait} ({INTENSITY_WORDS[entry.requested]})"
                thirds = [mean_rating_text(entry.by_third[third]) for third in TURN_THIRDS]
                grid.add_row(*(Text(value) for value in (run.run_id, trait, *thirds)))
    return [grid] if grid.row_count else []


def mean_rating_text(value: float | None) -> str:
    """A mean rating with two decimals (``-`` for none)."""
    return "-" if value is None else f"{value:.2f}"

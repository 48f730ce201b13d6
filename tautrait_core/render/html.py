"""The HTML report: one self-contained file, readable offline.

Inline CSS and SVG only: no scripts, no fonts, no network. The markup lives in Jinja2
templates (``templates/``) rendered with autoescaping, so every piece of text from a run
(model output, tool data, names) is escaped by the engine; this module only decides what
the page says. A Content-Security-Policy forbids scripts and remote loads as a second line
of defence. Jinja2 is imported only when a page is rendered, so the CLI starts fast.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from tautrait_core.analysis.summary import BootstrapSettings, RunSummary
from tautrait_core.analysis.trait_audit import TraitAudit
from tautrait_core.analysis.trait_drop import TraitDropTable
from tautrait_core.analysis.transcript import component_failures_line, reward_breakdown, transcript
from tautrait_core.money import format_cost
from tautrait_core.render.charts import FONT_SIZE, CurveSeries, pass_hat_k_chart, trait_drop_chart
from tautrait_core.render.console import run_columns, run_heading, run_sides
from tautrait_core.render.terminal import (
    change_with_interval,
    correlation_lines,
    fidelity_cell,
    mean_rating_text,
    pass_change_by_run,
)
from tautrait_core.store.tables import DiagnosisRecord
from tautrait_core.trait_mix import TRAITS
from tautrait_core.types.result import EpisodeResult, Outcome

if TYPE_CHECKING:
    from jinja2 import Environment

TEMPLATES = Path(__file__).parent / "templates"
CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
OUTCOME_MARKS = {"pass": "✓", "fail": "✗", "error": "!"}
ENTRY_LABELS = {
    "system": "system",
    "user": "user",
    "agent": "agent",
    "tool_call": "tool call",
    "tool_result": "tool result",
}


@dataclass(frozen=True)
class RunRow:
    """One line of the runs table; ``numbers`` are the right-aligned columns, as shown."""

    id: str
    name: str | None
    domain: str
    agent: str
    user: str
    traits: str
    numbers: list[str]


@dataclass(frozen=True)
class TraitRow:
    """One line of the trait-drop table: base pass^1, a change per column, the average."""

    label: str
    base: str
    changes: list[str]
    average: str


@dataclass(frozen=True)
class FidelityView:
    """The trait-fidelity table of one judge model: a row of cells per run, then notes."""

    headers: list[str]
    rows: list[list[str]]
    notes: list[str]


@dataclass(frozen=True)
class GridCell:
    """One trial in the success grid; ``outcome`` is None for a trial that was not run."""

    outcome: str | None
    mark: str = ""
    href: str = ""
    tip: str = ""


@dataclass(frozen=True)
class GridRow:
    """One task in the success grid, with its passed/scored count."""

    task_id: int
    cells: list[GridCell]
    passed: str


@dataclass(frozen=True)
class TranscriptLine:
    """One message of an episode as shown: its kind (a CSS class), who, and the text."""

    kind: str
    label: str
    text: str


@dataclass(frozen=True)
class EpisodeView:
    """One episode's collapsible transcript and its reward breakdown."""

    anchor: str
    outcome: str
    summary: str
    messages: list[TranscriptLine]
    breakdown: list[str]


@dataclass(frozen=True)
class RunView:
    """A run's section: heading, diagnosis counts, success grid, prompt and transcripts."""

    id: str
    heading: str
    diagnoses: str | None
    components: str | None
    trials: list[int]
    grid: list[GridRow]
    policy: str | None
    episodes: list[EpisodeView]


def anchor(run_id: str, task_id: int, trial: int) -> str:
    """The element id of an episode's transcript."""
    return f"ep-{re.sub(r'[^A-Za-z0-9_-]', '-', run_id)}-{task_id}-{trial}"


@cache
def _environment() -> Environment:
    """The Jinja2 environment of the report templates: autoescaping on, undefined is an error."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    environment = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.filters["coord"] = lambda value: f"{value:.1f}"  # SVG coordinates
    environment.globals["font_size"] = FONT_SIZE
    return environment


def html_report(
    summaries: list[RunSummary],
    bootstrap: BootstrapSettings,
    trait_drop: TraitDropTable | None = None,
    trait_drop_note: str | None = None,
    trait_audits: list[TraitAudit] | None = None,
) -> str:
    """The whole page for these runs.

    Args:
        summaries: The runs, in the order to show them.
        bootstrap: How the intervals were computed (named on the page).
        trait_drop: The trait-drop table, when the runs form one.
        trait_drop_note: Why there is no trait-drop table, when it was refused.
        trait_audits: Judge ratings of the users' traits, one per judge model.
    """
    page = _environment().get_template("report.html.j2")
    return page.render(
        title="tautrait report: " + ", ".join(s.record.id for s in summaries),
        content_security_policy=CONTENT_SECURITY_POLICY,
        runs=[_run_row(summary) for summary in summaries],
        bootstrap=bootstrap,
        pass_k_chart=pass_hat_k_chart(
            [
                CurveSeries(_series_label(s), [i for i in s.intervals if i.value is not None])
                for s in summaries
            ]
        ),
        trait_drop_chart=None if trait_drop is None else trait_drop_chart(trait_drop),
        trait_drop_columns=[] if trait_drop is None else trait_drop.columns,
        trait_drop_rows=[] if trait_drop is None else _trait_rows(trait_drop),
        trait_drop_note=trait_drop_note,
        trait_fidelity=[_fidelity_view(audit, trait_drop) for audit in trait_audits or []],
        sections=[_run_view(summary) for summary in summaries],
    )


def _series_label(summary: RunSummary) -> str:
    record = summary.record
    return f"{record.id} · {record.agent_model or record.agent} · traits {record.traits}"


def _run_row(summary: RunSummary) -> RunRow:
    record, metrics = summary.record, summary.metrics
    first = summary.intervals[0] if summary.intervals else None
    pass_1 = "n/a"
    if first and first.value is not None and first.low is not None and first.high is not None:
        pass_1 = f"{first.value:.3f} [{first.low:.3f}, {first.high:.3f}]"
    average = "n/a" if metrics.average_reward is None else f"{metrics.average_reward:.3f}"
    agent, user, traits = run_sides(run_columns(record))
    return RunRow(
        id=record.id,
        name=record.name or None,
        domain=f"{record.domain} / {record.task_set}",
        agent=agent,
        user=user,
        traits=traits,
        numbers=[
            str(metrics.episodes),
            str(metrics.errors),
            average,
            pass_1,
            format_cost(metrics.cost),
        ],
    )


def _trait_rows(table: TraitDropTable) -> list[TraitRow]:
    rows = []
    for row in table.rows:
        changes = []
        for column in table.columns:
            cell = table.cell(row, column)
            changes.append(
                "-"
                if cell is None
                else change_with_interval(cell.relative_change, cell.low, cell.high)
            )
        rows.append(
            TraitRow(
                label=row.label,
                base="n/a" if row.base_pass_hat_1 is None else f"{row.base_pass_hat_1:.3f}",
                changes=changes,
                average=change_with_interval(row.average, row.average_low, row.average_high),
            )
        )
    return rows


def _fidelity_view(audit: TraitAudit, trait_drop: TraitDropTable | None) -> FidelityView:
    """Requested against rated trait intensity per run, beside its change of pass^1."""
    changes = pass_change_by_run(trait_drop) if trait_drop is not None else {}
    rows = [
        [
            run.run_id,
            run.traits,
            run.trait_backend,
            changes.get(run.run_id, "-"),
            *(fidelity_cell(run, trait) for trait in TRAITS),
            mean_rating_text(run.leakage),
            str(run.turns),
        ]
        for run in audit.runs
    ]
    notes = [
        f"Mean judge rating 0-2 per user turn by {audit.model}; requested intensity in "
        "brackets; leakage: mean rating of the traits not requested.",
        *correlation_lines(audit),
    ]
    return FidelityView(
        headers=["run", "traits", "backend", "pass^1 change", *TRAITS, "leakage", "turns"],
        rows=rows,
        notes=notes,
    )


def _run_view(summary: RunSummary) -> RunView:
    record = summary.record
    diagnoses = {(d.task_id, d.trial): d for d in summary.diagnoses}
    diagnosis_line = None
    if summary.diagnoses:
        counts = summary.diagnosis_counts()
        faults = ", ".join(f"{k} {v}" for k, v in counts["fault"].items())
        types = ", ".join(f"{k} {v}" for k, v in counts["fault_type"].items())
        diagnosis_line = (
            f"{counts['diagnosed']} of {counts['failed']} failed episodes; "
            f"fault: {faults}; type: {types}"
        )
    policy = next(
        (m.content for r in summary.results for m in r.messages if m.role == "system"), None
    )
    episodes = [
        _episode(record.id, result, diagnoses.get((result.task_id, result.trial)), policy)
        for result in sorted(summary.results, key=lambda r: (r.task_id, r.trial))
    ]
    return RunView(
        id=record.id,
        heading=run_heading(record),
        diagnoses=diagnosis_line,
        components=component_failures_line(summary.results),
        trials=list(range(record.num_trials)),
        grid=_success_grid(summary),
        policy=policy or None,
        episodes=episodes,
    )


def _success_grid(summary: RunSummary) -> list[GridRow]:
    by_task: dict[int, dict[int, EpisodeResult]] = defaultdict(dict)
    for result in summary.results:
        by_task[result.task_id][result.trial] = result
    rows = []
    for task_id in sorted(set(summary.record.task_ids) | set(by_task)):
        cells = []
        for trial in range(summary.record.num_trials):
            result = by_task[task_id].get(trial)
            if result is None:
                cells.append(GridCell(outcome=None))
                continue
            outcome = result.outcome.value
            cells.append(
                GridCell(
                    outcome=outcome,
                    mark=OUTCOME_MARKS[outcome],
                    href="#" + anchor(summary.record.id, task_id, trial),
                    tip=f"task {task_id}, trial {trial}: {outcome} (reward {result.reward:g})",
                )
            )
        scored = [r for r in by_task[task_id].values() if r.outcome is not Outcome.ERROR]
        passed = sum(1 for r in scored if r.outcome is Outcome.PASS)
        rows.append(GridRow(task_id, cells, f"{passed}/{len(scored)}"))
    return rows


def _episode(
    run_id: str, result: EpisodeResult, diagnosis: DiagnosisRecord | None, policy: str | None
) -> EpisodeView:
    summary = (
        f"task {result.task_id} · trial {result.trial} · {result.outcome.value} · "
        f"reward {result.reward:g} · {result.termination.value}"
    )
    if diagnosis is not None:
        summary += f" · fault {diagnosis.fault} / {diagnosis.fault_type}"
    messages = [
        TranscriptLine(
            entry.kind,
            ENTRY_LABELS[entry.kind] + (f": {entry.tool}" if entry.tool else ""),
            entry.text,
        )
        for entry in transcript(result)
        if not (entry.kind == "system" and entry.text == policy)
    ]
    lines = reward_breakdown(result).lines()
    if diagnosis is not None:
        lines.append(
            f"Diagnosis by {diagnosis.model}: fault {diagnosis.fault}, type "
            f"{diagnosis.fault_type}. {diagnosis.explanation}"
        )
    return EpisodeView(
        anchor=anchor(run_id, result.task_id, result.trial),
        outcome=result.outcome.value,
        summary=summary,
        messages=messages,
        breakdown=lines,
    )

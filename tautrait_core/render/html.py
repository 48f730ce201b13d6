"""The HTML report: one self-contained file, readable offline.

Inline CSS and SVG only: no scripts, no fonts, no network. A Content-Security-Policy
forbids scripts and remote loads as a second line of defence, and every piece of text
from a run (model output, tool data, names) goes through :func:`html.escape`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from html import escape

from tautrait_core.analysis.summary import BootstrapSettings, RunSummary
from tautrait_core.analysis.trait_audit import TraitAudit
from tautrait_core.analysis.trait_drop import TraitDropTable
from tautrait_core.episode.result import EpisodeResult, Outcome
from tautrait_core.render.charts import CurveSeries, pass_hat_k_chart, trait_drop_chart
from tautrait_core.render.console import format_cost
from tautrait_core.render.terminal import (
    change_with_interval,
    correlation_lines,
    fidelity_cell,
    mean_rating_text,
    pass_change_by_run,
    run_heading,
)
from tautrait_core.render.transcript import reward_breakdown, transcript
from tautrait_core.store.tables import DiagnosisRecord

CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
OUTCOME_MARKS = {"pass": "✓", "fail": "✗", "error": "!"}
ENTRY_LABELS = {
    "system": "system",
    "user": "user",
    "agent": "agent",
    "tool_call": "tool call",
    "tool_result": "tool result",
}
STYLE = """
body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;
color:#222;line-height:1.4}
h1{font-size:1.6rem}h2{margin-top:2.5rem;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5rem 0}td,th{padding:.2rem .5rem;text-align:left;
border-bottom:1px solid #eee;vertical-align:top}
.num{text-align:right;font-variant-numeric:tabular-nums}
.chart{max-width:100%;height:auto;display:block;margin:1rem 0}
.grid td,.grid th{padding:0;border:0;text-align:center;min-width:1.6rem}
.grid a{display:block;text-decoration:none;color:#fff;border-radius:3px;margin:1px}
.pass{background:#27ae60}.fail{background:#c0392b}.error{background:#e67e22}
.missing{background:#bbb}
details.episode{border:1px solid #ddd;border-radius:4px;margin:.4rem 0;padding:.3rem .6rem}
details.episode>summary{cursor:pointer}
.msg{margin:.4rem 0;padding:.3rem .6rem;border-left:4px solid #ccc;background:#fafafa}
.msg .who{font-size:.8rem;font-weight:bold;color:#555}
.msg.user{border-color:#2980b9}.msg.agent{border-color:#27ae60}
.msg.tool_call{border-color:#8e44ad}.msg.tool_result{border-color:#d4ac0d}
pre{white-space:pre-wrap;word-break:break-word;margin:.2rem 0;font-size:.85rem}
.breakdown{background:#f4f6f8;padding:.4rem .8rem;border-radius:4px}
.note{color:#666;font-size:.9rem}
"""


def anchor(run_id: str, task_id: int, trial: int) -> str:
    """The element id of an episode's transcript."""
    return f"ep-{re.sub(r'[^A-Za-z0-9_-]', '-', run_id)}-{task_id}-{trial}"


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
    title = "tautrait report: " + ", ".join(s.record.id for s in summaries)
    sections = [
        "<h1>tautrait report</h1>",
        _runs_table(summaries),
        f'<p class="note">Intervals: {bootstrap.confidence:.0%} percentile bootstrap over '
        f"tasks ({bootstrap.resamples} resamples, seed {bootstrap.seed}). pass^k averages, over "
        "tasks, the chance that k trials drawn without replacement all succeed.</p>",
        "<h2>pass^k</h2>",
        pass_hat_k_chart([CurveSeries(_series_label(s), s.intervals) for s in summaries]),
    ]
    if trait_drop is not None:
        sections += ["<h2>Trait drop</h2>", trait_drop_chart(trait_drop), _trait_table(trait_drop)]
    elif trait_drop_note:
        sections += ["<h2>Trait drop</h2>", f'<p class="note">{escape(trait_drop_note)}</p>']
    sections += [_trait_fidelity(audit, trait_drop) for audit in trait_audits or []]
    sections += [_run_section(summary) for summary in summaries]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        + "\n".join(sections)
        + "</body></html>\n"
    )


def _series_label(summary: RunSummary) -> str:
    record = summary.record
    return f"{record.id} · {record.agent_model or record.agent} · traits {record.traits}"


def _runs_table(summaries: list[RunSummary]) -> str:
    head = (
        "<tr><th>run</th><th>domain / task set</th><th>agent</th><th>user</th><th>traits</th>"
        '<th class="num">episodes</th><th class="num">errors</th>'
        '<th class="num">avg reward</th><th class="num">pass^1</th><th class="num">cost</th></tr>'
    )
    rows = []
    for summary in summaries:
        record, metrics = summary.record, summary.metrics
        first = summary.intervals[0] if summary.intervals else None
        pass_1 = f"{first.value:.3f} [{first.low:.3f}, {first.high:.3f}]" if first else "n/a"
        average = "n/a" if metrics.average_reward is None else f"{metrics.average_reward:.3f}"
        cells = [
            f'<a href="#run-{escape(record.id)}">{escape(record.id)}</a>'
            + (f"<br>{escape(record.name)}" if record.name else ""),
            escape(f"{record.domain} / {record.task_set}"),
            escape(record.agent + (f" ({record.agent_model})" if record.agent_model else "")),
            escape(record.user_strategy + (f" ({record.user_model})" if record.user_model else "")),
            escape(record.traits),
        ]
        numbers = [metrics.episodes, metrics.errors, average, pass_1, format_cost(metrics.cost)]
        rows.append(
            "<tr>"
            + "".join(f"<td>{cell}</td>" for cell in cells)
            + "".join(f'<td class="num">{escape(str(n))}</td>' for n in numbers)
            + "</tr>"
        )
    return f'<table class="runs">{head}{"".join(rows)}</table>'


def _trait_table(table: TraitDropTable) -> str:
    head = '<tr><th>domain · agent model</th><th class="num">base pass^1</th>'
    head += "".join(f'<th class="num">{escape(c)}</th>' for c in table.columns)
    head += '<th class="num">average</th></tr>'
    rows = []
    for row in table.rows:
        base = "n/a" if row.base_pass_hat_1 is None else f"{row.base_pass_hat_1:.3f}"
        cells = [f"<td>{escape(row.label)}</td>", f'<td class="num">{base}</td>']
        for column in table.columns:
            cell = table.cell(row, column)
            text = (
                "-"
                if cell is None
                else change_with_interval(cell.relative_change, cell.low, cell.high)
            )
            cells.append(f'<td class="num">{escape(text)}</td>')
        average = change_with_interval(row.average, row.average_low, row.average_high)
        cells.append(f'<td class="num">{escape(average)}</td>')
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return f'<table class="trait-drop">{head}{"".join(rows)}</table>'


def _trait_fidelity(audit: TraitAudit, trait_drop: TraitDropTable | None) -> str:
    """Requested against rated trait intensity per run, beside its change of pass^1."""
    from tautrait_core.trait_mix import TRAITS

    changes = pass_change_by_run(trait_drop) if trait_drop is not None else {}
    headers = ["run", "traits", "backend", "pass^1 change", *TRAITS, "leakage", "turns"]
    head = "".join(f"<th>{escape(header)}</th>" for header in headers)
    rows = []
    for run in audit.runs:
        cells = [run.run_id, run.traits, run.trait_backend, changes.get(run.run_id, "-")]
        cells += [fidelity_cell(run, trait) for trait in TRAITS]
        cells += [mean_rating_text(run.leakage), str(run.turns)]
        rows.append("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in cells) + "</tr>")
    notes = [
        f"Mean judge rating 0-2 per user turn by {audit.model}; requested intensity in "
        "brackets; leakage: mean rating of the traits not requested.",
        *correlation_lines(audit),
    ]
    return (
        "<h2>Trait fidelity</h2>"
        f'<table class="trait-fidelity"><tr>{head}</tr>{"".join(rows)}</table>'
        + "".join(f'<p class="note">{escape(note)}</p>' for note in notes)
    )


def _run_section(summary: RunSummary) -> str:
    record = summary.record
    diagnoses = {(d.task_id, d.trial): d for d in summary.diagnoses}
    parts = [
        f'<h2 id="run-{escape(record.id)}">Run {escape(record.id)}</h2>',
        f"<p>{escape(run_heading(record))}</p>",
    ]
    if summary.diagnoses:
        counts = summary.diagnosis_counts()
        faults = ", ".join(f"{k} {v}" for k, v in counts["fault"].items())
        types = ", ".join(f"{k} {v}" for k, v in counts["fault_type"].items())
        parts.append(
            f"<p>Diagnoses: {counts['diagnosed']} of {counts['failed']} failed episodes; "
            f"fault: {escape(faults)}; type: {escape(types)}</p>"
        )
    parts.append(_success_grid(summary))
    policy = next(
        (m.content for r in summary.results for m in r.messages if m.role == "system"), None
    )
    if policy:
        parts.append(
            f"<details><summary>Agent system prompt ({len(policy)} characters)</summary>"
            f"<pre>{escape(policy)}</pre></details>"
        )
    parts.append("<h3>Transcripts</h3>")
    for result in sorted(summary.results, key=lambda r: (r.task_id, r.trial)):
        parts.append(
            _episode(record.id, result, diagnoses.get((result.task_id, result.trial)), policy)
        )
    return "\n".join(parts)


def _success_grid(summary: RunSummary) -> str:
    by_task: dict[int, dict[int, EpisodeResult]] = defaultdict(dict)
    for result in summary.results:
        by_task[result.task_id][result.trial] = result
    trials = range(summary.record.num_trials)
    head = "<tr><th>task</th>" + "".join(f"<th>{t}</th>" for t in trials) + "<th>passed</th></tr>"
    rows = []
    for task_id in sorted(set(summary.record.task_ids) | set(by_task)):
        cells = []
        for trial in trials:
            result = by_task[task_id].get(trial)
            if result is None:
                cells.append('<td><span class="missing" title="not run">&nbsp;</span></td>')
                continue
            outcome = result.outcome.value
            tip = f"task {task_id}, trial {trial}: {outcome} (reward {result.reward:g})"
            cells.append(
                f'<td><a class="{outcome}" href="#{anchor(summary.record.id, task_id, trial)}" '
                f'title="{escape(tip)}">{OUTCOME_MARKS[outcome]}</a></td>'
            )
        scored = [r for r in by_task[task_id].values() if r.outcome is not Outcome.ERROR]
        passed = sum(1 for r in scored if r.outcome is Outcome.PASS)
        rows.append(f"<tr><th>{task_id}</th>{''.join(cells)}<td>{passed}/{len(scored)}</td></tr>")
    return (
        '<h3>Success by task and trial</h3><table class="grid success-grid">'
        f"{head}{''.join(rows)}</table>"
    )


def _episode(
    run_id: str, result: EpisodeResult, diagnosis: DiagnosisRecord | None, policy: str | None
) -> str:
    summary = (
        f"task {result.task_id} · trial {result.trial} · {result.outcome.value} · "
        f"reward {result.reward:g} · {result.termination.value}"
    )
    if diagnosis is not None:
        summary += f" · fault {diagnosis.fault} / {diagnosis.fault_type}"
    messages = []
    for entry in transcript(result):
        if entry.kind == "system" and entry.text == policy:
            continue
        label = ENTRY_LABELS[entry.kind] + (f": {entry.tool}" if entry.tool else "")
        messages.append(
            f'<div class="msg {entry.kind}"><div class="who">{escape(label)}</div>'
            f"<pre>{escape(entry.text)}</pre></div>"
        )
    lines = reward_breakdown(result).lines()
    if diagnosis is not None:
        lines.append(
            f"Diagnosis by {diagnosis.model}: fault {diagnosis.fault}, type "
            f"{diagnosis.fault_type}. {diagnosis.explanation}"
        )
    breakdown = "".join(f"<li>{escape(line)}</li>" for line in lines)
    return (
        f'<details class="episode {result.outcome.value}-episode" '
        f'id="{anchor(run_id, result.task_id, result.trial)}">'
        f"<summary>{escape(summary)}</summary>{''.join(messages)}"
        f'<ul class="breakdown">{breakdown}</ul></details>'
    )

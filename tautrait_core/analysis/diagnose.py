"""Model-assigned diagnoses of failed episodes: who is at fault, and what kind of fault.

In the spirit of tau-bench's auto error identification, but one model call per episode
that answers both questions at once as a JSON object. The model sees the user's
instruction, the gold actions and required outputs, why the grader failed the episode
(database records that differ, outputs never given, how it ended) and the conversation.

Only failed episodes are diagnosed (never passes, never infrastructure errors), and an
episode that already has a diagnosis is skipped unless ``redo`` is set. Answers that
cannot be read, and calls that fail, are reported and not stored, so running the command
again retries exactly those.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from typing import Any

from tautrait_core.analysis.transcript import reward_breakdown, transcript
from tautrait_core.errors import TautraitError
from tautrait_core.grading.judge_answers import json_objects
from tautrait_core.llm.client import ModelSpec, complete
from tautrait_core.llm.http_session import session_scope
from tautrait_core.store.results import ResultStore
from tautrait_core.store.tables import DiagnosisRecord, RunRecord
from tautrait_core.types.result import EpisodeResult, Outcome
from tautrait_core.types.task import RESPOND_ACTION, Task

FAULTS = ("user", "agent", "environment")
FAULT_TYPES = (
    "goal_partially_completed",
    "wrong_tool",
    "wrong_argument",
    "unintended_action",
    "other",
)
FAULT_SYNONYMS = {
    "customer": "user",
    "assistant": "agent",
    "env": "environment",
    "neither": "environment",
}
TYPE_SYNONYMS = {
    "called_wrong_tool": "wrong_tool",
    "wrong_tool_called": "wrong_tool",
    "used_wrong_tool_argument": "wrong_argument",
    "wrong_tool_argument": "wrong_argument",
    "wrong_arguments": "wrong_argument",
    "partially_completed": "goal_partially_completed",
    "partial_completion": "goal_partially_completed",
    "goal_partially_complete": "goal_partially_completed",
    "unintended_actions": "unintended_action",
    "unrequested_action": "unintended_action",
}
TOOL_RESULT_CHARS = 3000
"""Longer tool results are cut in the prompt (the state diff already names what changed)."""

SYSTEM_PROMPT = """\
You review customer-service conversations that failed an automatic check. An AI agent, \
bound by a written policy, serves a simulated customer and uses tools that read and \
change a database. The customer follows private instructions. The check passes only \
when the final database equals the one the expected tool calls produce and the agent \
told the customer every required piece of information.

Find the first thing that went wrong and answer with one JSON object, nothing else:
{"fault": "...", "fault_type": "...", "explanation": "..."}

fault: who made the conversation fail
- "user": the simulated customer departed from their instructions (asked for something \
else, gave wrong details, changed their mind, left early), so the agent could not succeed.
- "agent": the agent acted wrongly: a wrong tool, wrong arguments, an action nobody \
asked for, a policy breach, or it stopped before the goal was reached.
- "environment": neither of them, e.g. the expected outcome is unreachable with the \
tools or a tool misbehaved.

fault_type: the kind of the first mistake
- "goal_partially_completed": only part of what was asked got done (or told).
- "wrong_tool": a tool was called that should not have been, instead of the right one.
- "wrong_argument": the right tool with a wrong argument value.
- "unintended_action": a change to the database nobody asked for.
- "other": none of these.

explanation: one or two sentences naming the concrete step that went wrong."""


class DiagnosisParseError(TautraitError):
    """A model's answer holds no readable diagnosis."""


@dataclass(frozen=True)
class ParsedDiagnosis:
    """The three fields read from a model's answer."""

    fault: str
    fault_type: str
    explanation: str


def _normalize(value: object) -> str:
    word = re.sub(r"[\s\-/]+", "_", str(value).strip().lower()).strip("_.")
    return word.removeprefix("the_")


def parse_diagnosis(text: str) -> ParsedDiagnosis:
    """Read the diagnosis from an answer: the first JSON object in it that names a fault.

    Code fences, prose around the object, upper case, spaces or hyphens in the values
    (``"Wrong argument"``) and tau-bench's names (``called_wrong_tool``) are accepted; an
    unknown fault type becomes ``other``.

    Raises:
        DiagnosisParseError: no JSON object with a known ``fault`` was found.
    """
    for value in json_objects(text):
        fields = {_normalize(key): item for key, item in value.items()}
        fault = _normalize(fields.get("fault", fields.get("responsible", "")))
        fault = FAULT_SYNONYMS.get(fault, fault)
        if fault not in FAULTS:
            continue
        kind = _normalize(fields.get("fault_type", fields.get("type", "other")))
        kind = TYPE_SYNONYMS.get(kind, kind)
        explanation = fields.get("explanation", fields.get("reason", ""))
        return ParsedDiagnosis(
            fault=fault,
            fault_type=kind if kind in FAULT_TYPES else "other",
            explanation=str(explanation).strip(),
        )
    raise DiagnosisParseError(f"no diagnosis in the answer: {text.strip()[:200]!r}")


def diagnosis_messages(task: Task | None, result: EpisodeResult) -> list[dict[str, Any]]:
    """The chat messages that ask for one episode's diagnosis."""
    if task is None:
        context = "(The task is not available: judge from the conversation and the check.)"
    else:
        actions = [a.model_dump() for a in task.actions if a.name != RESPOND_ACTION]
        context = "\n".join(
            [
                "## The customer's instructions",
                task.instruction.strip(),
                "",
                "## Expected tool calls (one correct way to reach the goal; may be empty)",
                json.dumps(actions, indent=1, ensure_ascii=False),
                "",
                "## Information the agent had to give the customer",
                ", ".join(task.outputs) if task.outputs else "(none)",
            ]
        )
    lines = [
        context,
        "",
        "## Why the check failed",
        *reward_breakdown(result).lines(with_cost=False),
    ]
    lines += ["", "## The conversation"]
    for entry in transcript(result):
        if entry.kind == "system":
            continue
        if entry.kind == "tool_call":
            lines.append(f"[agent calls {entry.tool}] {entry.text}")
        elif entry.kind == "tool_result":
            text = entry.text
            if len(text) > TOOL_RESULT_CHARS:
                text = f"{text[:TOOL_RESULT_CHARS]} ... ({len(text)} chars)"
            lines.append(f"[{entry.tool} returns] {text}")
        else:
            lines.append(f"[{'customer' if entry.kind == 'user' else 'agent'}] {entry.text}")
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": "\n".join(lines)},
    ]


def run_tasks(record: RunRecord) -> dict[int, Task]:
    """The run's tasks by id, or ``{}`` when its domain or task set is not installed."""
    from tautrait_core.domain.task_sets import resolve_task_set
    from tautrait_core.plugins import get_plugin_manager

    try:
        domain = get_plugin_manager().get("domain", record.domain)
        tasks = resolve_task_set(domain, record.task_set).tasks
    except TautraitError:
        return {}
    return dict(enumerate(tasks))


@dataclass
class DiagnoseReport:
    """What ``tautrait diagnose`` did."""

    diagnosed: list[DiagnosisRecord] = field(default_factory=list)
    unreadable: list[tuple[int, int, str]] = field(default_factory=list)
    """(task, trial, why) of answers with no readable diagnosis."""
    failed: list[tuple[int, int, str]] = field(default_factory=list)
    """(task, trial, error) of calls that failed."""
    skipped: int = 0
    """Failed episodes that already had a diagnosis."""
    tasks_known: bool = True
    """Whether the prompts included the tasks (instruction, gold actions, outputs)."""

    @property
    def cost(self) -> float | None:
        """Dollars spent on the diagnoses made (``None`` when a price is unknown)."""
        costs = [d.cost for d in self.diagnosed]
        return None if any(c is None for c in costs) else sum(c or 0.0 for c in costs)


async def diagnose_run(
    store: ResultStore,
    record: RunRecord,
    spec: ModelSpec,
    concurrency: int = 4,
    redo: bool = False,
    limit: int | None = None,
) -> DiagnoseReport:
    """Diagnose a run's failed episodes with ``spec``'s model and store the answers."""
    done = {(d.task_id, d.trial) for d in store.diagnoses(record.id)}
    failed = [r for r in store.episodes(record.id) if r.outcome is Outcome.FAIL]
    todo = [r for r in failed if redo or (r.task_id, r.trial) not in done]
    report = DiagnoseReport(skipped=len(failed) - len(todo))
    if limit is not None:
        todo = todo[:limit]
    tasks = run_tasks(record)
    report.tasks_known = bool(tasks)
    gate = asyncio.Semaphore(concurrency)

    async def one(result: EpisodeResult) -> None:
        async with gate:
            messages = diagnosis_messages(tasks.get(result.task_id), result)
            try:
                completion = await complete(spec, messages)
            except TautraitError as exc:
                report.failed.append((result.task_id, result.trial, str(exc)))
                return
        try:
            parsed = parse_diagnosis(completion.message.content or "")
        except DiagnosisParseError as exc:
            report.unreadable.append((result.task_id, result.trial, str(exc)))
            return
        diagnosis = DiagnosisRecord(
            run_id=record.id,
            task_id=result.task_id,
            trial=result.trial,
            fault=parsed.fault,
            fault_type=parsed.fault_type,
            explanation=parsed.explanation,
            model=spec.model,
            cost=completion.usage.cost,
        )
        store.save_diagnosis(diagnosis)
        report.diagnosed.append(diagnosis)

    async with session_scope():  # the model connections end with the diagnosis
        await asyncio.gather(*(one(result) for result in todo))
    return report

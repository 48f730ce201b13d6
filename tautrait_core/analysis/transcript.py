"""An episode as people read it: who said what, which tools ran, and why it scored so.

Shared by ``tautrait show`` (terminal), the HTML report and the diagnosis prompt, so the
three tell the same story.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tautrait_core.grading.criteria_checks import failing_components
from tautrait_core.money import format_costs
from tautrait_core.types.result import EpisodeResult, Termination
from tautrait_core.types.reward import RewardInfo

EntryKind = Literal["system", "user", "agent", "tool_call", "tool_result"]

_INVISIBLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """``text`` with control characters written as escapes (``\\x1b``, ``\\x00``, ``\\u202e``).

    Model and tool output may hold terminal escape sequences, NUL bytes or bidirectional
    overrides; printed raw they would restyle or hide parts of the terminal. Line breaks and
    tabs are kept.
    """
    return _INVISIBLE.sub(lambda match: ascii(match.group())[1:-1], text)


TERMINATION_TEXT = {
    Termination.USER_STOP: "the user ended the conversation",
    Termination.USER_TRANSFER: "the user was transferred",
    Termination.USER_OUT_OF_SCOPE: "the user's situation did not cover what was asked",
    Termination.AGENT_STOP: "the agent declared the task done",
    Termination.TERMINATING_TOOL: "a terminating tool was called",
    Termination.MAX_STEPS: "the step limit was reached",
    Termination.TOO_MANY_ERRORS: "too many tool calls failed",
    Termination.TIMEOUT: "the episode ran out of time",
    Termination.AGENT_ERROR: "the agent failed",
    Termination.USER_ERROR: "the user simulator failed",
    Termination.CONTEXT_WINDOW: "the conversation outgrew the context window",
    Termination.PROVIDER_ERROR: "a model provider kept failing",
}


@dataclass(frozen=True)
class TranscriptEntry:
    """One thing that happened in the conversation.

    Attributes:
        kind: ``system`` (the agent's instructions), ``user``, ``agent``, ``tool_call``
            (``text`` holds the arguments) or ``tool_result`` (``text`` holds the result).
        text: What was said, the call's arguments, or the tool's answer.
        tool: The tool's name, for calls and results.
    """

    kind: EntryKind
    text: str
    tool: str | None = None


def format_arguments(arguments: str) -> str:
    """Tool-call arguments as compact JSON, or as sent when they are not valid JSON."""
    try:
        return json.dumps(json.loads(arguments or "{}"), ensure_ascii=False)
    except json.JSONDecodeError:
        return arguments


def transcript(result: EpisodeResult) -> list[TranscriptEntry]:
    """The episode's messages as a flat list of entries, in order."""
    entries: list[TranscriptEntry] = []
    for message in result.messages:
        if message.role == "system":
            entries.append(TranscriptEntry("system", message.content or ""))
        elif message.role == "user":
            if message.content or not message.tool_calls:
                entries.append(TranscriptEntry("user", message.content or ""))
            for call in message.tool_calls or []:  # the customer's own tools (dual control)
                entries.append(
                    TranscriptEntry("tool_call", format_arguments(call.arguments), call.name)
                )
        elif message.role == "tool":
            entries.append(TranscriptEntry("tool_result", message.content or "", message.name))
        else:
            if message.content:
                entries.append(TranscriptEntry("agent", message.content))
            for call in message.tool_calls or []:
                entries.append(
                    TranscriptEntry("tool_call", format_arguments(call.arguments), call.name)
                )
    return entries


@dataclass(frozen=True)
class RewardBreakdown:
    """Why an episode got its reward, and what it cost.

    Attributes:
        state_diff: Records where the agent's database and the gold database differ
            (``None`` when the episode was not scored).
        outputs_missing / outputs_given: Required outputs absent from / present in the
            agent's replies.
        components: For a τ²-style grade, one sentence per reward component (basis members
            first), replacing the database and outputs sentences; ``None`` otherwise.
    """

    outcome: str
    reward: float
    termination: Termination
    error: str | None
    state_diff: list[str] | None
    outputs_missing: list[str]
    outputs_given: list[str]
    agent_cost: float | None
    user_cost: float | None
    steps: int
    duration_s: float
    components: list[str] | None = None

    def lines(self, with_cost: bool = True) -> list[str]:
        """The breakdown as short sentences (the last one on cost, if ``with_cost``)."""
        lines = [f"Reward {self.reward:g} ({self.outcome})."]
        if self.components is not None:
            lines += self.components
        elif self.state_diff is None:
            lines.append("Database: not scored.")
        elif self.state_diff:
            lines.append(f"Database differs from the gold replay in: {', '.join(self.state_diff)}")
        else:
            lines.append("Database matches the gold replay.")
        if self.outputs_missing:
            lines.append(f"Required outputs missing: {', '.join(self.outputs_missing)}")
        if self.outputs_given:
            lines.append(f"Required outputs given: {', '.join(self.outputs_given)}")
        lines.append(
            f"Ended because {TERMINATION_TEXT.get(self.termination, self.termination.value)} "
            f"({self.termination.value}) after {self.steps} steps, {self.duration_s:.1f} s."
        )
        if self.error:
            lines.append(f"Error: {self.error.strip()}")
        if with_cost:
            agent, user = format_costs(self.agent_cost, self.user_cost)
            lines.append(f"Cost: agent {agent}, user {user}.")
        return lines


def reward_breakdown(result: EpisodeResult) -> RewardBreakdown:
    """The :class:`RewardBreakdown` of an episode."""
    info = result.reward_info
    state_diff: list[str] | None = None
    if info is not None:
        state_diff = list(info.state_diff)
        if not info.r_actions and not state_diff:
            state_diff = ["(records not named)"]
    outputs = info.outputs if info is not None else {}
    return RewardBreakdown(
        outcome=result.outcome.value,
        reward=result.reward,
        termination=result.termination,
        error=result.error,
        state_diff=state_diff,
        outputs_missing=[text for text, found in outputs.items() if not found],
        outputs_given=[text for text, found in outputs.items() if found],
        agent_cost=result.agent_usage.cost,
        user_cost=result.user_usage.cost,
        steps=result.steps,
        duration_s=result.duration_s,
        components=component_lines(info) if info is not None and info.reward_basis else None,
    )


def component_lines(info: RewardInfo) -> list[str]:
    """A τ²-style grade as sentences: the basis, then each component (counted or not) with
    its reward and what failed."""
    if info.not_scoreable is not None:
        return [f"Not scoreable: {info.not_scoreable}."]
    note = (info.info or {}).get("note")
    if isinstance(note, str):
        return [f"{note}."]
    breakdown = info.reward_breakdown or {}
    lines = [f"Reward basis: {', '.join(info.reward_basis or [])}."]
    failed: dict[str, list[str]] = {}
    for item in failing_components(info):
        component, _, detail = item.partition(": ")
        failed.setdefault(component, []).extend([detail] if detail else [])
    checks = {
        "DB": [info.db_check] if info.db_check is not None else None,
        "ENV_ASSERTION": info.env_assertions,
        "ACTION": info.action_checks,
        "COMMUNICATE": info.communicate_checks,
        "NL_ASSERTION": info.nl_assertions,
    }
    for component, found in checks.items():
        if found is None:
            continue
        counted = "" if component in breakdown else " (not counted)"
        passed = sum(1 for check in found if _check_passed(check))
        line = f"{component}{counted}: {passed}/{len(found)} met"
        details = failed.get(component) if component in breakdown else None
        lines.append(line + (f"; failed {', '.join(details)}." if details else "."))
    return lines


def component_failures(results: Sequence[EpisodeResult]) -> dict[str, int] | None:
    """Over the τ²-graded episodes of a run, how many failed each reward component (most
    first), plus ``"not scoreable"`` episodes; ``None`` when no episode was τ²-graded."""
    graded = [r.reward_info for r in results if r.reward_info and r.reward_info.reward_basis]
    if not graded:
        return None
    counts: Counter[str] = Counter()
    for info in graded:
        if info.not_scoreable is not None:
            counts["not scoreable"] += 1
            continue
        for component, reward in (info.reward_breakdown or {}).items():
            if reward < 1.0:
                counts[component] += 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def component_failures_line(results: Sequence[EpisodeResult]) -> str | None:
    """The sentence ``report`` prints about :func:`component_failures` (``None``: no
    episode was τ²-graded)."""
    counts = component_failures(results)
    if counts is None:
        return None
    graded = sum(1 for r in results if r.reward_info and r.reward_info.reward_basis)
    listed = ", ".join(f"{name} {count}" for name, count in counts.items()) or "none"
    return f"Failing reward components (of {graded} τ²-graded episodes): {listed}"


def _check_passed(check: dict[str, object]) -> bool:
    for key in ("met", "action_match", "db_match"):
        if key in check:
            return bool(check[key])
    return False


def official_reward_line(results: Sequence[EpisodeResult]) -> str | None:
    """The chosen basis's and the official rewards side by side, for a run graded with
    ``--reward-basis`` (``None`` for other runs): the average reward on each, the official
    one over the episodes whose own basis could be graded."""
    chosen = [r for r in results if r.reward_info and r.reward_info.reward_basis]
    if not chosen or all(r.reward_info.official_reward is None for r in chosen):  # type: ignore[union-attr]
        return None
    basis = ",".join(chosen[0].reward_info.reward_basis or [])  # type: ignore[union-attr]
    official = [r.reward_info.official_reward for r in chosen]  # type: ignore[union-attr]
    scored = [value for value in official if value is not None]
    line = (
        f"Reward on basis {basis} (chosen): {_mean([r.reward for r in chosen]):.3f}; "
        f"official (each task's own basis): {_mean(scored):.3f}"
    )
    if len(scored) < len(official):
        line += f" over {len(scored)} episodes ({len(official) - len(scored)} need a judge)"
    return line


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0

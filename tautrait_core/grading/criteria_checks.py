"""The parts of a τ²-style grade that need no environment: the ACTION and COMMUNICATE
checks, gold actions in τ²'s JSON shape, and what failed in a grade (domain-spec §3.2-3.3).

Both checks read the trajectory as τ² does: ACTION looks at every tool call of either side
(who called is not compared), COMMUNICATE at the agent's text messages only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tautrait_core.compat.tau2.actions import action_to_tau2
from tautrait_core.types.criteria import RewardBasis, Side
from tautrait_core.types.messages import Message
from tautrait_core.types.reward import RewardInfo
from tautrait_core.types.task import Action


def failing_components(info: RewardInfo) -> list[str]:
    """The basis components of a τ²-style grade that are 0, each with what failed:
    ``"COMMUNICATE: '<info>'"``, ``"ENV_ASSERTION: <function>"``, ``"ACTION: <tool>"``,
    ``"NL_ASSERTION: <statement>"``, or ``"DB"``."""
    failed = []
    for component, reward in (info.reward_breakdown or {}).items():
        if reward >= 1.0:
            continue
        details = _failed_details(info, component)
        failed += [f"{component}: {detail}" for detail in details] or [component]
    return failed


def _failed_details(info: RewardInfo, component: str) -> list[str]:
    if component == RewardBasis.COMMUNICATE:
        return [repr(c["info"]) for c in info.communicate_checks or [] if not c["met"]]
    if component == RewardBasis.ENV_ASSERTION:
        return [c["env_assertion"]["func_name"] for c in info.env_assertions or [] if not c["met"]]
    if component == RewardBasis.ACTION:
        return [c["action"]["name"] for c in info.action_checks or [] if not c["action_match"]]
    if component == RewardBasis.NL_ASSERTION:
        return [c["nl_assertion"] for c in info.nl_assertions or [] if not c["met"]]
    return []


def trajectory_tool_calls(messages: Sequence[Message]) -> list[tuple[str, str, dict[str, Any]]]:
    """Every tool call of a trajectory, both sides, in order: ``(requestor, name, arguments)``.

    A call whose arguments are not a JSON object is kept with ``{}`` (it errored when made,
    and τ² counts errored calls too).
    """
    calls = []
    for message in messages:
        for call in message.tool_calls or []:
            try:
                arguments = call.parsed_arguments()
            except ValueError:
                arguments = {}
            calls.append((message_side(message), call.name, arguments))
    return calls


def message_side(message: Message) -> Side:
    """Who made a message's tool calls: ``requestor``, else the customer for a user message."""
    if message.requestor is not None:
        return message.requestor
    return "user" if message.role == "user" else "assistant"


def grade_actions(
    gold_actions: Sequence[Action], messages: Sequence[Message]
) -> tuple[float, list[dict[str, Any]] | None, dict[str, Any] | None]:
    """The ACTION component: its reward, one check per gold action and τ²'s note."""
    if not gold_actions:
        return 1.0, None, {"note": "No actions to evaluate"}
    predicted = [(name, arguments) for _, name, arguments in trajectory_tool_calls(messages)]
    checks = []
    for action in gold_actions:
        matched = any(action_matches(action, name, arguments) for name, arguments in predicted)
        checks.append(
            {
                "action": action_to_tau2(action),
                "action_match": matched,
                "action_reward": 1.0 if matched else 0.0,
            }
        )
    reward = 1.0 if all(check["action_match"] for check in checks) else 0.0
    return reward, checks, None


def action_matches(gold: Action, name: str, arguments: Mapping[str, Any]) -> bool:
    """Whether a call ``name(**arguments)`` (of either side) matches the gold action, as τ²
    compares them: names equal, then the arguments named by ``compare_args`` or, when that
    is ``None``, the call's own argument keys (so a call giving fewer arguments may match)."""
    if name != gold.name:
        return False
    keys = list(arguments) if gold.compare_args is None else gold.compare_args
    if not keys:
        return True
    given = {key: arguments[key] for key in keys if key in arguments}
    expected = {key: gold.kwargs[key] for key in keys if key in gold.kwargs}
    return given == expected


def grade_communicate(
    communicate_info: Sequence[str] | None, messages: Sequence[Message]
) -> tuple[float, list[dict[str, Any]] | None, dict[str, Any] | None]:
    """The COMMUNICATE component: its reward, one check per string and τ²'s note."""
    if not communicate_info:
        return 1.0, None, {"note": "No communicate_info to evaluate"}
    agent_texts = [
        message.content
        for message in messages
        if message.role == "assistant"
        and message_side(message) == "assistant"
        and message.content
        and message.content.strip()
    ]
    checks = []
    for info in communicate_info:
        found = next(
            (text for text in agent_texts if info.lower() in text.lower().replace(",", "")), None
        )
        justification = (
            f"Information '{info}' communicated in the message:\n '{found}'"
            if found is not None
            else f"Information '{info}' not communicated."
        )
        checks.append({"info": info, "met": found is not None, "justification": justification})
    reward = 1.0 if all(check["met"] for check in checks) else 0.0
    return reward, checks, None

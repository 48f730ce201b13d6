"""Gold actions in τ²'s JSON shape (``arguments``, ``requestor``, ``action_id``,
``compare_args``, ``info``) and back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tautrait_core.types.task import Action


def action_from_tau2(data: Mapping[str, Any]) -> Action:
    """A τ² gold action (``arguments``, ``requestor``, ``action_id``, ``compare_args``,
    ``info``) as an :class:`Action` (whose ``kwargs`` are τ²'s ``arguments``)."""
    return Action(
        name=data["name"],
        kwargs=data.get("arguments") or {},
        requestor=data.get("requestor") or "assistant",
        action_id=data.get("action_id"),
        compare_args=data.get("compare_args"),
        info=data.get("info"),
    )


def as_action(item: Action | Mapping[str, Any]) -> Action:
    """An :class:`Action` from an action object, a τ²-style dict (``arguments``) or one in
    our own shape (``kwargs``): how a task's evaluation criteria may hold their actions."""
    if isinstance(item, Action):
        return item
    if "arguments" in item:
        return action_from_tau2(item)
    return Action.model_validate(item)


def action_to_tau2(action: Action) -> dict[str, Any]:
    """An :class:`Action` in τ²'s JSON shape and field order."""
    return {
        "action_id": action.action_id,
        "requestor": action.requestor,
        "name": action.name,
        "arguments": action.kwargs,
        "info": action.info,
        "compare_args": action.compare_args,
    }

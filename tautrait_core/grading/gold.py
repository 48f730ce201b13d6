"""A task's gold plan as the offline and oracle strategies use it, for both kinds of task.

A τ-bench task keeps its gold actions in ``actions`` and the strings the agent must say in
``outputs``; a τ²-style task keeps them in ``evaluation_criteria`` (``actions`` of both
sides, ``communicate_info``). In a dual-control episode the gold plan splits into turns:
runs of the agent's actions, and runs of the customer's (``requestor="user"``).
"""

from __future__ import annotations

from tautrait_core.compat.tau2.actions import as_action
from tautrait_core.types.task import Action, Task


def gold_actions(task: Task) -> list[Action]:
    """The task's gold actions: its evaluation criteria's when it has them, else ``actions``."""
    criteria = task.evaluation_criteria
    if criteria is not None and criteria.actions is not None:
        return [as_action(action) for action in criteria.actions]
    return list(task.actions)


def required_outputs(task: Task) -> list[str]:
    """What the agent must tell the customer: ``communicate_info`` of a τ²-style task with
    evaluation criteria, else ``outputs``."""
    criteria = task.evaluation_criteria
    if criteria is not None:
        return list(criteria.communicate_info or [])
    return list(task.outputs)


def user_action_runs(actions: list[Action]) -> list[list[Action]]:
    """The customer's gold actions, in runs of consecutive ones (one run per turn the agent
    asks the customer to act)."""
    runs: list[list[Action]] = []
    previous = "assistant"
    for action in actions:
        if action.requestor == "user":
            if previous != "user":
                runs.append([])
            runs[-1].append(action)
        previous = action.requestor
    return runs


def describe_call(action: Action) -> str:
    """``name(k=v, ...)`` with the values as Python writes them (τ²'s plan notation)."""
    arguments = ", ".join(f"{key}={value}" for key, value in action.kwargs.items())
    return f"{action.name}({arguments})"

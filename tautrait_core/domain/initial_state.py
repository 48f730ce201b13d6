"""Applying a τ²-style task's initial state to an episode database.

The order is τ²-bench's (both when an episode starts and when a grader rebuilds the gold
environment): (1) ``initialization_data`` deep-merged into each side's state, (2)
``initialization_actions`` run in order on their side, the state sync after each, (3) the
tool calls of ``message_history`` run again, each output checked against the stored one,
(4) the state sync. A task without an initial state leaves the database as it is.

A set-up depends only on the domain, the initial state and the episode's date, and the
run, the grader's two environments and every later trial apply the same one to a fresh
copy: the image of the first copy set up is kept (:mod:`~tautrait_core.domain.set_up_images`)
and loaded into the next fresh copy instead of running the set-up again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tautrait_core.domain.discoverable import remember_task
from tautrait_core.domain.domain import Domain
from tautrait_core.domain.set_up_images import find_image, keep_image
from tautrait_core.domain.state import EpisodeDB
from tautrait_core.domain.tool_execution import execute_tool_call, sync_state
from tautrait_core.types.criteria import EnvFunctionCall, Side
from tautrait_core.types.messages import Message, ToolCall
from tautrait_core.types.task import Task


class InitialStateError(ValueError):
    """A task's initial state cannot be applied to its domain (the task is unusable)."""


def apply_initial_state(domain: Domain, db: EpisodeDB, task: Task) -> list[Message]:
    """Apply ``task.initial_state`` to ``db`` and return its message history as tautrait
    messages (``[]`` when it has none). ``db`` also records ``task`` as its episode's task
    (:func:`~tautrait_core.domain.discoverable.episode_task`), with or without a state.

    Raises:
        InitialStateError: the domain cannot merge data, a function is unknown, or a history
            tool call's output differs from the stored one.
        Exception: whatever an initialization function raises (as τ²-bench does).
    """
    remember_task(db, task)
    state = task.initial_state
    if state is None:
        return []
    fresh = db.is_untouched()
    key = (domain.name, id(domain), state.model_dump_json(), db.today)
    image = find_image(db.template, key) if fresh else None
    if image is not None:
        db.load_image(image)
        return history_messages(state.message_history or [])
    history = _set_up(domain, db, task)
    if fresh:
        keep_image(db.template, key, db.take_image())
    return history


def _set_up(domain: Domain, db: EpisodeDB, task: Task) -> list[Message]:
    state = task.initial_state
    assert state is not None
    data = state.initialization_data
    if data is not None:
        for side, update in (("assistant", data.agent_data), ("user", data.user_data)):
            if update:
                if domain.merge_initial_data is None:
                    raise InitialStateError(
                        f"task {task.id or task.user_id!r} gives initialization data, but domain "
                        f"{domain.name!r} has no merge_initial_data to apply it"
                    )
                domain.merge_initial_data(db, side, update)
                db.flush()
    for action in state.initialization_actions or []:
        run_env_function(domain, db, action)
        sync_state(domain, db)
    history = history_messages(state.message_history or [])
    replay_history(domain, db, history)
    sync_state(domain, db)
    return history


def env_function(domain: Domain, side: Side, name: str) -> Callable[..., Any]:
    """The function ``name`` of one side (its functions first, then its tools), called as
    ``f(db, **arguments)``.

    Raises:
        InitialStateError: the side has no function or tool of that name.
    """
    functions, tools = (
        (domain.user_functions, domain.user_tools_by_name)
        if side == "user"
        else (domain.agent_functions, domain.tools_by_name)
    )
    if name in functions:
        return functions[name]
    if name in tools:
        return tools[name].function
    raise InitialStateError(
        f"domain {domain.name!r} has no {side}-side function or tool {name!r}; "
        f"known: {', '.join(sorted({*functions, *tools})) or 'none'}"
    )


def run_env_function(domain: Domain, db: EpisodeDB, call: EnvFunctionCall) -> Any:
    """Call one side's function by name on ``db`` and return its raw result (exceptions
    propagate: an initialization action that fails makes the task unusable)."""
    result = env_function(domain, call.env_type, call.func_name)(db, **call.arguments)
    db.flush()
    return result


def history_messages(history: list[dict[str, Any]]) -> list[Message]:
    """τ²-bench history messages as tautrait messages (a customer's tool calls and their
    results carry ``requestor="user"``)."""
    messages: list[Message] = []
    names: dict[str, str] = {}
    for item in history:
        role = item.get("role")
        if role not in ("assistant", "user", "tool"):
            raise InitialStateError(
                f"a message history holds only assistant, user and tool messages, not {role!r}"
            )
        if role == "tool":
            call_id = str(item.get("id", ""))
            messages.append(
                Message(
                    role="tool",
                    content=item.get("content"),
                    tool_call_id=call_id,
                    name=names.get(call_id),
                    requestor="user" if item.get("requestor") == "user" else None,
                )
            )
            continue
        calls = [
            ToolCall(
                id=str(call.get("id", "")),
                name=call["name"],
                arguments=json.dumps(call.get("arguments") or {}),
            )
            for call in item.get("tool_calls") or []
        ]
        names.update((call.id, call.name) for call in calls)
        messages.append(
            Message(
                role=role,
                content=item.get("content"),
                tool_calls=calls or None,
                requestor="user" if role == "user" and calls else None,
            )
        )
    return messages


def replay_history(domain: Domain, db: EpisodeDB, history: list[Message]) -> None:
    """Run the history's tool calls again, in order, on the side that made them; each
    output must equal the stored one as JSON (or as text when either is not JSON).

    Raises:
        InitialStateError: a call is not followed by its result, or an output differs.
    """
    for index, message in enumerate(history):
        if message.role == "tool" or not message.tool_calls:
            continue
        side: Side = "user" if message.role == "user" else "assistant"
        for offset, call in enumerate(message.tool_calls, start=1):
            result = history[index + offset] if index + offset < len(history) else None
            if result is None or result.role != "tool" or result.tool_call_id != call.id:
                raise InitialStateError(
                    f"message history: tool call {call.id!r} ({call.name}) is not followed by "
                    "its tool message"
                )
            output = execute_tool_call(domain, db, call, side)
            if not same_output(output, result.content or ""):
                raise InitialStateError(
                    f"message history: {call.name} now returns {output!r}, "
                    f"but the history stores {result.content!r}"
                )


def same_output(new: str, stored: str) -> bool:
    """Whether two tool outputs are equal as JSON values (as text when either is not JSON)."""
    try:
        return bool(json.loads(new) == json.loads(stored))
    except ValueError:
        return new == stored

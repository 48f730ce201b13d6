"""``tautrait check``: find defects in a task set without running any model.

Each task's gold actions are replayed on a fresh copy of its database and the task is
reported for: unknown tools, invalid arguments, gold actions whose observation is an
error, required outputs that no tool output contains, a ``user_id`` that does not exist,
and gold actions that call a write tool yet change nothing. A τ²-style task starts from its
initial state, and its gold actions run on the side that makes them (the customer's calls
on the user tools), with the state sync after each call that succeeded, as in an episode;
the gold replay (its calls, then an agent message saying every ``communicate_info``
string) is then graded on the task's criteria, and a task whose own gold replay does not
score 1 is reported: no agent, not even the oracle, can pass it.

A τ²-style task is also reported when its criteria are empty (no basis, or none of its
components has anything to check) or when a do-nothing agent would pass it: the
conversation of the ``noop`` agent (the task's message history, if any, one agent message
that does nothing, the customer's stop) is graded on the task's criteria, with the task
set's rules (the fork's or τ³'s); a task that needs a judge for it is not reported.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, ValidationError

from tautrait_core.domain.domain import Domain, TaskSet
from tautrait_core.domain.initial_state import apply_initial_state, history_messages
from tautrait_core.domain.state import StateTemplate
from tautrait_core.domain.tool_execution import sync_state
from tautrait_core.domain.tools import describe_validation_error, raised
from tautrait_core.grading.criteria_reward import grade_criteria
from tautrait_core.grading.gold import gold_actions
from tautrait_core.grading.reward import is_gold_tool_call, outputs_found
from tautrait_core.grading.sides import run_side_tool
from tautrait_core.types.messages import (
    NOOP_REPLY,
    STOP_TOKEN,
    TAU2_GREETING,
    Message,
    tool_call_messages,
)
from tautrait_core.types.task import RESPOND_ACTION, Task

GOLD_REPLY_WITHOUT_INFO = "Your request has been handled."
"""The gold replay's closing agent message when a task has no information to communicate
(τ²-bench's golden outputs use the same text)."""

PROBLEM_KINDS = (
    "invalid_initial_state",
    "unknown_tool",
    "invalid_arguments",
    "action_error",
    "output_unreachable",
    "unknown_user",
    "no_state_change",
    "gold_replay_fails",
    "empty_criteria",
    "passes_doing_nothing",
)


class TaskProblem(BaseModel):
    """One defect of a task."""

    kind: str
    detail: str
    action_index: int | None = None


class TaskCheck(BaseModel):
    """The defects found in one task (none: the task is sound)."""

    task_id: int
    user_id: str
    task_name: str | None = None
    """The task's own id (τ²-style tasks), shown instead of its index."""
    problems: list[TaskProblem] = Field(default_factory=list)


def check_task(
    domain: Domain, template: StateTemplate, task_id: int, task: Task, rules: str = "tau2"
) -> TaskCheck:
    """Replay ``task``'s gold actions and report what is wrong with it (a τ²-style task
    graded with ``rules``, its task set's)."""
    report = TaskCheck(task_id=task_id, user_id=task.user_id, task_name=task.id)
    problems = report.problems
    observations: list[str] = []
    with template.new_episode() as db:
        try:
            trajectory = apply_initial_state(domain, db, task)
        except Exception as exc:
            problems.append(
                TaskProblem(kind="invalid_initial_state", detail=f"{type(exc).__name__}: {exc}")
            )
            return report
        if (
            domain.user_table is not None
            and task.user_id
            and db.get(domain.user_table, task.user_id) is None
        ):
            problems.append(
                TaskProblem(kind="unknown_user", detail=f"user {task.user_id!r} does not exist")
            )
        gold = gold_actions(task)
        for index, action in enumerate(gold):
            if action.name == RESPOND_ACTION:
                continue
            tools = (
                domain.user_tools_by_name if action.requestor == "user" else domain.tools_by_name
            )
            tool = tools.get(action.name)
            if tool is None:
                problems.append(
                    TaskProblem(
                        kind="unknown_tool", detail=f"no tool {action.name!r}", action_index=index
                    )
                )
                continue
            try:
                tool.arguments_model.model_validate(action.kwargs)
            except ValidationError as exc:
                problems.append(
                    TaskProblem(
                        kind="invalid_arguments",
                        detail=describe_validation_error(action.name, exc),
                        action_index=index,
                    )
                )
                continue
            tau2_task = task.evaluation_criteria is not None  # τ²: a transfer ends nothing
            if not tau2_task and not is_gold_tool_call(action, domain.terminating_tools):
                continue
            observation = run_side_tool(
                domain, db, action.requestor, action.name, dict(action.kwargs)
            )
            if not raised(observation):
                sync_state(domain, db)
            observations.append(observation)
            trajectory += tool_call_messages(
                f"gold_{index}", action.requestor, action.name, action.kwargs, observation
            )
            if domain.is_error(observation):
                first_line = observation.splitlines()[0][:200] if observation else ""
                problems.append(
                    TaskProblem(
                        kind="action_error",
                        detail=f"{action.name}: {first_line}",
                        action_index=index,
                    )
                )
        writes = [a.name for a in gold if a.name in domain.write_tools]
        if writes and not db.changes():
            problems.append(
                TaskProblem(
                    kind="no_state_change",
                    detail=f"calls {', '.join(sorted(set(writes)))} but the database is unchanged",
                )
            )
        if task.evaluation_criteria is not None:
            problems += _graded_gold_replay(domain, template, task, trajectory, db.today, rules)
            problems += _weak_criteria(domain, template, task, db.today, rules)
    for output, found in outputs_found(task.outputs, observations).items():
        if not found:
            problems.append(
                TaskProblem(kind="output_unreachable", detail=f"no tool output contains {output!r}")
            )
    return report


def _graded_gold_replay(
    domain: Domain,
    template: StateTemplate,
    task: Task,
    trajectory: list[Message],
    today: object,
    rules: str,
) -> list[TaskProblem]:
    """The problem of a τ²-style task whose gold replay fails its own criteria (none if it
    scores 1 or needs a judge to be graded)."""
    criteria = task.evaluation_criteria
    assert criteria is not None
    reply = " ".join(criteria.communicate_info or []) or GOLD_REPLY_WITHOUT_INFO
    messages = [
        *trajectory,
        Message(role="assistant", content=reply),
        Message(role="user", content=STOP_TOKEN),
    ]
    info = grade_criteria(
        domain,
        task,
        template,
        messages,
        "user_stop",
        today,  # type: ignore[arg-type]
        rules=rules,
    )
    if info.not_scoreable is not None or info.reward == 1.0:
        return []
    failed = sorted(name for name, value in (info.reward_breakdown or {}).items() if value < 1)
    detail = f"the gold replay scores {info.reward:g} on its own criteria"
    return [
        TaskProblem(
            kind="gold_replay_fails",
            detail=detail + f" (failed: {', '.join(failed)})" if failed else detail,
        )
    ]


def _weak_criteria(
    domain: Domain, template: StateTemplate, task: Task, today: object, rules: str
) -> list[TaskProblem]:
    """The problems of a τ²-style task that any agent passes: empty criteria, or a
    do-nothing conversation that scores 1."""
    criteria = task.evaluation_criteria
    assert criteria is not None
    checks_something = (
        criteria.actions
        or criteria.env_assertions
        or criteria.communicate_info
        or criteria.nl_assertions
    )
    if not criteria.reward_basis or not checks_something:
        return [TaskProblem(kind="empty_criteria", detail="nothing to check: any agent passes")]
    info = grade_criteria(
        domain,
        task,
        template,
        noop_trajectory(task),
        "user_stop",
        today,  # type: ignore[arg-type]
        rules=rules,
    )
    if info.not_scoreable is not None or info.reward != 1.0:
        return []
    basis = ", ".join(criteria.reward_basis)
    detail = f"the noop agent, which does nothing, scores 1 (basis {basis})"
    return [TaskProblem(kind="passes_doing_nothing", detail=detail)]


def noop_trajectory(task: Task) -> list[Message]:
    """The conversation of the ``noop`` agent on ``task``: the task's message history (or
    the greeting and the customer's request), one agent message, the customer's stop."""
    history = task.initial_state.message_history if task.initial_state else None
    messages = (
        history_messages(history)
        if history
        else [
            Message(role="assistant", content=TAU2_GREETING),
            Message(role="user", content="I need help."),
        ]
    )
    return [
        *messages,
        Message(role="assistant", content=NOOP_REPLY),
        Message(role="user", content=STOP_TOKEN),
    ]


def check_task_set(domain: Domain, task_set: TaskSet, template: StateTemplate) -> list[TaskCheck]:
    """Check every task of a task set (τ²-style tasks graded with the set's rules)."""
    return [
        check_task(domain, template, index, task, task_set.rules)
        for index, task in enumerate(task_set.tasks)
    ]

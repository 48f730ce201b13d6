"""The reward of a τ²-style task: the product of the components its criteria name.

A task with :class:`~tautrait_core.types.criteria.EvaluationCriteria` is graded as
τ²-bench grades it (domain-spec §3), quirks included, so rewards and every component agree
with τ²'s own:

* an episode cut by the step limit scores 0 with a note naming τ²'s termination reason;
* DB: the state of both sides after replaying every tool call of the trajectory (both
  sides, in order, on a fresh copy with the task's initial state; the domain's state sync
  after each successful call) must equal the state after the gold actions (fresh copy with
  the initial state, errors swallowed, no sync);
* ENV_ASSERTION: each assertion function, run on the replayed state, returns its
  ``assert_value``;
* ACTION: each gold action matches some call of either side (names equal; the arguments
  named by ``compare_args``, or, when it is ``None``, those the call itself gives);
* COMMUNICATE: each string appears in some agent message, lower-cased, commas removed;
* NL_ASSERTION: a judge finds each statement true of the conversation. Without a judge
  such a task is *not scoreable* (:attr:`RewardInfo.not_scoreable`), never silently 0.

Every component is reported whether it counts or not; each in τ²'s JSON shape.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from tautrait_core.compat.tau2.actions import as_action
from tautrait_core.domain.domain import Domain
from tautrait_core.domain.initial_state import apply_initial_state
from tautrait_core.domain.state import EpisodeDB, StateTemplate, state_hash
from tautrait_core.domain.tool_execution import execute_tool_call, run_user_tool, sync_state
from tautrait_core.domain.tools import ERROR_PREFIX
from tautrait_core.grading.criteria_checks import grade_actions, grade_communicate, message_side
from tautrait_core.grading.gold_cache import GoldCache, replay_key
from tautrait_core.types.criteria import EnvAssertion, RewardBasis
from tautrait_core.types.messages import Message
from tautrait_core.types.reward import RewardInfo
from tautrait_core.types.task import Action, Task

PREMATURE_TERMINATIONS = frozenset({"max_steps", "too_many_errors"})
"""Endings τ² scores 0 without grading (its ``TerminationReason`` values)."""

_ENV_BASIS = (RewardBasis.DB, RewardBasis.ENV_ASSERTION)


class NLJudge(Protocol):
    """Judges natural-language assertions about a conversation.

    Returns one τ²-shaped check per assertion, in order:
    ``{"nl_assertion": str, "met": bool, "justification": str}``.
    """

    def __call__(
        self, messages: Sequence[Message], assertions: Sequence[str]
    ) -> list[dict[str, Any]]: ...


def grade_criteria(
    domain: Domain,
    task: Task,
    template: StateTemplate,
    messages: Sequence[Message],
    termination: str,
    today: dt.date | None,
    judge: NLJudge | None = None,
) -> RewardInfo:
    """Grade an episode of a τ²-style task (see the module docstring).

    Args:
        domain: The task's domain.
        task: The task; its ``evaluation_criteria`` say what counts.
        template: The database the episode ran against.
        messages: The whole trajectory, the task's initial message history included.
        termination: Why the episode ended (a tautrait ``Termination`` or τ²'s
            ``TerminationReason`` value).
        today: The episode's date (the tools' today).
        judge: Judges NL assertions; needed only when NL_ASSERTION is in the basis.
    """
    reason = str(termination)
    if reason in PREMATURE_TERMINATIONS:
        note = f"Simulation terminated prematurely. Termination reason: {_enum_repr(reason)}"
        return _reward_info(0.0, reward_basis=[RewardBasis.DB.value], info={"note": note})
    criteria = task.evaluation_criteria
    if criteria is None:
        note = {"note": "No evaluation criteria"}
        return _reward_info(1.0, reward_basis=[RewardBasis.DB.value], info=note)
    basis = [RewardBasis(item) for item in criteria.reward_basis]
    if RewardBasis.NL_ASSERTION in basis and judge is None:
        return _reward_info(
            0.0,
            reward_basis=[item.value for item in basis],
            info={"note": "NL_ASSERTION is in the reward basis and no judge model was given"},
            not_scoreable="needs a judge model (--judge-model) for its NL assertions",
        )
    gold_actions = [as_action(item) for item in criteria.actions or []]
    env = _grade_environment(domain, task, template, messages, today, gold_actions, basis)
    action_reward, action_checks, action_info = grade_actions(gold_actions, messages)
    comm_reward, comm_checks, comm_info = grade_communicate(criteria.communicate_info, messages)
    reward = 1.0
    breakdown: dict[str, float] = {}
    if any(item in basis for item in _ENV_BASIS):
        reward *= env.reward
        breakdown.update(env.breakdown)
    if RewardBasis.ACTION in basis:
        reward *= action_reward
        breakdown[RewardBasis.ACTION.value] = action_reward
    nl_checks = None
    if RewardBasis.NL_ASSERTION in basis and judge is not None:
        nl_checks = judge(messages, criteria.nl_assertions or [])
        nl_reward = 1.0 if all(check["met"] for check in nl_checks) else 0.0
        reward *= nl_reward
        breakdown[RewardBasis.NL_ASSERTION.value] = nl_reward
    if RewardBasis.COMMUNICATE in basis:
        reward *= comm_reward
        breakdown[RewardBasis.COMMUNICATE.value] = comm_reward
    return _reward_info(
        reward,
        db_check=env.db_check,
        env_assertions=env.assertion_checks,
        action_checks=action_checks,
        nl_assertions=nl_checks,
        communicate_checks=comm_checks,
        reward_basis=[item.value for item in basis],
        reward_breakdown=breakdown,
        info={"env": env.info, "nl": None, "communicate": comm_info, "action": action_info},
        hashes=env.hashes,
    )


def _enum_repr(reason: str) -> str:
    return f"TerminationReason.{reason.upper()}"


def _reward_info(
    reward: float, *, hashes: tuple[str, str] = ("", ""), **components: Any
) -> RewardInfo:
    db_check = components.get("db_check")
    return RewardInfo(
        reward=reward,
        r_actions=bool(db_check and db_check["db_match"]),
        data_hash=hashes[0],
        gt_data_hash=hashes[1],
        **components,
    )


class _EnvironmentGrade:
    """The DB and ENV_ASSERTION part of a grade."""

    def __init__(self) -> None:
        self.reward = 1.0
        self.breakdown: dict[str, float] = {}
        self.db_check: dict[str, Any] = {"db_match": True, "db_reward": 1.0}
        self.assertion_checks: list[dict[str, Any]] | None = None
        self.info: dict[str, Any] | None = None
        self.hashes: tuple[str, str] = ("", "")


def _grade_environment(
    domain: Domain,
    task: Task,
    template: StateTemplate,
    messages: Sequence[Message],
    today: dt.date | None,
    gold_actions: Sequence[Action],
    basis: Sequence[RewardBasis],
) -> _EnvironmentGrade:
    grade = _EnvironmentGrade()
    criteria = task.evaluation_criteria
    assert criteria is not None
    if criteria.actions is None and criteria.env_assertions is None:
        grade.info = {"note": "No expected actions or env assertions"}
        return grade
    gold_hashes = gold_side_hashes(domain, task, template, today, gold_actions)
    with template.new_episode(today) as db:
        _apply_initial_state(domain, db, task, with_history=False)
        for message in messages:
            for call in message.tool_calls or []:
                execute_tool_call(domain, db, call, message_side(message))
        sync_state(domain, db)
        hashes = side_hashes(domain, db)
        grade.assertion_checks = [
            _check_assertion(domain, db, assertion) for assertion in criteria.env_assertions or []
        ]
    db_match = hashes == gold_hashes
    grade.hashes = (hashes[0], gold_hashes[0])
    grade.db_check = {"db_match": db_match, "db_reward": 1.0 if db_match else 0.0}
    if RewardBasis.DB in basis:
        grade.reward *= grade.db_check["db_reward"]
        grade.breakdown[RewardBasis.DB.value] = grade.db_check["db_reward"]
    if RewardBasis.ENV_ASSERTION in basis:
        assertions_reward = 1.0
        for check in grade.assertion_checks:
            assertions_reward *= check["reward"]
        grade.reward *= assertions_reward
        grade.breakdown[RewardBasis.ENV_ASSERTION.value] = assertions_reward
    return grade


_gold_hashes: GoldCache[tuple[str, str | None]] = GoldCache()


def gold_side_hashes(
    domain: Domain,
    task: Task,
    template: StateTemplate,
    today: dt.date | None,
    gold_actions: Sequence[Action],
) -> tuple[str, str | None]:
    """Both sides' hashes after the gold actions, on a fresh copy with the task's initial
    state (errors swallowed, no sync). They depend only on the domain, the task, the
    template and the date, so each is computed once per process."""

    def replay() -> tuple[str, str | None]:
        with template.new_episode(today) as gold_db:
            _apply_initial_state(domain, gold_db, task, with_history=True)
            for action in gold_actions:
                run_side_tool(domain, gold_db, action.requestor, action.name, dict(action.kwargs))
            return side_hashes(domain, gold_db)

    return _gold_hashes.get(replay_key(domain, template, task, today), replay)


def _apply_initial_state(domain: Domain, db: EpisodeDB, task: Task, *, with_history: bool) -> None:
    """The task's initial state on ``db``; the predicted environment leaves out the message
    history, whose tool calls are part of the trajectory and replayed with it."""
    initial_state = task.initial_state
    if initial_state is None:
        apply_initial_state(domain, db, task)  # records the task (discoverable tools)
        return
    if not with_history and initial_state.message_history:
        initial_state = initial_state.model_copy(update={"message_history": None})
        task = task.model_copy(update={"initial_state": initial_state})
    apply_initial_state(domain, db, task)


def run_side_tool(
    domain: Domain, db: EpisodeDB, requestor: str, name: str, arguments: dict[str, Any]
) -> str:
    """Run a tool of the side that calls it (the agent's or, in a dual-control domain, the
    customer's) and return the observation; never raises."""
    if requestor != "user":
        return domain.run_tool(db, name, arguments)
    if not domain.dual_control:
        return f"{ERROR_PREFIX}User tools not available"
    return run_user_tool(domain, db, name, arguments)


def side_hashes(domain: Domain, db: EpisodeDB) -> tuple[str, str | None]:
    """The canonical hash of the agent's side and of the customer's side (``None`` when
    the domain has no customer-side tables); equal rows give equal hashes."""
    user_tables = {table.__tablename__ for table in domain.user_tables}  # type: ignore[attr-defined]
    changes = db.changes()
    agent_side = {key: value for key, value in changes.items() if key[0] not in user_tables}
    user_side = {key: value for key, value in changes.items() if key[0] in user_tables}
    user_hash = state_hash(db.template, user_side) if user_tables else None
    return state_hash(db.template, agent_side), user_hash


def side_functions(domain: Domain, side: str) -> Mapping[str, Callable[..., Any]]:
    """The functions an env assertion or initialization action may name on ``side``:
    the side's declared functions and its tools (called with the raw return value)."""
    tools = domain.user_tools if side == "user" else domain.tools
    declared = domain.user_functions if side == "user" else domain.agent_functions
    return {**{tool.name: tool.function for tool in tools}, **declared}


def _check_assertion(domain: Domain, db: EpisodeDB, assertion: EnvAssertion) -> dict[str, Any]:
    check: dict[str, Any] = {"env_assertion": assertion.model_dump(), "met": False, "reward": 0.0}
    function = side_functions(domain, assertion.env_type).get(assertion.func_name)
    if function is None:
        check["error"] = f"no function {assertion.func_name!r} on the {assertion.env_type} side"
        return check
    try:
        result = function(db, **assertion.arguments)
        db.flush()
        if domain.sync_state is not None:
            domain.sync_state(db)
    except Exception as exc:  # τ² itself crashes here; we score the assertion as not met
        check["error"] = f"{type(exc).__name__}: {exc}"
        return check
    if not isinstance(result, bool):
        check["error"] = f"{assertion.func_name} returned {type(result).__name__}, not a bool"
        return check
    met = result == assertion.assert_value
    check.update(met=met, reward=1.0 if met else 0.0)
    return check

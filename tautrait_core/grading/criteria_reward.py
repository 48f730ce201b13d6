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

A task set that follows τ³'s rules (τ²-bench v1.x, ``rules="tau3"``) is graded as τ³
grades it (its domain-spec Part A.2): every ending but a stop is premature (the note names
the plain reason, no basis); the predicted state replays only the calls of state-mutating
tools, and calls of tools neither side has are skipped; each action check says its tool's
type; an NL_ASSERTION component without assertions is 1.0 with τ³'s note, so only tasks
with assertions need a judge.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tautrait_core.compat.tau2.actions import as_action
from tautrait_core.domain.domain import Domain
from tautrait_core.domain.initial_state import apply_initial_state
from tautrait_core.domain.state import EpisodeDB, StateTemplate
from tautrait_core.domain.tool_execution import execute_tool_call, sync_state
from tautrait_core.grading.criteria_checks import grade_actions, grade_communicate, message_side
from tautrait_core.grading.gold_cache import GoldCache, replay_key
from tautrait_core.grading.sides import (
    mutates_state_of,
    run_side_tool,
    side_functions,
    side_hashes,
    tool_type_of,
)
from tautrait_core.types.criteria import EnvAssertion, RewardBasis
from tautrait_core.types.messages import Message
from tautrait_core.types.reward import RewardInfo
from tautrait_core.types.task import Action, Task

PREMATURE_TERMINATIONS = frozenset({"max_steps", "too_many_errors"})
"""Endings τ² scores 0 without grading (its ``TerminationReason`` values)."""

TAU3_FINISHED = frozenset(
    {"user_stop", "user_transfer", "user_out_of_scope", "agent_stop", "terminating_tool"}
)
"""Endings τ³ grades (its ``user_stop`` and ``agent_stop``); any other is premature."""

_TAU3_REASONS = {
    "context_window": "context_window_exceeded",
    "provider_error": "infrastructure_error",
}
"""τ³'s names of tautrait endings whose names differ."""

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
    rules: str = "tau2",
    reward_basis: Sequence[str] | None = None,
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
        rules: ``"tau2"`` (the fork's rules) or ``"tau3"`` (τ²-bench v1.x).
        reward_basis: A basis chosen instead of the task's own (``--reward-basis``): the
            reward and components are the chosen basis's, and ``official_reward`` is the
            reward on the task's own basis.
    """
    criteria = task.evaluation_criteria
    if reward_basis is not None and criteria is not None:
        judge = None if judge is None else _JudgedOnce(judge)
        official = grade_criteria(
            domain, task, template, messages, termination, today, judge, rules
        )
        chosen_basis = [RewardBasis(item) for item in reward_basis]
        chosen_criteria = criteria.model_copy(update={"reward_basis": chosen_basis})
        chosen_task = task.model_copy(update={"evaluation_criteria": chosen_criteria})
        chosen = grade_criteria(
            domain, chosen_task, template, messages, termination, today, judge, rules
        )
        official_reward = None if official.not_scoreable is not None else official.reward
        return chosen.model_copy(update={"official_reward": official_reward})
    reason = str(termination)
    if rules == "tau3":
        return _grade_tau3(domain, task, template, messages, reason, today, judge)
    if reason in PREMATURE_TERMINATIONS:
        note = f"Simulation terminated prematurely. Termination reason: {_enum_repr(reason)}"
        return _reward_info(0.0, reward_basis=[RewardBasis.DB.value], info={"note": note})
    criteria = task.evaluation_criteria
    if criteria is None:
        note = {"note": "No evaluation criteria"}
        return _reward_info(1.0, reward_basis=[RewardBasis.DB.value], info=note)
    basis = [RewardBasis(item) for item in criteria.reward_basis]
    if RewardBasis.NL_ASSERTION in basis and judge is None:
        return _needs_a_judge(basis)
    gold_actions = [as_action(item) for item in criteria.actions or []]
    env = _grade_environment(domain, task, template, messages, today, gold_actions, basis)
    actions = grade_actions(gold_actions, messages)
    nl_checks = None
    if RewardBasis.NL_ASSERTION in basis and judge is not None:
        nl_checks = judge(messages, criteria.nl_assertions or [])
    with_env = any(item in basis for item in _ENV_BASIS)
    reward, breakdown = (env.reward, dict(env.breakdown)) if with_env else (1.0, {})
    parts = _Parts(env, actions, grade_communicate(criteria.communicate_info, messages))
    return _combined(reward, breakdown, basis, parts, nl_checks, None)


def _grade_tau3(
    domain: Domain,
    task: Task,
    template: StateTemplate,
    messages: Sequence[Message],
    reason: str,
    today: dt.date | None,
    judge: NLJudge | None,
) -> RewardInfo:
    """:func:`grade_criteria` with τ³'s rules. A grade without a basis (a premature ending,
    a task without criteria) has an empty ``reward_basis``: τ³ writes it as null."""
    if reason not in TAU3_FINISHED:
        plain = _TAU3_REASONS.get(reason, reason)
        note = f"Simulation terminated prematurely. Termination reason: {plain}"
        return _reward_info(0.0, reward_basis=[], info={"note": note})
    criteria = task.evaluation_criteria
    if criteria is None:
        return _reward_info(1.0, reward_basis=[], info={"note": "No evaluation criteria"})
    basis = [RewardBasis(item) for item in criteria.reward_basis]
    assertions = criteria.nl_assertions or []
    if RewardBasis.NL_ASSERTION in basis and assertions and judge is None:
        return _needs_a_judge(basis)
    gold_actions = [as_action(item) for item in criteria.actions or []]
    env = _grade_environment(
        domain, task, template, messages, today, gold_actions, basis, mutating_only=True
    )
    actions = grade_actions(gold_actions, messages)
    for check in actions[1] or []:
        check["tool_type"] = tool_type_of(domain, check["action"]["name"])
    nl_checks, nl_info = None, None
    if RewardBasis.NL_ASSERTION in basis:
        if assertions:
            assert judge is not None
            nl_checks = judge(messages, assertions)
        else:
            nl_checks, nl_info = [], {"note": "No nl_assertions to evaluate"}
    parts = _Parts(env, actions, grade_communicate(criteria.communicate_info, messages))
    return _combined(env.reward, dict(env.breakdown), basis, parts, nl_checks, nl_info)


class _JudgedOnce:
    """``judge``, asked each list of assertions once: grading on the task's basis and on a
    chosen one judges the same conversation, and the second ask would cost a second call."""

    def __init__(self, judge: NLJudge) -> None:
        self._judge = judge
        self._checks: dict[tuple[str, ...], list[dict[str, Any]]] = {}

    def __call__(
        self, messages: Sequence[Message], assertions: Sequence[str]
    ) -> list[dict[str, Any]]:
        key = tuple(assertions)
        if key not in self._checks:
            self._checks[key] = self._judge(messages, assertions)
        return [dict(check) for check in self._checks[key]]


def _needs_a_judge(basis: list[RewardBasis]) -> RewardInfo:
    """The grade of a task judged on NL assertions when no judge was given: not scoreable."""
    return _reward_info(
        0.0,
        reward_basis=[item.value for item in basis],
        info={"note": "NL_ASSERTION is in the reward basis and no judge model was given"},
        not_scoreable="needs a judge model (--judge-model) for its NL assertions",
    )


@dataclass
class _Parts:
    """A grade's components before its basis combines them: the environment's, and the
    actions' and communication's (reward, checks, info)."""

    env: _EnvironmentGrade
    actions: tuple[float, Any, Any]
    communicate: tuple[float, Any, Any]


def _combined(
    reward: float,
    breakdown: dict[str, float],
    basis: list[RewardBasis],
    parts: _Parts,
    nl_checks: list[dict[str, Any]] | None,
    nl_info: dict[str, Any] | None,
) -> RewardInfo:
    """The reward info of ``reward`` and ``breakdown`` (the environment's part, as the rules
    apply it) times the action, NL assertion (when judged) and communication parts that
    ``basis`` names, in that order."""
    env = parts.env
    action_reward, action_checks, action_info = parts.actions
    comm_reward, comm_checks, comm_info = parts.communicate
    if RewardBasis.ACTION in basis:
        reward *= action_reward
        breakdown[RewardBasis.ACTION.value] = action_reward
    if RewardBasis.NL_ASSERTION in basis and nl_checks is not None:
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
        info={"env": env.info, "nl": nl_info, "communicate": comm_info, "action": action_info},
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
    *,
    mutating_only: bool = False,
) -> _EnvironmentGrade:
    """The DB and ENV_ASSERTION part: the predicted state replays the trajectory's calls
    (with ``mutating_only``, τ³'s rule: only calls of state-mutating tools of the side that
    made them; calls of tools that side lacks are skipped)."""
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
            side = message_side(message)
            for call in message.tool_calls or []:
                if mutating_only and not mutates_state_of(domain, side, call.name):
                    continue
                execute_tool_call(domain, db, call, side)
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

"""τ²-bench results files (what ``tau2 run --save-to`` writes, domain-spec §6.3).

Top level ``{"timestamp", "info", "tasks", "simulations"}``; each simulation holds a task id
(a string), trial, seed, termination reason, its messages and τ²'s RewardInfo. Reading turns
each simulation into an :class:`~tautrait_core.types.result.EpisodeResult` whose
``task_id`` is the task's position in the file's own task list, or in the task set the
caller numbers them by; writing does the reverse, so a round trip keeps every reward and
every reward component.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tautrait_core.compat.file_items import parse_items
from tautrait_core.compat.import_checks import check_task_ids
from tautrait_core.compat.tau2.actions import action_to_tau2
from tautrait_core.compat.tau2.messages import message_to_tau2
from tautrait_core.compat.tau2.reward_info import reward_info_from_tau2, tau2_reward_info
from tautrait_core.compat.tau2.tasks import task_from_tau2
from tautrait_core.domain.initial_state import history_messages
from tautrait_core.errors import TaskSetError
from tautrait_core.files import read_json_file
from tautrait_core.interchange.tau3_results import RESULTS_FILE, read_results_data
from tautrait_core.types.result import EpisodeResult, Outcome, Termination
from tautrait_core.types.reward import RewardInfo
from tautrait_core.types.task import Task
from tautrait_core.types.usage import Usage

_TERMINATIONS = {
    "user_stop": Termination.USER_STOP,
    "agent_stop": Termination.AGENT_STOP,
    "max_steps": Termination.MAX_STEPS,
    "too_many_errors": Termination.TOO_MANY_ERRORS,
    "agent_validation_error": Termination.AGENT_ERROR,
    # τ³'s (τ²-bench v1.x)
    "agent_error": Termination.AGENT_ERROR,
    "user_error": Termination.USER_ERROR,
    "timeout": Termination.TIMEOUT,
    "infrastructure_error": Termination.PROVIDER_ERROR,
    "context_window_exceeded": Termination.CONTEXT_WINDOW,
    "unexpected_error": Termination.AGENT_ERROR,
}
"""τ²'s and τ³'s termination reasons as tautrait's (the file's own value stays in
``tau2_terminations``)."""

_TAU2_TERMINATIONS = {
    Termination.USER_STOP: "user_stop",
    Termination.USER_TRANSFER: "user_stop",
    Termination.USER_OUT_OF_SCOPE: "user_stop",
    Termination.TERMINATING_TOOL: "user_stop",
    Termination.AGENT_STOP: "agent_stop",
    Termination.MAX_STEPS: "max_steps",
    Termination.TOO_MANY_ERRORS: "too_many_errors",
}
"""tautrait's terminations as τ²'s (every other ending is τ²'s ``agent_validation_error``)."""


@dataclass
class Tau2Results:
    """A τ² results file read back.

    Attributes:
        info: The file's ``info`` block (models, domain, policy, seed), as it is.
        tasks: The file's tasks.
        results: One episode per simulation, in file order.
        task_ids: τ²'s task id of each episode (same order).
        tau2_terminations: τ²'s termination reason of each episode (same order).
    """

    info: dict[str, Any]
    tasks: list[Task]
    results: list[EpisodeResult] = field(default_factory=list)
    task_ids: list[str] = field(default_factory=list)
    tau2_terminations: list[str] = field(default_factory=list)

    def numbered_by(self, tasks: Sequence[Task], path: Path) -> Tau2Results:
        """The same episodes, each ``task_id`` the position of its task in ``tasks`` (the
        task set they are stored or rescored with) instead of in the file's own list.

        Raises:
            TaskSetError: a simulation names a task ``tasks`` lacks (the message names the
                simulation, as reading does).
        """
        index = tau2_positions(tasks)

        def renumbered(episode: tuple[EpisodeResult, str]) -> EpisodeResult:
            result, task_id = episode
            if task_id not in index:
                raise ValueError(f"task {task_id!r} is not in the task list")
            return result.model_copy(update={"task_id": index[task_id]})

        results = parse_items(
            zip(self.results, self.task_ids, strict=True),
            renumbered,
            (ValueError,),
            lambda position, _item: f"{path}: simulation {position} is invalid",
        )
        return dataclasses.replace(self, results=results)

    @property
    def simulated_task_ids(self) -> set[str]:
        """The τ² ids of the tasks the simulations ran."""
        return set(self.task_ids)

    @property
    def tautrait_settings(self) -> dict[str, str]:
        """What a tautrait export says of its run (``info.tautrait``: domain, task set,
        traits, agent, user); empty for a file τ²-bench wrote."""
        settings = self.info.get(TAUTRAIT_SETTINGS)
        if not isinstance(settings, dict):
            return {}
        return {key: value for key, value in settings.items() if isinstance(value, str)}

    @property
    def domain(self) -> str | None:
        """The domain the file names (``info.environment_info.domain_name``)."""
        environment = self.info.get("environment_info") or {}
        name = environment.get("domain_name") if isinstance(environment, dict) else None
        return name if isinstance(name, str) else None


TAUTRAIT_SETTINGS = "tautrait"
"""Key of the ``info`` block under which a tautrait export names the run's own domain,
task set, traits, agent and user (τ² ignores it), so that an import restores them."""

TAU2_TASK_IDS = "tau2-task-ids"
"""Key of an imported τ² run's stored metadata holding the τ² task id of each position."""


def is_tau2_results_file(source: str | Path) -> bool:
    """Whether ``source`` is a readable τ² or τ³ results file (or τ³'s results folder)."""
    path = Path(source)
    if path.is_dir():
        path = path / RESULTS_FILE
    if not path.is_file():
        return False
    try:
        return is_tau2_results(read_json_file(path, TaskSetError, "the τ² results file"))
    except TaskSetError:
        return False


def is_tau2_results(data: object) -> bool:
    """Whether parsed JSON ``data`` has the shape of a τ² results file (or of the
    ``results.json`` of τ³'s folder format, which indexes its simulations)."""
    return isinstance(data, dict) and (
        isinstance(data.get("simulations"), list) or isinstance(data.get("simulation_index"), list)
    )


def read_tau2_results(path: Path) -> Tau2Results:
    """Read a τ² results file; each episode's ``task_id`` is its task's position in the
    file's own ``tasks`` (:meth:`Tau2Results.numbered_by` numbers them by another list).

    Raises:
        TaskSetError: the file is not a τ² results file, or a simulation is malformed or
            names a task not in the task list (the message names the simulation).
    """
    data = read_results_data(Path(path))
    if not isinstance(data, dict) or not isinstance(data.get("simulations"), list):
        raise TaskSetError(f'{path}: not a τ² results file (no "simulations" list)')
    try:
        file_tasks = [task_from_tau2(item) for item in data.get("tasks") or []]
    except (ValueError, KeyError, TypeError) as exc:
        raise TaskSetError(f"{path}: a task of the file is invalid ({exc})") from exc
    check_task_ids(file_tasks, path)  # positions are found by id
    index = tau2_positions(file_tasks)
    read = Tau2Results(info=data.get("info") or {}, tasks=file_tasks)
    simulations = parse_items(
        data["simulations"],
        lambda simulation: _simulation(simulation, index),
        (ValueError, KeyError, TypeError),
        lambda position, _item: f"{path}: simulation {position} is invalid",
    )
    for task_id, result, termination in simulations:
        read.results.append(result)
        read.task_ids.append(task_id)
        read.tau2_terminations.append(termination)
    return read


def tau2_positions(tasks: Sequence[Task]) -> dict[str | None, int]:
    """``{τ² task id: position}`` of a task list (:func:`tau2_task_id` of each task)."""
    return {tau2_task_id(task, position): position for position, task in enumerate(tasks)}


def _simulation(
    simulation: dict[str, Any], index: dict[str | None, int]
) -> tuple[str, EpisodeResult, str]:
    task_id = simulation["task_id"]
    if task_id not in index:
        raise ValueError(f"task {task_id!r} is not in the task list")
    termination = simulation.get("termination_reason") or "user_stop"
    if termination not in _TERMINATIONS:
        raise ValueError(f"unknown termination_reason {termination!r}")
    raw_info = simulation.get("reward_info")
    reward_info = reward_info_from_tau2(raw_info) if raw_info is not None else None
    reward = reward_info.reward if reward_info is not None else 0.0
    if reward_info is None:
        outcome = Outcome.ERROR
    else:
        outcome = Outcome.PASS if abs(reward - 1.0) < 1e-6 else Outcome.FAIL
    result = EpisodeResult(
        task_id=index[task_id],
        trial=int(simulation.get("trial") or 0),
        outcome=outcome,
        reward=reward,
        termination=_TERMINATIONS[termination],
        reward_info=reward_info,
        messages=history_messages(simulation.get("messages") or []),
        error=None if reward_info is not None else "not evaluated in the τ² file",
        agent_usage=Usage(cost=_cost(simulation.get("agent_cost"))),
        user_usage=Usage(cost=_cost(simulation.get("user_cost"))),
        duration_s=float(simulation.get("duration") or 0.0),
    )
    return task_id, result, termination


def _cost(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def task_to_tau2(task: Task, position: int) -> dict[str, Any]:
    """A task in τ²'s task shape (the scenario is the rendered instruction text)."""
    criteria = task.evaluation_criteria
    criteria_data = None
    if criteria is not None:
        criteria_data = criteria.model_dump(mode="json")
        criteria_data["actions"] = (
            [action_to_tau2(action) for action in task.actions]
            if criteria.actions is not None
            else None
        )
    return {
        "id": tau2_task_id(task, position),
        "description": None,
        "user_scenario": task.user_scenario or {"persona": None, "instructions": task.instruction},
        "ticket": task.ticket,
        "initial_state": task.initial_state.model_dump(mode="json") if task.initial_state else None,
        "evaluation_criteria": criteria_data,
    }


def tau2_task_id(task: Task, position: int) -> str:
    """τ²'s id of a task: its own ``id``, else its position in its task set."""
    return task.id if task.id is not None else str(position)


def tau2_results(
    results: Sequence[EpisodeResult],
    tasks: Sequence[Task],
    info: dict[str, Any],
    *,
    seed: int | None = None,
    rules: str = "tau2",
) -> dict[str, Any]:
    """Episodes as a τ² results file (``json.dump`` it with ``indent=2``); reward infos in
    the shape of ``rules`` (``"tau3"``: a premature ending's basis is null).

    Args:
        results: The episodes (``task_id`` = position in ``tasks``).
        tasks: The run's task list.
        info: The file's ``info`` block (see :func:`tau2_run_info`).
        seed: The seed written on every simulation.
    """
    used = sorted({result.task_id for result in results})
    simulations = []
    for result in sorted(results, key=lambda r: (r.trial, r.task_id)):
        task = tasks[result.task_id]
        simulations.append(_simulation_record(result, task, seed, rules))
    return {
        "timestamp": dt.datetime.now().isoformat(),
        "info": info,
        "tasks": [task_to_tau2(tasks[position], position) for position in used],
        "simulations": simulations,
    }


def _simulation_record(
    result: EpisodeResult, task: Task, seed: int | None, rules: str
) -> dict[str, Any]:
    info = result.reward_info
    # τ² keeps the policy in the file's info, not in the trajectory
    trajectory = [message for message in result.messages if message.role != "system"]
    return {
        "id": str(uuid.uuid5(uuid.NAMESPACE_OID, f"{task.id}:{result.task_id}:{result.trial}")),
        "task_id": tau2_task_id(task, result.task_id),
        "timestamp": None,
        "start_time": None,
        "end_time": None,
        "duration": result.duration_s,
        "termination_reason": _tau2_termination(result),
        "agent_cost": result.agent_usage.cost,
        "user_cost": result.user_usage.cost,
        "reward_info": _reward_info(info, result.reward, rules) if info is not None else None,
        "messages": [message_to_tau2(message, turn) for turn, message in enumerate(trajectory)],
        "trial": result.trial,
        "seed": seed,
    }


def _tau2_termination(result: EpisodeResult) -> str:
    return _TAU2_TERMINATIONS.get(result.termination, "agent_validation_error")


def _reward_info(info: RewardInfo, reward: float, rules: str) -> dict[str, Any]:
    """τ²'s RewardInfo of an episode; a τ-bench-style grade is written as what it is in
    τ²'s terms: DB (the gold-state check) times COMMUNICATE (the required outputs)."""
    if info.reward_basis is not None:
        return {**tau2_reward_info(info, rules), "reward": reward}
    db_reward = 1.0 if info.r_actions else 0.0
    checks = [
        {
            "info": output,
            "met": found,
            "justification": f"Information '{output}' "
            + ("communicated." if found else "not communicated."),
        }
        for output, found in info.outputs.items()
    ]
    breakdown = {"DB": db_reward, "COMMUNICATE": 0.0 if info.r_outputs is False else 1.0}
    return {
        "reward": reward,
        "db_check": {"db_match": info.r_actions, "db_reward": db_reward},
        "env_assertions": [],
        "action_checks": None,
        "nl_assertions": None,
        "communicate_checks": checks or None,
        "reward_basis": ["DB", "COMMUNICATE"],
        "reward_breakdown": breakdown,
        "info": {
            "env": None,
            "nl": None,
            "communicate": None if checks else {"note": "No communicate_info to evaluate"},
            "action": {"note": "No actions to evaluate"},
        },
    }


def tau2_run_info(
    domain: str,
    policy: str | None,
    agent: str,
    agent_model: str | None,
    user: str,
    user_model: str | None,
) -> dict[str, Any]:
    """The ``info`` block of a τ² results file for a tautrait run."""
    return {
        "git_commit": None,
        "num_trials": None,
        "max_steps": None,
        "max_errors": None,
        "user_info": {
            "implementation": user,
            "llm": user_model,
            "llm_args": {},
            "global_simulation_guidelines": None,
        },
        "agent_info": {"implementation": agent, "llm": agent_model, "llm_args": {}},
        "environment_info": {"domain_name": domain, "policy": policy, "tool_defs": None},
        "seed": None,
    }

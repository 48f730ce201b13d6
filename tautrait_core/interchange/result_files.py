"""Upstream result-list JSON (tau-bench / tau-trait ``EnvRunResult`` records).

Each record is ``{task_id, reward, info, traj, trial}``, where ``info`` holds the task, the
source of the last step, the user cost and the reward info in upstream's shape, so existing
analysis scripts keep working on tautrait runs.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tautrait_core.compat.file_items import parse_items
from tautrait_core.config.run_config import RunConfig
from tautrait_core.files import read_json_file, write_text_file
from tautrait_core.types.messages import Message, ToolCall
from tautrait_core.types.result import EpisodeResult
from tautrait_core.types.task import RESPOND_ACTION, Task
from tautrait_core.types.usage import Usage

if TYPE_CHECKING:
    from tautrait_core.store.tables import RunRecord


def last_source(result: EpisodeResult) -> str | None:
    """Upstream's ``info.source``: ``"user"`` or the name of the last tool called."""
    for message in reversed(result.messages):
        if message.role == "user":
            return "user"
        if message.role == "tool":
            return message.name
    return None


def result_record(result: EpisodeResult, task: Task | None) -> dict[str, Any]:
    """One episode as an upstream result record."""
    reward_info = None
    if result.reward_info is not None:
        info = result.reward_info
        if task is not None and task.outputs:
            detail: dict[str, Any] = {
                "r_outputs": float(bool(info.r_outputs)),
                "outputs": info.outputs,
            }
        else:
            detail = {"r_actions": float(info.r_actions), "gt_data_hash": info.gt_data_hash}
        reward_info = {
            "reward": info.reward,
            "info": detail,
            "actions": [
                a.model_dump() for a in (task.actions if task else []) if a.name != RESPOND_ACTION
            ],
        }
    user_cost = result.user_usage.cost
    info_block: dict[str, Any] = {
        "task": task.model_dump() if task is not None else None,
        "source": last_source(result),
        "user_cost": user_cost,
        "reward_info": reward_info,
    }
    if result.error:
        info_block["error"] = result.error
    return {
        "task_id": result.task_id,
        "reward": result.reward,
        "info": info_block,
        "traj": result.traj,
        "trial": result.trial,
    }


def result_list(results: list[EpisodeResult], tasks: list[Task] | None) -> list[dict[str, Any]]:
    """Episodes as an upstream result list, in (trial, task) order."""
    ordered = sorted(results, key=lambda r: (r.trial, r.task_id))
    return [
        result_record(r, tasks[r.task_id] if tasks and r.task_id < len(tasks) else None)
        for r in ordered
    ]


def default_file_name(config: RunConfig) -> str:
    """Upstream's checkpoint file name pattern."""
    agent, user = config.agent, config.user
    model = (agent.model or agent.strategy).split("/")[-1]
    stamp = dt.datetime.now().strftime("%m%d%H%M%S")
    return (
        f"{agent.strategy}-{model}-{agent.temperature}_range_{config.start}-{config.end}"
        f"_user-{user.model}-{user.strategy}_{stamp}.json"
    )


def write_result_list(run: RunRecord, results: list[EpisodeResult], config: RunConfig) -> Path:
    """Write a run's results where upstream would (``result_fp`` or ``log_dir``)."""
    from tautrait_core.errors import ConfigError
    from tautrait_core.interchange.run_tasks import tasks_of_run

    if config.storage.export_path:
        path = Path(config.storage.export_path)
    else:
        path = Path(config.storage.log_dir or ".") / default_file_name(config)
    tasks = tasks_of_run(run.domain, run.task_set)
    text = json.dumps(result_list(results, tasks), indent=2)
    write_text_file(path, text, ConfigError, "the result list")
    return path


def tau2_result_file(run: RunRecord, results: list[EpisodeResult]) -> dict[str, Any]:
    """A stored run as τ²-bench's results file (see :mod:`tautrait_core.interchange.tau2_results`);
    in τ³'s v1.0.1 shape (json format) when the run's task set follows τ³'s rules.

    Raises:
        UnknownNameError, TaskSetError: the run's domain or task set is not installed (and
            the run is not an imported τ² file, whose task ids are kept).
    """
    from tautrait_core.errors import TautraitError
    from tautrait_core.interchange.run_tasks import tasks_of_run
    from tautrait_core.interchange.tau2_results import (
        TAU2_TASK_IDS,
        TAUTRAIT_SETTINGS,
        tau2_results,
        tau2_run_info,
    )
    from tautrait_core.plugins import lookup

    config = run.run_config()
    try:
        tasks = tasks_of_run(run.domain, run.task_set)
        policy: str | None = lookup("domain", run.domain).policy
    except TautraitError:
        if TAU2_TASK_IDS not in run.plugins:
            raise
        # an imported τ² run whose task set is not installed: its tasks by τ² id only
        ids = json.loads(run.plugins[TAU2_TASK_IDS])
        tasks = [Task(id=task_id, user_id="", instruction="") for task_id in ids]
        policy = None
    agent, user = config.agent, config.user
    info = tau2_run_info(run.domain, policy, agent.strategy, agent.model, user.strategy, user.model)
    info.update(num_trials=config.num_trials, max_steps=config.limits.max_steps, seed=config.seed)
    info[TAUTRAIT_SETTINGS] = {
        "domain": run.domain,
        "task_set": run.task_set,
        "traits": user.traits.label(),
        "agent": agent.strategy,
        "user": user.strategy,
    }
    rules = task_set_rules(run.domain, run.task_set)
    data = tau2_results(results, tasks, info, seed=config.seed, rules=rules)
    if rules != "tau3":
        return data
    from tautrait_core.interchange.tau3_results import tau3_results

    extras = {
        task.id or str(position): {
            "issues": task.issues,
            "required_documents": task.required_documents,
            "user_tools": task.user_tools,
        }
        for position, task in enumerate(tasks)
    }
    ordered = sorted(results, key=lambda r: (r.trial, r.task_id))
    # an episode that could not be graded (no judge) is no reward of 0: τ³ has no such
    # state, and leaves an infrastructure error out of its metrics as tautrait does
    terminations = [
        "provider_error" if r.reward_info and r.reward_info.not_scoreable else r.termination.value
        for r in ordered
    ]
    return tau3_results(data, terminations, policy, extras)


def task_set_rules(domain: str, task_set: str) -> str:
    """Whose rules a run's task set follows (``"tau2"`` when it cannot be found now)."""
    from tautrait_core.domain.task_sets import resolve_task_set
    from tautrait_core.errors import TautraitError
    from tautrait_core.plugins import lookup

    try:
        return resolve_task_set(lookup("domain", domain), task_set).rules
    except TautraitError:
        return "tau2"


class UpstreamEpisode:
    """One record of an upstream result list, read back into tautrait's types.

    Attributes:
        result: The episode (messages from ``traj``; outcome from ``reward``; an episode
            whose ``info`` holds an ``error`` and no reward info is an ``error``).
        task: The task embedded in ``info.task`` (``None`` if the record has none).
        reward_info: ``info.reward_info`` exactly as the file has it (``None`` if absent).
    """

    def __init__(
        self, result: EpisodeResult, task: Task | None, reward_info: dict[str, Any] | None
    ) -> None:
        self.result = result
        self.task = task
        self.reward_info = reward_info


def _message(raw: dict[str, Any]) -> Message:
    calls = [
        ToolCall(
            id=call.get("id") or f"call_{index}",
            name=(call.get("function") or {}).get("name", ""),
            arguments=(call.get("function") or {}).get("arguments") or "{}",
        )
        for index, call in enumerate(raw.get("tool_calls") or [])
    ]
    content = raw.get("content")
    if isinstance(content, list):  # content parts
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return Message(
        role=raw.get("role", "assistant"),
        content=content,
        tool_calls=calls or None,
        tool_call_id=raw.get("tool_call_id"),
        name=raw.get("name"),
    )


MAX_ID = 2**31 - 1
"""The largest task id or trial number a result record may hold."""


def read_result_list(path: Path) -> list[UpstreamEpisode]:
    """Read an upstream result-list JSON file (tau-bench / tau-trait ``EnvRunResult`` list).

    Raises:
        TaskSetError: the file is not such a list, or a record is malformed (the message
            names the file and the record's position).
    """
    from tautrait_core.errors import TaskSetError

    records = read_json_file(path, TaskSetError, "the result list")
    if not isinstance(records, list):
        raise TaskSetError(
            f"{path}: expected a JSON list of results (task_id, reward, info, traj, trial)"
        )
    return parse_items(
        records,
        _episode,
        (ValueError, TypeError, AttributeError, RecursionError),
        lambda position, _item: f"{path}: record {position} is not a result record",
    )


def _whole_number(record: dict[str, Any], key: str, default: int | None = None) -> int:
    """``record[key]`` as a task id or trial: a whole JSON number from 0 to :data:`MAX_ID`."""
    value = record.get(key)
    if value is None and default is not None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{key} must be a whole number, not {value!r}")
    if not math.isfinite(value) or value != int(value) or not 0 <= value <= MAX_ID:
        raise ValueError(f"{key} must be a whole number from 0 to {MAX_ID}, not {value!r}")
    return int(value)


def _reward(record: dict[str, Any]) -> float:
    value = record.get("reward")
    if value is None:
        return 0.0
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"reward must be a finite number such as 0.0 or 1.0, not {value!r}")
    return float(value)


def _user_cost(info: dict[str, Any]) -> float | None:
    """``info.user_cost`` when the file holds a finite, non-negative number there."""
    cost = info.get("user_cost")
    if isinstance(cost, bool) or not isinstance(cost, int | float):
        return None
    return float(cost) if math.isfinite(cost) and cost >= 0 else None


def _episode(record: object) -> UpstreamEpisode:
    from tautrait_core.types.result import Outcome, Termination

    if not isinstance(record, dict) or "task_id" not in record or "reward" not in record:
        raise ValueError("it lacks task_id/reward")
    task_id, trial, reward = (
        _whole_number(record, "task_id"),
        _whole_number(record, "trial", 0),
        _reward(record),
    )
    info = record.get("info") or {}
    if not isinstance(info, dict):
        raise ValueError(f"info must be an object, not {type(info).__name__}")
    task = Task.model_validate(info["task"]) if isinstance(info.get("task"), dict) else None
    errored = bool(info.get("error")) and not info.get("reward_info")
    outcome = Outcome.ERROR if errored else Outcome.PASS if reward == 1.0 else Outcome.FAIL
    traj = record.get("traj") or []
    if not isinstance(traj, list):
        raise ValueError(f"traj must be a list of messages, not {type(traj).__name__}")
    messages = [_message(m) for m in traj if isinstance(m, dict)]
    if info.get("reward_info") is None:
        termination = Termination.MAX_STEPS
    elif messages and messages[-1].role == "tool":
        termination = Termination.TERMINATING_TOOL
    else:
        termination = Termination.USER_STOP
    result = EpisodeResult(
        task_id=task_id,
        trial=trial,
        outcome=outcome,
        reward=reward,
        termination=termination,
        messages=messages,
        error=str(info["error"]) if info.get("error") else None,
        # the file records the user's cost at most: the agent's is unknown, never $0
        agent_usage=Usage(cost=None),
        user_usage=Usage(cost=_user_cost(info)),
    )
    raw_reward_info = info.get("reward_info")
    return UpstreamEpisode(
        result, task, raw_reward_info if isinstance(raw_reward_info, dict) else None
    )

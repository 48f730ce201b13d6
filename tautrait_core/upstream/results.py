"""Upstream result-list JSON (tau-bench / tau-trait ``EnvRunResult`` records).

Each record is ``{task_id, reward, info, traj, trial}``, where ``info`` holds the task, the
source of the last step, the user cost and the reward info in upstream's shape, so existing
analysis scripts keep working on tautrait runs.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tautrait_core.models import RESPOND_ACTION, EpisodeResult, RunConfig, Task

if TYPE_CHECKING:
    from tautrait_core.runner import RunReport


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
    model = (config.agent_model or config.agent).split("/")[-1]
    stamp = dt.datetime.now().strftime("%m%d%H%M%S")
    return (
        f"{config.agent}-{model}-{config.temperature}_range_{config.start}-{config.end}"
        f"_user-{config.user_model}-{config.user}_{stamp}.json"
    )


def write_result_list(report: RunReport, config: RunConfig) -> Path:
    """Write a run's results where upstream would (``result_fp`` or ``log_dir``)."""
    from tautrait_core.runner import prepare

    if config.export_path:
        path = Path(config.export_path)
    else:
        path = Path(config.log_dir or ".") / default_file_name(config)
    path.parent.mkdir(parents=True, exist_ok=True)
    tasks = prepare(report.run.run_config()).task_set.tasks
    path.write_text(json.dumps(result_list(report.results, tasks), indent=2))
    return path

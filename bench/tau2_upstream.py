"""τ²-bench's own telecom environment, timed on the tasks ``tau2_env_cost.py`` times.

Given a τ²-bench source checkout (``src/tau2/domains/telecom/environment.py``), a graded
episode of a task whose trajectory is its gold calls is what τ² itself does for it:

1. build the environment (``get_environment``, which loads ``db.toml`` and
   ``user_db.toml`` into its pydantic databases and reads the policy files);
2. set the task's initial state (``environment.set_state(initialization_data,
   initialization_actions, message_history)``, as its orchestrator does before the first
   turn);
3. every gold call as a tool-call message of the side that makes it, answered by
   ``environment.get_response`` (the tool on that side, then ``sync_tools``), both
   messages kept in the trajectory;
4. the grade: ``EnvironmentEvaluator.calculate_reward(environment_constructor=...,
   task=..., full_trajectory=...)``, which builds the predicted and the gold
   environments itself, replays, hashes both databases and runs the env assertions.

The database files are the ones tautrait's side runs on (``get_environment(db=...,
user_db=...)`` loaded from that folder, as ``get_environment()`` loads its own by default).
τ²'s logger is set to ERROR, the level its runs use by default, so that no log line is
written while timing.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tautrait_core.compat.tau2.actions import action_to_tau2, as_action
from tautrait_core.types.task import Task

TELECOM_ENVIRONMENT = Path("src") / "tau2" / "domains" / "telecom" / "environment.py"
"""The file that makes a folder a τ²-bench source checkout with its telecom domain."""
TAU2_LOG_LEVEL = "ERROR"
"""τ²'s default log level for a run."""
MODULES = {
    "environment": "tau2.domains.telecom.environment",
    "data_model": "tau2.domains.telecom.data_model",
    "user_data_model": "tau2.domains.telecom.user_data_model",
    "tasks": "tau2.data_model.tasks",
    "message": "tau2.data_model.message",
    "evaluator": "tau2.evaluator.evaluator_env",
}
"""The τ² modules an episode uses, by what they hold."""


class Tau2UpstreamError(Exception):
    """τ²'s code cannot be used (the message says why, in one line)."""


def is_tau2_source(path: Path) -> bool:
    """Whether ``path`` is a τ²-bench source checkout with its telecom environment."""
    return (path.expanduser() / TELECOM_ENVIRONMENT).is_file()


def quiet_tau2_logging() -> None:
    """Set loguru (τ²'s logger) to τ²'s default run level, if it is installed."""
    if importlib.util.find_spec("loguru") is None:
        return
    from loguru import logger

    logger.remove()
    logger.add(sys.stderr, level=TAU2_LOG_LEVEL)


class Tau2Source:
    """τ²-bench's telecom code, imported from the checkout at ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path.expanduser().resolve()
        if not is_tau2_source(self.path):
            raise Tau2UpstreamError(f"{path} is not a τ²-bench source checkout")
        source = self.path / "src"
        if str(source) not in sys.path:
            sys.path.insert(0, str(source))
        quiet_tau2_logging()
        self.modules: dict[str, Any] = {}
        for role, name in MODULES.items():
            try:
                self.modules[role] = importlib.import_module(name)
            except Exception as exc:  # a checkout that does not import is reported, not raised
                raise Tau2UpstreamError(
                    f"cannot import {name} from the τ²-bench checkout {path}: {exc!r}"
                ) from exc
        imported = Path(self.modules["environment"].__file__).resolve()
        if not imported.is_relative_to(source):
            raise Tau2UpstreamError(f"tau2 was imported from {imported}, not from {source}")

    def episodes(self, folder: Path, tasks: list[Task]) -> Tau2Episodes:
        """τ²'s telecom environment on the database files in ``folder``, set to run
        ``tasks``."""
        try:
            return Tau2Episodes(self.modules, folder, tasks)
        except Exception as exc:
            raise Tau2UpstreamError(
                f"cannot set up τ²'s telecom environment on {folder}: {exc!r}"
            ) from exc


def tau2_task(task: Task) -> dict[str, Any]:
    """A tautrait task in τ²'s task shape: its id, initial state and criteria (the gold
    actions with τ²'s ``arguments``); the user scenario is the task's instruction."""
    criteria = task.evaluation_criteria
    scenario = {"instructions": task.instruction}
    data: dict[str, Any] = {"id": task.id or "", "user_scenario": scenario}
    if task.initial_state is not None:
        data["initial_state"] = task.initial_state.model_dump(mode="json", exclude_none=True)
    if criteria is not None:
        data["evaluation_criteria"] = criteria.model_dump(mode="json", exclude_none=True)
        if criteria.actions is not None:
            actions = [action_to_tau2(as_action(item)) for item in criteria.actions]
            data["evaluation_criteria"]["actions"] = actions
    return data


class Tau2Episodes:
    """τ²'s graded episodes of a list of tasks on the database files of one folder."""

    def __init__(self, modules: dict[str, Any], folder: Path, tasks: list[Task]) -> None:
        self.get_environment = modules["environment"].get_environment
        self.telecom_db = modules["data_model"].TelecomDB
        self.user_db = modules["user_data_model"].TelecomUserDB
        self.tool_call = modules["message"].ToolCall
        self.messages = {
            "assistant": modules["message"].AssistantMessage,
            "user": modules["message"].UserMessage,
        }
        self.evaluator = modules["evaluator"].EnvironmentEvaluator
        self.db_path = folder / "db.toml"
        self.user_db_path = folder / "user_db.toml"
        task_model = modules["tasks"].Task
        self.tasks = [task_model.model_validate(tau2_task(task)) for task in tasks]
        self.new_environment()  # fails here, not while timing, if the files do not load

    def new_environment(self, solo_mode: bool = False, **kwargs: Any) -> Any:
        """``get_environment`` on this folder's databases (τ²'s environment constructor)."""
        return self.get_environment(
            db=self.telecom_db.load(self.db_path),
            user_db=self.user_db.load(self.user_db_path),
            solo_mode=solo_mode,
            **kwargs,
        )

    def run_episode(self, index: int) -> float:
        """Task ``index`` as τ² runs and grades it; returns τ²'s reward."""
        task = self.tasks[index]
        initial = task.initial_state
        history = list(initial.message_history or []) if initial else []
        environment = self.new_environment()
        environment.set_state(
            initialization_data=initial.initialization_data if initial else None,
            initialization_actions=initial.initialization_actions if initial else None,
            message_history=history,
        )
        trajectory = list(history)
        criteria = task.evaluation_criteria
        for number, action in enumerate(criteria.actions or [] if criteria else []):
            call = self.tool_call(
                id=f"call_{number}",
                name=action.name,
                arguments=action.arguments,
                requestor=action.requestor,
            )
            message_class = self.messages[action.requestor]
            trajectory.append(message_class(role=action.requestor, tool_calls=[call]))
            trajectory.append(environment.get_response(call))
        reward_info = self.evaluator.calculate_reward(
            environment_constructor=self.new_environment,
            task=task,
            full_trajectory=trajectory,
        )
        return reward_info.reward

    def timed(
        self, measure: Callable[[int, Any], list[float]], repeat: int = 1
    ) -> tuple[list[float], int]:
        """CPU ms of every task's episode, ``repeat`` passes over the tasks after one
        untimed warm-up episode, and how many episodes τ² did not reward 1.0 (a sign that
        the two sides do not run the same)."""
        self.run_episode(0)
        timings: list[float] = []
        rewards: list[float] = []
        for _ in range(repeat):
            for index in range(len(self.tasks)):
                episode = lambda index=index: rewards.append(self.run_episode(index))  # noqa: E731
                timings.extend(measure(1, episode))
        return timings, sum(1 for reward in rewards if reward != 1.0)

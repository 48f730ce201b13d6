"""bench/env_cost.py --tau2 CHECKOUT: τ²-bench's own telecom environment timed beside ours.

τ²-bench's code is not part of the test environment, so the tests write a stand-in source
checkout with the modules the script imports (``src/tau2/domains/telecom/environment.py``
and the task, message, database and evaluator modules) whose environment and evaluator log
every call, and a ``data/tau2/domains/telecom`` folder made from the plugin's own τ²-format
files and two of its tasks in τ²'s task shape.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

tau2_domain = pytest.importorskip("tautrait_telecom.tau2.domain")

from tautrait_core.compat.tau2.actions import action_to_tau2, as_action  # noqa: E402
from tests.test_bench_env_cost import assert_ratio_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "env_cost.py"
IMPORTED_TASKS = 2
POLICIES = ("main_policy", "main_policy_solo", "tech_support_manual", "tech_support_workflow")

FAKE_TAU2 = {
    "__init__.py": "",
    "log.py": """
from pathlib import Path

LOG = Path(__file__).with_name("calls.log")


def record(*words):
    with LOG.open("a") as file:
        file.write(" ".join(str(word) for word in words) + "\\n")
""",
    "data_model/__init__.py": "",
    "data_model/message.py": """
from pydantic import BaseModel


class ToolCall(BaseModel):
    id: str
    name: str
    arguments: dict
    requestor: str = "assistant"


class AssistantMessage(BaseModel):
    role: str
    tool_calls: list[ToolCall] | None = None


class UserMessage(AssistantMessage):
    pass
""",
    "data_model/tasks.py": """
from pydantic import BaseModel, ConfigDict


class Action(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    arguments: dict
    requestor: str = "assistant"


class EvaluationCriteria(BaseModel):
    model_config = ConfigDict(extra="allow")
    actions: list[Action] | None = None


class InitialState(BaseModel):
    initialization_data: dict | None = None
    initialization_actions: list[dict] | None = None
    message_history: list[dict] | None = None


class Task(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    initial_state: InitialState | None = None
    evaluation_criteria: EvaluationCriteria | None = None
""",
    "domains/__init__.py": "",
    "domains/telecom/__init__.py": "",
    "domains/telecom/data_model.py": """
from pathlib import Path


class TelecomDB:
    @classmethod
    def load(cls, path):
        return Path(path).read_text()
""",
    "domains/telecom/user_data_model.py": """
from tau2.domains.telecom.data_model import TelecomDB as TelecomUserDB
""",
    "domains/telecom/environment.py": """
from tau2.log import record


class Environment:
    def set_state(self, initialization_data, initialization_actions, message_history):
        record("set_state", len(initialization_actions or []), len(message_history))

    def get_response(self, call):
        record(call.requestor, call.name)
        return {"id": call.id, "role": "tool"}


def get_environment(db=None, user_db=None, solo_mode=False):
    assert "[[" in db and "[" in user_db, "the database files were not read"
    record("environment")
    return Environment()
""",
    "evaluator/__init__.py": "",
    "evaluator/evaluator_env.py": """
from types import SimpleNamespace

from tau2.log import record


class EnvironmentEvaluator:
    @classmethod
    def calculate_reward(cls, environment_constructor, task, full_trajectory):
        environment_constructor()
        environment_constructor()
        history = task.initial_state.message_history or [] if task.initial_state else []
        gold = task.evaluation_criteria.actions or []
        complete = len(full_trajectory) == len(history) + 2 * len(gold)
        record("reward", task.id)
        return SimpleNamespace(reward=1.0 if complete else 0.0)
""",
}


def tau2_shaped(task: dict) -> dict:
    """One of the plugin's τ²-format tasks as τ²'s task file holds it."""
    criteria = dict(task["evaluation_criteria"])
    criteria["actions"] = [action_to_tau2(as_action(item)) for item in criteria["actions"]]
    return {
        "id": task["id"],
        "user_scenario": {"instructions": task["instruction"]},
        "initial_state": task["initial_state"],
        "evaluation_criteria": criteria,
    }


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    folder = tmp_path / "tau2-bench"
    for name, text in FAKE_TAU2.items():
        path = folder / "src" / "tau2" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    telecom = folder / "data" / "tau2" / "domains" / "telecom"
    shutil.copytree(tau2_domain.DATA_DIR, telecom)
    for name in POLICIES:
        (telecom / f"{name}.md").write_text(f"{name}\n")
    tasks = json.loads((Path(tau2_domain.__file__).parent / "tasks" / "test.json").read_text())
    shaped = [tau2_shaped(task) for task in tasks[:IMPORTED_TASKS]]
    (telecom / "tasks.json").write_text(json.dumps(shaped))
    return folder


def run_tau2_bench(checkout: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(SCRIPT), "--domains", "tau2-telecom", "--repeat", "1"]
    command += ["--baseline-samples", "1", "--json", "--tau2", str(checkout)]
    environment = {**os.environ, "TAUTRAIT_LOAD_PLUGINS": "telecom"}
    return subprocess.run(command, capture_output=True, text=True, env=environment, timeout=300)


def expected_calls(tasks: list) -> list[str]:
    """What τ² is asked to do for a task set: an environment built when it is set up, a
    warm-up episode of its first task, then every task once: its environment, initial
    state, gold calls on their side, grade (which builds two environments)."""
    lines = ["environment"]
    for task in [tasks[0], *tasks]:
        gold = [as_action(item) for item in task.evaluation_criteria.actions or []]
        initial = task.initial_state
        setup = len(initial.initialization_actions or []) if initial else 0
        lines += ["environment", f"set_state {setup} 0"]
        lines += [f"{action.requestor} {action.name}" for action in gold]
        lines += ["environment", "environment", f"reward {task.id}"]
    return lines


def test_tau2_own_environment_runs_every_telecom_task_and_is_compared(checkout) -> None:
    finished = run_tau2_bench(checkout)
    assert finished.returncode == 0, finished.stderr
    results = [json.loads(line) for line in finished.stdout.splitlines()]
    assert [result["domain"] for result in results] == ["tau2-telecom", "tau2:telecom"]
    built_in = [task for task in tau2_domain.load_tasks() if task.evaluation_criteria]
    assert [result["tasks"] for result in results] == [len(built_in), IMPORTED_TASKS]
    for result in results:
        assert result["tau2_episodes_timed"] == result["tasks"]
        assert result["tau2_episodes_not_rewarded"] == 0
        assert result["tau2_median_ms"] > 0 and result["baseline_median_ms"] > 0
        assert_ratio_of(result, "speedup_vs_tau2", "tau2_median_ms", "median_ms")
    calls = (checkout / "src" / "tau2" / "calls.log").read_text().splitlines()
    assert calls == expected_calls(built_in) + expected_calls(built_in[:IMPORTED_TASKS])


def test_tau2_code_that_does_not_import_is_refused_in_one_line(checkout) -> None:
    broken = checkout / "src" / "tau2" / "evaluator" / "evaluator_env.py"
    broken.write_text("import tau2.no_such_module\n")
    finished = run_tau2_bench(checkout)
    assert finished.returncode != 0
    (message,) = finished.stderr.strip().splitlines()
    assert message.startswith(
        "env_cost.py: error: cannot import tau2.evaluator.evaluator_env from the τ²-bench "
        f"checkout {checkout}: ModuleNotFoundError("
    )


def test_only_a_source_checkout_for_telecom_brings_tau2_code(checkout) -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        from tau2_env_cost import tau2_source
    finally:
        sys.path.remove(str(SCRIPT.parent))
    telecom, other = SimpleNamespace(name="tau2-telecom"), SimpleNamespace(name="tau2-retail")
    assert tau2_source(other, checkout) is None
    assert tau2_source(telecom, None) is None
    shutil.rmtree(checkout / "src")  # what is left is a data-only folder
    assert tau2_source(telecom, checkout) is None

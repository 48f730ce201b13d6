"""bench/env_cost.py --upstream: upstream's own environment timed beside tautrait's.

A real tau-trait checkout is not part of the test environment, so the tests write a small
stand-in checkout with the layout the script imports (``tau_trait/envs/base.py``,
``tau_trait/types.py``, ``tau_trait/envs/<domain>/{env.py,data,tools}``) whose environment
logs every reward it computes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "env_cost.py"
TASKS = 3

FAKE_FILES = {
    "tau_trait/__init__.py": "",
    "tau_trait/types.py": """
from typing import Any
from pydantic import BaseModel

RESPOND_ACTION_NAME = "respond"


class Action(BaseModel):
    name: str
    kwargs: dict[str, Any]


class Task(BaseModel):
    user_id: str
    actions: list[Action]
    instruction: str
    outputs: list[str]
""",
    "tau_trait/envs/__init__.py": "",
    "tau_trait/envs/base.py": """
from pathlib import Path

LOG = Path(__file__).with_name("rewards.log")


class Env:
    def reset(self, task_index=None):
        self.task_index, self.task = task_index, self.tasks[task_index]
        self.data, self.actions = self.data_load_func(), []
        return self.user.reset(instruction=self.task.instruction)

    def step(self, action):
        self.actions.append(action)
        tool = self.tools_map.get(action.name)
        return "unknown" if tool is None else tool.invoke(data=self.data, **action.kwargs)

    def calculate_reward(self):
        with LOG.open("a") as log:
            log.write(f"{self.task_index} {len(self.actions)}\\n")
""",
    "tau_trait/envs/telecom/__init__.py": "",
    "tau_trait/envs/telecom/env.py": """
from tau_trait.envs.base import Env


class FakeTelecomEnv(Env):
    pass
""",
    "tau_trait/envs/telecom/data/__init__.py": """
def load_data():
    return {"customers": {}}
""",
    "tau_trait/envs/telecom/tools/__init__.py": """
class GetCustomerDetails:
    @staticmethod
    def invoke(data, customer_id):
        return str(data["customers"].get(customer_id))

    @staticmethod
    def get_info():
        return {"function": {"name": "get_customer_details"}}


ALL_TOOLS = [GetCustomerDetails]
""",
}


@pytest.fixture
def peers(tmp_path: Path) -> Path:
    """A reference folder with the telecom plugin's own data and its first tasks."""
    telecom = pytest.importorskip("tautrait_telecom.domain")
    folder = tmp_path / "peers"
    shutil.copytree(telecom.DATA_DIR, folder / "data" / "telecom")
    tasks = json.loads((Path(telecom.__file__).parent / "tasks" / "test.json").read_text())
    (folder / "tasks").mkdir()
    (folder / "tasks" / "telecom_test.json").write_text(json.dumps(tasks[:TASKS]))
    return folder


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    folder = tmp_path / "tau-trait"
    for name, text in FAKE_FILES.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def assert_ratio_of(
    result: dict, ratio: str, numerator: str, denominator: str, decimals: int = 3
) -> None:
    """``result[ratio]`` is ``result[numerator] / result[denominator]`` to one decimal, as
    far as the printed medians tell: the bench divides the unrounded medians, and prints
    them to ``decimals`` (the denominator to 3)."""
    over, under = result[numerator], result[denominator]
    expected = over / under
    rounding = 0.5 * 10**-decimals / over + 0.5 * 10**-3 / under
    assert abs(result[ratio] - expected) <= 0.05 + expected * rounding, (ratio, result)


def run_bench(peers: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(SCRIPT), "--peers", str(peers), "--domains", "telecom"]
    command += ["--repeat", "1", "--inflight", "2", "--baseline-samples", "1", *extra]
    environment = {**os.environ, "TAUTRAIT_LOAD_PLUGINS": "telecom"}
    return subprocess.run(command, capture_output=True, text=True, env=environment, timeout=300)


def test_upstream_is_timed_on_the_same_tasks_and_compared(peers, checkout) -> None:
    finished = run_bench(peers, "--upstream", str(checkout), "--repeat", "2", "--json")
    assert finished.returncode == 0, finished.stderr
    result = json.loads(finished.stdout.strip().splitlines()[-1])
    assert result["tasks"] == TASKS
    assert result["upstream_episodes_timed"] == result["episodes_timed"] == 2 * TASKS
    assert result["upstream_median_ms"] > 0
    assert_ratio_of(result, "speedup_vs_upstream", "upstream_median_ms", "median_ms")
    logged = (checkout / "tau_trait" / "envs" / "rewards.log").read_text().split("\n")
    # a warm-up episode, then every task once per pass, each after its reset and gold calls
    passes = [*map(str, range(TASKS))] * 2
    assert [line.split()[0] for line in logged if line] == ["0", *passes]


def test_without_upstream_only_tautrait_is_measured(peers) -> None:
    finished = run_bench(peers)
    assert finished.returncode == 0, finished.stderr
    (line,) = [line for line in finished.stdout.splitlines() if line.startswith("telecom")]
    assert "ms/episode" in line and "baseline" in line and "upstream" not in line


def test_a_folder_that_is_not_a_checkout_is_refused_in_one_line(peers, tmp_path) -> None:
    finished = run_bench(peers, "--upstream", str(tmp_path))
    assert finished.returncode != 0
    assert finished.stderr.strip().splitlines() == [
        f"env_cost.py: error: {tmp_path} is not a tau-trait checkout (no tau_trait/envs/base.py)"
    ]


def test_a_missing_domain_is_refused_in_one_line(peers, checkout) -> None:
    shutil.rmtree(checkout / "tau_trait" / "envs" / "telecom")
    finished = run_bench(peers, "--upstream", str(checkout))
    assert finished.returncode != 0
    (message,) = finished.stderr.strip().splitlines()
    assert message.startswith("env_cost.py: error: domain telecom is missing from the tau-trait")
    assert message.endswith("(no tau_trait/envs/telecom/env.py)")


def run_tau2_bench(*extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(SCRIPT), "--domains", "tau2-telecom", "--repeat", "1"]
    command += ["--baseline-samples", "1", "--json", *extra]
    environment = {**os.environ, "TAUTRAIT_LOAD_PLUGINS": "telecom"}
    return subprocess.run(command, capture_output=True, text=True, env=environment, timeout=300)


def test_tau2_telecom_built_in_tasks_are_graded_against_tau2_data_handling() -> None:
    tau2 = pytest.importorskip("tautrait_telecom.tau2.domain")
    finished = run_tau2_bench()
    assert finished.returncode == 0, finished.stderr
    (result,) = [json.loads(line) for line in finished.stdout.splitlines()]
    graded = [task for task in tau2.load_tasks() if task.evaluation_criteria is not None]
    assert result["domain"] == "tau2-telecom"
    assert result["tasks"] == result["episodes_timed"] == len(graded) > 0
    assert result["median_ms"] > 0 and result["baseline_median_ms"] > 0
    assert result["baseline_files"] == str(tau2.DATA_DIR)
    assert_ratio_of(result, "speedup_vs_baseline", "baseline_median_ms", "median_ms", 1)


def test_tau2_checkout_adds_its_task_sets_with_its_files_as_baseline(
    tau2_reference: Path, tmp_path: Path
) -> None:
    from tautrait_core.testing import build_tau2_checkout

    pytest.importorskip("tautrait_telecom.tau2.domain")
    checkout = build_tau2_checkout(tau2_reference, tmp_path / "tau2-bench", ["telecom"])
    folder = checkout / "data" / "tau2" / "domains" / "telecom"
    for path in folder.glob("tasks*.json"):
        path.write_text(json.dumps(json.loads(path.read_text())[:2]))
    finished = run_tau2_bench("--tau2", str(checkout))
    assert finished.returncode == 0, finished.stderr
    results = {line["domain"]: line for line in map(json.loads, finished.stdout.splitlines())}
    assert set(results) == {"tau2-telecom", "tau2:telecom", "tau2:telecom-small"}
    for name in ("tau2:telecom", "tau2:telecom-small"):
        assert results[name]["tasks"] == 2
        assert results[name]["baseline_files"] == str(folder)

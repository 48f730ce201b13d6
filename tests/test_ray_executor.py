"""``--executor ray``: episodes run on Ray actors of a local Ray instance, several at once in
each worker process; results are stored once each by the driver, with the same rewards as
the local executor."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tautrait_core.config.run_config import RunConfig
from tautrait_core.errors import ConfigError
from tautrait_core.run.executors import EpisodeWorker, RayExecutor
from tautrait_core.run.prepared import prepare
from tautrait_core.run.runner import RunReport, execute
from tautrait_core.scripted.scripts import GoldScript
from tautrait_core.types.result import EpisodeResult
from tests.distributions import REPO, toy_site
from tests.plugins.toy_library import TASKS

TRIALS = 2


@pytest.fixture(scope="module")
def ray_instance(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """One local Ray instance for the module; its workers load the toy domain as an
    installed plugin (entry point in a site folder on their PYTHONPATH)."""
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install '.[ray]')")
    site = toy_site(tmp_path_factory.mktemp("ray-site"))
    env_vars = {
        "PYTHONPATH": f"{site}:{REPO}",
        # core tests see only built-ins; the workers must also load the toy domain
        "TAUTRAIT_LOAD_PLUGINS": "toylib",
        "TAUTRAIT_HOME": str(tmp_path_factory.mktemp("ray-home")),
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": env_vars},
    )
    try:
        yield ray
    finally:
        ray.shutdown()


def rewards(report: RunReport) -> dict[tuple[int, int], float]:
    pairs = [(result.task_id, result.trial) for result in report.results]
    assert len(pairs) == len(set(pairs)), "an episode was stored twice"
    assert set(pairs) == {(task, trial) for task in range(len(TASKS)) for trial in range(TRIALS)}
    return {(result.task_id, result.trial): result.reward for result in report.results}


def run_both(config: RunConfig, database: Path) -> tuple[RunReport, RunReport]:
    local = execute(config.with_settings(results_db=str(database)))
    remote = execute(config.with_settings(results_db=str(database), executor="ray"))
    return local, remote


def test_oracle_run_through_ray_matches_local(ray_instance, toy_plugin, tmp_path: Path) -> None:
    config = RunConfig(domain="toylib", agent="oracle", num_trials=TRIALS, concurrency=4)
    local, remote = run_both(config, tmp_path / "results.db")
    assert remote.run.status == "finished"
    assert remote.run.run_config().executor.kind == "ray"
    assert rewards(remote) == rewards(local)
    assert all(reward == 1.0 for reward in rewards(remote).values())


def test_tool_calling_run_through_ray_matches_local(
    ray_instance, toy_plugin, tmp_path: Path
) -> None:
    from tautrait_core.scripted.server import ScriptedModelServer

    with ScriptedModelServer(GoldScript(TASKS, ["transfer_to_librarian"])) as server:
        config = RunConfig(
            domain="toylib",
            agent="tool-calling",
            agent_model="openai/scripted",
            agent_api_base=server.base_url,
            user="llm",
            user_model="openai/scripted",
            user_api_base=server.base_url,
            num_trials=TRIALS,
            concurrency=3,
        )
        local, remote = run_both(config, tmp_path / "results.db")
    assert rewards(remote) == rewards(local)
    assert {result.outcome.value for result in remote.results} == {"pass"}
    assert all(result.agent_usage.calls > 0 for result in remote.results)


def test_each_ray_worker_runs_several_episodes_at_once(
    ray_instance, toy_plugin, tmp_path: Path
) -> None:
    """Two CPUs, eight episodes in flight: the model calls of more than two episodes overlap,
    which they could not if each worker process ran one episode at a time."""
    from tautrait_core.scripted.server import ScriptedModelServer

    script = GoldScript(TASKS, ["transfer_to_librarian"])
    with ScriptedModelServer(script, latency_s=0.3) as server:
        config = RunConfig(
            domain="toylib",
            agent="tool-calling",
            agent_model="openai/scripted",
            agent_api_base=server.base_url,
            user="llm",
            user_model="openai/scripted",
            user_api_base=server.base_url,
            num_trials=TRIALS,
            concurrency=8,
            executor="ray",
            results_db=str(tmp_path / "results.db"),
        )
        report = execute(config)
    assert {result.outcome.value for result in report.results} == {"pass"}
    assert server.max_concurrent > 2


def test_a_dead_worker_is_replaced_and_its_episode_runs_again_on_resume(
    ray_instance, toy_plugin
) -> None:
    config = RunConfig(domain="toylib", agent="oracle", concurrency=1)
    executor = RayExecutor(config)
    try:
        ray_instance.kill(executor._actors[0])
        lost = asyncio.run(executor.run_episode(0, 0))
        assert lost.error is not None and "re-run on resume" in lost.error
        assert lost.outcome.value == "error"
        again = asyncio.run(executor.run_episode(0, 0))
        assert again.error is None and again.reward == 1.0
    finally:
        executor.close()


def test_a_worker_that_cannot_prepare_the_run_says_why_for_each_episode() -> None:
    worker = EpisodeWorker(RunConfig(domain="no-such-domain", agent="oracle").model_dump_json())
    result = EpisodeResult.model_validate_json(asyncio.run(worker.run(3, 1)))
    assert (result.task_id, result.trial, result.outcome.value) == (3, 1, "error")
    assert "could not prepare the run" in (result.error or "")
    assert "no-such-domain" in (result.error or "")


def test_resume_can_switch_to_ray(ray_instance, toy_plugin, tmp_path: Path) -> None:
    database = tmp_path / "results.db"
    first = execute(
        RunConfig(domain="toylib", agent="oracle", num_trials=TRIALS, results_db=str(database))
    )
    with sqlite3.connect(database) as connection:  # as if killed before trial 1 was stored
        connection.execute("DELETE FROM episodes WHERE trial = 1")
    resumed = execute(RunConfig(resume=first.run.id, results_db=str(database), executor="ray"))
    assert resumed.skipped == len(TASKS) and resumed.run.status == "finished"
    assert rewards(resumed) == rewards(first)


def test_sweep_runs_every_point_through_ray(ray_instance, toy_plugin, tmp_path: Path) -> None:
    from tautrait_core.run.sweep_file import build_sweep
    from tautrait_core.run.sweeps import run_sweep
    from tautrait_core.store.results import ResultStore

    base = {"domain": "toylib", "agent": "oracle", "num_trials": TRIALS, "concurrency": 4}
    sweep = build_sweep("ray-grid", base, {"seed": [1, 2]}, "test")
    report = run_sweep(sweep, ResultStore(tmp_path / "results.db"), executor={"executor": "ray"})
    assert not report.interrupted
    for outcome in report.points:
        assert outcome.run is not None and outcome.run.run_config().executor.kind == "ray"
        assert outcome.metrics is not None and outcome.metrics.average_reward == 1.0
        assert outcome.metrics.episodes == len(TASKS) * TRIALS


def test_missing_ray_is_a_config_error_naming_the_extra(toy_plugin, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(ConfigError, match=r"pip install 'tautrait-core\[ray\]'"):
        prepare(RunConfig(domain="toylib", agent="oracle", executor="ray"))


def test_cli_start_does_not_import_ray() -> None:
    code = "import sys, tautrait_core.cli; assert 'ray' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)

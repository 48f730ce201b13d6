"""What a domain plugin's own tests check about the installed package, in one place.

Each function does the work and returns what a test asserts on: the registered domain,
the heavy modules an import pulled in, the files a built wheel holds, the oracle's average
reward, an upstream-style checkout rebuilt from task lists. Functions that look plugins up
reset the plugin manager before and after, so they see the installed entry points.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tautrait_core.config.run_config import RunConfig
from tautrait_core.domain.domain import Domain
from tautrait_core.plugins import Provenance, get_plugin_manager, reset_plugin_manager

HEAVY_MODULES = ("sqlmodel", "sqlalchemy", "pydantic")
"""Modules a plugin's hook module must not import at module level (CLI start-up time)."""


def registered_domain(name: str) -> tuple[Domain, Provenance]:
    """The installed domain ``name`` and where it came from (plugin, distribution, version)."""
    reset_plugin_manager()
    try:
        manager = get_plugin_manager()
        return manager.get("domain", name), manager.source("domain", name)
    finally:
        reset_plugin_manager()


def heavy_modules_imported_by(module: str) -> list[str]:
    """Which of :data:`HEAVY_MODULES` a fresh interpreter has loaded after ``import module``."""
    probe = (
        f"import json, sys, {module}; "
        f"print(json.dumps(sorted(m for m in {HEAVY_MODULES!r} if m in sys.modules)))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout)


def wheel_contents(plugin_root: Path, out_dir: Path) -> set[str]:
    """Build the plugin's wheel with hatchling into ``out_dir``; the paths it holds."""
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(out_dir)],
        cwd=plugin_root,
        capture_output=True,
        check=True,
    )
    (wheel,) = out_dir.glob("*.whl")
    return set(zipfile.ZipFile(wheel).namelist())


def package_files(plugin_root: Path, package: str, patterns: Iterable[str]) -> set[str]:
    """Files of ``package`` matching ``patterns``, as paths relative to ``plugin_root``."""
    folder = plugin_root / package
    return {
        path.relative_to(plugin_root).as_posix()
        for pattern in patterns
        for path in folder.glob(pattern)
    }


def oracle_average_reward(domain: str, task_set: str | None = None) -> float:
    """Average reward of one oracle trial over every task of ``task_set`` (no model)."""
    from tautrait_core.run.runner import execute

    reset_plugin_manager()
    try:
        options: dict[str, Any] = {"domain": domain, "agent": "oracle", "num_trials": 1}
        if task_set is not None:
            options["task_set"] = task_set
        return execute(RunConfig.model_validate(options)).metrics.average_reward
    finally:
        reset_plugin_manager()


def upstream_task_file(tasks: list[dict[str, Any]], variable: str = "TASKS") -> str:
    """An upstream-style ``tasks_<split>.py`` defining ``variable`` as a list of ``tasks``."""
    entries = []
    for task in tasks:
        actions = ", ".join(
            f"Action(name={action['name']!r}, kwargs={action['kwargs']!r})"
            for action in task["actions"]
        )
        entries.append(
            f"    Task(annotator='0', user_id={task['user_id']!r}, "
            f"instruction={task['instruction']!r}, actions=[{actions}], "
            f"outputs={task['outputs']!r}),"
        )
    header = f"from tau_trait.types import Action, Task\n\n{variable} = [\n"
    return header + "\n".join(entries) + "\n]\n"


def write_upstream_checkout(
    peers: Path, domain: str, checkout: Path, task_lists: Mapping[str, str]
) -> Path:
    """Rebuild a tau-trait checkout of ``domain`` under ``checkout`` from reference material.

    ``peers`` holds ``data/<domain>/`` and ``tasks/<domain>_<split>.json``; ``task_lists``
    maps each split to write to the list name its upstream file defines. Returns
    ``checkout``, ready for ``tautrait import tau-trait``.
    """
    envs = checkout / "tau_trait" / "envs" / domain
    shutil.copytree(peers / "data" / domain, envs / "data")
    for split, variable in task_lists.items():
        tasks = json.loads((peers / "tasks" / f"{domain}_{split}.json").read_text())
        (envs / f"tasks_{split}.py").write_text(upstream_task_file(tasks, variable))
    return checkout

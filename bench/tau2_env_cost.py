"""The τ² part of ``env_cost.py``: environment cost per episode of the ``tau2-*`` domains.

An episode of a τ²-style task, with the gold calls as the whole trajectory: a fresh copy,
the task's initial state (``apply_initial_state``), every gold call on the side that makes
it (``execute_tool_call``, the state sync after each), then the grade
(``grade_criteria``, which builds the predicted and the gold environments itself).
The headline figure pays every set-up as a task's first episode in a process does (the
kept set-up images and gold states are forgotten before each episode; within the episode
the grader reuses the run's set-up); "set-ups cached" is what a run's later trials of the
same task pay.

Baseline, measured in the same run: τ²'s own data handling per graded episode, a lower
bound of τ²'s cost. τ² builds its environment three times for such an episode (the run,
then its evaluator's predicted and gold environments, domain-spec §3.1), each time reading
the domain's database files (telecom: ``db.toml`` and ``user_db.toml`` with tomllib; the
others: ``db.json``) and hashing each database with
``sha256(json.dumps(data, sort_keys=True, default=str))``. The files are the ones the task
set's database was built from: the plugin's own for a built-in task set, the τ²-bench
checkout's (``--tau2 PATH``, or the copy ``tautrait import tau2`` keeps) for ``tau2:*``.

τ²'s own environment, measured in the same run when ``--tau2 PATH`` is a τ²-bench source
checkout (it has ``src/tau2/domains/telecom/environment.py``): for the telecom task sets,
τ²'s own code runs the same graded episode of every task on the same database files
(``tau2_upstream.py``), and the ratio is its median over tautrait's. A checkout whose code
does not import stops the run with a one-line error naming the module.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import sys
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tau2_upstream import Tau2Source, Tau2UpstreamError, is_tau2_source

from tautrait_core.compat.tau2.actions import as_action
from tautrait_core.domain.domain import Domain, TaskSet
from tautrait_core.domain.initial_state import apply_initial_state
from tautrait_core.domain.set_up_images import forget_images
from tautrait_core.domain.state import StateTemplate
from tautrait_core.domain.task_sets import (
    TAU2_SOURCE,
    all_task_sets,
    tau2_data_dir,
    tau2_domain_of,
    template_for,
)
from tautrait_core.domain.tool_execution import execute_tool_call
from tautrait_core.grading import criteria_reward
from tautrait_core.grading.criteria_reward import grade_criteria
from tautrait_core.interchange.tau2_import import DATA_FILES, find_domains_dir
from tautrait_core.paths import HOME_ENV
from tautrait_core.plugins import get_plugin_manager
from tautrait_core.tau2 import tau2_db_hash
from tautrait_core.types.messages import Message, ToolCall
from tautrait_core.types.task import Task

TODAY = dt.date(2025, 1, 15)
"""The episodes' date (fixed, so that every run grades the same way)."""
TAU2_ENVIRONMENTS_PER_EPISODE = 3
"""The run's environment, then the evaluator's predicted and gold ones (domain-spec §3.1)."""
BASELINE_MS = 1000.0
"""CPU time spent at least on a baseline (as for the tau-trait domains)."""
TELECOM_FILES = ("db.toml", "user_db.toml")


def gold_calls(task: Task) -> list[tuple[ToolCall, str]]:
    """The task's gold actions as tool calls, each with the side that makes it."""
    criteria = task.evaluation_criteria
    calls = []
    for index, item in enumerate(criteria.actions or [] if criteria else []):
        action = as_action(item)
        side = "user" if action.requestor == "user" else "assistant"
        arguments = json.dumps(dict(action.kwargs))
        calls.append((ToolCall(id=f"call_{index}", name=action.name, arguments=arguments), side))
    return calls


def forget_set_ups() -> None:
    """Forget every kept set-up image and gold state, so the next episode pays for its
    set-up as a task's first episode in a process does."""
    forget_images()
    criteria_reward._gold_hashes.clear()


def run_tau2_episode(
    domain: Domain, template: StateTemplate, task: Task, calls: list[tuple[ToolCall, str]]
) -> None:
    """One graded episode whose trajectory is the task's gold calls."""
    with template.new_episode(TODAY) as db:
        messages = apply_initial_state(domain, db, task)
        for call, side in calls:
            requestor = "user" if side == "user" else None
            role = "user" if side == "user" else "assistant"
            messages.append(Message(role=role, tool_calls=[call], requestor=requestor))
            observation = execute_tool_call(domain, db, call, side)  # type: ignore[arg-type]
            messages.append(
                Message(
                    role="tool",
                    content=observation,
                    tool_call_id=call.id,
                    name=call.name,
                    requestor=requestor,
                )
            )
    grade_criteria(domain, task, template, messages, "user_stop", TODAY)


def read_tau2_files(folder: Path, tau2_domain: str) -> list[Any]:
    """τ²'s databases of a domain as its environment reads them."""
    if tau2_domain == "telecom":
        loaded = []
        for name in TELECOM_FILES:
            with (folder / name).open("rb") as file:
                loaded.append(tomllib.load(file))
        return loaded
    return [json.loads((folder / DATA_FILES[tau2_domain]).read_text(encoding="utf-8"))]


def baseline_episode(folder: Path, tau2_domain: str) -> None:
    """τ²'s data handling of one graded episode: three environments built from the files."""
    for _ in range(TAU2_ENVIRONMENTS_PER_EPISODE):
        for data in read_tau2_files(folder, tau2_domain):
            tau2_db_hash(data)


def baseline_folder(domain: Domain, task_set: TaskSet, checkout: Path | None) -> Path | None:
    """The folder of the database files ``task_set`` runs on, as τ² would read them, or
    ``None`` when there is none to read."""
    tau2_domain = tau2_domain_of(domain.name)
    if tau2_domain is None:
        return None
    if task_set.name.startswith(f"{TAU2_SOURCE}:"):
        folder = find_domains_dir(checkout) / tau2_domain if checkout else None
        folder = folder or tau2_data_dir(tau2_domain)
    else:
        folder = own_data_folder(domain)
    wanted = TELECOM_FILES if tau2_domain == "telecom" else (DATA_FILES[tau2_domain],)
    if folder is None or not all((folder / name).is_file() for name in wanted):
        return None
    return folder


def own_data_folder(domain: Domain) -> Path | None:
    """The plugin's own τ²-format data folder of a domain (telecom's ``tau2/data``)."""
    if tau2_domain_of(domain.name) != "telecom":
        return None
    from tautrait_telecom.tau2.domain import DATA_DIR

    return DATA_DIR


def graded_task_sets(domain: Domain) -> list[TaskSet]:
    """The domain's τ²-style task sets (built-in first, then imported ones)."""
    return [task_set for task_set in all_task_sets(domain).values() if task_set.protocol == "tau2"]


def bench_tau2_task_set(
    domain: Domain,
    task_set: TaskSet,
    template: StateTemplate,
    repeat: int,
    baseline_samples: int,
    measure: Callable[[int, Any], list[float]],
    measure_for: Callable[..., list[float]],
    checkout: Path | None,
    tau2: Tau2Source | None = None,
) -> dict[str, Any]:
    """Median CPU ms per graded episode of ``task_set``, the baseline beside it, and
    τ²'s own environment on the same tasks when ``tau2`` is given (telecom only)."""
    label = task_set.name if ":" in task_set.name else domain.name
    tasks = [task for task in task_set.tasks if task.evaluation_criteria is not None]
    calls = {id(task): gold_calls(task) for task in tasks}
    for task in tasks[:5]:  # warm up
        run_tau2_episode(domain, template, task, calls[id(task)])
    cold: list[float] = []
    cached: list[float] = []
    for _ in range(repeat):
        for task in tasks:
            episode = lambda task=task: run_tau2_episode(domain, template, task, calls[id(task)])  # noqa: E731
            cold.extend(measure(1, lambda episode=episode: (forget_set_ups(), episode())))
            cached.extend(measure(1, episode))
    ours, ours_cached = statistics.median(cold), statistics.median(cached)
    result: dict[str, Any] = {
        "domain": label,
        "tasks": len(tasks),
        "episodes_timed": len(cold),
        "image_kib": template.size_bytes() // 1024,
        "median_ms": round(ours, 3),
        "p90_ms": round(statistics.quantiles(cold, n=10)[-1], 3),
        "cached_median_ms": round(ours_cached, 3),
    }
    folder = baseline_folder(domain, task_set, checkout)
    tau2_domain = tau2_domain_of(domain.name) or ""
    if folder is None:
        result["baseline_note"] = "no τ² database files to read (give --tau2 PATH)"
        return result
    baseline = measure_for(
        baseline_samples, BASELINE_MS, lambda: baseline_episode(folder, tau2_domain)
    )
    baseline_median = statistics.median(baseline)
    result["baseline_median_ms"] = round(baseline_median, 3)
    result["baseline_files"] = str(folder)
    result["speedup_vs_baseline"] = round(baseline_median / ours, 1)
    result["cached_speedup_vs_baseline"] = round(baseline_median / ours_cached, 1)
    if tau2 is not None and tau2_domain == "telecom":
        timings, not_rewarded = tau2.episodes(folder, tasks).timed(measure, repeat)
        tau2_median = statistics.median(timings)
        result["tau2_episodes_timed"] = len(timings)
        result["tau2_median_ms"] = round(tau2_median, 3)
        result["tau2_episodes_not_rewarded"] = not_rewarded
        result["speedup_vs_tau2"] = round(tau2_median / ours, 1)
        result["cached_speedup_vs_tau2"] = round(tau2_median / ours_cached, 1)
    return result


def tau2_source(domain: Domain, checkout: Path | None) -> Tau2Source | None:
    """τ²'s own code from ``checkout`` for a telecom domain when ``checkout`` is a
    τ²-bench source checkout, else ``None`` (a data-only folder, or another domain).

    Raises:
        Tau2UpstreamError: the checkout's code cannot be imported.
    """
    if checkout is None or tau2_domain_of(domain.name) != "telecom":
        return None
    return Tau2Source(checkout) if is_tau2_source(checkout) else None


def import_tau2_for_this_run(checkout: Path) -> None:
    """Import the τ²-bench checkout into a temporary data folder for this process."""
    from tautrait_core.interchange.tau2_import import import_tau2

    os.environ[HOME_ENV] = tempfile.mkdtemp(prefix="env-cost-tau2-")
    import_tau2(checkout)


def bench_tau2_domain(
    name: str,
    args: argparse.Namespace,
    measure: Callable[[int, Any], list[float]],
    measure_for: Callable[..., list[float]],
) -> None:
    """Time every τ²-style task set of domain ``name`` and print each one's figures."""
    domain = get_plugin_manager().get("domain", name)
    task_sets = graded_task_sets(domain)
    if not task_sets:
        print(f"{name}: skipped (no τ² task sets: give --tau2 PATH or run tautrait import tau2)")
    try:
        tau2 = tau2_source(domain, args.tau2) if task_sets else None
        for task_set in task_sets:
            template = template_for(domain, task_set)
            result = bench_tau2_task_set(
                domain,
                task_set,
                template,
                args.repeat,
                args.baseline_samples,
                measure,
                measure_for,
                args.tau2,
                tau2,
            )
            report_tau2(result, args.json)
    except Tau2UpstreamError as exc:
        sys.exit(f"env_cost.py: error: {exc}")


def report_tau2(result: dict[str, Any], as_json: bool) -> None:
    """Print one τ² task set's figures: a JSON line, or a line for people."""
    if as_json:
        print(json.dumps(result), flush=True)
        return
    if "baseline_median_ms" in result:
        baseline = (
            f"baseline (τ² data handling, 3 environments) {result['baseline_median_ms']:.3f} ms "
            f"-> {result['speedup_vs_baseline']}x ({result['cached_speedup_vs_baseline']}x cached)"
        )
    else:
        baseline = f"baseline skipped: {result['baseline_note']}"
    if "tau2_median_ms" in result:
        not_rewarded = result["tau2_episodes_not_rewarded"]
        baseline += (
            f" | τ²'s own environment {result['tau2_median_ms']:.3f} ms "
            f"({result['tau2_episodes_timed']} episodes) -> {result['speedup_vs_tau2']}x "
            f"({result['cached_speedup_vs_tau2']}x cached)"
            + (f" ({not_rewarded} not rewarded 1.0 by τ²)" if not_rewarded else "")
        )
    print(
        f"{result['domain']:<11} median {result['median_ms']:.3f} ms/episode "
        f"(p90 {result['p90_ms']:.3f}, {result['episodes_timed']} episodes of "
        f"{result['tasks']} tasks, graded; set-ups cached {result['cached_median_ms']:.3f}) "
        f"| {baseline} | image {result['image_kib']} KiB",
        flush=True,
    )

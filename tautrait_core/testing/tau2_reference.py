"""τ²-bench reference material for tests: a checkout-shaped copy of its data, its golden
records, and the replay of a golden record's gold calls on a tautrait domain.

The reference folder (``tau2-bench/`` of the ``reference_material`` fixture) holds τ²'s
domain files under ``data/<domain>/`` and no airline ``db.json``; :func:`build_tau2_checkout`
lays them out as a checkout (``data/tau2/domains/<domain>/``) and rebuilds the airline
database with the reference's own recipe (``tools/make_airline_db.py``, run as a process).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from tautrait_core.domain.domain import Domain
from tautrait_core.domain.initial_state import apply_initial_state
from tautrait_core.domain.state import EpisodeDB
from tautrait_core.domain.tool_execution import sync_state
from tautrait_core.domain.tools import raised
from tautrait_core.grading.sides import run_side_tool, side_functions
from tautrait_core.types.task import Task


def build_tau2_checkout(tau2_reference: Path, destination: Path, domains: list[str]) -> Path:
    """A τ²-bench checkout at ``destination`` holding ``domains`` (airline's DB rebuilt)."""
    destination = destination.resolve()
    for name in domains:
        target = destination / "data" / "tau2" / "domains" / name
        shutil.copytree(tau2_reference / "data" / name, target)
        if name == "airline" and not (target / "db.json").exists():
            subprocess.run(
                [sys.executable, "tools/make_airline_db.py", str(target / "db.json")],
                cwd=tau2_reference,
                check=True,
                capture_output=True,
            )
    return destination


def golden_records(tau2_reference: Path, task_set: str, variant: str = "gold") -> list[dict]:
    """The golden records of ``golden/<task_set>.jsonl`` of one variant."""
    path = tau2_reference / "golden" / f"{task_set}.jsonl"
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [record for record in records if record["variant"] == variant]


def run_side_call(
    domain: Domain, db: EpisodeDB, requestor: str, name: str, arguments: dict[str, Any]
) -> str:
    """Run a tool call of either side as an episode does (the state sync after a call that
    succeeded); the observation."""
    observation = run_side_tool(domain, db, requestor, name, arguments)
    if not raised(observation):
        sync_state(domain, db)
    return observation


def call_function(domain: Domain, db: EpisodeDB, side: str, name: str, arguments: dict) -> Any:
    """Call a side's function or tool by name, as an initialization action or an env
    assertion does; the raw return value."""
    return side_functions(domain, side)[name](db, **arguments)


def apply_initial_state_for_test(domain: Domain, db: EpisodeDB, task: Task) -> None:
    """Apply a τ² task's initial state as an episode does (the core's
    :func:`~tautrait_core.domain.initial_state.apply_initial_state`)."""
    apply_initial_state(domain, db, task)


def tau2_schema_differences(domain: Domain, tau2_reference: Path, tau2_domain: str) -> list[str]:
    """How the agent tools' schemas differ from τ²'s (``tool_schemas.json``) in names,
    parameter names, required parameters and enums; empty when they agree."""
    reference = json.loads((tau2_reference / "tool_schemas.json").read_text(encoding="utf-8"))
    theirs = {
        t["function"]["name"]: t["function"]["parameters"] for t in reference[tau2_domain]["agent"]
    }
    ours = {t["function"]["name"]: t["function"]["parameters"] for t in domain.tool_schemas}
    differences = [f"tool {name}: only in τ²" for name in sorted(set(theirs) - set(ours))]
    differences += [f"tool {name}: only here" for name in sorted(set(ours) - set(theirs))]
    for name in sorted(set(theirs) & set(ours)):
        mine, upstream = ours[name], theirs[name]
        if list(mine.get("properties", {})) != list(upstream.get("properties", {})):
            differences.append(f"tool {name}: parameters {list(mine['properties'])}")
        if sorted(mine.get("required", [])) != sorted(upstream.get("required", [])):
            differences.append(f"tool {name}: required {mine.get('required')}")
        for parameter, spec in upstream.get("properties", {}).items():
            if spec.get("enum") != mine.get("properties", {}).get(parameter, {}).get("enum"):
                differences.append(f"tool {name}: enum of {parameter}")
    return differences

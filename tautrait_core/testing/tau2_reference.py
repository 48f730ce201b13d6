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
from tautrait_core.domain.state import EpisodeDB
from tautrait_core.domain.task import Task


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
    """Run a tool call of either side as the episode would; the observation."""
    if requestor == "user":
        found = domain.user_tools_by_name.get(name)
        if found is None:
            return (
                "Error: User tools not available"
                if not domain.user_tools
                else (f"Error: Tool '{name}' not found.")
            )
        observation = found.invoke(db, arguments)
        db.flush()
    else:
        observation = domain.run_tool(db, name, arguments)
    if domain.sync_state is not None and not observation.startswith("Error: "):
        domain.sync_state(db)
    return observation


def call_function(domain: Domain, db: EpisodeDB, side: str, name: str, arguments: dict) -> Any:
    """Call a side's function or tool by name, as an initialization action or assertion."""
    functions = domain.user_functions if side == "user" else domain.agent_functions
    tools = domain.user_tools_by_name if side == "user" else domain.tools_by_name
    if name in functions:
        return functions[name](db, **arguments)
    return tools[name].function(db, **arguments)


def apply_initial_state_for_test(domain: Domain, db: EpisodeDB, task: Task) -> None:
    """A minimal application of a τ² task's initial state (data, actions, history calls,
    sync), for golden tests until the core's own is in place."""
    state = task.initial_state
    if state is not None:
        data = state.initialization_data
        if data is not None:
            for side, update in (("assistant", data.agent_data), ("user", data.user_data)):
                if update is not None and domain.merge_initial_data is not None:
                    domain.merge_initial_data(db, side, update)
        for action in state.initialization_actions or []:
            call_function(domain, db, action.env_type, action.func_name, action.arguments)
            db.flush()
            if domain.sync_state is not None:
                domain.sync_state(db)
        for message in state.message_history or []:
            side = "user" if message.get("role") == "user" else "assistant"
            for call in message.get("tool_calls") or []:
                run_side_call(domain, db, side, call["name"], call.get("arguments") or {})
    if domain.sync_state is not None:
        domain.sync_state(db)
    db.flush()

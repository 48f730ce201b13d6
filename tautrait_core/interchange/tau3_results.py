"""τ³'s results files (τ²-bench v1.0.1, its domain-spec A.6), written from a τ² one.

τ³ keeps the fork's layout and adds to it: ``simulation_index`` at the top, voice and
retrieval settings in ``info``, more fields on every simulation and message (each at its
text-run default), τ³'s task fields, and its termination reasons. Two formats: ``json``
(one object holding every simulation) and ``dir`` (``results.json`` without simulations
but with an index of them, and one ``simulations/<id>.json`` per simulation); reading
both into one object is :func:`read_results_data`'s job.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tautrait_core.errors import ConfigError, TaskSetError
from tautrait_core.files import read_json_file, write_text_file

_INFO_ADDITIONS = {
    "text_streaming_config": {"chunk_by": "words", "chunk_size": 1},
    "speech_complexity": None,
    "audio_native_config": None,
    "retrieval_config": None,
    "retrieval_config_kwargs": None,
}
_SIMULATION_FIELDS = (
    "id",
    "task_id",
    "timestamp",
    "start_time",
    "end_time",
    "duration",
    "termination_reason",
    "agent_cost",
    "user_cost",
    "agent_usage",
    "reward_info",
    "messages",
    "ticks",
    "trial",
    "seed",
    "mode",
    "speech_environment",
    "review",
    "user_only_review",
    "info",
    "auth_classification",
    "hallucination_retries_used",
    "hallucination_check",
    "provider_session_id",
    "policy",
    "effect_timeline",
)
_SIMULATION_DEFAULTS = {"mode": "half_duplex", "hallucination_retries_used": 0}
_MESSAGE_FIELDS = (
    "role",
    "content",
    "tool_calls",
    "is_audio",
    "turn_idx",
    "timestamp",
    "cost",
    "usage",
    "raw_data",
    "generation_time_seconds",
    "audio_format",
    "audio_path",
    "audio_script_gold",
    "speech_effects",
    "source_effects",
    "channel_effects",
    "turn_taking_action",
    "utterance_ids",
    "chunk_id",
    "is_final_chunk",
    "source",
    "contains_speech",
)
_MESSAGE_DEFAULTS = {"is_audio": False, "is_final_chunk": True, "contains_speech": True}
_TASK_FIELDS = (
    "id",
    "description",
    "user_scenario",
    "ticket",
    "initial_state",
    "evaluation_criteria",
    "issues",
    "required_documents",
    "user_tools",
)
TAU3_TERMINATIONS = {
    "user_stop": "user_stop",
    "user_transfer": "user_stop",
    "user_out_of_scope": "user_stop",
    "terminating_tool": "user_stop",
    "agent_stop": "agent_stop",
    "max_steps": "max_steps",
    "too_many_errors": "too_many_errors",
    "timeout": "timeout",
    "agent_error": "agent_error",
    "user_error": "user_error",
    "context_window": "context_window_exceeded",
    "provider_error": "infrastructure_error",
}
"""tautrait's terminations as τ³'s ``TerminationReason`` values."""


def tau3_results(
    tau2_file: dict[str, Any],
    terminations: list[str],
    policy: str | None,
    task_extras: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    """The τ³ (v1.0.1) json-format results file of a τ² one.

    Args:
        tau2_file: The file as :func:`~tautrait_core.interchange.tau2_results.tau2_results`
            writes it.
        terminations: tautrait's termination of each simulation (same order).
        policy: The agent's policy, recorded on every simulation as τ³ does.
        task_extras: τ³'s task fields (``issues``, ``required_documents``,
            ``user_tools``) by task id.
    """
    info = dict(tau2_file["info"])
    info.update({key: value for key, value in _INFO_ADDITIONS.items() if key not in info})
    for side in ("user_info", "agent_info"):
        info[side] = {**(info.get(side) or {}), "voice_settings": None}
    info["user_info"].setdefault("persona_config", None)
    simulations = []
    for simulation, termination in zip(tau2_file["simulations"], terminations, strict=True):
        record = {**simulation, "termination_reason": TAU3_TERMINATIONS.get(termination)}
        record["termination_reason"] = record["termination_reason"] or "agent_error"
        if record["termination_reason"] == "infrastructure_error":
            record["reward_info"] = None  # not evaluated
        record["messages"] = [_message(message) for message in simulation["messages"]]
        record["policy"] = policy
        simulations.append(
            {key: record.get(key, _SIMULATION_DEFAULTS.get(key)) for key in _SIMULATION_FIELDS}
        )
    tasks = [
        {key: {**task, **task_extras.get(task["id"], {})}.get(key) for key in _TASK_FIELDS}
        for task in tau2_file["tasks"]
    ]
    return {
        "timestamp": tau2_file["timestamp"],
        "info": info,
        "tasks": tasks,
        "simulations": simulations,
        "simulation_index": None,
    }


def _message(message: dict[str, Any]) -> dict[str, Any]:
    if message["role"] == "tool":
        return message
    return {key: message.get(key, _MESSAGE_DEFAULTS.get(key)) for key in _MESSAGE_FIELDS}


RESULTS_FILE = "results.json"
"""The file of τ³'s results folder that holds everything but the simulations."""


def read_results_data(path: Path) -> Any:
    """A τ² or τ³ results file as one JSON object: τ³'s folder format (the folder, or its
    ``results.json`` beside ``simulations/``) with its simulations read in index order.

    Raises:
        TaskSetError: a file is unreadable, or the index and the simulation files disagree.
    """
    path = Path(path)
    if path.is_dir():
        path = path / RESULTS_FILE
    data = read_json_file(path, TaskSetError, "the τ² results file")
    folder = path.parent / "simulations"
    if not isinstance(data, dict) or "simulations" in data or not folder.is_dir():
        return data
    index = data.get("simulation_index")
    if not isinstance(index, list):
        return data
    ids = [str(entry.get("id")) for entry in index if isinstance(entry, dict)]
    files = sorted(file.stem for file in folder.glob("*.json"))
    if sorted(ids) != files:
        raise TaskSetError(
            f"{folder}: the simulation files do not match the index of {path.name} "
            f"({len(files)} files, {len(ids)} indexed); export the run again"
        )
    simulations = [
        read_json_file(folder / f"{sim_id}.json", TaskSetError, "a simulation file")
        for sim_id in ids
    ]
    return {**data, "simulations": simulations}


def write_tau3_dir(results: dict[str, Any], folder: Path) -> None:
    """Write a τ³ json-format results file as τ³'s ``dir`` format in ``folder``:
    ``results.json`` with ``simulation_index`` and no ``simulations``, and one
    ``simulations/<id>.json`` per simulation.

    Raises:
        ConfigError: a file cannot be written.
    """
    simulations = results["simulations"]
    index = [
        {
            "id": simulation["id"],
            "task_id": simulation["task_id"],
            "trial": simulation["trial"],
            "reward": (simulation["reward_info"] or {}).get("reward"),
            "termination_reason": simulation["termination_reason"],
            "agent_cost": simulation["agent_cost"],
            "duration": simulation["duration"],
        }
        for simulation in simulations
    ]
    head = {key: value for key, value in results.items() if key != "simulations"}
    head["simulation_index"] = index
    (folder / "simulations").mkdir(parents=True, exist_ok=True)
    for simulation in simulations:
        path = folder / "simulations" / f"{simulation['id']}.json"
        write_text_file(path, json.dumps(simulation, indent=2), ConfigError, "the export")
    write_text_file(folder / "results.json", json.dumps(head, indent=2), ConfigError, "the export")

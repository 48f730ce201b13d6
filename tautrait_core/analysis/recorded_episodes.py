"""Where recorded episodes for rescoring come from: stored runs and upstream result files.

Besides the episode itself, a rescore wants what the record says about the old reward
(:class:`RecordedVerdict`), to explain a failure that now passes and to notice a changed
task, and the task itself when the record embeds it (upstream files do).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tautrait_core.errors import ConfigError
from tautrait_core.types.result import EpisodeResult
from tautrait_core.types.reward import RewardInfo
from tautrait_core.types.task import Task


@dataclass(frozen=True)
class RecordedVerdict:
    """What a record says about why its reward was what it was."""

    state_ok: bool | None = None
    """Whether the final database equalled the gold one (``None``: not recorded)."""
    state_diff: list[str] = field(default_factory=list)
    missing_outputs: list[str] = field(default_factory=list)
    gold_hash: str | None = None
    """The gold state hash, when it is comparable with this project's hash."""
    outputs: list[str] | None = None
    """The required outputs that were checked (``None``: not recorded)."""

    @classmethod
    def from_reward_info(cls, info: RewardInfo | None) -> RecordedVerdict | None:
        """The verdict of an episode stored by this project (``None`` without reward info)."""
        if info is None:
            return None
        return cls(
            state_ok=info.r_actions,
            state_diff=list(info.state_diff),
            missing_outputs=[output for output, found in info.outputs.items() if not found],
            gold_hash=info.gt_data_hash,
            outputs=list(info.outputs),
        )

    @classmethod
    def from_upstream(cls, reward_info: Any, reward: float) -> RecordedVerdict | None:
        """The verdict in an upstream record's ``info.reward_info``.

        Upstream keeps either ``{r_actions, gt_data_hash}`` or, for tasks with outputs,
        ``{r_outputs, outputs}``; in the second form a zero reward with every output found
        means the state differed.
        """
        if not isinstance(reward_info, dict) or not isinstance(reward_info.get("info"), dict):
            return None
        detail = reward_info["info"]
        outputs = detail.get("outputs") if isinstance(detail.get("outputs"), dict) else None
        missing = [str(output) for output, found in (outputs or {}).items() if not found]
        state_ok = bool(detail["r_actions"]) if "r_actions" in detail else None
        if state_ok is None and outputs is not None and not missing and reward != 1.0:
            state_ok = False
        return cls(state_ok=state_ok, missing_outputs=missing)


@dataclass(frozen=True)
class RecordedEpisode:
    """An episode to rescore and what was recorded with it."""

    result: EpisodeResult
    task: Task | None = None
    """The task as recorded (upstream files embed it; runs do not)."""
    verdict: RecordedVerdict | None = None
    """``None``: derived from ``result.reward_info``."""


@dataclass(frozen=True)
class LoadedSource:
    """Recorded episodes and the settings they were recorded with."""

    label: str
    domain: str
    task_set: str | None
    episodes: list[RecordedEpisode]
    today: dt.date
    """The date to replay on."""


def load_source(
    source: str | Path,
    *,
    domain: str | None = None,
    task_set: str | None = None,
    results_db: str | Path | None = None,
) -> LoadedSource:
    """The episodes of an upstream result file (when ``source`` is a file) or a stored run."""
    path = Path(source)
    if path.is_file():
        return _load_file(path, domain, task_set)
    if path.suffix == ".json":
        raise ConfigError(f"{path}: no such file (give a result-list JSON file or a run id)")
    return _load_run(str(source), domain, task_set, results_db)


def _load_file(path: Path, domain: str | None, task_set: str | None) -> LoadedSource:
    from tautrait_core.analysis.file_task_set import file_task_set
    from tautrait_core.interchange.result_import import domain_from_file_name
    from tautrait_core.plugins import get_plugin_manager

    episodes = file_episodes(path)  # a damaged file is named as such, whatever its domain
    domain = domain or domain_from_file_name(path, get_plugin_manager().names("domain"))
    if domain is None:
        raise ConfigError(
            f"cannot tell the domain of {path.name}: pass --domain (see tautrait plugins)"
        )
    if task_set is None and domain in get_plugin_manager().names("domain"):
        found = get_plugin_manager().get("domain", domain)
        embedded = {e.result.task_id: e.task.instruction for e in episodes if e.task}
        task_set = file_task_set(found, embedded, path.name)
    return LoadedSource(str(path), domain, task_set, episodes, dt.date.today())


def file_episodes(path: Path) -> list[RecordedEpisode]:
    """The episodes of an upstream result-list file, with their embedded tasks and verdicts.

    Raises:
        TaskSetError: the file is not a result list.
    """
    from tautrait_core.interchange.result_files import read_result_list

    return [
        RecordedEpisode(
            result=episode.result,
            task=episode.task,
            verdict=RecordedVerdict.from_upstream(episode.reward_info, episode.result.reward),
        )
        for episode in read_result_list(path)
    ]


def _load_run(
    run_id: str, domain: str | None, task_set: str | None, results_db: str | Path | None
) -> LoadedSource:
    from tautrait_core.paths import default_results_db
    from tautrait_core.store.results import ResultStore

    # an explicit database that is missing is a mistyped path, never a new empty database
    store = ResultStore(results_db or default_results_db(), must_exist=results_db is not None)
    run = store.get_run(run_id)
    if task_set is None and domain in (None, run.domain):
        task_set = run.task_set
    created = dt.datetime.fromisoformat(run.created_at).astimezone().date()
    episodes = [RecordedEpisode(result) for result in store.episodes(run.id)]
    return LoadedSource(run.id, domain or run.domain, task_set, episodes, created)

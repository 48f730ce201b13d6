"""Published upstream runs (tau-bench / tau-Trait result-list JSON) as stored runs.

A result file holds episodes but not the settings that produced them, so the importer
takes those as arguments (domain, task set, agent and user, traits); the domain can be
read from a file name such as upstream's ``confusion_airline.json``. The imported run
has status ``imported`` and can be reported, shown, diagnosed and compared like any other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tautrait_core.compat.result_files import read_result_list
from tautrait_core.config import RunConfig
from tautrait_core.errors import ConfigError
from tautrait_core.store.results import ResultStore
from tautrait_core.store.tables import RunRecord
from tautrait_core.trait_mix import TraitMix

UPSTREAM_DOMAINS = ("retail", "airline", "telecom", "telehealth")
IMPORTED_STATUS = "imported"


@dataclass(frozen=True)
class ImportSettings:
    """What the file does not say about the run that produced it."""

    domain: str | None = None
    """``None``: read from the file name, else an error."""
    name: str | None = None
    """``None``: the file name without extension."""
    task_set: str = "tau-trait:test"
    traits: TraitMix = field(default_factory=TraitMix)
    agent: str = "tool-calling"
    agent_model: str | None = None
    user: str = "llm"
    user_model: str | None = None


@dataclass
class ImportedRun:
    """The stored run and what the import found."""

    record: RunRecord
    episodes: int
    duplicates: int
    """Records repeating a (task, trial) pair; the later one was kept."""


def domain_from_file_name(path: Path, known: list[str]) -> str | None:
    """A known domain named by a word of the file name (``impatience_retail.json``)."""
    words = set(re.split(r"[^a-z0-9]+", path.stem.lower()))
    return next((domain for domain in (*known, *UPSTREAM_DOMAINS) if domain in words), None)


def import_result_list(
    store: ResultStore, path: Path, settings: ImportSettings, known_domains: list[str]
) -> ImportedRun:
    """Store the episodes of an upstream result-list file as a new run, in one transaction:
    a failed import stores nothing.

    Raises:
        TaskSetError: the file is not a result list.
        ConfigError: the file is empty, or its domain is neither given nor in its name.
    """
    episodes = read_result_list(path)
    if not episodes:
        raise ConfigError(f"{path} holds no results: nothing to import")
    domain = settings.domain or domain_from_file_name(path, known_domains)
    if domain is None:
        raise ConfigError(
            f"cannot tell which domain {path.name} belongs to: pass --domain "
            f"(e.g. --domain {UPSTREAM_DOMAINS[0]})"
        )
    task_ids = sorted({episode.result.task_id for episode in episodes})
    config = RunConfig(
        domain=domain,
        task_set=settings.task_set,
        agent=settings.agent,
        agent_model=settings.agent_model,
        user=settings.user,
        user_model=settings.user_model,
        traits=settings.traits,
        num_trials=max(episode.result.trial for episode in episodes) + 1,
        task_ids=task_ids,
        run_name=settings.name or path.stem,
    )
    record = store.import_run(
        config,
        settings.task_set,
        task_ids,
        plugins={"imported-from": str(path.resolve())},
        results=[episode.result for episode in episodes],
        status=IMPORTED_STATUS,
    )
    pairs = {(episode.result.task_id, episode.result.trial) for episode in episodes}
    return ImportedRun(
        record=store.get_run(record.id), episodes=len(pairs), duplicates=len(episodes) - len(pairs)
    )

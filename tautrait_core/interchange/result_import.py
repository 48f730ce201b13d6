"""Published upstream runs (tau-bench / tau-Trait result-list JSON) as stored runs.

A result file holds episodes but not the settings that produced them, so the importer
takes those as arguments (domain, task set, agent and user, traits); the domain and the
traits can be read from a file name such as ``confusion-high_airline.json`` (a name that
names a trait without its intensity, or no trait and not ``none``, needs ``--traits``), and
the task set defaults to the imported upstream test split. The imported run
has status ``imported`` and can be reported, shown, diagnosed and compared like any other.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from tautrait_core.config.run_config import RunConfig
from tautrait_core.errors import ConfigError
from tautrait_core.interchange.result_files import read_result_list
from tautrait_core.interchange.tau2_file_domain import (
    default_tau2_task_set,
    file_domain,
    task_set_holding,
)
from tautrait_core.interchange.tau2_results import (
    TAU2_TASK_IDS,
    Tau2Results,
    is_tau2_results_file,
    read_tau2_results,
)
from tautrait_core.store.results import ResultStore
from tautrait_core.store.tables import RunRecord
from tautrait_core.trait_mix import INTENSITY_WORDS, TRAIT_ALIASES, TRAITS, TraitMix
from tautrait_core.types.result import EpisodeResult
from tautrait_core.types.task import Task

UPSTREAM_DOMAINS = ("retail", "airline", "telecom", "telehealth")
IMPORTED_STATUS = "imported"


@dataclass(frozen=True)
class ImportSettings:
    """What the file does not say about the run that produced it."""

    domain: str | None = None
    """``None``: read from the file name, else an error."""
    name: str | None = None
    """``None``: the file name without extension."""
    task_set: str | None = None
    """``None``: the domain's imported upstream test split (see ``upstream_task_set``)."""
    traits: TraitMix | None = None
    """``None``: read from the file name (:func:`traits_from_file_name`)."""
    agent: str | None = None
    """``None``: what a tautrait export names, else ``tool-calling``."""
    agent_model: str | None = None
    user: str | None = None
    """``None``: what a tautrait export names, else ``llm``."""
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


def traits_from_file_name(path: Path) -> TraitMix:
    """The trait mix a file name states: ``impatience-high_retail.json``, ``none_retail.json``.

    Raises:
        ConfigError: the name names no trait (and not ``none``), or a trait without one
            intensity word.
    """
    words = re.split(r"[^a-z0-9]+", path.stem.lower())
    traits = [TRAIT_ALIASES.get(word, word) for word in words]
    traits = list(dict.fromkeys(trait for trait in traits if trait in TRAITS))
    levels = [word for word in words if word in INTENSITY_WORDS]
    if not traits and "none" in words:
        return TraitMix()
    example = f"{traits[0] if traits else 'impatience'}=high"
    if not traits:
        raise ConfigError(
            f"{path.name} does not say which traits its simulated user had: pass --traits "
            f"(e.g. --traits {example}, or --traits none for a run without traits)"
        )
    if len(levels) != 1:
        raise ConfigError(
            f"{path.name} names the trait(s) {', '.join(traits)} but not one intensity: "
            f"pass --traits (e.g. --traits {example})"
        )
    return TraitMix(traits=dict.fromkeys(traits, levels[0]))


def import_result_list(
    store: ResultStore, path: Path, settings: ImportSettings, known_domains: list[str]
) -> ImportedRun:
    """Store the episodes of an upstream result-list file as a new run, in one transaction:
    a failed import stores nothing.

    Raises:
        TaskSetError: the file is not a result list.
        ConfigError: the file is empty, or its domain is neither given nor in its name.
    """
    if is_tau2_results_file(path):
        return import_tau2_results(store, path, settings)
    episodes = read_result_list(path)
    if not episodes:
        raise ConfigError(f"{path} holds no results: nothing to import")
    domain = settings.domain or domain_from_file_name(path, known_domains)
    if domain is None:
        raise ConfigError(
            f"cannot tell which domain {path.name} belongs to: pass --domain "
            f"(e.g. --domain {UPSTREAM_DOMAINS[0]})"
        )
    return _store_imported_run(
        store,
        path,
        settings,
        [episode.result for episode in episodes],
        domain=domain,
        traits=settings.traits if settings.traits is not None else traits_from_file_name(path),
        task_set=settings.task_set or _default_task_set(domain, path),
        agent_model=settings.agent_model,
        user_model=settings.user_model,
    )


def import_tau2_results(store: ResultStore, path: Path, settings: ImportSettings) -> ImportedRun:
    """Store the simulations of a τ² results file as a new run (each with τ²'s reward and
    every reward component). The domain (``telecom`` in the file: ``tau2-telecom``) and the
    models come from the file unless given; the task set defaults to τ²'s own set of the
    domain that holds the file's tasks (``tau2:telecom`` or ``tau2:telecom-small``), else
    ``tau2:<domain>``; the traits to none (τ² has none).

    Raises:
        TaskSetError: the file is not a τ² results file or names tasks the task set lacks.
        ConfigError: the file holds no simulations, or names no domain and none is given.
    """
    read = read_tau2_results(path)
    if not read.results:
        raise ConfigError(f"{path} holds no simulations: nothing to import")
    own = read.tautrait_settings
    domain = file_domain(read, path, settings.domain)
    given_set = settings.task_set or own.get("task_set")
    holding = _installed_task_set(domain, read.simulated_task_ids, given_set)
    installed = None
    if holding is not None:
        task_set, installed = holding
        read = read.numbered_by(installed, path)
    else:
        task_set = given_set or default_tau2_task_set(domain)
    agent_info, user_info = read.info.get("agent_info") or {}, read.info.get("user_info") or {}
    traits = settings.traits
    if traits is None:
        traits = TraitMix.parse(own.get("traits"))
    return _store_imported_run(
        store,
        path,
        settings,
        read.results,
        domain=domain,
        task_set=task_set,
        traits=traits,
        agent=settings.agent or own.get("agent"),
        user=settings.user or own.get("user"),
        agent_model=settings.agent_model or agent_info.get("llm"),
        user_model=settings.user_model or user_info.get("llm"),
        plugins={
            "format": "tau2",
            TAU2_TASK_IDS: json.dumps(_ids_by_position(read, installed)),
        },
    )


def _store_imported_run(
    store: ResultStore,
    path: Path,
    settings: ImportSettings,
    results: list[EpisodeResult],
    *,
    domain: str,
    task_set: str,
    traits: TraitMix,
    agent_model: str | None,
    user_model: str | None,
    agent: str | None = None,
    user: str | None = None,
    plugins: dict[str, str] | None = None,
) -> ImportedRun:
    """Store the results read from ``path`` as a new run of status ``imported``, with the
    settings the import resolved (``agent`` and ``user``: ``tool-calling`` and ``llm`` when
    neither they nor ``settings`` name one); ``plugins`` adds to the run's ``imported-from``
    entry."""
    task_ids = sorted({result.task_id for result in results})
    config = RunConfig(
        domain=domain,
        task_set=task_set,
        agent=agent or settings.agent or "tool-calling",
        agent_model=agent_model,
        user=user or settings.user or "llm",
        user_model=user_model,
        traits=traits,
        num_trials=max(result.trial for result in results) + 1,
        task_ids=task_ids,
        run_name=settings.name or path.stem,
    )
    record = store.import_run(
        config,
        task_set,
        task_ids,
        plugins={"imported-from": str(path.resolve()), **(plugins or {})},
        results=results,
        status=IMPORTED_STATUS,
    )
    pairs = {(result.task_id, result.trial) for result in results}
    return ImportedRun(
        record=store.get_run(record.id), episodes=len(pairs), duplicates=len(results) - len(pairs)
    )


def _ids_by_position(read: Tau2Results, installed: list[Task] | None) -> list[str | None]:
    """τ²'s task id of each task position the run uses (so an export can name them even
    when the task set is not installed)."""
    if installed is not None:
        return [task.id for task in installed]
    return [task.id for task in read.tasks]


def _installed_task_set(
    domain_name: str, task_ids: set[str], given: str | None
) -> tuple[str, list[Task]] | None:
    """The task set of an installed domain holding the file's tasks (``None`` when the
    domain is not installed or no such set is imported)."""
    from tautrait_core.errors import TautraitError
    from tautrait_core.plugins import get_plugin_manager

    manager = get_plugin_manager()
    if domain_name not in manager.names("domain"):
        return None
    try:
        return task_set_holding(manager.get("domain", domain_name), task_ids, given)
    except TautraitError:
        return None


def _default_task_set(domain_name: str, path: Path) -> str:
    """The imported upstream test split of an installed domain (or the domain's own default
    when it has no upstream); ``tau-trait:test`` for a domain not installed here."""
    from tautrait_core.domain.task_sets import UPSTREAM_DEFAULT, upstream_task_set
    from tautrait_core.plugins import get_plugin_manager

    manager = get_plugin_manager()
    if domain_name not in manager.names("domain"):
        return UPSTREAM_DEFAULT
    domain = manager.get("domain", domain_name)
    found = upstream_task_set(domain, None, f"the upstream result file {path.name}")
    return found or domain.default_task_set

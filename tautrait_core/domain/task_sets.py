"""Finding a domain's task sets: its built-in ones plus those imported from upstream.

``tautrait import tau-trait PATH`` stores upstream tasks and data under the data directory;
they appear here as ``tau-trait:<split>`` task sets that run on the upstream database.
``tautrait import tau2 PATH`` does the same for τ²-bench: its domain ``<d>`` (mock, airline,
retail, telecom) runs on the tautrait domains named ``tau2-<d>`` and ``tau2-<d>-<variant>``
(e.g. a policy variant), as task sets ``tau2:<d>`` (``tasks.json``) and ``tau2:<d>-<size>``
(``tasks_<size>.json``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tautrait_core.domain.domain import Domain, TaskSet
from tautrait_core.domain.imported_rows import imported_rows_loader
from tautrait_core.domain.state import StateTemplate, get_template
from tautrait_core.errors import ConfigError, TaskSetError, UnknownNameError
from tautrait_core.files import read_json_file
from tautrait_core.paths import imports_dir
from tautrait_core.types.task import Task

UPSTREAM_SOURCE = "tau-trait"
REIMPORT = f"tautrait import {UPSTREAM_SOURCE} PATH_TO_CHECKOUT"
"""The command that imports the upstream checkout again."""
UPSTREAM_DEFAULT = f"{UPSTREAM_SOURCE}:test"
"""The task set upstream results and upstream command lines default to, once imported."""

TAU2_SOURCE = "tau2"
TAU2_MANIFEST = "manifest.json"
"""Beside an imported domain's task sets: each set's rules and splits (τ³ checkouts)."""
DEFAULT_SPLIT = "base"
"""The split a task set with splits runs when none is named (τ³'s default)."""
TAU2_IMPORT_HINT = "import τ²-bench with: tautrait import tau2 PATH_TO_TAU2_BENCH_CHECKOUT"


def tau2_task_set_name(tau2_domain: str, file_stem: str) -> str:
    """The task set name (after ``tau2:``) of a τ² task file: ``tasks`` -> the domain's
    name, ``tasks_small`` -> ``<domain>-small``."""
    size = file_stem.removeprefix("tasks").strip("_")
    return f"{tau2_domain}-{size}" if size else tau2_domain


def tau2_domain_of(domain_name: str) -> str | None:
    """The τ² domain a tautrait domain runs (``tau2-telecom-workflow`` -> ``telecom``)."""
    if not domain_name.startswith(f"{TAU2_SOURCE}-"):
        return None
    return domain_name.removeprefix(f"{TAU2_SOURCE}-").split("-")[0] or None


def tau2_data_dir(tau2_domain: str) -> Path:
    """Where ``tautrait import tau2`` keeps a τ² domain's files (present after an import)."""
    return imports_dir(TAU2_SOURCE) / tau2_domain


def tau2_data_file(tau2_domain: str, name: str) -> Path:
    """An imported τ² domain's file (``db.json``, ``policy.md``, ...).

    Raises:
        ConfigError: τ²-bench is not imported, or the file is not in its copy.
    """
    path = tau2_data_dir(tau2_domain) / name
    if not path.is_file():
        raise ConfigError(
            f"τ²-bench's {tau2_domain} file {name} is not imported ({path} is missing); "
            + TAU2_IMPORT_HINT
        )
    return path


def _tau2_task_sets(domain: Domain) -> dict[str, TaskSet]:
    tau2_domain = tau2_domain_of(domain.name)
    if tau2_domain is None:
        return {}
    folder = tau2_data_dir(tau2_domain) / "task_sets"
    manifest = _read_manifest(folder / TAU2_MANIFEST)
    task_sets: dict[str, TaskSet] = {}
    for path in sorted(folder.glob("*.json")):
        if path.name == TAU2_MANIFEST:
            continue
        name = f"{TAU2_SOURCE}:{path.stem}"
        entry = manifest.get(path.stem, {})
        rules = "tau3" if entry.get("rules") == "tau3" else "tau2"
        version = "τ³ (τ²-bench v1.x)" if rules == "tau3" else "τ²-bench"
        task_sets[name] = TaskSet(
            name=name,
            load_tasks=_task_loader(path, TAU2_IMPORT_HINT),
            description=f"{version} {path.stem} tasks (imported into {folder.parent})",
            data_id=f"{TAU2_SOURCE}@{folder.parent}",
            protocol="tau2",
            rules=rules,
            splits=entry.get("splits") or None,
        )
    return task_sets


def imported_tau2_rules(tau2_domain: str) -> str:
    """Whose rules the imported τ² domain's task sets follow: ``"tau3"`` when a τ³
    checkout (τ²-bench v1.x) was imported, else ``"tau2"`` (the fork, or nothing yet)."""
    try:
        manifest = _read_manifest(tau2_data_dir(tau2_domain) / "task_sets" / TAU2_MANIFEST)
    except TaskSetError:
        return "tau2"
    rules = {entry.get("rules") for entry in manifest.values() if isinstance(entry, dict)}
    return "tau3" if "tau3" in rules else "tau2"


def _read_manifest(path: Path) -> dict[str, dict[str, Any]]:
    if not path.is_file():
        return {}
    data = read_json_file(path, TaskSetError, "the import manifest", TAU2_IMPORT_HINT)
    return data if isinstance(data, dict) else {}


def imported_task_sets(domain: Domain) -> dict[str, TaskSet]:
    """Task sets imported from upstream for ``domain`` (empty if none were imported)."""
    codec = domain.upstream
    folder = imports_dir(UPSTREAM_SOURCE) / domain.name
    if codec is None or not folder.is_dir():
        return _tau2_task_sets(domain)
    data_folder = folder / "data"
    task_sets = _tau2_task_sets(domain)
    for path in sorted(folder.glob("tasks_*.json")):
        split = path.stem.removeprefix("tasks_")
        name = f"{UPSTREAM_SOURCE}:{split}"
        task_sets[name] = TaskSet(
            name=name,
            load_tasks=_task_loader(path),
            description=f"upstream tau-trait {split} split (imported from {folder})",
            load_rows=imported_rows_loader(
                lambda: codec.to_rows(codec.read_data(data_folder)), lambda: data_folder, REIMPORT
            ),
            data_id=f"{UPSTREAM_SOURCE}@{data_folder}",
        )
    return task_sets


def _task_loader(path: Path, fix: str | None = None) -> Callable[[], list[Task]]:
    def load() -> list[Task]:
        return read_imported_tasks(path, fix)

    return load


def read_imported_tasks(path: Path, fix: str | None = None) -> list[Task]:
    """The tasks of an imported ``tasks_<split>.json`` file.

    Raises:
        TaskSetError: the file is unreadable, not a JSON list, or a task in it is invalid
            (the message names the file, the task's index and the fix).
    """
    fix = fix or f"re-import it: tautrait import {UPSTREAM_SOURCE} PATH_TO_CHECKOUT"
    items = read_json_file(path, TaskSetError, "the imported task file", fix)
    if not isinstance(items, list):
        raise TaskSetError(f"imported task file {path} is not a JSON list of tasks; {fix}")
    tasks = []
    for index, item in enumerate(items):
        try:
            tasks.append(Task.model_validate(item))
        except ValidationError as exc:
            problem = exc.errors()[0]
            where = ".".join(str(part) for part in problem["loc"]) or "task"
            raise TaskSetError(
                f"imported task file {path}: task {index} is invalid ({where}: "
                f"{problem['msg']}); {fix}"
            ) from exc
    return tasks


def all_task_sets(domain: Domain) -> dict[str, TaskSet]:
    """Built-in and imported task sets of ``domain``, by name."""
    return {**domain.task_sets, **imported_task_sets(domain)}


def resolve_task_set(domain: Domain, name: str | None, split: str | None = None) -> TaskSet:
    """The task set called ``name`` (the domain's default when ``None``); of a task set
    with splits, the split named ``split`` or after a slash (``tau2:retail/test``), else
    its ``base`` split.

    Raises:
        UnknownNameError: no such task set, or no such split (naming the available ones).
    """
    if split is None and name and "/" in name:
        name, _, split = name.partition("/")
    name = name or domain.default_task_set
    task_sets = all_task_sets(domain)
    if name in task_sets:
        return task_set_split(task_sets[name], split)
    hint = ""
    if name.startswith(f"{UPSTREAM_SOURCE}:") and domain.upstream is not None:
        hint = (
            f"Upstream task sets appear after importing a checkout: "
            f"tautrait import {UPSTREAM_SOURCE} PATH_TO_CHECKOUT"
        )
    elif tau2_domain_of(domain.name) is not None:
        hint = f"τ²-bench task sets appear after you {TAU2_IMPORT_HINT}"
    raise UnknownNameError(f"{domain.name} task set", name, list(task_sets), hint)


def task_set_split(task_set: TaskSet, split: str | None) -> TaskSet:
    """The split ``split`` of ``task_set`` (its ``base`` split when ``None`` and it has
    one): the tasks whose ids the split lists, in file order, as the task set
    ``<name>/<split>``.

    Raises:
        UnknownNameError: the task set has no split of that name.
    """
    splits = task_set.splits or {}
    if split is None:
        if DEFAULT_SPLIT not in splits:
            return task_set
        split = DEFAULT_SPLIT
    if split not in splits:
        hint = "" if splits else f"{task_set.name} has no splits; leave out the split"
        raise UnknownNameError(f"{task_set.name} split", split, list(splits), hint)
    members = set(splits[split])
    whole = task_set

    def load() -> list[Task]:
        return [task for task in whole.tasks if task.id in members]

    return dataclasses.replace(
        task_set,
        name=f"{task_set.name}/{split}",
        load_tasks=load,
        description=f"{task_set.description}, split {split}",
        splits=None,
    )


def split_sizes(task_set: TaskSet) -> dict[str, int]:
    """How many of the task set's tasks each of its splits selects."""
    return count_in_splits([task.id for task in task_set.tasks], task_set.splits or {})


def count_in_splits(ids: list[str | None], splits: dict[str, list[str]]) -> dict[str, int]:
    """How many of the task ids ``ids`` each split (its task ids) holds."""
    counts = {}
    for split, members in splits.items():
        chosen = set(members)
        counts[split] = sum(task_id in chosen for task_id in ids)
    return counts


def upstream_task_set(domain: Domain, given: str | None, what: str) -> str | None:
    """The task set for upstream material (``what``: e.g. an upstream result file): the one
    ``given``, else the imported upstream test split; ``None`` for a domain without an
    upstream (it uses its own default).

    Raises:
        ConfigError: nothing given and the upstream tasks are not imported.
    """
    if given is not None or domain.upstream is None:
        return given
    if UPSTREAM_DEFAULT in imported_task_sets(domain):
        return UPSTREAM_DEFAULT
    raise ConfigError(
        f"{what} goes with upstream's {domain.name} tasks ({UPSTREAM_DEFAULT}), which are not "
        f"imported: import them with: tautrait import {UPSTREAM_SOURCE} PATH_TO_CHECKOUT, or "
        f"choose a task set with --task-set (this domain's own: "
        f"{', '.join(sorted(domain.task_sets))})"
    )


def task_set_for_upstream_flags(domain: Domain, given: str | None) -> tuple[str | None, str]:
    """The task set an upstream command line (``--task-split test``) runs, and a note saying
    which one: the imported upstream split of that name when there is one, else the
    domain's own set of that name (upstream's tasks differ)."""
    split = given or "test"
    if domain.upstream is None or ":" in split:
        return given, ""
    upstream = f"{UPSTREAM_SOURCE}:{split}"
    if upstream in imported_task_sets(domain):
        return upstream, f"Upstream flags: running the imported upstream task set {upstream!r}."
    own = domain.task_sets.get(split)
    size = f" ({len(own.tasks)} tasks)" if own is not None else ""
    return given, (
        f"Running tautrait's own {domain.name} task set {split!r}{size}, not upstream "
        f"tau-trait's {split} split, which is not imported. To run upstream's tasks: "
        f"tautrait import {UPSTREAM_SOURCE} PATH_TO_CHECKOUT (then --task-set {upstream})."
    )


def template_for(domain: Domain, task_set: TaskSet) -> StateTemplate:
    """The database template a task set runs on (built once per process)."""
    loader = task_set.load_rows or domain.seed_data
    return get_template(domain.name, task_set.data_id or "builtin", domain.tables, loader)

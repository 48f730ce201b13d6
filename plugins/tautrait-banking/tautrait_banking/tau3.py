"""τ³'s ``banking_knowledge`` as ``tau2-banking_knowledge``, run on what ``tautrait import
tau2`` copied from a τ³ checkout (``data/tau2/domains/banking_knowledge/``: ``db.json``,
``documents/``, ``prompts/``, ``tasks/task_*.json``).

Until it is imported the domain is listed, and running it says how to import it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tautrait_banking.domain import bank_domain
from tautrait_core import (
    ConfigError,
    DocumentCollection,
    Domain,
    Task,
    TaskSet,
    TaskSetError,
)
from tautrait_core.tau2 import task_from_tau2, tau2_data_dir, tau2_data_file

TAU3_DOMAIN = "banking_knowledge"
DOMAIN_NAME = f"tau2-{TAU3_DOMAIN}"
TASK_SET = f"tau2:{TAU3_DOMAIN}"
IMPORT_HINT = "tautrait import tau2 TAU3_CHECKOUT"


def read_tau3_task(source: Path | dict[str, Any]) -> Task:
    """One τ³ task (a ``tasks/task_NNN.json`` file, or its content): τ²'s task shape plus
    ``user_tools``, ``required_documents`` and ``issues``.

    Raises:
        TaskSetError: the file is unreadable or not a valid task.
    """
    try:
        data = (
            json.loads(source.read_text(encoding="utf-8")) if isinstance(source, Path) else source
        )
        task = task_from_tau2(data)
    except (OSError, ValueError) as exc:
        where = source.name if isinstance(source, Path) else f"task {source.get('id')!r}"
        problem = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise TaskSetError(f"{where} is not a valid τ³ task: {problem}") from exc
    return task.model_copy(
        update={key: data.get(key) for key in ("user_tools", "required_documents", "issues")}
    )


def load_tasks() -> list[Task]:
    """τ³'s banking tasks: every ``tasks/task_*.json`` of the import, by file name."""
    folder = tau2_data_dir(TAU3_DOMAIN) / "tasks"
    files = sorted(folder.glob("task_*.json"))
    if not files:
        raise TaskSetError(f"τ³'s banking tasks are not imported: {IMPORT_HINT}")
    return [read_tau3_task(path) for path in files]


def load_db() -> dict[str, Any]:
    """The imported ``db.json``."""
    try:
        path = tau2_data_file(TAU3_DOMAIN, "db.json")
    except ConfigError as exc:
        raise ConfigError(f"τ³'s banking data is not imported: {IMPORT_HINT}") from exc
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(
            f"{path.name} of τ³'s bank is unreadable; re-import: {IMPORT_HINT}"
        ) from exc


def build_domain() -> Domain:
    """τ³'s banking_knowledge domain on the imported data."""
    folder = tau2_data_dir(TAU3_DOMAIN)
    return bank_domain(
        name=DOMAIN_NAME,
        description="τ³'s Rho-Bank with a 698-document knowledge base (import τ³ first)",
        policy=f"(τ³'s {TAU3_DOMAIN} policy is assembled per retrieval configuration)",
        load_db=load_db,
        documents=DocumentCollection.from_folder(folder / "documents", prompts=folder / "prompts"),
        task_sets={
            TASK_SET: TaskSet(
                name=TASK_SET,
                load_tasks=load_tasks,
                description=f"τ³'s banking_knowledge tasks (imported into {folder})",
                data_id=f"tau2@{folder}",
                protocol="tau2",
            )
        },
        default_task_set=TASK_SET,
    )

"""The built-in bank (``--domain banking``): τ³'s tools over a small fictional bank, its
own knowledge base (``bank/documents.json``) and nine tasks, runnable offline."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from tautrait_banking.domain import bank_domain
from tautrait_banking.tau3 import read_tau3_task
from tautrait_core import Document, DocumentCollection, Domain, Task, TaskSet

DATA = Path(__file__).parent / "bank"


@cache
def _db() -> dict[str, Any]:
    return json.loads((DATA / "db.json").read_text(encoding="utf-8"))


def load_db() -> dict[str, Any]:
    """The built-in bank's database in τ³'s shape (a fresh copy)."""
    return json.loads(json.dumps(_db()))


def load_documents() -> list[Document]:
    """The built-in knowledge base, in index order."""
    items = json.loads((DATA / "documents.json").read_text(encoding="utf-8"))
    return [Document(item["id"], item["title"], item["content"]) for item in items]


def load_tasks() -> list[Task]:
    """The built-in tasks (τ³'s task shape)."""
    items = json.loads((DATA / "tasks.json").read_text(encoding="utf-8"))
    return [read_tau3_task(item) for item in items]


def build_domain() -> Domain:
    """The built-in bank."""
    return bank_domain(
        name="banking",
        description="τ³'s bank tools on a small built-in bank with a knowledge base",
        policy=(DATA / "policy.md").read_text(encoding="utf-8"),
        load_db=load_db,
        documents=DocumentCollection(load_documents),
        task_sets={
            "test": TaskSet(
                name="test",
                load_tasks=load_tasks,
                description="nine tasks on the built-in bank",
                protocol="tau2",
            )
        },
        default_task_set="test",
    )

"""The toy library domain with a knowledge base (a few documents), for retrieval tests."""

from __future__ import annotations

import dataclasses
from typing import Any

from tautrait_core import Document, DocumentCollection, Domain, TaskSet, hookimpl
from tests.plugins import toy_library

DOCUMENTS = [
    Document("doc_loans", "Loan periods", "Books are lent for 14 days. Members may renew once."),
    Document(
        "doc_fines", "Late fines", "A late book costs 0.25 per day. Fines over 5 block loans."
    ),
    Document("doc_hours", "Opening hours", "The library opens at 9 and closes at 18."),
    Document("doc_cards", "Library cards", "A lost card is replaced for 2. Bring an ID."),
    Document("doc_rare", "Rare books", "Rare books stay in the reading room; they are not lent."),
]

TASKS = [
    toy_library.TASKS[0].model_copy(
        update={"required_documents": ["Loan periods", "doc_fines", "no such document"]}
    ),
    toy_library.TASKS[1].model_copy(update={"required_documents": ["doc_rare"]}),
]


def build_domain(prompts: Any = None) -> Domain:
    """The toy library with documents (and ``prompts``, a folder of policy templates)."""
    return dataclasses.replace(
        toy_library.build_domain(),
        name="toyknow",
        task_sets={"test": TaskSet(name="test", load_tasks=lambda: list(TASKS))},
        documents=DocumentCollection(DOCUMENTS, prompts=prompts),
    )


@hookimpl
def register_domains(register: Any) -> None:
    register(build_domain())

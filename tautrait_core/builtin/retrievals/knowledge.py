"""Configurations without search tools: the policy alone (``no_knowledge``), the whole
knowledge base in the policy (``full_kb``) and the task's required documents in the policy
(``golden_retrieval``)."""

from __future__ import annotations

from functools import cached_property

from tautrait_core.retrieval.base import Retrieval
from tautrait_core.retrieval.policy import NO_DOCUMENTS, documents_text
from tautrait_core.types.task import Task


class NoKnowledge(Retrieval):
    """No search tools and no documents: the policy alone."""

    name = "no_knowledge"
    description = "no search tools; the policy alone"
    template = "no_knowledge"


class FullKnowledgeBase(Retrieval):
    """Every document in the policy, in index order (τ³: about 860 000 characters)."""

    name = "full_kb"
    description = "the whole knowledge base in the policy"
    template = "full_kb"
    instructions = (
        "## Knowledge base\n\nThe complete knowledge base follows. Use it to answer the "
        "customer and to decide what to do.\n\n<knowledge_base>\n{{full_knowledge_base}}\n"
        "</knowledge_base>"
    )

    @cached_property
    def _text(self) -> str:
        return documents_text(self.documents.documents)

    def placeholders(self, task: Task) -> dict[str, str]:
        return {"full_knowledge_base": self._text}


class GoldenRetrieval(Retrieval):
    """The documents the task requires (``required_documents``) in the policy."""

    name = "golden_retrieval"
    description = "the task's required documents in the policy (an upper bound)"
    template = "required_docs"
    instructions = (
        "## Documents you need\n\nThese documents hold what you need to answer the customer "
        "and to decide what to do.\n\n<required_documents>\n{{required_documents}}\n"
        "</required_documents>"
    )
    policy_per_task = True

    def placeholders(self, task: Task) -> dict[str, str]:
        found = self.documents.resolve(task.required_documents or [])
        return {"required_documents": documents_text(found) or NO_DOCUMENTS}

    def warnings(self, tasks: dict[int, Task]) -> list[str]:
        known = {*self.documents.by_id, *self.documents.by_title}
        missing = {
            task_id: [name for name in task.required_documents or [] if name not in known]
            for task_id, task in tasks.items()
        }
        missing = {task_id: names for task_id, names in missing.items() if names}
        if not missing:
            return []
        task_id, names = next(iter(missing.items()))
        return [
            f"{len(missing)} task(s) require documents the knowledge base lacks (task "
            f"{task_id}: {', '.join(map(repr, names))}); golden_retrieval leaves them out of "
            "the policy, as τ³ does"
        ]

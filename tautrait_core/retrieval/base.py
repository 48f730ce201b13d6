"""The base class of retrieval configurations, registered through ``register_retrievals``.

A configuration (τ³'s ``--retrieval-config``: ``bm25``, ``grep_only``, ``full_kb``, ...)
decides two things for a domain with documents: the tools the agent gets before the
domain's own (τ³ calls them KB_search, grep, shell, ...), and the agent's policy, assembled
from the domain's templates (:mod:`tautrait_core.retrieval.policy`). One instance serves one
document collection for the whole process: every episode and trial shares it, so an index
is built once (:func:`tautrait_core.retrieval.indexes.shared_index` shares one between
configurations too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from tautrait_core.config.parts import RetrievalSettings
from tautrait_core.domain.documents import DocumentCollection
from tautrait_core.retrieval.policy import assemble_policy

if TYPE_CHECKING:
    from tautrait_core.domain.tools import Tool
    from tautrait_core.types.task import Task


class Retrieval:
    """How the agent reaches a domain's documents: its tools and its policy.

    Subclass it, set :attr:`name`, and override :meth:`tools` (the agent's search tools, as
    ``Tool`` objects whose first argument, the episode database, goes unused) and, where the
    policy holds more than the templates, :meth:`placeholders`. Build indexes in
    ``__init__``: it runs once per document collection and process.

    Attributes:
        name: The ``--retrieval`` value.
        description: One line for ``tautrait plugins`` and errors.
        template: The policy template of the domain's prompts folder (τ³'s file name
            without ``.md``); ``None``: the domain's own policy.
        instructions: What a domain without that template gets appended to its policy
            (the same placeholders apply).
        policy_per_task: Whether the policy depends on the task (``golden_retrieval``).
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    template: ClassVar[str | None] = None
    instructions: ClassVar[str] = ""
    policy_per_task: ClassVar[bool] = False

    def __init__(self, documents: DocumentCollection, settings: RetrievalSettings) -> None:
        self.documents = documents
        self.settings = settings

    @classmethod
    def check(cls, settings: RetrievalSettings) -> None:
        """Refuse, before a run starts, what this configuration cannot serve here (a missing
        sandbox, an embedding model without a key) with a :class:`ConfigError`."""

    def tools(self) -> list[Tool]:
        """The agent's tools for the documents, shown before the domain's own."""
        return []

    def warnings(self, tasks: dict[int, Task]) -> list[str]:
        """Problems with the run's tasks (by id) that do not stop it, one line each."""
        return []

    def placeholders(self, task: Task) -> dict[str, str]:
        """Values of the policy template's ``{{NAME}}`` placeholders for ``task``."""
        return {}

    def policy(self, domain_policy: str, task: Task) -> str:
        """The agent's policy in an episode of ``task``: the domain's template for this
        configuration, else the domain's policy followed by :attr:`instructions`.

        Raises:
            ConfigError: a component the template names is missing, or the policy is empty.
        """
        template = self.documents.template(self.template) if self.template else None
        if template is None:
            instructions = self.instructions
            template = f"{domain_policy}\n\n{instructions}" if instructions else domain_policy
        return assemble_policy(template, self.documents.component, self.placeholders(task))

"""The agent's policy per retrieval configuration, assembled as τ³ assembles it.

A template (one per configuration, in the domain's prompts folder) names components
(``{{component:NAME}}``, replaced by ``components/NAME.md``, once: a component's own
placeholders for components stay as they are) and placeholders the configuration fills
(``{{full_knowledge_base}}``, ``{{required_documents}}``,
``{{all_tools_dense_instructions}}``), in that order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from tautrait_core.domain.documents import Document
from tautrait_core.errors import ConfigError

COMPONENT = re.compile(r"\{\{component:(\w+)\}\}")
DOCUMENT_SEPARATOR = "\n\n---\n\n"
NO_DOCUMENTS = "(No documents provided)"


def assemble_policy(
    template: str, component: Callable[[str], str], placeholders: Mapping[str, str]
) -> str:
    """``template`` with its components and then ``placeholders`` (``{{NAME}}``) filled in.

    Raises:
        ConfigError: the result is empty (as τ³ refuses an empty policy).
    """
    text = COMPONENT.sub(lambda match: component(match.group(1)), template)
    for name, value in placeholders.items():
        text = text.replace("{{" + name + "}}", value)
    if not text.strip():
        raise ConfigError("the assembled policy is empty; check the domain's policy templates")
    return text


def documents_text(documents: Iterable[Document]) -> str:
    """Documents as a policy shows them: ``## <title>``, a blank line and the content,
    separated by horizontal rules."""
    return DOCUMENT_SEPARATOR.join(f"## {d.title}\n\n{d.content}" for d in documents)

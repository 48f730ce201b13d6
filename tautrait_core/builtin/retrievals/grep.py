"""``grep_only``: the agent searches the documents with regular expressions alone."""

from __future__ import annotations

from tautrait_core.builtin.retrievals.search_tools import grep_tool
from tautrait_core.domain.tools import Tool
from tautrait_core.retrieval.base import Retrieval


class GrepOnly(Retrieval):
    """``grep``: documents ranked by how often a regular expression matches."""

    name = "grep_only"
    description = "grep over the documents (offline)"
    template = "grep_only"
    instructions = (
        "## Knowledge base\n\nSearch the knowledge base with the `grep` tool (a regular "
        "expression over the documents, case ignored)."
    )

    def tools(self) -> list[Tool]:
        return [grep_tool(self.documents)]

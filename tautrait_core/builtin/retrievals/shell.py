"""``terminal_use``: a read-only shell over the documents, inside a bubblewrap sandbox."""

from __future__ import annotations

from pathlib import Path

from tautrait_core.builtin.retrievals.sandbox import (
    export_documents,
    require_sandbox,
    run_in_sandbox,
)
from tautrait_core.config.parts import RetrievalSettings
from tautrait_core.domain.documents import DocumentCollection
from tautrait_core.domain.tools import Tool
from tautrait_core.retrieval.base import Retrieval
from tautrait_core.retrieval.shared import shared_index


def documents_folder(documents: DocumentCollection) -> Path:
    """The collection's documents as files, written once per process."""
    return shared_index("files", documents, lambda: export_documents(documents.documents))


def shell_tool(root: Path) -> Tool:
    """``shell(command)``: run a read-only command in the documents' folder."""

    def shell(db: object, command: str) -> str:
        """Run a shell command (ls, cat, grep, find, head, wc, ...) in the knowledge base's
        folder of Markdown files (read-only; INDEX.md lists them).

        Args:
            command: The command line, run by /bin/sh.
        """
        return run_in_sandbox(root, command)

    return Tool(shell, name="shell")


class TerminalUse(Retrieval):
    """``shell``: the agent explores the documents as files, read-only, in a sandbox."""

    name = "terminal_use"
    description = "a read-only shell over the documents (needs bubblewrap)"
    template = "agentic_search"
    instructions = (
        "## Knowledge base\n\nThe knowledge base is a folder of Markdown files, one per "
        "document, with INDEX.md listing them. Explore it with the `shell` tool (ls, cat, "
        "grep -ri, find, head); it is read-only."
    )

    def __init__(self, documents: DocumentCollection, settings: RetrievalSettings) -> None:
        super().__init__(documents, settings)
        self.root = documents_folder(documents)

    @classmethod
    def check(cls, settings: RetrievalSettings) -> None:
        require_sandbox(cls.name)

    def tools(self) -> list[Tool]:
        return [shell_tool(self.root)]

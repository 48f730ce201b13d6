"""A domain's documents: the knowledge base its agent may search (τ³'s ``banking_knowledge``).

A :class:`DocumentCollection` is an ordered list of :class:`Document` objects. The order is
the index order of every retrieval configuration: equal scores keep it, and the whole
knowledge base in a prompt (``full_kb``) follows it. A collection may come with a prompts
folder in τ³'s layout (``<template>.md`` per retrieval configuration, plus
``components/<NAME>.md``), from which the agent's policy is assembled per configuration
(:mod:`tautrait_core.retrieval.policy`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from tautrait_core.errors import ConfigError

DEFAULT_RETRIEVAL = "bm25"
"""The retrieval configuration of a run that names none: offline, and τ³'s classic one."""


@dataclass(frozen=True)
class Document:
    """One knowledge-base document: only ``content`` is searched, ``title`` is shown."""

    id: str
    title: str
    content: str


class DocumentCollection:
    """The ordered documents a domain's agent may search, and how its policy mentions them.

    Args:
        documents: The documents in index order, or a function without arguments that
            returns them (called once, on first use).
        prompts: A folder of policy templates in τ³'s layout (``bm25`` uses
            ``classic_rag_bm25_no_grep.md``, ...; ``components/NAME.md`` fills
            ``{{component:NAME}}``); ``None``: the domain's policy with each
            configuration's own instructions appended.
        default_retrieval: The retrieval configuration of a run that names none.
    """

    def __init__(
        self,
        documents: Iterable[Document] | Callable[[], Iterable[Document]],
        prompts: str | Path | None = None,
        default_retrieval: str = DEFAULT_RETRIEVAL,
    ) -> None:
        self._source = documents
        self.prompts = Path(prompts) if prompts is not None else None
        self.default_retrieval = default_retrieval

    def __repr__(self) -> str:
        return f"<DocumentCollection of {len(self.documents)} documents>"

    @cached_property
    def documents(self) -> list[Document]:
        """The documents, in index order."""
        source = self._source
        found = list(source() if callable(source) else source)
        ids = [document.id for document in found]
        if len(set(ids)) < len(ids):
            duplicates = sorted({i for i in ids if ids.count(i) > 1})
            raise ConfigError(f"document ids given twice: {', '.join(duplicates[:5])}")
        return found

    @cached_property
    def by_id(self) -> dict[str, Document]:
        return {document.id: document for document in self.documents}

    @cached_property
    def by_title(self) -> dict[str, Document]:
        """The first document of each title."""
        titles: dict[str, Document] = {}
        for document in self.documents:
            titles.setdefault(document.title, document)
        return titles

    @cached_property
    def fingerprint(self) -> str:
        """sha256 of every document in order: what an index built from them depends on."""
        digest = hashlib.sha256()
        for document in self.documents:
            for part in (document.id, document.title, document.content):
                digest.update(part.encode("utf-8", "surrogatepass"))
                digest.update(b"\0")
        return digest.hexdigest()

    def resolve(self, references: Sequence[str]) -> list[Document]:
        """The documents ``references`` name, by title first, then by id, in their order;
        a reference that names none is left out."""
        found = []
        for reference in references:
            document = self.by_title.get(reference) or self.by_id.get(reference)
            if document is not None:
                found.append(document)
        return found

    def template(self, name: str) -> str | None:
        """The policy template ``name`` of the prompts folder (``None``: it has none)."""
        if self.prompts is None:
            return None
        path = self.prompts / f"{name}.md"
        return path.read_text(encoding="utf-8") if path.is_file() else None

    def component(self, name: str) -> str:
        """The policy component ``name`` (``components/NAME.md`` of the prompts folder).

        Raises:
            ConfigError: there is no such file.
        """
        path = (self.prompts or Path(".")) / "components" / f"{name}.md"
        if self.prompts is None or not path.is_file():
            raise ConfigError(
                f"a policy template uses {{{{component:{name}}}}} but {path} does not exist; "
                "add the file to the domain's prompts folder"
            )
        return path.read_text(encoding="utf-8")

    @classmethod
    def from_folder(
        cls,
        folder: str | Path,
        order: Sequence[str] | None = None,
        prompts: str | Path | None = None,
        default_retrieval: str = DEFAULT_RETRIEVAL,
    ) -> DocumentCollection:
        """The documents of ``folder``'s ``*.json`` files (``{"id", "title", "content"}``
        each, τ³'s ``documents/`` layout), read on first use.

        Args:
            order: Document ids in index order (τ³ used its directory order; ids not
                listed follow in file-name order); ``None``: file-name order.
        """
        root = Path(folder)

        def load() -> list[Document]:
            documents = [_read_document(path) for path in sorted(root.glob("*.json"))]
            if order is None:
                return documents
            rank = {document_id: index for index, document_id in enumerate(order)}
            return sorted(documents, key=lambda d: rank.get(d.id, len(rank)))

        return cls(load, prompts=prompts, default_retrieval=default_retrieval)


def _read_document(path: Path) -> Document:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        return Document(id=record["id"], title=record["title"], content=record["content"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(
            f"{path}: not a document ({type(exc).__name__}: {exc}); a document file is a JSON "
            'object {"id": ..., "title": ..., "content": ...}'
        ) from exc

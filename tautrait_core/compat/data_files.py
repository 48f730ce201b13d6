"""A domain's data as upstream keeps it: one JSON file per collection in a folder.

Upstream's ``load_data`` reads ``data/<collection>.json`` for each collection of a domain;
a domain plugin reads the same files for its built-in database (and for upstream's own
data in compatibility tests), and its generator writes them. :class:`UpstreamCodec` is the
base of a domain's upstream codec that reads such a folder.
"""

from __future__ import annotations

import copy
import json
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from tautrait_core.files import read_json_file

if TYPE_CHECKING:
    from sqlmodel import SQLModel


def read_collections(
    folder: Path,
    names: Iterable[str],
    *,
    domain: str,
    optional: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Read ``folder/<name>.json`` for each collection name, in the given order.

    Args:
        folder: Upstream's ``data/`` folder (or a domain's own data folder).
        names: The collection names, in upstream's order.
        domain: The domain name, for error messages.
        optional: Collections whose file may be missing, with the value used instead.

    Raises:
        FileNotFoundError: A required file is missing (the message names it).
        ValueError: A file is unreadable or not valid JSON (the message names it).
    """
    optional = optional or {}
    data: dict[str, Any] = {}
    for name in names:
        path = folder / f"{name}.json"
        if not path.is_file():
            if name in optional:
                data[name] = copy.deepcopy(optional[name])
                continue
            raise FileNotFoundError(f"{domain} data file {path} is missing")
        data[name] = read_json_file(path, ValueError, f"the {domain} data file")
    return data


def upstream_collection(
    data: Mapping[str, Any], name: str, *, domain: str, kind: type[dict] | type[list] = dict
) -> Any:
    """``data[name]``, checked to be a JSON object (``kind=dict``) or a list (``kind=list``).

    Raises:
        ValueError: The collection is missing or of the other kind.
    """
    value = data.get(name)
    if not isinstance(value, kind):
        expected = "an object" if kind is dict else "a list"
        raise ValueError(f"{domain} data: {name} must be {expected}, not {type(value).__name__}")
    return value


class UpstreamCodec(ABC):
    """Base of a domain's upstream codec (a :class:`~tautrait_core.UpstreamFormat`) whose
    data is one ``<collection>.json`` file per collection.

    A subclass names its ``domain`` and ``collections`` (and ``optional_collections``, if
    any) and writes :meth:`rows` and :meth:`export`; :meth:`read_data`, :meth:`to_rows`
    and :meth:`collection` come from here.
    """

    domain: ClassVar[str]
    """The domain name, for error messages."""
    collections: ClassVar[Iterable[str]]
    """The collection names, in upstream's order."""
    optional_collections: ClassVar[Mapping[str, Any]] = {}
    """Collections whose file may be missing, with the value upstream uses instead."""

    def read_data(self, folder: Path) -> dict[str, Any]:
        """Read ``folder/<collection>.json`` for every collection (see
        :func:`read_collections`)."""
        return read_collections(
            folder, self.collections, domain=self.domain, optional=self.optional_collections
        )

    def collection(
        self, data: Mapping[str, Any], name: str, kind: type[dict] | type[list] = dict
    ) -> Any:
        """``data[name]``, checked to be an object or a list (see :func:`upstream_collection`)."""
        return upstream_collection(data, name, domain=self.domain, kind=kind)

    def to_rows(self, data: Mapping[str, Any]) -> list[SQLModel]:
        """The table rows for upstream ``data`` (an optional collection it lacks counts as
        the value upstream uses instead)."""
        return list(self.rows({**self.optional_collections, **data}))

    @abstractmethod
    def rows(self, data: Mapping[str, Any]) -> Iterator[SQLModel]:
        """The table rows for upstream ``data``, which holds every collection."""

    @abstractmethod
    def export(self, db: Any) -> dict[str, Any]:
        """The episode database ``db`` as upstream's dict of collections, in upstream
        order (key order included)."""


def write_collections(folder: Path, data: Mapping[str, Any]) -> list[Path]:
    """Write each collection as ``folder/<name>.json`` (two-space indent, UTF-8 text, a
    final newline: the form of the committed data files); return the paths in order."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, collection in data.items():
        path = folder / f"{name}.json"
        text = json.dumps(collection, indent=2, ensure_ascii=False) + "\n"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def write_data_command(
    generate: Callable[[], Mapping[str, Any]], package: Path, argv: list[str] | None = None
) -> list[Path]:
    """The command line of a domain's data generator, ``python -m PACKAGE.datagen [FOLDER]``:
    write the collections ``generate`` returns (see :func:`write_collections`) into FOLDER
    (``argv``, by default ``sys.argv``), else into the package's ``data/``; return the paths
    written."""
    args = sys.argv[1:] if argv is None else argv
    return write_collections(Path(args[0]) if args else package / "data", generate())

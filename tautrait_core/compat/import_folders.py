"""The steps the two upstream imports (``tautrait import tau-trait`` and ``tautrait import
tau2``) share: finding the checkout's folder of domains, reporting what one domain's import
did, and building a domain's folder beside the one it replaces, so that a failed import
leaves the previous one as it was.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tautrait_core.errors import UpstreamImportError


@dataclass
class DomainImportReport:
    """What was imported for one domain: the folder it went to and what was skipped."""

    domain: str
    folder: Path
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What the user should know of what was imported (shown under the domain's line)."""


def check_something_imported(
    folder: Path,
    reports: Sequence[DomainImportReport],
    imported: Callable[[DomainImportReport], bool],
) -> None:
    """Refuse an import of ``folder`` in which no domain's report is ``imported``.

    Raises:
        UpstreamImportError: there are reports and none imported anything; the message is
            the one problem alone, or every problem after ``FOLDER: nothing imported:``.
    """
    if not reports or any(imported(report) for report in reports):
        return
    problems = [problem for report in reports for problem in report.problems]
    if len(problems) == 1:
        raise UpstreamImportError(problems[0])
    raise UpstreamImportError(f"{folder}: nothing imported: " + "; ".join(problems))


def find_domains_folder(
    candidates: Iterable[Path], holds_domains: Callable[[Path], bool], not_found: str
) -> Path:
    """The first of ``candidates`` that is a folder and ``holds_domains``.

    Raises:
        UpstreamImportError: none is (with the message ``not_found``).
    """
    for candidate in candidates:
        if candidate.is_dir() and holds_domains(candidate):
            return candidate
    raise UpstreamImportError(not_found)


@contextmanager
def staging_folder(destination: Path) -> Iterator[Path]:
    """A new empty folder beside ``destination`` to build its new content in; it is removed
    on leaving unless :func:`replace_folder` has put it in place of ``destination``."""
    staging = Path(tempfile.mkdtemp(prefix=f".{destination.name}-", dir=destination.parent))
    try:
        yield staging
    finally:
        if staging.exists():
            shutil.rmtree(staging)


def replace_folder(staging: Path, destination: Path) -> None:
    """Put the folder ``staging`` in place of ``destination`` (removing what was there)."""
    if destination.exists():
        shutil.rmtree(destination)
    staging.rename(destination)

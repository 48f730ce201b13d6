"""``tautrait import tau-trait PATH``: bring an upstream checkout's task sets and data in.

The upstream task files are parsed without executing them (see :mod:`.task_files`); each
domain's ``data/*.json`` files are copied, checked by loading them through the domain's
upstream codec, and stored under the data directory, where they show up as task sets
``tau-trait:<split>``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tautrait_core.compat.import_folders import (
    DomainImportReport,
    check_something_imported,
    find_domains_folder,
    replace_folder,
    staging_folder,
)
from tautrait_core.compat.regular_files import check_regular, copy_file
from tautrait_core.compat.task_files import read_task_file
from tautrait_core.domain.domain import Domain, UpstreamFormat
from tautrait_core.domain.task_sets import UPSTREAM_SOURCE
from tautrait_core.errors import TaskSetError, UpstreamImportError
from tautrait_core.paths import imports_dir

SPLITS = ("test", "train", "dev")

DATA_FIX = "restore it from a fresh clone of tau-trait and import again"
"""What to do about a data file of the checkout that cannot be read or loaded."""


@dataclass
class DomainImport(DomainImportReport):
    """What was imported for one domain."""

    splits: dict[str, int] = field(default_factory=dict)
    data_files: list[str] = field(default_factory=list)


def find_envs_dir(checkout: Path) -> Path:
    """The folder holding one sub-folder per upstream domain (``tau_trait/envs``)."""
    return find_domains_folder(
        (checkout / "tau_trait" / "envs", checkout / "envs", checkout),
        lambda folder: any((folder / d / "data").is_dir() for d in _subdirs(folder)),
        f"{checkout} does not look like a tau-trait checkout: expected tau_trait/envs/<domain>/"
        "data/ folders. Clone https://github.com/collinear-ai/tau-trait and pass its root folder.",
    )


def _subdirs(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.is_dir()]


def import_domain(source: Path, domain: Domain, destination: Path) -> DomainImport:
    """Import one domain's task files and data from ``source`` into ``destination``."""
    codec = domain.upstream
    assert codec is not None
    report = DomainImport(domain=domain.name, folder=destination)
    with staging_folder(destination) as staging:
        data_source = source / "data"
        (staging / "data").mkdir()
        data_files = sorted(data_source.glob("*.json"))
        check_regular(data_files, data_source)
        check_regular(sorted(source.glob("tasks_*.py")), source)
        for path in data_files:
            if not path.is_file():
                report.problems.append(f"{path}: skipped, not a regular file")
                continue
            copy_file(path, staging / "data" / path.name)
            report.data_files.append(path.name)
        rows = _load_rows(codec, data_source, domain.name)
        if not rows:
            raise UpstreamImportError(f"{data_source}: no {domain.name} data found; {DATA_FIX}")
        for split in SPLITS:
            task_file = source / f"tasks_{split}.py"
            if not task_file.is_file():
                if task_file.exists():
                    report.problems.append(f"{task_file}: skipped, not a regular file")
                continue
            try:
                read = read_task_file(task_file)
            except TaskSetError as exc:
                report.problems.append(str(exc))
                continue
            report.problems.extend(read.skipped)
            tasks = read.tasks
            if not tasks:
                continue
            (staging / f"tasks_{split}.json").write_text(
                json.dumps([task.model_dump() for task in tasks], indent=1)
            )
            report.splits[split] = len(tasks)
        if not report.splits:
            raise UpstreamImportError(
                f"{source}: no readable tasks_test/train/dev.py files for {domain.name}"
                + (": " + "; ".join(report.problems) if report.problems else "")
            )
        replace_folder(staging, destination)
    return report


def _load_rows(codec: UpstreamFormat, data_source: Path, domain: str) -> list[Any]:
    """The table rows of the checkout's data folder ``data_source``, read where the user
    keeps it, so that an error names the user's file (never the copy being built).

    Raises:
        UpstreamImportError: a file is missing or unreadable, or the data does not load.
    """
    try:
        data = codec.read_data(data_source)
    except Exception as exc:
        raise UpstreamImportError(_load_problem(exc, data_source, domain, "read")) from exc
    try:
        return list(codec.to_rows(data))
    except Exception as exc:
        raise UpstreamImportError(_load_problem(exc, data_source, domain, "loaded")) from exc


def _load_problem(exc: Exception, data_source: Path, domain: str, failed: str) -> str:
    """One line for a failure to read or load the data: the codec's own message when it
    names a file of ``data_source`` (as
    :func:`~tautrait_core.compat.data_files.read_collections` does), else one naming
    the folder; either way on one line, with what to do."""
    if isinstance(exc, OSError | ValueError) and str(data_source) in str(exc):
        return f"{exc}; {DATA_FIX}"
    detail = " ".join(str(exc).split())  # a multi-line message (pydantic's) on one line
    return (
        f"{data_source}: the {domain} data could not be {failed} "
        f"({type(exc).__name__}: {detail}); {DATA_FIX}"
    )


def import_tau_trait(checkout: Path, domains: list[Domain]) -> list[DomainImport]:
    """Import every installed domain that the checkout has (and that can read upstream data)."""
    envs = find_envs_dir(checkout.expanduser().resolve())
    target = imports_dir(UPSTREAM_SOURCE)
    target.mkdir(parents=True, exist_ok=True)
    reports = []
    for domain in sorted(domains, key=lambda d: d.name):
        source = envs / domain.name
        if domain.upstream is None or not (source / "data").is_dir():
            continue
        try:
            reports.append(import_domain(source, domain, target / domain.name))
        except UpstreamImportError as exc:  # reported alone; the next domain goes on
            reports.append(DomainImport(domain.name, target / domain.name, problems=[str(exc)]))
    check_something_imported(envs, reports, lambda report: bool(report.splits))
    if not reports:
        available = ", ".join(sorted(_subdirs(envs)))
        installed = ", ".join(sorted(d.name for d in domains)) or "none"
        raise UpstreamImportError(
            f"nothing to import: the checkout has domains [{available}], installed domains with "
            f"upstream support are [{installed}]. Install a domain plugin first, "
            "e.g. pip install tautrait-telehealth"
        )
    return reports

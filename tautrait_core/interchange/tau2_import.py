"""``tautrait import tau2 PATH``: bring a τ²-bench checkout's domains in.

For each τ² domain the checkout has (``data/tau2/domains/<domain>/``: mock, airline, retail,
telecom) the data, policy and task files are copied as they are under the data directory
(regular files only, see :mod:`~tautrait_core.compat.regular_files`; the databases must
parse and task ids be unique, see :mod:`~tautrait_core.compat.import_checks`; a domain that
fails is reported and the others imported), and every task file is parsed (never executed)
into tautrait tasks, stored as ``task_sets/<name>.json``. They show up as task sets
``tau2:<name>`` of the domains ``tau2-<domain>`` (``tau2:telecom``, ``tau2:telecom-small``,
``tau2:airline``, ...), which read their database and policy from the copied files.


A τ³ checkout (τ²-bench v1.x: ``split_tasks.json`` beside the task files, or a ``tasks/``
folder of one-task files) is recognised as such: its task sets follow τ³'s rules
(:attr:`TaskSet.rules`), carry its splits (``tau2:retail/test``), and are read the way τ³
reads them (``tasks.json`` or ``tasks/task_*.json``; the ``tasks_<size>.json`` files it no
longer reads are left out). Its ``banking_knowledge`` domain is copied too; it runs on
the domain ``tau2-banking_knowledge`` of the tautrait-banking plugin.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from tautrait_core.compat.import_checks import check_data_file, check_task_ids
from tautrait_core.compat.import_folders import (
    DomainImportReport,
    check_something_imported,
    find_domains_folder,
    replace_folder,
    staging_folder,
)
from tautrait_core.compat.regular_files import copy_folder
from tautrait_core.compat.tau2.tasks import (
    read_split_file,
    read_tau2_tasks,
    read_tau3_task_folder,
)
from tautrait_core.domain.task_sets import (
    TAU2_MANIFEST,
    TAU2_SOURCE,
    count_in_splits,
    tau2_task_set_name,
)
from tautrait_core.errors import TaskSetError, UpstreamImportError
from tautrait_core.paths import imports_dir

TAU2_DOMAINS = ("mock", "airline", "retail", "telecom")
"""The τ²-bench domains tautrait can run."""

TAU3_DOMAINS = (*TAU2_DOMAINS, "banking_knowledge")
"""The domains of a τ³ checkout (τ²-bench v1.x) tautrait imports."""

DATA_FILES = {
    "mock": "db.json",
    "airline": "db.json",
    "retail": "db.json",
    "telecom": "db.toml",
    "banking_knowledge": "db.json",
}
"""The file holding each domain's (agent-side) database."""

SPLIT_FILE = "split_tasks.json"
"""τ³'s file of named task subsets, beside a domain's ``tasks.json``."""

BANKING_PLUGIN_HINT = "copied; run it after: pip install tautrait-banking"

AIRLINE_DB_FIX = (
    "the checkout has no data/tau2/domains/airline/db.json (τ²-bench's airline database). "
    "Restore it from a full clone (git checkout data/tau2/domains/airline/db.json), or rebuild "
    "it from τ-bench's airline flights.json, reservations.json and users.json with a "
    '"user_id" field added to every user record (the recipe of the τ²-bench reference '
    "material: python tools/make_airline_db.py CHECKOUT/data/tau2/domains/airline/db.json), "
    "then import again"
)

DATA_FIX = "restore it from a fresh clone of τ²-bench and import again"
"""What to do about a database file of the checkout that cannot be read."""


@dataclass
class Tau2Import(DomainImportReport):
    """What was imported for one τ² domain."""

    task_sets: dict[str, int] = field(default_factory=dict)
    splits: dict[str, dict[str, int]] = field(default_factory=dict)
    """Each task set's splits and their sizes (τ³ checkouts)."""
    rules: str = "tau2"
    """Whose rules the task sets follow: ``"tau2"`` (the fork) or ``"tau3"``."""


def find_domains_dir(checkout: Path) -> Path:
    """The checkout's folder of τ² domains (``data/tau2/domains``)."""
    return find_domains_folder(
        (checkout / "data" / "tau2" / "domains", checkout / "domains", checkout),
        lambda folder: (
            any(any((folder / name).glob("tasks*.json")) for name in TAU3_DOMAINS)
            or (folder / "banking_knowledge" / "tasks").is_dir()
        ),
        f"{checkout} does not look like a τ²-bench checkout: expected "
        "data/tau2/domains/<domain>/tasks.json (domains mock, airline, retail, telecom). "
        "Clone https://github.com/sierra-research/tau2-bench and pass its root folder.",
    )


def import_tau2(checkout: Path) -> list[Tau2Import]:
    """Import every τ² domain of ``checkout``; a domain that cannot be imported is reported
    in its :attr:`Tau2Import.problems` and left as it was.

    Raises:
        UpstreamImportError: not a checkout, or no domain could be imported.
    """
    domains_dir = find_domains_dir(checkout.expanduser().resolve())
    tau3 = is_tau3_checkout(domains_dir)
    target = imports_dir(TAU2_SOURCE)
    target.mkdir(parents=True, exist_ok=True)
    reports = []
    for domain in TAU3_DOMAINS if tau3 else TAU2_DOMAINS:
        source = domains_dir / domain
        if source.is_dir():
            try:
                reports.append(_import_domain(source, domain, target / domain, tau3))
            except UpstreamImportError as exc:  # reported alone; the next domain goes on
                rules = "tau3" if tau3 else "tau2"
                failed = Tau2Import(domain, target / domain, problems=[str(exc)], rules=rules)
                reports.append(failed)
    check_something_imported(domains_dir, reports, lambda report: bool(report.task_sets))
    return reports


def is_tau3_checkout(domains_dir: Path) -> bool:
    """Whether the folder of domains is a τ³ checkout's (τ²-bench v1.x): a domain with
    ``split_tasks.json``, or one whose tasks are a ``tasks/`` folder."""
    return any(
        (domains_dir / name / SPLIT_FILE).is_file() or (domains_dir / name / "tasks").is_dir()
        for name in TAU3_DOMAINS
    )


def _task_files(source: Path, tau3: bool) -> list[Path]:
    """The task files a checkout's domain is read from: every ``tasks*.json`` of the fork;
    τ³'s ``tasks/`` folder, else its ``tasks.json`` (the only file τ³ reads)."""
    if not tau3:
        return sorted(source.glob("tasks*.json"))
    if (source / "tasks").is_dir():
        return [source / "tasks"]
    return [path for path in [source / "tasks.json"] if path.is_file()]


def _import_domain(source: Path, domain: str, destination: Path, tau3: bool) -> Tau2Import:
    report = Tau2Import(domain=domain, folder=destination, rules="tau3" if tau3 else "tau2")
    data_file = source / DATA_FILES[domain]
    if not data_file.is_file():
        report.problems.append(
            AIRLINE_DB_FIX if domain == "airline" else f"{data_file} is missing; {domain} skipped"
        )
        return report
    with staging_folder(destination) as staging:
        copy_folder(source, staging)
        for path in sorted({data_file, *source.glob("*.toml")}):
            check_data_file(path, f"the {domain} database", DATA_FIX)
        (staging / "task_sets").mkdir()
        splits = _read_splits(source, report) if tau3 else {}
        manifest: dict[str, dict] = {}
        for path in _task_files(source, tau3):
            name = tau2_task_set_name(domain, path.stem)
            try:
                tasks = read_tau3_task_folder(path) if path.is_dir() else read_tau2_tasks(path)
                check_task_ids(tasks, path)
            except TaskSetError as exc:
                report.problems.append(str(exc))
                continue
            dumped = [task.model_dump(mode="json") for task in tasks]
            (staging / "task_sets" / f"{name}.json").write_text(json.dumps(dumped, indent=1))
            full_name = f"{TAU2_SOURCE}:{name}"
            report.task_sets[full_name] = len(tasks)
            manifest[name] = {"rules": report.rules, "splits": splits}
            if splits:
                report.splits[full_name] = count_in_splits([task.id for task in tasks], splits)
        (staging / "task_sets" / TAU2_MANIFEST).write_text(json.dumps(manifest, indent=1))
        if report.task_sets:
            replace_folder(staging, destination)
    if domain == "banking_knowledge" and report.task_sets and not _banking_installed():
        report.notes.append(BANKING_PLUGIN_HINT)
    return report


def _read_splits(source: Path, report: Tau2Import) -> dict[str, list[str]]:
    path = source / SPLIT_FILE
    if not path.is_file():
        return {}
    try:
        return read_split_file(path)
    except TaskSetError as exc:
        report.problems.append(f"{exc}; splits left out")
        return {}


def _banking_installed() -> bool:
    """Whether a plugin provides τ³'s banking domain (``tau2-banking_knowledge``)."""
    from tautrait_core.plugins import get_plugin_manager

    return f"{TAU2_SOURCE}-banking_knowledge" in get_plugin_manager().names("domain")

"""``tautrait import tau2 PATH``: bring a τ²-bench checkout's domains in.

For each τ² domain the checkout has (``data/tau2/domains/<domain>/``: mock, airline, retail,
telecom) the data, policy and task files are copied as they are under the data directory
(regular files only, see :mod:`~tautrait_core.compat.regular_files`; the databases must
parse and task ids be unique, see :mod:`~tautrait_core.compat.import_checks`; a domain that
fails is reported and the others imported), and every task file is parsed (never executed)
into tautrait tasks, stored as ``task_sets/<name>.json``. They show up as task sets
``tau2:<name>`` of the domains ``tau2-<domain>`` (``tau2:telecom``, ``tau2:telecom-small``,
``tau2:airline``, ...), which read their database and policy from the copied files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from tautrait_core.compat.import_checks import check_data_file, check_task_ids
from tautrait_core.compat.import_folders import (
    DomainImportReport,
    find_domains_folder,
    replace_folder,
    staging_folder,
)
from tautrait_core.compat.regular_files import copy_folder
from tautrait_core.compat.tau2.tasks import read_tau2_tasks
from tautrait_core.domain.task_sets import TAU2_SOURCE, tau2_task_set_name
from tautrait_core.errors import TaskSetError, UpstreamImportError
from tautrait_core.paths import imports_dir

TAU2_DOMAINS = ("mock", "airline", "retail", "telecom")
"""The τ²-bench domains tautrait can run."""

DATA_FILES = {"mock": "db.json", "airline": "db.json", "retail": "db.json", "telecom": "db.toml"}
"""The file holding each domain's (agent-side) database."""

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


def find_domains_dir(checkout: Path) -> Path:
    """The checkout's folder of τ² domains (``data/tau2/domains``)."""
    return find_domains_folder(
        (checkout / "data" / "tau2" / "domains", checkout / "domains", checkout),
        lambda folder: any(any((folder / name).glob("tasks*.json")) for name in TAU2_DOMAINS),
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
    target = imports_dir(TAU2_SOURCE)
    target.mkdir(parents=True, exist_ok=True)
    reports = []
    for domain in TAU2_DOMAINS:
        source = domains_dir / domain
        if source.is_dir():
            try:
                reports.append(_import_domain(source, domain, target / domain))
            except UpstreamImportError as exc:  # reported alone; the next domain goes on
                reports.append(Tau2Import(domain, target / domain, problems=[str(exc)]))
    if not any(report.task_sets for report in reports):
        problems = [p for report in reports for p in report.problems]
        raise UpstreamImportError(
            problems[0]
            if len(problems) == 1
            else f"{domains_dir}: nothing imported: " + "; ".join(problems)
        )
    return reports


def _import_domain(source: Path, domain: str, destination: Path) -> Tau2Import:
    report = Tau2Import(domain=domain, folder=destination)
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
        for path in sorted(source.glob("tasks*.json")):
            name = tau2_task_set_name(domain, path.stem)
            try:
                tasks = read_tau2_tasks(path)
                check_task_ids(tasks, path)
            except TaskSetError as exc:
                report.problems.append(str(exc))
                continue
            dumped = [task.model_dump(mode="json") for task in tasks]
            (staging / "task_sets" / f"{name}.json").write_text(json.dumps(dumped, indent=1))
            report.task_sets[f"{TAU2_SOURCE}:{name}"] = len(tasks)
        if report.task_sets:
            replace_folder(staging, destination)
    return report

"""Assembles the telehealth domain: policy, tables, built-in data, tools and task sets."""

from __future__ import annotations

from pathlib import Path

from sqlmodel import SQLModel

from tautrait_core import Domain, Task, TaskSet
from tautrait_telehealth.schema import TABLES, Patient
from tautrait_telehealth.tools import ALL_TOOLS, WRITE_TOOLS
from tautrait_telehealth.upstream import TelehealthUpstream

PACKAGE = Path(__file__).parent
DATA_DIR = PACKAGE / "data"
TASKS_DIR = PACKAGE / "tasks"

ERROR_MARKERS = (
    r"^(Patient|Provider|Appointment|Medical record) with ID .* not found\.$",
    r"^No patient found with ",
    r"^No (appointments|medical records?) found for ",
    r"^No providers found",
    r"^No (supplier information found for|suppliers in) ",
    r"^No telemetry (devices with status|uploads? found for device) ",
    r"^Telemetry inventory is empty\.$",
    r"^No regimen optimization data available ",
    r"^Provider \S+ (does not work on|is not available at|already has an appointment) ",
    r"^Invalid date format: ",
    r"^Cannot (cancel|reschedule) appointment ",
    r"^Appointment \S+ is already cancelled\.$",
    r"^Please provide a record_id or appointment_id",
)
"""Observations that report a failed call although they do not start with ``Error``."""


def seed_rows() -> list[SQLModel]:
    """The rows of the built-in database (``data/*.json``, in the upstream shape)."""
    codec = TelehealthUpstream()
    return codec.to_rows(codec.read_data(DATA_DIR))


def load_tasks(split: str = "test") -> list[Task]:
    """The built-in tasks of ``tasks/<split>.json``."""
    return Task.list_from_file(TASKS_DIR / f"{split}.json")


def build_domain() -> Domain:
    """The telehealth domain, as registered by the plugin hook."""
    return Domain(
        name="telehealth",
        description="telehealth clinic support: patients, appointments, records, pharmacy",
        policy=(PACKAGE / "policy.md").read_text(encoding="utf-8"),
        tables=TABLES,
        seed_data=seed_rows,
        tools=ALL_TOOLS,
        task_sets={
            "test": TaskSet(
                name="test",
                load_tasks=load_tasks,
                description="telehealth tasks written for tautrait",
            )
        },
        default_task_set="test",
        terminating_tools=["transfer_to_human_support"],
        upstream=TelehealthUpstream(),
        user_table=Patient,
        write_tools=WRITE_TOOLS,
        error_markers=ERROR_MARKERS,
    )

"""Assembles the telehealth domain: policy, tables, built-in data, tools and task sets."""

from __future__ import annotations

from pathlib import Path

from tautrait_core import Domain, DomainLayout
from tautrait_telehealth.schema import TABLES, Patient
from tautrait_telehealth.tools import ALL_TOOLS
from tautrait_telehealth.upstream import TelehealthUpstream

LAYOUT = DomainLayout(Path(__file__).parent, TelehealthUpstream())
DATA_DIR = LAYOUT.data_dir
load_tasks = LAYOUT.load_tasks

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


def build_domain() -> Domain:
    """The telehealth domain, as registered by the plugin hook."""
    return LAYOUT.domain(
        "telehealth",
        description="telehealth clinic support: patients, appointments, records, pharmacy",
        tables=TABLES,
        tools=ALL_TOOLS,
        user_table=Patient,
        terminating_tools=["transfer_to_human_support"],
        error_markers=ERROR_MARKERS,
    )

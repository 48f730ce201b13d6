"""Medical records: reading visit notes, listing a patient's records, adding staff notes."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from tautrait_core import EpisodeDB, tool
from tautrait_telehealth.rows import RowView, view, views
from tautrait_telehealth.schema import Appointment, MedicalRecord, Patient, Provider
from tautrait_telehealth.tools.display import full_name

SOAP_SECTIONS = ("subjective", "objective", "assessment", "plan")


@tool
def get_medical_record(
    db: EpisodeDB, record_id: str | None = None, appointment_id: str | None = None
) -> str:
    """Show a medical record (visit note): patient, provider, related appointment, date,
    type, the subjective/objective/assessment/plan sections and recommendations. Give
    the record id, or the appointment id to find that visit's record.

    Args:
        record_id: The record id, e.g. 'REC014'. Takes precedence over appointment_id.
        appointment_id: The id of the appointment whose record to show.
    """
    if not record_id and not appointment_id:
        return "Please provide a record_id or appointment_id to look up the medical record."
    if record_id:
        record = view(db, MedicalRecord, record_id)
        if record is None:
            return f"Medical record with ID {record_id} not found."
    else:
        found = views(db, MedicalRecord, '"appointment_id" = ?', (appointment_id,))
        record = found[0] if found else None
        if record is None:
            return f"No medical record found for appointment ID {appointment_id}."
    patient = view(db, Patient, record.patient_id)
    provider = view(db, Provider, record.provider_id)
    lines = [
        f"Medical Record (ID: {record.record_id})",
        f"Patient: {_patient_name(patient)} (ID: {record.patient_id})",
        f"Provider: {_provider_name(provider)} (ID: {record.provider_id})",
    ]
    appointment = view(db, Appointment, record.appointment_id) if record.appointment_id else None
    if appointment is not None:
        lines.append(
            f"Related Appointment: {appointment.appointment_id} on {appointment.date} "
            f"at {appointment.time}"
        )
    lines += [f"Date: {record.date}", f"Type: {record.type}"]
    for section in SOAP_SECTIONS:
        if record.has_field(section):
            lines.append(f"{section.title()}: {getattr(record, section)}")
    if record.recommendations:
        lines.append("Recommendations:")
        lines += [f"- {item}" for item in record.recommendations]
    return "\n".join(lines)


@tool
def list_patient_medical_records(db: EpisodeDB, patient_id: str, limit: int | None = None) -> str:
    """List a patient's medical records, newest first, with date, appointment and the
    medications prescribed in each.

    Args:
        patient_id: The patient id.
        limit: Show at most this many records (all when left out).
    """
    records = views(db, MedicalRecord, '"patient_id" = ?', (patient_id,))
    if not records:
        return f"No medical records found for patient {patient_id}."
    records.sort(key=lambda r: dt.datetime.strptime(r.date, "%Y-%m-%d"), reverse=True)
    if limit and limit > 0:
        records = records[:limit]
    lines = ["Medical records (newest first):"]
    for record in records:
        medications = ", ".join(p["medication"] for p in record.prescriptions or [])
        lines.append(
            f"record_id={record.record_id} | date={record.date} | "
            f"appointment_id={record.appointment_id} | "
            f"medications={medications or 'None recorded'}"
        )
    return "\n".join(lines)


@tool(writes=True)
def update_medical_record_note(
    db: EpisodeDB, record_id: str, note: str, metadata: dict[str, Any] | None = None
) -> str:
    """Append a note to a medical record's notes (e.g. a documented patient update or a
    completed checklist) and return the updated record as JSON.

    Args:
        record_id: The record id, e.g. 'REC014'.
        note: The text of the note.
        metadata: Optional structured details stored with the note.
    """
    record = view(db, MedicalRecord, record_id)
    if record is None:
        return f"Error: medical record {record_id} not found"
    entry: dict[str, Any] = {"note": note}
    if metadata:
        entry["metadata"] = metadata
    notes = record.notes if record.has_field("notes") else []
    record.set_field("notes", [*notes, entry])
    db.update_row(MedicalRecord, record_id, record.changes())
    return json.dumps(record.to_record())


def _patient_name(patient: RowView | None) -> str:
    if patient is None:
        return "Unknown Patient"
    return full_name(patient.name)


def _provider_name(provider: RowView | None) -> str:
    """Title, first and last name, skipping the parts a provider lacks."""
    name = (provider.name if provider else None) or {}
    parts = [name.get(part) for part in ("title", "first_name", "last_name")]
    return " ".join(part for part in parts if part) or "Unknown Provider"

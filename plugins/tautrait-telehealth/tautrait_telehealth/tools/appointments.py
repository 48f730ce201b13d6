"""Reading appointments: one appointment's details and a patient's list of appointments."""

from __future__ import annotations

import datetime as dt

from tautrait_core import EpisodeDB, tool
from tautrait_telehealth.rows import RowView, view, views
from tautrait_telehealth.schema import Appointment, Patient, Provider
from tautrait_telehealth.tools.display import full_name, provider_prefix, title_case


@tool
def get_appointment_details(db: EpisodeDB, appointment_id: str) -> str:
    """Show one appointment: patient, provider, date and time, type and status, chief
    complaint and notes, insurance authorization and copay, and the video meeting link
    (plus any prescription, referral or cancellation details).

    Args:
        appointment_id: The appointment id, e.g. 'APPT012'.
    """
    appointment = view(db, Appointment, appointment_id)
    if appointment is None:
        return f"Appointment with ID {appointment_id} not found."
    record = appointment.to_record()
    patient = view(db, Patient, record["patient_id"])
    patient_name = (patient.name if patient else None) or {}
    provider = view(db, Provider, record["provider_id"])
    provider_name = (provider.name if provider else None) or {}
    specialty = provider.specialty if provider and provider.has_field("specialty") else "Unknown"
    lines = [
        f"Appointment Details (ID: {appointment_id})",
        "",
        f"Patient: {patient_name.get('first_name', 'Unknown')} "
        f"{patient_name.get('last_name', 'Patient')} (ID: {record['patient_id']})",
        f"Provider: Dr. {provider_name.get('last_name', 'Unknown Provider')} - {specialty} "
        f"(ID: {record['provider_id']})",
        "",
        "Appointment Information:",
        f"- Date: {record['date']}",
        f"- Time: {record['time']}",
        f"- Duration: {record['duration_minutes']} minutes",
        f"- Type: {title_case(record['type'])}",
        f"- Status: {title_case(record['status'])}",
        "",
        "Clinical Information:",
        f"- Chief Complaint: {record['chief_complaint']}",
        f"- Notes: {record['notes']}",
        "",
        "Billing Information:",
        f"- Insurance Authorization: {record['insurance_authorization']}",
        f"- Copay Amount: ${record['copay_amount']:.2f}",
        "",
        "Meeting Information:",
        f"- Meeting Link: {record['meeting_link']}",
    ]
    prescription = record.get("prescription_issued")
    if prescription:
        lines += [
            "",
            "Prescription Issued:",
            f"- {prescription['medication']} {prescription['dosage']} {prescription['frequency']}",
            f"- Quantity: {prescription['quantity']}, Refills: {prescription['refills']}",
        ]
    if record.get("referral_from"):
        lines += ["", f"Referral from: {record['referral_from']}"]
    if record.get("cancellation_reason"):
        lines += [
            "",
            "Cancellation Details:",
            f"- Reason: {title_case(record['cancellation_reason'])}",
            f"- Date: {record.get('cancellation_date')}",
        ]
    return "\n".join(lines)


@tool
def list_patient_appointments(
    db: EpisodeDB, patient_id: str, status_filter: str | None = None
) -> str:
    """List a patient's appointments in date order with provider, status and type.

    Args:
        patient_id: The patient id.
        status_filter: Only appointments with this status: 'scheduled',
            'pending_approval', 'completed' or 'cancelled' (any case); leave it out for all.
    """
    patient = view(db, Patient, patient_id)
    if patient is None:
        return f"Patient with ID {patient_id} not found."
    appointments = [
        a
        for a in views(db, Appointment, '"patient_id" = ?', (patient_id,))
        if not status_filter or a.status.lower() == status_filter.lower()
    ]
    if not appointments:
        if status_filter:
            return f"No appointments found for patient {patient_id} with status {status_filter}."
        return f"No appointments found for patient {patient_id}."
    appointments.sort(key=lambda a: (_starts_at(a), a.appointment_id))
    header = f"Appointments for {full_name(patient.name)} "
    header += f"(ID: {patient_id})" + (f" with status {status_filter}" if status_filter else "")
    lines = [header]
    for appointment in appointments:
        provider = view(db, Provider, appointment.provider_id)
        name = (provider.name if provider else None) or {}
        specialty = (provider.specialty if provider else None) or "Unknown Specialty"
        lines.append(
            f"- {appointment.appointment_id}: {appointment.date} at {appointment.time} with "
            f"{provider_prefix(name)} {name.get('last_name') or 'Unknown'} ({specialty}) "
            f"[{title_case(appointment.status)}, Type: {title_case(appointment.type)}]"
        )
    return "\n".join(lines)


def _starts_at(appointment: RowView) -> dt.datetime:
    """When the appointment starts; unparseable dates sort first."""
    try:
        return dt.datetime.strptime(f"{appointment.date} {appointment.time}", "%Y-%m-%d %H:%M")
    except ValueError:
        return dt.datetime.min

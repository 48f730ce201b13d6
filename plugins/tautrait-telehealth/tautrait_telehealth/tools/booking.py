"""Changing appointments: booking, cancelling and moving them."""

from __future__ import annotations

import datetime as dt

from tautrait_core import EpisodeDB, tool
from tautrait_telehealth.rows import RowView, view
from tautrait_telehealth.schema import Appointment, Patient, Provider
from tautrait_telehealth.tools.display import full_name, title_case

ACTIVE_STATUSES = ("scheduled", "pending_approval")
"""Statuses that hold a provider's time slot."""

MEETING_LINK = "https://telehealth.healthcenter.com/room/{appointment_id}"
NEW_APPOINTMENT_MINUTES = 30
_APPOINTMENTS = Appointment.__tablename__


@tool(writes=True)
def schedule_appointment(
    db: EpisodeDB,
    patient_id: str,
    provider_id: str,
    date: str,
    time: str,
    appointment_type: str,
    bill_insurance: bool = True,
    voucher_id: str | None = None,
    payment_notes: str | None = None,
) -> str:
    """Book a 30-minute video appointment for a patient in one of the provider's free
    weekly slots. By default the visit is billed to the patient's insurance (copay: the
    primary care copay for Primary Care providers, else the specialist copay); without
    insurance billing nothing is due today and a telehealth voucher may be applied.

    Args:
        patient_id: The patient id.
        provider_id: The provider id.
        date: The date as YYYY-MM-DD.
        time: The start time as HH:MM (24-hour), one of the provider's slots that day.
        appointment_type: The kind of visit, e.g. 'follow_up', 'sick_visit',
            'specialist_consultation'.
        bill_insurance: Whether to bill the patient's insurance (default true).
        voucher_id: A telehealth voucher code to apply when insurance is not billed.
        payment_notes: Billing notes to keep with the appointment.
    """
    patient = view(db, Patient, patient_id)
    if patient is None:
        return f"Patient with ID {patient_id} not found."
    provider = view(db, Provider, provider_id)
    if provider is None:
        return f"Provider with ID {provider_id} not found."
    problem = _slot_problem(db, provider, date, time)
    if problem:
        return problem
    number = _next_appointment_number(db)
    appointment_id = f"APPT{number:03d}"
    insurance = patient.insurance["primary"]
    copay_key = "copay_primary" if provider.specialty == "Primary Care" else "copay_specialist"
    if bill_insurance:
        payment_method = "insurance"
        voucher_id = None
        copay_amount = insurance[copay_key]
        authorization: str | None = f"AUTH{number:06d}"
    else:
        payment_method = "telehealth_voucher" if voucher_id else "self_pay"
        copay_amount = 0.0
        authorization = None
    record = {
        "appointment_id": appointment_id,
        "patient_id": patient_id,
        "provider_id": provider_id,
        "date": date,
        "time": time,
        "duration_minutes": NEW_APPOINTMENT_MINUTES,
        "type": appointment_type,
        "status": "scheduled",
        "notes": payment_notes or "",
        "insurance_authorization": authorization,
        "copay_amount": copay_amount,
        "meeting_link": MEETING_LINK.format(appointment_id=appointment_id),
        "payment_method": payment_method,
        "voucher_id": voucher_id,
        "insurance_billed": bool(bill_insurance),
    }
    ((last_position,),) = db.plain_select(f'SELECT MAX(position) FROM "{_APPOINTMENTS}"')
    position = 0 if last_position is None else last_position + 1
    columns = dict.fromkeys(Appointment.model_fields)
    db.insert_row(
        Appointment, {**columns, **record, "position": position, "field_order": list(record)}
    )
    lines = [
        "Appointment successfully scheduled!",
        "",
        f"Appointment ID: {appointment_id}",
        f"Patient: {full_name(patient.name)}",
        f"Provider: Dr. {provider.name['last_name']} - {provider.specialty}",
        f"Date: {date}",
        f"Time: {time}",
        f"Type: {title_case(appointment_type)}",
    ]
    if bill_insurance:
        lines += [f"Copay: ${copay_amount:.2f}", f"Insurance Authorization: {authorization}"]
    else:
        lines += ["Insurance Billing: Skipped", f"Payment Method: {title_case(payment_method)}"]
        if voucher_id:
            lines.append(f"Voucher Applied: {voucher_id}")
        lines.append("Amount Due Today: $0.00")
        if payment_notes:
            lines.append(f"Billing Notes: {payment_notes}")
    lines += [
        f"Meeting Link: {record['meeting_link']}",
        "",
        "Please save your appointment ID for future reference.",
    ]
    return "\n".join(lines)


def _open_appointment(
    db: EpisodeDB, appointment_id: str, change: str, when_cancelled: str
) -> RowView | str:
    """The appointment to ``change`` (cancel, reschedule), or the observation refusing it:
    ``when_cancelled`` for a cancelled one."""
    appointment = view(db, Appointment, appointment_id)
    if appointment is None:
        return f"Appointment with ID {appointment_id} not found."
    if appointment.status == "cancelled":
        return when_cancelled
    if appointment.status == "completed":
        return (
            f"Cannot {change} appointment {appointment_id} - "
            "appointment has already been completed."
        )
    return appointment


@tool(writes=True)
def cancel_appointment(db: EpisodeDB, appointment_id: str) -> str:
    """Cancel a patient's scheduled or pending appointment, recording a patient
    cancellation dated today. Completed or already cancelled appointments cannot be
    cancelled.

    Args:
        appointment_id: The appointment id, e.g. 'APPT012'.
    """
    appointment = _open_appointment(
        db, appointment_id, "cancel", f"Appointment {appointment_id} is already cancelled."
    )
    if isinstance(appointment, str):
        return appointment
    provider = view(db, Provider, appointment.provider_id)
    today = db.today.isoformat()
    details = [
        f"Original Date/Time: {appointment.date} at {appointment.time}",
        "Cancellation Reason: Patient Cancelled",
        f"Cancellation Date: {today}",
        "",
        "The appointment slot is now available for other patients. If this was a patient "
        "cancellation, please remind them of the cancellation policy.",
    ]
    changes = {
        "status": "cancelled",
        "cancellation_reason": "patient_cancelled",
        "cancellation_date": today,
    }
    return _change_appointment(
        db, appointment, changes, "cancelled", provider.name["last_name"], details
    )


@tool(writes=True)
def reschedule_appointment(db: EpisodeDB, appointment_id: str, new_date: str, new_time: str) -> str:
    """Move a scheduled or pending appointment to another free slot of the same provider.
    Completed or cancelled appointments cannot be moved.

    Args:
        appointment_id: The appointment id, e.g. 'APPT012'.
        new_date: The new date as YYYY-MM-DD.
        new_time: The new start time as HH:MM (24-hour), one of the provider's slots.
    """
    appointment = _open_appointment(
        db,
        appointment_id,
        "reschedule",
        f"Cannot reschedule appointment {appointment_id} - appointment has been cancelled.",
    )
    if isinstance(appointment, str):
        return appointment
    provider = view(db, Provider, appointment.provider_id)
    problem = _slot_problem(db, provider, new_date, new_time, moving=appointment_id)
    if problem:
        return problem
    details = [
        "",
        f"Previous Date/Time: {appointment.date} at {appointment.time}",
        f"New Date/Time: {new_date} at {new_time}",
        "",
        f"Meeting Link: {appointment.field('meeting_link')}",
        "",
        "Please update your calendar with the new appointment time.",
    ]
    provider_name = f"{provider.name['last_name']} - {provider.specialty}"
    changes = {"date": new_date, "time": new_time}
    return _change_appointment(db, appointment, changes, "rescheduled", provider_name, details)


def _change_appointment(
    db: EpisodeDB,
    appointment: RowView,
    changes: dict[str, str],
    outcome: str,
    provider_name: str,
    details: list[str],
) -> str:
    """Store ``changes`` to ``appointment`` and confirm them: "Appointment successfully
    <outcome>." with the appointment, its patient and the provider (``provider_name``, as
    the confirmation names them), then ``details``."""
    patient = view(db, Patient, appointment.patient_id)
    for name, value in changes.items():
        appointment.set_field(name, value)
    db.update_row(Appointment, appointment.appointment_id, appointment.changes())
    return "\n".join(
        [
            f"Appointment successfully {outcome}.",
            "",
            f"Appointment ID: {appointment.appointment_id}",
            f"Patient: {full_name(patient.name)}",
            f"Provider: Dr. {provider_name}",
            *details,
        ]
    )


def _slot_problem(
    db: EpisodeDB, provider: RowView, date: str, time: str, moving: str | None = None
) -> str | None:
    """Why ``provider`` cannot see a patient at ``date`` ``time`` (``None``: the slot is
    free). ``moving`` is an appointment being rescheduled, which does not block itself."""
    try:
        weekday = dt.datetime.strptime(date, "%Y-%m-%d").strftime("%A")
    except ValueError:
        return f"Invalid date format: {date}. Please use YYYY-MM-DD format."
    schedule = provider.schedule
    if weekday.lower() not in schedule:
        return f"Provider {provider.provider_id} does not work on {weekday}."
    slots = schedule[weekday.lower()]
    if time not in slots:
        return (
            f"Provider {provider.provider_id} is not available at {time} on {weekday}. "
            f"Available times: {', '.join(slots) or 'None'}"
        )
    booked = db.plain_select(
        f'SELECT appointment_id FROM "{_APPOINTMENTS}" WHERE provider_id = ? AND date = ? '
        f"AND time = ? AND status IN ({', '.join('?' * len(ACTIVE_STATUSES))})",
        (provider.provider_id, date, time, *ACTIVE_STATUSES),
    )
    if any(found != moving for (found,) in booked):
        return (
            f"Provider {provider.provider_id} already has an appointment scheduled "
            f"at {time} on {date}."
        )
    return None


def _next_appointment_number(db: EpisodeDB) -> int:
    """One more than the largest number among ``APPT<digits>`` ids (1 if there are none)."""
    numbers = [
        int(found[4:])
        for (found,) in db.plain_select(f'SELECT appointment_id FROM "{_APPOINTMENTS}"')
        if found.startswith("APPT") and found[4:].isascii() and found[4:].isdigit()
    ]
    return max(numbers, default=0) + 1

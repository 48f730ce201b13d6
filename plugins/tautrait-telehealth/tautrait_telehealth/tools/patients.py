"""Identifying patients and showing their profile."""

from __future__ import annotations

from tautrait_core import EpisodeDB, tool
from tautrait_telehealth.rows import view, views
from tautrait_telehealth.schema import Patient
from tautrait_telehealth.tools.display import full_name


@tool
def find_patient_by_email(db: EpisodeDB, email: str) -> str:
    """Authenticate a patient by the email address on file and return their patient id.
    The address must match exactly, including upper and lower case.

    Args:
        email: The patient's email address, e.g. 'ana.lopez@example.org'.
    """
    found = db.plain_select(
        f'SELECT patient_id FROM "{Patient.__tablename__}" '
        """WHERE CAST(JSON_EXTRACT(demographics, '$."email"') AS VARCHAR) = ? """
        "ORDER BY position LIMIT 1",
        (email,),
    )
    if not found:
        return f"No patient found with email: {email}"
    return found[0][0]


@tool
def find_patient_by_name_dob(
    db: EpisodeDB, first_name: str, last_name: str, date_of_birth: str
) -> str:
    """Authenticate a patient by full name and date of birth and return their patient id.
    Names are compared without regard to case.

    Args:
        first_name: The patient's first name.
        last_name: The patient's last name.
        date_of_birth: The date of birth as YYYY-MM-DD, e.g. '1984-02-29'.
    """
    patients = views(db, Patient)
    for patient in patients:
        if (
            patient.name["first_name"].lower() == first_name.lower()
            and patient.name["last_name"].lower() == last_name.lower()
            and patient.demographics["date_of_birth"] == date_of_birth
        ):
            return patient.patient_id
    return f"No patient found with name: {first_name} {last_name} and DOB: {date_of_birth}"


@tool
def get_patient_details(db: EpisodeDB, patient_id: str) -> str:
    """Show a patient's profile: demographics, address, insurance and copays, conditions,
    allergies, current medications and emergency contact.

    Args:
        patient_id: The patient id, e.g. 'ana_lopez_1024'.
    """
    patient = view(db, Patient, patient_id)
    if patient is None:
        return f"Patient with ID {patient_id} not found."
    name, demographics, address = patient.name, patient.demographics, patient.address
    insurance = patient.insurance["primary"]
    history, contact = patient.medical_history, patient.emergency_contact
    medications = ", ".join(
        f"{m['name']} {m['dosage']} {m['frequency']}" for m in history["medications"]
    )
    return "\n".join(
        [
            f"Patient Details for {full_name(name)} (ID: {patient_id})",
            "",
            "Demographics:",
            f"- Date of Birth: {demographics['date_of_birth']}",
            f"- Gender: {demographics['gender']}",
            f"- Phone: {demographics['phone']}",
            f"- Email: {demographics['email']}",
            "",
            "Address:",
            f"- {address['address1']}",
            f"- {address['address2']}",
            f"- {address['city']}, {address['state']} {address['zip']}",
            f"- {address['country']}",
            "",
            "Insurance:",
            f"- Provider: {insurance['provider']}",
            f"- Policy Number: {insurance['policy_number']}",
            f"- Primary Care Copay: ${insurance['copay_primary']:.2f}",
            f"- Specialist Copay: ${insurance['copay_specialist']:.2f}",
            "",
            "Medical History:",
            f"- Conditions: {', '.join(history['conditions']) or 'None'}",
            f"- Allergies: {', '.join(history['allergies']) or 'None'}",
            f"- Current Medications: {medications or 'None'}",
            "",
            "Emergency Contact:",
            f"- {contact['name']} ({contact['relationship']})",
            f"- Phone: {contact['phone']}",
        ]
    )

"""The telehealth tools, in the order the model sees them (upstream's ALL_TOOLS order)."""

from __future__ import annotations

from tautrait_core import Tool, calculate, think
from tautrait_telehealth.tools.appointments import (
    get_appointment_details,
    list_patient_appointments,
)
from tautrait_telehealth.tools.booking import (
    cancel_appointment,
    reschedule_appointment,
    schedule_appointment,
)
from tautrait_telehealth.tools.patients import (
    find_patient_by_email,
    find_patient_by_name_dob,
    get_patient_details,
)
from tautrait_telehealth.tools.pharmacy import (
    check_drug_interactions,
    get_regimen_options,
    list_medication_suppliers,
    update_prescription_supplier,
)
from tautrait_telehealth.tools.providers import get_provider_details, list_available_providers
from tautrait_telehealth.tools.records import (
    get_medical_record,
    list_patient_medical_records,
    update_medical_record_note,
)
from tautrait_telehealth.tools.support import transfer_to_human_support
from tautrait_telehealth.tools.telemetry import (
    get_telemetry_upload,
    list_telemetry_devices,
    list_telemetry_uploads,
)

ALL_TOOLS: list[Tool] = [
    find_patient_by_email,
    find_patient_by_name_dob,
    get_patient_details,
    get_appointment_details,
    get_provider_details,
    get_medical_record,
    get_regimen_options,
    list_patient_medical_records,
    list_available_providers,
    list_patient_appointments,
    list_medication_suppliers,
    list_telemetry_uploads,
    check_drug_interactions,
    schedule_appointment,
    cancel_appointment,
    reschedule_appointment,
    calculate,
    think,
    transfer_to_human_support,
    update_prescription_supplier,
    list_telemetry_devices,
    get_telemetry_upload,
    update_medical_record_note,
]

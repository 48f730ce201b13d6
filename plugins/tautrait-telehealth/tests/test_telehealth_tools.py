"""The tools on the built-in data: schemas, argument checks and the documented behaviours."""

from __future__ import annotations

import json

import pytest
from tautrait_telehealth.schema import Appointment, MedicalRecord
from tautrait_telehealth.tools import ALL_TOOLS

from tautrait_core import Domain, EpisodeDB

UPSTREAM_TOOL_ORDER = [
    "find_patient_by_email",
    "find_patient_by_name_dob",
    "get_patient_details",
    "get_appointment_details",
    "get_provider_details",
    "get_medical_record",
    "get_regimen_options",
    "list_patient_medical_records",
    "list_available_providers",
    "list_patient_appointments",
    "list_medication_suppliers",
    "list_telemetry_uploads",
    "check_drug_interactions",
    "schedule_appointment",
    "cancel_appointment",
    "reschedule_appointment",
    "calculate",
    "think",
    "transfer_to_human_support",
    "update_prescription_supplier",
    "list_telemetry_devices",
    "get_telemetry_upload",
    "update_medical_record_note",
]
JSON_SCHEMA_TYPES = {"string", "integer", "number", "boolean", "array", "object"}


def test_tools_come_in_upstream_order(domain: Domain) -> None:
    assert [tool.name for tool in domain.tools] == UPSTREAM_TOOL_ORDER
    assert domain.terminating_tools == ["transfer_to_human_support"]


@pytest.mark.parametrize("tool", ALL_TOOLS, ids=lambda tool: tool.name)
def test_tool_schemas_are_documented_json_schema_objects(tool) -> None:
    function = tool.schema["function"]
    assert function["name"] == tool.name
    assert len(function["description"]) > 20
    parameters = function["parameters"]
    assert parameters["type"] == "object"
    assert set(parameters["required"]) <= set(parameters["properties"])
    for name, prop in parameters["properties"].items():
        assert prop.get("description"), f"{tool.name}.{name} has no description"
        assert prop.get("type") in JSON_SCHEMA_TYPES, f"{tool.name}.{name}: {prop}"
    json.dumps(tool.schema)


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("think", {"note": "extra"}),
        ("list_available_providers", {"specialty": "Cardiology", "min_years_experience": 10}),
        ("get_patient_details", {}),
        ("list_patient_medical_records", {"patient_id": "grace_liu_8154", "limit": "many"}),
        ("check_drug_interactions", {"primary_medication": "Warfarin", "current_medications": 3}),
        ("update_prescription_supplier", {"record_id": "REC005", "medication": "Warfarin"}),
        ("no_such_tool", {}),
    ],
)
def test_bad_arguments_are_error_observations(
    domain: Domain, db: EpisodeDB, name: str, arguments: dict
) -> None:
    assert domain.run_tool(db, name, arguments).startswith("Error: ")
    assert not db.changes()


def call(domain: Domain, db: EpisodeDB, name: str, **arguments: object) -> str:
    return domain.run_tool(db, name, arguments)


def test_email_lookup_is_exact_and_case_sensitive(domain: Domain, db: EpisodeDB) -> None:
    assert call(domain, db, "find_patient_by_email", email="Grace.Liu@northmail.net") == (
        "grace_liu_8154"
    )
    assert call(domain, db, "find_patient_by_email", email="grace.liu@northmail.net") == (
        "No patient found with email: grace.liu@northmail.net"
    )


def test_name_lookup_ignores_case_but_not_the_birth_date(domain: Domain, db: EpisodeDB) -> None:
    found = call(domain, db, "find_patient_by_name_dob", **_ruth("1952-03-03"))
    assert found == "ruth_goldberg_6418"
    missing = call(domain, db, "find_patient_by_name_dob", **_ruth("1952-03-04"))
    assert missing == "No patient found with name: RUTH goldberg and DOB: 1952-03-04"


def _ruth(born: str) -> dict[str, str]:
    return {"first_name": "RUTH", "last_name": "goldberg", "date_of_birth": born}


def test_scheduling_numbers_ids_and_bills_the_right_copay(domain: Domain, db: EpisodeDB) -> None:
    booked = call(
        domain,
        db,
        "schedule_appointment",
        patient_id="owen_fitzgerald_3861",
        provider_id="dr_farouk_endocrinology",
        date="2027-01-11",
        time="09:00",
        appointment_type="follow_up",
    )
    assert "Appointment ID: APPT039" in booked
    assert "Copay: $45.00\nInsurance Authorization: AUTH000039" in booked
    appointment = db.get(Appointment, "APPT039")
    assert appointment.to_record()["voucher_id"] is None
    assert not appointment.has_field("chief_complaint")
    assert call(domain, db, "get_appointment_details", appointment_id="APPT039") == (
        "Error: 'chief_complaint'"
    )
    second = call(
        domain,
        db,
        "schedule_appointment",
        patient_id="owen_fitzgerald_3861",
        provider_id="dr_mensah_primary",
        date="2027-01-09",
        time="11:00",
        appointment_type="follow_up",
        bill_insurance=False,
        voucher_id="TV-1",
        payment_notes="voucher",
    )
    assert "Appointment ID: APPT040" in second
    assert "Payment Method: Telehealth Voucher\nVoucher Applied: TV-1" in second
    assert "Amount Due Today: $0.00\nBilling Notes: voucher" in second
    assert db.get(Appointment, "APPT040").copay_amount == 0.0


@pytest.mark.parametrize(
    ("date", "time", "message"),
    [
        ("2027/01/13", "14:00", "Invalid date format: 2027/01/13. Please use YYYY-MM-DD format."),
        ("2027-01-14", "14:00", "Provider dr_brennan_neurology does not work on Thursday."),
        (
            "2027-01-13",
            "09:00",
            "Provider dr_brennan_neurology is not available at 09:00 on Wednesday. "
            "Available times: 10:00, 14:00, 15:00",
        ),
        (
            "2027-01-13",
            "14:00",
            "Provider dr_brennan_neurology already has an appointment scheduled at 14:00 "
            "on 2027-01-13.",
        ),
    ],
)
def test_unbookable_slots_are_refused(
    domain: Domain, db: EpisodeDB, date: str, time: str, message: str
) -> None:
    answer = call(
        domain,
        db,
        "schedule_appointment",
        patient_id="leila_haddad_5178",
        provider_id="dr_brennan_neurology",
        date=date,
        time=time,
        appointment_type="follow_up",
    )
    assert answer == message
    assert domain.is_error(answer)
    assert not db.changes()


def test_cancelling_stamps_the_episode_date(domain: Domain, db: EpisodeDB) -> None:
    answer = call(domain, db, "cancel_appointment", appointment_id="APPT036")
    assert "Cancellation Date: 2026-11-22" in answer
    record = db.get(Appointment, "APPT036").to_record()
    assert list(record)[-3:] == ["meeting_link", "cancellation_reason", "cancellation_date"]
    assert record["status"] == "cancelled"
    assert call(domain, db, "cancel_appointment", appointment_id="APPT036") == (
        "Appointment APPT036 is already cancelled."
    )
    assert call(domain, db, "cancel_appointment", appointment_id="APPT001") == (
        "Cannot cancel appointment APPT001 - appointment has already been completed."
    )


def test_rescheduling_ignores_the_appointment_itself(domain: Domain, db: EpisodeDB) -> None:
    answer = call(
        domain,
        db,
        "reschedule_appointment",
        appointment_id="APPT024",
        new_date="2026-12-15",
        new_time="16:00",
    )
    assert "New Date/Time: 2026-12-15 at 16:00" in answer
    assert not db.changes()


def test_provider_without_license_cannot_be_shown(domain: Domain, db: EpisodeDB) -> None:
    assert call(domain, db, "get_provider_details", provider_id="pt_kowalski_rehab") == (
        "Error: 'license_number'"
    )
    details = call(domain, db, "get_provider_details", provider_id="rd_whitfield_nutrition")
    assert "Name: Dr. Hannah Whitfield" in details
    assert "- Wednesday: Not available" in call(
        domain, db, "get_provider_details", provider_id="dr_lindqvist_primary"
    )


def test_supplier_update_replaces_a_plain_text_supplier(domain: Domain, db: EpisodeDB) -> None:
    answer = call(
        domain,
        db,
        "update_prescription_supplier",
        record_id="REC011",
        medication="metformin",
        supplier_company="Sierra Madre Farma",
        brand_name="Dabex-M",
        price_usd=1,
    )
    metformin = json.loads(answer)["prescriptions"][0]
    assert metformin["pharmacy"] == "Sierra Madre Farma (Dabex-M)"
    assert metformin["supplier"] == {
        "company": "Sierra Madre Farma",
        "brand_name": "Dabex-M",
        "price_usd": 1.0,
        "currency": "USD",
    }
    assert isinstance(
        db.get(MedicalRecord, "REC011").prescriptions[0]["supplier"]["price_usd"], float
    )
    assert call(
        domain,
        db,
        "update_prescription_supplier",
        record_id="REC017",
        medication="CPAP",
        supplier_company="x",
        brand_name="y",
        price_usd=2.0,
    ) == ("Error: medical record has no prescriptions")


def test_notes_are_appended_with_their_metadata(domain: Domain, db: EpisodeDB) -> None:
    call(domain, db, "update_medical_record_note", record_id="REC009", note="first")
    answer = call(
        domain,
        db,
        "update_medical_record_note",
        record_id="REC009",
        note="second",
        metadata={"source": "patient"},
    )
    assert json.loads(answer)["notes"] == [
        {"note": "first"},
        {"note": "second", "metadata": {"source": "patient"}},
    ]
    assert list(json.loads(answer))[-1] == "notes"


def test_interactions_are_checked_both_ways_and_pairwise(domain: Domain, db: EpisodeDB) -> None:
    answer = call(
        domain,
        db,
        "check_drug_interactions",
        primary_medication="celecoxib",
        current_medications=["warfarin", "Sertraline"],
    )
    assert answer.splitlines()[1:3] == [
        "Celecoxib + Warfarin: severity=high, risk_score=9, overlap_hours=48. Hold celecoxib and "
        "contact the prescribing clinician before the next dose; watch for bleeding.",
        "Warfarin + Sertraline: severity=moderate, risk_score=6, overlap_hours=24. Check INR "
        "within five days and report unusual bruising.",
    ]
    assert answer.splitlines()[-4:] == [
        "Medications to hold today: Celecoxib",
        "Emergency escalation required: Yes",
        "Peak overlap risk window (hours): 48",
        "Highest severity interaction: Celecoxib + Warfarin (high)",
    ]


def test_supplier_listing_filters_sorts_and_limits(domain: Domain, db: EpisodeDB) -> None:
    answer = call(domain, db, "list_medication_suppliers", medication="atorvastatin", limit=2)
    assert answer == (
        "Suppliers for atorvastatin:\n"
        "Gangotri Pharma (India) | brand=Torvacard-G | price_usd=2.95\n"
        "Deccan Remedies (India) | brand=Atorlip | price_usd=3.20"
    )
    assert call(domain, db, "list_medication_suppliers", medication="Hydrocortisone Cream") == (
        "No supplier information found for Hydrocortisone Cream."
    )
    assert call(
        domain, db, "list_medication_suppliers", medication="Warfarin", country_filter="Peru"
    ) == ("No suppliers in Peru for Warfarin.")


def test_telemetry_uploads_are_json_in_date_order(domain: Domain, db: EpisodeDB) -> None:
    uploads = json.loads(
        call(
            domain,
            db,
            "list_telemetry_uploads",
            device_id="EEG-410",
            start_date="2026-11-17",
            limit=2,
        )
    )
    assert [u["date"] for u in uploads] == ["2026-11-17", "2026-11-18"]
    missing = json.loads(
        call(domain, db, "get_telemetry_upload", device_id="RM-301", date="2026-11-12")
    )
    assert missing["synced_at"] is None
    assert call(domain, db, "list_telemetry_devices", status_filter="MAINTENANCE") == (
        "Telemetry devices:\n"
        "EEG-411 | status=maintenance | last_audit=2026-11-08 | notes=Electrode cable replacement"
    )


def test_read_tools_change_nothing(domain: Domain, db: EpisodeDB) -> None:
    call(domain, db, "get_medical_record", appointment_id="APPT013")
    call(domain, db, "get_regimen_options", patient_id="ruth_goldberg_6418")
    call(domain, db, "list_available_providers")
    assert not db.changes()

"""The telehealth database: one SQLModel table per upstream collection.

Upstream keeps every collection as JSON: objects keyed by id (patients, providers,
appointments, medical records, regimen plans, the supplier catalog, the interaction table)
or lists (telemetry inventory and uploads). Each record becomes one row:

* top-level fields are columns of the same name: text columns for strings (ids, dates,
  statuses), JSON columns for nested objects and lists (JSON keeps key order), and
  :class:`~tautrait_core.JSONValue` columns for numbers and booleans. Upstream's hash
  tells ``25`` from ``25.0``; SQLite's numeric columns, and its JSON columns holding a
  bare number, would store both as the same number;
* ``position`` is the record's place in its collection, so tools see records in file order
  and the export writes them back in that order (for lists it is the primary key);
* ``field_order`` (kept by :class:`~tautrait_core.RecordRow`) lists the keys the record
  has, in upstream order. Upstream records are not uniform: a seed appointment has no
  ``voucher_id`` key while a booked one stores ``voucher_id: null``, and APPT005 has no
  ``meeting_link``. A key missing from ``field_order`` is absent upstream (its column holds
  NULL); a listed key whose column is NULL is present with the value ``null``.

The supplier catalog and the interaction table map a name to a list or an object; they are
stored as one row per name with that value in a JSON column.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import JSON, Field, SQLModel

from tautrait_core import RecordRow, json_field, json_value_field


class Patient(RecordRow, table=True):
    """A patient: name, demographics (with the login email), address, insurance, history."""

    __tablename__ = "telehealth_patients"

    patient_id: str = Field(primary_key=True)
    position: int
    name: dict[str, Any] | None = json_field()
    demographics: dict[str, Any] | None = json_field()
    address: dict[str, Any] | None = json_field()
    insurance: dict[str, Any] | None = json_field()
    medical_history: dict[str, Any] | None = json_field()
    emergency_contact: dict[str, Any] | None = json_field()


class Provider(RecordRow, table=True):
    """A clinician: specialty, credentials, weekly schedule (weekday -> ``HH:MM`` slots)."""

    __tablename__ = "telehealth_providers"

    provider_id: str = Field(primary_key=True)
    position: int
    name: dict[str, Any] | None = json_field()
    specialty: str | None = Field(default=None, index=True)
    license_number: str | None = None
    credentials: list[str] | None = json_field()
    contact: dict[str, Any] | None = json_field()
    schedule: dict[str, list[str]] | None = json_field()
    consultation_fee: float | None = json_value_field()
    languages: list[str] | None = json_field()
    years_experience: int | None = json_value_field()


class Appointment(RecordRow, table=True):
    """A visit of a patient with a provider, with its billing and cancellation details."""

    __tablename__ = "telehealth_appointments"

    appointment_id: str = Field(primary_key=True)
    position: int
    patient_id: str | None = Field(default=None, index=True)
    provider_id: str | None = Field(default=None, index=True)
    date: str | None = None
    time: str | None = None
    duration_minutes: int | None = json_value_field()
    type: str | None = None
    status: str | None = None
    chief_complaint: str | None = None
    notes: str | None = None
    insurance_authorization: str | None = None
    copay_amount: float | None = json_value_field()
    meeting_link: str | None = None
    prescription_issued: dict[str, Any] | None = json_field()
    referral_from: str | None = None
    cancellation_reason: str | None = None
    cancellation_date: str | None = None
    payment_method: str | None = None
    voucher_id: str | None = None
    insurance_billed: bool | None = json_value_field()


class MedicalRecord(RecordRow, table=True):
    """A clinical note (SOAP sections) with prescriptions and appended staff notes."""

    __tablename__ = "telehealth_medical_records"

    record_id: str = Field(primary_key=True)
    position: int
    appointment_id: str | None = Field(default=None, index=True)
    patient_id: str | None = Field(default=None, index=True)
    provider_id: str | None = None
    date: str | None = None
    type: str | None = None
    vital_signs: dict[str, Any] | None = json_field()
    subjective: str | None = None
    objective: str | None = None
    assessment: str | None = None
    plan: str | None = None
    prescriptions: list[dict[str, Any]] | None = json_field()
    lab_orders: list[Any] | None = json_field()
    recommendations: list[str] | None = json_field()
    next_appointment: str | None = None
    notes: list[dict[str, Any]] | None = json_field()


class TelemetryDevice(RecordRow, table=True):
    """A remote-monitoring device in the inventory (an upstream list: keyed by position)."""

    __tablename__ = "telehealth_telemetry_inventory"

    position: int = Field(primary_key=True)
    device_id: str | None = None
    device_type: str | None = None
    status: str | None = None
    last_audit: str | None = None
    notes: str | None = None


class TelemetryUpload(RecordRow, table=True):
    """One day's upload from a device (an upstream list: keyed by position)."""

    __tablename__ = "telehealth_telemetry_uploads"

    position: int = Field(primary_key=True)
    device_id: str | None = Field(default=None, index=True)
    date: str | None = None
    usage_hours: float | None = json_value_field()
    synced_at: str | None = None
    event: str | None = None
    alerts: list[str] | None = json_field()


class RegimenPlan(RecordRow, table=True):
    """A patient's current medication regimen and the optimized alternatives."""

    __tablename__ = "telehealth_regimen_plans"

    patient_id: str = Field(primary_key=True)
    position: int
    current_regimen: dict[str, Any] | None = json_field()
    optimized_regimens: list[dict[str, Any]] | None = json_field()


class MedicationSuppliers(SQLModel, table=True):
    """The suppliers of one medication (a catalog entry; the list may be empty)."""

    __tablename__ = "telehealth_medication_suppliers"

    medication: str = Field(primary_key=True)
    position: int
    suppliers: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSON)


class DrugInteractions(SQLModel, table=True):
    """The documented interactions of one drug: other drug -> details."""

    __tablename__ = "telehealth_drug_interactions"

    drug: str = Field(primary_key=True)
    position: int
    interactions: dict[str, dict[str, Any]] = Field(default_factory=dict, sa_type=JSON)


TABLES: list[type[SQLModel]] = [
    Patient,
    Provider,
    Appointment,
    MedicalRecord,
    MedicationSuppliers,
    DrugInteractions,
    TelemetryDevice,
    TelemetryUpload,
    RegimenPlan,
]
"""Every table of the domain, in upstream collection order."""

"""The telehealth database: one SQLModel table per upstream collection.

Upstream keeps every collection as JSON: objects keyed by id (patients, providers,
appointments, medical records, regimen plans, the supplier catalog, the interaction table)
or lists (telemetry inventory and uploads). Each record becomes one row:

* top-level fields are columns of the same name: text columns for strings (ids, dates,
  statuses), JSON columns for nested objects and lists (JSON keeps key order), and
  :class:`JSONScalar` columns for numbers and booleans. Upstream's hash tells ``25`` from
  ``25.0``; SQLite's numeric columns, and its JSON columns holding a bare number, would
  store both as the same number;
* ``position`` is the record's place in its collection, so tools see records in file order
  and the export writes them back in that order (for lists it is the primary key);
* ``field_order`` lists the keys the record has, in upstream order. Upstream records are
  not uniform: a seed appointment has no ``voucher_id`` key while a booked one stores
  ``voucher_id: null``, and APPT005 has no ``meeting_link``. A key missing from
  ``field_order`` is absent upstream (its column holds NULL); a listed key whose column is
  NULL is present with the value ``null``.

The supplier catalog and the interaction table map a name to a list or an object; they are
stored as one row per name with that value in a JSON column.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Self

from sqlalchemy import Text, TypeDecorator
from sqlmodel import JSON, Field, SQLModel

BOOKKEEPING_COLUMNS = frozenset({"position", "field_order"})
"""Columns that are not upstream fields."""


class JSONScalar(TypeDecorator[Any]):
    """A number or boolean stored as its JSON text, so ``25`` and ``25.0`` stay apart."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Any) -> str | None:
        return None if value is None else json.dumps(value)

    def process_result_value(self, value: str | None, dialect: Any) -> Any:
        return None if value is None else json.loads(value)


class UpstreamRecord(SQLModel):
    """A row that stands for one upstream JSON record (see the module docstring)."""

    field_order: list[str] = Field(default_factory=list, sa_type=JSON)

    @classmethod
    def upstream_fields(cls) -> list[str]:
        """The upstream keys this table has columns for."""
        return [name for name in cls.model_fields if name not in BOOKKEEPING_COLUMNS]

    @classmethod
    def from_record(cls, record: dict[str, Any], position: int) -> Self:
        """The row for an upstream record at ``position`` in its collection.

        Raises ``ValueError`` for a key the table has no column for, or for a non-string
        value of a text column (SQLite would store its text, changing the data hash).
        """
        known = cls.upstream_fields()
        unknown = [key for key in record if key not in known]
        if unknown:
            raise ValueError(f"{cls.__tablename__}: unknown field(s) {', '.join(unknown)}")
        columns = cls.__table__.columns  # type: ignore[attr-defined]
        for key, value in record.items():
            column_type = columns[key].type
            is_text = not isinstance(column_type, JSON | JSONScalar)
            if is_text and not isinstance(value, str | None):
                raise ValueError(
                    f"{cls.__tablename__}: field {key!r} holds {value!r}, expected a string"
                )
        return cls(**copy.deepcopy(record), position=position, field_order=list(record))

    def has_field(self, key: str) -> bool:
        """Whether the upstream record has ``key`` (possibly with the value null)."""
        return key in self.field_order

    def field(self, key: str) -> Any:
        """The value of ``key``; raises ``KeyError(key)`` when the record lacks it, as
        upstream's ``record[key]`` does."""
        if key not in self.field_order:
            raise KeyError(key)
        return getattr(self, key)

    def set_field(self, key: str, value: Any) -> None:
        """Set ``key``, adding it after the existing keys if the record lacked it."""
        setattr(self, key, value)
        if key not in self.field_order:
            self.field_order = [*self.field_order, key]

    def to_record(self) -> dict[str, Any]:
        """The upstream record: exactly the keys it has, in upstream order (a deep copy)."""
        return {key: copy.deepcopy(getattr(self, key)) for key in self.field_order}


class Patient(UpstreamRecord, table=True):
    """A patient: name, demographics (with the login email), address, insurance, history."""

    __tablename__ = "telehealth_patients"

    patient_id: str = Field(primary_key=True)
    position: int
    name: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    demographics: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    address: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    insurance: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    medical_history: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    emergency_contact: dict[str, Any] | None = Field(default=None, sa_type=JSON)


class Provider(UpstreamRecord, table=True):
    """A clinician: specialty, credentials, weekly schedule (weekday -> ``HH:MM`` slots)."""

    __tablename__ = "telehealth_providers"

    provider_id: str = Field(primary_key=True)
    position: int
    name: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    specialty: str | None = Field(default=None, index=True)
    license_number: str | None = None
    credentials: list[str] | None = Field(default=None, sa_type=JSON)
    contact: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    schedule: dict[str, list[str]] | None = Field(default=None, sa_type=JSON)
    consultation_fee: float | None = Field(default=None, sa_type=JSONScalar)
    languages: list[str] | None = Field(default=None, sa_type=JSON)
    years_experience: int | None = Field(default=None, sa_type=JSONScalar)


class Appointment(UpstreamRecord, table=True):
    """A visit of a patient with a provider, with its billing and cancellation details."""

    __tablename__ = "telehealth_appointments"

    appointment_id: str = Field(primary_key=True)
    position: int
    patient_id: str | None = Field(default=None, index=True)
    provider_id: str | None = Field(default=None, index=True)
    date: str | None = None
    time: str | None = None
    duration_minutes: int | None = Field(default=None, sa_type=JSONScalar)
    type: str | None = None
    status: str | None = None
    chief_complaint: str | None = None
    notes: str | None = None
    insurance_authorization: str | None = None
    copay_amount: float | None = Field(default=None, sa_type=JSONScalar)
    meeting_link: str | None = None
    prescription_issued: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    referral_from: str | None = None
    cancellation_reason: str | None = None
    cancellation_date: str | None = None
    payment_method: str | None = None
    voucher_id: str | None = None
    insurance_billed: bool | None = Field(default=None, sa_type=JSONScalar)


class MedicalRecord(UpstreamRecord, table=True):
    """A clinical note (SOAP sections) with prescriptions and appended staff notes."""

    __tablename__ = "telehealth_medical_records"

    record_id: str = Field(primary_key=True)
    position: int
    appointment_id: str | None = Field(default=None, index=True)
    patient_id: str | None = Field(default=None, index=True)
    provider_id: str | None = None
    date: str | None = None
    type: str | None = None
    vital_signs: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    subjective: str | None = None
    objective: str | None = None
    assessment: str | None = None
    plan: str | None = None
    prescriptions: list[dict[str, Any]] | None = Field(default=None, sa_type=JSON)
    lab_orders: list[Any] | None = Field(default=None, sa_type=JSON)
    recommendations: list[str] | None = Field(default=None, sa_type=JSON)
    next_appointment: str | None = None
    notes: list[dict[str, Any]] | None = Field(default=None, sa_type=JSON)


class TelemetryDevice(UpstreamRecord, table=True):
    """A remote-monitoring device in the inventory (an upstream list: keyed by position)."""

    __tablename__ = "telehealth_telemetry_inventory"

    position: int = Field(primary_key=True)
    device_id: str | None = None
    device_type: str | None = None
    status: str | None = None
    last_audit: str | None = None
    notes: str | None = None


class TelemetryUpload(UpstreamRecord, table=True):
    """One day's upload from a device (an upstream list: keyed by position)."""

    __tablename__ = "telehealth_telemetry_uploads"

    position: int = Field(primary_key=True)
    device_id: str | None = Field(default=None, index=True)
    date: str | None = None
    usage_hours: float | None = Field(default=None, sa_type=JSONScalar)
    synced_at: str | None = None
    event: str | None = None
    alerts: list[str] | None = Field(default=None, sa_type=JSON)


class RegimenPlan(UpstreamRecord, table=True):
    """A patient's current medication regimen and the optimized alternatives."""

    __tablename__ = "telehealth_regimen_plans"

    patient_id: str = Field(primary_key=True)
    position: int
    current_regimen: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    optimized_regimens: list[dict[str, Any]] | None = Field(default=None, sa_type=JSON)


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

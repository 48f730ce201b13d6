"""Reading and writing the upstream tau-trait telehealth data shape.

Upstream's ``load_data`` returns nine collections, one per ``data/<name>.json`` file. The
last three files are optional upstream (an absent file reads as ``[]``, ``[]`` and ``{}``).
:class:`TelehealthUpstream` turns that dict into table rows and rebuilds it exactly from an
episode database, so ``upstream_hash(export(db))`` equals upstream's data hash.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from sqlmodel import SQLModel, select

from tautrait_core import RecordRow, UpstreamCodec, check_record_id
from tautrait_telehealth.schema import (
    Appointment,
    DrugInteractions,
    MedicalRecord,
    MedicationSuppliers,
    Patient,
    Provider,
    RegimenPlan,
    TelemetryDevice,
    TelemetryUpload,
)

KEYED_RECORDS: dict[str, type[RecordRow]] = {
    "patients": Patient,
    "providers": Provider,
    "appointments": Appointment,
    "medical_records": MedicalRecord,
    "regimen_plans": RegimenPlan,
}
"""Collections that are JSON objects of records keyed by the record's own id."""

LISTED_RECORDS: dict[str, type[RecordRow]] = {
    "telemetry_inventory": TelemetryDevice,
    "telemetry_uploads": TelemetryUpload,
}
"""Collections that are JSON lists of records."""

COLLECTIONS = (
    "patients",
    "providers",
    "appointments",
    "medical_records",
    "medication_suppliers",
    "drug_interactions",
    "telemetry_inventory",
    "telemetry_uploads",
    "regimen_plans",
)
"""The collections in upstream's order."""

OPTIONAL_COLLECTIONS: dict[str, Any] = {
    "telemetry_inventory": [],
    "telemetry_uploads": [],
    "regimen_plans": {},
}
"""Collections whose file may be missing, with the value upstream uses instead."""


class TelehealthUpstream(UpstreamCodec):
    """The :class:`~tautrait_core.UpstreamFormat` of the telehealth domain."""

    domain = "telehealth"
    collections = COLLECTIONS
    optional_collections = OPTIONAL_COLLECTIONS

    def export(self, db: Any) -> dict[str, Any]:
        """The episode database as upstream's dict of collections, in upstream order."""
        data: dict[str, Any] = {}
        for name in COLLECTIONS:
            if name in KEYED_RECORDS:
                model = KEYED_RECORDS[name]
                key = _id_column(model)
                data[name] = {getattr(row, key): row.to_record() for row in _ordered(db, model)}
            elif name in LISTED_RECORDS:
                data[name] = [row.to_record() for row in _ordered(db, LISTED_RECORDS[name])]
            elif name == "medication_suppliers":
                rows = _ordered(db, MedicationSuppliers)
                data[name] = {row.medication: copy.deepcopy(row.suppliers) for row in rows}
            else:
                rows = _ordered(db, DrugInteractions)
                data[name] = {row.drug: copy.deepcopy(row.interactions) for row in rows}
        return data

    def rows(self, data: Mapping[str, Any]) -> Iterator[SQLModel]:
        """Table rows for upstream data (a dict of the nine collections)."""
        for name, model in KEYED_RECORDS.items():
            key_field = _id_column(model)
            for position, (key, record) in enumerate(self.collection(data, name).items()):
                check_record_id(name, key, record, key_field)
                yield model.from_record(record, position)
        for name, model in LISTED_RECORDS.items():
            for position, record in enumerate(self.collection(data, name, list)):
                yield model.from_record(record, position)
        suppliers = self.collection(data, "medication_suppliers")
        for position, (medication, entries) in enumerate(suppliers.items()):
            yield MedicationSuppliers(medication=medication, position=position, suppliers=entries)
        interactions = self.collection(data, "drug_interactions")
        for position, (drug, entries) in enumerate(interactions.items()):
            yield DrugInteractions(drug=drug, position=position, interactions=entries)


def _id_column(model: type[SQLModel]) -> str:
    """The primary-key column of a keyed table (the record's id field)."""
    (column,) = model.__table__.primary_key.columns  # type: ignore[attr-defined]
    return column.name


def _ordered(db: Any, model: type[SQLModel]) -> list[Any]:
    return list(db.exec(select(model).order_by(model.position)))  # type: ignore[attr-defined]

"""Medications: regimen options, supplier catalog, interaction checks, supplier changes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tautrait_core import EpisodeDB, tool
from tautrait_telehealth.rows import RowView, view, views
from tautrait_telehealth.schema import (
    DrugInteractions,
    MedicalRecord,
    MedicationSuppliers,
    RegimenPlan,
)

SEVERITY_RANK = {"low": 1, "moderate": 2, "high": 3}


@tool
def get_regimen_options(db: EpisodeDB, patient_id: str) -> str:
    """Show a patient's current medication regimen (components, daily pill burden, notes)
    and the optimized alternatives prepared by their care team, with unit costs.

    Args:
        patient_id: The patient id.
    """
    plan = view(db, RegimenPlan, patient_id)
    if plan is None:
        return f"No regimen optimization data available for patient {patient_id}."
    lines = ["Current regimen components:"]
    lines += _regimen_lines(plan.current_regimen or {}, CURRENT_REGIMEN)
    lines.append("Optimized regimen options:")
    for number, option in enumerate(plan.optimized_regimens or [], start=1):
        lines += [f"Option {number}: {option.get('name')}", f"  Focus: {option.get('focus')}"]
        lines += _regimen_lines(option, OPTIMIZED_REGIMEN)
    return "\n".join(lines)


@dataclass(frozen=True)
class RegimenLayout:
    """How get_regimen_options writes a regimen's lines: the prefix of each component, the
    label of the pill burden, and the key, heading and line prefix of its notes."""

    component: str
    pill_burden: str
    notes_key: str
    notes_heading: str
    note: str


CURRENT_REGIMEN = RegimenLayout(
    "- ", "Current pill burden: ", "notes", "Current regimen notes:", "  * "
)
OPTIMIZED_REGIMEN = RegimenLayout(
    "  - ", "  Pill burden: ", "synergy_notes", "  Synergy notes:", "    - "
)


def _regimen_lines(regimen: dict[str, Any], layout: RegimenLayout) -> list[str]:
    """The components, pill burden and notes of ``regimen``, written as ``layout`` says."""
    lines = [f"{layout.component}{_component(c)}" for c in regimen.get("components", [])]
    if regimen.get("pill_burden"):
        lines.append(f"{layout.pill_burden}{_pill_burden(regimen['pill_burden'])}")
    notes = regimen.get(layout.notes_key)
    if notes:
        lines.append(layout.notes_heading)
        lines += [f"{layout.note}{note}" for note in notes]
    return lines


def _component(component: dict[str, Any]) -> str:
    return (
        f"{component['medication']} | dosage={component['dosage']} | "
        f"daily_dose={component['daily_dose']} | monthly_units={component['monthly_units']} | "
        f"unit_type={component['unit_type']} | brand={component['preferred_brand']} | "
        f"supplier={component['supplier']} | unit_cost_usd={component['unit_cost_usd']:.2f}"
    )


def _pill_burden(burden: dict[str, Any]) -> str:
    return (
        f"tablets_per_day={burden.get('tablets_per_day')} | "
        f"devices_per_month={burden.get('devices_per_month')}"
    )


@tool
def list_medication_suppliers(
    db: EpisodeDB, medication: str, country_filter: str | None = None, limit: int | None = None
) -> str:
    """List the suppliers of a medication (company, country, brand, price in USD), cheapest
    first.

    Args:
        medication: The medication name as in the catalog, e.g. 'Atorvastatin' (any case).
        country_filter: Only suppliers based in this country, e.g. 'India' (any case).
        limit: Show at most this many suppliers (all when left out).
    """
    catalog = views(db, MedicationSuppliers)
    entry = next((e for e in catalog if e.medication.lower() == medication.lower()), None)
    if entry is None:
        return (
            f"No supplier information found for {medication}. "
            "(Tip: ensure the medication name matches the catalog)"
        )
    suppliers = entry.suppliers
    if not suppliers:
        return f"No supplier information found for {medication}."
    if country_filter:
        suppliers = [s for s in suppliers if s["country"].lower() == country_filter.lower()]
        if not suppliers:
            return f"No suppliers in {country_filter} for {medication}."
    suppliers = sorted(suppliers, key=lambda s: s["price_usd"])
    if limit and limit > 0:
        suppliers = suppliers[:limit]
    lines = [f"Suppliers for {medication}:"]
    lines += [
        f"{s['company']} ({s['country']}) | brand={s['brand_name']} | "
        f"price_usd={s['price_usd']:.2f}"
        for s in suppliers
    ]
    return "\n".join(lines)


@tool
def check_drug_interactions(
    db: EpisodeDB, primary_medication: str, current_medications: list[str]
) -> str:
    """Check a medication against the patient's current medications (and those against
    each other) for documented interactions: severity, risk score, overlap window, the
    recommended action, which doses to hold today and whether to escalate.

    Args:
        primary_medication: The medication being started or reviewed.
        current_medications: The names of the medications the patient currently takes.
    """
    table = {row.drug: row.interactions for row in views(db, DrugInteractions)}
    spelling: dict[str, str] = {}
    for drug in table:
        spelling.setdefault(drug.lower(), drug)
    for partners in table.values():
        for drug in partners:
            spelling.setdefault(drug.lower(), drug)

    def canonical(name: str) -> str:
        return spelling.get(name.lower(), name)

    def lookup(first: str, second: str) -> dict[str, Any] | None:
        for a, b in ((canonical(first), canonical(second)), (canonical(second), canonical(first))):
            for partner, details in table.get(a, {}).items():
                if partner.lower() == b.lower():
                    return details
        return None

    pairs = [(primary_medication, m) for m in current_medications]
    pairs += [
        (current_medications[i], current_medications[j])
        for i in range(len(current_medications))
        for j in range(i + 1, len(current_medications))
    ]
    hits, hold, emergency, peak = [], set(), False, 0
    highest: tuple[int, str, str] | None = None
    for first, second in pairs:
        details = lookup(first, second)
        if details is None:
            continue
        label = f"{canonical(first)} + {canonical(second)}"
        severity = details.get("severity", "unknown")
        overlap = details.get("time_overlap_hours", 0)
        hits.append(
            f"{label}: severity={severity}, risk_score={details.get('risk_score')}, "
            f"overlap_hours={overlap}. {details.get('action', 'Monitor.')}"
        )
        hold.update(details.get("skip", []))
        emergency = emergency or bool(details.get("emergency", False))
        peak = max(peak, overlap)
        rank = SEVERITY_RANK.get(severity, 0)
        if rank and (highest is None or rank > highest[0]):
            highest = (rank, label, severity)
    if not hits:
        return (
            "No documented high-risk interactions found for the supplied medications. "
            "Continue monitoring as per care plan."
        )
    lines = ["Drug interaction analysis:", *hits, ""]
    lines += [
        f"Medications to hold today: {', '.join(sorted(hold)) or 'None'}",
        f"Emergency escalation required: {'Yes' if emergency else 'No'}",
        f"Peak overlap risk window (hours): {peak}",
    ]
    if highest is not None:
        lines.append(f"Highest severity interaction: {highest[1]} ({highest[2]})")
    return "\n".join(lines)


@tool(writes=True)
def update_prescription_supplier(
    db: EpisodeDB,
    record_id: str,
    medication: str,
    supplier_company: str,
    brand_name: str,
    price_usd: float,
    currency: str = "USD",
) -> str:
    """Switch a prescription in a medical record to another supplier and brand (for
    example a cheaper one from list_medication_suppliers) and return the updated record
    as JSON.

    Args:
        record_id: The medical record holding the prescription, e.g. 'REC014'.
        medication: The prescribed medication's name.
        supplier_company: The supplier company's name.
        brand_name: The supplier's brand name for the medication.
        price_usd: The supplier's unit price.
        currency: The currency of the price (default 'USD').
    """
    values = db.read_row(MedicalRecord, record_id)
    if values is None:
        return "Error: medical record not found"
    record = RowView(values)
    if not record.prescriptions:
        return "Error: medical record has no prescriptions"
    by_name = {p["medication"].strip().lower(): p for p in record.prescriptions}
    wanted = medication.strip().lower()
    key = wanted if wanted in by_name else None
    if key is None:
        key = next((k for k in by_name if wanted.startswith(k) or k.startswith(wanted)), None)
    if key is None:
        return f"Error: medication {medication} not found in record {record_id}"
    prescription = by_name[key]
    prescription["pharmacy"] = f"{supplier_company} ({brand_name})"
    prescription["supplier"] = {
        "company": supplier_company,
        "brand_name": brand_name,
        "price_usd": float(price_usd),
        "currency": currency,
    }
    db.update_row(MedicalRecord, record_id, {"prescriptions": record.prescriptions})
    return json.dumps(record.to_record())

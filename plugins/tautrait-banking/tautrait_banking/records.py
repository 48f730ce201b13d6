"""τ³'s record queries and record ids (domain-spec §B.2.1, §B.4)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from tautrait_banking.store import TABLES, Bank


def short_hash(text: str, length: int) -> str:
    """The first ``length`` hex characters of sha256(``text``) (τ³'s ids)."""
    return hashlib.sha256(text.encode()).hexdigest()[:length]


def transaction_id(
    user_id: str, card_type: str, merchant: str, amount: float, category: str
) -> str:
    return "txn_" + short_hash(
        f"transaction:{user_id}:{card_type}:{merchant}:{amount:.2f}:{category}", 12
    )


def dispute_id(user_id: str, transaction: str) -> str:
    return "dsp_" + short_hash(f"dispute:{user_id}:{transaction}", 12)


def format_records(table: str, found: list[tuple[str, dict[str, Any]]]) -> str:
    """τ³'s text of query results (``No records found ...`` when empty)."""
    if not found:
        return f"No records found in '{table}'."
    lines = [f"Found {len(found)} record(s) in '{table}':\n"]
    for index, (key, record) in enumerate(found, 1):
        lines.append(f"{index}. Record ID: {key}")
        lines.extend(f"   {field}: {value}" for field, value in record.items())
        lines.append("")
    return "\n".join(lines)


def matching(
    bank: Bank, table: str, constraints: dict[str, Any]
) -> list[tuple[str, dict[str, Any]]]:
    """The records of ``table`` whose fields equal ``constraints``, in order."""
    return [
        (key, record)
        for key, record in bank.records(table)
        if all(field in record and record[field] == value for field, value in constraints.items())
    ]


def query_text(bank: Bank, table: str, constraints: str = "{}") -> str:
    """τ³'s ``query_database_tool`` text: ``constraints`` is JSON text (tools build it by
    interpolation, so a quote in a value makes it invalid, as in τ³)."""
    if table not in TABLES:
        return f"Error: Database '{table}' not found. Available: {list(TABLES)}"
    try:
        parsed = json.loads(constraints)
    except json.JSONDecodeError as exc:
        return f"Error: Invalid JSON: {exc}"
    return format_records(table, matching(bank, table, parsed))


def query_by(bank: Bank, table: str, field: str, value: str) -> str:
    """The query text of ``table`` where ``field`` equals ``value``."""
    return query_text(bank, table, f'{{"{field}": "{value}"}}')

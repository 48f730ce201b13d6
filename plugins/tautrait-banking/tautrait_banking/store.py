"""The bank's database: τ³'s ``TransactionalDB`` (23 tables of free-form records).

Every record is one row of :class:`BankRecord` (table name, record id, the record as
JSON); each table's ``notes`` text is a row of :class:`BankNote`. A table's records keep
their insertion order through SQLite's row ids (an update keeps a row's id, a new record
gets a later one), so listings read in τ³'s dict order, while the state hash, which covers
only the columns, ignores the order of insertion as τ³'s sorted-key hash does.
"""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

from sqlmodel import JSON, Field, SQLModel

from tautrait_core import EpisodeDB
from tautrait_core.tau2 import tau2_db_hash, tau2_deep_merge

TABLES = (
    "users",
    "accounts",
    "debit_cards",
    "referrals",
    "credit_card_applications",
    "user_discoverable_tools",
    "user_discoverable_tool_calls",
    "verification_history",
    "credit_card_transaction_history",
    "cash_back_disputes",
    "bank_account_transaction_history",
    "credit_card_accounts",
    "agent_discoverable_tools",
    "task_config",
    "human_transfer_requests",
    "transaction_disputes",
    "credit_card_orders",
    "debit_card_orders",
    "credit_card_closure_reasons",
    "credit_card_account_flags",
    "credit_limit_increase_requests",
    "payment_history",
    "debit_card_disputes",
)
"""The tables, in τ³'s model order (its listings of table names use it)."""

TODAY = "11/14/2025"
"""τ³'s fixed date, as the tools write it."""
NOW = dt.datetime(2025, 11, 14, 3, 40, 0)
"""τ³'s fixed clock (account ages, ISO timestamps)."""


class BankRecord(SQLModel, table=True):
    """One record of one table."""

    __tablename__ = "bank_records"

    table_name: str = Field(primary_key=True)
    record_id: str = Field(primary_key=True)
    data: dict[str, Any] = Field(sa_type=JSON)


class BankNote(SQLModel, table=True):
    """A table's ``notes`` text."""

    __tablename__ = "bank_notes"

    table_name: str = Field(primary_key=True)
    notes: str = ""


SQL_TABLES: list[type[SQLModel]] = [BankRecord, BankNote]


def rows_from(data: dict[str, Any]) -> list[SQLModel]:
    """Rows for a database in τ³'s shape (``{table: {"data": {...}, "notes": ...}}``).

    Raises:
        ValueError: a table τ³'s model does not have (its ``extra="forbid"``).
    """
    unknown = sorted(set(data) - set(TABLES))
    if unknown:
        raise ValueError(f"unknown tables in the bank database: {', '.join(unknown)}")
    rows: list[SQLModel] = []
    for table in TABLES:
        content = data.get(table) or {}
        rows.append(BankNote(table_name=table, notes=content.get("notes", "")))
        for key, record in (content.get("data") or {}).items():
            rows.append(BankRecord(table_name=table, record_id=str(key), data=record))
    return rows


class Bank:
    """Record access on an episode database, τ³'s ``db.<table>.data`` as methods."""

    def __init__(self, db: EpisodeDB) -> None:
        self.db = db

    def records(self, table: str) -> list[tuple[str, dict[str, Any]]]:
        """``(id, record)`` of every record of ``table``, in insertion order."""
        rows = self.db.read_rows(BankRecord, '"table_name" = ?', [table], order_by="rowid")
        return [(row["record_id"], row["data"]) for row in rows]

    def get(self, table: str, key: str) -> dict[str, Any] | None:
        """The record ``key`` of ``table`` (``None``: there is none)."""
        row = self.db.read_row(BankRecord, (table, key))
        return None if row is None else row["data"]

    def has(self, table: str, key: str) -> bool:
        return self.get(table, key) is not None

    def put(self, table: str, key: str, record: dict[str, Any]) -> None:
        """Set record ``key`` of ``table`` (a new record goes last)."""
        if self.db.read_row(BankRecord, (table, key)) is None:
            self.db.insert_row(BankRecord, {"table_name": table, "record_id": key, "data": record})
        else:
            self.db.update_row(BankRecord, (table, key), {"data": record})

    def add(self, table: str, key: str, record: dict[str, Any]) -> bool:
        """Add record ``key`` unless it exists (τ³'s ``add_record``); whether it was added."""
        if self.has(table, key):
            return False
        self.put(table, key, record)
        return True

    def export(self) -> dict[str, Any]:
        """The database in τ³'s shape (what its ``model_dump`` gives)."""
        notes = {row["table_name"]: row["notes"] for row in self.db.read_rows(BankNote)}
        content: dict[str, Any] = {
            table: {"data": {}, "notes": notes.get(table, "")} for table in TABLES
        }
        for row in self.db.read_rows(BankRecord, order_by="rowid"):
            content[row["table_name"]]["data"][row["record_id"]] = row["data"]
        return content


def bank_db_hash(db: EpisodeDB) -> str:
    """τ³'s hash of the bank database (the same for the agent's and the user's view)."""
    return tau2_db_hash(Bank(db).export())


def merge_initial_data(db: EpisodeDB, side: str, data: dict[str, Any]) -> None:
    """Deep-merge a task's ``initialization_data`` into the database (τ³ merges the agent
    data; the customer shares the same database)."""
    if side != "assistant":
        raise ValueError("the bank has no separate user database")
    bank = Bank(db)
    for table, content in data.items():
        if table not in TABLES:
            raise ValueError(f"initialization data names unknown table {table!r}")
        if not isinstance(content, dict):
            raise ValueError(f"initialization data of table {table!r} is not an object")
        for key, value in content.items():
            if key == "notes":
                db.update_row(BankNote, table, {"notes": value})
            elif key == "data" and isinstance(value, dict):
                for record_id, record in value.items():
                    current = bank.get(table, str(record_id))
                    if isinstance(record, dict) and isinstance(current, dict):
                        merged = tau2_deep_merge(copy.deepcopy(current), record)
                    else:
                        merged = copy.deepcopy(record)
                    bank.put(table, str(record_id), merged)
            else:
                raise ValueError(f"initialization data of table {table!r} has key {key!r}")

"""The τ² telecom database in τ²-bench's shape: reading it, exporting it, merging into it.

τ²-bench keeps the carrier's database in ``db.toml`` (``{plans: [...], customers: [...],
lines: [...], bills: [...], devices: [...]}``) and the customer's in ``user_db.toml``
(``{device: {...}, surroundings: {...}}``); fields a file leaves out take τ²'s defaults.
:func:`read_rows` turns such a folder into rows (a τ²-bench checkout's
``data/tau2/domains/telecom`` or the plugin's own ``data/``), :func:`export_side` turns an
episode's rows back into that shape (what τ²'s database hash is computed from) and
:func:`merge_initial_data` deep-merges a task's ``initialization_data`` into one side.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sqlmodel import SQLModel, select, text

from tautrait_core import ConfigError, EpisodeDB
from tautrait_core.tau2 import tau2_db_hash, tau2_deep_merge
from tautrait_telecom.tau2.schema import AGENT_TABLES, USER_TABLES, Phone, record

AGENT_DB_FILE = "db.toml"
USER_DB_FILE = "user_db.toml"

_NESTED_FIELDS = {
    "address": ("street", "city", "state", "zip_code"),
    "payment_methods": ("method_type", "account_number_last_4", "expiration_date"),
    "line_items": ("description", "amount", "date", "item_type"),
}
"""Nested records of the agent's side and their fields in τ²'s order."""
_DATETIME_FIELDS = ("created_at", "activation_date", "last_esim_transfer_date")
"""Fields τ² parses as date-times; stored as the text ``str(datetime)`` gives."""


def read_rows(folder: Path) -> list[SQLModel]:
    """The rows of the database in ``folder`` (``db.toml`` and ``user_db.toml``).

    Raises:
        FileNotFoundError: a file is missing.
        ConfigError: a file is not valid TOML (naming it and how to import it again).
        pydantic.ValidationError: a record does not fit τ²'s telecom schema.
    """
    agent = _read_toml(folder / AGENT_DB_FILE)
    user = _read_toml(folder / USER_DB_FILE)
    return [*agent_rows(agent), *user_rows(user)]


def _read_toml(path: Path) -> dict[str, Any]:
    """The tables of the TOML file ``path``.

    Raises:
        ConfigError: it is not valid TOML.
    """
    with path.open("rb") as stream:
        try:
            return tomllib.load(stream)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(
                f"{path}: not valid TOML ({exc}); import τ²-bench again: "
                "tautrait import tau2 PATH_TO_TAU2_BENCH_CHECKOUT"
            ) from exc


def agent_rows(data: dict[str, Any]) -> Iterable[SQLModel]:
    """Rows of the carrier's side from its τ² dict shape (collections of records)."""
    for collection, model in AGENT_TABLES.items():
        for item in data.get(collection) or []:
            yield model.model_validate(_ordered_record(item))


def user_rows(data: dict[str, Any]) -> Iterable[SQLModel]:
    """Rows of the customer's side from its τ² dict shape (``device``, ``surroundings``)."""
    for key, model in USER_TABLES.items():
        row = model.model_validate(data.get(key) or {})
        if isinstance(row, Phone):
            row.active_apn_settings = {**Phone().active_apn_settings, **row.active_apn_settings}
            row.app_statuses = {
                name: _app_status(name, status) for name, status in row.app_statuses.items()
            }
        yield row


def _app_status(name: str, status: dict[str, Any]) -> dict[str, Any]:
    permissions = {"sms": False, "storage": False, "phone": False, "network": False}
    permissions.update(status.get("permissions") or {})
    return {"app_name": status.get("app_name", name), "permissions": permissions}


def _ordered_record(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its nested records in τ²'s field order and amounts as floats."""
    ordered = dict(record)
    for name in _DATETIME_FIELDS:
        value = record.get(name)
        if value is not None:
            ordered[name] = str(dt.datetime.fromisoformat(str(value)))
    for name, fields in _NESTED_FIELDS.items():
        value = record.get(name)
        if isinstance(value, dict):
            ordered[name] = _ordered_fields(value, fields)
        elif isinstance(value, list):
            ordered[name] = [_ordered_fields(item, fields) for item in value]
    return ordered


def _ordered_fields(item: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    ordered = {field: item[field] for field in fields if field in item}
    ordered.update(item)
    if isinstance(ordered.get("amount"), int):
        ordered["amount"] = float(ordered["amount"])
    if "date" in ordered and not isinstance(ordered["date"], str):
        ordered["date"] = str(ordered["date"])
    return ordered


def rows_in_order(db: EpisodeDB, model: type[SQLModel]) -> list[Any]:
    """Every row of ``model``'s table, in the order the rows were added (τ²'s list order)."""
    return list(db.exec(select(model).order_by(text("rowid"))))


def export_side(db: EpisodeDB, side: str) -> dict[str, Any]:
    """One side of the episode database in τ²'s dict shape (``side``: ``"assistant"`` or
    ``"user"``); dates stay date objects, as τ²'s ``model_dump()`` leaves them."""
    if side == "assistant":
        return {
            collection: [record(row).root for row in rows_in_order(db, model)]
            for collection, model in AGENT_TABLES.items()
        }
    exported = {}
    for key, model in USER_TABLES.items():
        fields = record(db.get(model, 1)).root
        del fields["id"]
        exported[key] = fields
    return exported


def side_hashes(db: EpisodeDB) -> tuple[str, str]:
    """τ²'s hashes of the (agent, user) databases of an episode."""
    return tau2_db_hash(export_side(db, "assistant")), tau2_db_hash(export_side(db, "user"))


def merge_initial_data(db: EpisodeDB, side: str, data: dict[str, Any]) -> None:
    """Deep-merge a task's ``initialization_data`` for ``side`` into the episode database.

    The side is exported to τ²'s shape, merged, validated and written back: rows whose
    records changed are updated, new records added, records no longer there removed.
    """
    merged = tau2_deep_merge(export_side(db, side), data)
    rows = list(agent_rows(merged) if side == "assistant" else user_rows(merged))
    models = AGENT_TABLES.values() if side == "assistant" else USER_TABLES.values()
    kept: set[tuple[type[SQLModel], Any]] = set()
    for row in rows:
        model = type(row)
        key = _primary_key(row)
        kept.add((model, key))
        existing = db.get(model, key)
        if existing is None:
            db.add(row)
            continue
        for name, value in record(row).root.items():
            setattr(existing, name, value)
    for model in models:
        for existing in rows_in_order(db, model):
            if (model, _primary_key(existing)) not in kept:
                db.delete(existing)
    db.flush()


def _primary_key(row: SQLModel) -> Any:
    table = row.__table__  # type: ignore[attr-defined]
    return getattr(row, next(iter(table.primary_key.columns)).name)

"""The τ² telecom database: the carrier's side (agent) and the customer's phone (user).

The agent's side holds τ²-bench's five collections (plans, customers, lines, bills,
devices), one row per record. Columns carry τ²'s field names in τ²'s field order, so
:func:`record` of a row is the record as τ² dumps it (tools return records and τ²'s
serialisation rule turns them into the observation); nested values (an address, payment
methods, id lists, a bill's line items) are JSON columns. Records keep their order through
SQLite's ``rowid``: the export reads tables in insertion order, as τ²'s lists are.
Date-times are kept as the text τ² writes for them (``str(datetime)``: ``"2025-01-15
10:30:00"``), which is also how they appear in τ²'s tool outputs and hashes.

The customer's side is the phone (:class:`Phone`) and the world around it
(:class:`Surroundings`), one row each; their values are the strings τ² uses for its enums.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, RootModel
from sqlmodel import JSON, Field, SQLModel

from tautrait_core import PlainRecord, json_field


class Record(RootModel[dict[str, Any]]):
    """A row as τ² dumps its record: every field in τ²'s order, values as they are (a tool
    returns it, and τ²'s serialisation leaves the numbers of a model's dump alone)."""


def record(row: SQLModel | PlainRecord) -> Record:
    """The record of ``row`` (its table's fields, in the order the table declares them)."""
    if isinstance(row, PlainRecord):
        return Record(row._asdict())
    return Record({name: getattr(row, name) for name in type(row).model_fields})


# -- the agent's side -------------------------------------------------------------------


class Plan(SQLModel, table=True):
    """A service plan: its monthly data allowance and prices."""

    __tablename__ = "tau2_telecom_plans"

    plan_id: str = Field(primary_key=True)
    name: str
    data_limit_gb: float
    price_per_month: float
    data_refueling_price_per_gb: float


class Customer(SQLModel, table=True):
    """A customer account; ``line_ids`` and ``bill_ids`` list what it owns, in order."""

    __tablename__ = "tau2_telecom_customers"

    customer_id: str = Field(primary_key=True)
    full_name: str
    date_of_birth: str
    email: str
    phone_number: str = Field(index=True)
    address: dict[str, Any] = Field(sa_type=JSON)
    account_status: str = "Pending Verification"
    payment_methods: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSON)
    line_ids: list[str] = Field(default_factory=list, sa_type=JSON)
    bill_ids: list[str] = Field(default_factory=list, sa_type=JSON)
    created_at: str = "2025-01-01 00:00:00"
    last_extension_date: dt.date | None = None
    goodwill_credit_used_this_year: float = 0.0


class Line(SQLModel, table=True):
    """A phone line: its number, status, plan, usage and roaming switch."""

    __tablename__ = "tau2_telecom_lines"

    line_id: str = Field(primary_key=True)
    phone_number: str = Field(index=True)
    status: str = "Pending Activation"
    plan_id: str
    device_id: str | None = None
    data_used_gb: float = 0.0
    data_refueling_gb: float = 0.0
    roaming_enabled: bool = False
    contract_end_date: dt.date | None = None
    last_plan_change_date: dt.date | None = None
    last_sim_replacement_date: dt.date | None = None
    suspension_start_date: dt.date | None = None


class Bill(SQLModel, table=True):
    """A bill; ``line_items`` are ``{description, amount, date, item_type}`` objects."""

    __tablename__ = "tau2_telecom_bills"

    bill_id: str = Field(primary_key=True)
    customer_id: str
    period_start: dt.date
    period_end: dt.date
    issue_date: dt.date
    total_due: float
    due_date: dt.date
    line_items: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSON)
    status: str = "Draft"


class Device(SQLModel, table=True):
    """A device on record (the carrier's view, not the customer's phone state)."""

    __tablename__ = "tau2_telecom_devices"

    device_id: str = Field(primary_key=True)
    device_type: str
    model: str
    imei: str | None = None
    is_esim_capable: bool
    activated: bool = False
    activation_date: str | None = None
    last_esim_transfer_date: str | None = None


AGENT_TABLES: dict[str, type[SQLModel]] = {
    "plans": Plan,
    "customers": Customer,
    "lines": Line,
    "bills": Bill,
    "devices": Device,
}
"""τ²'s collection name -> table, in τ²'s field order of its database."""

# -- the customer's side ----------------------------------------------------------------


class NetworkModePreference(StrEnum):
    """Which cellular technologies the phone may use."""

    FOUR_G_5G_PREFERRED = "4g_5g_preferred"
    FOUR_G_ONLY = "4g_only"
    THREE_G_ONLY = "3g_only"
    TWO_G_ONLY = "2g_only"


class APNNames(StrEnum):
    """The data APN: the working one, or a broken one (no service)."""

    INTERNET = "internet"
    BROKEN = "broken"


class APNSettings(BaseModel):
    """The phone's access point settings (``set_apn_settings`` takes one)."""

    model_config = ConfigDict(extra="forbid")

    apn_name: APNNames = APNNames.INTERNET
    reset_at_reboot: bool = False
    mms_apn: str | None = "mms"
    mmsc_url: str | None = "http://mms.carrier.com/mms/wapenc"
    mms_proxy: str | None = None
    mms_port: int | None = None


def default_apn_settings() -> dict[str, Any]:
    """The factory APN settings, as stored."""
    return APNSettings().model_dump(mode="json")


def default_app_statuses() -> dict[str, Any]:
    """The apps a phone starts with and their permissions."""
    return {
        "messaging": {
            "app_name": "messaging",
            "permissions": {"sms": True, "storage": True, "phone": True, "network": False},
        },
        "browser": {
            "app_name": "browser",
            "permissions": {"sms": False, "storage": True, "phone": False, "network": True},
        },
    }


def default_signal_strength() -> dict[str, str]:
    """The signal of each technology where the customer is."""
    return {"2G": "poor", "3G": "fair", "4G": "good", "5G": "excellent"}


class Phone(SQLModel, table=True):
    """The customer's phone: SIM, radios, data settings, APN, VPN and apps (one row)."""

    __tablename__ = "tau2_telecom_phone"

    id: int = Field(default=1, primary_key=True)
    sim_card_status: str = "active"
    sim_card_missing: bool = False
    airplane_mode: bool = False
    network_signal_strength: str = "good"
    network_technology_connected: str = "5G"
    network_connection_status: str = "connected"
    battery_level: int = 80
    data_enabled: bool = True
    roaming_enabled: bool = False
    network_mode_preference: str = "4g_5g_preferred"
    active_apn_settings: dict[str, Any] = Field(default_factory=default_apn_settings, sa_type=JSON)
    wifi_enabled: bool = False
    wifi_connected: bool = False
    wifi_ssid: str | None = None
    wifi_signal_strength: str = "none"
    wifi_calling_enabled: bool = False
    wifi_calling_mms_over_wifi: bool = False
    data_saver_mode: bool = False
    vpn_enabled_setting: bool = False
    vpn_connected: bool = False
    vpn_details: dict[str, Any] | None = json_field()
    app_statuses: dict[str, Any] = Field(default_factory=default_app_statuses, sa_type=JSON)


class Surroundings(SQLModel, table=True):
    """Where the customer is and what the carrier allows them (one row); the carrier's
    side is mirrored here by the state sync."""

    __tablename__ = "tau2_telecom_surroundings"

    id: int = Field(default=1, primary_key=True)
    name: str | None = None
    phone_number: str | None = None
    is_abroad: bool = False
    roaming_allowed: bool = False
    signal_strength: dict[str, str] = Field(default_factory=default_signal_strength, sa_type=JSON)
    mobile_data_usage_exceeded: bool = False
    line_active: bool = True
    payment_request: dict[str, Any] | None = json_field()


USER_TABLES: dict[str, type[SQLModel]] = {"device": Phone, "surroundings": Surroundings}
"""τ²'s user database key -> table."""

TABLES: list[type[SQLModel]] = [*AGENT_TABLES.values(), *USER_TABLES.values()]

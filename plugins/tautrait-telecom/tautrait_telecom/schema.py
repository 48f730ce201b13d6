"""The telecom database: one SQLModel table per upstream collection.

Upstream keeps five JSON objects keyed by id: customers, services, the device catalog
(keyed by the device's display name), billing entries (keyed by customer id) and support
tickets. Each record becomes one row:

* top-level fields are columns of the same name: text columns for strings, JSON columns for
  nested objects and lists (JSON keeps key order and tells ``25`` from ``25.0`` inside
  them), and :class:`~tautrait_core.JSONValue` columns for values whose JSON type matters
  at the top level (prices, balances, flags). SQLite's numeric affinity would read a float
  ``85.0`` stored in a numeric or JSON column back as the integer ``85``, which changes
  upstream's hash;
* ``position`` is the record's place in its object, so tools see records in file order and
  the export writes them back in that order;
* ``field_order`` (kept by :class:`~tautrait_core.RecordRow`) lists the keys the record
  has, in upstream order. Tools add keys (``category`` on a new ticket, ``billing_cycle`` on
  a billing entry); a key missing from ``field_order`` is absent upstream, a listed key
  whose column is NULL holds ``null``.

Look-up columns that are not upstream fields (``email_key``, ``phone_digits`` of a customer,
``catalog_name`` of a device) are derived from the record when it is loaded and indexed.
The tables of small records (services, devices, tickets) are keyed by their id alone
(``WITHOUT ROWID``), which keeps the database image that each episode copies small; customer
and billing records are too large for that layout to pay off.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from sqlmodel import Field

from tautrait_core import RecordRow, json_field, json_value_field


def email_key(email: Any) -> str:
    """The form of an email address that look-ups compare (lower case)."""
    return email.lower() if isinstance(email, str) else ""


def phone_digits(phone: Any) -> str:
    """The digits of a phone number, the form that look-ups compare."""
    return re.sub(r"\D", "", phone) if isinstance(phone, str) else ""


class Customer(RecordRow, table=True):
    """A customer account: identity, address, subscribed services and devices."""

    __tablename__ = "telecom_customers"
    BOOKKEEPING: ClassVar[frozenset[str]] = frozenset(
        {"position", "field_order", "email_key", "phone_digits"}
    )

    customer_id: str = Field(primary_key=True)
    position: int
    email_key: str = Field(default="", index=True)
    phone_digits: str = Field(default="", index=True)
    name: dict[str, Any] | None = json_field()
    demographics: dict[str, Any] | None = json_field()
    address: dict[str, Any] | None = json_field()
    account: dict[str, Any] | None = json_field()
    services: list[str] | None = json_field()
    devices: list[dict[str, Any]] | None = json_field()
    billing_preferences: dict[str, Any] | None = json_field()

    @classmethod
    def from_customer_record(cls, record: dict[str, Any], position: int) -> Customer:
        """The row for an upstream customer record, with its look-up columns."""
        demographics = record.get("demographics") or {}
        return cls.from_record(
            record,
            position,
            email_key=email_key(demographics.get("email")),
            phone_digits=phone_digits(demographics.get("phone")),
        )


class Service(RecordRow, table=True):
    """A plan or package of the catalog (mobile, internet, tv, phone, security)."""

    __tablename__ = "telecom_services"
    __table_args__: ClassVar[dict[str, Any]] = {"sqlite_with_rowid": False}

    service_id: str = Field(primary_key=True)
    position: int
    name: str | None = None
    category: str | None = None
    price: float | None = json_value_field()


class Device(RecordRow, table=True):
    """A device model of the catalog, keyed by its display name (e.g. 'Pixel 8')."""

    __tablename__ = "telecom_devices"
    __table_args__: ClassVar[dict[str, Any]] = {"sqlite_with_rowid": False}
    BOOKKEEPING: ClassVar[frozenset[str]] = frozenset({"position", "field_order", "catalog_name"})

    catalog_name: str = Field(primary_key=True)
    position: int
    category: str | None = None
    manufacturer: str | None = None
    model: str | None = None


class Billing(RecordRow, table=True):
    """A customer's billing entry: balance, monthly charges, payments, bill settings."""

    __tablename__ = "telecom_billing"

    customer_id: str = Field(primary_key=True)
    position: int
    account_number: str | None = None
    current_balance: float | None = json_value_field()
    last_payment: dict[str, Any] | None = json_field()
    next_bill_date: str | None = None
    monthly_charges: dict[str, Any] | None = json_field()
    payment_history: list[dict[str, Any]] | None = json_field()
    auto_pay: Any = json_value_field()
    paperless: Any = json_value_field()
    billing_cycle: Any = json_value_field()


class SupportTicket(RecordRow, table=True):
    """A support ticket of a customer, with its status, priority and category."""

    __tablename__ = "telecom_support_tickets"
    __table_args__: ClassVar[dict[str, Any]] = {"sqlite_with_rowid": False}

    ticket_id: str = Field(primary_key=True)
    position: int
    customer_id: str | None = Field(default=None, index=True)
    status: Any = json_value_field()
    priority: Any = json_value_field()
    category: str | None = None


TABLES: list[type[RecordRow]] = [Customer, Service, Device, Billing, SupportTicket]
"""The tables, in upstream's collection order."""

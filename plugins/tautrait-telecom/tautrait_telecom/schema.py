"""The telecom database: one SQLModel table per upstream collection.

Upstream keeps five JSON objects keyed by id: customers, services, the device catalog
(keyed by the device's display name), billing entries (keyed by customer id) and support
tickets. Each record becomes one row:

* top-level fields are columns of the same name: text columns for strings, JSON columns for
  nested objects and lists (JSON keeps key order and tells ``25`` from ``25.0`` inside
  them), and :class:`JSONText` columns for values whose JSON type matters at the top level
  (prices, balances, flags). SQLite's numeric affinity would read a float ``85.0`` stored in
  a numeric or JSON column back as the integer ``85``, which changes upstream's hash;
* ``position`` is the record's place in its object, so tools see records in file order and
  the export writes them back in that order;
* ``field_order`` lists the keys the record has, in upstream order. Tools add keys
  (``category`` on a new ticket, ``billing_cycle`` on a billing entry); a key missing from
  ``field_order`` is absent upstream, a listed key whose column is NULL holds ``null``.

Look-up columns that are not upstream fields (``email_key``, ``phone_digits`` of a customer,
``catalog_name`` of a device) are derived from the record when it is loaded and indexed.
The tables of small records (services, devices, tickets) are keyed by their id alone
(``WITHOUT ROWID``), which keeps the database image that each episode copies small; customer
and billing records are too large for that layout to pay off.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any, ClassVar, Self

from sqlalchemy import Text, TypeDecorator
from sqlmodel import JSON, Field, SQLModel, select


class JSONText(TypeDecorator[Any]):
    """Any JSON value stored as its JSON text, so ``25`` and ``25.0`` stay apart."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Any) -> str | None:
        return None if value is None else json.dumps(value)

    def process_result_value(self, value: str | None, dialect: Any) -> Any:
        return None if value is None else json.loads(value)


class RecordRow(SQLModel):
    """A row that stands for one upstream JSON record (see the module docstring)."""

    BOOKKEEPING: ClassVar[frozenset[str]] = frozenset({"position", "field_order"})
    """Columns that are not upstream fields."""

    field_order: list[str] = Field(default_factory=list, sa_type=JSON)

    @classmethod
    def upstream_fields(cls) -> list[str]:
        """The upstream keys this table has columns for."""
        return [name for name in cls.model_fields if name not in cls.BOOKKEEPING]

    @classmethod
    def from_record(cls, record: dict[str, Any], position: int, **lookup: Any) -> Self:
        """The row for an upstream record at ``position`` in its collection.

        ``lookup`` sets the table's derived look-up columns. Raises ``ValueError`` for a key
        the table has no column for, or for a non-string value of a text column (SQLite
        would store its text, changing the data hash).
        """
        known = cls.upstream_fields()
        unknown = [key for key in record if key not in known]
        if unknown:
            raise ValueError(f"{cls.__tablename__}: unknown field(s) {', '.join(unknown)}")
        columns = cls.__table__.columns  # type: ignore[attr-defined]
        for key, value in record.items():
            if not isinstance(columns[key].type, JSON | JSONText) and not isinstance(
                value, str | None
            ):
                raise ValueError(
                    f"{cls.__tablename__}: field {key!r} holds {value!r}, expected a string"
                )
        values = copy.deepcopy(record)
        return cls(**values, **lookup, position=position, field_order=list(record))

    @classmethod
    def read_record(cls, db: Any, key: str) -> dict[str, Any] | None:
        """The upstream record of the row with primary key ``key`` (``None`` if absent),
        read without loading the row as an object (for tools that only show it)."""
        table = cls.__table__  # type: ignore[attr-defined]
        (pk,) = table.primary_key.columns
        found = db.execute(select(*table.columns).where(pk == key)).first()
        if found is None:
            return None
        values = found._mapping
        return {name: values[name] for name in values["field_order"]}

    def set_field(self, key: str, value: Any) -> None:
        """Set ``key``, adding it after the existing keys if the record lacked it."""
        setattr(self, key, value)
        if key not in self.field_order:
            self.field_order = [*self.field_order, key]

    def to_record(self) -> dict[str, Any]:
        """The upstream record: exactly the keys it has, in upstream order (a deep copy)."""
        return {key: copy.deepcopy(getattr(self, key)) for key in self.field_order}


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
    name: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    demographics: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    address: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    account: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    services: list[str] | None = Field(default=None, sa_type=JSON)
    devices: list[dict[str, Any]] | None = Field(default=None, sa_type=JSON)
    billing_preferences: dict[str, Any] | None = Field(default=None, sa_type=JSON)

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
    __table_args__ = {"sqlite_with_rowid": False}

    service_id: str = Field(primary_key=True)
    position: int
    name: str | None = None
    category: str | None = None
    price: float | None = Field(default=None, sa_type=JSONText)


class Device(RecordRow, table=True):
    """A device model of the catalog, keyed by its display name (e.g. 'Pixel 8')."""

    __tablename__ = "telecom_devices"
    __table_args__ = {"sqlite_with_rowid": False}
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
    current_balance: float | None = Field(default=None, sa_type=JSONText)
    last_payment: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    next_bill_date: str | None = None
    monthly_charges: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    payment_history: list[dict[str, Any]] | None = Field(default=None, sa_type=JSON)
    auto_pay: Any = Field(default=None, sa_type=JSONText, nullable=True)
    paperless: Any = Field(default=None, sa_type=JSONText, nullable=True)
    billing_cycle: Any = Field(default=None, sa_type=JSONText, nullable=True)


class SupportTicket(RecordRow, table=True):
    """A support ticket of a customer, with its status, priority and category."""

    __tablename__ = "telecom_support_tickets"
    __table_args__ = {"sqlite_with_rowid": False}

    ticket_id: str = Field(primary_key=True)
    position: int
    customer_id: str | None = Field(default=None, index=True)
    status: Any = Field(default=None, sa_type=JSONText, nullable=True)
    priority: Any = Field(default=None, sa_type=JSONText, nullable=True)
    category: str | None = None


TABLES: list[type[RecordRow]] = [Customer, Service, Device, Billing, SupportTicket]
"""The tables, in upstream's collection order."""

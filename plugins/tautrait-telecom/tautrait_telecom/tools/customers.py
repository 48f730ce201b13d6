"""Identifying customers, showing their account and registering their devices."""

from __future__ import annotations

import json

from tautrait_core import EpisodeDB, RecordRow, tool
from tautrait_telecom.catalog import catalog_of
from tautrait_telecom.rows import set_fields, upstream_record
from tautrait_telecom.schema import Customer, email_key, phone_digits

_CUSTOMER_EXISTS = f'SELECT 1 FROM "{Customer.__tablename__}" WHERE customer_id = ?'


def customer_exists(db: EpisodeDB, customer_id: str) -> bool:
    """Whether ``customer_id`` is a customer (an indexed look-up that loads no record)."""
    return bool(db.plain_select(_CUSTOMER_EXISTS, (customer_id,)))


def record_json(db: EpisodeDB, table: type[RecordRow], key: str, missing: str) -> str:
    """``json.dumps`` of the upstream record of the ``table`` row ``key``, as the tools that
    show a record answer, or the error observation ``missing`` if there is no such row."""
    values = db.read_row(table, key)
    return missing if values is None else json.dumps(upstream_record(values))


def _customer_id_answer(db: EpisodeDB, column: str, value: str, missing: str) -> str:
    """What the look-up tools answer: the id of the first customer (in upstream's order)
    whose ``column`` is ``value``, or the error observation ``missing`` if there is none."""
    found = db.plain_select(
        f'SELECT customer_id FROM "{Customer.__tablename__}" WHERE "{column}" = ? '
        "ORDER BY position LIMIT 1",
        (value,),
    )
    return found[0][0] if found else missing


@tool
def find_customer_by_email(db: EpisodeDB, email: str) -> str:
    """Look up a customer by the email address on their account and return the customer
    id. Upper and lower case do not matter.

    Args:
        email: The customer's email address, e.g. 'maria.ortiz@example.net'.
    """
    missing = f"Error: No customer found with email address: {email}"
    return _customer_id_answer(db, "email_key", email_key(email), missing)


@tool
def find_customer_by_phone(db: EpisodeDB, phone: str) -> str:
    """Look up a customer by their phone number and return the customer id. Only the digits
    are compared, so any formatting works.

    Args:
        phone: The customer's phone number, e.g. '(555) 201-3344' or '5552013344'.
    """
    missing = f"Error: No customer found with phone number: {phone}"
    return _customer_id_answer(db, "phone_digits", phone_digits(phone), missing)


@tool
def get_customer_details(db: EpisodeDB, customer_id: str) -> str:
    """Show a customer's full profile: name, contact details, address, account, subscribed
    services, registered devices (with the service each one uses) and billing preferences.

    Args:
        customer_id: The customer id, e.g. 'maria_ortiz_4821'.
    """
    return record_json(db, Customer, customer_id, f"Error: Customer not found: {customer_id}")


@tool(writes=True)
def add_device(db: EpisodeDB, customer_id: str, device_name: str) -> str:
    """Register a new device on a customer's account. The device starts with no service
    attached; attach it with manage_service.

    Args:
        customer_id: The customer id.
        device_name: The device's catalog name, exactly as get_device_details knows it.
    """
    customer = db.read_row(Customer, customer_id)
    if customer is None:
        return f"Error: Customer not found: {customer_id}"
    if not catalog_of(db).has_device(device_name):
        return f"Error: Invalid device name: {device_name}"
    devices = customer["devices"] if customer["devices"] is not None else []
    devices.append({"device_id": str(len(devices) + 1), "name": device_name, "service": None})
    db.update_row(Customer, customer_id, set_fields(customer, devices=devices))
    return f"Success: Added device '{device_name}' to customer {customer_id}"

"""Listing, adding and removing the services a customer subscribes to."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tautrait_core import EpisodeDB, tool
from tautrait_telecom.catalog import catalog_of
from tautrait_telecom.rows import set_fields
from tautrait_telecom.schema import Billing, Customer

ACTIONS = "add, remove, list"


@tool(writes=True)
def manage_service(
    db: EpisodeDB,
    customer_id: str,
    action: str,
    service_id: str | None = None,
    devices_ids: list[str] | None = None,
) -> str:
    """List, add or remove a customer's services. Adding a service can attach some of the
    customer's devices to it; removing a service detaches every device that used it. To
    switch plans, remove the old service and then add the new one.

    Args:
        customer_id: The customer id.
        action: 'list', 'add' or 'remove'.
        service_id: The service to add or remove (required for 'add' and 'remove').
        devices_ids: For 'add': ids of the customer's devices (e.g. ['1', '3']) to attach
            to the new service.
    """
    customer = db.read_row(Customer, customer_id)
    if customer is None:
        return f"Error: Customer not found: {customer_id}"
    subscribed = customer["services"] if customer["services"] is not None else []
    if action == "list":
        catalog = catalog_of(db)
        found = [catalog.service(sid) for sid in subscribed]
        services = [service for service in found if service is not None]
        return json.dumps({"customer_id": customer_id, "services": services})
    if not service_id:
        return f"Error: Service ID is required for action: {action}"
    if action == "add":
        return _add(db, customer, subscribed, service_id, devices_ids)
    if action == "remove":
        return _remove(db, customer, subscribed, service_id)
    return f"Error: Invalid action: {action}. Valid actions are: {ACTIONS}"


def _add(
    db: EpisodeDB,
    customer: dict[str, Any],
    subscribed: list[str],
    service_id: str,
    devices_ids: list[str] | None,
) -> str:
    cid = customer["customer_id"]
    service = catalog_of(db).service(service_id)
    if service is None:
        return f"Error: Service not found: {service_id}"
    if service_id in subscribed:
        return f"Error: Customer {cid} already has service: {service_id}"
    devices = customer["devices"] if customer["devices"] is not None else []
    for device_id in devices_ids or []:
        matches = [device for device in devices if device.get("device_id") == device_id]
        if not matches:
            # devices attached before an unknown id stay attached, as upstream leaves them
            db.update_row(Customer, cid, {"devices": customer["devices"]})
            return f"Error: Device not found: {device_id} in devices {devices!r}"
        for device in matches:
            device["service"] = service_id
    subscribed.append(service_id)
    price = service.get("price")
    _store_services(db, customer, subscribed, lambda charges: charges.update({service_id: price}))
    return f"Success: Added service '{service.get('name')}' to customer {cid}"


def _remove(db: EpisodeDB, customer: dict[str, Any], subscribed: list[str], service_id: str) -> str:
    cid = customer["customer_id"]
    if service_id not in subscribed:
        return f"Error: Customer {cid} does not have service: {service_id}"
    detached = []
    for device in customer["devices"] or []:
        if device.get("service") == service_id:
            device["service"] = None
            detached.append(device.get("name"))
    subscribed.remove(service_id)
    # a missing charge line fails after the customer is stored, as upstream's pop does
    _store_services(db, customer, subscribed, lambda charges: charges.pop(service_id))
    service = catalog_of(db).service(service_id)
    name = service.get("name") if service is not None else service_id
    return (
        f"Success: Removed service '{name}' from customer {cid}. Devices {detached!r} are "
        "now no longer associated with the service."
    )


def _store_services(
    db: EpisodeDB,
    customer: dict[str, Any],
    subscribed: list[str],
    change_charges: Callable[[dict[str, Any]], object],
) -> None:
    """Store the customer's ``subscribed`` services and their devices, then the monthly
    charges of their billing record (if they have one) as ``change_charges`` changes them."""
    cid = customer["customer_id"]
    changes = set_fields(customer, services=subscribed)
    db.update_row(Customer, cid, {**changes, "devices": customer["devices"]})
    billing = db.read_row(Billing, cid)
    if billing is not None:
        charges = billing["monthly_charges"] if billing["monthly_charges"] is not None else {}
        change_charges(charges)
        db.update_row(Billing, cid, set_fields(billing, monthly_charges=charges))

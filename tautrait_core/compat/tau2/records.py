"""Records of τ²-bench's retail and airline databases, which keep τ-bench's records: read
from τ²'s ``db.json`` into τ-bench's shape, and dumped as τ²'s models dump them (field order
of the model, absent fields as ``null``, money as floats)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TAU2_ADDRESS_FIELDS = ("address1", "address2", "city", "country", "state", "zip")
"""The fields of τ²'s ``Address`` model, in model order."""


def tau2_records_without_key(
    records: Mapping[str, dict[str, Any]], key_field: str
) -> dict[str, dict[str, Any]]:
    """One table of τ²'s ``db.json`` (key -> record) in τ-bench's shape: each record
    without ``key_field``, which τ²'s models repeat in the record (``user_id`` in a user)
    and τ-bench keeps as the key only."""
    return {
        key: {name: value for name, value in record.items() if name != key_field}
        for key, record in records.items()
    }


def tau2_address(record: Mapping[str, Any]) -> dict[str, Any]:
    """An address as τ²'s ``Address`` model dumps it (``TAU2_ADDRESS_FIELDS``, in order)."""
    return {key: record[key] for key in TAU2_ADDRESS_FIELDS}


def tau2_payment_methods(
    methods: Mapping[str, Mapping[str, Any]],
    fields: Mapping[str, tuple[str, ...]],
    *,
    money: str,
) -> dict[str, dict[str, Any]]:
    """A user's saved payment methods (id -> method) as τ²'s models of their kinds dump
    them.

    Args:
        methods: The methods as stored, each with its kind in ``source``.
        fields: The fields of each kind's model, in model order, by ``source`` (a method
            of a kind not listed keeps its own fields); a field the method lacks is
            ``None``.
        money: The field that holds a balance (``balance`` in retail, ``amount`` in
            airline), dumped as a float when it is set.
    """
    dumped = {}
    for key, method in methods.items():
        record = {name: method.get(name) for name in fields.get(method.get("source", ""), method)}
        if record.get(money) is not None:
            record[money] = float(record[money])
        dumped[key] = record
    return dumped


def tau2_user_identity(user: Any) -> dict[str, Any]:
    """The fields τ²'s retail and airline ``User`` models open with: ``user_id``,
    ``name`` (``first_name``, ``last_name``), ``address`` (:func:`tau2_address`) and
    ``email``, read from the attributes of a user row."""
    return {
        "user_id": user.user_id,
        "name": {"first_name": user.name["first_name"], "last_name": user.name["last_name"]},
        "address": tau2_address(user.address),
        "email": user.email,
    }

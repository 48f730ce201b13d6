"""The compact form of a flight's date entries.

Upstream writes each date of a flight as an object whose keys depend on its status, e.g.
``{"status": "available", "available_seats": {...3 cabins...}, "prices": {...}}`` or
``{"status": "landed", "actual_departure_time_est": ..., "actual_arrival_time_est": ...}``.
An entry with exactly the keys its status usually has (in that order) is stored as the list
of its values (seats and prices flattened, cabin by cabin); any other entry is stored in
full as an object. :func:`decode` rebuilds the upstream object either way.
"""

from __future__ import annotations

from typing import Any

CABINS = ("basic_economy", "economy", "business")
"""The cabins, in the order upstream lists seats and prices."""

TIME_KEYS: dict[str, tuple[str, ...]] = {
    "landed": ("actual_departure_time_est", "actual_arrival_time_est"),
    "flying": ("actual_departure_time_est", "estimated_arrival_time_est"),
    "on time": ("estimated_departure_time_est", "estimated_arrival_time_est"),
    "delayed": ("estimated_departure_time_est", "estimated_arrival_time_est"),
    "cancelled": (),
}
"""The keys after ``status`` of an entry that is not bookable, by status."""

AVAILABLE = "available"


def encode(entry: dict[str, Any]) -> tuple[Any, Any]:
    """``(status, details)`` for an upstream date entry (``status`` ``None`` if absent)."""
    keys = list(entry)
    status = entry.get("status")
    if status == AVAILABLE and keys == ["status", "available_seats", "prices"]:
        seats, prices = entry["available_seats"], entry["prices"]
        if list(seats) == list(CABINS) and list(prices) == list(CABINS):
            return status, [*seats.values(), *prices.values()]
    elif status in TIME_KEYS and keys == ["status", *TIME_KEYS[status]]:
        return status, [entry[key] for key in TIME_KEYS[status]]
    return None, dict(entry)


def decode(status: str | None, details: Any) -> dict[str, Any]:
    """The upstream date entry stored as ``(status, details)`` (a new object)."""
    if isinstance(details, dict):
        return dict(details)
    if status == AVAILABLE:
        count = len(CABINS)
        return {
            "status": status,
            "available_seats": dict(zip(CABINS, details[:count], strict=True)),
            "prices": dict(zip(CABINS, details[count:], strict=True)),
        }
    return {"status": status, **dict(zip(TIME_KEYS[status], details, strict=True))}

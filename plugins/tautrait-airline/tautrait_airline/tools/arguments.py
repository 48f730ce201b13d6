"""Argument types of the airline tools.

Upstream's tools take their arguments as given: an unexpected ``flight_type`` or
``insurance`` value is stored, a number keeps its int or float type, and list items keep
the keys the caller sent. These types validate no more than upstream's code relies on,
while the schema shown to the model still lists the allowed values and item fields.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import CoreSchema, core_schema


def _shown_as(validation: CoreSchema, shown: dict[str, Any]) -> Any:
    """A type that validates with ``validation`` and shows the model ``shown``.

    (A class rather than ``Annotated[..., WithJsonSchema(...)]``: the core reads tool
    annotations without their ``Annotated`` extras.)
    """

    class Shown:
        @classmethod
        def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> CoreSchema:
            return validation

        @classmethod
        def __get_pydantic_json_schema__(cls, schema: Any, handler: Any) -> dict[str, Any]:
            return dict(shown)

    return Shown


def _choice(*values: str) -> Any:
    return _shown_as(core_schema.str_schema(), {"type": "string", "enum": list(values)})


def _records(properties: dict[str, dict[str, str]]) -> Any:
    item = {"type": "object", "properties": properties, "required": list(properties)}
    validation = core_schema.list_schema(core_schema.dict_schema(core_schema.str_schema()))
    return _shown_as(validation, {"type": "array", "items": item})


def _number() -> CoreSchema:
    """An int or a float, kept as given (a new schema object per type: pydantic keys the
    JSON schema it shows on the object)."""
    return core_schema.union_schema([core_schema.int_schema(), core_schema.float_schema()])


Cabin = _choice("basic_economy", "economy", "business")
"""A cabin name (any string is accepted; an unknown cabin fails where it is looked up)."""

FlightType = _choice("one_way", "round_trip")
"""A trip type (stored as given)."""

Insurance = _choice("yes", "no")
"""Whether travel insurance is bought (only ``"yes"`` adds its price; stored as given)."""

Count = _shown_as(_number(), {"type": "integer"})
"""A count of bags (stored with the caller's number type)."""

Amount = _shown_as(_number(), {"type": "number"})
"""An amount of dollars (stored with the caller's number type)."""

FlightChoices = _records(
    {
        "flight_number": {"type": "string", "description": "Flight number, e.g. 'HAT001'."},
        "date": {"type": "string", "description": "Date of the flight as YYYY-MM-DD."},
    }
)
"""The flights of a booking: flight number and date per segment."""

Passengers = _records(
    {
        "first_name": {"type": "string", "description": "First name, e.g. 'Ana'."},
        "last_name": {"type": "string", "description": "Last name, e.g. 'Ruiz'."},
        "dob": {"type": "string", "description": "Date of birth as YYYY-MM-DD."},
    }
)
"""Passenger details: first name, last name and date of birth."""

Payments = _records(
    {
        "payment_id": {"type": "string", "description": "Id of a payment method of the user."},
        "amount": {"type": "number", "description": "Dollars charged to this method."},
    }
)
"""How a booking is paid: payment method ids and amounts."""

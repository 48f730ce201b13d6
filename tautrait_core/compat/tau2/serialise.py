"""τ²-bench's rule for turning a tool's return value into the tool message text.

A τ² variant of a domain reproduces τ²'s observations byte for byte by returning
``tau2_json(value)`` from its tools (domain-spec §1.4):

* a string is the observation as it is (not JSON-quoted);
* anything else is ``json.dumps`` (Python's default separators, ASCII escapes, insertion
  order, ``default=str``) of the value after a recursive conversion in which booleans and
  numbers become their ``str()`` (``8.7`` -> ``"8.7"``, ``True`` -> ``"True"``), dates become
  ISO text, lists/tuples/dicts are converted item by item, and a pydantic model becomes its
  ``model_dump()`` with nothing converted inside (numbers stay numbers, datetimes become
  ``str(datetime)`` through ``default=str``, ``None`` fields stay as ``null``).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from pydantic import BaseModel


def tau2_json(value: Any) -> str:
    """The tool message text τ²-bench writes for a tool's return value ``value``.

    Raises:
        TypeError: ``value`` holds a type τ² cannot serialise (a set, an arbitrary object).
    """
    if isinstance(value, str):
        return value
    return json.dumps(_converted(value), default=str)


def _converted(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump()
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool | int | float):
        return str(value)
    if isinstance(value, list):
        return [_converted(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_converted(item) for item in value)
    if isinstance(value, dict):
        return {key: _converted(item) for key, item in value.items()}
    if isinstance(value, dt.date):  # datetimes too
        return value.isoformat()
    raise TypeError(f"τ² tool outputs cannot hold a {type(value).__name__}")

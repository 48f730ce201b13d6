"""τ²-bench's tool-output serialisation rule (its ``to_json_str``, domain-spec §1.4).

A string is used as it is; anything else is ``json.dumps(process(value), default=str)``
with Python's default separators, where ``process`` dumps a pydantic model as it is
(numbers stay numbers) and turns the numbers and booleans of plain containers into
strings (``8.7`` becomes ``"8.7"``), dates into ISO text.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from pydantic import BaseModel


def tau2_json(value: Any) -> str:
    """The ToolMessage content τ²-bench makes of a tool's return value."""
    if isinstance(value, str):
        return value
    return json.dumps(_process(value), default=str)


def _process(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump()
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool | int | float):
        return str(value)
    if isinstance(value, list):
        return [_process(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_process(item) for item in value)
    if isinstance(value, dict):
        return {key: _process(item) for key, item in value.items()}
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    return value

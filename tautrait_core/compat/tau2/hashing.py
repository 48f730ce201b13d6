"""τ²-bench's database hash, for comparing a domain's state with τ²'s golden hashes."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def tau2_db_hash(data: dict[str, Any]) -> str:
    """The hex SHA-256 τ²-bench gives a database whose ``model_dump()`` is ``data``.

    ``data`` is one side's state in τ²'s dict shape (dates may stay date objects: like τ²,
    they hash as ``str(date)``); keys are sorted at every level, floats use ``repr``.
    """
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()

"""τ²-bench's database hash: ``sha256(json.dumps(db.model_dump(), sort_keys=True,
default=str))``, of a side's database exported to τ²'s dict shape."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def tau2_db_hash(data: dict[str, Any]) -> str:
    """The hex digest τ²-bench computes for a database dumped as ``data``."""
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()

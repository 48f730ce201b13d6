"""τ²-bench's merge of a task's ``initialization_data`` into a database (domain-spec §2.3)."""

from __future__ import annotations

import copy
from typing import Any


def tau2_deep_merge(base: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """``base`` updated in place by ``update`` as ``addict.Dict.update`` does: nested objects
    merge key by key, anything else (lists, scalars) is replaced. Returns ``base``."""
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            tau2_deep_merge(base[key], value)
        else:
            base[key] = copy.deepcopy(value)
    return base

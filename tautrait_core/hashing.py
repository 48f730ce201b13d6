"""The upstream (tau-bench / tau-trait) data hash and change sets, for compatibility.

``upstream_hash(data)`` is ``sha256(str(to_hashable(data)))`` exactly as upstream computes
it over its dict-of-collections data, so hashes can be compared with upstream's
``gt_data_hash`` values.
"""

from __future__ import annotations

import hashlib
from typing import Any


def to_hashable(value: Any) -> Any:
    """Upstream's ``to_hashable``: dicts become key-sorted tuples of pairs, lists tuples."""
    if isinstance(value, dict):
        return tuple((key, to_hashable(item)) for key, item in sorted(value.items()))
    if isinstance(value, list):
        return tuple(to_hashable(item) for item in value)
    if isinstance(value, set):
        return tuple(sorted(value))
    return value


def upstream_hash(data: dict[str, Any]) -> str:
    """``sha256(str(to_hashable(data)))``: upstream's ``consistent_hash`` of its data."""
    return hashlib.sha256(str(to_hashable(data)).encode("utf-8")).hexdigest()


def upstream_changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per collection, the records that changed or were added (full record) or removed (None).

    Collections are compared by key (dict collections) or by position (list collections);
    collections with no change are left out. This is the ``changes`` form of the golden files.
    """
    result: dict[str, dict[str, Any]] = {}
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name), after.get(name)
        if isinstance(old, list) or isinstance(new, list):
            old = dict(enumerate(old or []))
            new = dict(enumerate(new or []))
        old = old or {}
        new = new or {}
        changed: dict[str, Any] = {}
        for key in list(old) + [k for k in new if k not in old]:
            if key not in new:
                changed[str(key)] = None
            elif key not in old or repr(to_hashable(old[key])) != repr(to_hashable(new[key])):
                changed[str(key)] = new[key]
        if changed:
            result[name] = changed
    return result

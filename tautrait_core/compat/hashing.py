"""The upstream (tau-bench / tau-trait) data hash and change sets, for compatibility.

``upstream_hash(data)`` is ``sha256(str(to_hashable(data)))`` exactly as upstream computes
it over its dict-of-collections data, so hashes can be compared with upstream's
``gt_data_hash`` values.
"""

from __future__ import annotations

import hashlib
import json
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


CANONICAL_JSON_KEPT = 8192
"""How many JSON texts :func:`canonical_json` remembers (it forgets them all when full)."""
_canonical_json: dict[str | bytes, Any] = {}


def canonical_json(raw: str | bytes) -> Any:
    """``to_hashable(json.loads(raw))``, remembered for the last texts seen.

    A state hash parses the same stored JSON again and again (the agent's copy and the gold
    replay's copy of a row, every trial of a task); the result is immutable (tuples and JSON
    scalars), so it can be shared. ``RecursionError`` propagates as from ``json.loads``.
    """
    found = _canonical_json.get(raw)
    if found is None:
        found = to_hashable(json.loads(raw))
        if len(_canonical_json) >= CANONICAL_JSON_KEPT:
            _canonical_json.clear()
        _canonical_json[raw] = found
    return found


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


class UpstreamBaseline:
    """:func:`upstream_changes` and :func:`upstream_hash` of states near one baseline, fast.

    For comparing many states that differ from ``data`` (a dict of dict collections) in a
    few records, e.g. every gold replay of a task set against the fresh data. A record whose
    ``json.dumps`` text equals the baseline's is equal for upstream too (same keys, values
    and int/float types), so :meth:`compare` runs :func:`upstream_changes` on the other
    records only, and assembles the text that :func:`upstream_hash` digests from the
    baseline's text of each unchanged record.
    """

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.texts = _record_texts(data)
        self.hashables = {
            name: {key: repr(to_hashable(value)) for key, value in records.items()}
            for name, records in data.items()
        }

    def compare(self, after: dict[str, Any]) -> tuple[dict[str, dict[str, Any]], str]:
        """``(upstream_changes(self.data, after), upstream_hash(after))``."""
        differing = self._differing(after)

        def part(data: dict[str, Any]) -> dict[str, Any]:
            return {
                name: {key: value for key, value in data[name].items() if key in differing[name]}
                for name in data
            }

        collections = []
        for name in sorted(after):
            records = after[name]
            texts = self.hashables.get(name, {})
            entries = [
                f"({key!r}, "
                + (
                    texts[key]
                    if key in texts and key not in differing[name]
                    else repr(to_hashable(records[key]))
                )
                + ")"
                for key in sorted(records)
            ]
            collections.append(f"({name!r}, {_tuple_text(entries)})")
        digest = hashlib.sha256(_tuple_text(collections).encode("utf-8")).hexdigest()
        return upstream_changes(part(self.data), part(after)), digest

    def _differing(self, after: dict[str, Any]) -> dict[str, set[str]]:
        after_texts = _record_texts(after)
        return {
            name: {
                key
                for key in {*self.texts.get(name, {}), *after_texts[name]}
                if self.texts.get(name, {}).get(key) != after_texts[name].get(key)
            }
            for name in after_texts
        }


def _record_texts(data: dict[str, Any]) -> dict[str, dict[str, str]]:
    return {name: {key: json.dumps(value) for key, value in data[name].items()} for name in data}


def _tuple_text(items: list[str]) -> str:
    """How Python prints a tuple whose elements print as ``items``."""
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"

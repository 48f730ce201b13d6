"""Upstream records from the column values of a row read with plain SQL.

The tools read and write rows with the episode database's plain-SQL methods
(:meth:`~tautrait_core.EpisodeDB.read_row`, :meth:`~tautrait_core.EpisodeDB.update_row`):
on a database this small, loading rows as ORM objects cost most of a tool call.
"""

from __future__ import annotations

from typing import Any


def upstream_record(values: dict[str, Any]) -> dict[str, Any]:
    """The upstream record of a row: exactly its keys, in upstream order."""
    return {key: values[key] for key in values["field_order"]}


def set_fields(values: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """Apply ``changes`` (key -> value) to a row's values and return the columns to write:
    the changed ones, plus ``field_order`` when a key the record lacked is added (after the
    existing keys, in the order given)."""
    order = values["field_order"]
    added = [key for key in changes if key not in order]
    values.update(changes)
    written = dict(changes)
    if added:
        values["field_order"] = written["field_order"] = [*order, *added]
    return written

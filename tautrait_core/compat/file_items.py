"""Parsing the items of an upstream file (result records, tasks, simulations) one by one,
naming the first that fails."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from tautrait_core.errors import TaskSetError, first_line

Parsed = TypeVar("Parsed")


def parse_items(
    items: Iterable[Any],
    parse: Callable[[Any], Parsed],
    failures: tuple[type[Exception], ...],
    which: Callable[[int, Any], str],
    reason: Callable[[Exception], str] = first_line,
) -> list[Parsed]:
    """``parse`` applied to each item, in order.

    Raises:
        TaskSetError: an item failed with one of ``failures``; the message is
            ``which(position, item)`` (the file and the item), then ``: `` and the
            ``reason`` of the failure (by default the first line of its message).
    """
    parsed = []
    for position, item in enumerate(items):
        try:
            parsed.append(parse(item))
        except failures as exc:
            raise TaskSetError(f"{which(position, item)}: {reason(exc)}") from exc
    return parsed

"""A run's infrastructure errors as ``tautrait report`` lists them: one line per distinct
message, naming the episodes that ended with it, within 80 columns::

    error (5 episodes: task 3 trials 0-1, task 4 trials 0-2): no agent answers at ht…

``report --json`` keeps every error in full.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

from tautrait_core.analysis.transcript import visible
from tautrait_core.render.console import shortened

WIDTH = 80
"""The columns an error line fits in."""
MAX_LINES = 10
"""Distinct messages listed; a last line counts the others."""
EPISODES_WIDTH = 40
"""The most columns the episodes of one line take before the message."""


def error_lines(errors: list[dict[str, Any]]) -> list[str]:
    """The lines for ``errors`` (as :meth:`RunSummary.errors` gives them), each indented
    two columns; identical first lines of messages are one line."""
    groups: dict[str, list[tuple[int, int]]] = {}
    for error in errors:
        first_line = (error["error"] or "").strip().splitlines()[:1]
        message = visible(first_line[0]) if first_line else error["termination"]
        groups.setdefault(message, []).append((error["task_id"], error["trial"]))
    lines = []
    for message, episodes in list(groups.items())[:MAX_LINES]:
        lead = f"  error ({_episodes(sorted(episodes))}): "
        lines.append(lead + shortened(message, max(WIDTH - len(lead), 20)))
    if len(groups) > MAX_LINES:
        lines.append(f"  and {len(groups) - MAX_LINES} other errors (report --json lists all)")
    return lines


def _episodes(episodes: list[tuple[int, int]]) -> str:
    """``task 3 trial 0`` or ``5 episodes: task 3 trials 0-1, task 4 trials 0-2``, its
    tasks cut short with ``…`` past :data:`EPISODES_WIDTH`."""
    parts = []
    for task, pairs in groupby(episodes, key=lambda pair: pair[0]):
        trials = [trial for _, trial in pairs]
        parts.append(f"task {task} {'trial' if len(trials) == 1 else 'trials'} {_ranges(trials)}")
    if len(episodes) == 1:
        return parts[0]
    text = f"{len(episodes)} episodes: "
    for index, part in enumerate(parts):
        more = ", …" if index + 1 < len(parts) else ""
        if index and len(text) + len(part) + len(more) > EPISODES_WIDTH:
            return text + "…"
        text += part + (", " if more else "")
    return text


def _ranges(numbers: list[int]) -> str:
    """``0-2,5`` for 0, 1, 2 and 5."""
    spans: list[list[int]] = []
    for number in numbers:
        if spans and number == spans[-1][1] + 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ",".join(str(low) if low == high else f"{low}-{high}" for low, high in spans)

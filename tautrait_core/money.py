"""Amounts of money as tautrait writes them: dollars with enough decimals to tell small
costs apart, and ``unknown`` where a price is unknown (never a silent 0)."""

from __future__ import annotations

import math

MIN_COST_DECIMALS = 4
MAX_COST_DECIMALS = 10


def format_costs(*costs: float | None) -> list[str]:
    """Dollar amounts shown together (a total and its parts), with one number of decimals.

    At least four decimals, more when needed so that the smallest non-zero amount keeps two
    significant digits (``$0.000012``, never ``$0.0000``); ``unknown`` when some call had
    no known price (never a silent 0).
    """
    nonzero = [abs(cost) for cost in costs if cost]
    decimals = MIN_COST_DECIMALS
    if nonzero:
        needed = 1 - math.floor(math.log10(min(nonzero)))
        decimals = min(max(decimals, needed), MAX_COST_DECIMALS)
    return ["unknown" if cost is None else f"${cost:.{decimals}f}" for cost in costs]


def format_cost(cost: float | None) -> str:
    """Dollars (see :func:`format_costs`), or ``unknown`` when a price is unknown."""
    return format_costs(cost)[0]

"""The calculate tools: an expression the model writes is bounded in size and time."""

from __future__ import annotations

import time

import pytest

from tautrait_core.domain.common_tools import calculate
from tautrait_core.domain.tau2_tools import tau2_calculate

HUGE = ["(9**9999)**9999", "9**9**9", "2**2**2**2**2**2", "9" * 1500 + "**9999"]


def _tau2(expression: str) -> str:
    try:
        return tau2_calculate(expression)
    except Exception as exc:  # τ²'s tool reports every exception as its text
        return f"Error: {exc}"


@pytest.mark.parametrize("expression", HUGE)
def test_huge_powers_are_refused_at_once(expression: str) -> None:
    started = time.monotonic()
    assert calculate.invoke(None, {"expression": expression}) == (
        "Error: the numbers in the expression are too large"
    )
    assert _tau2(expression) == "Error: the numbers in the expression are too large"
    assert time.monotonic() - started < 1.0


def test_long_expressions_are_refused() -> None:
    expression = "+".join(["1"] * 1500)
    assert _tau2(expression).startswith("Error: the expression is longer than")


@pytest.mark.parametrize(
    "expression",
    [
        *["(19.99 + 5) * 2", "1/0", "1.0/0", "", "()", "10**400", "(-8)**0.5", "2**-1"],
        *["0**-1", "10**400/10**399", "1**(10**9)", "7 // 2", "2 3", "(" * 300 + ")" * 300],
    ],
)
def test_ordinary_expressions_read_as_eval_gives_them(expression: str) -> None:
    try:
        expected = str(round(float(eval(expression, {"__builtins__": None}, {})), 2))
    except Exception as exc:
        expected = f"Error: {exc}"
    assert _tau2(expression) == expected

"""Arithmetic on text a model wrote, bounded so that no expression takes long.

The ``calculate`` tools (τ-bench's and τ²-bench's) evaluate an expression the agent
wrote. Python's ``eval`` of ``9**9**9`` or ``(9**9999)**9999`` computes an integer of
millions of digits for minutes, on the event loop every episode of a run shares.
:func:`evaluate_arithmetic` walks the parsed expression itself, with Python's own
operators (so values and error texts are ``eval``'s), and refuses before computing
anything whose size is out of bounds: an expression longer than
:data:`MAX_EXPRESSION_CHARS` characters or of more than :data:`MAX_NODES` parts, and
an integer result of more than :data:`MAX_INTEGER_BITS` bits. Within these bounds every
operation takes microseconds.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

MAX_EXPRESSION_CHARS = 2_000
MAX_NODES = 400
MAX_INTEGER_BITS = 10_000
"""About 3,000 decimal digits: far past a float's range (1024 bits), cheap to compute."""

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
}


class ExpressionTooLarge(ValueError):
    """The expression, or a number it computes, is past the bounds."""


def evaluate_arithmetic(expression: str) -> Any:
    """The value of ``expression`` (number literals with ``+ - * / // **`` and
    parentheses) as ``eval`` gives it, without ``eval``.

    Raises:
        SyntaxError: as ``eval`` words it (``invalid syntax (<string>, line 1)``).
        ExpressionTooLarge: the expression or a number it computes is too large.
        ValueError: the expression holds something else than arithmetic.
        ArithmeticError: as ``eval`` raises it (``division by zero``, ...).
    """
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise ExpressionTooLarge(f"the expression is longer than {MAX_EXPRESSION_CHARS} characters")
    tree = ast.parse(expression, filename="<string>", mode="eval")
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise ExpressionTooLarge(f"the expression has more than {MAX_NODES} parts")
    return _value(tree.body)


def _value(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float | complex):
        _check_size(node.value)
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _value(node.left), _value(node.right)
        _check_operation(node.op, left, right)
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_value(node.operand))
    if isinstance(node, ast.Tuple):  # ``()``: eval's value, which float() refuses
        return tuple(_value(element) for element in node.elts)
    raise ValueError("unsupported expression")


def _check_size(value: Any) -> None:
    if isinstance(value, int) and value.bit_length() > MAX_INTEGER_BITS:
        raise ExpressionTooLarge("the numbers in the expression are too large")


def _check_operation(op: ast.operator, left: Any, right: Any) -> None:
    """Refuse an integer product or power whose result would be too large (estimated
    from the operands' sizes, before computing it)."""
    if not (isinstance(left, int) and isinstance(right, int)):
        return  # floats and complex numbers have a fixed size
    if isinstance(op, ast.Mult):
        bits = left.bit_length() + right.bit_length()
    elif isinstance(op, ast.Pow) and right > 0 and abs(left) > 1:
        bits = left.bit_length() * right
    else:
        return
    if bits > MAX_INTEGER_BITS:
        raise ExpressionTooLarge("the numbers in the expression are too large")

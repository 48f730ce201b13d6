"""Read upstream ``tasks_*.py`` files without executing them.

Upstream task files are Python modules holding one list of ``Task(...)`` calls. This
reader walks the syntax tree and accepts only literals, plus the one non-literal pattern the
files use (``"sep".join((...string literals...))``). Anything else is a clear error naming
the file and line, never code execution.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tautrait_core.errors import TaskSetError
from tautrait_core.files import read_text_file
from tautrait_core.types.task import Action, Task


@dataclass
class TaskFile:
    """The tasks read from an upstream task file, and the tasks that had to be skipped.

    Attributes:
        tasks: The valid tasks, in file order.
        skipped: One message per invalid task (file, line, index and what is wrong).
    """

    tasks: list[Task] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def read_task_file(path: Path) -> TaskFile:
    """The tasks of an upstream task file; an invalid task is skipped with a message.

    The task list is the module-level assignment whose value is a list of ``Task(...)``
    calls, whatever its name (``TASKS_TEST``, ``TASKS``, ...).

    Raises:
        TaskSetError: the file is unreadable, not Python, or holds no single task list.
    """
    source = read_text_file(path, TaskSetError, "the upstream task file")
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as exc:
        raise TaskSetError(f"{path}: not valid Python ({exc.msg}, line {exc.lineno})") from exc
    except (ValueError, RecursionError) as exc:  # NUL bytes, absurd nesting
        raise TaskSetError(f"{path}: not a readable Python file ({exc})") from exc
    lists = [
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        and isinstance(node.value, ast.List)
        and node.value.elts
        and all(_is_call_to(element, "Task") for element in node.value.elts)
    ]
    if not lists:
        raise TaskSetError(f"{path}: no list of Task(...) found")
    if len(lists) > 1:
        raise TaskSetError(f"{path}: more than one list of Task(...) found")
    result = TaskFile()
    for index, element in enumerate(lists[0].elts):
        try:
            result.tasks.append(_task(path, element))
        except (TaskSetError, ValueError) as exc:
            reason = str(exc).splitlines()[0]
            result.skipped.append(
                f"task {index} ({path}:{element.lineno}) skipped: {reason}; "
                "the tasks after it are numbered one lower than upstream's"
            )
    return result


def parse_task_file(path: Path) -> list[Task]:
    """All tasks of an upstream task file, in file order.

    Raises:
        TaskSetError: as :func:`read_task_file`, and also when any task is invalid.
    """
    read = read_task_file(path)
    if read.skipped:
        raise TaskSetError(read.skipped[0])
    return read.tasks


def _is_call_to(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


def _task(path: Path, node: ast.expr) -> Task:
    assert isinstance(node, ast.Call)
    if node.args:
        raise TaskSetError(f"{path}:{node.lineno}: Task(...) must use keyword arguments only")
    fields: dict[str, Any] = {}
    for keyword in node.keywords:
        if keyword.arg is None:
            raise TaskSetError(f"{path}:{node.lineno}: **kwargs in Task(...) is not supported")
        if keyword.arg == "actions":
            fields["actions"] = _actions(path, keyword.value)
        else:
            fields[keyword.arg] = _literal(path, keyword.value)
    try:
        return Task.model_validate(fields)
    except ValueError as exc:
        raise TaskSetError(f"{path}:{node.lineno}: invalid task: {exc}") from exc


def _actions(path: Path, node: ast.expr) -> list[Action]:
    if not isinstance(node, ast.List):
        raise TaskSetError(f"{path}:{node.lineno}: actions must be a list of Action(...)")
    actions = []
    for element in node.elts:
        if not _is_call_to(element, "Action"):
            raise TaskSetError(f"{path}:{element.lineno}: expected Action(...)")
        assert isinstance(element, ast.Call)
        values = {kw.arg: _literal(path, kw.value) for kw in element.keywords if kw.arg}
        if "arguments" in values and "kwargs" not in values:
            values["kwargs"] = values.pop("arguments")
        actions.append(Action.model_validate(values))
    return actions


def _literal(path: Path, node: ast.expr) -> Any:
    joined = _string_join(node)
    if joined is not None:
        return joined
    try:
        return ast.literal_eval(node)
    except ValueError as exc:
        raise TaskSetError(
            f"{path}:{node.lineno}: only literal values are accepted in task files "
            f"(found {ast.unparse(node)[:60]!r})"
        ) from exc


def _string_join(node: ast.expr) -> str | None:
    """Evaluate ``"sep".join((literal strings...))``; ``None`` if ``node`` is not that."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "join"
        and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Tuple | ast.List)
    ):
        return None
    parts = node.args[0].elts
    if not all(isinstance(p, ast.Constant) and isinstance(p.value, str) for p in parts):
        return None
    return node.func.value.value.join(p.value for p in parts)  # type: ignore[attr-defined]

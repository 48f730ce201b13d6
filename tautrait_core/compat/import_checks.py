"""What an import checks in a domain of the checkout before it keeps it.

A file that is imported but cannot be used would fail every later ``run`` and ``check``
of the domain, far from its cause: each database file must parse (JSON or TOML) into an
object, and the task ids of a task file must be unique, printable and short, since runs,
exports and re-imports find an episode's task by its id. A domain that fails is reported
alone; the others are imported.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

from tautrait_core.errors import TaskSetError, UpstreamImportError
from tautrait_core.files import read_json_file, read_text_file
from tautrait_core.types.task import Task

MAX_TASK_ID_LENGTH = 1000
"""The longest task id an import accepts, in characters (τ²'s telecom ids reach 215)."""


def check_data_file(path: Path, what: str, fix: str) -> None:
    """Fail unless ``path`` (``what``, e.g. ``"the telecom database"``) is a JSON or
    TOML file (by its suffix) holding an object.

    Raises:
        UpstreamImportError: it cannot be read or parsed, or holds no object; the message
            names ``path`` and ends with ``fix``.
    """
    if path.suffix == ".toml":
        text = read_text_file(path, UpstreamImportError, what, fix)
        try:
            tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise UpstreamImportError(f"{path}: {what} is not valid TOML ({exc}); {fix}") from exc
        return
    data = read_json_file(path, UpstreamImportError, what, fix)
    if not isinstance(data, dict):
        raise UpstreamImportError(
            f"{path}: {what} is a JSON {type(data).__name__}, not an object; {fix}"
        )


def check_task_ids(tasks: list[Task], path: Path) -> None:
    """Fail unless the tasks of the task file ``path`` that have ids have unique,
    printable ids of at most :data:`MAX_TASK_ID_LENGTH` characters.

    Raises:
        TaskSetError: naming the file and the first ids at fault.
    """
    ids = [task.id for task in tasks if task.id is not None]
    repeated = [task_id for task_id, count in Counter(ids).items() if count > 1]
    if repeated:
        raise TaskSetError(
            f"{path}: task ids used more than once: {_some(repeated)}; give each task "
            "its own id and import again"
        )
    unfit = [task_id for task_id in ids if not _fits(task_id)]
    if unfit:
        raise TaskSetError(
            f"{path}: task ids that are empty, not printable or over {MAX_TASK_ID_LENGTH} "
            f"characters: {_some(unfit)}; shorten or rename them and import again"
        )


def _fits(task_id: str) -> bool:
    return bool(task_id.strip()) and task_id.isprintable() and len(task_id) <= MAX_TASK_ID_LENGTH


def _some(ids: list[str]) -> str:
    """The first three ``ids``, shortened and quoted, and how many more there are."""
    shown = ", ".join(repr(task_id[:40]) for task_id in ids[:3])
    return shown + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")

"""The rows of a domain's imported upstream data, read when a run, ``check`` or
``rescore`` first needs its database.

The files were checked when they were imported, but they live in the data directory,
where they may be damaged since: a file that no longer reads or loads is then one
:class:`~tautrait_core.errors.TaskSetError` naming it and how to import it again, never
the codec's traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from sqlmodel import SQLModel

from tautrait_core.errors import TaskSetError, TautraitError


def imported_rows_loader(
    read_rows: Callable[[], Iterable[SQLModel]], source: Callable[[], Path], reimport: str
) -> Callable[[], list[SQLModel]]:
    """A loader of the rows that ``read_rows`` makes of the imported file or folder that
    ``source`` names (asked only on a failure); ``reimport`` is the command that imports
    it again."""

    def load() -> list[SQLModel]:
        try:
            return list(read_rows())
        except TautraitError:
            raise  # already one line naming what to do (e.g. nothing imported yet)
        except Exception as exc:  # a codec may fail in any way on damaged data
            detail = " ".join(str(exc).split())  # pydantic's messages span lines
            where = source()
            if str(where) not in detail:
                problem = f"{type(exc).__name__}: {detail}"
                detail = f"{where}: the imported data does not load ({problem})"
            raise TaskSetError(f"{detail}; import it again: {reimport}") from exc

    return load

"""The rows of a domain's imported upstream data, read when a run, ``check`` or
``rescore`` first needs its database.

The files were checked when they were imported, but they live in the data directory,
where they may be damaged since: a file that no longer reads or loads is then one
:class:`~tautrait_core.errors.TaskSetError` naming it and how to import it again, never
the codec's traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sqlmodel import SQLModel

from tautrait_core.domain.domain import UpstreamFormat
from tautrait_core.errors import TaskSetError


def imported_rows_loader(
    codec: UpstreamFormat, folder: Path, reimport: str
) -> Callable[[], list[SQLModel]]:
    """A loader of the rows of the imported data ``folder`` read through ``codec``;
    ``reimport`` is the command that imports the data again."""

    def load() -> list[SQLModel]:
        try:
            return list(codec.to_rows(codec.read_data(folder)))
        except Exception as exc:  # a codec may fail in any way on damaged data
            detail = " ".join(str(exc).split())  # pydantic's messages span lines
            if str(folder) not in detail:
                detail = f"{folder}: the imported data does not load ({detail})"
            raise TaskSetError(f"{detail}; import it again: {reimport}") from exc

    return load

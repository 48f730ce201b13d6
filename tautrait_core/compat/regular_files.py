"""Copying an upstream checkout's files into the data directory: regular files only.

An imported folder is read again at every run (its policy goes to the model, its database
into the episode), so what it holds must be the checkout's own files. A symbolic link
would be followed at run time to whatever it names (a keys file, say), and a FIFO or a
device (``/dev/zero``) would never end: they are refused, all named in one line, and so
is a file over :func:`~tautrait_core.files.max_file_bytes`. Nothing is copied until the
whole folder has been checked.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tautrait_core.errors import UpstreamImportError
from tautrait_core.files import max_file_bytes, too_large

CHUNK_BYTES = 1024 * 1024
"""How much of a file is copied at a time."""

REFUSED_FIX = "put the files themselves there and import again"
"""What to do about a refused entry of the checkout."""


def kind_of(status: os.stat_result) -> str | None:
    """What a non-regular, non-folder entry is (``"a symbolic link"``, ...), or ``None``
    for a regular file or a folder."""
    mode = status.st_mode
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a socket" if stat.S_ISSOCK(mode) else "not a regular file"


def check_regular(paths: list[Path], root: Path) -> None:
    """Refuse ``paths`` (files of the checkout folder ``root``) unless each is a regular
    file within the size limit.

    Raises:
        UpstreamImportError: one line naming every entry that is refused and why.
    """
    limit = max_file_bytes(UpstreamImportError)
    refused = []
    for path in paths:
        status = path.lstat()
        kind = kind_of(status)
        if kind is not None:
            refused.append(f"{path.relative_to(root)} ({kind})")
        elif stat.S_ISREG(status.st_mode) and status.st_size > limit:
            raise UpstreamImportError(too_large(path, "the file", limit))
    if refused:
        raise UpstreamImportError(
            f"{root}: refused {', '.join(refused)}; only regular files are imported: " + REFUSED_FIX
        )


def copy_folder(source: Path, destination: Path) -> None:
    """Copy the folder ``source`` into the existing folder ``destination``: its regular
    files and sub-folders, after :func:`check_regular` accepted every entry.

    Raises:
        UpstreamImportError: an entry is refused (nothing is copied then), or a file grew
            past the limit while it was copied.
    """
    entries = sorted(source.rglob("*"))
    check_regular([path for path in entries if not _is_folder(path)], source)
    for path in entries:
        target = destination / path.relative_to(source)
        if _is_folder(path):
            target.mkdir(exist_ok=True)
        else:
            copy_file(path, target)


def copy_file(source: Path, target: Path) -> None:
    """Copy the regular file ``source`` to ``target``, never following a link put in its
    place meanwhile and never copying more than the size limit.

    Raises:
        UpstreamImportError: ``source`` is no longer a regular file, or is over the limit.
    """
    limit = max_file_bytes(UpstreamImportError)
    try:
        descriptor = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise UpstreamImportError(f"{source}: cannot read it ({exc.strerror or exc})") from exc
    with os.fdopen(descriptor, "rb") as reading:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise UpstreamImportError(f"{source}: not a regular file; {REFUSED_FIX}")
        with target.open("wb") as writing:
            copied = 0
            while chunk := reading.read(CHUNK_BYTES):
                copied += len(chunk)
                if copied > limit:
                    raise UpstreamImportError(too_large(source, "the file", limit))
                writing.write(chunk)


def _is_folder(path: Path) -> bool:
    """Whether ``path`` is a folder itself (a link to a folder is not)."""
    return stat.S_ISDIR(path.lstat().st_mode)

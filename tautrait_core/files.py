"""Reading the text and JSON files a user hands to tautrait, and writing the ones it asks for.

Every reader of a user's file (trait mixes, result lists, task files, sweep files, the keys
file, ...) goes through :func:`read_text_file` or :func:`read_json_file`, so that an
unreadable, non-UTF-8, empty, truncated or absurdly nested file is always one error that
names the file, says what is wrong with it and what it should be, never a traceback. No
reader takes more than :func:`max_file_bytes` (256 MB unless ``$TAUTRAIT_MAX_FILE_MB`` says
otherwise): a huge file, or a device such as ``/dev/zero``, is refused, never read into
memory until it runs out. Files written where the user said (exports, reports) go through
:func:`write_text_file` or :func:`open_for_writing`: UTF-8, the folder created, a failure
named; :func:`write_problem` says beforehand, creating nothing, whether such a path can be
written.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

MAX_FILE_MB_ENV = "TAUTRAIT_MAX_FILE_MB"
"""The environment variable that sets :func:`max_file_bytes`, in megabytes."""
DEFAULT_MAX_FILE_MB = 256
"""The largest file tautrait reads, in megabytes, when ``$TAUTRAIT_MAX_FILE_MB`` is unset."""


def max_file_bytes(error: type[Exception]) -> int:
    """The size of the largest file tautrait reads or imports, in bytes.

    Raises:
        error: ``$TAUTRAIT_MAX_FILE_MB`` is set but is not a positive whole number.
    """
    configured = os.environ.get(MAX_FILE_MB_ENV, "").strip()
    if not configured:
        return DEFAULT_MAX_FILE_MB * 1024 * 1024
    if not configured.isdigit() or int(configured) == 0:
        raise error(
            f"{MAX_FILE_MB_ENV}={configured!r} is not a number of megabytes; "
            f"set it to e.g. {DEFAULT_MAX_FILE_MB * 4}, or unset it"
        )
    return int(configured) * 1024 * 1024


def too_large(path: Path, what: str, limit: int) -> str:
    """The message for ``path``, which is ``what``, being over ``limit`` bytes."""
    return f"{path}: {what} is over {limit // (1024 * 1024)} MB; raise {MAX_FILE_MB_ENV}"


def read_file_bytes(path: Path, error: type[Exception], what: str, fix: str = "") -> bytes:
    """The bytes of ``path``, which is ``what``, read only up to :func:`max_file_bytes`
    (a pipe such as ``<(...)`` is read too; a device like ``/dev/zero`` stops there).

    Raises:
        error: the file cannot be read, or is larger than the limit; the message starts
            with the path.
    """
    limit = max_file_bytes(error)
    try:
        with path.open("rb") as stream:
            status = os.fstat(stream.fileno())
            if stat.S_ISREG(status.st_mode) and status.st_size > limit:
                raise error(too_large(path, what, limit))
            data = stream.read(limit + 1)
    except OSError as exc:
        raise error(_message(path, f"cannot read {what} ({exc.strerror or exc})", fix)) from exc
    if len(data) > limit:
        raise error(too_large(path, what, limit))
    return data


def read_text_file(path: Path, error: type[Exception], what: str, fix: str = "") -> str:
    """The UTF-8 text of ``path``, which is ``what`` (e.g. ``"the sweep file"``); a
    byte-order mark that some Windows editors put first is left out.

    Raises:
        error: the file cannot be read, is over :func:`max_file_bytes` or is not UTF-8
            text; the message starts with the path and ends with ``fix`` when one is given.
    """
    data = read_file_bytes(path, error, what, fix)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problem = f"{what} is not UTF-8 text (byte {exc.start} is invalid)"
        raise error(_message(path, problem, fix)) from exc
    return text.replace("\r\n", "\n").replace("\r", "\n")  # as Python's text mode reads


def read_json_file(path: Path, error: type[Exception], what: str, fix: str = "") -> Any:
    """The parsed JSON of ``path``, which is ``what`` (e.g. ``"the result list"``).

    Raises:
        error: the file cannot be read, is too large, is not UTF-8, is empty, is not valid
            JSON or is nested too deeply to parse; the message starts with the path and ends with
            ``fix`` when one is given.
    """
    text = read_text_file(path, error, what, fix)
    try:
        return json.loads(text)
    except RecursionError as exc:
        raise error(_message(path, f"{what} is nested too deeply to parse", fix)) from exc
    except ValueError as exc:
        problem = "empty" if not text.strip() else f"not valid JSON ({json_position(exc)})"
        raise error(_message(path, f"{what} is {problem}", fix)) from exc


def json_position(exc: ValueError) -> str:
    """Where JSON parsing failed, short: ``line 3 column 7`` (the reason, e.g. an
    unterminated string, would take a message past 80 columns)."""
    if isinstance(exc, json.JSONDecodeError):
        return f"line {exc.lineno} column {exc.colno}"
    return str(exc)


@contextmanager
def open_for_writing(path: Path, error: type[Exception], what: str) -> Iterator[TextIO]:
    """``path`` open for writing UTF-8 text, its folder created first; ``what`` it will
    hold (e.g. ``"the export"``) names it in errors. Only writing belongs in the block:
    an ``OSError`` raised there is reported as a failure to write the file.

    Raises:
        error: the folder cannot be created or the file cannot be written (a read-only
            place, a full disk, a folder in the way), naming the path.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as stream:
            yield stream
    except OSError as exc:
        raise error(f"{path}: cannot write {what} ({exc.strerror or exc})") from exc


def write_text_file(path: Path, text: str, error: type[Exception], what: str) -> None:
    """Write ``text`` to ``path`` as UTF-8 (see :func:`open_for_writing`).

    Raises:
        error: the file cannot be written, naming the path.
    """
    with open_for_writing(path, error, what) as stream:
        stream.write(text)


def write_problem(path: Path, folder: bool = False) -> str | None:
    """Why ``path`` (a file, or with ``folder`` a folder to write files into) cannot be
    written, or ``None`` when it can: found before a long job that ends by writing there.

    The path must not be a folder (a file, with ``folder``); the nearest folder that
    exists on the way to it must let a file be created in it (tried with a temporary file
    that is removed at once: nothing is left behind, no folder is created); an existing
    file must open for appending (its content is not touched).
    """
    if path.exists():
        if folder and not path.is_dir():
            return "it is a file, not a folder"
        if not folder:
            return "it is a folder, not a file" if path.is_dir() else _open_problem(path)
    nearest = path if folder else path.parent
    while not nearest.exists() and not nearest.is_symlink() and nearest != nearest.parent:
        nearest = nearest.parent
    if not nearest.is_dir():
        return f"{nearest} is not a folder"
    try:
        with tempfile.TemporaryFile(dir=nearest):
            pass
    except OSError as exc:
        return f"cannot create files in {nearest} ({exc.strerror or exc})"
    return None


def _open_problem(path: Path) -> str | None:
    """Why the existing ``path`` cannot be opened for writing, or ``None``."""
    if not path.is_file():  # a device or a pipe: opening one may block, so ask only
        return None if os.access(path, os.W_OK) else "it cannot be written (Permission denied)"
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        return f"it cannot be written ({exc.strerror or exc})"
    return None


def _message(path: Path, problem: str, fix: str) -> str:
    return f"{path}: {problem}; {fix}" if fix else f"{path}: {problem}"

"""Reading the text and JSON files a user hands to tautrait.

Every reader of a user's file (trait mixes, result lists, task files, sweep files, the keys
file, ...) goes through :func:`read_text_file` or :func:`read_json_file`, so that an
unreadable, non-UTF-8, empty, truncated or absurdly nested file is always one error that
names the file, says what is wrong with it and what it should be, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_text_file(path: Path, error: type[Exception], what: str, fix: str = "") -> str:
    """The UTF-8 text of ``path``, which is ``what`` (e.g. ``"the sweep file"``).

    Raises:
        error: the file cannot be read or is not UTF-8 text; the message starts with the
            path and ends with ``fix`` when one is given.
    """
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(_message(path, f"cannot read {what} ({exc.strerror or exc})", fix)) from exc
    except UnicodeDecodeError as exc:
        problem = f"{what} is not UTF-8 text (invalid byte at offset {exc.start})"
        raise error(_message(path, problem, fix)) from exc


def read_json_file(path: Path, error: type[Exception], what: str, fix: str = "") -> Any:
    """The parsed JSON of ``path``, which is ``what`` (e.g. ``"the result list"``).

    Raises:
        error: the file cannot be read, is not UTF-8, is empty, is not valid JSON or is
            nested too deeply to parse; the message starts with the path and ends with
            ``fix`` when one is given.
    """
    text = read_text_file(path, error, what, fix)
    try:
        return json.loads(text)
    except RecursionError as exc:
        raise error(_message(path, f"{what} is nested too deeply to parse", fix)) from exc
    except ValueError as exc:
        problem = "empty" if not text.strip() else f"not valid JSON ({exc})"
        raise error(_message(path, f"{what} is {problem}", fix)) from exc


def _message(path: Path, problem: str, fix: str) -> str:
    return f"{path}: {problem}; {fix}" if fix else f"{path}: {problem}"

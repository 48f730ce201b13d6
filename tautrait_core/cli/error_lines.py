"""``Error:`` and ``Warning:`` lines on standard error.

On a terminal a line is broken at spaces to the terminal's width, continued lines
indented, a path or URL kept whole, instead of where the terminal would cut a word; into
a file or a pipe it stays one line, for ``grep`` and for logs.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from typing import IO, Any

import click


def echo_err(text: str) -> None:
    """Print ``text`` on standard error, each line broken to a terminal's width."""
    click.echo(for_stream(text, sys.stderr), file=sys.stderr)


def for_stream(text: str, stream: IO[Any]) -> str:
    """``text`` as it is shown on ``stream``: broken at spaces to the width of the
    terminal ``stream`` is, unchanged when it is no terminal."""
    if not stream.isatty():
        return text
    width = shutil.get_terminal_size().columns
    wrapped = (
        textwrap.fill(
            line, width, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
        )
        for line in text.splitlines()
    )
    return "\n".join(wrapped)


class CommandError(click.ClickException):
    """A command's failure: one ``Error:`` line (broken to a terminal's width)."""

    def show(self, file: IO[Any] | None = None) -> None:
        stream = file or sys.stderr
        click.echo(for_stream(f"Error: {self.format_message()}", stream), file=stream)

"""The ``tautrait`` command line. Thin: parse options, call the library, print.

Commands live in small modules that attach themselves to the root group; a command's module
is imported only when that command runs or help lists it (``root.COMMAND_MODULES``), and
heavy modules (SQLModel, litellm, domains) are imported inside the commands that need them,
so the command line starts quickly.
"""

from __future__ import annotations

import functools
import os
import sys
import warnings
from typing import Any

from tautrait_core.cli.error_lines import echo_err
from tautrait_core.cli.root import cli

UPSTREAM_MULTI_VALUE = ("--task-ids",)

__all__ = ["cli", "main"]


def _join_multi_values(argv: list[str]) -> list[str]:
    """Accept upstream's ``--task-ids 1 2 3`` by joining the values into one option value."""
    result: list[str] = []
    index = 0
    while index < len(argv):
        result.append(argv[index])
        if argv[index] in UPSTREAM_MULTI_VALUE:
            values = []
            index += 1
            while index < len(argv) and not argv[index].startswith("-"):
                values.append(argv[index])
                index += 1
            result.append(",".join(values))
            continue
        index += 1
    return result


def _undecodable(arguments: list[str]) -> str | None:
    """The first argument that is not UTF-8 text (bytes the terminal's encoding could not
    decode) and names no existing file, shown with those bytes escaped; ``None`` if none.
    Such text can be neither stored nor looked up."""
    for argument in arguments:
        try:
            argument.encode("utf-8")
        except UnicodeEncodeError:
            if not os.path.exists(argument):
                raw = argument.encode("utf-8", "surrogateescape")
                return raw.decode("utf-8", "backslashreplace")
    return None


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: load plugins, add their commands, run the CLI."""
    from tautrait_core.plugins import get_plugin_manager

    arguments = _join_multi_values(list(sys.argv[1:] if argv is None else argv))
    undecodable = _undecodable(arguments)
    if undecodable is not None:
        echo_err(
            f"Error: the argument '{undecodable}' is not UTF-8 text; give names and values in UTF-8"
        )
        sys.exit(2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        manager = get_plugin_manager()
        manager.add_commands(cli)
    for warning in caught:
        echo_err(f"Warning: {warning.message}")
    with warnings.catch_warnings():  # plugins whose hooks fail while the command runs
        show_other = warnings.showwarning
        warnings.showwarning = functools.partial(_show_warning, show_other)
        cli.main(args=arguments, prog_name="tautrait")


def _show_warning(
    show_other: Any, message: Warning | str, category: type[Warning], *args: Any
) -> None:
    """Print a plugin's failure as one line; other warnings as Python would."""
    from tautrait_core.plugins import PluginLoadWarning

    if issubclass(category, PluginLoadWarning):
        echo_err(f"Warning: {message}")
    else:
        show_other(message, category, *args)


if __name__ == "__main__":
    main()

"""Every ``--help`` page of the installed command line (core and plugin commands) reads
well in an 80-column terminal: no line wider than the terminal, every option explained,
no command summary cut off after an abbreviation ("Store the key for ..., e.g."), no
option name or default value split at a hyphen ("--task-" / "set")."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator

import click
import pytest

from tautrait_core.cli import cli
from tautrait_core.cli.root import COMMAND_MODULES
from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager

COLUMNS = 80

CUT_AFTER_ABBREVIATION = re.compile(r"\b(e\.g|i\.e|etc|cf|vs|viz|incl|approx)\.$")
"""A summary that ends in an abbreviation: click took its dot for the end of a sentence."""

SPLIT_AT_HYPHEN = re.compile(r"(^|[\s\[(])(--?[\w-]*\w-|\[default: [^\]]*\w-)$")
"""A line that ends in part of an option name, or of a default value, cut at a hyphen."""


@pytest.fixture
def installed_cli(monkeypatch: pytest.MonkeyPatch) -> Iterator[click.Group]:
    """The root group with every installed plugin's commands, as ``tautrait`` builds it,
    in an 80-column terminal; the plugins' commands are taken out afterwards."""
    monkeypatch.setenv("COLUMNS", str(COLUMNS))
    monkeypatch.delenv("TAUTRAIT_LOAD_PLUGINS", raising=False)
    reset_plugin_manager()
    for name in COMMAND_MODULES:  # loaded now, so that putting things back keeps them
        cli.commands[name]
    before = dict(cli.commands)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a broken plugin is reported elsewhere
        get_plugin_manager().add_commands(cli)
    try:
        yield cli
    finally:
        for name in set(cli.commands) - set(before):
            del cli.commands[name]
        cli.commands.update(before)
        reset_plugin_manager()


def help_pages(
    command: click.Command, ctx: click.Context
) -> Iterator[tuple[click.Command, click.Context]]:
    """``command`` and every visible command under it, each with the context that
    ``tautrait ... --help`` would render it in."""
    yield command, ctx
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                sub_ctx = click.Context(sub, info_name=name, parent=ctx, **sub.context_settings)
                yield from help_pages(sub, sub_ctx)


def problems_of(command: click.Command, ctx: click.Context) -> list[str]:
    """What is wrong with the help page of ``command``, one line each."""
    where = ctx.command_path
    problems = []
    for line in command.get_help(ctx).splitlines():
        # click cannot break a single token (a long URL); anything else it could have
        if len(line) > COLUMNS and len(line.split()) > 1:
            problems.append(f"{where}: line of {len(line)} characters: {line.strip()!r}")
        if SPLIT_AT_HYPHEN.search(line):
            problems.append(f"{where}: split at a hyphen: {line.strip()!r}")
    for param in command.get_params(ctx):
        if isinstance(param, click.Option) and not param.hidden and not param.help:
            problems.append(f"{where}: option {'/'.join(param.opts)} has no help text")
    if isinstance(command, click.Group):
        names = [
            name
            for name in command.list_commands(ctx)
            if (sub := command.get_command(ctx, name)) is not None and not sub.hidden
        ]
        if names:  # the width click gives the summaries in the command list
            limit = ctx.make_formatter().width - 6 - max(len(name) for name in names)
            for name in names:
                summary = command.get_command(ctx, name).get_short_help_str(limit)  # type: ignore[union-attr]
                if CUT_AFTER_ABBREVIATION.search(summary):
                    problems.append(f"{where} {name}: summary cut short: {summary!r}")
    return problems


def test_every_help_page_fits_80_columns_and_explains_every_option(
    installed_cli: click.Group,
) -> None:
    root = click.Context(installed_cli, info_name="tautrait", **installed_cli.context_settings)
    pages = list(help_pages(installed_cli, root))
    walked = {ctx.command_path for _command, ctx in pages}
    assert {"tautrait run", "tautrait keys set", "tautrait import"} <= walked
    problems = [problem for command, ctx in pages for problem in problems_of(command, ctx)]
    assert not problems, "\n".join(problems)

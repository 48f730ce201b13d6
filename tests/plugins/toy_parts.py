"""A plugin that adds a part of each kind the start-up path lists, as the bundled plugins
do and without importing anything heavy when it loads: the toy library domain by where its
builder lives (built only when a command uses it), a run option and a command. Installed
by the start-up tests (never installed otherwise)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tautrait_core import RunOption, domain_hook, hookimpl

if TYPE_CHECKING:
    import click

register_domains = domain_hook("tests.plugins.toy_library:build_domain", name="toylib")

DESK_OPTION = RunOption(name="loan_desk", type=str | None, help="The toy library's loan desk.")
"""``--loan-desk``: a run option of the toy plugin."""


@hookimpl
def register_run_options(register: Callable[[RunOption], None]) -> None:
    register(DESK_OPTION)


@hookimpl
def register_commands(cli: click.Group) -> None:
    import click

    @cli.command(name="toy-hello")
    def toy_hello() -> None:
        """Say hello from the toy plugin."""
        click.echo("hello from the toy plugin")

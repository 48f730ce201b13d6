"""The click command class of ``tautrait run``: it adds the options that loaded plugins
declare (:class:`~tautrait_core.run_options.RunOption`) when the command is parsed or its
help is shown, and notes whether upstream tau-trait flag spellings were used."""

from __future__ import annotations

from typing import Any

import click

PLUGIN_OPTION_PREFIX = "plugin__"
"""Prefix of the click parameter names of plugin-declared options."""


class RunCommand(click.Command):
    """A command whose options include those the loaded plugins declare."""

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        """The command's own options, the plugins' options, then ``--help``."""
        params = super().get_params(ctx)
        help_option = self.get_help_option(ctx)
        own = [param for param in params if param is not help_option]
        taken = {flag for param in own for flag in param.opts}
        plugin = plugin_parameters(taken)
        return [*own, *plugin, *([help_option] if help_option is not None else [])]

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Parse, noting whether upstream flag spellings were used (``ctx.meta``)."""
        ctx.meta["upstream_flags"] = any(arg.split("=")[0] in UPSTREAM_FLAGS for arg in args)
        return super().parse_args(ctx, args)


UPSTREAM_FLAGS = frozenset(
    {
        "--env",
        "--model",
        "--model-provider",
        "--agent-strategy",
        "--user-strategy",
        "--user-model-provider",
        "--task-split",
        "--start-index",
        "--end-index",
        "--max-concurrency",
        "--trait-dict",
        "--few-shot-displays-path",
        "--result-fp",
    }
)
"""The upstream tau-trait spellings of `tautrait run` options."""


_CLICK_TYPES: dict[Any, click.ParamType] = {int: click.INT, float: click.FLOAT, bool: click.BOOL}


def plugin_parameters(taken: set[str]) -> list[click.Option]:
    """One click option per plugin-declared run option (flags in ``taken`` left out)."""
    from tautrait_core.plugins import get_plugin_manager

    options = {option.name: option for option in get_plugin_manager().run_options().values()}
    params = []
    for option in sorted(options.values(), key=lambda option: option.name):
        flags = [flag for flag in option.flags if flag not in taken]
        if not flags:
            continue
        default = "" if option.default is None else f" [default: {option.default}]"
        params.append(
            click.Option(
                [*flags, PLUGIN_OPTION_PREFIX + option.name],
                type=_CLICK_TYPES.get(option.type, click.STRING),
                default=None,
                help=option.help + default,
            )
        )
    return params

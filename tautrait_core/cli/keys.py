"""``tautrait keys``: store provider API keys (file mode 0600)."""

from __future__ import annotations

import click

from tautrait_core.cli.root import cli, json_option, library_call
from tautrait_core.render.console import echo_json


@cli.group(short_help="API keys for model providers.")
def keys() -> None:
    """API keys for model providers (environment variables take precedence)."""


@keys.command("set", short_help="Store the key for environment variable NAME.")
@click.argument("name")
@click.option("--value", default=None, help="The key (prompted, hidden, when omitted).")
@click.option(
    "--api-base",
    default=None,
    metavar="URL",
    help="Send this key to the server at URL (a model's --*-api-base).",
)
def keys_set(name: str, value: str | None, api_base: str | None) -> None:
    """Store the key for environment variable NAME, e.g. OPENAI_API_KEY.

    A provider's key goes only to that provider. A server of your own is sent only
    the key bound to it with --api-base URL; the variable NAME, when set, wins over
    the stored value.
    """
    from tautrait_core.llm.keys import keys_path, set_key

    if value is None:
        value = click.prompt(f"{name}", hide_input=True)
    library_call(set_key, name, value, api_base)
    where = f" for {api_base}" if api_base else ""
    click.echo(f"Stored {name}{where} in {keys_path()}")


@keys.command("list")
@json_option
def keys_list(as_json: bool) -> None:
    """Names of stored keys (values are never shown)."""
    import os

    from tautrait_core.llm.keys import load_keys, servers_of

    names = sorted(load_keys())
    rows = [
        {"name": n, "overridden_by_environment": n in os.environ, "servers": servers_of(n)}
        for n in names
    ]
    if as_json:
        echo_json(rows)
        return
    for row in rows:
        note = (
            "  (the environment variable is set and wins)"
            if row["overridden_by_environment"]
            else ""
        )
        servers = f"  (for {', '.join(row['servers'])})" if row["servers"] else ""
        click.echo(f"{row['name']}{servers}{note}")


@keys.command("remove")
@click.argument("name")
def keys_remove(name: str) -> None:
    """Forget the stored key NAME."""
    from tautrait_core.llm.keys import remove_key

    if not remove_key(name):
        raise click.ClickException(f"no stored key {name!r}")
    click.echo(f"Removed {name}")


@keys.command("path")
def keys_path_command() -> None:
    """Where keys are stored."""
    from tautrait_core.llm.keys import keys_path

    click.echo(str(keys_path()))

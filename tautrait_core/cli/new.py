"""``tautrait new domain|user NAME``: scaffold a plugin package."""

from __future__ import annotations

from pathlib import Path

import click

from tautrait_core.cli.root import cli, library_call


@cli.command()
@click.argument("kind", type=click.Choice(["domain", "user"]))
@click.argument("name")
@click.option(
    "--dir",
    "parent",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Where to create the package folder.",
)
@click.option(
    "--dual-control",
    is_flag=True,
    default=False,
    help="A domain where the customer acts too: a phone with user tools (as τ²-bench's telecom).",
)
def new(kind: str, name: str, parent: Path, dual_control: bool) -> None:
    """Create a working plugin package: pyproject with its entry point, example code,
    tests. Install it with pip install -e '.[test]' and run pytest."""
    from tautrait_core.scaffold import create_plugin

    existing = parent / f"tautrait-{name}"  # the folder create_plugin would write
    if existing.exists():
        raise click.ClickException(
            f"{existing.resolve()} already exists; choose another NAME or --dir, or move "
            "or remove it first"
        )
    target = library_call(create_plugin, kind, name, parent, dual_control)
    clash = _name_clash(kind, name)
    if clash:
        click.secho(f"Warning: {clash}: pick another NAME", fg="yellow", err=True)
    click.echo(f"Created {target}")
    click.echo(f"  cd {target} && pip install -e '.[test]' && pytest")


OFFICIAL_DOMAINS = {
    name: f"tautrait-{name}"
    for name in ("retail", "airline", "telecom", "telehealth", "mock", "banking")
}
"""The domains of the plugins this project publishes, by name, with their distribution."""


def _name_clash(kind: str, name: str) -> str | None:
    """Why a new plugin named ``name`` would clash with an official or installed one
    (two plugins that register one name cannot be installed together), if it would."""
    from tautrait_core.plugins import get_plugin_manager

    registry = "domain" if kind == "domain" else "user"
    if kind == "domain" and name in OFFICIAL_DOMAINS:
        return f"{name!r} shadows the official plugin {OFFICIAL_DOMAINS[name]}"
    if name in get_plugin_manager().names(registry):
        return f"{kind} {name!r} is registered by an installed plugin"
    return None

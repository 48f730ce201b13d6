"""``tautrait domain NAME``: what a domain offers, before running it."""

from __future__ import annotations

import click

from tautrait_core.cli.root import cli, json_option, library_call
from tautrait_core.render.console import console, echo_json


@cli.command(short_help="Show a domain's policy, tools and task sets.")
@click.argument("name")
@json_option
def domain(name: str, as_json: bool) -> None:
    """A domain's policy, its tools with their parameters (agent side and, in a
    dual-control domain, the customer's side) and its task sets with their sizes and
    splits (see: tautrait plugins for the installed domains)."""
    from tautrait_core.domain.description import describe_domain
    from tautrait_core.plugins import get_plugin_manager
    from tautrait_core.render.domain_view import domain_view

    manager = get_plugin_manager()
    found = library_call(manager.get, "domain", name)
    described = library_call(describe_domain, found)
    source = manager.source("domain", name)
    if as_json:
        echo_json({**described, "distribution": source.distribution, "version": source.version})
        return
    out = console()
    supplier = f"{source.distribution} {source.version}".strip()
    for view in domain_view(described, supplier):
        out.print(view, soft_wrap=False)

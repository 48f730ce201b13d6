"""tautrait-steer-user: the ``steer`` trait backend and the ``tautrait steer`` commands.

Simulated users whose traits are steered into a model's activations (TraitBasis) rather
than described in the prompt: a client of the hosted steer service, and with the
``[local]`` extra, building trait vectors for any Hugging Face causal LM, serving them with
the same HTTP protocol, and probing their effect.

This module is imported on every start of ``tautrait``, so it imports nothing heavy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tautrait_core import DeferredPart, RunOption, hookimpl

if TYPE_CHECKING:
    import click

ENDPOINT_OPTION = RunOption(
    name="steer_endpoint",
    aliases=("endpoint",),
    type=str | None,
    help="Steer service URL for --trait-backend steer [default: $STEER_ENDPOINT].",
)
"""``--steer-endpoint`` / upstream ``--endpoint``: where the steer trait backend posts."""


@hookimpl
def register_run_options(register: Callable[[RunOption], None]) -> None:
    register(ENDPOINT_OPTION)


@hookimpl
def register_trait_backends(register: Callable[[DeferredPart], None]) -> None:
    register(DeferredPart("steer", "tautrait_steer_user.backend:SteerTraitBackend"))


@hookimpl
def register_commands(cli: click.Group) -> None:
    from tautrait_steer_user.cli import steer

    cli.add_command(steer)

"""The plugin contract: pluggy markers and the hook specifications.

A plugin is a module that an entry point in the ``tautrait`` group names. It implements any
of these hooks with ``@hookimpl``. Every hook receives a ``register`` callback (or the CLI
group) and is always called with keyword arguments, so a hook implementation may accept
only the arguments it needs; new arguments can be added to a spec without breaking old
plugins.

This module is imported on every start of the CLI, so it imports nothing heavy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tautrait_core.hookmarkers import hookspec

if TYPE_CHECKING:
    import click

    from tautrait_core.domain.domain import Domain
    from tautrait_core.episode.agent import Agent
    from tautrait_core.episode.trait_backend import TraitBackend
    from tautrait_core.episode.user import UserSimulator
    from tautrait_core.retrieval.base import Retrieval
    from tautrait_core.run_options import RunOption


@hookspec
def register_domains(register: Callable[[Domain], None]) -> None:
    """Register domains (policy, tools, database schema and task sets).

    :param register: call ``register(Domain(...))`` once per domain. A domain with
        ``user_tools`` is dual-control: the customer acts on their own side too, and its
        episodes run with τ²-bench's protocol.
    """


@hookspec
def register_agents(register: Callable[[type[Agent]], None]) -> None:
    """Register agent strategies.

    :param register: call ``register(AgentClass)``; the class has a ``name`` attribute and
        is constructed once per episode (see :class:`tautrait_core.episode.agent.Agent`).
    """


@hookspec
def register_user_simulators(register: Callable[[type[UserSimulator]], None]) -> None:
    """Register user simulator strategies.

    :param register: call ``register(UserClass)``; the class has a ``name`` attribute and is
        constructed once per episode (see :class:`tautrait_core.episode.user.UserSimulator`;
        in a dual-control domain a turn may call the customer's tools).
    """


@hookspec
def register_trait_backends(register: Callable[[type[TraitBackend]], None]) -> None:
    """Register trait backends: how a trait mix changes the simulated user's generation.

    :param register: call ``register(BackendClass)``; the class has a ``name`` attribute
        (see :class:`tautrait_core.episode.trait_backend.TraitBackend`).
    """


@hookspec
def register_retrievals(register: Callable[[type[Retrieval]], None]) -> None:
    """Register retrieval configurations: how an agent searches a domain's documents.

    :param register: call ``register(RetrievalClass)``; the class has a ``name`` attribute
        (the ``--retrieval`` value) and is constructed once per document collection and
        process (see :class:`tautrait_core.retrieval.base.Retrieval`).
    """


@hookspec
def register_run_options(register: Callable[[RunOption], None]) -> None:
    """Add options to ``tautrait run`` (and to ``RunConfig`` and sweep files) for this plugin.

    :param register: call ``register(RunOption(name=..., help=..., type=..., default=...))``
        once per option; a run stores the value in ``RunConfig.plugin_options[name]``, and
        an episode reads it with ``context.plugin_option(name)`` (a strategy's
        ``check_config`` with ``option.value_in(config.plugin_options)``). Keep this hook in the
        plugin's light top-level module: ``tautrait run --help`` calls it.
    """


@hookspec
def register_commands(cli: click.Group) -> None:
    """Add commands to the ``tautrait`` command line.

    :param cli: the root click group; call ``cli.add_command(...)`` or use ``@cli.command()``.
    """

"""Built-in agent strategies, registered through the same hook as third-party plugins, and
the run options of the remote agent (``--agent-url``, ``--agent-timeout``, ``--tools-host``)."""

from __future__ import annotations

from collections.abc import Callable

from tautrait_core.builtin import register_builtin
from tautrait_core.hookmarkers import hookimpl
from tautrait_core.registrations import DeferredPart
from tautrait_core.remote.options import REMOTE_OPTIONS
from tautrait_core.run_options import RunOption


@hookimpl
def register_agents(register: Callable[[DeferredPart], None]) -> None:
    register_builtin("agent", register)


@hookimpl
def register_run_options(register: Callable[[RunOption], None]) -> None:
    for option in REMOTE_OPTIONS:
        register(option)

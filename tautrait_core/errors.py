"""Typed errors raised by the library.

Each error's message says what was wrong and how to fix it; the CLI turns them into
``click.ClickException`` at its boundary and nowhere else.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any


class TautraitError(Exception):
    """Base class of every error the library raises on purpose."""


class PluginError(TautraitError):
    """A plugin registered something invalid (for example a name used twice)."""


ONE_LINE = 73
"""The longest message that fits an 80-column line after the CLI's ``Error: ``."""


class UnknownNameError(TautraitError):
    """A domain, agent, user simulator, trait backend or task set name is not registered.

    A name close to a known one is a typo: the message suggests that one, and says where
    the names are listed (``listed_by``, a command, where the line has room) rather than
    listing them all; otherwise it lists them, with ``hint``."""

    def __init__(
        self, kind: str, name: str, known: list[str], hint: str = "", listed_by: str = ""
    ) -> None:
        close = difflib.get_close_matches(name, known, n=1)
        if close:  # a typo of an installed name: installing something would not help
            message = f"unknown {kind} {name!r}; did you mean {close[0]!r}?"
            see = f" (see: {listed_by})" if listed_by else ""
            if len(message + see) <= ONE_LINE:
                message += see
        else:
            choices = ", ".join(sorted(known)) if known else "none installed"
            message = f"unknown {kind} {name!r} (available: {choices})"
            message += f". {hint}" if hint else ""
        super().__init__(message)
        self.kind = kind
        self.name = name
        self.known = known


class TraitError(TautraitError):
    """A trait mix names an unknown trait or an invalid intensity."""


class ConfigError(TautraitError):
    """A run configuration is inconsistent or incomplete."""


class TaskSetError(TautraitError):
    """A task set could not be loaded or parsed."""


class UpstreamImportError(TautraitError):
    """An upstream checkout (tau-trait / tau-bench) could not be imported."""


class RunNotFoundError(TautraitError):
    """A run id does not exist in the results database."""


class ProviderError(TautraitError):
    """A model provider kept failing after all retries (an infrastructure failure).

    Episodes that end with this error are stored with outcome ``error``: they are
    excluded from pass^k and re-run on ``--resume``.
    """


class EpisodeError(TautraitError):
    """An episode ended in an infrastructure error where no result can carry it (a gym
    environment's ``reset``)."""


class ContextWindowError(TautraitError):
    """The conversation no longer fits the model's context window (never retried)."""


class StorageError(TautraitError):
    """The results database could not be written (e.g. the disk is full)."""


class SweepError(TautraitError):
    """A sweep file is invalid, or does not match the sweep stored under its name."""


class RunBusyError(TautraitError):
    """Another live process is writing the run (a second writer is refused)."""


def first_line(exc: BaseException) -> str:
    """The first line of ``exc``'s message, or the name of its type when it has none."""
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def validation_problem(error: Mapping[str, Any]) -> str:
    """The message of one of pydantic's validation errors (an item of ``errors()``), less
    the ``Value error, `` that pydantic puts before a validator's own ``ValueError``."""
    return str(error["msg"]).removeprefix("Value error, ")

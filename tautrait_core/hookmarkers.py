"""The pluggy markers of tautrait's hooks: ``@hookimpl`` for plugins, ``@hookspec`` for the
specifications in :mod:`tautrait_core.hookspecs`.

Kept apart from the specifications, which name the core's domain and episode types, so that
any layer (a domain's hook module, the built-in parts) can mark an implementation. This
module imports nothing but pluggy.
"""

from __future__ import annotations

import pluggy

PROJECT_NAME = "tautrait"
"""The pluggy project name, also the entry-point group plugins are found in."""

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)

"""tautrait: evaluate tool-using agents against simulated users with personality traits.

The public API is importable from here; names load on first use so that importing the
package (and starting the CLI) stays fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from tautrait_core.hookspecs import hookimpl, hookspec

if TYPE_CHECKING:
    from tautrait_core.domain import Domain, TaskSet, Tool, tool
    from tautrait_core.models import (
        Action,
        EpisodeResult,
        Message,
        RunConfig,
        Task,
        TraitMix,
    )
    from tautrait_core.runner import run
    from tautrait_core.state import EpisodeDB

_EXPORTS = {
    "Domain": "tautrait_core.domain",
    "TaskSet": "tautrait_core.domain",
    "Tool": "tautrait_core.domain",
    "tool": "tautrait_core.domain",
    "Action": "tautrait_core.models",
    "EpisodeResult": "tautrait_core.models",
    "Message": "tautrait_core.models",
    "RunConfig": "tautrait_core.models",
    "Task": "tautrait_core.models",
    "TraitMix": "tautrait_core.models",
    "EpisodeDB": "tautrait_core.state",
    "run": "tautrait_core.runner",
}

__all__ = [
    "Action",
    "Domain",
    "EpisodeDB",
    "EpisodeResult",
    "Message",
    "RunConfig",
    "Task",
    "TaskSet",
    "Tool",
    "TraitMix",
    "hookimpl",
    "hookspec",
    "run",
    "tool",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tautrait_core' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value

"""Names a package exports from its submodules, imported on first use.

``tautrait_core`` and ``tautrait_core.testing`` list their public names with the module that
defines each, so that importing the package (and starting the CLI) imports nothing heavy.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(
    package: str, exports: dict[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of a package whose ``exports`` map each public
    name to its defining module; a name is imported on first use and kept in ``namespace``
    (the package's ``globals()``)."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return list(namespace["__all__"])

    return __getattr__, __dir__

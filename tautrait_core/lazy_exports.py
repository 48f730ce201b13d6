"""Public names a package exports from its submodules, imported on first use.

A public package (``tautrait_core``, ``tautrait_core.testing``, ...) lists its names once, as
the imports of its ``if TYPE_CHECKING:`` block: type checkers and editors read them there,
and :func:`lazy_exports` reads the same lines from the package's source to know which module
defines each name, so importing the package (and starting the CLI) imports nothing heavy.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

_BLOCK = re.compile(r"^if TYPE_CHECKING:\n((?:[ \t]+.*\n|\n)+)", re.M)
_IMPORT = re.compile(r"^\s*from\s+([\w.]+)\s+import\s+(\([^)]*\)|[^\n]*)", re.M)


def exported_names(source: str) -> dict[str, str]:
    """Each name the ``if TYPE_CHECKING:`` block of ``source`` imports, with its module."""
    block = _BLOCK.search(source)
    if block is None:
        return {}
    names = {}
    for module, listed in _IMPORT.findall(block.group(1)):
        for name in re.sub(r"#[^\n]*", "", listed).strip("()").split(","):
            if name.strip():
                names[name.split(" as ")[-1].strip()] = module
    return names


def lazy_exports(
    package: str, source_file: str, namespace: dict[str, Any], eager: tuple[str, ...] = ()
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """The ``__getattr__``, ``__dir__`` and ``__all__`` of the package whose ``__init__`` is
    ``source_file``: a name of its ``if TYPE_CHECKING:`` imports is imported from its module
    on first use and kept in ``namespace`` (the package's ``globals()``); ``eager`` names the
    exports the package imports at once."""
    exports = exported_names(Path(source_file).read_text(encoding="utf-8"))
    names = sorted({*exports, *eager})

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return list(names)

    return __getattr__, __dir__, names

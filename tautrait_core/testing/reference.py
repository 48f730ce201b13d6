"""Where the τ-Trait reference material (upstream data, golden outputs) is found.

The material is never copied into a project: it holds ``tau-trait/`` and ``tau2-bench/``
and lives in ``$TAUTRAIT_REFERENCE``, or in a ``shared/peers`` folder beside the checkout.
Tests reach it through the ``reference_material`` fixture; modules that parametrize over
its contents at collection call :func:`reference_material_dir` themselves.
"""

from __future__ import annotations

import os
from pathlib import Path

REFERENCE_ENV = "TAUTRAIT_REFERENCE"
"""The environment variable naming the reference material folder."""


def reference_material_dir(start: str | Path) -> Path:
    """The reference material folder for tests at ``start`` (a file or a folder).

    ``$TAUTRAIT_REFERENCE`` when it is set; otherwise the nearest ``shared/peers`` folder
    beside ``start`` or one of its parents. When none exists, the place it is expected
    (``shared/peers`` beside the checkout holding ``start``), so callers test ``is_dir()``.
    """
    configured = os.environ.get(REFERENCE_ENV)
    if configured:
        return Path(configured).expanduser()
    here = Path(start).resolve()
    folders = [here.parent, *here.parent.parents] if here.is_file() else [here, *here.parents]
    for folder in folders:
        candidate = folder / "shared" / "peers"
        if candidate.is_dir():
            return candidate
    checkout = next((folder for folder in folders if (folder / ".git").exists()), folders[0])
    return checkout.parent / "shared" / "peers"


def missing_reference_material(path: Path) -> str:
    """Why a test that needs the material at ``path`` is skipped, and how to provide it."""
    return (
        f"τ-Trait reference material not found at {path}: set {REFERENCE_ENV}=/path/to/peers "
        "or place shared/peers beside the checkout"
    )

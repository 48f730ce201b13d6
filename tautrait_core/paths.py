"""Where tautrait keeps its files: the results database and imported upstream task sets.

Everything lives under the user data directory (``~/.local/share/tautrait`` on Linux),
or under ``$TAUTRAIT_HOME`` when that is set.
"""

from __future__ import annotations

import os
from pathlib import Path

from tautrait_core.errors import ConfigError

HOME_ENV = "TAUTRAIT_HOME"


def data_dir() -> Path:
    """The directory holding tautrait's data (created on first use).

    Raises:
        ConfigError: it cannot be created (e.g. ``$TAUTRAIT_HOME`` names a file).
    """
    configured = os.environ.get(HOME_ENV)
    if configured:
        path = Path(configured).expanduser()
    else:
        import platformdirs

        path = Path(platformdirs.user_data_dir("tautrait", appauthor=False))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        reason = "a file, not a folder" if path.is_file() else exc.strerror or str(exc)
        raise ConfigError(
            f"{path}: cannot keep tautrait's data there ({reason}); set {HOME_ENV} to a "
            "folder tautrait may create and write"
        ) from exc
    return path


def default_results_db() -> Path:
    """The results database used when ``--results-db`` is not given."""
    return data_dir() / "results.db"


def imports_dir(source: str) -> Path:
    """Where task sets imported from ``source`` (e.g. ``tau-trait``) are kept."""
    return data_dir() / "imports" / source


def response_cache_path() -> Path:
    """The model response cache used by ``--cache``."""
    return data_dir() / "response-cache.db"


def embeddings_cache_path() -> Path:
    """The embeddings cache of dense retrieval (vectors by model and text)."""
    return data_dir() / "embeddings-cache.db"

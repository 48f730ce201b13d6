"""Which key a server of the user's own (``--agent-api-base`` and the like) is sent.

A key stored for a provider (``tautrait keys set OPENAI_API_KEY``) is meant for that
provider's hosts, never for another server. A server of the user's own gets only the key
bound to it: ``tautrait keys set NAME --api-base URL`` stores the key under ``NAME`` and
binds ``NAME`` to the server at ``URL`` (``server-keys.json`` in the data directory). The
environment variable ``NAME``, when set, wins over the stored value, as for every key. An
OpenAI-compatible server without a bound key is sent a placeholder that is no one's key.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tautrait_core.errors import ConfigError
from tautrait_core.files import read_json_file
from tautrait_core.paths import data_dir

LOCAL_KEY = "sk-local-no-key"
"""Sent to an OpenAI-compatible server (vLLM, Ollama, llama.cpp) no key is bound to."""

FIX_SERVERS_FILE = "delete it and bind the keys again with: tautrait keys set NAME --api-base URL"
"""What to do about a server-keys file that cannot be read."""

_read: dict[Path, tuple[int, dict[str, str]]] = {}


def server_keys_path() -> Path:
    """The file binding servers to key names."""
    return data_dir() / "server-keys.json"


def server_url(api_base: str) -> str:
    """``api_base`` as bindings are looked up (without a trailing slash)."""
    return api_base.rstrip("/")


def load_bindings() -> dict[str, str]:
    """Key names by server URL (read again only when the file changed).

    Raises:
        ConfigError: the file is unreadable or not an object of strings.
    """
    path = server_keys_path()
    try:
        changed = path.stat().st_mtime_ns
    except FileNotFoundError:
        return {}
    known = _read.get(path)
    if known is not None and known[0] == changed:
        return known[1]
    bindings = read_json_file(path, ConfigError, "the server-keys file", FIX_SERVERS_FILE)
    if not isinstance(bindings, dict) or not all(isinstance(v, str) for v in bindings.values()):
        raise ConfigError(f"{path}: not a JSON object of servers and key names; {FIX_SERVERS_FILE}")
    _read[path] = (changed, bindings)
    return bindings


def write_bindings(bindings: dict[str, str]) -> None:
    """Store ``bindings`` (key names by server URL) with file mode 0600."""
    path = server_keys_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        json.dump(bindings, handle, indent=2)


def bound_name(api_base: str) -> str | None:
    """The key name bound to the server at ``api_base`` (``None``: none is)."""
    return load_bindings().get(server_url(api_base))

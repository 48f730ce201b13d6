"""API keys: from the provider's environment variables or tautrait's own keys file.

``tautrait keys set NAME`` stores a key in ``keys.json`` in the data directory (file mode
0600). Stored keys fill the environment variable of the same name when it is not set.
Before a run starts, every model it will call is checked for its key, and a missing key is
an error naming both ways to provide it; the keys file is read only when the environment
lacks a key a model needs, so a damaged one stops only such runs. A server of the user's
own is sent only the key bound to it (:mod:`tautrait_core.llm.server_keys`). Key values
are redacted from anything tautrait stores or prints (:func:`redact`).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from tautrait_core.errors import ONE_LINE, ConfigError, first_line
from tautrait_core.files import read_json_file
from tautrait_core.llm.server_keys import bound_name, load_bindings, server_url, write_bindings
from tautrait_core.paths import data_dir

SECRET_NAME = re.compile(r"(API_KEY|_KEY|_TOKEN|_SECRET)$")
REDACTED = "[redacted]"
MIN_SECRET_LENGTH = 8
FIX_KEYS_FILE = "delete it and store the keys again with: tautrait keys set NAME"
"""What to do about a keys file that cannot be read."""


def keys_path() -> Path:
    """The keys file."""
    return data_dir() / "keys.json"


def load_keys() -> dict[str, str]:
    """Stored keys by environment-variable name.

    Raises:
        ConfigError: the keys file is unreadable, truncated or not an object of strings.
    """
    path = keys_path()
    if not path.exists():
        return {}
    keys = read_json_file(path, ConfigError, "the keys file", FIX_KEYS_FILE)
    if not isinstance(keys, dict) or not all(isinstance(v, str) for v in keys.values()):
        raise ConfigError(f"{path}: not a JSON object of key names and values; {FIX_KEYS_FILE}")
    return keys


def _write_keys(keys: dict[str, str]) -> None:
    path = keys_path()
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        json.dump(keys, handle, indent=2)
    os.chmod(path, 0o600)


def set_key(name: str, value: str, api_base: str | None = None) -> None:
    """Store ``value`` under the environment-variable name ``name``; with ``api_base``,
    also bind ``name`` to that server (the only key it is sent)."""
    if not re.fullmatch(r"[A-Z][A-Z0-9_]*", name):
        raise ConfigError(
            f"invalid key name {name!r}: use the provider's variable, e.g. OPENAI_API_KEY"
        )
    if not value.strip():
        raise ConfigError("the key is empty")
    if api_base is not None and not api_base.startswith(("http://", "https://")):
        raise ConfigError(f"--api-base {api_base!r} is not an http(s) URL: give the server's")
    keys = load_keys()
    keys[name] = value.strip()
    _write_keys(keys)
    if api_base is not None:
        write_bindings({**load_bindings(), server_url(api_base): name})


def remove_key(name: str) -> bool:
    """Forget a stored key and the servers bound to it; ``False`` if there was none."""
    keys = load_keys()
    if name not in keys:
        return False
    del keys[name]
    _write_keys(keys)
    bindings = load_bindings()
    if name in bindings.values():
        write_bindings({url: bound for url, bound in bindings.items() if bound != name})
    return True


def servers_of(name: str) -> list[str]:
    """The servers the key ``name`` is bound to."""
    return sorted(url for url, bound in load_bindings().items() if bound == name)


def server_key(api_base: str) -> str | None:
    """The key to send to the server at ``api_base``: the one bound to it, from the
    environment or the keys file (``None``: none is bound)."""
    name = bound_name(api_base)
    if name is None:
        return None
    return os.environ.get(name) or load_keys().get(name)


def apply_stored_keys() -> None:
    """Export stored keys to the environment (variables already set win)."""
    for name, value in load_keys().items():
        os.environ.setdefault(name, value)


def known_secrets() -> list[str]:
    """Values that must never be stored or printed: stored keys and secret-looking variables.

    An unreadable keys file adds none (redacting must not fail; the commands that use the
    keys report it)."""
    try:
        values = set(load_keys().values())
    except ConfigError:
        values = set()
    values.update(v for k, v in os.environ.items() if SECRET_NAME.search(k))
    return sorted((v for v in values if len(v) >= MIN_SECRET_LENGTH), key=len, reverse=True)


def redact(text: str, secrets: list[str] | None = None) -> str:
    """``text`` with every known secret replaced by ``[redacted]``."""
    for secret in known_secrets() if secrets is None else secrets:
        text = text.replace(secret, REDACTED)
    return text


def missing_keys(model: str, provider: str | None, api_base: str | None) -> list[str]:
    """Environment variables the model needs that are not set (one of them suffices)."""
    if api_base:  # a local OpenAI-compatible server needs no provider key
        return []
    from tautrait_core.llm.provider import load_litellm

    litellm = load_litellm()
    name = f"{provider}/{model}" if provider and not model.startswith(f"{provider}/") else model
    try:
        status = litellm.validate_environment(model=name)
    except Exception:  # unknown provider: let the call itself report it
        return []
    return [key for key in status.get("missing_keys", []) if not key.endswith("_API_BASE")]


def keys_not_found(model: str, provider: str | None, api_base: str | None) -> list[str]:
    """The variables of :func:`missing_keys` that the keys file does not hold either. The
    keys file is read (and its keys exported) only when the environment lacks a key the
    model needs, so that a damaged one stops only a model that needs a stored key.

    Raises:
        ConfigError: the keys file had to be read and cannot be.
    """
    missing = missing_keys(model, provider, api_base)
    if missing:
        apply_stored_keys()
        missing = missing_keys(model, provider, api_base)
    return missing


def unknown_provider(model: str, provider: str | None, api_base: str | None) -> str | None:
    """Why litellm cannot tell which provider serves ``model``; ``None`` when it can, and
    for a model on a server of its own (``api_base``: checked by the first call, so that
    a run on a local server does not import litellm before it needs to)."""
    if api_base:
        return None
    from tautrait_core.llm.provider import load_litellm

    try:
        load_litellm().get_llm_provider(
            model=model, custom_llm_provider=provider, api_base=api_base
        )
    except Exception as exc:  # litellm raises its own BadRequestError (and others)
        return first_line(exc)
    return None


def require_keys(model: str, provider: str | None, api_base: str | None, side: str) -> None:
    """Fail before a run starts when litellm knows no provider for ``model``, or when
    ``model`` has no key, naming the ways to fix it."""
    problem = unknown_provider(model, provider, api_base)
    if problem is not None:
        raise ConfigError(
            f"the {side} model {model!r} names no provider litellm knows ({problem}). "
            f"Use a litellm model name (e.g. gpt-4o, anthropic/claude-3-5-sonnet-20240620), "
            f"give the provider with --{side}-provider, or a server with --{side}-api-base"
        )
    if api_base:
        _require_server_key(api_base, side)
        return
    missing = keys_not_found(model, provider, api_base)
    if missing:
        variable = missing[0]
        alternatives = f" (or {', '.join(missing[1:])})" if len(missing) > 1 else ""
        lead = f"{side} model {model} needs {variable}{alternatives}:"
        fix = f"tautrait keys set {variable}"  # exporting it works too (its --help says so)
        one_line = len(lead) + 1 + len(fix) <= ONE_LINE
        raise ConfigError(f"{lead} {fix}" if one_line else f"{lead}\n  {fix}")


def _require_server_key(api_base: str, side: str) -> None:
    """Fail when a key is bound to the server at ``api_base`` but neither the environment
    nor the keys file holds it; export a stored one."""
    name = bound_name(api_base)
    if name is None or os.environ.get(name):
        return
    stored = load_keys().get(name)
    if stored is None:
        raise ConfigError(
            f"the {side} server {api_base} takes the key {name}, which is not set. "
            f"Set it with: export {name}=...  or: tautrait keys set {name} --api-base {api_base}"
        )
    os.environ.setdefault(name, stored)

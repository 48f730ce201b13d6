"""The ``steer`` trait backend: the user's next turn comes from a steer service.

The service (hosted, or ``tautrait steer serve``) steers a model's activations with the
run's trait mix instead of describing the traits in the prompt. The endpoint comes from
``--endpoint`` (the plugin's run option ``steer_endpoint``) or ``STEER_ENDPOINT``; the key from
``STEER_API_KEY`` (or ``tautrait keys set STEER_API_KEY``), required unless the endpoint
is on this machine (loopback).
"""

from __future__ import annotations

import ipaddress
import os
from typing import Any
from urllib.parse import urlsplit

from tautrait_core import (
    ConfigError,
    EpisodeContext,
    Generation,
    RunConfig,
    TraitBackend,
    apply_stored_keys,
)
from tautrait_steer_user import ENDPOINT_OPTION
from tautrait_steer_user.client import SteerClient
from tautrait_steer_user.protocol import (
    API_KEY_ENV,
    DEFAULT_MAX_TOKENS,
    DEFAULT_TEMPERATURE,
    ENDPOINT_ENV,
    SteerRequest,
    reduce_messages,
)
from tautrait_steer_user.user_tools import read_tool_calls, text_messages


def resolve_endpoint(given: str | None) -> str:
    """The steer service URL: ``given`` (``--endpoint``), else ``STEER_ENDPOINT``.

    Raises:
        ConfigError: no endpoint, or not an http(s) URL.
    """
    endpoint = given or os.environ.get(ENDPOINT_ENV, "").strip()
    if not endpoint:
        raise ConfigError(
            "the steer trait backend needs a steer service: pass --endpoint URL or set "
            f"{ENDPOINT_ENV} (a hosted service, or one started with: tautrait steer serve)"
        )
    parts = urlsplit(endpoint)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(
            f"the steer endpoint must be an http(s) URL such as http://127.0.0.1:8600/, "
            f"not {endpoint!r}"
        )
    return endpoint


def is_loopback(endpoint: str) -> bool:
    """Whether ``endpoint`` is on this machine (``localhost`` or a loopback address)."""
    host = urlsplit(endpoint).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def resolve_api_key(endpoint: str) -> str | None:
    """The key from ``STEER_API_KEY`` (stored keys included); ``None`` on loopback without one.

    Raises:
        ConfigError: a remote endpoint and no key.
    """
    apply_stored_keys()
    key = os.environ.get(API_KEY_ENV, "").strip()
    if key:
        return key
    if is_loopback(endpoint):
        return None
    raise ConfigError(
        f"the steer service needs an API key: export {API_KEY_ENV}=...  or store it with: "
        f"tautrait keys set {API_KEY_ENV}"
    )


class SteerTraitBackend(TraitBackend):
    """Sends the user's chat and the run's trait mix to a steer service."""

    name = "steer"
    description = (
        "steers a model's activations with trait vectors (hosted steer service or "
        "tautrait steer serve; --endpoint URL)"
    )
    uses_user_model = False

    def __init__(self, context: EpisodeContext) -> None:
        super().__init__(context)
        transport = context.transport
        endpoint = resolve_endpoint(context.plugin_option(ENDPOINT_OPTION.name))
        self.client = SteerClient(
            endpoint,
            resolve_api_key(endpoint),
            timeout_s=transport.timeout_s,
            max_retries=transport.max_retries,
            retry_base_s=transport.retry_base_s,
        )
        self._calls = 0

    @classmethod
    def check_config(cls, config: RunConfig) -> None:
        """Fail before a run when the endpoint or the key is missing or malformed."""
        resolve_api_key(resolve_endpoint(ENDPOINT_OPTION.value_in(config.plugin_options)))

    async def generate(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> Generation:
        """The user's next turn, steered with the run's trait mix; with the customer's
        ``tools`` (dual-control domains) it may be a tool call, written as text
        (:mod:`tautrait_steer_user.user_tools`)."""
        temperature = self.context.user.temperature
        request = SteerRequest(
            traits=self.traits,
            messages=reduce_messages(text_messages(messages, tools) if tools else messages),
            temperature=DEFAULT_TEMPERATURE if temperature is None else temperature,
            max_tokens=DEFAULT_MAX_TOKENS,
        )
        answer = await self.client.generate(request)
        if not tools:
            return Generation(text=answer.text, usage=answer.usage)
        self._calls += 1
        text, calls = read_tool_calls(answer.text, f"steer_call_{self._calls}")
        return Generation(text=text, usage=answer.usage, tool_calls=calls)

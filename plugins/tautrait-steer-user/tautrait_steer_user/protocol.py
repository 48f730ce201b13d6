"""The steer service's HTTP protocol, shared by the client and the local server.

A request is ``POST <endpoint>`` with the header ``API-Key`` and the JSON body::

    {"trait_dict": {"impatience": "high", "confusion": "low"},
     "messages": [{"role": "system", "content": "..."}, ...],
     "temperature": 0.7, "max_tokens": 256}

Messages are the simulated user's chat (the agent's turns as ``user``, the customer's own
turns as ``assistant``) reduced to role and content. The answer is ``{"response": "..."}``;
``tautrait steer serve`` adds ``usage`` (prompt and completion tokens), which the client
reads when present.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tautrait_core import TraitError, TraitMix
from tautrait_steer_user.errors import InvalidSteerRequest

API_KEY_HEADER = "API-Key"
ENDPOINT_ENV = "STEER_ENDPOINT"
API_KEY_ENV = "STEER_API_KEY"
DEFAULT_TEMPERATURE = 0.7
DEFAULT_MAX_TOKENS = 256
MAX_TOKENS_LIMIT = 4096
ROLES = ("system", "user", "assistant")


@dataclass(frozen=True)
class SteerRequest:
    """One request: the conversation so far and the trait mix to steer it with."""

    traits: TraitMix
    messages: list[dict[str, str]]
    temperature: float = DEFAULT_TEMPERATURE
    max_tokens: int = DEFAULT_MAX_TOKENS

    def body(self) -> dict[str, Any]:
        """The JSON body sent to the service (traits as words, as upstream sends them)."""
        return {
            "trait_dict": self.traits.as_words(),
            "messages": self.messages,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }


def reduce_messages(messages: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Chat messages reduced to ``role`` and ``content`` (a missing content becomes "")."""
    return [
        {"role": str(message["role"]), "content": str(message.get("content") or "")}
        for message in messages
    ]


def parse_request(body: object) -> SteerRequest:
    """Validate a request body received by a server.

    Raises:
        InvalidSteerRequest: with a message saying which field is wrong.
    """
    if not isinstance(body, dict):
        raise InvalidSteerRequest("the request body must be a JSON object")
    try:
        traits = TraitMix.from_trait_dict(body.get("trait_dict") or {})
    except TraitError as exc:
        raise InvalidSteerRequest(f"trait_dict: {exc}") from exc
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise InvalidSteerRequest("messages: a non-empty list of {role, content} is required")
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") not in ROLES:
            raise InvalidSteerRequest(
                f"messages[{index}]: needs a role of {', '.join(ROLES)} and a content string"
            )
        if not isinstance(message.get("content", ""), str):
            raise InvalidSteerRequest(f"messages[{index}].content must be a string")
    temperature = body.get("temperature", DEFAULT_TEMPERATURE)
    if isinstance(temperature, bool) or not isinstance(temperature, int | float):
        raise InvalidSteerRequest(f"temperature must be a number, not {temperature!r}")
    if not 0 <= temperature <= 5:
        raise InvalidSteerRequest(f"temperature must be between 0 and 5, not {temperature}")
    max_tokens = body.get("max_tokens", DEFAULT_MAX_TOKENS)
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int):
        raise InvalidSteerRequest(f"max_tokens must be an integer, not {max_tokens!r}")
    if not 1 <= max_tokens <= MAX_TOKENS_LIMIT:
        raise InvalidSteerRequest(
            f"max_tokens must be between 1 and {MAX_TOKENS_LIMIT}, not {max_tokens}"
        )
    return SteerRequest(traits, reduce_messages(messages), float(temperature), max_tokens)

"""Failed model-call attempts: what kind of failure each is, whether it is retried, and its
words.

A failure has a *kind*, the name litellm gives it (``RateLimitError``, ``Timeout``,
``AuthenticationError``, ...), so that an error reads the same by either transport:
``openai/x: RateLimitError after 5 attempts: <what the server said>``. On the direct path
(:mod:`tautrait_core.llm.direct`) the kind comes from the answer's status (and a context
window overflow from its text), and the words from the answer's body: the error object's
``message`` when it has one, else ``Error code: <status>``, as the openai SDK and litellm
word it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tautrait_core.llm.retries import AttemptFailure, parse_retry_after

RETRYABLE_KINDS = frozenset(
    {
        "RateLimitError",
        "Timeout",
        "APIConnectionError",
        "InternalServerError",
        "ServiceUnavailableError",
        "BadGatewayError",
    }
)
"""Kinds of failure that are retried (and any failure with a 5xx status)."""

KIND_OF_STATUS = {
    400: "BadRequestError",
    401: "AuthenticationError",
    404: "NotFoundError",
    408: "Timeout",
    422: "BadRequestError",
    429: "RateLimitError",
    500: "InternalServerError",
    502: "BadGatewayError",
    503: "ServiceUnavailableError",
    504: "Timeout",
}
"""The kind of an error answer by its status (any other: ``APIError``), as litellm maps an
OpenAI-compatible server's answers."""

MAX_ERROR_CHARS = 2_000
"""The most characters of a server's or client's words an error keeps: an error answer
can be megabytes long, and its text is redacted, stored and printed."""

CONTEXT_WINDOW_KIND = "ContextWindowExceededError"
CONTEXT_WINDOW_WORDS = (
    "exceed context limit",
    "this model's maximum context length is",
    "requested token count exceeds the model's maximum context length",
    "string too long. expected a string with maximum length",
    "model's maximum context limit",
    "is longer than the model's context length",
    "input tokens exceed the configured limit",
    "`inputs` tokens + `max_new_tokens` must be",
    "exceeds the available context size",
    "exceeds the maximum number of tokens allowed",
    "prompt is too long",
)
"""Words by which servers (OpenAI, vLLM, TGI, llama.cpp, ...) say the messages do not fit
the model (lower-cased; litellm recognises the same)."""


class ModelCallFailure(AttemptFailure):
    """A failed attempt of a model call.

    Args:
        kind: The kind of failure (see the module).
        detail: What the server or the client said.
        retryable: Whether sending the request again may succeed.
        retry_after: Seconds the server asked to wait (``Retry-After``).
    """

    def __init__(
        self, kind: str, detail: str, retryable: bool, retry_after: float | None = None
    ) -> None:
        super().__init__(detail, retryable, retry_after)
        self.kind = kind

    @property
    def context_window(self) -> bool:
        """Whether the messages did not fit the model (never retried)."""
        return self.kind == CONTEXT_WINDOW_KIND


def capped_text(text: str) -> str:
    """``text`` cut to :data:`MAX_ERROR_CHARS` characters, saying how much was cut."""
    if len(text) <= MAX_ERROR_CHARS:
        return text
    return f"{text[:MAX_ERROR_CHARS]}...[{len(text) - MAX_ERROR_CHARS} more characters]"


def failure_of_answer(
    status: int, headers: Mapping[str, str], body: bytes, fix: str | None = None
) -> ModelCallFailure:
    """The failure an error answer (status 400 or more) stands for, worded from its body,
    with how to ``fix`` it in parentheses when the caller knows."""
    error = _error_object(body)
    message = error.get("message")
    detail = message if isinstance(message, str) and message else f"Error code: {status}"
    detail = capped_text(detail)
    lowered = detail.lower()
    if error.get("code") == "context_length_exceeded" or any(
        words in lowered for words in CONTEXT_WINDOW_WORDS
    ):
        kind = CONTEXT_WINDOW_KIND
    else:
        kind = KIND_OF_STATUS.get(status, "APIError")
    retryable = kind in RETRYABLE_KINDS or status >= 500
    if fix:
        detail = f"{detail} ({fix})"
    return ModelCallFailure(kind, detail, retryable, parse_retry_after(headers.get("retry-after")))


def _error_object(body: bytes) -> dict[str, Any]:
    """The error object of a JSON error body (``{"error": {...}}`` or the body itself);
    empty when the body is not a JSON object."""
    try:
        data: Any = json.loads(body)
    except ValueError:
        return {}
    error = data.get("error", data) if isinstance(data, dict) else None
    return error if isinstance(error, dict) else {}

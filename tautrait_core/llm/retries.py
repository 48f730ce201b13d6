"""Which provider failures are retried, and how long to wait before each retry.

Rate limits, timeouts, connection errors and 5xx answers are retried with exponential
backoff and jitter; a provider's ``Retry-After`` header is honoured. A request that cannot
be encoded on the client (text UTF-8 cannot carry) is never retried.
"""

from __future__ import annotations

import random

RETRYABLE = (
    "RateLimitError",
    "Timeout",
    "APIConnectionError",
    "InternalServerError",
    "ServiceUnavailableError",
    "BadGatewayError",
)


MAX_BACKOFF_S = 60.0


def retry_delay(attempt: int, base_s: float, retry_after: float | None) -> float:
    """Seconds to wait before retry number ``attempt`` (0-based)."""
    if retry_after is not None and retry_after >= 0:
        return min(retry_after, MAX_BACKOFF_S * 2)
    backoff = min(base_s * (2**attempt), MAX_BACKOFF_S)
    return backoff + random.uniform(0, backoff / 2)


def _retry_after(error: Exception) -> float | None:
    headers = getattr(error, "litellm_response_headers", None)
    response = getattr(error, "response", None)
    if headers is None and response is not None:
        headers = getattr(response, "headers", None)
    if not headers:
        return None
    value = dict(headers).get("retry-after") or dict(headers).get("Retry-After")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _is_retryable(error: Exception) -> bool:
    if _failed_to_encode(error):  # the same request fails the same way every time
        return False
    names = {cls.__name__ for cls in type(error).__mro__}
    if names & set(RETRYABLE):
        return True
    status = getattr(error, "status_code", None)
    return isinstance(status, int) and status >= 500


def _failed_to_encode(error: BaseException) -> bool:
    """Whether the request could not even be encoded on the client (litellm reports that
    as a server or connection error)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, UnicodeError):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return "codec can't encode" in str(error)

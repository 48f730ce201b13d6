"""An async client of the steer service (hosted, or a local ``tautrait steer serve``).

Timeouts, connection failures, 429 and 5xx answers and bodies that are not JSON are
retried with exponential backoff and jitter (a ``Retry-After`` header is honoured); when the
retries are spent, :class:`SteerServiceError` (a ``ProviderError``) is raised. A refused key
(401/403), a rejected request (422) and an answer without ``response`` fail at once. The API
key is sent in a header and never appears in an error message.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from tautrait_core import ModelCall, Usage, call_log, redact, retry_delay
from tautrait_steer_user.errors import SteerServiceError
from tautrait_steer_user.protocol import API_KEY_ENV, API_KEY_HEADER, SteerRequest

DETAIL_LIMIT = 300


@dataclass(frozen=True)
class SteerAnswer:
    """The service's answer: the user's utterance, its usage and how many attempts it took."""

    text: str
    usage: Usage
    attempts: int


class _Retryable(Exception):
    """A failed attempt that may succeed when tried again."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


def endpoint_label(endpoint: str) -> str:
    """The endpoint without credentials or query string, safe to show and store."""
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return f"{parts.scheme}://{host}{parts.path}"


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _detail(response: Any) -> str:
    """What an error answer says, shortened: FastAPI's ``detail``, an ``error``, or the text."""
    try:
        body = response.json()
    except ValueError:
        return response.text[:DETAIL_LIMIT].strip() or "(empty body)"
    if isinstance(body, dict):
        detail = body.get("detail", body.get("error", body))
        if isinstance(detail, list):  # FastAPI validation errors
            detail = "; ".join(
                f"{'.'.join(str(p) for p in item.get('loc', []))}: {item.get('msg', item)}"
                if isinstance(item, dict)
                else str(item)
                for item in detail
            )
        return str(detail)[:DETAIL_LIMIT]
    return str(body)[:DETAIL_LIMIT]


class SteerClient:
    """Sends steer requests to one endpoint.

    Args:
        endpoint: The service URL requests are posted to.
        api_key: Sent as the ``API-Key`` header (``None``: no header).
        timeout_s: Per-attempt timeout.
        max_retries: Retries after the first attempt for retryable failures.
        retry_base_s: First backoff delay; doubles on each retry (plus jitter).
        transport: An httpx transport to use instead of the network (tests).
    """

    def __init__(
        self,
        endpoint: str,
        api_key: str | None,
        timeout_s: float = 120.0,
        max_retries: int = 4,
        retry_base_s: float = 1.0,
        transport: Any = None,
    ) -> None:
        self.endpoint = endpoint
        self.label = endpoint_label(endpoint)
        self._api_key = api_key
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.retry_base_s = retry_base_s
        self._transport = transport

    def _error(self, message: str) -> SteerServiceError:
        secrets = [self._api_key] if self._api_key else []
        return SteerServiceError(redact(f"steer service at {self.label}: {message}", secrets))

    async def generate(self, request: SteerRequest) -> SteerAnswer:
        """The service's answer to ``request``, retried on transient failures.

        The call is recorded in the episode's call log as role ``user``.

        Raises:
            SteerServiceError: the service refused the request or kept failing.
        """
        import httpx

        headers = {API_KEY_HEADER: self._api_key} if self._api_key else {}
        started = time.monotonic()
        attempt = 0
        async with httpx.AsyncClient(timeout=self.timeout_s, transport=self._transport) as http:
            while True:
                try:
                    answer = await self._attempt(http, request.body(), headers, attempt + 1)
                    break
                except _Retryable as failure:
                    if attempt >= self.max_retries:
                        raise self._error(f"{failure} after {attempt + 1} attempts") from None
                    delay = retry_delay(attempt, self.retry_base_s, failure.retry_after)
                    await asyncio.sleep(delay)
                    attempt += 1
        self._record(answer, started)
        return answer

    async def _attempt(
        self, http: Any, body: dict[str, Any], headers: dict[str, str], attempt: int
    ) -> SteerAnswer:
        import httpx

        try:
            response = await http.post(self.endpoint, json=body, headers=headers)
        except httpx.TimeoutException:
            raise _Retryable(f"no answer within {self.timeout_s:g} s (timeout)") from None
        except httpx.TransportError as exc:
            raise _Retryable(f"connection failed ({type(exc).__name__})") from None
        status = response.status_code
        if status in (401, 403):
            raise self._error(self._auth_message(status))
        if status == 422:
            raise self._error(f"the service rejected the request (422): {_detail(response)}")
        if status == 429 or status >= 500:
            raise _Retryable(
                f"answered {status} ({_detail(response)})",
                parse_retry_after(response.headers.get("Retry-After")),
            )
        if status >= 400:
            raise self._error(
                f"answered {status}: {_detail(response)}. Check the endpoint URL "
                "(--endpoint or STEER_ENDPOINT)"
            )
        try:
            payload = response.json()
        except (ValueError, json.JSONDecodeError):
            snippet = response.text[:80].strip() or "(empty body)"
            raise _Retryable(f"answered with a body that is not JSON: {snippet!r}") from None
        text = payload.get("response") if isinstance(payload, dict) else None
        if not isinstance(text, str):
            keys = sorted(payload) if isinstance(payload, dict) else type(payload).__name__
            raise self._error(
                f"the answer has no 'response' string (got {keys}); is the endpoint a steer "
                "service (--endpoint or STEER_ENDPOINT)?"
            )
        return SteerAnswer(text=text, usage=_usage(payload), attempts=attempt)

    def _auth_message(self, status: int) -> str:
        if not self._api_key:
            return f"the service needs an API key ({status}): set {API_KEY_ENV}"
        return (
            f"the service refused the API key ({status}): set a valid key in {API_KEY_ENV} "
            f"(export {API_KEY_ENV}=... or tautrait keys set {API_KEY_ENV})"
        )

    def _record(self, answer: SteerAnswer, started: float) -> None:
        log = call_log.get()
        if log is None:
            return
        log.append(
            ModelCall(
                role="user",
                model=f"steer:{self.label}",
                prompt_tokens=answer.usage.prompt_tokens,
                completion_tokens=answer.usage.completion_tokens,
                cost=None,
                attempts=answer.attempts,
                duration_s=round(time.monotonic() - started, 4),
            )
        )


def _usage(payload: dict[str, Any]) -> Usage:
    """One call's usage; token counts when the service reports them (a local server does).

    The cost is unknown (``None``): the service reports no price.
    """
    reported = payload.get("usage")
    counts = reported if isinstance(reported, dict) else {}

    def count(name: str) -> int:
        value = counts.get(name, 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    return Usage(
        calls=1,
        prompt_tokens=count("prompt_tokens"),
        completion_tokens=count("completion_tokens"),
        cost=None,
    )

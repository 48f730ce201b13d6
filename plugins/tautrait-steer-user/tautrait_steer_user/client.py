"""An async client of the steer service (hosted, or a local ``tautrait steer serve``).

Requests go out on the core's HTTP session of the running event loop (one connection pool
per service, shared by every episode of a run) under the core's retry policy: timeouts,
connection failures, 429 and 5xx answers and bodies that are not JSON are retried with
exponential backoff and jitter (a ``Retry-After`` header, in seconds or as an HTTP date, is
honoured); when the retries are spent, :class:`SteerServiceError` (a ``ProviderError``) is
raised. A refused key (401/403), a rejected request (422) and an answer without
``response`` fail at once. The API key is sent in a header and never appears in an error
message.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from tautrait_core import (
    AttemptFailure,
    ConnectionFailed,
    HttpAnswer,
    ModelCall,
    RequestTimeout,
    RetriesExhausted,
    Usage,
    call_log,
    parse_retry_after,
    post_json,
    redact,
    send_with_retries,
)
from tautrait_steer_user.errors import SteerServiceError
from tautrait_steer_user.protocol import API_KEY_ENV, API_KEY_HEADER, SteerRequest

DETAIL_LIMIT = 300


@dataclass(frozen=True)
class SteerAnswer:
    """The service's answer: the user's utterance, its usage and how many attempts it took."""

    text: str
    usage: Usage
    attempts: int


def endpoint_label(endpoint: str) -> str:
    """The endpoint without credentials or query string, safe to show and store."""
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return f"{parts.scheme}://{host}{parts.path}"


def _detail(answer: HttpAnswer) -> str:
    """What an error answer says, shortened: FastAPI's ``detail``, an ``error``, or the text."""
    try:
        body = json.loads(answer.body)
    except ValueError:
        text = answer.body.decode("utf-8", errors="replace")
        return text[:DETAIL_LIMIT].strip() or "(empty body)"
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
    """

    def __init__(
        self,
        endpoint: str,
        api_key: str | None,
        timeout_s: float = 120.0,
        max_retries: int = 4,
        retry_base_s: float = 1.0,
    ) -> None:
        self.endpoint = endpoint
        self.label = endpoint_label(endpoint)
        self._api_key = api_key
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.retry_base_s = retry_base_s

    def _error(self, message: str) -> SteerServiceError:
        secrets = [self._api_key] if self._api_key else []
        return SteerServiceError(redact(f"steer service at {self.label}: {message}", secrets))

    async def generate(self, request: SteerRequest) -> SteerAnswer:
        """The service's answer to ``request``, retried on transient failures.

        The call is recorded in the episode's call log as role ``user``.

        Raises:
            SteerServiceError: the service refused the request or kept failing.
        """
        body = json.dumps(request.body()).encode()
        started = time.monotonic()
        try:
            (text, usage), attempts = await send_with_retries(
                lambda: self._attempt(body), self.max_retries, self.retry_base_s
            )
        except RetriesExhausted as spent:
            raise self._error(str(spent)) from None
        answer = SteerAnswer(text=text, usage=usage, attempts=attempts)
        self._record(answer, started)
        return answer

    async def _attempt(self, body: bytes) -> tuple[str, Usage]:
        headers = {API_KEY_HEADER: self._api_key} if self._api_key else {}
        try:
            answer = await post_json(self.endpoint, body, headers, self.timeout_s)
        except RequestTimeout as exc:
            raise AttemptFailure(f"{exc} (timeout)", retryable=True) from None
        except ConnectionFailed as exc:
            raise AttemptFailure(f"connection failed ({exc})", retryable=True) from None
        status = answer.status
        if status in (401, 403):
            raise self._error(self._auth_message(status))
        if status == 422:
            raise self._error(f"the service rejected the request (422): {_detail(answer)}")
        if status == 429 or status >= 500:
            raise AttemptFailure(
                f"answered {status} ({_detail(answer)})",
                retryable=True,
                retry_after=parse_retry_after(answer.headers.get("Retry-After")),
            )
        if status >= 400:
            raise self._error(
                f"answered {status}: {_detail(answer)}. Check the endpoint URL "
                "(--endpoint or STEER_ENDPOINT)"
            )
        try:
            payload = json.loads(answer.body)
        except ValueError:
            snippet = answer.body.decode("utf-8", errors="replace")[:80].strip()
            raise AttemptFailure(
                f"answered with a body that is not JSON: {snippet or '(empty body)'!r}",
                retryable=True,
            ) from None
        text = payload.get("response") if isinstance(payload, dict) else None
        if not isinstance(text, str):
            keys = sorted(payload) if isinstance(payload, dict) else type(payload).__name__
            raise self._error(
                f"the answer has no 'response' string (got {keys}); is the endpoint a steer "
                "service (--endpoint or STEER_ENDPOINT)?"
            )
        return text, _usage(payload)

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

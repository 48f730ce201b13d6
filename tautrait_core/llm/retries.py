"""The retry policy of calls to model servers and other services.

A call is made of attempts; each attempt sends the request once. An attempt that fails in a
way that trying again may mend (rate limits, timeouts, lost connections, 5xx answers) raises
a retryable :class:`AttemptFailure`, and :func:`send_with_retries` sends the request again
after an exponential backoff with jitter, or after the wait the server asked for
(``Retry-After``, in seconds or as an HTTP date), until the retries are spent.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

MAX_BACKOFF_S = 60.0

T = TypeVar("T")


class AttemptFailure(Exception):
    """One attempt failed.

    Args:
        reason: What went wrong, worded for the user.
        retryable: Whether sending the request again may succeed.
        retry_after: Seconds the server asked to wait before trying again (``None``: it
            did not say).
    """

    def __init__(self, reason: str, retryable: bool, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.retryable = retryable
        self.retry_after = retry_after


class RetriesExhausted(Exception):
    """Every attempt failed in a retryable way: ``failure`` is the last, after ``attempts``."""

    def __init__(self, failure: AttemptFailure, attempts: int) -> None:
        super().__init__(f"{failure} after {attempts} attempts")
        self.failure = failure
        self.attempts = attempts


async def send_with_retries(
    attempt: Callable[[], Awaitable[T]], max_retries: int, retry_base_s: float
) -> tuple[T, int]:
    """The result of ``attempt`` and how many attempts it took, retrying retryable failures
    up to ``max_retries`` times.

    Raises:
        AttemptFailure: an attempt failed in a way that is not retryable.
        RetriesExhausted: every attempt failed in a retryable way.
    """
    done = 0
    while True:
        try:
            return await attempt(), done + 1
        except AttemptFailure as failure:
            if not failure.retryable:
                raise
            if done >= max_retries:
                raise RetriesExhausted(failure, done + 1) from failure
            await asyncio.sleep(retry_delay(done, retry_base_s, failure.retry_after))
            done += 1


def retry_delay(attempt: int, base_s: float, retry_after: float | None) -> float:
    """Seconds to wait before retry number ``attempt`` (0-based)."""
    if retry_after is not None and retry_after >= 0:
        return min(retry_after, MAX_BACKOFF_S * 2)
    backoff = min(base_s * (2**attempt), MAX_BACKOFF_S)
    return backoff + random.uniform(0, backoff / 2)


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header: delta-seconds or an HTTP date (``None`` when
    absent or unreadable; a date in the past is 0)."""
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

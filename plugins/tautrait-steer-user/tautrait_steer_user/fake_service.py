"""A fake hosted steer service on loopback, for tests of the client and the backend.

It speaks the protocol of :mod:`tautrait_steer_user.protocol`; what it answers is decided
by a *responder* (a function of the request body) and by failures injected ahead of it:

    with FakeSteerService(lambda body: "I need this fixed now.") as service:
        service.inject(ServiceFailure(status=503), ServiceFailure(status=429, retry_after=0))
        ...  # point --endpoint at service.url
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tautrait_core.testing import JSONRequestHandler, LoopbackService
from tautrait_steer_user.protocol import API_KEY_HEADER


@dataclass
class ServiceFailure:
    """An injected answer served instead of the responder's.

    Attributes:
        status: HTTP status to answer.
        retry_after: Value of a ``Retry-After`` header (``None``: no header).
        delay_s: Sleep before answering (more than the client timeout: a timeout).
        body: The raw body (``bytes``) or a JSON object; default ``{"detail": ...}``.
    """

    status: int = 500
    retry_after: str | None = None
    delay_s: float = 0.0
    body: bytes | dict[str, Any] | list[Any] | None = None


@dataclass
class ReceivedRequest:
    """A request as the service saw it, and the port of the connection it came on."""

    path: str
    headers: dict[str, str]
    body: Any
    client_port: int


class _SteerHandler(JSONRequestHandler["FakeSteerService"]):
    """Answers the ``/generate`` route for :class:`FakeSteerService`."""

    def do_POST(self) -> None:
        service = self.service
        raw = self.read_body()
        try:
            body = json.loads(raw or b"null")
        except json.JSONDecodeError:
            body = raw.decode(errors="replace")
        received = ReceivedRequest(self.path, dict(self.headers), body, self.client_address[1])
        failure = service.receive(received)
        if service.api_key is not None and self.headers.get(API_KEY_HEADER) != service.api_key:
            failure = ServiceFailure(401, body={"detail": "invalid API key"})
        if failure is None:
            answer = service.responder(body)
            if isinstance(answer, ServiceFailure):
                failure = answer
            else:
                self.send_body(200, json.dumps({"response": answer}).encode())
                return
        self._fail(failure)

    def _fail(self, failure: ServiceFailure) -> None:
        if failure.delay_s:
            time.sleep(failure.delay_s)
        body = failure.body
        if body is None:
            body = {"detail": f"injected failure {failure.status}"}
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers = {} if failure.retry_after is None else {"Retry-After": failure.retry_after}
        self.send_body(failure.status, data, headers)


ServiceResponder = Callable[[dict[str, Any]], "str | ServiceFailure"]


class FakeSteerService(LoopbackService[ReceivedRequest, ServiceFailure]):
    """A steer service on ``127.0.0.1`` in a background thread.

    Args:
        responder: Called with each request body; returns the user's utterance or a
            :class:`ServiceFailure`. Default: a fixed sentence.
        api_key: When set, requests without this ``API-Key`` header are answered 401.
    """

    thread_name = "fake-steer"
    handler_class = _SteerHandler

    def __init__(
        self, responder: ServiceResponder | None = None, api_key: str | None = None
    ) -> None:
        super().__init__()
        self.responder: ServiceResponder = responder or (lambda body: "Please just fix it.")
        self.api_key = api_key

    @property
    def url(self) -> str:
        """The endpoint to post to."""
        return f"{self.root_url()}/generate"

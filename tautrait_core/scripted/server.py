"""A scripted OpenAI-compatible chat-completions server on loopback, for tests and benchmarks.

It answers ``/v1/embeddings`` too, deterministically (:func:`hashed_embedding` by default),
so dense retrieval runs offline.

Tests point litellm at it (``api_base=server.base_url``, model ``openai/<anything>``), so the
real client path runs: request building, HTTP, response parsing, retries, cost lookup.
What the server answers is decided by a *responder* (a function of the request body) and
by failures injected ahead of it (status codes with or without ``Retry-After``, slow
answers that trip client timeouts, truncated bodies).

    with ScriptedModelServer(lambda request: reply_text("hello")) as server:
        litellm.completion(model="openai/x", api_base=server.base_url, api_key="k", ...)
"""

from __future__ import annotations

import hashlib
import itertools
import json
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tautrait_core.scripted.loopback import JSONRequestHandler, LoopbackService


@dataclass
class Reply:
    """One scripted answer.

    Attributes:
        content: Assistant text (may be ``None`` with tool calls).
        tool_calls: ``[(name, arguments)]``; arguments is a dict (sent as JSON) or a raw
            string (sent as is, which is how malformed JSON is scripted).
        finish_reason: ``stop``/``tool_calls`` by default; ``length`` for a cut-off answer.
        prompt_tokens / completion_tokens: the usage reported.
    """

    content: str | None = None
    tool_calls: list[tuple[str, dict[str, Any] | str]] = field(default_factory=list)
    finish_reason: str | None = None
    prompt_tokens: int = 10
    completion_tokens: int = 5


@dataclass
class Failure:
    """An injected failure, served instead of the responder's answer.

    Attributes:
        status: HTTP status to answer (e.g. 429, 500, 503).
        retry_after: A ``Retry-After`` header: seconds, or the header's text as given (an
            HTTP date); ``None``: no header.
        delay_s: Sleep before answering (use more than the client timeout for a timeout).
        truncated: Answer 200 with a body cut in the middle of its JSON.
        body: An explicit error body (default: an OpenAI-style error object).
    """

    status: int = 500
    retry_after: float | str | None = None
    delay_s: float = 0.0
    truncated: bool = False
    body: dict[str, Any] | None = None


def reply_text(content: str) -> Reply:
    """A plain assistant message."""
    return Reply(content=content)


def reply_tool_call(
    name: str, arguments: dict[str, Any] | str, content: str | None = None
) -> Reply:
    """An assistant message with one tool call."""
    return Reply(content=content, tool_calls=[(name, arguments)])


def chat_completion(request: dict[str, Any], reply: Reply, number: int) -> dict[str, Any]:
    """The chat-completion JSON object answering ``request`` with ``reply``; ``number`` makes
    its id and tool-call ids unique."""
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": f"call_{number}_{index}",
                "type": "function",
                "function": {
                    "name": name,
                    "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
                },
            }
            for index, (name, arguments) in enumerate(reply.tool_calls)
        ]
    finish = reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")
    return {
        "id": f"chatcmpl-scripted-{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "scripted"),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {
            "prompt_tokens": reply.prompt_tokens,
            "completion_tokens": reply.completion_tokens,
            "total_tokens": reply.prompt_tokens + reply.completion_tokens,
        },
    }


def hashed_embedding(text: str, dimensions: int = 64) -> list[float]:
    """A deterministic bag-of-words vector: each lower-cased word adds 1 to the component its
    hash picks, so texts that share words point the same way (a stand-in for a real model)."""
    vector = [0.0] * dimensions
    for word in text.lower().split():
        digest = hashlib.sha256(word.encode("utf-8", "surrogatepass")).digest()
        vector[int.from_bytes(digest[:4], "big") % dimensions] += 1.0
    return vector


class _ChatCompletionsHandler(JSONRequestHandler["ScriptedModelServer"]):
    """Answers the OpenAI routes for :class:`ScriptedModelServer`."""

    def setup(self) -> None:
        super().setup()
        # headers and body go out in separate writes: without this, Nagle's
        # algorithm and delayed ACKs add ~40 ms to every answer
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            self._send(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})
        else:
            self._send(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        service = self.service
        raw = self.read_body()
        try:
            request = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            self._send(400, {"error": {"message": "invalid JSON body"}})
            return
        if self.path.rstrip("/").endswith("/embeddings"):
            self._embeddings(request)
            return
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        failure = service.receive(request)
        with service._lock:
            service._concurrent += 1
            service.max_concurrent = max(service.max_concurrent, service._concurrent)
        try:
            self._answer(request, failure)
        finally:
            with service._lock:
                service._concurrent -= 1

    def _embeddings(self, request: dict[str, Any]) -> None:
        service = self.service
        texts = request.get("input", [])
        texts = [texts] if isinstance(texts, str) else texts
        with service._lock:
            service.embedding_requests.append(request)
        data = [
            {"object": "embedding", "index": index, "embedding": service.embedder(text)}
            for index, text in enumerate(texts)
        ]
        tokens = sum(len(str(text).split()) for text in texts)
        usage = {"prompt_tokens": tokens, "total_tokens": tokens}
        model = request.get("model", "scripted")
        self._send(200, {"object": "list", "data": data, "model": model, "usage": usage})

    def _answer(self, request: dict[str, Any], failure: Failure | None) -> None:
        if failure is not None:
            self._fail(failure)
            return
        if self.service.latency_s:
            time.sleep(self.service.latency_s)
        try:
            answer = self.service.responder(request)
        except Exception as exc:  # a broken script shows up as a 500 with its text
            self._send(500, {"error": {"message": f"responder failed: {exc!r}"}})
            return
        if isinstance(answer, Failure):
            self._fail(answer)
            return
        reply = reply_text(answer) if isinstance(answer, str) else answer
        self._send(200, chat_completion(request, reply, next(self.service._ids)))

    def _fail(self, failure: Failure) -> None:
        if failure.delay_s:
            time.sleep(failure.delay_s)
        if failure.truncated:
            body = json.dumps(
                chat_completion({}, reply_text("cut"), next(self.service._ids))
            ).encode()
            self.send_body(200, body[: len(body) // 2])
            return
        headers = {}
        if isinstance(failure.retry_after, str):
            headers["Retry-After"] = failure.retry_after
        elif failure.retry_after is not None:
            headers["Retry-After"] = f"{failure.retry_after:g}"
        body = failure.body or {
            "error": {
                "message": f"injected failure {failure.status}",
                "type": "rate_limit_error" if failure.status == 429 else "server_error",
                "code": failure.status,
            }
        }
        self._send(failure.status, body, headers)

    def _send(
        self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None
    ) -> None:
        self.send_body(status, json.dumps(body).encode(), headers)


Responder = Callable[[dict[str, Any]], "Reply | Failure | str"]


class ScriptedModelServer(LoopbackService[dict[str, Any], Failure]):
    """An OpenAI-compatible server on ``127.0.0.1`` running in a background thread.

    Args:
        responder: Called with each request body (a dict); returns a :class:`Reply`, a
            string (a plain text reply) or a :class:`Failure` to serve. Called from server
            threads, so keep it thread-safe.
        latency_s: Seconds every answer waits before it is sent.
        port: The port to listen on (0: any free port).
        embedder: The vector ``/v1/embeddings`` answers for a text (default:
            :func:`hashed_embedding`).

    Attributes:
        requests: Every chat-completions request body received, in order.
        embedding_requests: Every embeddings request body received, in order.
        max_concurrent: The most chat-completions requests that were being answered at
            once (how far clients overlapped their calls).
    """

    thread_name = "scripted-model-server"
    handler_class = _ChatCompletionsHandler

    def __init__(
        self,
        responder: Responder | None = None,
        latency_s: float = 0.0,
        port: int = 0,
        embedder: Callable[[str], list[float]] = hashed_embedding,
    ) -> None:
        super().__init__(port)
        self.embedder = embedder
        self.embedding_requests: list[dict[str, Any]] = []
        self.responder: Responder = responder or (lambda request: reply_text("OK"))
        self.latency_s = latency_s
        self.max_concurrent = 0
        self._concurrent = 0
        self._ids = itertools.count(1)

    @property
    def base_url(self) -> str:
        """The ``api_base`` to give litellm (``http://127.0.0.1:PORT/v1``)."""
        return f"{self.root_url()}/v1"

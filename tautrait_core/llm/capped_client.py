"""The OpenAI SDK client litellm's path uses for a server of the user's own: one that reads
at most :data:`MAX_ERROR_BODY_BYTES` of an error answer, and cuts tool-call arguments that
nest too deeply for litellm to read.

litellm runs a dozen regular expressions over an error's text several times (to redact
secrets from its logs), on the event loop: a 50 MB error answer held the loop for minutes.
And it parses every tool call's arguments, which fails with a ``RecursionError`` (made an
infrastructure error) when they nest some thousand levels deep. Given this client
(``litellm.acompletion(client=...)``, for the ``openai`` provider), an error answer longer
than the limit reaches litellm as a short error object that says so, and arguments nested
deeper than :data:`MAX_ARGUMENT_NESTING` levels are cut there: the agent is told that its
arguments nest too deeply, as for any arguments nested past the episode's limit.
One client is made per event loop, server and key; the requests go through the proxy the
environment names for the server (:func:`~tautrait_core.llm.http_session.environment_proxy`).
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from tautrait_core.llm.chat_answer import cut_past_depth
from tautrait_core.llm.http_session import environment_proxy, read_at_most

if TYPE_CHECKING:
    import httpx

MAX_ERROR_BODY_BYTES = 64 * 1024
"""The most bytes of an error answer's body litellm is given."""
KEPT_START_CHARS = 1_000
"""How much of a cut error answer's text the short error object keeps."""
MAX_ARGUMENT_NESTING = 100
"""Arguments nested deeper are cut at this depth (past the episode's limit of 32)."""
ERROR_STATUS = 400

_clients: dict[tuple[asyncio.AbstractEventLoop, str, str], Any] = {}


def capped_openai_client(api_base: str, api_key: str) -> Any:
    """The running loop's ``openai.AsyncOpenAI`` client for ``api_base`` and ``api_key``,
    made on first use, that cuts long error answers."""
    loop = asyncio.get_running_loop()
    key = (loop, api_base, api_key)
    client = _clients.get(key)
    if client is None:
        for other in [known for known in _clients if known[0].is_closed()]:
            del _clients[other]
        import httpx
        import openai

        transport = _capped_transport()(httpx.AsyncHTTPTransport(proxy=environment_proxy(api_base)))
        client = openai.AsyncOpenAI(
            api_key=api_key,
            base_url=api_base,
            max_retries=0,
            http_client=httpx.AsyncClient(transport=transport, follow_redirects=True),
        )
        _clients[key] = client
    return client


def _capped_transport() -> type[httpx.AsyncBaseTransport]:
    import httpx

    class CappedErrorAnswers(httpx.AsyncBaseTransport):
        """A transport that reads at most :data:`MAX_ERROR_BODY_BYTES` of an error answer
        and stands a short error object in for a longer one."""

        def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
            self._inner = inner

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            response = await self._inner.handle_async_request(request)
            if response.status_code < ERROR_STATUS:
                return await _shallow_answer(response)
            try:
                kept, longer = await read_at_most(response.aiter_raw(), MAX_ERROR_BODY_BYTES)
            finally:
                await response.aclose()
            if not longer:
                return httpx.Response(response.status_code, headers=response.headers, content=kept)
            return httpx.Response(
                response.status_code,
                headers=_headers_of_new_body(response),
                content=_cut_error(response, kept),
            )

        async def aclose(self) -> None:
            await self._inner.aclose()

    return CappedErrorAnswers


async def _shallow_answer(response: httpx.Response) -> httpx.Response:
    """``response`` with tool-call arguments cut at :data:`MAX_ARGUMENT_NESTING` levels
    (itself when none nests that deep)."""
    import httpx

    body = await response.aread()
    if body.count(b"{") + body.count(b"[") <= MAX_ARGUMENT_NESTING:
        return response  # cannot nest that deep
    try:
        answer = json.loads(body)
        calls = [
            call["function"]
            for choice in answer["choices"]
            for call in choice["message"].get("tool_calls") or []
        ]
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return response  # not a chat completion: litellm says what is wrong with it
    cut = False
    for function in calls:
        arguments = function.get("arguments") if isinstance(function, dict) else None
        if isinstance(arguments, str):
            shallow = cut_past_depth(arguments, MAX_ARGUMENT_NESTING)
            cut = cut or shallow != arguments
            function["arguments"] = shallow
    if not cut:
        return response
    return httpx.Response(response.status_code, headers=_headers_of_new_body(response), json=answer)


def _headers_of_new_body(response: httpx.Response) -> dict[str, str]:
    """``response``'s headers without those that describe its body's bytes."""
    return {
        name: value
        for name, value in response.headers.items()
        if name.lower() not in ("content-length", "content-encoding", "transfer-encoding")
    }


def _cut_error(response: httpx.Response, kept: bytes) -> bytes:
    """The short error object standing in for an error answer longer than the limit."""
    message = f"the server's error answer was longer than {MAX_ERROR_BODY_BYTES} bytes"
    if "content-encoding" not in response.headers:
        start = kept[:KEPT_START_CHARS].decode("utf-8", "replace")
        message = f"{message}; it starts: {start}"
    return json.dumps({"error": {"message": message}}).encode()

"""The direct path to OpenAI-compatible servers (``openai/...`` models with an api base).

Through litellm, a call to such a server spends most of its CPU in litellm and the openai
SDK (which walks every tool schema of every request), and a model-backed command spends
seconds importing litellm. This path posts the request itself on the loop's aiohttp session
(:mod:`tautrait_core.llm.http_session`), with the domain's tool schemas encoded once, and
never imports litellm, while giving what ``litellm.acompletion`` gives:

- the request body is the one litellm sends (model name without its provider prefix,
  messages without ``None`` fields, temperature, tools);
- the answer is read as litellm reads it (:mod:`tautrait_core.llm.chat_answer`) and
  priced by litellm's own price list (:mod:`tautrait_core.llm.pricing`);
- a failure has the kind litellm gives it and the server's words
  (:mod:`tautrait_core.llm.failures`), so retries, ``Retry-After`` and error classes
  (context window, authentication, bad request) are those of litellm's path.

Each attempt sends the request once. It is taken for a model litellm would send to the
``openai`` provider, at an ``http`` or ``https`` api base, with messages of plain text and
tool calls, while litellm has no callbacks configured. A 422 answer is a ``BadRequestError``
(litellm would drop the parameters the answer names and send again).
``TAUTRAIT_LLM_TRANSPORT=litellm`` sends every call through litellm.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from dataclasses import dataclass
from typing import Any

from tautrait_core.llm.chat_answer import NotAChatCompletion, read_answer
from tautrait_core.llm.failures import ModelCallFailure, failure_of_answer
from tautrait_core.llm.http_session import ConnectionFailed, RequestTimeout, post_json
from tautrait_core.llm.pricing import answer_cost, model_prices
from tautrait_core.llm.server_keys import LOCAL_KEY

TRANSPORT_VARIABLE = "TAUTRAIT_LLM_TRANSPORT"
"""``litellm`` sends every model call through litellm; anything else (or unset) allows the
direct path where it applies."""

PROVIDER = "openai"
KEY_VARIABLE = "OPENAI_API_KEY"
UNAUTHORIZED = 401
UNPROCESSABLE = 422

TRANSPORT_ARGUMENTS = frozenset(
    {"model", "timeout", "num_retries", "max_retries", "api_base", "api_key", "custom_llm_provider"}
)
"""Arguments of a request that say how to send it, not what the model gets."""

BODY_ARGUMENTS = ("messages", "temperature", "tools")
"""Arguments the direct path sends as they are (any other argument: litellm's path)."""

MESSAGE_FIELDS = frozenset({"role", "content", "tool_calls", "tool_call_id", "name"})

_LITELLM_CALLBACK_LISTS = (
    "callbacks",
    "input_callback",
    "success_callback",
    "failure_callback",
    "_async_success_callback",
    "_async_failure_callback",
    "_async_input_callback",
)

_encoded_tools: dict[tuple[int, ...], tuple[list[dict[str, Any]], str]] = {}
_MAX_ENCODED_TOOL_SETS = 64


@dataclass(frozen=True)
class DirectRoute:
    """Where and as what a model is called on the direct path.

    Attributes:
        sent_model: The name sent in the request body (without the provider prefix).
        url: The server's chat-completions URL.
        prices: The model's entry in litellm's price list (``None``: no known price).
    """

    sent_model: str
    url: str
    prices: dict[str, Any] | None

    async def send(self, arguments: dict[str, Any]) -> tuple[dict[str, Any], float | None]:
        """Post the request once; the answer (as :func:`~tautrait_core.llm.chat_answer.
        read_answer` gives it) and its cost (``None``: no known price).

        Raises:
            ModelCallFailure: the request could not be sent, got no answer, an error
                answer, or an answer that is not a chat completion.
        """
        try:
            body = self._body(arguments)
        except UnicodeEncodeError as error:  # the same text fails the same way every time
            raise ModelCallFailure("InternalServerError", str(error), retryable=False) from error
        key = arguments.get("api_key") or _api_key()
        timeout = arguments["timeout"]
        try:
            answer = await post_json(self.url, body, {"Authorization": f"Bearer {key}"}, timeout)
        except RequestTimeout as error:
            detail = (
                f"Request timed out. - timeout value={timeout}, "
                f"time taken={round(error.waited_s, 2)} seconds"
            )
            raise ModelCallFailure("Timeout", detail, retryable=True) from error
        except ConnectionFailed as error:
            raise ModelCallFailure(
                "InternalServerError", "Connection error.", retryable=True
            ) from error
        if answer.status >= 400:
            fix = _fix(answer.status, arguments["api_base"], key)
            raise failure_of_answer(answer.status, answer.headers, answer.body, fix)
        try:
            data = json.loads(answer.body)
            read = read_answer(data)
        except (ValueError, NotAChatCompletion) as error:  # cut off, empty (204), not JSON
            detail = str(error) if answer.body else f"answered {answer.status} without a body"
            raise ModelCallFailure("InternalServerError", detail, retryable=True) from error
        if self.prices is None:
            return read, None
        # OpenAI prices the service tier an answer was served at apart
        return read, answer_cost(self.prices, read["usage"], data.get("service_tier"))

    def _body(self, arguments: dict[str, Any]) -> bytes:
        """The JSON body litellm would send, with the tool schemas encoded once."""
        body: dict[str, Any] = {
            "messages": [
                {key: value for key, value in message.items() if value is not None}
                for message in arguments["messages"]
            ],
            "model": self.sent_model,
        }
        if "temperature" in arguments:
            body["temperature"] = arguments["temperature"]
        text = json.dumps(body, ensure_ascii=False)
        tools = arguments.get("tools")
        if tools:
            text = f'{text[:-1]}, "tools": {_tools_json(tools)}}}'
        return text.encode("utf-8")


def direct_route(arguments: dict[str, Any]) -> DirectRoute | None:
    """The direct route for a request (``litellm.acompletion`` arguments), or ``None`` when
    it goes through litellm."""
    if not arguments.get("api_base") or os.environ.get(TRANSPORT_VARIABLE) == "litellm":
        return None
    if any(key not in TRANSPORT_ARGUMENTS and key not in BODY_ARGUMENTS for key in arguments):
        return None
    if not all(_plain_message(message) for message in arguments["messages"]):
        return None
    if _litellm_has_callbacks():
        return None
    return _route(arguments["model"], arguments.get("custom_llm_provider"), arguments["api_base"])


@functools.lru_cache(maxsize=256)
def _route(model: str, provider: str | None, api_base: str) -> DirectRoute | None:
    """The route of a model litellm sends to the ``openai`` provider: one named
    ``openai/...``, or any model with ``custom_llm_provider="openai"``."""
    if provider not in (None, PROVIDER) or not api_base.startswith(("http://", "https://")):
        return None
    if provider is None and not model.startswith(f"{PROVIDER}/"):
        return None
    sent_model = model.removeprefix(f"{PROVIDER}/")
    return DirectRoute(
        sent_model=sent_model,
        url=f"{api_base.rstrip('/')}/chat/completions",
        prices=model_prices(sent_model),
    )


def _plain_message(message: Any) -> bool:
    """Text and tool calls only (litellm rewrites content lists, e.g. images)."""
    if not isinstance(message, dict) or not MESSAGE_FIELDS.issuperset(message):
        return False
    content = message.get("content")
    return content is None or isinstance(content, str)


def _litellm_has_callbacks() -> bool:
    """Whether litellm is set up to log calls somewhere (only its own path does that); it
    cannot be unless something imported it."""
    litellm = sys.modules.get("litellm")
    return litellm is not None and any(
        getattr(litellm, name, None) for name in _LITELLM_CALLBACK_LISTS
    )


def _api_key() -> str:
    """The key litellm sends when a request names none: litellm's own setting, else
    ``OPENAI_API_KEY`` (empty: none is set)."""
    litellm = sys.modules.get("litellm")
    configured = litellm and (litellm.api_key or litellm.openai_key)
    return configured or os.environ.get(KEY_VARIABLE) or ""


def _fix(status: int, api_base: str, key: str) -> str | None:
    """How to fix what an error answer refused: the key (401) or a parameter (422)."""
    if status == UNAUTHORIZED:
        fix = f"tautrait keys set NAME --api-base {api_base}"
        if key and key != LOCAL_KEY:
            return f"the server refused the key sent to it; bind the one it takes: {fix}"
        return f"no key is bound to this server and it needs one; bind it: {fix}"
    if status == UNPROCESSABLE:
        return (
            f"the server refused a parameter of the request; {TRANSPORT_VARIABLE}=litellm "
            "sends the request without the parameters a server names"
        )
    return None


def _tools_json(tools: list[dict[str, Any]]) -> str:
    """The JSON text of a list of tool schemas, encoded once per set of schema objects."""
    key = tuple(id(schema) for schema in tools)
    found = _encoded_tools.get(key)
    if found is None:
        if len(_encoded_tools) >= _MAX_ENCODED_TOOL_SETS:
            _encoded_tools.clear()
        found = (list(tools), json.dumps(tools, ensure_ascii=False))  # keeps the ids alive
        _encoded_tools[key] = found
    return found[1]

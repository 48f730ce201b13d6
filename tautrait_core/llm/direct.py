"""A direct HTTP path for OpenAI-compatible servers (``openai/...`` models with an api base).

Through litellm, a call to such a server spends most of its CPU building the request in the
openai SDK (which walks every tool schema of every request), in httpx's connection pool and
in litellm's logging. This path posts the request itself, on kept-alive connections
(:mod:`tautrait_core.llm.http_client`) with the domain's tool schemas encoded once, and
leaves the rest to litellm's own functions, so that the result is the one
``litellm.acompletion`` gives:

- the request body is the one litellm sends (model name without its provider prefix,
  messages without ``None`` fields, temperature, tools);
- the answer is read by litellm's ``convert_to_model_response_object`` (finish reasons,
  reasoning text, tool calls as litellm gives them) and priced by ``litellm.completion_cost``;
- a failure becomes the exception litellm raises for it (``litellm.exception_type`` on the
  error the openai SDK would have reported), so retries, ``Retry-After`` and error classes
  (context window, authentication, bad request) are unchanged.

It is taken only for what it covers: a model litellm resolves to the ``openai`` provider,
with a plain-HTTP ``api_base`` reached without a proxy, messages of plain text and tool
calls, and no litellm callbacks configured. A 422 answer (litellm drops the parameters named
in it and sends again) is handed to litellm. ``TAUTRAIT_LLM_TRANSPORT=litellm`` sends every
call through litellm.
"""

from __future__ import annotations

import functools
import json
import os
import time
import urllib.request
from dataclasses import dataclass
from typing import Any

from tautrait_core.llm.http_client import Answer, Endpoint, loop_pool
from tautrait_core.llm.provider import (
    load_litellm,
    load_openai_handler_parts,
    openai_error_words,
)

TRANSPORT_VARIABLE = "TAUTRAIT_LLM_TRANSPORT"
"""``litellm`` sends every model call through litellm; anything else (or unset) allows the
direct path where it applies."""

TRANSPORT_ARGUMENTS = frozenset(
    {"model", "timeout", "num_retries", "max_retries", "api_base", "api_key", "custom_llm_provider"}
)
"""Arguments of a request that say how to send it, not what the model gets."""

BODY_ARGUMENTS = ("messages", "temperature", "tools")
"""Arguments the direct path sends as they are (any other argument: litellm's path)."""

MESSAGE_FIELDS = frozenset({"role", "content", "tool_calls", "tool_call_id", "name"})

UNPROCESSABLE = 422

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
        model: The model name as given (``openai/local``), for litellm's error mapping.
        sent_model: The name sent in the request body (without the provider prefix).
        endpoint: The server's chat-completions endpoint.
        priced: Whether litellm knows a price for the model (else the cost is ``None``).
    """

    model: str
    sent_model: str
    endpoint: Endpoint
    priced: bool

    async def send(self, arguments: dict[str, Any]) -> Any | None:
        """Post the request; the answer as a litellm ``ModelResponse`` with its cost in
        ``_hidden_params``, or ``None`` when litellm's own path must take the request
        (a 422 answer).

        Raises:
            Exception: the litellm exception ``litellm.acompletion`` raises for the failure.
        """
        litellm = load_litellm()
        OpenAIError, _ = load_openai_handler_parts()

        started = time.time()
        timeout = arguments["timeout"]
        headers = {
            "Content-Type": "application/json",
            "Authorization": f"Bearer {_api_key(arguments)}",
        }
        try:
            response = await loop_pool().post(
                self.endpoint, headers, self._body(arguments), timeout
            )
        except TimeoutError as error:
            taken = round(time.time() - started, 2)
            message = f"Request timed out. - timeout value={timeout}, time taken={taken} seconds"
            raise self._mapped(OpenAIError(status_code=500, message=message)) from error
        except ConnectionError as error:
            raise self._mapped(OpenAIError(status_code=500, message="Connection error.")) from error
        except Exception as error:  # e.g. text that UTF-8 cannot encode
            raise self._mapped(OpenAIError(status_code=500, message=str(error))) from error
        if response.status == UNPROCESSABLE:
            return None
        if response.status >= 400:
            raise self._mapped(_status_error(OpenAIError, response))
        try:
            return self._model_response(litellm, response)
        except Exception as error:  # a body that is not a chat completion (cut off, ...)
            raise self._mapped(OpenAIError(status_code=500, message=str(error))) from error

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

    def _model_response(self, litellm: Any, response: Any) -> Any:
        _, convert_to_model_response_object = load_openai_handler_parts()
        parsed = convert_to_model_response_object(
            response_object=json.loads(response.body),
            model_response_object=litellm.ModelResponse(),
            hidden_params={"headers": response.headers},
            _response_headers=response.headers,
        )
        parsed._hidden_params["response_cost"] = self._cost(litellm, parsed)
        return parsed

    def _cost(self, litellm: Any, parsed: Any) -> float | None:
        if not self.priced:
            return None
        try:
            return float(
                litellm.completion_cost(
                    completion_response=parsed,
                    model=self.sent_model,
                    custom_llm_provider="openai",
                    call_type="acompletion",
                )
            )
        except Exception:  # litellm's own path records an unknown price the same way
            return None

    def _mapped(self, error: Exception) -> Exception:
        return load_litellm().exception_type(
            model=self.model,
            custom_llm_provider="openai",
            original_exception=error,
            completion_kwargs={},
            extra_kwargs={},
        )


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
    litellm = load_litellm()
    try:
        sent_model, resolved, _, _ = litellm.get_llm_provider(
            model=model, custom_llm_provider=provider, api_base=api_base
        )
    except Exception:  # the call through litellm reports it
        return None
    if resolved != "openai":
        return None
    try:
        endpoint = Endpoint.from_url(f"{api_base.rstrip('/')}/chat/completions")
    except ValueError:  # https: litellm's client
        return None
    if _proxied(endpoint.host):
        return None
    return DirectRoute(
        model=model,
        sent_model=sent_model,
        endpoint=endpoint,
        priced=_has_price(litellm, sent_model),
    )


def _proxied(host: str) -> bool:
    """Whether the environment sends requests to ``host`` through a proxy (litellm's
    client honours that; this path does not speak to proxies)."""
    proxies = urllib.request.getproxies()
    return bool(proxies.get("http") or proxies.get("all")) and not urllib.request.proxy_bypass(host)


def _has_price(litellm: Any, model: str) -> bool:
    try:
        info = litellm.get_model_info(model=model, custom_llm_provider="openai")
    except Exception:  # litellm knows no such model
        return False
    return bool(info.get("input_cost_per_token") or info.get("output_cost_per_token"))


def _plain_message(message: Any) -> bool:
    """Text and tool calls only (litellm rewrites content lists, e.g. images)."""
    if not isinstance(message, dict) or not MESSAGE_FIELDS.issuperset(message):
        return False
    content = message.get("content")
    return content is None or isinstance(content, str)


def _litellm_has_callbacks() -> bool:
    """Whether litellm is set up to log calls somewhere (only its own path does that)."""
    litellm = load_litellm()
    return any(getattr(litellm, name, None) for name in _LITELLM_CALLBACK_LISTS)


def _api_key(arguments: dict[str, Any]) -> str:
    litellm = load_litellm()
    return (
        arguments.get("api_key")
        or litellm.api_key
        or litellm.openai_key
        or os.environ.get("OPENAI_API_KEY")
        or ""
    )


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


def _status_error(error_class: Any, response: Answer) -> Exception:
    """The error litellm's openai path builds from an error answer, worded by the openai SDK."""
    text = response.body.decode("utf-8", errors="replace")
    message, body = openai_error_words(response.status, text)
    data = body.get("error", body) if isinstance(body, dict) else body
    return error_class(
        status_code=response.status, message=message, headers=response.headers, body=data
    )

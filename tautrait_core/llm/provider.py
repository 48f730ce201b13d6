"""litellm's path: the only place that imports litellm, lazily, when a call needs it.

Hosted providers (``anthropic/...``, ``gemini/...``, ...), an ``openai/...`` model without an
api base, and requests the direct path does not cover (:mod:`tautrait_core.llm.direct`) are
sent by ``litellm.acompletion``. Its failures are classified by litellm's public exception
classes and status codes, into the same :class:`~tautrait_core.llm.failures.ModelCallFailure`
the direct path raises.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from tautrait_core.llm.failures import CONTEXT_WINDOW_KIND, ModelCallFailure, capped_text
from tautrait_core.llm.retries import parse_retry_after

_litellm: Any = None


def load_litellm() -> Any:
    """The litellm module, imported on first use and set up quietly (no debug output,
    parameters a provider does not take dropped)."""
    global _litellm
    if _litellm is None:
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        import logging

        import litellm

        logging.getLogger("LiteLLM").setLevel(logging.ERROR)
        litellm.suppress_debug_info = True
        litellm.drop_params = True
        _litellm = litellm
    return _litellm


async def send_through_litellm(arguments: dict[str, Any]) -> tuple[dict[str, Any], float | None]:
    """One ``litellm.acompletion`` call: the answer as an OpenAI-style dict and its cost
    (``None`` when litellm knows no price for the model).

    Raises:
        ModelCallFailure: litellm raised (classified by its exception class), or its answer
            holds no message (retried, as the direct path retries such an answer).
    """
    litellm = load_litellm()
    timeout = arguments["timeout"]
    try:
        # litellm's own timeout bounds each read, not the request: a server trickling its
        # answer would hold it for as long as it likes
        response = await asyncio.wait_for(litellm.acompletion(**_with_client(arguments)), timeout)
    except TimeoutError as error:
        detail = f"Request timed out. - timeout value={timeout}, time taken={timeout} seconds"
        raise ModelCallFailure("Timeout", detail, retryable=True) from error
    except Exception as error:
        raise litellm_failure(litellm, error) from error
    priced = (getattr(response, "_hidden_params", None) or {}).get("response_cost")
    return _answer(response), None if priced is None else float(priced)


def _with_client(arguments: dict[str, Any]) -> dict[str, Any]:
    """``arguments`` with the client that cuts long error answers, for a server of the
    user's own that litellm sends to its ``openai`` provider."""
    api_base, api_key = arguments.get("api_base"), arguments.get("api_key")
    provider = arguments.get("custom_llm_provider")
    openai_compatible = provider == "openai" or (
        provider is None and str(arguments["model"]).startswith("openai/")
    )
    if not (api_base and api_key and openai_compatible):
        return arguments
    from tautrait_core.llm.capped_client import capped_openai_client

    return {**arguments, "client": capped_openai_client(api_base, api_key)}


def _answer(response: Any) -> dict[str, Any]:
    """What tautrait reads of a litellm ``ModelResponse``, as the OpenAI-style dict the
    direct path gives (:func:`tautrait_core.llm.chat_answer.read_answer`).

    Raises:
        ModelCallFailure: the answer holds no choice with a message (a provider fault).
    """
    choices = getattr(response, "choices", None)
    if not choices or getattr(choices[0], "message", None) is None:
        detail = f"no choices in the answer: {str(response)[:200]}"
        raise ModelCallFailure("InternalServerError", detail, retryable=True)
    choice = choices[0]
    message: dict[str, Any] = {"role": "assistant", "content": choice.message.content}
    tool_calls = getattr(choice.message, "tool_calls", None)
    if tool_calls is not None:
        message["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.function.name, "arguments": call.function.arguments},
            }
            for call in tool_calls
        ]
    usage = getattr(response, "usage", None)
    return {
        "choices": [{"index": 0, "message": message, "finish_reason": choice.finish_reason}],
        "usage": {
            "prompt_tokens": getattr(usage, "prompt_tokens", 0) or 0,
            "completion_tokens": getattr(usage, "completion_tokens", 0) or 0,
        },
    }


def litellm_failure(litellm: Any, error: Exception) -> ModelCallFailure:
    """The failure an exception of ``litellm.acompletion`` stands for: its kind is the
    exception's class name, retried for rate limits, timeouts, lost connections and 5xx
    answers, never for a request that could not be encoded."""
    retryable_classes = (
        litellm.RateLimitError,
        litellm.Timeout,
        litellm.APIConnectionError,
        litellm.InternalServerError,
        litellm.ServiceUnavailableError,
        litellm.BadGatewayError,
    )
    status = getattr(error, "status_code", None)
    retryable = isinstance(error, retryable_classes) or (isinstance(status, int) and status >= 500)
    kind = type(error).__name__
    if isinstance(error, litellm.ContextWindowExceededError):
        kind, retryable = CONTEXT_WINDOW_KIND, False
    if _failed_to_encode(error):  # the same request fails the same way every time
        retryable = False
    return ModelCallFailure(kind, capped_text(str(error)), retryable, _retry_after(error))


def _retry_after(error: Exception) -> float | None:
    """The ``Retry-After`` of the answer behind a litellm exception, in seconds."""
    headers = getattr(error, "litellm_response_headers", None)
    response = getattr(error, "response", None)
    if headers is None and response is not None:
        headers = getattr(response, "headers", None)
    if not headers:
        return None
    found = {str(name).lower(): value for name, value in dict(headers).items()}
    return parse_retry_after(found.get("retry-after"))


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

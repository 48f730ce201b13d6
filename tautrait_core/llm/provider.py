"""The only place that imports litellm, lazily: tautrait's CLI starts without it."""

from __future__ import annotations

import os
from typing import Any

_litellm: Any = None


def load_litellm() -> Any:
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


def load_openai_handler_parts() -> tuple[Any, Any]:
    """What litellm's OpenAI handler is made of, for the direct path
    (:mod:`tautrait_core.llm.direct`): the error class it raises for a failed request
    (``OpenAIError``) and the function that reads a chat-completion dict into a
    ``ModelResponse`` (``convert_to_model_response_object``)."""
    load_litellm()
    from litellm.litellm_core_utils.llm_response_utils.convert_dict_to_response import (
        convert_to_model_response_object,
    )
    from litellm.llms.openai.common_utils import OpenAIError

    return OpenAIError, convert_to_model_response_object


class _ErrorAnswer:
    """What the openai SDK reads of an error answer when it words its exception."""

    is_closed = False
    is_stream_consumed = True

    def __init__(self, status_code: int, text: str) -> None:
        self.status_code = status_code
        self.text = text


class _ErrorWording:
    """Stands in for an openai client: keeps the message and body the SDK chose."""

    def _make_status_error(self, err_msg: str, *, body: Any, response: Any) -> tuple[str, Any]:
        return err_msg, body


def openai_error_words(status: int, text: str) -> tuple[str, Any]:
    """The message and body the installed openai SDK gives the exception for an error
    answer (status and body text), as litellm's OpenAI handler then reports them.

    The SDK's own wording function runs, so the direct path follows the installed version
    (older SDKs put the whole JSON body in the message, newer ones only its ``message``).
    """
    load_litellm()
    from openai._base_client import BaseClient

    wording = BaseClient._make_status_error_from_response
    return wording(_ErrorWording(), _ErrorAnswer(status, text))

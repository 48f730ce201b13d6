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

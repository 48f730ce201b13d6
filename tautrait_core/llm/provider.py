"""Model calls through litellm: the only module that imports litellm, and only when used.

:func:`complete` sends one chat completion and returns the assistant message with its
token usage and cost. Rate limits, timeouts, connection errors and 5xx answers are retried
with exponential backoff and jitter (a provider's ``Retry-After`` is honoured); when the
retries are spent it raises :class:`ProviderError`, which the runner records as an
infrastructure error. A context-window overflow is never retried: it raises
:class:`ContextWindowError` at once.
"""

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

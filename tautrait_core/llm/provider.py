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

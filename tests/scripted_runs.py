"""The run configuration most model-backed tests start from: the ``tool-calling`` agent and
the ``llm`` user, both on one scripted model server, on the toy library domain, with fast
retries and a short timeout."""

from __future__ import annotations

from tautrait_core.config.run_config import RunConfig
from tautrait_core.scripted.server import ScriptedModelServer


def scripted_config(server: ScriptedModelServer, **overrides: object) -> RunConfig:
    """A run on ``server``'s scripted models; ``overrides`` replace or add settings."""
    options: dict[str, object] = {
        "domain": "toylib",
        "agent": "tool-calling",
        "agent_model": "openai/scripted-agent",
        "agent_api_base": server.base_url,
        "user": "llm",
        "user_model": "openai/scripted-user",
        "user_api_base": server.base_url,
        "retry_base_s": 0.01,
        "timeout_s": 5,
    }
    options.update(overrides)
    return RunConfig.model_validate(options)

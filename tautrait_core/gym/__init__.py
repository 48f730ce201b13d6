"""Gymnasium environments over tautrait episodes (the optional extra ``gym``).

``pip install 'tautrait-core[gym]'``; importing this module registers the environments::

    import gymnasium
    import tautrait_core.gym

    env = gymnasium.make("tautrait/agent-v0", domain="retail", user="llm",
                         user_model="gpt-4o", traits="impatience=high")

``tautrait/agent-v0`` (:class:`AgentEnv`) lets a policy play the agent against any
registered user simulator with any trait mix; ``tautrait/user-v0`` (:class:`UserEnv`) lets
it play the customer against any registered agent. Each installed domain also gets its own
ids, ``tautrait/DOMAIN-agent-v0`` and ``tautrait/DOMAIN-user-v0``. Importing
:mod:`tautrait_core` itself never imports gymnasium.
"""

from __future__ import annotations

try:
    import gymnasium
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "tautrait_core.gym needs gymnasium: pip install 'tautrait-core[gym]'"
    ) from exc

from tautrait_core.errors import EpisodeError
from tautrait_core.gym.actions import ActionError
from tautrait_core.gym.envs import AgentEnv, EpisodeEnv, UserEnv

AGENT_ENV_ID = "tautrait/agent-v0"
USER_ENV_ID = "tautrait/user-v0"

__all__ = [
    "AGENT_ENV_ID",
    "USER_ENV_ID",
    "ActionError",
    "AgentEnv",
    "EpisodeEnv",
    "EpisodeError",
    "UserEnv",
    "register_envs",
]


def register_envs() -> list[str]:
    """Register the generic ids and one pair per installed domain; returns the ids added
    (ids already registered are left alone, so calling it again after installing or
    registering a domain adds that domain's)."""
    from tautrait_core.plugins import get_plugin_manager

    entries = {AGENT_ENV_ID: ("agent", {}), USER_ENV_ID: ("user", {})}
    for domain in get_plugin_manager().names("domain"):
        for side in ("agent", "user"):
            entries[f"tautrait/{domain}-{side}-v0"] = (side, {"domain": domain})
    added = []
    for env_id, (side, kwargs) in entries.items():
        if env_id in gymnasium.registry:
            continue
        env_class = AgentEnv if side == "agent" else UserEnv
        gymnasium.register(
            env_id,
            entry_point=f"{env_class.__module__}:{env_class.__name__}",
            kwargs=kwargs,
        )
        added.append(env_id)
    return added


register_envs()

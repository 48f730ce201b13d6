"""The domain as an episode sees it under a retrieval configuration: the configuration's
tools before the domain's own (τ³'s order), and the policy assembled for it."""

from __future__ import annotations

import dataclasses

from tautrait_core.domain.domain import Domain
from tautrait_core.errors import ConfigError
from tautrait_core.retrieval.base import Retrieval
from tautrait_core.types.task import Task


def with_retrieval(domain: Domain, retrieval: Retrieval, task: Task) -> Domain:
    """``domain`` with ``retrieval``'s tools first and its policy for ``task``.

    Raises:
        ConfigError: a retrieval tool has the name of one of the domain's tools.
    """
    tools = [*retrieval.tools(), *domain.tools]
    own = {tool.name for tool in domain.tools}
    clashes = sorted(
        tool.name for tool in tools[: len(tools) - len(domain.tools)] if tool.name in own
    )
    if clashes:
        raise ConfigError(
            f"retrieval {retrieval.name!r} adds tools that domain {domain.name!r} has already: "
            f"{', '.join(clashes)}; choose another --retrieval"
        )
    policy = retrieval.policy(domain.policy, task)
    return dataclasses.replace(domain, tools=tools, policy=policy)

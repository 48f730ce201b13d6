"""What every registered strategy shares: agents, user simulators and trait backends.

A strategy class is registered through a hook, named on the command line, listed by
``tautrait plugins``, checked against the run's configuration before anything runs and
constructed once per episode with that episode's context.
"""

from __future__ import annotations

from typing import ClassVar

from tautrait_core.config.run_config import RunConfig
from tautrait_core.episode.context import EpisodeContext


class Strategy:
    """Base class of registered strategies (:class:`~tautrait_core.episode.agent.Agent`,
    :class:`~tautrait_core.episode.user.UserSimulator`,
    :class:`~tautrait_core.episode.trait_backend.TraitBackend`).

    Attributes:
        name: The strategy's name on the command line (``--agent NAME``, ``--user NAME``,
            ``--trait-backend NAME``).
        description: One line for ``tautrait plugins``.
    """

    name: ClassVar[str]
    description: ClassVar[str] = ""

    def __init__(self, context: EpisodeContext) -> None:
        self.context = context

    @classmethod
    def check_config(cls, config: RunConfig) -> None:
        """Raise :class:`~tautrait_core.errors.ConfigError` if the run cannot work with this
        strategy (called before anything runs, e.g. a missing file). The default accepts
        everything."""
        return None

"""A run's retrieval configuration: chosen and checked when the run is prepared."""

from __future__ import annotations

from tautrait_core.config.run_config import RunConfig
from tautrait_core.domain.domain import Domain
from tautrait_core.errors import ConfigError
from tautrait_core.plugins import get_plugin_manager
from tautrait_core.retrieval.base import Retrieval


def choose_retrieval(config: RunConfig, domain: Domain) -> tuple[RunConfig, type[Retrieval] | None]:
    """The run's configuration with its retrieval named (the domain's default when none was
    given, so the run stores what it used), and the registered configuration, checked
    (``None`` for a domain without documents). Nothing is built yet.

    Raises:
        ConfigError: ``--retrieval`` for a domain without documents, or a configuration
            that cannot run here (``Retrieval.check``).
        UnknownNameError: no plugin registers the name (the error lists those that do).
    """
    settings = config.retrieval
    documents = domain.documents
    if documents is None:
        if settings.name is not None:
            raise ConfigError(
                f"--retrieval {settings.name}: domain {domain.name!r} has no documents to "
                "search; leave out --retrieval (it is for domains with a knowledge base, "
                "such as banking)"
            )
        return config, None
    if settings.name is None:
        config = config.with_settings(retrieval=documents.default_retrieval)
        settings = config.retrieval
    configuration = get_plugin_manager().get("retrieval", settings.name)
    configuration.check(settings)
    return config, configuration

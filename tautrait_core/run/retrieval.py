"""A run's retrieval configuration: chosen, checked and built when the run is prepared."""

from __future__ import annotations

from tautrait_core.config.run_config import RunConfig
from tautrait_core.domain.domain import Domain
from tautrait_core.errors import ConfigError
from tautrait_core.plugins import get_plugin_manager
from tautrait_core.retrieval.base import Retrieval
from tautrait_core.retrieval.shared import retrieval_instance


def prepare_retrieval(config: RunConfig, domain: Domain) -> tuple[RunConfig, Retrieval | None]:
    """The run's configuration with its retrieval named (the domain's default when none was
    given, so the run stores what it used), and the retrieval serving the domain's
    documents (``None`` for a domain without documents).

    Raises:
        ConfigError: ``--retrieval`` for a domain without documents, or a configuration
            that cannot run here.
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
    return config, retrieval_instance(configuration, documents, settings)

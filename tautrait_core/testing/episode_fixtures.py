"""The fixtures a domain plugin's tool tests share, made from the plugin's ``build_domain``.

A plugin's ``conftest.py`` binds them under their names, so tests ask for ``domain``,
``template``, ``new_episode`` or ``db``::

    from tautrait_clinic.domain import build_domain
    from tautrait_core.testing import episode_fixtures

    domain, template, new_episode, db = episode_fixtures(build_domain)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import pytest

from tautrait_core.domain.domain import Domain
from tautrait_core.domain.state import EpisodeDB, StateTemplate


class EpisodeFixtures(NamedTuple):
    """pytest fixtures: ``domain`` and ``template`` (per session), ``new_episode`` and ``db``."""

    domain: Any
    template: Any
    new_episode: Any
    db: Any


def episode_fixtures(
    build_domain: Callable[[], Domain], today: dt.date | None = None
) -> EpisodeFixtures:
    """Fixtures on the domain ``build_domain`` returns and its built-in database.

    ``domain``: the domain; ``template``: its built-in database; ``new_episode``: a factory
    of fresh episodes on it (closed after the test); ``db``: one fresh episode. ``today``
    pins the episodes' date (the current date when ``None``).
    """

    @pytest.fixture(name="domain", scope="session")
    def domain() -> Domain:
        """The domain, built once per session."""
        return build_domain()

    @pytest.fixture(name="template", scope="session")
    def template(domain: Domain) -> StateTemplate:
        """The built-in database."""
        return StateTemplate(f"{domain.name}-tests", domain.tables, domain.seed_data())

    @pytest.fixture(name="new_episode")
    def new_episode(template: StateTemplate) -> Iterator[Callable[[], EpisodeDB]]:
        """Factory of fresh episodes on the built-in data (closed after the test)."""
        opened: list[EpisodeDB] = []

        def make() -> EpisodeDB:
            opened.append(template.new_episode(today))
            return opened[-1]

        yield make
        for episode in opened:
            episode.close()

    @pytest.fixture(name="db")
    def db(new_episode: Callable[[], EpisodeDB]) -> EpisodeDB:
        """A fresh episode on the built-in data."""
        return new_episode()

    return EpisodeFixtures(domain, template, new_episode, db)

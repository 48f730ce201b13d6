"""Shared fixtures of the retail plugin tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from tautrait_retail.domain import build_domain, seed_rows

from tautrait_core import Domain, EpisodeDB, StateTemplate


@pytest.fixture(scope="session")
def domain() -> Domain:
    return build_domain()


@pytest.fixture(scope="session")
def template(domain: Domain) -> StateTemplate:
    """The built-in database."""
    return StateTemplate("retail-tests", domain.tables, seed_rows())


@pytest.fixture
def new_episode(template: StateTemplate) -> Iterator[Callable[[], EpisodeDB]]:
    """Factory of fresh episodes on the built-in data (closed after the test)."""
    opened: list[EpisodeDB] = []

    def make() -> EpisodeDB:
        opened.append(template.new_episode())
        return opened[-1]

    yield make
    for episode in opened:
        episode.close()


@pytest.fixture
def db(new_episode: Callable[[], EpisodeDB]) -> EpisodeDB:
    """A fresh episode on the built-in data."""
    return new_episode()

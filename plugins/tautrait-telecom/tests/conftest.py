"""Shared fixtures of the telecom plugin tests: the domain, its built-in database, episodes."""

from __future__ import annotations

from tautrait_telecom.domain import build_domain

from tautrait_core.testing import episode_fixtures

domain, template, new_episode, db = episode_fixtures(build_domain)

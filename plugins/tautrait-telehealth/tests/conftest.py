"""Shared fixtures of the telehealth plugin tests: the domain, its built-in database, episodes."""

from __future__ import annotations

import datetime as dt

from tautrait_telehealth.domain import build_domain

from tautrait_core.testing import episode_fixtures

EPISODE_DAY = dt.date(2026, 11, 22)
"""The date pinned for episodes on the built-in data, so date stamps are predictable."""

domain, template, new_episode, db = episode_fixtures(build_domain, today=EPISODE_DAY)

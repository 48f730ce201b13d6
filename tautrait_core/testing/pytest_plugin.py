"""pytest fixtures for plugin authors (registered through the ``pytest11`` entry point).

Installed with ``tautrait-core``; available in any test suite without imports:

* ``tautrait_home``: a private ``TAUTRAIT_HOME`` (results database, imports, keys) for the test.
* ``scripted_model_server``: a started :class:`ScriptedModelServer` on loopback; set its
  ``responder`` and point ``--agent-api-base`` / ``--user-api-base`` at ``base_url``.
* ``results_store``: a :class:`ResultStore` in a temporary file.
* ``reference_material``: the τ-Trait reference material folder (``tau-trait/``,
  ``tau2-bench/``) from ``$TAUTRAIT_REFERENCE`` or ``shared/peers`` beside the checkout;
  the test is skipped, saying how to provide it, when it is absent.
* ``tau2_reference``, ``tau2_imported``: the τ²-bench part of it, and a factory that imports
  some of its domains (``tau2_imported("mock")``) into the test's tautrait home.
* ``domain_episode``: a factory of :class:`DomainEpisode` objects, a fresh database of a
  domain with one task loaded, to call tools and score the result::

      def test_cancel(domain_episode):
          episode = domain_episode("clinic", task_id=0)
          assert "cancelled" in episode.call("cancel_appointment", appointment_id="A1")
          assert episode.gold_reward() == 1.0
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tautrait_core.scripted.server import ScriptedModelServer
from tautrait_core.testing.reference import missing_reference_material, reference_material_dir


class DomainEpisode:
    """A domain's fresh episode database with a task, outside any conversation."""

    def __init__(self, domain: Any, task_set: Any, task_id: int) -> None:
        from tautrait_core.domain.task_sets import template_for

        self.domain = domain
        self.task = task_set.tasks[task_id]
        self.template = template_for(domain, task_set)
        self.db = self.template.new_episode()

    def call(self, tool_name: str, **arguments: Any) -> str:
        """Run a tool as an agent's call would and return the observation."""
        return self.domain.run_tool(self.db, tool_name, arguments)

    def replay_gold(self) -> list[str]:
        """Run the task's gold actions; one observation per action."""
        from tautrait_core.grading.reward import replay_actions

        return replay_actions(self.domain, self.db, self.task.actions)

    def reward(self, replies: list[str] | None = None) -> float:
        """The reward of the database as it is now, with these agent replies."""
        from tautrait_core.grading.reward import compute_reward

        return compute_reward(self.domain, self.task, self.db, replies or []).reward

    def gold_reward(self) -> float:
        """Replay the gold actions, tell the user the outputs, and score: 1.0 for a sound task."""
        self.replay_gold()
        return self.reward(["; ".join(self.task.outputs)])

    def close(self) -> None:
        self.db.close()


@pytest.fixture
def tautrait_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private tautrait data directory for the test (``$TAUTRAIT_HOME``)."""
    home = tmp_path / "tautrait-home"
    monkeypatch.setenv("TAUTRAIT_HOME", str(home))
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    return home


@pytest.fixture
def scripted_model_server() -> Iterator[ScriptedModelServer]:
    """An OpenAI-compatible scripted server on loopback, stopped after the test."""
    with ScriptedModelServer() as server:
        yield server


@pytest.fixture
def results_store(tmp_path: Path) -> Any:
    """A results database in a temporary file."""
    from tautrait_core.store.results import ResultStore

    return ResultStore(tmp_path / "results.db")


@pytest.fixture
def reference_material(request: pytest.FixtureRequest) -> Path:
    """The reference material folder for this test (skipped, saying why, when absent)."""
    folder = reference_material_dir(request.path)
    if not folder.is_dir():
        pytest.skip(missing_reference_material(folder))
    return folder


@pytest.fixture
def domain_episode(tautrait_home: Path) -> Iterator[Callable[..., DomainEpisode]]:
    """Factory: ``domain_episode(domain, task_set=None, task_id=0)``; ``domain`` is a name of an
    installed domain or a :class:`~tautrait_core.domain.domain.Domain` object."""
    from tautrait_core.domain.task_sets import resolve_task_set
    from tautrait_core.plugins import lookup

    opened: list[DomainEpisode] = []

    def make(domain: Any, task_set: str | None = None, task_id: int = 0) -> DomainEpisode:
        found = lookup("domain", domain) if isinstance(domain, str) else domain
        episode = DomainEpisode(found, resolve_task_set(found, task_set), task_id)
        opened.append(episode)
        return episode

    yield make
    for episode in opened:
        episode.close()


@pytest.fixture
def tau2_reference(reference_material: Path) -> Path:
    """The τ²-bench reference material (``tau2-bench/``; skipped, saying why, when absent)."""
    folder = reference_material / "tau2-bench"
    if not folder.is_dir():
        pytest.skip(f"τ²-bench reference material not found at {folder}")
    return folder


@pytest.fixture
def tau2_imported(tau2_reference: Path, tautrait_home: Path, tmp_path: Path) -> Callable[..., Path]:
    """Factory: ``tau2_imported("mock", "retail")`` builds a τ²-bench checkout of those
    domains from the reference material and imports it into the test's tautrait home;
    returns the checkout."""
    from tautrait_core.interchange.tau2_import import import_tau2
    from tautrait_core.testing.tau2_reference import build_tau2_checkout

    def make(*domains: str) -> Path:
        checkout = build_tau2_checkout(tau2_reference, tmp_path / "tau2-bench", list(domains))
        import_tau2(checkout)
        return checkout

    return make

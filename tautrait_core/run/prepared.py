"""Preparing a run: a configuration resolved against the installed plugins and checked
before anything runs (models and keys, task selection, the executor), and running one
(task, trial) episode of it.
"""

from __future__ import annotations

import datetime as dt
import random
import traceback
from dataclasses import dataclass, field
from typing import Any

from tautrait_core.config.run_config import RunConfig
from tautrait_core.domain.domain import Domain, TaskSet
from tautrait_core.domain.state import StateTemplate
from tautrait_core.domain.task_sets import resolve_task_set
from tautrait_core.episode.context import EpisodeContext
from tautrait_core.episode.loop import run_episode
from tautrait_core.errors import ConfigError, StorageError
from tautrait_core.llm.keys import require_keys
from tautrait_core.plugins import get_plugin_manager
from tautrait_core.retrieval.base import Retrieval
from tautrait_core.retrieval.episode_domain import with_retrieval
from tautrait_core.retrieval.shared import retrieval_instance
from tautrait_core.run.plugin_options import checked_plugin_options, plugin_option_values
from tautrait_core.run.retrieval import choose_retrieval
from tautrait_core.types.result import EpisodeResult

RAY_INSTALL_HINT = "install the extra with: pip install 'tautrait-core[ray]'"


@dataclass
class PreparedRun:
    """A configuration resolved against the installed plugins, ready to run."""

    config: RunConfig
    domain: Domain
    task_set: TaskSet
    task_ids: list[int]
    agent_class: type
    user_class: type
    trait_backend_class: type
    warnings: list[str] = field(default_factory=list)
    """Problems that do not stop the run (shown with its results)."""
    plugin_options: dict[str, Any] = field(default_factory=dict)
    """Every declared run option's value in this run (as given, else its default)."""
    retrieval: Retrieval | None = None
    """How the agent searches the domain's documents (``None``: the domain has none)."""
    _episode_domains: dict[int | None, Domain] = field(default_factory=dict, repr=False)

    def episode_domain(self, task_id: int) -> Domain:
        """The domain as an episode of task ``task_id`` sees it: with the retrieval's tools
        first and the policy assembled for it (per task under ``golden_retrieval``)."""
        if self.retrieval is None:
            return self.domain
        key = task_id if self.retrieval.policy_per_task else None
        if key not in self._episode_domains:
            task = self.task_set.tasks[task_id]
            self._episode_domains[key] = with_retrieval(self.domain, self.retrieval, task)
        return self._episode_domains[key]


def prepare(config: RunConfig) -> PreparedRun:
    """Resolve names, load the task set and check the configuration before anything runs."""
    manager = get_plugin_manager()
    if config.domain is None and (config.task_set or "").startswith("tau2:"):
        # an imported τ² task set names its domain: tau2:retail/test runs on tau2-retail
        tau2_domain = config.task_set.removeprefix("tau2:").split("/")[0].split("-")[0]  # type: ignore[union-attr]
        config = config.with_settings(domain=f"tau2-{tau2_domain}")
    if config.domain is None:
        raise ConfigError("missing --domain: a run needs a domain (tautrait plugins lists them)")
    config = checked_plugin_options(config)
    domain = manager.get(
        "domain", config.domain, "Install a domain plugin, e.g. pip install tautrait-telehealth"
    )
    config, retrieval_class = choose_retrieval(config, domain)
    agent, user = config.agent, config.user
    agent_class = manager.get("agent", agent.strategy)
    if getattr(agent_class, "solo_only", False) and not config.solo:
        raise ConfigError(f"agent {agent.strategy!r} works without a customer: add --solo")
    if user.strategy is None:
        plays_user = agent_class.needs_model and not config.solo
        default = getattr(agent_class, "default_user", None)
        config = config.with_settings(user=default or ("llm" if plays_user else "scripted"))
        user = config.user
    user_class = manager.get("user", user.strategy)
    backend_class = manager.get("trait_backend", user.trait_backend)
    if agent_class.needs_model and not agent.model:
        raise ConfigError(
            f"agent {agent.strategy!r} calls a model: pass --agent-model (e.g. gpt-4o), "
            "or use --agent oracle for an offline dry run"
        )
    uses_user_model = calls_user_model(config, user_class, backend_class)
    if uses_user_model and not user.model:
        raise ConfigError(
            f"user simulator {user.strategy!r} calls a model: pass --user-model, "
            "or use --user scripted for an offline dry run"
        )
    warnings = []
    if config.solo:
        check_solo(config, domain, agent_class)
        if user.strategy != "scripted":
            warnings.append(
                f"solo mode has no customer: user simulator {user.strategy!r} is not used"
            )
    elif user.traits.traits and not user_class.needs_model:
        warnings.append(
            f"user simulator {user.strategy!r} calls no model and ignores traits: this run is "
            f"stored with traits {user.traits.label()} but its user showed none. Leave "
            "--traits out, or use a model-driven user (--user llm --user-model ...)"
        )
    for part in (agent_class, user_class, backend_class):
        check = getattr(part, "check_config", None)
        if check is not None:
            check(config)
    if agent_class.needs_model:
        require_keys(agent.model, agent.provider, agent.api_base, "agent")
    if uses_user_model:
        require_keys(user.model, user.provider, user.api_base, "user")
    # a run records only the models it calls (the user model has a default)
    if not agent_class.needs_model and agent.model is not None:
        config = config.with_settings(agent_model=None)
    if not uses_user_model and user.model is not None:
        config = config.with_settings(user_model=None)
    if config.judge.model is not None:
        require_keys(config.judge.model, None, config.judge.api_base, "judge")
    check_executor(config)
    if config.transport.cache:  # a damaged cache fails the run here, not each episode
        from tautrait_core.llm.cache import open_cache
        from tautrait_core.paths import response_cache_path

        open_cache(response_cache_path())
    task_set = resolve_task_set(domain, config.task_set)
    tau2 = task_set.protocol == "tau2" or domain.dual_control or config.solo
    if config.limits.enforce_communication_protocol and not tau2:
        raise ConfigError(
            f"--enforce-communication-protocol is a rule of the τ² protocol; task set "
            f"{task_set.name!r} of domain {domain.name!r} runs τ-bench's, which runs the "
            "first tool call of a message: leave the flag out"
        )
    if config.limits.max_steps is None:  # the run stores the limit its protocol gave
        config = config.with_settings(max_steps=config.limits.step_limit(tau2))
    total = len(task_set.tasks)
    if config.task_ids:
        bad = [i for i in config.task_ids if not 0 <= i < total]
        if bad:
            raise ConfigError(
                f"task ids {bad} are out of range: task set {task_set.name!r} of domain "
                f"{domain.name!r} has tasks 0..{total - 1}"
            )
        task_ids = list(dict.fromkeys(config.task_ids))
    else:
        end = total if config.end == -1 else min(config.end, total)
        if config.start >= end:
            raise ConfigError(
                f"no tasks selected: --start {config.start} --end {config.end} on a task set "
                f"of {total} tasks"
            )
        task_ids = list(range(config.start, end))
    retrieval = None
    if retrieval_class is not None and domain.documents is not None:  # built once checked
        retrieval = retrieval_instance(retrieval_class, domain.documents, config.retrieval)
        warnings += retrieval.warnings({i: task_set.tasks[i] for i in task_ids})
    prepared = PreparedRun(
        config,
        domain,
        task_set,
        task_ids,
        agent_class,
        user_class,
        backend_class,
        warnings,
        plugin_option_values(config),
        retrieval,
    )
    prepared.episode_domain(task_ids[0])  # a clash of tool names fails here, not in an episode
    return prepared


def calls_user_model(config: RunConfig, user_class: type, backend_class: type) -> bool:
    """Whether a run calls ``--user-model``: a model-driven user with a customer to play,
    through a backend that calls it (``prompt``, not ``steer``) or a reviewer of its own."""
    return (
        getattr(user_class, "needs_model", True)
        and not config.solo
        and (
            getattr(backend_class, "uses_user_model", True)
            or getattr(user_class, "calls_user_model", False)
        )
    )


def check_solo(config: RunConfig, domain: Domain, agent_class: type) -> None:
    """Refuse ``--solo`` where it cannot work: a domain without a solo policy, or an agent
    that cannot work alone."""
    if domain.solo_policy is None:
        raise ConfigError(
            f"domain {domain.name!r} does not support solo mode (it has no solo policy); "
            "leave out --solo"
        )
    if not getattr(agent_class, "works_solo", False):
        raise ConfigError(
            f"agent {config.agent.strategy!r} cannot work without a customer: use --agent solo "
            "(a model) or --agent oracle with --solo, or leave out --solo"
        )


def episode_seed(seed: int, task_id: int, trial: int) -> int:
    """A per-episode seed derived from the run seed."""
    return random.Random(f"{seed}:{task_id}:{trial}").getrandbits(31)


def episode_context(prepared: PreparedRun, task_id: int, trial: int) -> EpisodeContext:
    """The fixed inputs of one (task, trial) episode of a prepared run."""
    config = prepared.config
    return EpisodeContext.of_run(
        config,
        prepared.episode_domain(task_id),
        prepared.task_set.tasks[task_id],
        task_id,
        trial,
        seed=episode_seed(config.seed, task_id, trial),
        protocol=prepared.task_set.protocol,
        rules=prepared.task_set.rules,
        plugin_options=prepared.plugin_options,
    )


async def run_prepared_episode(
    prepared: PreparedRun, template: StateTemplate, task_id: int, trial: int
) -> EpisodeResult:
    """Run one (task, trial) episode in this process; a crash outside it becomes an error.

    Raises:
        StorageError: a file could not be read or written (the run stops).
    """
    context = episode_context(prepared, task_id, trial)
    try:
        agent = prepared.agent_class(context)
        user = prepared.user_class(context, prepared.trait_backend_class(context))
        return await run_episode(context, template, agent, user, dt.date.today())
    except StorageError:
        raise
    except Exception as exc:  # a bug outside the conversation: keep the run going
        return EpisodeResult.not_run(
            task_id, trial, f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=5)}"
        )


def import_ray() -> Any:
    """The ``ray`` module, or a :class:`ConfigError` saying how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise ConfigError(
            f"--executor ray needs Ray, which is not installed: {RAY_INSTALL_HINT}"
        ) from exc
    return ray


def check_executor(config: RunConfig) -> None:
    """Fail before a run starts when its executor cannot be used (Ray not installed)."""
    if config.executor.kind == "ray":
        import_ray()

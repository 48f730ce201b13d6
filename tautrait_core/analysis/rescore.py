"""Re-grading recorded episodes against the current tasks and tools, without any model.

Each episode's trajectory is replayed through a fresh database of the current domain: the
first tool call of every assistant message runs with its recorded arguments, by the rules
an episode follows (malformed arguments and unknown tools give an ``Error: ...``
observation, a terminating tool ends the replay), and every assistant message without a
tool call counts as a reply to the user. The reward is then recomputed with the current
task (:func:`tautrait_core.grading.reward.compute_reward`). As in an episode, a replay that did not
end with the user's stop or a terminating tool scores 0.

Recorded episodes come from a stored run or an upstream result-list file
(:mod:`tautrait_core.analysis.recorded_episodes`); :func:`rescore` picks the source, the domain and
the task set.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel, Field

from tautrait_core.analysis.recorded_episodes import RecordedEpisode, RecordedVerdict, load_source
from tautrait_core.analysis.tau2_recorded import load_tau2_file
from tautrait_core.analysis.trajectory_replay import Replay, replay_trajectory
from tautrait_core.domain.domain import Domain, TaskSet
from tautrait_core.domain.state import StateTemplate
from tautrait_core.domain.task_sets import resolve_task_set, template_for
from tautrait_core.grading.criteria_checks import failing_components
from tautrait_core.grading.criteria_reward import NLJudge, grade_criteria
from tautrait_core.grading.metrics import PassHatK, is_success, pass_hat_k
from tautrait_core.interchange.tau2_results import is_tau2_results_file
from tautrait_core.plugins import lookup
from tautrait_core.types.result import Outcome, Termination
from tautrait_core.types.reward import RewardInfo
from tautrait_core.types.task import Task

TASK_FIELDS = ("user_id", "instruction", "actions", "outputs")
"""The task fields compared when a recorded episode carries its task."""


class CauseKind(StrEnum):
    """Why a recomputed reward differs from the recorded one."""

    STATE_DIFFERS = "state_differs"
    """The replayed database differs from the gold one (which records: ``details``)."""
    OUTPUT_MISSING = "output_missing"
    """Required outputs that no reply contains (``details``)."""
    NOT_FINISHED = "not_finished"
    """The replay ended neither with the user's stop nor with a terminating tool."""
    STATE_NOW_MATCHES = "state_now_matches"
    """The database now equals the gold one; ``details``: the records that differed."""
    OUTPUTS_NOW_FOUND = "outputs_now_found"
    """Outputs missing before are now found (``details``)."""
    NOW_PASSES = "now_passes"
    """The episode passes now; the record does not say why it failed before."""
    COMPONENT_FAILS = "component_fails"
    """τ²-style grading: the reward components that are 0 (``details``)."""


class Cause(BaseModel):
    """One reason for a changed reward."""

    kind: CauseKind
    details: list[str] = Field(default_factory=list)

    def describe(self) -> str:
        """A short human-readable sentence."""
        label = self.kind.value.replace("_", " ")
        if not self.details:
            return label
        if self.kind is CauseKind.STATE_NOW_MATCHES:
            return f"{label} (differed in {', '.join(self.details)})"
        return f"{label}: {', '.join(self.details)}"


class EpisodeRescore(BaseModel):
    """One episode's recorded reward and its recomputed reward."""

    task_id: int
    trial: int
    old_reward: float
    new_reward: float | None = None
    """``None`` when the episode could not be rescored (see ``skipped``)."""
    agrees: bool | None = None
    """Whether old and new reward are both successes or both failures."""
    causes: list[Cause] = Field(default_factory=list)
    """Why the rewards disagree (empty when they agree)."""
    task_changes: list[str] | None = None
    """What differs between the recorded task and the current one: fields of the task
    (upstream files embed it) or ``gold_state`` / ``outputs`` (runs record the gold hash and
    the outputs checked). ``None`` when nothing was recorded to compare with."""
    skipped: str | None = None
    """Why the episode was not rescored (task out of range, infrastructure error, a
    τ²-style task that is not scoreable without a judge)."""
    notes: list[str] = Field(default_factory=list)
    termination: Termination | None = None
    """How the replay ended (``None`` also when the tool that ended the recorded episode
    no longer ends one)."""
    reward_info: RewardInfo | None = None
    """The recomputed reward in detail."""


class RescoreSummary(BaseModel):
    """Counts over a rescore and pass^k before and after (over the rescored episodes)."""

    episodes: int
    rescored: int
    skipped: int
    agreements: int
    disagreements: int
    causes: dict[str, int]
    """Disagreements by cause kind (an episode may have several causes)."""
    tasks_changed: int
    """Rescored episodes whose recorded task differs from the current one."""
    pass_hat_k_before: list[PassHatK]
    pass_hat_k_after: list[PassHatK]


class RescoreReport(BaseModel):
    """What :func:`rescore` returns."""

    source: str
    """The run id or the file rescored."""
    domain: str
    task_set: str
    episodes: list[EpisodeRescore]
    summary: RescoreSummary


def rescore_episode(
    domain: Domain,
    task_set: TaskSet,
    template: StateTemplate,
    recorded: RecordedEpisode,
    today: dt.date,
    judge: NLJudge | None = None,
    reward_basis: Sequence[str] | None = None,
) -> EpisodeRescore:
    """Rescore one recorded episode against the current task of ``task_set`` (``judge``
    grades the NL assertions of τ²-style tasks; ``reward_basis`` replaces each task's own
    basis, its official reward kept beside)."""
    result = recorded.result
    record = EpisodeRescore(task_id=result.task_id, trial=result.trial, old_reward=result.reward)
    tasks = task_set.tasks
    if result.outcome is Outcome.ERROR:
        record.skipped = f"infrastructure error, not scored ({result.error or 'no detail'})"
        return record
    if not 0 <= result.task_id < len(tasks):
        record.skipped = (
            f"task {result.task_id} is out of range: task set {task_set.name!r} has tasks "
            f"0..{len(tasks) - 1}"
        )
        return record
    task = tasks[result.task_id]
    if task.evaluation_criteria is not None:
        info = grade_criteria(
            domain,
            task,
            template,
            result.messages,
            result.termination,
            today,
            judge,
            task_set.rules,
            reward_basis,
        )
        replay, termination, unfinished = None, result.termination, None
    else:
        replay = replay_trajectory(domain, template, task, result.messages, today)
        termination, unfinished = _ending(replay, result.termination)
        info = replay.reward_info
    if unfinished is not None:
        info = info.model_copy(update={"reward": 0.0})
    record.reward_info = info
    if info.not_scoreable is not None:  # no verdict: never a silent 0
        record.skipped = f"not scoreable: {info.not_scoreable}"
        return record
    verdict = recorded.verdict or RecordedVerdict.from_reward_info(result.reward_info)
    record.new_reward = info.reward
    record.termination = termination
    record.agrees = is_success(result.reward) == is_success(info.reward)
    record.task_changes = _task_changes(recorded.task, verdict, task, info)
    if replay is not None and replay.ignored_messages:
        record.notes.append(
            f"the replay ended at terminating tool {replay.ending_tool}; "
            f"{replay.ignored_messages} later agent messages were not replayed"
        )
    if not record.agrees:
        record.causes = (
            _new_failures(info, unfinished) if is_success(result.reward) else _old_failures(verdict)
        )
    return record


def rescore_episodes(
    domain: Domain,
    task_set: TaskSet,
    episodes: Sequence[RecordedEpisode],
    today: dt.date | None = None,
    *,
    default_today: dt.date | None = None,
    judge: NLJudge | None = None,
    reward_basis: Sequence[str] | None = None,
) -> list[EpisodeRescore]:
    """Rescore ``episodes`` against ``task_set`` of ``domain``.

    Each replay runs on ``today`` if given, else on the date its episode recorded, else on
    ``default_today`` (the local date when that is not given either).
    """
    template = template_for(domain, task_set)
    fallback = default_today or dt.date.today()
    return [
        rescore_episode(
            domain,
            task_set,
            template,
            e,
            today or e.result.env_date or fallback,
            judge,
            reward_basis,
        )
        for e in episodes
    ]


def summarize_rescores(rescores: Sequence[EpisodeRescore]) -> RescoreSummary:
    """Agreement counts, causes and pass^k before and after over the rescored episodes."""
    scored = [r for r in rescores if r.new_reward is not None]
    disagreeing = [r for r in scored if not r.agrees]
    causes = Counter(cause.kind.value for r in disagreeing for cause in r.causes)
    return RescoreSummary(
        episodes=len(rescores),
        rescored=len(scored),
        skipped=len(rescores) - len(scored),
        agreements=len(scored) - len(disagreeing),
        disagreements=len(disagreeing),
        causes=dict(sorted(causes.items())),
        tasks_changed=sum(1 for r in scored if r.task_changes),
        pass_hat_k_before=_pass_hat_ks([(r.task_id, r.old_reward) for r in scored]),
        pass_hat_k_after=_pass_hat_ks([(r.task_id, r.new_reward or 0.0) for r in scored]),
    )


def rescore(
    source: str | Path,
    *,
    domain: str | None = None,
    task_set: str | None = None,
    results_db: str | Path | None = None,
    today: dt.date | None = None,
    judge: NLJudge | None = None,
    reward_basis: Sequence[str] | None = None,
    fresh_tasks: bool = False,
) -> RescoreReport:
    """Rescore a stored run (by id, ``latest`` or a unique prefix) or an upstream result file.

    Args:
        source: A path to an upstream result-list JSON file, or a run id in the results
            database.
        domain: The domain to replay in. Default: the run's domain, or for a file a domain
            named in its file name (``impatience_retail.json``).
        task_set: The task set whose current tasks score the episodes. Default: the run's
            task set (unless ``domain`` overrides the run's), else the domain's default set.
        results_db: The results database holding the run (default: the usual one).
        today: The date every replay runs on. Default: the date each episode recorded,
            else (older runs) the local date the run was created, or today for a file.
        judge: Grades the NL assertions of τ²-style tasks (without one, a task whose basis
            holds them is not scoreable).
        reward_basis: Grade τ²-style tasks on this basis instead of their own (each
            episode's ``reward_info.official_reward`` keeps the reward on theirs).
        fresh_tasks: For a τ²/τ³ results file: grade with the task set's current task
            definitions (and report what changed) instead of the tasks the file embeds,
            as ``tau2 evaluate-trajs --fresh-tasks`` does. Runs always use the current ones.

    Raises:
        RunNotFoundError, UnknownNameError, ConfigError, TaskSetError: the source, domain or
            task set cannot be found or read.
    """
    tau2_file = is_tau2_results_file(source)
    if tau2_file:
        loaded = load_tau2_file(Path(source), domain, task_set)
    else:
        loaded = load_source(source, domain=domain, task_set=task_set, results_db=results_db)
    found = lookup("domain", loaded.domain)
    selected = resolve_task_set(found, loaded.task_set)
    if tau2_file and not fresh_tasks:
        selected = _with_recorded_tasks(selected, loaded.episodes)
    rescores = rescore_episodes(
        found,
        selected,
        loaded.episodes,
        today,
        default_today=loaded.today,
        judge=judge,
        reward_basis=reward_basis,
    )
    return RescoreReport(
        source=loaded.label,
        domain=found.name,
        task_set=selected.name,
        episodes=rescores,
        summary=summarize_rescores(rescores),
    )


def _with_recorded_tasks(task_set: TaskSet, episodes: Sequence[RecordedEpisode]) -> TaskSet:
    """``task_set`` with each task the episodes recorded (a results file's own) in place
    of the current one of the same id."""
    recorded = {e.task.id: e.task for e in episodes if e.task is not None and e.task.id}
    current = task_set.tasks
    return dataclasses.replace(
        task_set, load_tasks=lambda: [recorded.get(task.id or "", task) for task in current]
    )


def _task_changes(
    recorded_task: Task | None, verdict: RecordedVerdict | None, task: Task, info: RewardInfo
) -> list[str] | None:
    if recorded_task is not None:
        return [name for name in TASK_FIELDS if getattr(recorded_task, name) != getattr(task, name)]
    if verdict is None or verdict.gold_hash is None:
        return None
    changes = []
    if verdict.gold_hash != info.gt_data_hash:
        changes.append("gold_state")
    if verdict.outputs is not None and sorted(verdict.outputs) != sorted(task.outputs):
        changes.append("outputs")
    return changes


def _ending(replay: Replay, recorded: Termination) -> tuple[Termination | None, str | None]:
    """How the replay ended, and why that does not count as finished (``None``: it does)."""
    if replay.ending_tool is not None:
        return Termination.TERMINATING_TOOL, None
    if recorded is Termination.USER_STOP:
        return recorded, None
    if recorded is Termination.TERMINATING_TOOL:
        return None, "the tool that ended the recorded episode no longer ends an episode"
    return recorded, f"the recorded episode ended by {recorded.value}"


def _new_failures(info: RewardInfo, unfinished: str | None) -> list[Cause]:
    causes = []
    if unfinished is not None:
        causes.append(Cause(kind=CauseKind.NOT_FINISHED, details=[unfinished]))
    if info.reward_basis is not None:
        return [Cause(kind=CauseKind.COMPONENT_FAILS, details=failing_components(info))]
    if not info.r_actions:
        causes.append(Cause(kind=CauseKind.STATE_DIFFERS, details=info.state_diff))
    missing = [output for output, found in info.outputs.items() if not found]
    if missing:
        causes.append(Cause(kind=CauseKind.OUTPUT_MISSING, details=missing))
    return causes


def _old_failures(verdict: RecordedVerdict | None) -> list[Cause]:
    causes = []
    if verdict is not None and verdict.state_ok is False:
        causes.append(Cause(kind=CauseKind.STATE_NOW_MATCHES, details=verdict.state_diff))
    if verdict is not None and verdict.missing_outputs:
        causes.append(Cause(kind=CauseKind.OUTPUTS_NOW_FOUND, details=verdict.missing_outputs))
    return causes or [Cause(kind=CauseKind.NOW_PASSES)]


def _pass_hat_ks(rewards: Sequence[tuple[int, float]]) -> list[PassHatK]:
    counts: dict[int, tuple[int, int]] = {}
    for task_id, reward in rewards:
        successes, trials = counts.get(task_id, (0, 0))
        counts[task_id] = (successes + is_success(reward), trials + 1)
    top_k = max((n for _, n in counts.values()), default=0)
    return [pass_hat_k(counts, k) for k in range(1, top_k + 1)]

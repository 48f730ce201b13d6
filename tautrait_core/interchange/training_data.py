"""Training data from stored runs: chat-format SFT lines and preference pairs (JSONL).

Both follow the OpenAI chat fine-tuning shape, one JSON object per line:

* ``sft``: ``{"messages": [...], "tools": [...], "parallel_tool_calls": false}``, the whole
  conversation of one episode: the system policy, user turns, assistant turns (text, or
  ``tool_calls`` with ``type: function`` and the arguments as a JSON string) and ``tool``
  results with their ``tool_call_id``;
* ``preference``: ``{"input": {"messages": [...], "tools": [...]}, "preferred_output":
  [...], "non_preferred_output": [...]}``, a passing and a failing episode of the same task
  and trait mix: ``input`` is the messages both share from the start, each output the rest
  of one episode.

Episodes that ended in an ``error`` (infrastructure failures) are never exported.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Literal

from tautrait_core.types.messages import Message
from tautrait_core.types.result import EpisodeResult, Outcome

if TYPE_CHECKING:
    from tautrait_core.store.results import ResultStore

OutcomeFilter = Literal["pass", "fail", "all"]


@dataclass(frozen=True)
class RunEpisode:
    """One stored episode with what its export needs from its run.

    Attributes:
        result: The episode.
        group: What makes episodes comparable: domain, task set, task id and trait mix.
        policy: The domain's policy (the system message when a transcript lacks one).
        tools: The domain's tool schemas (OpenAI form).
    """

    result: EpisodeResult
    group: tuple[str, str, int, str]
    policy: str
    tools: list[dict[str, Any]]


def chat_messages(messages: Sequence[Message], policy: str) -> list[dict[str, Any]]:
    """A transcript in OpenAI fine-tuning form.

    The system policy comes first (added if the transcript lacks it). Tool calls that no
    ``tool`` message answers are dropped (upstream transcripts keep every call a model
    sent, though only the first ran), and ``tool`` messages carry only their
    ``tool_call_id`` and content.
    """
    answered = {m.tool_call_id for m in messages if m.role == "tool"}
    out: list[dict[str, Any]] = []
    if not messages or messages[0].role != "system":
        out.append({"role": "system", "content": policy})
    for message in messages:
        if message.role == "tool":
            out.append(
                {
                    "role": "tool",
                    "tool_call_id": message.tool_call_id,
                    "content": message.content or "",
                }
            )
        elif message.role == "assistant":
            calls = [c for c in message.tool_calls or [] if c.id in answered]
            entry: dict[str, Any] = {"role": "assistant"}
            if message.content or not calls:
                entry["content"] = message.content or ""
            if calls:
                entry["tool_calls"] = [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": call.arguments or "{}"},
                    }
                    for call in calls
                ]
            out.append(entry)
        else:
            out.append({"role": message.role, "content": message.content or ""})
    return out


def select_episodes(
    episodes: Iterable[RunEpisode], outcome: OutcomeFilter = "pass", min_reward: float | None = None
) -> list[RunEpisode]:
    """The finished episodes with the chosen outcome (``all``: pass and fail) and at least
    ``min_reward``."""
    wanted = {"pass": {Outcome.PASS}, "fail": {Outcome.FAIL}, "all": {Outcome.PASS, Outcome.FAIL}}
    return [
        e
        for e in episodes
        if e.result.outcome in wanted[outcome]
        and (min_reward is None or e.result.reward >= min_reward)
    ]


def sft_records(episodes: Iterable[RunEpisode]) -> list[dict[str, Any]]:
    """One SFT line per episode."""
    return [
        {
            "messages": chat_messages(e.result.messages, e.policy),
            "tools": e.tools,
            "parallel_tool_calls": False,
        }
        for e in episodes
    ]


def preference_records(episodes: Iterable[RunEpisode]) -> list[dict[str, Any]]:
    """Pairs of a passing and a failing episode of the same task and trait mix.

    Every failing episode is paired with one passing episode of its group (the passing
    ones taken in turn, in the order given). A pair whose episodes do not differ after
    their shared start (or share nothing) is left out.
    """
    passing: dict[tuple[str, str, int, str], list[RunEpisode]] = defaultdict(list)
    failing: dict[tuple[str, str, int, str], list[RunEpisode]] = defaultdict(list)
    for episode in episodes:
        if episode.result.outcome is Outcome.PASS:
            passing[episode.group].append(episode)
        elif episode.result.outcome is Outcome.FAIL:
            failing[episode.group].append(episode)
    records = []
    for group, losers in failing.items():
        winners = passing.get(group)
        if not winners:
            continue
        for index, loser in enumerate(losers):
            winner = winners[index % len(winners)]
            chosen = chat_messages(winner.result.messages, winner.policy)
            rejected = chat_messages(loser.result.messages, loser.policy)
            shared = _shared_start(chosen, rejected)
            if shared == 0 or shared in (len(chosen), len(rejected)):
                continue
            records.append(
                {
                    "input": {"messages": chosen[:shared], "tools": winner.tools},
                    "preferred_output": chosen[shared:],
                    "non_preferred_output": rejected[shared:],
                }
            )
    return records


def no_pairs_reason(episodes: Sequence[RunEpisode]) -> str:
    """Why :func:`preference_records` found no pair in ``episodes``, in a few words."""
    passing = [e.group for e in episodes if e.result.outcome is Outcome.PASS]
    failing = [e.group for e in episodes if e.result.outcome is Outcome.FAIL]
    if not passing and not failing:
        return "the runs have no scored episodes"
    if not set(passing) & set(failing):
        counts = f"{len(passing)} pass, {len(failing)} fail"
        return f"no task and trait mix both passed and failed ({counts})"
    return "each pass/fail pair of a task shares no start or does not differ"


def _shared_start(first: list[dict[str, Any]], second: list[dict[str, Any]]) -> int:
    count = 0
    for a, b in zip(first, second, strict=False):
        if a != b:
            break
        count += 1
    return count


def write_jsonl(records: Iterable[dict[str, Any]], stream: IO[str]) -> int:
    """Write one JSON object per line; returns how many."""
    count = 0
    for record in records:
        stream.write(json.dumps(record, ensure_ascii=False) + "\n")
        count += 1
    return count


def stored_episodes(store: ResultStore, run_ids: Sequence[str]) -> list[RunEpisode]:
    """The episodes of the runs ``run_ids`` (ids, unique prefixes or ``latest``), run by run
    in (trial, task) order; each run's domain must be installed (for its tool schemas).

    Raises:
        RunNotFoundError: a run id matches no run.
        UnknownNameError: a run's domain is not installed.
    """
    from tautrait_core.plugins import lookup

    records = {record.id: record for record in (store.get_run(run_id) for run_id in run_ids)}
    episodes = []
    for record in records.values():
        domain = lookup("domain", record.domain, "Install the domain plugin the run used")
        tools = list(domain.tool_schemas)
        for result in sorted(store.episodes(record.id), key=lambda r: (r.trial, r.task_id)):
            group = (record.domain, record.task_set, result.task_id, record.traits)
            episodes.append(RunEpisode(result, group, domain.policy, tools))
    return episodes

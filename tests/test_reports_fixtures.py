"""Builders of stored runs for the report tests (this module holds no tests itself)."""

from __future__ import annotations

from typing import Any

from tautrait_core.config.run_config import RunConfig
from tautrait_core.paths import default_results_db
from tautrait_core.store.results import ResultStore
from tautrait_core.store.tables import RunRecord
from tautrait_core.types.messages import Message, ToolCall
from tautrait_core.types.result import EpisodeResult, Outcome, Termination
from tautrait_core.types.reward import RewardInfo
from tautrait_core.types.usage import Usage

SCRIPT = (
    "<script>document.title='pwned';"
    "document.body.append(Object.assign(document.createElement('div'),{id:'pwned'}))</script>"
)
"""Model text that would run in a page that failed to escape it."""


def results_store() -> ResultStore:
    """The results database the CLI uses by default (inside the test's TAUTRAIT_HOME)."""
    return ResultStore(default_results_db())


def episode(task_id: int, trial: int, outcome: str, text: str = "All done.") -> EpisodeResult:
    """An episode with a tool call, its result and a reply; failures carry a state diff."""
    passed = outcome == "pass"
    errored = outcome == "error"
    messages = [
        Message(role="system", content="You are a library assistant."),
        Message(role="user", content=f"Please lend me book B{task_id}."),
        Message(
            role="assistant",
            tool_calls=[
                ToolCall(id="c1", name="borrow_book", arguments='{"member_id": "ann_1", "days": 7}')
            ],
        ),
        Message(role="tool", tool_call_id="c1", name="borrow_book", content="Dune lent to Ann"),
        Message(role="assistant", content=text),
    ]
    reward_info = None
    if not errored:
        reward_info = RewardInfo(
            reward=1.0 if passed else 0.0,
            r_actions=passed,
            r_outputs=passed,
            outputs={"CL-4": passed},
            data_hash="a",
            gt_data_hash="a" if passed else "b",
            state_diff=[] if passed else ['toylib_books["B1"]'],
        )
    return EpisodeResult(
        task_id=task_id,
        trial=trial,
        outcome=Outcome(outcome),
        reward=1.0 if passed else 0.0,
        termination=Termination.PROVIDER_ERROR if errored else Termination.USER_STOP,
        reward_info=reward_info,
        messages=[] if errored else messages,
        error="ProviderError: gave up after 5 attempts" if errored else None,
        agent_usage=Usage(calls=2, cost=0.002),
        user_usage=Usage(calls=2, cost=0.001),
        steps=3,
        duration_s=1.5,
    )


def store_run(
    store: ResultStore,
    outcomes: dict[int, list[str]],
    traits: str = "",
    **settings: Any,
) -> RunRecord:
    """A finished run whose task ``t`` has trial outcomes ``outcomes[t]`` (pass/fail/error)."""
    options: dict[str, Any] = {
        "domain": "toylib",
        "agent": "tool-calling",
        "agent_model": "openai/agent-a",
        "user": "llm",
        "user_model": "openai/user",
        "traits": traits,
        "num_trials": max(len(trials) for trials in outcomes.values()),
        "task_ids": sorted(outcomes),
        "max_steps": 30,  # a prepared τ-bench run stores the limit it used
    }
    options.update(settings)
    config = RunConfig.model_validate(options)
    record = store.create_run(config, "test", sorted(outcomes), {"tautrait-core": "test"})
    for task_id, trials in outcomes.items():
        for trial, outcome in enumerate(trials):
            store.save_episode(record.id, episode(task_id, trial, outcome))
    store.set_status(record.id, "finished")
    return store.get_run(record.id)

"""Rescoring recorded episodes: replay rules, causes, stored runs and upstream files."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.analysis.recorded_episodes import RecordedEpisode, RecordedVerdict
from tautrait_core.analysis.rescore import CauseKind, EpisodeRescore, rescore, rescore_episodes
from tautrait_core.cli import cli
from tautrait_core.domain.domain import TaskSet
from tautrait_core.types.messages import STOP_TOKEN, Message, ToolCall
from tautrait_core.types.result import EpisodeResult, Outcome, Termination
from tautrait_core.types.reward import RewardInfo
from tautrait_core.types.task import Action

TODAY = dt.date(2026, 1, 5)
BORROW_DUNE_7 = '{"member_id": "ann_1", "book_id": "B1", "days": 7}'


def call(name: str, arguments: str, *more: tuple[str, str]) -> Message:
    calls = [(name, arguments), *more]
    return Message(
        role="assistant",
        tool_calls=[ToolCall(id=f"c{i}", name=n, arguments=a) for i, (n, a) in enumerate(calls)],
    )


def say(text: str) -> Message:
    return Message(role="assistant", content=text)


def episode(
    task_id: int,
    steps: list[Message],
    reward: float,
    termination: Termination = Termination.USER_STOP,
    reward_info: RewardInfo | None = None,
) -> RecordedEpisode:
    """A recorded episode: the user's opening, the agent's steps, the user's stop."""
    messages = [Message(role="user", content="hi"), *steps]
    if termination is Termination.USER_STOP:
        messages.append(Message(role="user", content=STOP_TOKEN))
    result = EpisodeResult(
        task_id=task_id,
        trial=0,
        outcome=Outcome.PASS if reward == 1.0 else Outcome.FAIL,
        reward=reward,
        termination=termination,
        reward_info=reward_info,
        messages=messages,
    )
    return RecordedEpisode(result)


@pytest.fixture
def toy(toy_plugin):
    """Rescore recorded episodes against the toy domain's ``test`` tasks (or given ones)."""
    domain = toy_plugin.build_domain()

    def run(*episodes: RecordedEpisode, tasks=None) -> list[EpisodeRescore]:
        task_set = domain.task_sets["test"]
        if tasks is not None:
            task_set = TaskSet(name="edited", load_tasks=lambda: tasks)
        return rescore_episodes(domain, task_set, list(episodes), TODAY)

    return run


def test_bad_arguments_and_unknown_tools_are_observations_not_writes(toy) -> None:
    steps = [call("borrow_book", '{"member_id": '), call("fly", "{}"), say("all done")]
    (record,) = toy(episode(0, steps, reward=1.0))
    assert record.new_reward == 0.0 and record.agrees is False
    (cause,) = record.causes
    assert cause.kind is CauseKind.STATE_DIFFERS
    assert cause.details == ['toylib_books["B1"]', 'toylib_members["ann_1"]']


def test_gold_replay_agrees_and_only_the_first_call_of_a_message_runs(toy) -> None:
    lend_both = call(
        "borrow_book", BORROW_DUNE_7, ("borrow_book", '{"member_id": "ann_1", "book_id": "B2"}')
    )
    steps = [call("find_member", '{"email": "ann@example.org"}'), lend_both, say("done")]
    (record,) = toy(episode(0, steps, reward=1.0))
    assert record.new_reward == 1.0 and record.agrees and record.causes == []
    assert record.termination is Termination.USER_STOP and record.skipped is None


def test_missing_output_is_named(toy) -> None:
    told = episode(1, [call("get_book", '{"book_id": "B2"}'), say("It is on shelf CL-4.")], 1.0)
    untold = episode(1, [call("get_book", '{"book_id": "B2"}'), say("It is on a shelf.")], 1.0)
    first, second = toy(told, untold)
    assert first.agrees and first.reward_info.outputs == {"CL-4": True}
    assert second.new_reward == 0.0
    assert [(c.kind, c.details) for c in second.causes] == [(CauseKind.OUTPUT_MISSING, ["CL-4"])]


def test_terminating_tool_ends_the_replay(toy) -> None:
    steps = [
        call("borrow_book", '{"member_id": "ann_1", "book_id": "B2"}'),
        call("transfer_to_librarian", '{"summary": "wants a librarian"}'),
        call("borrow_book", BORROW_DUNE_7),  # after the end: must not run
    ]
    (record,) = toy(episode(2, steps, reward=1.0, termination=Termination.TERMINATING_TOOL))
    assert record.new_reward == 1.0 and record.agrees
    assert record.termination is Termination.TERMINATING_TOOL
    assert record.notes == [
        "the replay ended at terminating tool transfer_to_librarian; "
        "1 later agent messages were not replayed"
    ]


def test_unfinished_episodes_score_zero(toy) -> None:
    steps = [
        call("find_member", '{"email": "ann@example.org"}'),
        call("borrow_book", BORROW_DUNE_7),
    ]
    (record,) = toy(episode(0, steps, reward=1.0, termination=Termination.MAX_STEPS))
    assert record.new_reward == 0.0 and record.reward_info.r_actions
    assert record.causes[0].kind is CauseKind.NOT_FINISHED


def test_out_of_range_and_error_episodes_are_skipped(toy) -> None:
    errored = episode(0, [], reward=0.0)
    errored.result.outcome = Outcome.ERROR
    errored.result.error = "agent: provider down"
    missing, failed = toy(episode(7, [say("hi")], reward=0.0), errored)
    assert missing.new_reward is None and missing.agrees is None
    assert missing.skipped == "task 7 is out of range: task set 'test' has tasks 0..2"
    assert "provider down" in failed.skipped


def test_fixed_gold_actions_flip_rewards_with_the_cause(toy, toy_plugin) -> None:
    fixed = list(toy_plugin.TASKS)
    borrow = Action(name="borrow_book", kwargs={"member_id": "ann_1", "book_id": "B1"})
    broken = [fixed[0].model_copy(update={"actions": [fixed[0].actions[0], borrow]}), *fixed[1:]]
    steps = [
        call("find_member", '{"email": "ann@example.org"}'),
        call("borrow_book", BORROW_DUNE_7),
    ]
    (before,) = toy(episode(0, [*steps, say("lent for a week")], reward=1.0), tasks=broken)
    assert before.new_reward == 0.0  # the broken task expects the default 14 days
    assert before.causes[0].kind is CauseKind.STATE_DIFFERS
    assert before.causes[0].details == ['toylib_books["B1"]']

    recorded = episode(0, [*steps, say("lent")], reward=0.0, reward_info=before.reward_info)
    (after,) = toy(recorded, tasks=fixed)
    assert after.new_reward == 1.0 and after.agrees is False
    assert [(c.kind, c.details) for c in after.causes] == [
        (CauseKind.STATE_NOW_MATCHES, ['toylib_books["B1"]'])
    ]
    assert after.task_changes == ["gold_state"]


def test_oracle_run_rescores_to_identical_rewards(toy_plugin) -> None:
    runner = CliRunner()
    ran = runner.invoke(
        cli, ["run", "--domain", "toylib", "--agent", "oracle", "--num-trials", "2"]
    )
    assert ran.exit_code == 0, ran.output
    report = rescore("latest")
    assert (report.domain, report.task_set) == ("toylib", "test")
    assert len(report.episodes) == 6
    assert all(e.agrees and e.new_reward == 1.0 and e.task_changes == [] for e in report.episodes)
    summary = report.summary
    assert (summary.agreements, summary.disagreements, summary.skipped) == (6, 0, 0)
    assert summary.pass_hat_k_before == summary.pass_hat_k_after
    assert [p.value for p in summary.pass_hat_k_after] == [1.0, 1.0]

    shown = runner.invoke(cli, ["rescore", "latest"])
    assert shown.exit_code == 0, shown.output
    assert "6 episodes, 6 rescored, 6 agree, 0 disagree" in shown.output
    assert "pass^2: 1.000 -> 1.000" in shown.output


def test_replays_run_on_the_date_each_episode_recorded(toy_plugin, monkeypatch) -> None:
    ran = CliRunner().invoke(cli, ["run", "--domain", "toylib", "--agent", "oracle"])
    assert ran.exit_code == 0, ran.output
    from tautrait_core.paths import default_results_db
    from tautrait_core.store.results import ResultStore

    store = ResultStore(default_results_db())
    stored = store.episodes(store.get_run("latest").id)
    assert {e.env_date for e in stored} == {dt.date.today()}

    import tautrait_core.analysis.rescore as rescoring

    dates: list[dt.date] = []
    replay = rescoring.replay_trajectory

    def recording(domain, template, task, messages, today):  # type: ignore[no-untyped-def]
        dates.append(today)
        return replay(domain, template, task, messages, today)

    monkeypatch.setattr(rescoring, "replay_trajectory", recording)
    old = episode(0, [say("hi")], reward=0.0)  # recorded before episodes kept their date
    dated = episode(0, [say("hi")], reward=0.0)
    dated.result.env_date = TODAY
    domain = toy_plugin.build_domain()
    rescore_episodes(
        domain, domain.task_sets["test"], [old, dated], default_today=dt.date(2025, 2, 3)
    )
    rescore_episodes(domain, domain.task_sets["test"], [old, dated], dt.date(2024, 1, 1))
    assert dates == [dt.date(2025, 2, 3), TODAY, dt.date(2024, 1, 1), dt.date(2024, 1, 1)]


def test_run_rescored_against_another_task_set(toy_plugin) -> None:
    runner = CliRunner()
    ran = runner.invoke(
        cli, ["run", "--domain", "toylib", "--task-set", "defective", "--agent", "oracle"]
    )
    assert ran.exit_code == 0, ran.output
    result = runner.invoke(cli, ["rescore", "latest", "--task-set", "test", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["task_set"] == "test"
    first, second = data["episodes"]
    assert (first["old_reward"], first["new_reward"]) == (1.0, 0.0)
    assert first["task_changes"] == ["gold_state", "outputs"]
    assert second["causes"] == [
        {"kind": "state_differs", "details": ['toylib_books["B1"]', 'toylib_members["ann_1"]']},
        {"kind": "output_missing", "details": ["CL-4"]},
    ]
    assert data["summary"]["causes"] == {"output_missing": 1, "state_differs": 2}
    assert data["summary"]["pass_hat_k_after"][0]["value"] == 0.0


def upstream_record(task_id: int, task: dict, traj: list[dict], reward: float, info: dict) -> dict:
    reward_info = {"reward": reward, "info": info, "actions": task["actions"]}
    return {
        "task_id": task_id,
        "reward": reward,
        "trial": 0,
        "info": {"task": task, "source": "user", "user_cost": 0.01, "reward_info": reward_info},
        "traj": traj,
    }


def openai_call(name: str, arguments: str) -> list[dict]:
    return [
        {
            "role": "assistant",
            "content": None,
            "function_call": None,
            "tool_calls": [
                {"id": "x", "type": "function", "function": {"name": name, "arguments": arguments}}
            ],
        },
        {"role": "tool", "tool_call_id": "x", "name": name, "content": "ok"},
    ]


def test_upstream_result_file(toy_plugin, tmp_path: Path) -> None:
    tasks = [task.model_dump() for task in toy_plugin.TASKS]
    opening = [{"role": "system", "content": "policy"}, {"role": "user", "content": "hi"}]
    closing = [{"role": "user", "content": STOP_TOKEN}]
    lend = [
        *openai_call("find_member", '{"email": "ann@example.org"}'),
        *openai_call("borrow_book", BORROW_DUNE_7),
        {"role": "assistant", "content": "Done."},
    ]
    shelf = [*openai_call("get_book", '{"book_id": "B2"}'), {"role": "assistant", "content": "?"}]
    told = [*shelf[:-1], {"role": "assistant", "content": "Shelf CL-4."}]
    reworded = {**tasks[1], "instruction": "Ask where Emma is."}
    misspelt = {**tasks[1], "outputs": ["CL 4"]}
    unfound = {"r_outputs": 0.0, "outputs": {"CL 4": False}}
    records = [
        upstream_record(0, tasks[0], opening + lend + closing, 1.0, {"r_actions": 1.0}),
        upstream_record(1, reworded, opening + shelf + closing, 0.0, {"r_outputs": 0.0}),
        upstream_record(5, tasks[0], opening + lend + closing, 1.0, {"r_actions": 1.0}),
        upstream_record(1, misspelt, opening + told + closing, 0.0, unfound),
    ]
    path = tmp_path / "impatience_toylib.json"
    path.write_text(json.dumps(records))

    report = rescore(path)
    assert (report.domain, report.task_set) == ("toylib", "test")
    lent, asked, missing, fixed = report.episodes
    assert lent.agrees and lent.new_reward == 1.0 and lent.task_changes == []
    assert asked.agrees and asked.task_changes == ["instruction"]
    assert asked.causes == [] and asked.reward_info.outputs == {"CL-4": False}
    assert missing.skipped.startswith("task 5 is out of range")
    assert (fixed.old_reward, fixed.new_reward, fixed.task_changes) == (0.0, 1.0, ["outputs"])
    assert [(c.kind, c.details) for c in fixed.causes] == [(CauseKind.OUTPUTS_NOW_FOUND, ["CL 4"])]
    summary = report.summary
    assert (summary.tasks_changed, summary.skipped, summary.disagreements) == (2, 1, 1)
    assert [p.value for p in summary.pass_hat_k_before] == [0.5, 0.0]  # tasks 0 and 1
    assert [p.value for p in summary.pass_hat_k_after] == [0.75, 0.0]

    table = CliRunner().invoke(cli, ["rescore", str(path)])
    assert table.exit_code == 0, table.output
    assert "task changed: instruction" in table.output and "skipped" in table.output


def test_file_without_a_domain_asks_for_one(toy_plugin, tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    path.write_text("[]")
    result = CliRunner().invoke(cli, ["rescore", str(path)])
    assert result.exit_code == 1 and "pass --domain" in result.output


def test_upstream_verdicts() -> None:
    outputs_only = {"reward": 0.0, "info": {"r_outputs": 1.0, "outputs": {"CL-4": True}}}
    verdict = RecordedVerdict.from_upstream(outputs_only, 0.0)
    assert verdict == RecordedVerdict(state_ok=False, missing_outputs=[])
    missed = {"reward": 0.0, "info": {"r_outputs": 0.0, "outputs": {"CL-4": False}}}
    assert RecordedVerdict.from_upstream(missed, 0.0).missing_outputs == ["CL-4"]
    assert RecordedVerdict.from_upstream(None, 0.0) is None

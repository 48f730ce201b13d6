"""τ²-style grading on a tiny dual-control domain: DB of both sides against the gold replay,
env assertions, the shortcut, the sync quirk, NL assertions and how the grade is stored."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Field, SQLModel

from tautrait_core import Domain, EpisodeDB, StateTemplate, Task, TaskSet, hookimpl, tool
from tautrait_core.compat.tau2.reward_info import reward_info_from_tau2, tau2_reward_info
from tautrait_core.grading.criteria_reward import grade_criteria
from tautrait_core.types.criteria import EvaluationCriteria
from tautrait_core.types.messages import Message, ToolCall
from tautrait_core.types.reward import RewardInfo
from tautrait_core.types.task import Action


class PhoneLine(SQLModel, table=True):
    __tablename__ = "tau2toy_lines"

    line_id: str = Field(primary_key=True)
    roaming: bool = False


class Handset(SQLModel, table=True):
    __tablename__ = "tau2toy_handsets"

    handset_id: str = Field(primary_key=True)
    airplane_mode: bool = True
    roaming_allowed: bool = False


@tool
def get_line(db: EpisodeDB, line_id: str) -> str:
    """Show a line.

    Args:
        line_id: The line id.
    """
    line = db.get(PhoneLine, line_id)
    if line is None:
        raise ValueError(f"Line {line_id} not found")
    return line.model_dump_json()


@tool
def enable_roaming(db: EpisodeDB, line_id: str) -> str:
    """Allow roaming on a line.

    Args:
        line_id: The line id.
    """
    line = db.get(PhoneLine, line_id)
    if line is None:
        raise ValueError(f"Line {line_id} not found")
    line.roaming = True
    db.add(line)
    return "Roaming enabled"


@tool
def toggle_airplane_mode(db: EpisodeDB) -> str:
    """Switch airplane mode on the customer's phone."""
    handset = db.get(Handset, "H1")
    assert handset is not None
    handset.airplane_mode = not handset.airplane_mode
    db.add(handset)
    return f"Airplane mode is now {'ON' if handset.airplane_mode else 'OFF'}."


def assert_airplane_mode(db: EpisodeDB, expected: bool) -> bool:
    handset = db.get(Handset, "H1")
    assert handset is not None
    return handset.airplane_mode == expected


def assert_task_exists(db: EpisodeDB, line_id: str) -> bool:
    if db.get(PhoneLine, line_id) is None:
        raise ValueError(f"Line {line_id} not found")
    return True


def sync_roaming(db: EpisodeDB) -> None:
    """The phone mirrors the line's roaming permission (τ²'s sync_tools)."""
    line, handset = db.get(PhoneLine, "L1"), db.get(Handset, "H1")
    assert line is not None and handset is not None
    if handset.roaming_allowed != line.roaming:
        handset.roaming_allowed = line.roaming
        db.add(handset)
    db.flush()


DOMAIN = Domain(
    name="tau2-toy",
    policy="Help with the phone.",
    tables=[PhoneLine, Handset],
    seed_data=lambda: [PhoneLine(line_id="L1"), Handset(handset_id="H1")],
    tools=[get_line, enable_roaming],
    user_tools=[toggle_airplane_mode],
    user_tables=[Handset],
    user_functions={"assert_airplane_mode": assert_airplane_mode},
    agent_functions={"assert_task_exists": assert_task_exists},
    sync_state=sync_roaming,
    task_sets={
        "tau2:toy": TaskSet(name="tau2:toy", load_tasks=lambda: [RESCORED_TASK, NL_RESCORED])
    },
)
TEMPLATE = StateTemplate("tau2toy", DOMAIN.tables, DOMAIN.seed_data())


def _task(**criteria: Any) -> Task:
    return Task(
        id="t",
        user_id="",
        instruction="Fix my phone.",
        evaluation_criteria=EvaluationCriteria.model_validate(criteria),
    )


def _call(name: str, arguments: dict[str, Any], *, by_user: bool = False) -> list[Message]:
    requestor = "user" if by_user else None
    role = "user" if by_user else "assistant"
    return [
        Message(
            role=role,
            tool_calls=[ToolCall(id=name, name=name, arguments=json.dumps(arguments))],
            requestor=requestor,
        ),
        Message(role="tool", content="(recorded)", tool_call_id=name, requestor=requestor),
    ]


def _conversation(*calls: list[Message], reply: str = "All set, airplane mode is off.") -> list:
    return [
        Message(role="assistant", content="Hi! How can I help you today?"),
        Message(role="user", content="My phone has no signal."),
        *(message for call in calls for message in call),
        Message(role="assistant", content=reply),
        Message(role="user", content="###STOP###"),
    ]


def _grade(task: Task, messages: Sequence[Message], termination: str = "user_stop", **kw: Any):
    return grade_criteria(DOMAIN, task, TEMPLATE, messages, termination, None, **kw)


GOLD = [
    Action(name="get_line", kwargs={"line_id": "L1"}),
    Action(name="toggle_airplane_mode", requestor="user"),
]
AIRPLANE_OFF = {
    "env_type": "user",
    "func_name": "assert_airplane_mode",
    "arguments": {"expected": False},
}


def test_the_gold_conversation_scores_1_on_every_component() -> None:
    task = _task(
        actions=GOLD,
        env_assertions=[AIRPLANE_OFF],
        communicate_info=["Airplane mode is off"],
        reward_basis=["DB", "ENV_ASSERTION", "ACTION", "COMMUNICATE"],
    )
    messages = _conversation(
        _call("get_line", {"line_id": "L1"}), _call("toggle_airplane_mode", {}, by_user=True)
    )
    info = _grade(task, messages)
    assert info.reward == 1.0
    assert info.reward_breakdown == {
        "DB": 1.0,
        "ENV_ASSERTION": 1.0,
        "ACTION": 1.0,
        "COMMUNICATE": 1.0,
    }
    assert info.db_check == {"db_match": True, "db_reward": 1.0}
    assert [check["met"] for check in info.env_assertions or []] == [True]
    assert info.info == {"env": None, "nl": None, "communicate": None, "action": None}


def test_the_customers_missing_action_fails_the_user_side_db_and_the_assertion() -> None:
    task = _task(actions=GOLD, env_assertions=[AIRPLANE_OFF], reward_basis=["DB", "ENV_ASSERTION"])
    info = _grade(task, _conversation(_call("get_line", {"line_id": "L1"})))
    assert info.reward == 0.0
    assert info.db_check == {"db_match": False, "db_reward": 0.0}
    assert info.reward_breakdown == {"DB": 0.0, "ENV_ASSERTION": 0.0}
    # ACTION is reported although it does not count
    assert [check["action_match"] for check in info.action_checks or []] == [True, False]


def test_a_user_side_call_is_replayed_on_the_user_side_only() -> None:
    task = _task(actions=GOLD, reward_basis=["DB"])
    # the agent cannot call the customer's tool: its call errors and changes nothing
    info = _grade(task, _conversation(_call("toggle_airplane_mode", {})))
    assert info.db_check == {"db_match": False, "db_reward": 0.0}
    # τ²'s ACTION check ignores who called
    assert [check["action_match"] for check in info.action_checks or []] == [False, True]


def test_the_gold_replay_never_syncs_so_a_synced_mirror_differs_as_in_tau2() -> None:
    task = _task(
        actions=[Action(name="enable_roaming", kwargs={"line_id": "L1"})], reward_basis=["DB"]
    )
    info = _grade(task, _conversation(_call("enable_roaming", {"line_id": "L1"})))
    assert info.db_check == {"db_match": False, "db_reward": 0.0}


def test_without_actions_or_assertions_the_environment_is_not_checked() -> None:
    task = _task(communicate_info=["done"], reward_basis=["DB", "COMMUNICATE"])
    info = _grade(
        task, _conversation(_call("enable_roaming", {"line_id": "L1"}), reply="Done, bye")
    )
    assert info.reward == 1.0
    assert info.reward_breakdown == {"COMMUNICATE": 1.0}
    assert info.db_check == {"db_match": True, "db_reward": 1.0}
    assert info.env_assertions is None
    assert info.info and info.info["env"] == {"note": "No expected actions or env assertions"}


def test_an_assertion_that_raises_is_not_met_and_says_why() -> None:
    raising = {
        "env_type": "assistant",
        "func_name": "assert_task_exists",
        "arguments": {"line_id": "L9"},
    }
    task = _task(actions=[], env_assertions=[raising], reward_basis=["ENV_ASSERTION"])
    info = _grade(task, _conversation())
    assert info.reward == 0.0
    [check] = info.env_assertions or []
    assert check["met"] is False and check["error"] == "ValueError: Line L9 not found"
    assert "error" not in tau2_reward_info(info)["env_assertions"][0]


def test_a_premature_ending_scores_0_with_tau2s_note() -> None:
    info = _grade(_task(actions=GOLD), _conversation(), termination="max_steps")
    assert info.reward == 0.0
    assert info.info == {
        "note": "Simulation terminated prematurely. Termination reason: TerminationReason.MAX_STEPS"
    }


NL_TASK = dict(nl_assertions=["The agent was polite"], reward_basis=["NL_ASSERTION"])


def test_nl_assertions_without_a_judge_are_not_scoreable_never_a_silent_0() -> None:
    info = _grade(_task(**NL_TASK), _conversation())
    assert info.not_scoreable is not None and "--judge-model" in info.not_scoreable
    assert info.reward_breakdown is None


@pytest.mark.parametrize("met", [True, False])
def test_nl_assertions_count_through_the_judge(met: bool) -> None:
    seen: list[Sequence[str]] = []

    def judge(messages: Sequence[Message], assertions: Sequence[str]) -> list[dict[str, Any]]:
        seen.append(assertions)
        return [{"nl_assertion": a, "met": met, "justification": "j"} for a in assertions]

    info = _grade(_task(**NL_TASK), _conversation(), judge=judge)
    assert seen == [["The agent was polite"]]
    assert info.reward == (1.0 if met else 0.0)
    assert info.reward_breakdown == {"NL_ASSERTION": info.reward}
    assert info.nl_assertions and info.nl_assertions[0]["met"] is met


def test_a_chosen_basis_judges_the_conversation_once() -> None:
    seen: list[Sequence[str]] = []

    def judge(messages: Sequence[Message], assertions: Sequence[str]) -> list[dict[str, Any]]:
        seen.append(assertions)
        return [{"nl_assertion": a, "met": False, "justification": "j"} for a in assertions]

    task = _task(nl_assertions=["The agent was polite"], reward_basis=["NL_ASSERTION"])
    chosen = ["NL_ASSERTION", "COMMUNICATE"]
    info = _grade(task, _conversation(), judge=judge, reward_basis=chosen)
    assert seen == [["The agent was polite"]]  # the official and chosen grades share it
    assert (info.reward, info.official_reward) == (0.0, 0.0)
    assert info.reward_breakdown == {"NL_ASSERTION": 0.0, "COMMUNICATE": 1.0}


def test_a_tau_bench_reward_serialises_exactly_as_before() -> None:
    info = RewardInfo(reward=1.0, r_actions=True, data_hash="a", gt_data_hash="a")
    assert list(info.model_dump()) == [
        "reward",
        "r_actions",
        "r_outputs",
        "outputs",
        "data_hash",
        "gt_data_hash",
        "state_diff",
    ]
    assert RewardInfo.model_validate_json(info.model_dump_json()) == info


def test_a_tau2_grade_is_stored_and_read_back_whole() -> None:
    task = _task(
        actions=GOLD, env_assertions=[AIRPLANE_OFF], reward_basis=["ENV_ASSERTION", "ACTION"]
    )
    info = _grade(task, _conversation(_call("toggle_airplane_mode", {}, by_user=True)))
    assert RewardInfo.model_validate(json.loads(info.model_dump_json())) == info
    as_tau2 = tau2_reward_info(info)
    assert list(as_tau2) == [
        "reward",
        "db_check",
        "env_assertions",
        "action_checks",
        "nl_assertions",
        "communicate_checks",
        "reward_basis",
        "reward_breakdown",
        "info",
    ]
    assert tau2_reward_info(reward_info_from_tau2(as_tau2)) == as_tau2


RESCORED_TASK = Task(
    id="airplane",
    user_id="",
    instruction="Instructions:\n\tFix my phone.",
    actions=GOLD,
    evaluation_criteria=EvaluationCriteria(
        actions=GOLD, env_assertions=[AIRPLANE_OFF], reward_basis=["ENV_ASSERTION", "ACTION"]
    ),
)


class _ToyPlugin:
    @hookimpl
    def register_domains(self, register: Any) -> None:
        register(DOMAIN)


@pytest.fixture
def toy_tau2_domain() -> Any:
    from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager

    reset_plugin_manager()
    manager = get_plugin_manager()
    manager.register(_ToyPlugin(), name="tau2toy")
    try:
        yield DOMAIN
    finally:
        manager.unregister(name="tau2toy")
        reset_plugin_manager()


def test_rescore_reads_a_tau2_file_and_shows_each_component(
    toy_tau2_domain: Domain, tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from tautrait_core.cli import cli
    from tautrait_core.compat.tau2.messages import message_to_tau2
    from tautrait_core.interchange.tau2_results import task_to_tau2

    solved = _conversation(
        _call("get_line", {"line_id": "L1"}), _call("toggle_airplane_mode", {}, by_user=True)
    )
    unsolved = _conversation(_call("get_line", {"line_id": "L1"}))
    recorded = {"reward": 0.0, "reward_basis": ["ENV_ASSERTION", "ACTION"], "info": None}
    simulations = [
        {
            "task_id": "airplane",
            "trial": trial,
            "termination_reason": "user_stop",
            "reward_info": {**recorded, "reward": 1.0 - trial},
            "messages": [message_to_tau2(m, i) for i, m in enumerate(messages)],
        }
        for trial, messages in enumerate([solved, unsolved])
    ]
    path = tmp_path / "run.json"
    path.write_text(
        json.dumps(
            {
                "info": {"environment_info": {"domain_name": "toy"}},
                "tasks": [task_to_tau2(RESCORED_TASK, 0)],
                "simulations": simulations,
            }
        )
    )
    result = CliRunner().invoke(cli, ["rescore", str(path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert (report["domain"], report["task_set"]) == ("tau2-toy", "tau2:toy")
    first, second = report["episodes"]
    assert (first["new_reward"], first["agrees"]) == (1.0, True)
    assert first["reward_info"]["reward_breakdown"] == {"ENV_ASSERTION": 1.0, "ACTION": 1.0}
    assert (second["new_reward"], second["agrees"]) == (0.0, True)
    shown = CliRunner().invoke(cli, ["rescore", str(path)], env={"COLUMNS": "250"})
    assert shown.exit_code == 0, shown.output
    assert "ENV_ASSERTION 1, ACTION 1" in shown.output
    assert "ENV_ASSERTION 0, ACTION 0" in shown.output


NL_RESCORED = Task(
    id="polite",
    user_id="",
    instruction="Instructions:\n\tBe greeted.",
    evaluation_criteria=EvaluationCriteria(
        nl_assertions=["The agent greets the customer", "The agent apologises"],
        reward_basis=["NL_ASSERTION"],
    ),
)


def _nl_results_file(tmp_path: Path) -> Path:
    from tautrait_core.compat.tau2.messages import message_to_tau2
    from tautrait_core.interchange.tau2_results import task_to_tau2

    path = tmp_path / "nl.json"
    simulation = {
        "task_id": "polite",
        "trial": 0,
        "termination_reason": "user_stop",
        "reward_info": {"reward": 0.0, "reward_basis": ["NL_ASSERTION"], "info": None},
        "messages": [message_to_tau2(m, i) for i, m in enumerate(_conversation())],
    }
    tasks = [task_to_tau2(NL_RESCORED, 0)]
    info = {"environment_info": {"domain_name": "toy"}}
    path.write_text(json.dumps({"info": info, "tasks": tasks, "simulations": [simulation]}))
    return path


def test_nl_assertions_are_judged_by_the_judge_model(
    toy_tau2_domain: Domain, tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from tautrait_core.cli import cli
    from tautrait_core.testing import ScriptedModelServer

    path = _nl_results_file(tmp_path)
    verdicts = {
        "results": [
            {"expectedOutcome": "greets", "reasoning": "It says Hi.", "metExpectation": True},
            {
                "expectedOutcome": "apologises",
                "reasoning": "It never does.",
                "metExpectation": False,
            },
        ]
    }
    with ScriptedModelServer(lambda request: json.dumps(verdicts)) as server:
        arguments = ["rescore", str(path), "--judge-model", "openai/judge"]
        result = CliRunner().invoke(
            cli, [*arguments, "--judge-api-base", server.base_url, "--json"]
        )
        assert result.exit_code == 0, result.output
        prompt = server.requests[0]["messages"][-1]["content"]
    assert result.exit_code == 0, result.output
    assert "assistant: Hi! How can I help you today?" in prompt
    assert "The agent apologises" in prompt
    [episode] = json.loads(result.output)["episodes"]
    info = episode["reward_info"]
    assert episode["new_reward"] == 0.0
    assert info["reward_breakdown"] == {"NL_ASSERTION": 0.0}
    assert [(c["met"], c["justification"]) for c in info["nl_assertions"]] == [
        (True, "It says Hi."),
        (False, "It never does."),
    ]
    unjudged = CliRunner().invoke(cli, ["rescore", str(path), "--json"])
    assert unjudged.exit_code == 0, unjudged.output
    [episode] = json.loads(unjudged.output)["episodes"]
    assert episode["reward_info"]["not_scoreable"]
    assert episode["new_reward"] is None and episode["skipped"].startswith("not scoreable")


def test_a_task_without_criteria_scores_1_with_tau2s_note() -> None:
    task = Task(id="t", user_id="", instruction="Fix my phone.")
    info = _grade(task, _conversation())
    assert tau2_reward_info(info)["reward"] == 1.0
    assert (info.reward_basis, info.info) == (["DB"], {"note": "No evaluation criteria"})


def _run_nl_task(tmp_path: Path, *judge: str, exit_code: int = 0) -> dict[str, Any]:
    from click.testing import CliRunner

    from tautrait_core.cli import cli

    arguments = ["run", "--domain", "tau2-toy", "--task-set", "tau2:toy", "--task-ids", "1"]
    arguments += ["--agent", "oracle", "--user", "scripted", *judge]
    database = str(tmp_path / "results.db")
    result = CliRunner().invoke(cli, [*arguments, "--results-db", database, "--json"])
    assert result.exit_code == exit_code, result.output
    from tautrait_core.store.results import ResultStore

    store = ResultStore(database)
    [run] = store.list_runs()
    [episode] = store.episodes(run.id)
    return {"outcome": episode.outcome, "error": episode.error, "reward": episode.reward}


def test_a_run_without_a_judge_records_nl_tasks_as_not_scoreable(
    toy_tau2_domain: Domain, tmp_path: Path
) -> None:
    episode = _run_nl_task(tmp_path, exit_code=1)  # nothing scored: the run says so
    assert episode["outcome"] == "error"
    assert episode["error"].startswith("not scoreable: needs a judge model (--judge-model)")


def test_a_run_grades_nl_tasks_through_the_judge_model(
    toy_tau2_domain: Domain, tmp_path: Path
) -> None:
    from tautrait_core.testing import ScriptedModelServer

    verdicts = {
        "results": [
            {"expectedOutcome": "greets", "reasoning": "It greets.", "metExpectation": True},
            {"expectedOutcome": "apologises", "reasoning": "It does.", "metExpectation": True},
        ]
    }
    with ScriptedModelServer(lambda request: json.dumps(verdicts)) as server:
        judge = ["--judge-model", "openai/judge", "--judge-api-base", server.base_url]
        episode = _run_nl_task(tmp_path, *judge)
        assert "The agent apologises" in server.requests[0]["messages"][-1]["content"]
    assert (episode["outcome"], episode["reward"], episode["error"]) == ("pass", 1.0, None)


def test_a_tau2_domain_words_unknown_tools_as_tau2_does() -> None:
    import dataclasses

    from tautrait_core.domain.tool_execution import execute_tool_call
    from tautrait_core.tau2 import TAU2_UNKNOWN_TOOL

    tau2_domain = dataclasses.replace(DOMAIN, unknown_tool_message=TAU2_UNKNOWN_TOOL)
    call = ToolCall(id="c1", name="toggle_airplane_mode")  # a user tool, called by the agent
    with TEMPLATE.new_episode() as db:
        assert execute_tool_call(tau2_domain, db, call) == (
            "Error: Tool 'toggle_airplane_mode' not found."
        )
        assert execute_tool_call(DOMAIN, db, call).startswith(
            "Error: unknown tool 'toggle_airplane_mode'. Available tools: get_line"
        )
        unknown = ToolCall(id="c2", name="reboot")
        assert execute_tool_call(DOMAIN, db, unknown, side="user") == (
            "Error: Tool 'reboot' not found."
        )

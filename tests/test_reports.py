"""tautrait report (intervals, several runs, errors, diagnoses), show, and the m003 migration."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from sqlalchemy import text

from tautrait_core.cli import cli
from tautrait_core.grading.metrics import pass_hat_k_intervals, percentile_interval
from tautrait_core.store import migrations
from tautrait_core.store.results import ResultStore
from tautrait_core.store.tables import DiagnosisRecord, TraitRatingRecord
from tests.test_reports_fixtures import episode, results_store, store_run


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_percentile_interval_interpolates_between_ranks() -> None:
    samples = [float(i) for i in range(101)]
    assert percentile_interval(samples, 0.95) == pytest.approx((2.5, 97.5))
    assert percentile_interval([0.4], 0.95) == (0.4, 0.4)


def test_bootstrap_intervals_are_seeded_and_bracket_the_value() -> None:
    outcomes = {0: "pass pass", 1: "pass fail", 2: "fail fail", 3: "pass pass", 4: "fail pass"}
    results = [
        episode(task, trial, outcome)
        for task, trials in outcomes.items()
        for trial, outcome in enumerate(trials.split())
    ]
    first = pass_hat_k_intervals(results, resamples=500, seed=3)
    assert first == pass_hat_k_intervals(results, resamples=500, seed=3)
    one, two = first
    assert (one.k, one.value, one.tasks) == (1, 0.6, 5)
    assert 0.0 <= one.low < one.value < one.high <= 1.0
    assert two.value == pytest.approx(0.4) and two.low < two.value < two.high
    all_pass = [episode(task, 0, "pass") for task in range(4)]
    assert [(i.low, i.high) for i in pass_hat_k_intervals(all_pass)] == [(1.0, 1.0)]


def test_report_keeps_its_lines_and_adds_intervals(runner, toy_plugin) -> None:
    run = ["run", "--domain", "toylib", "--agent", "oracle", "--num-trials", "2"]
    assert runner.invoke(cli, run).exit_code == 0
    result = runner.invoke(cli, ["report", "latest"])
    assert result.exit_code == 0, result.output
    assert "Average reward: 1.000" in result.output
    assert "pass^1: 1.000  95% CI 1.000-1.000" in result.output
    assert "pass^2: 1.000" in result.output and "Cost: $0.0000" in result.output
    document = json.loads(runner.invoke(cli, ["report", "latest", "--json"]).output)
    assert document["pass_hat_k_intervals"][0] == {
        "k": 1,
        "value": 1.0,
        "tasks": 3,
        "low": 1.0,
        "high": 1.0,
    }
    assert document["bootstrap"]["resamples"] == 2000
    assert document["diagnoses"] == {"diagnosed": 0, "failed": 0, "fault": {}, "fault_type": {}}


def test_report_of_several_runs_with_errors_and_diagnoses(runner) -> None:
    store = results_store()
    first = store_run(store, {0: ["pass", "fail"], 1: ["fail", "error"]})
    second = store_run(store, {0: ["pass", "pass"], 1: ["pass", "pass"]}, traits="confusion=low")
    store.save_diagnosis(
        DiagnosisRecord(
            run_id=first.id,
            task_id=0,
            trial=1,
            fault="agent",
            fault_type="wrong_argument",
            explanation="Lent the wrong book.",
            model="judge",
        )
    )
    result = runner.invoke(cli, ["report", first.id, second.id, "--resamples", "200"])
    assert result.exit_code == 0, result.output
    blocks = result.output.split("\n\n")
    assert len(blocks) == 2 and first.id in blocks[0] and second.id in blocks[1]
    assert "Episodes: 4 (3 scored, 1 errors)" in blocks[0]
    assert "Average reward: 0.333" in blocks[0]
    assert "error (task 1 trial 1): ProviderError: gave up after 5 attempts" in blocks[0]
    assert "Diagnoses: 1 of 2 failed episodes; fault: agent 1; type: wrong_argument 1" in blocks[0]
    assert "traits confusion=low" in blocks[1]
    documents = json.loads(runner.invoke(cli, ["report", first.id, second.id, "--json"]).output)
    assert [d["run"]["id"] for d in documents] == [first.id, second.id]
    assert documents[0]["metrics"]["errors"] == 1
    assert documents[0]["errors"][0]["task_id"] == 1
    assert documents[0]["diagnoses"]["fault_type"] == {"wrong_argument": 1}


def test_report_lists_each_distinct_error_once_in_80_columns() -> None:
    """Identical errors are one line naming their episodes, cut to 80 columns (was one
    line per episode, each as long as its message); ``report --json`` keeps them whole."""
    store = results_store()
    record = store_run(store, {3: ["error", "error"], 4: ["error", "pass"], 5: ["error"]})
    long = (
        "agent: no agent answers at http://127.0.0.1:9/: Network communication error "
        "fetching agent card from http://127.0.0.1:9/.well-known/agent-card.json\nsecond line"
    )
    for task_id, trial in [(3, 0), (3, 1), (4, 0)]:
        result = episode(task_id, trial, "error")
        result.error = long
        store.save_episode(record.id, result)

    shown = CliRunner(env={"COLUMNS": "80"}).invoke(cli, ["report", record.id])

    assert shown.exit_code == 0, shown.output
    errors = [line for line in shown.output.splitlines() if line.startswith("  error")]
    assert errors == [
        "  error (3 episodes: task 3 trials 0-1, …): agent: no agent answers at http://1…",
        "  error (task 5 trial 0): ProviderError: gave up after 5 attempts",
    ]
    assert max(len(line) for line in shown.output.splitlines()) <= 80
    document = json.loads(CliRunner().invoke(cli, ["report", record.id, "--json"]).output)
    assert [error["error"] for error in document["errors"]].count(long) == 3


def test_show_prints_the_transcript_and_reward_breakdown(runner) -> None:
    store = results_store()
    record = store_run(store, {0: ["pass"], 1: ["fail"]})
    result = runner.invoke(cli, ["show", record.id, "--task", "1"])
    assert result.exit_code == 0, result.output
    output = result.output
    for expected in (
        "Please lend me book B1.",
        'borrow_book({"member_id": "ann_1", "days": 7})',
        "borrow_book: Dune lent to Ann",
        "All done.",
        'Database differs from the gold replay in: toylib_books["B1"]',
        "Required outputs missing: CL-4",
        "(user_stop)",
        "Cost: agent $0.0020, user $0.0010.",
    ):
        assert expected in output, expected
    assert output.index("Please lend") < output.index("borrow_book(") < output.index("All done.")
    missing = runner.invoke(cli, ["show", record.id, "--task", "1", "--trial", "3"])
    assert missing.exit_code != 0 and "task 1 has trials 0" in missing.output


def test_show_does_not_read_model_text_as_markup(runner) -> None:
    store = results_store()
    record = store_run(store, {0: ["fail"]})
    store.save_episode(record.id, episode(0, 0, "fail", text="[bold red]x[/bold red] [link]"))
    output = runner.invoke(cli, ["show", record.id, "--task", "0"]).output
    assert "[bold red]x[/bold red] [link]" in output
    document = json.loads(runner.invoke(cli, ["show", record.id, "--task", "0", "--json"]).output)
    assert document["episode"]["reward_info"]["state_diff"] == ['toylib_books["B1"]']


def test_migrations_upgrade_an_older_database(tmp_path, monkeypatch) -> None:
    path = tmp_path / "old.db"
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:2])
    ResultStore(path)
    monkeypatch.undo()
    upgraded = ResultStore(path)
    with upgraded.session() as session:
        names = [row[0] for row in session.execute(text("SELECT name FROM _migrations"))]
    assert names == [name for name, _ in migrations.MIGRATIONS]
    assert names[2:4] == ["m003_diagnoses", "m004_episode_date"]
    assert upgraded.diagnoses("nothing") == []


def test_saving_again_replaces_the_diagnosis_or_rating_of_the_same_episode_turn_and_judge() -> None:
    store = results_store()
    run = store_run(store, {0: ["fail"]})
    for explanation in ("First look.", "Second look."):
        store.save_diagnosis(
            DiagnosisRecord(
                run_id=run.id,
                task_id=0,
                trial=0,
                fault="agent",
                fault_type="other",
                explanation=explanation,
                model="judge",
            )
        )
    assert [d.explanation for d in store.diagnoses(run.id)] == ["Second look."]
    assert store.diagnoses(run.id)[0].created_at

    def rating(value: int, model: str) -> TraitRatingRecord:
        return TraitRatingRecord(
            run_id=run.id,
            task_id=0,
            trial=0,
            turn=1,
            turns=3,
            trait="impatience",
            rating=value,
            reason="",
            model=model,
        )

    store.save_trait_ratings([rating(0, "judge"), rating(1, "other judge")])
    store.save_trait_ratings([rating(2, "judge")])
    kept = {(r.model, r.rating) for r in store.trait_ratings(run.id)}
    assert kept == {("judge", 2), ("other judge", 1)}

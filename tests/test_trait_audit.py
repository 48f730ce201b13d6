"""tautrait traits audit: judge ratings of user turns, stored, aggregated and shown.

The audited runs are real runs with model-backed users through the scripted server: the
user writes trait-dependent lines (read off the trait section of its system prompt), and
the judge rates by the words it sees, so every rating, mean and correlation is known.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from click.testing import CliRunner

from tautrait_core.analysis.trait_audit import audit_runs, spearman, turn_third
from tautrait_core.analysis.trait_rating import (
    ParsedRating,
    TraitRatingParseError,
    parse_trait_ratings,
)
from tautrait_core.cli import cli
from tautrait_core.run.runner import execute
from tautrait_core.scripted.scripts import GoldScript
from tautrait_core.scripted.server import Failure, Reply, ScriptedModelServer, reply_text
from tautrait_core.store.tables import TraitRatingRecord
from tautrait_core.trait_mix import TRAITS
from tautrait_core.types.messages import STOP_TOKEN
from tests.scripted_runs import scripted_config
from tests.test_reports_fixtures import results_store, store_run

USER_LINES = {
    "none": ("OK, thank you.", "Fine."),
    "impatience=low": ("Could it be done soon?", "Thanks."),
    "impatience=high": ("I need this NOW.", "Done? NOW, please."),
    "confusion=high": ("What? Which book was that?", "What? Please be done soon."),
}
"""The user's second and third turns per trait mix (the first is the task instruction)."""
MIXES = list(USER_LINES)


class TraitUser(GoldScript):
    """Gold agent; a user who opens with the instruction, then writes its mix's lines."""

    def user_turn(self, messages: list[dict[str, Any]]) -> Reply:
        own = [m for m in messages if m.get("role") == "assistant"]
        if not own:
            return super().user_turn(messages)
        mix = re.findall(r"^- (\w+) \((low|medium|high)\):", messages[0]["content"], re.M)
        label = ",".join(f"{trait}={level}" for trait, level in mix) or "none"
        second, third = USER_LINES[label]
        return reply_text(second if len(own) == 1 else f"{third} {STOP_TOKEN}")


def rated_text(request: dict[str, Any]) -> str:
    return request["messages"][-1]["content"].split("## The customer message to rate\n")[1]


def judge(request: dict[str, Any]) -> object:
    """Impatience 2 for NOW, 1 for soon; confusion 2 for What?; skeptical, incoherence 0."""
    text = rated_text(request)
    impatience = 2 if "NOW" in text else 1 if "soon" in text else 0
    return (
        "```json\n"
        + json.dumps(
            {
                "impatience": {"rating": impatience, "reason": f"impatience {impatience}"},
                "Confusion": 2 if "What?" in text else 0,
                "skepticism": {"rating": "0", "reason": "no doubt"},
                "incoherence": {"rating": 0, "reason": "clear"},
            }
        )
        + "\n```"
    )


def make_runs(toy_plugin: Any) -> dict[str, str]:
    """One finished run per trait mix (3 tasks, 1 trial, 3 user turns each): {mix: run id}."""
    runs = {}
    with ScriptedModelServer(TraitUser(toy_plugin.TASKS, ["transfer_to_librarian"])) as server:
        for mix in MIXES:
            config = scripted_config(server, traits="" if mix == "none" else mix)
            report = execute(config)
            assert report.metrics.average_reward == 1.0
            runs[mix] = report.run.id
    return runs


def invoke(*arguments: str) -> str:
    result = CliRunner(env={"COLUMNS": "250"}).invoke(cli, list(arguments))
    assert result.exit_code == 0, result.output
    return result.output


def run_block(output: str, run_id: str) -> str:
    """The table row of one run in a fidelity table: from its id to the next rule."""
    lines = output.splitlines()
    start = next(index for index, line in enumerate(lines) if run_id in line)
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith(("├", "└"))),
        len(lines),
    )
    return "\n".join(lines[start:end])


def audit_json(run_ids: list[str], *extra: str) -> dict[str, Any]:
    return json.loads(invoke("traits", "audit", *run_ids, "--json", *extra))


def judged(server: ScriptedModelServer, model: str = "openai/judge") -> tuple[str, ...]:
    return ("--judge-model", model, "--judge-api-base", server.base_url)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (
            '{"impatience": {"rating": 2, "reason": " Says  NOW. "}, "confusion": 0,'
            ' "skeptical": {"rating": "1"}, "incoherence": {"Rating": 0, "Reason": "ok"}}',
            {
                "impatience": (2, "Says NOW."),
                "confusion": (0, ""),
                "skeptical": (1, ""),
                "incoherence": (0, "ok"),
            },
        ),
        (
            'Here: {"ratings": {"IMPATIENCE": 1, "Confusion": 1, "skepticism": 2,'
            ' "incoherence": 0}} done',
            {
                "impatience": (1, ""),
                "confusion": (1, ""),
                "skeptical": (2, ""),
                "incoherence": (0, ""),
            },
        ),
    ],
)
def test_answers_are_read(answer: str, expected: dict[str, tuple[int, str]]) -> None:
    assert parse_trait_ratings(answer) == {
        trait: ParsedRating(rating, reason) for trait, (rating, reason) in expected.items()
    }


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ("The customer seems impatient.", "no trait ratings in the answer"),
        ('{"impatience": 2, "confusion": 0, "skeptical": 0}', "does not rate incoherence"),
        ('{"impatience": 3, "confusion": 0, "skeptical": 0, "incoherence": 0}', "rating 3"),
        ('{"impatience": "high", "confusion": 0, "skeptical": 0, "incoherence": 0}', "'high'"),
        ('{"impatience": 1.5, "confusion": 0, "skeptical": 0, "incoherence": 0}', "1.5"),
        ('{"impatience": true, "confusion": 0, "skeptical": 0, "incoherence": 0}', "True"),
        (
            '{"impatience": {"reason": "x"}, "confusion": 0, "skeptical": 0, "incoherence": 0}',
            "impatience has no rating",
        ),
    ],
)
def test_unreadable_answers_are_errors_never_guesses(answer: str, why: str) -> None:
    with pytest.raises(TraitRatingParseError, match=re.escape(why)):
        parse_trait_ratings(answer)


@pytest.mark.parametrize(
    ("turns", "thirds"),
    [
        (1, ["first"]),
        (2, ["first", "last"]),
        (3, ["first", "middle", "last"]),
        (7, ["first", "first", "middle", "middle", "middle", "last", "last"]),
    ],
)
def test_turns_fall_into_thirds_of_their_conversation(turns: int, thirds: list[str]) -> None:
    assert [turn_third(turn, turns) for turn in range(turns)] == thirds


def test_spearman_ranks_ties_and_needs_two_distinct_values() -> None:
    assert spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert spearman([1, 2, 3], [5, 1, 0]) == pytest.approx(-1.0)
    assert spearman([-1, 0, 2, -1], [0, 1 / 3, 4 / 3, 1 / 3]) == pytest.approx(3.75 / 4.5)
    assert spearman([0, 0, 0], [1, 2, 3]) is None
    assert spearman([0, 1, 2], [1, 1, 1]) is None
    assert spearman([2], [1]) is None


def test_user_turns_are_rated_stored_aggregated_and_shown(toy_plugin, tmp_path) -> None:
    runs = make_runs(toy_plugin)
    ids = [runs[mix] for mix in MIXES]
    with ScriptedModelServer(judge) as server:
        first = audit_json(ids, *judged(server), "--concurrency", "3")
        # one call per user turn: 4 runs x 3 episodes x 3 turns (stop tokens removed)
        assert len(server.requests) == 36
        prompts = [r["messages"][-1]["content"] for r in server.requests]
        again = audit_json(ids, *judged(server))
        assert len(server.requests) == 36  # resumed: every turn already rated

    assert first["rating"]["rated_turns"] == 36 and first["rating"]["ratings"] == 144
    assert again["rating"]["rated_turns"] == 0 and again["rating"]["skipped"] == 36
    # the judge is blind to the requested mix; it sees the message and what came before
    assert not any("impatient" in prompt or "personality" in prompt for prompt in prompts)
    assert (
        "## The conversation before the message\n"
        "[customer] You are Ann Lee (ann@example.org). Borrow Dune (B1) for 7 days.\n"
        "[agent] All done.\n[customer] I need this NOW.\n[agent] All done.\n\n"
        "## The customer message to rate\nDone? NOW, please."
    ) in prompts
    assert STOP_TOKEN not in "".join(prompts)

    stored = results_store().trait_ratings(runs["impatience=high"])
    task_0 = [(r.turn, r.turns, r.trait, r.rating, r.reason) for r in stored if r.task_id == 0]
    assert [row for row in task_0 if row[2] == "impatience"] == [
        (0, 3, "impatience", 0, "impatience 0"),
        (1, 3, "impatience", 2, "impatience 2"),
        (2, 3, "impatience", 2, "impatience 2"),
    ]
    assert {r.model for r in stored} == {"openai/judge"} and len(stored) == 36

    (audit,) = first["audits"]
    by_run = {run["traits"]: run for run in audit["runs"]}
    assert list(by_run) == MIXES

    def means(mix: str) -> dict[str, tuple[int | None, float | None]]:
        return {e["trait"]: (e["requested"], e["mean_rating"]) for e in by_run[mix]["fidelity"]}

    assert means("impatience=high")["impatience"] == (2, pytest.approx(4 / 3))
    assert means("impatience=low")["impatience"] == (0, pytest.approx(1 / 3))
    assert means("none")["impatience"] == (None, 0.0)
    assert means("confusion=high")["confusion"] == (2, pytest.approx(4 / 3))
    assert means("confusion=high")["impatience"] == (None, pytest.approx(1 / 3))
    assert by_run["confusion=high"]["leakage"] == pytest.approx(3 / 27)
    assert by_run["impatience=high"]["leakage"] == 0.0
    high = by_run["impatience=high"]["fidelity"][0]
    assert high["by_third"] == {"first": 0.0, "middle": 2.0, "last": 2.0}
    assert by_run["impatience=low"]["fidelity"][0]["by_third"] == pytest.approx(
        {"first": 0.0, "middle": 1.0, "last": 0.0}
    )
    assert by_run["none"]["turns"] == 9 and by_run["none"]["episodes"] == 3
    assert audit["correlations"] == {
        "all runs": {
            "impatience": pytest.approx(3.75 / 4.5),
            "confusion": pytest.approx(1.0),
            "skeptical": None,
            "incoherence": None,
        }
    }

    # without a judge model the stored ratings are reported
    shown = invoke("traits", "audit", *ids)
    high_block = run_block(shown, runs["impatience=high"])
    assert re.search(r"impatience\s+│\s+high\s+│\s+1\.33", high_block)
    assert re.search(r"impatience\s+│\s+low\s+│\s+0\.33", run_block(shown, runs["impatience=low"]))
    assert "leakage 0.11" in run_block(shown, runs["confusion=high"])
    assert "impatience 0.83, confusion 1.00, skeptical n/a, incoherence n/a" in shown
    assert re.search(r"impatience \(high\)\s+│\s+0\.00\s+│\s+2\.00\s+│\s+2\.00", shown)

    compared = invoke("compare", *ids)
    high_block = run_block(compared, runs["impatience=high"])
    assert "pass^1 change +0.0%" in high_block
    assert re.search(r"impatience\s+│\s+high\s+│\s+1\.33", high_block)
    assert "pass^1 change base" in run_block(compared, runs["none"])

    narrow = CliRunner(env={"COLUMNS": "80"}).invoke(cli, ["traits", "audit", *ids]).output
    assert all(len(line) <= 80 for line in narrow.splitlines() if "│" in line)
    assert all(run_id in narrow for run_id in ids), "run ids are shown whole at 80 columns"
    compare_json = json.loads(invoke("compare", *ids, "--json", "--resamples", "50"))
    assert compare_json["trait_audits"][0]["runs"][2]["fidelity"][0]["mean_rating"] == (
        pytest.approx(4 / 3)
    )

    page = tmp_path / "report.html"
    invoke("report", *ids, "--html", str(page), "--resamples", "50")
    html = page.read_text(encoding="utf-8")
    fidelity = html.split('<table class="trait-fidelity">')[1].split("</table>")[0]
    high_row = next(r for r in fidelity.split("<tr>") if runs["impatience=high"] in r)
    assert "<td>1.33 (high)</td>" in high_row and "<td>+0.0% [+0.0%, +0.0%]</td>" in high_row
    assert "impatience 0.83, confusion 1.00" in html


def test_unreadable_answers_and_failed_calls_are_reported_not_stored() -> None:
    record = store_run(results_store(), {0: ["pass"], 1: ["fail", "error"]})
    answers = iter(
        [
            Failure(status=400),
            '{"impatience": 7, "confusion": 0, "skeptical": 0, "incoherence": 0}',
        ]
    )

    def flaky_judge(request: dict[str, Any]) -> object:
        return next(answers, None) or judge(request)

    with ScriptedModelServer(flaky_judge) as server:
        outcome = audit_json([record.id], *judged(server), "--concurrency", "1")
        # one user turn per episode; the errored episode is not rated
        assert len(server.requests) == 2
        assert outcome["rating"]["rated_turns"] == 0
        assert "BadRequestError" in outcome["rating"]["failed"][0][4]
        assert outcome["rating"]["unreadable"][0][4] == "impatience rating 7 is not 0, 1 or 2"
        assert results_store().trait_ratings(record.id) == []
        retried = audit_json([record.id], *judged(server))
    assert retried["rating"]["rated_turns"] == 2 and len(server.requests) == 4
    assert len(results_store().trait_ratings(record.id)) == 8


def test_max_cost_stops_starting_calls_and_a_later_call_continues() -> None:
    record = store_run(results_store(), {0: ["pass"], 1: ["fail"], 2: ["pass"]})
    with ScriptedModelServer(judge) as server:
        arguments = (*judged(server, "openai/gpt-4o-mini"), "--concurrency", "1")
        stopped = audit_json([record.id], *arguments, "--max-cost", "0.0000001")
        assert len(server.requests) == 1
        assert stopped["rating"]["not_started"] == 2 and stopped["rating"]["cost"] > 0
        ratings = results_store().trait_ratings(record.id)
        assert sum(r.cost or 0 for r in ratings) == pytest.approx(stopped["rating"]["cost"])
        resumed = audit_json([record.id], *arguments, "--max-cost", "1")
    assert len(server.requests) == 3 and resumed["rating"]["skipped"] == 1
    assert resumed["audits"][0]["cost"] == pytest.approx(
        stopped["rating"]["cost"] + resumed["rating"]["cost"]
    )


def test_reporting_without_ratings_names_the_fix() -> None:
    record = store_run(results_store(), {0: ["pass"]})
    result = CliRunner().invoke(cli, ["traits", "audit", record.id])
    assert result.exit_code == 1
    assert "no trait ratings stored" in result.output and "--judge-model MODEL" in result.output


def test_a_judge_model_without_a_key_is_refused_before_any_call(monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    record = store_run(results_store(), {0: ["pass"]})
    result = CliRunner().invoke(cli, ["traits", "audit", record.id, "--judge-model", "gpt-4o"])
    assert result.exit_code == 1 and "OPENAI_API_KEY" in result.output


def test_backends_are_compared_on_their_own_correlations() -> None:
    store = results_store()
    mixes = [
        ("", "prompt"),
        ("impatience=high", "prompt"),
        ("", "steer"),
        ("impatience=1", "steer"),
    ]
    records = [
        store_run(store, {0: ["pass"]}, traits=traits, trait_backend=backend)
        for traits, backend in mixes
    ]
    # prompt users follow the request, steered ones show the opposite
    impatience = {0: 0, 1: 2, 2: 2, 3: 0}
    ratings = {
        record.id: [
            TraitRatingRecord(
                run_id=record.id,
                task_id=0,
                trial=0,
                turn=0,
                turns=1,
                trait=trait,
                rating=impatience[index] if trait == "impatience" else 1,
                reason="",
                model="judge",
                cost=0.25,
            )
            for trait in TRAITS
        ]
        for index, record in enumerate(records)
    }
    (audit,) = audit_runs(records, ratings)
    assert audit.correlations == {
        # ranks: requested (1.5, 4, 1.5, 3), rated (1.5, 3.5, 3.5, 1.5)
        "all runs": {
            "impatience": pytest.approx(1 / 18**0.5),
            "confusion": None,
            "skeptical": None,
            "incoherence": None,
        },
        "prompt": {"impatience": 1.0, "confusion": None, "skeptical": None, "incoherence": None},
        "steer": {"impatience": -1.0, "confusion": None, "skeptical": None, "incoherence": None},
    }
    # no-trait runs leak their impatience too: (0 + 1 + 1 + 1) / 4 and (2 + 1 + 1 + 1) / 4
    assert [run.leakage for run in audit.runs] == [0.75, 1.0, 1.25, 1.0]
    assert [run.trait("impatience").requested for run in audit.runs] == [None, 2, None, 1]
    assert audit.cost == 4.0

"""A τ³ Results file written by τ³ itself (``golden/example_results_banking_bm25.json``)
imports, reports and re-grades to τ³'s rewards on the imported banking domain."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from tautrait_core.testing import cli

DOMAIN = ["--domain", "tau2-banking_knowledge", "--task-set", "tau2:banking_knowledge"]


def test_tau3_results_import_report_and_regrade(
    imported_banking: Path, tau3_reference: Path
) -> None:
    path = tau3_reference / "golden" / "example_results_banking_bm25.json"
    expected = [s["reward_info"]["reward"] for s in json.loads(path.read_text())["simulations"]]
    runner = CliRunner()
    imported = runner.invoke(cli, ["import-results", str(path), *DOMAIN])
    assert imported.exit_code == 0, imported.output
    found = re.search(r"tautrait report (\S+)", imported.output)
    assert found is not None, imported.output
    run_id = found.group(1)
    report = runner.invoke(cli, ["report", run_id, "--json"])
    assert report.exit_code == 0, report.output
    metrics = json.loads(report.output)["metrics"]
    assert (metrics["scored"], metrics["average_reward"]) == (3, sum(expected) / 3)
    rescored = runner.invoke(cli, ["rescore", run_id, "--json"])
    assert rescored.exit_code == 0, rescored.output
    episodes = json.loads(rescored.output)["episodes"]
    assert [e["new_reward"] for e in episodes] == expected
    assert all(e["agrees"] for e in episodes)


def test_a_tampered_tau3_result_regrades_to_zero(
    imported_banking: Path, tau3_reference: Path, tmp_path: Path
) -> None:
    source = tau3_reference / "golden" / "example_results_banking_bm25.json"
    data = json.loads(source.read_text())
    first = data["simulations"][0]
    for message in first["messages"]:  # the customer applies for another card
        for call in message.get("tool_calls") or []:
            if call["name"] == "apply_for_credit_card":
                call["arguments"]["card_type"] = "Silver Rewards Card"
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["rescore", str(path), *DOMAIN, "--json"])
    assert result.exit_code in (0, 1), result.output
    episodes = json.loads(result.output)["episodes"]
    assert [e["new_reward"] for e in episodes] == [0.0, 1.0, 1.0]

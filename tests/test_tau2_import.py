"""``tautrait import tau2 PATH``: τ²-bench's domains become ``tau2:<set>`` task sets of the
``tau2-<domain>`` domains; a folder that is not a checkout, a checkout without the airline
database and a broken task file each get a one-line error naming the fix; ``tautrait check``
reports the imported tasks whose gold actions fail (the tests that need a τ² domain live
with its plugin: tautrait-mock, tautrait-retail)."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from tautrait_core.domain.task_sets import tau2_domain_of, tau2_task_set_name
from tautrait_core.testing import build_tau2_checkout, cli


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_task_set_and_domain_names() -> None:
    assert tau2_task_set_name("telecom", "tasks") == "telecom"
    assert tau2_task_set_name("telecom", "tasks_small") == "telecom-small"
    assert tau2_task_set_name("telecom", "tasks_full") == "telecom-full"
    assert tau2_domain_of("tau2-telecom-workflow") == "telecom"
    assert tau2_domain_of("tau2-mock") == "mock"
    assert tau2_domain_of("retail") is None


def test_not_a_checkout(tautrait_home: Path, tmp_path: Path) -> None:
    result = invoke("import", "tau2", str(tmp_path))
    assert result.exit_code == 1
    assert "does not look like a τ²-bench checkout" in result.output
    assert "data/tau2/domains" in result.output


def test_missing_airline_db_says_how_to_build_it(
    tau2_reference: Path, tautrait_home: Path, tmp_path: Path
) -> None:
    checkout = tmp_path / "ck"
    build_tau2_checkout(tau2_reference, checkout, ["mock"])
    shutil.copytree(tau2_reference / "data" / "airline", checkout / "data/tau2/domains/airline")
    result = invoke("import", "tau2", str(checkout))
    assert result.exit_code == 0, result.output  # the mock domain was imported
    assert "airline: nothing imported" in result.output
    assert "make_airline_db.py" in result.output and "user_id" in result.output
    only_airline = tmp_path / "only-airline"
    shutil.copytree(checkout / "data/tau2/domains/airline", only_airline / "airline")
    failed = invoke("import", "tau2", str(only_airline))
    assert failed.exit_code == 1 and "db.json" in failed.output


def test_bad_task_file_is_named(tau2_reference: Path, tautrait_home: Path, tmp_path: Path) -> None:
    checkout = build_tau2_checkout(tau2_reference, tmp_path / "ck", ["mock"])
    (checkout / "data/tau2/domains/mock/tasks.json").write_text("[{oops")
    result = invoke("import", "tau2", str(checkout))
    assert result.exit_code == 1
    assert "tasks.json" in result.output and "JSON" in result.output

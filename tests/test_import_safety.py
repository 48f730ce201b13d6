"""What an import keeps, and what every file option reads: regular files only (a link in
a checkout would be followed at every run), within a size cap (``/dev/zero`` is no
``--traits-file``), each domain of ``import tau2`` checked on its own (a damaged database
or repeated task ids refuse that domain, never the others), every refusal one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tautrait_core.cli import cli

REPO = Path(__file__).resolve().parents[1]


def tau2_domain(root: Path, name: str, tasks: list[dict] | None = None) -> Path:
    """A τ² domain folder of the checkout at ``root`` with a database and ``tasks``."""
    folder = root.resolve() / "data" / "tau2" / "domains" / name
    folder.mkdir(parents=True)
    (folder / "tasks.json").write_text(json.dumps(tasks or []))
    if name == "telecom":
        (folder / "db.toml").write_text("[plans]\n")
    else:
        (folder / "db.json").write_text("{}")
    (folder / "policy.md").write_text("Be kind.")
    return folder


def task(task_id: str) -> dict:
    return {"id": task_id, "user_scenario": {"instructions": "Ask for help."}}


def import_tau2(checkout: Path) -> Result:
    return CliRunner().invoke(cli, ["import", "tau2", str(checkout)])


def imported(home: Path, domain: str) -> Path:
    return home / "imports" / "tau2" / domain


def test_a_linked_policy_refuses_its_domain_and_is_never_copied(
    isolated_home: Path, tmp_path: Path
) -> None:
    mock = tau2_domain(tmp_path / "ck", "mock")
    tau2_domain(tmp_path / "ck", "retail")
    keys = tmp_path / "keys.json"
    keys.write_text('{"openai": "sk-secret"}')
    (mock / "policy.md").unlink()
    (mock / "policy.md").symlink_to(keys)
    result = import_tau2(tmp_path / "ck")
    assert result.exit_code == 0, result.output
    assert "refused policy.md (a symbolic link)" in result.output
    assert str(mock) in result.output
    assert not imported(isolated_home, "mock").exists()
    assert (imported(isolated_home, "retail") / "policy.md").read_text() == "Be kind."


@pytest.mark.parametrize("kind", ["fifo", "device", "linked folder"])
def test_fifos_devices_and_linked_folders_are_refused_in_one_line(
    isolated_home: Path, tmp_path: Path, kind: str
) -> None:
    mock = tau2_domain(tmp_path / "ck", "mock")
    if kind == "fifo":
        os.mkfifo(mock / "notes")
    elif kind == "device":
        (mock / "tasks.json").unlink()
        (mock / "tasks.json").symlink_to("/dev/zero")
    else:
        (mock / "workflows").symlink_to(tmp_path)
    result = import_tau2(tmp_path / "ck")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {mock}: refused "), result.output
    assert "only regular files are imported" in lines[0]
    assert not imported(isolated_home, "mock").exists()


def test_an_imported_file_over_the_size_cap_is_refused(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mock = tau2_domain(tmp_path / "ck", "mock")
    with (mock / "db.json").open("wb") as sparse:
        sparse.truncate(3 * 1024 * 1024)
    monkeypatch.setenv("TAUTRAIT_MAX_FILE_MB", "2")
    result = import_tau2(tmp_path / "ck")
    assert result.exit_code == 1
    assert result.output.strip() == (
        f"Error: {mock / 'db.json'}: the file is over 2 MB; raise TAUTRAIT_MAX_FILE_MB"
    )


def test_one_bad_domain_leaves_the_others_imported(isolated_home: Path, tmp_path: Path) -> None:
    tau2_domain(tmp_path / "ck", "mock", [task("a")])
    retail = tau2_domain(tmp_path / "ck", "retail")
    telecom = tau2_domain(tmp_path / "ck", "telecom")
    (retail / "db.json").write_text('{"users": ')
    (telecom / "db.toml").write_text("[plans\n")
    result = import_tau2(tmp_path / "ck")
    assert result.exit_code == 0, result.output
    assert "mock: tau2:mock (1 tasks)" in result.output
    assert f"{retail / 'db.json'}: the retail database is not valid JSON" in result.output
    assert f"{telecom / 'db.toml'}: the telecom database is not valid TOML" in result.output
    assert not imported(isolated_home, "retail").exists()
    assert not imported(isolated_home, "telecom").exists()


@pytest.mark.parametrize(
    ("ids", "problem"),
    [
        (["a", "b", "a"], "task ids used more than once: 'a'"),
        (["a", "two\nlines"], "not printable"),
        (["a", "x" * 1001], "over 1000 characters"),
        (["a", " "], "empty"),
    ],
)
def test_task_ids_are_unique_printable_and_bounded(
    isolated_home: Path, tmp_path: Path, ids: list[str], problem: str
) -> None:
    mock = tau2_domain(tmp_path / "ck", "mock", [task(task_id) for task_id in ids])
    result = import_tau2(tmp_path / "ck")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {mock / 'tasks.json'}: task ids")
    assert problem in lines[0]


def tautrait(*args: str, cap_mb: str = "1", cwd: Path) -> subprocess.CompletedProcess:
    """``tautrait ARGS`` in a fresh process with the file size cap at ``cap_mb``."""
    env = {**os.environ, "TAUTRAIT_MAX_FILE_MB": cap_mb, "TAUTRAIT_HOME": str(cwd / "home")}
    return subprocess.run(
        [sys.executable, "-m", "tautrait_core", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )


@pytest.mark.parametrize(
    "args",
    [
        ["run", "--domain", "telehealth", "--agent", "oracle", "--traits-file", "/dev/zero"],
        ["run", "--domain", "telehealth", "--agent", "oracle", "--traits-file", "BIG"],
        ["sweep", "BIG"],
        ["import-results", "BIG", "--domain", "telehealth"],
        ["rescore", "BIG", "--domain", "telehealth"],
    ],
    ids=["traits-file-dev-zero", "traits-file", "sweep", "import-results", "rescore"],
)
def test_every_file_option_stops_at_the_size_cap(tmp_path: Path, args: list[str]) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as sparse:
        sparse.truncate(2 * 1024 * 1024)
    args = [str(big) if arg == "BIG" else arg for arg in args]
    done = tautrait(*args, cwd=tmp_path)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.splitlines()
    named = "/dev/zero" if "/dev/zero" in args else str(big)
    assert len(lines) == 1 and lines[0].startswith(f"Error: {named}: "), done.stderr
    assert lines[0].endswith("is over 1 MB; raise TAUTRAIT_MAX_FILE_MB")


def test_a_cap_that_is_not_a_number_is_one_line(tmp_path: Path) -> None:
    traits = tmp_path / "traits.json"
    traits.write_text('{"impatience": "high"}')
    done = tautrait(
        "run", "--domain", "telehealth", "--traits-file", str(traits), cap_mb="lots", cwd=tmp_path
    )
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "Error: TAUTRAIT_MAX_FILE_MB='lots' is not a number of megabytes; "
        "set it to e.g. 1024, or unset it"
    )

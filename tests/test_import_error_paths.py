"""``tautrait import``: a bad or missing file of the user's checkout is one ``Error:`` line
that names that file where the user keeps it (never the copy being built under the data
directory, which is gone by then) and says what to do; the previous import stays."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tautrait_core import UpstreamCodec, hookimpl
from tautrait_core.cli import cli
from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager


class ToyCodec(UpstreamCodec):
    """Upstream data of the toy library: ``members.json`` and ``books.json``."""

    domain = "toyup"
    collections = ("members", "books")

    def rows(self, data: Mapping[str, Any]) -> Iterator[Any]:
        from tests.plugins import toy_library

        yield from toy_library.seed_rows()

    def export(self, db: Any) -> dict[str, Any]:
        return {}


class ToyUpstreamPlugin:
    @hookimpl
    def register_domains(self, register: Any) -> None:
        from tests.plugins import toy_library

        domain = toy_library.build_domain()
        register(dataclasses.replace(domain, name="toyup", upstream=ToyCodec()))


@pytest.fixture
def toy_upstream() -> Iterator[None]:
    """The toy library registered as a domain that reads upstream tau-trait data."""
    reset_plugin_manager()
    get_plugin_manager().register(ToyUpstreamPlugin(), name="toyup")
    try:
        yield
    finally:
        get_plugin_manager().unregister("toyup")
        reset_plugin_manager()


def tau_trait_checkout(root: Path) -> Path:
    """A tau-trait checkout with the toy domain's data and one task; its data folder."""
    domain = root.resolve() / "tau_trait" / "envs" / "toyup"
    (domain / "data").mkdir(parents=True)
    (domain / "data" / "members.json").write_text("{}")
    (domain / "data" / "books.json").write_text("{}")
    (domain / "tasks_test.py").write_text(
        'TASKS = [Task(user_id="ann_1", instruction="Borrow Dune.", actions=[], outputs=[])]'
    )
    return domain / "data"


def tau2_checkout(root: Path) -> Path:
    """A τ²-bench checkout with a mock domain of no tasks; its mock folder."""
    mock = root.resolve() / "data" / "tau2" / "domains" / "mock"
    mock.mkdir(parents=True)
    (mock / "tasks.json").write_text("[]")
    (mock / "db.json").write_text("{}")
    return mock


def one_error_line(result: Result, home: Path) -> str:
    """The command failed with one ``Error:`` line that names nothing under ``home``."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert str(home) not in lines[0], lines[0]
    assert "Traceback" not in result.output
    return lines[0]


def no_staging_left(home: Path, source: str) -> None:
    folder = home / "imports" / source
    assert not folder.exists() or not any(folder.iterdir()), list(folder.iterdir())


DAMAGE = {
    "not-utf8": (b"\xff", "is not UTF-8 text"),
    "not-json": (b'{"ann_1": ', "is not valid JSON"),
    "empty": (b"", "is empty"),
}


@pytest.mark.parametrize("case", list(DAMAGE))
def test_tau_trait_names_the_damaged_data_file_of_the_checkout(
    toy_upstream: None, isolated_home: Path, tmp_path: Path, case: str
) -> None:
    data = tau_trait_checkout(tmp_path / "checkout")
    content, problem = DAMAGE[case]
    (data / "books.json").write_bytes(content)
    result = CliRunner().invoke(cli, ["import", "tau-trait", str(tmp_path / "checkout")])
    line = one_error_line(result, isolated_home)
    assert line.startswith(f"Error: {data / 'books.json'}: the toyup data file {problem}")
    assert "fresh clone of tau-trait" in line
    no_staging_left(isolated_home, "tau-trait")


def test_tau_trait_names_the_missing_data_file_of_the_checkout(
    toy_upstream: None, isolated_home: Path, tmp_path: Path
) -> None:
    data = tau_trait_checkout(tmp_path / "checkout")
    (data / "books.json").unlink()
    result = CliRunner().invoke(cli, ["import", "tau-trait", str(tmp_path / "checkout")])
    line = one_error_line(result, isolated_home)
    assert f"{data / 'books.json'} is missing" in line
    assert "fresh clone of tau-trait" in line
    no_staging_left(isolated_home, "tau-trait")


def test_a_failed_tau_trait_import_keeps_the_previous_one(
    toy_upstream: None, isolated_home: Path, tmp_path: Path
) -> None:
    data = tau_trait_checkout(tmp_path / "checkout")
    first = CliRunner().invoke(cli, ["import", "tau-trait", str(tmp_path / "checkout")])
    assert first.exit_code == 0, first.output
    (data / "members.json").write_bytes(b"\xff")
    failed = CliRunner().invoke(cli, ["import", "tau-trait", str(tmp_path / "checkout")])
    assert str(data / "members.json") in one_error_line(failed, isolated_home)
    imported = isolated_home / "imports" / "tau-trait"
    assert [path.name for path in imported.iterdir()] == ["toyup"]
    assert (imported / "toyup" / "tasks_test.json").is_file()


@pytest.mark.parametrize("case", list(DAMAGE))
def test_tau2_names_the_damaged_database_of_the_checkout(
    isolated_home: Path, tmp_path: Path, case: str
) -> None:
    mock = tau2_checkout(tmp_path / "checkout")
    content, problem = DAMAGE[case]
    (mock / "db.json").write_bytes(content)
    result = CliRunner().invoke(cli, ["import", "tau2", str(tmp_path / "checkout")])
    line = one_error_line(result, isolated_home)
    assert line.startswith(f"Error: {mock / 'db.json'}: the mock database {problem}")
    assert "fresh clone of τ²-bench" in line
    no_staging_left(isolated_home, "tau2")


def test_tau2_names_the_missing_database_of_the_checkout(
    isolated_home: Path, tmp_path: Path
) -> None:
    mock = tau2_checkout(tmp_path / "checkout")
    (mock / "db.json").unlink()
    result = CliRunner().invoke(cli, ["import", "tau2", str(tmp_path / "checkout")])
    line = one_error_line(result, isolated_home)
    assert f"{mock / 'db.json'} is missing" in line
    no_staging_left(isolated_home, "tau2")


def test_tau_trait_refuses_a_linked_data_file_and_keeps_the_previous_import(
    toy_upstream: None, isolated_home: Path, tmp_path: Path
) -> None:
    data = tau_trait_checkout(tmp_path / "checkout")
    first = CliRunner().invoke(cli, ["import", "tau-trait", str(tmp_path / "checkout")])
    assert first.exit_code == 0, first.output
    (tmp_path / "keys.json").write_text("{}")
    (data / "books.json").unlink()
    (data / "books.json").symlink_to(tmp_path / "keys.json")
    failed = CliRunner().invoke(cli, ["import", "tau-trait", str(tmp_path / "checkout")])
    line = one_error_line(failed, isolated_home)
    assert line.startswith(f"Error: {data}: refused books.json (a symbolic link)")
    copied = isolated_home / "imports" / "tau-trait" / "toyup" / "data" / "books.json"
    assert not copied.is_symlink() and copied.read_text() == "{}"


@pytest.mark.parametrize(
    "command",
    [["check"], ["run", "--agent", "oracle"]],
    ids=["check", "run"],
)
def test_imported_data_damaged_since_is_one_line_naming_it(
    toy_upstream: None, isolated_home: Path, tmp_path: Path, command: list[str]
) -> None:
    tau_trait_checkout(tmp_path / "checkout")
    first = CliRunner().invoke(cli, ["import", "tau-trait", str(tmp_path / "checkout")])
    assert first.exit_code == 0, first.output
    books = isolated_home / "imports" / "tau-trait" / "toyup" / "data" / "books.json"
    books.write_text('{"dune": ')
    result = CliRunner().invoke(
        cli,
        [*command, "--domain", "toyup", "--task-set", "tau-trait:test"]
        + ["--results-db", str(tmp_path / "results.db")] * (command[0] == "run"),
    )
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert lines == [
        f"Error: {books}: the toyup data file is not valid JSON (line 1 column 10); "
        "import it again: tautrait import tau-trait PATH_TO_CHECKOUT"
    ], result.output


def test_an_import_that_got_nothing_says_why_each_domain_failed(tmp_path: Path) -> None:
    from tautrait_core.compat.import_folders import DomainImportReport, check_something_imported
    from tautrait_core.errors import UpstreamImportError

    def report(domain: str, *problems: str) -> DomainImportReport:
        return DomainImportReport(domain, tmp_path / domain, problems=list(problems))

    def imported(item: DomainImportReport) -> bool:
        return not item.problems

    with pytest.raises(UpstreamImportError, match=r"^a\.json is damaged$"):
        check_something_imported(tmp_path, [report("a", "a.json is damaged")], imported)
    both = [report("a", "a.json is damaged"), report("b", "b.json is missing")]
    with pytest.raises(UpstreamImportError) as raised:
        check_something_imported(tmp_path, both, imported)
    assert str(raised.value) == (
        f"{tmp_path}: nothing imported: a.json is damaged; b.json is missing"
    )
    check_something_imported(tmp_path, [*both, report("c")], imported)  # c was imported

"""A file option or importer handed a file that is not UTF-8 or is cut short: one line
within 80 columns that names the file as given and what is wrong with it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli

DAMAGED = {
    "binary": (b"\xff\xfe\x00bad", "is not UTF-8 text"),
    "truncated": (b'[{"task_id": 0, "reward": 1.0, "info": {"task": {"instruction": "Borr', "JSON"),
}
MODEL = ("--agent-model", "openai/x", "--agent-api-base", "http://127.0.0.1:9/v1")
COMMANDS = {
    "traits-file": (("run", "--domain", "toylib", "--agent", "oracle", "--traits-file"), ""),
    "few-shot-file": (
        ("run", "--domain", "toylib", "--agent", "few-shot", *MODEL, "--few-shot-file"),
        "--user scripted",
    ),
    "import-results": (("import-results",), "--domain toylib"),
    "rescore": (("rescore",), ""),  # no --domain: the damage is said, not the domain
    "rescore --domain": (("rescore",), "--domain toylib"),
}


@pytest.mark.parametrize("damage", DAMAGED)
@pytest.mark.parametrize("command", COMMANDS)
def test_a_damaged_file_is_one_short_line_naming_it(
    toy_plugin: object,
    isolated_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    damage: str,
    command: str,
) -> None:
    content, problem = DAMAGED[damage]
    monkeypatch.chdir(tmp_path)
    Path("results.json").write_bytes(content)
    head, tail = COMMANDS[command]
    result = CliRunner().invoke(cli, [*head, "results.json", *tail.split()])
    assert result.exit_code == 1
    [line] = result.output.strip().splitlines()
    assert line.startswith(("Error: results.json", "Error: few-shot file results.json "))
    assert problem in line and (damage == "binary" or "column" in line)
    assert len(line) <= 80, line

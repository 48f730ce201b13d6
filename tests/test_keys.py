"""API keys: checked before a run, stored with mode 0600, never stored in results."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.config.run_config import RunConfig
from tautrait_core.errors import ConfigError
from tautrait_core.run.prepared import prepare
from tautrait_core.scripted.scripts import GoldScript
from tautrait_core.scripted.server import ScriptedModelServer, reply_text

PLANTED = "sk-planted-secret-0123456789abcdef"


@pytest.fixture
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def test_missing_key_fails_before_the_run_naming_the_variable_and_keys_set(
    toy_plugin, no_keys
) -> None:
    """In 80 columns: one line where the model's name leaves room, else the command on a
    line of its own (was 169 columns)."""
    runner = CliRunner(env={"COLUMNS": "80"})
    agent_side = ["run", "--domain", "toylib", "--agent", "tool-calling", "--agent-model"]
    result = runner.invoke(cli, [*agent_side, "gpt-4o", "--user", "scripted"])
    assert result.exit_code == 1
    assert result.output == (
        "Error: agent model gpt-4o needs OPENAI_API_KEY: tautrait keys set OPENAI_API_KEY\n"
    )
    user_side = ["run", "--domain", "toylib", "--agent", "oracle", "--user", "llm"]
    result = runner.invoke(
        cli, [*user_side, "--user-model", "anthropic/claude-3-5-sonnet-20240620"]
    )
    assert result.exit_code == 1
    assert result.output == (
        "Error: user model anthropic/claude-3-5-sonnet-20240620 needs ANTHROPIC_API_KEY:\n"
        "  tautrait keys set ANTHROPIC_API_KEY\n"
    )


def test_stored_key_satisfies_the_check_and_is_private(
    toy_plugin, no_keys, isolated_home, monkeypatch
) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["keys", "set", "OPENAI_API_KEY"], input=PLANTED + "\n")
    assert result.exit_code == 0, result.output
    assert PLANTED not in result.output
    path = isolated_home / "keys.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    listing = runner.invoke(cli, ["keys", "list", "--json"])
    assert json.loads(listing.output) == [
        {"name": "OPENAI_API_KEY", "overridden_by_environment": False, "servers": []}
    ]
    prepare(RunConfig(domain="toylib", agent="tool-calling", agent_model="gpt-4o", user="scripted"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)  # prepare exported it for this process
    assert runner.invoke(cli, ["keys", "remove", "OPENAI_API_KEY"]).exit_code == 0
    with pytest.raises(ConfigError):
        prepare(
            RunConfig(domain="toylib", agent="tool-calling", agent_model="gpt-4o", user="scripted")
        )


def test_bad_key_names_are_rejected() -> None:
    result = CliRunner().invoke(cli, ["keys", "set", "openai key", "--value", "x" * 20])
    assert result.exit_code != 0 and "invalid key name" in result.output


def test_a_planted_key_never_reaches_stored_bytes(
    toy_plugin, isolated_home, monkeypatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", PLANTED)
    script = GoldScript(toy_plugin.TASKS)

    def leaky(request: dict) -> object:
        """The agent's final answers quote the key, as a misbehaving provider might."""
        answer = script(request)
        if answer.content and request.get("tools"):
            return reply_text(answer.content + f" (my key is {PLANTED})")
        return answer

    runner = CliRunner()
    with ScriptedModelServer(leaky) as server:
        result = runner.invoke(
            cli,
            [
                "run",
                "--domain",
                "toylib",
                "--agent",
                "tool-calling",
                "--agent-model",
                "openai/scripted",
                "--agent-api-base",
                server.base_url,
                "--user",
                "llm",
                "--user-model",
                "openai/scripted",
                "--user-api-base",
                server.base_url,
                "--cache",
                "--name",
                f"run {PLANTED}",
            ],
        )
    assert result.exit_code == 0, result.output
    assert "Average reward: 1.000" in result.output
    export = tmp_path / "export.json"
    outputs = [
        result.output,
        runner.invoke(cli, ["report", "latest", "--json"]).output,
        runner.invoke(cli, ["runs", "list", "--json"]).output,
        runner.invoke(cli, ["export", "latest", "-o", str(export)]).output,
    ]
    stored = [p for p in isolated_home.rglob("*") if p.is_file() and p.name != "keys.json"] + [
        export
    ]
    assert any(p.name == "results.db" for p in stored) and any("cache" in p.name for p in stored)
    for path in stored:
        assert PLANTED.encode() not in path.read_bytes(), path
    for text in outputs:
        assert PLANTED not in text
    assert "[redacted]" in export.read_text()


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b'{"OPENAI_API_KEY": "sk-trunc', "is not valid JSON"),
        (b"", "is empty"),
        (b'{"OPENAI_API_KEY": "\xff"}', "is not UTF-8 text"),
        (b'["OPENAI_API_KEY"]', "not a JSON object of key names and values"),
        (b'{"OPENAI_API_KEY": 5}', "not a JSON object of key names and values"),
    ],
)
def test_a_damaged_keys_file_is_one_line_naming_it_and_the_fix(
    toy_plugin, no_keys, isolated_home, content: bytes, problem: str
) -> None:
    isolated_home.mkdir(parents=True, exist_ok=True)
    path = isolated_home / "keys.json"
    path.write_bytes(content)
    runner = CliRunner()
    commands = [
        ["keys", "list"],
        ["keys", "remove", "OPENAI_API_KEY"],
        ["keys", "set", "OPENAI_API_KEY", "--value", PLANTED],
        ["run", "--domain", "toylib", "--agent", "tool-calling", "--agent-model", "gpt-4o"],
    ]
    for command in commands:
        result = runner.invoke(cli, command)
        assert result.exit_code == 1, (command, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"Error: {path}: "), lines
        assert problem in lines[0] and "tautrait keys set NAME" in lines[0], lines[0]
    assert path.read_bytes() == content


def test_a_damaged_keys_file_does_not_stop_an_offline_run(toy_plugin, isolated_home) -> None:
    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / "keys.json").write_text('{"OPENAI_API_KEY": "sk-trunc')
    result = CliRunner().invoke(cli, ["run", "--domain", "toylib", "--agent", "oracle"])
    assert result.exit_code == 0, result.output


def test_a_damaged_keys_file_does_not_stop_a_run_on_a_local_server(
    toy_plugin, no_keys, isolated_home
) -> None:
    isolated_home.mkdir(parents=True, exist_ok=True)
    (isolated_home / "keys.json").write_text('{"OPENAI_API_KEY": "sk-trunc')
    with ScriptedModelServer(GoldScript(toy_plugin.TASKS, ["transfer_to_librarian"])) as server:
        run = [
            *["run", "--domain", "toylib", "--task-ids", "0"],
            *["--agent", "tool-calling", "--agent-model", "openai/scripted"],
            *["--agent-api-base", server.base_url, "--user", "llm"],
            *["--user-model", "openai/scripted", "--user-api-base", server.base_url],
        ]
        result = CliRunner().invoke(cli, run)
    assert result.exit_code == 0, result.output
    assert "pass^1: 1.000" in result.output

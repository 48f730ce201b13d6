"""A few-shot file that is not UTF-8 (or too deeply nested) is one error naming the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.builtin.agents.few_shot import FewShotAgent, load_demonstrations
from tautrait_core.cli import cli
from tautrait_core.config.run_config import RunConfig
from tautrait_core.errors import ConfigError


def check(path: Path) -> str:
    with pytest.raises(ConfigError) as caught:
        FewShotAgent.check_config(RunConfig(agent="few-shot", few_shot_file=str(path)))
    return str(caught.value)


def test_a_few_shot_file_that_is_not_utf8_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"messages_display": "caf\xe9"}\n')
    message = check(path)
    assert str(path) in message and "not UTF-8" in message
    assert "--few-shot-file" in message and "\n" not in message


def test_a_too_deeply_nested_few_shot_line_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text('{"messages_display": "a"}\n' + "[" * 100_000 + "\n")
    assert "line 2: nested too deeply" in check(path)


def test_utf8_with_a_byte_order_mark_and_windows_newlines_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "windows.jsonl"
    path.write_bytes(
        '\ufeff{"messages_display": "café"}\r\n{"messages_display": "a\u2028b"}\r\n'.encode()
    )
    assert load_demonstrations(path) == ["café", "a\u2028b"]


def test_the_command_line_reports_a_non_utf8_few_shot_file_without_a_traceback(
    toy_plugin: object, tmp_path: Path
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'[{"messages_display": "a\xff"}]')
    result = CliRunner().invoke(
        cli,
        [
            "run",
            "--domain",
            "toylib",
            "--agent",
            "few-shot",
            "--agent-model",
            "openai/x",
            "--agent-api-base",
            "http://127.0.0.1:9/v1",
            "--user",
            "scripted",
            "--task-ids",
            "0",
            "--few-shot-file",
            str(path),
        ],
    )
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"Error: {path}: the --few-shot-file is not UTF-8 text" in result.output

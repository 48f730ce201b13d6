"""Every command's typical output, help included, fits an 80-column terminal.

Each core command (the ones a future change adds too) has typical invocations in
:data:`TYPICAL`, run as a user runs them, in a subprocess with ``COLUMNS=80``, against a
results database of a few offline runs, a sweep and a scripted judge; a command without
an entry fails the test until one is added (or, for a command that only waits for a person
or serves until stopped, a reason in :data:`NOT_RUN`).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import click
import pytest

from tautrait_core.cli import cli
from tautrait_core.scripted.server import ScriptedModelServer
from tests.distributions import run_tautrait, toy_site

COLUMNS = 80
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

TYPICAL: dict[str, list[list[str]]] = {
    "tautrait": [["--help"]],
    "tautrait cache": [["cache", "--help"]],
    "tautrait cache info": [["cache", "info"]],
    "tautrait cache clear": [["cache", "clear", "--yes"]],
    "tautrait check": [["check", "--domain", "toylib"]],
    "tautrait compare": [["compare", "{base}", "{impatient}", "{mixed}"], ["compare", "grid"]],
    "tautrait diagnose": [["diagnose", "{base}", "--model", "openai/judge", "--api-base", "{url}"]],
    "tautrait domain": [["domain", "toylib"], ["domain", "--help"]],
    "tautrait export": [
        ["export", "{base}", "-o", "{tmp}/base.json"],
        ["export", "{base}", "{impatient}", "--format", "preference"],
    ],
    "tautrait import": [["import", "tau2", "{tmp}/tau2"]],
    "tautrait import-results": [
        ["import-results", "{tmp}/base.json", "--domain", "toylib", "--traits", "none"]
    ],
    "tautrait keys": [["keys", "--help"]],
    "tautrait keys set": [["keys", "set", "OPENAI_API_KEY", "--value", "sk-test"]],
    "tautrait keys list": [["keys", "list"]],
    "tautrait keys path": [["keys", "path"]],
    "tautrait keys remove": [["keys", "remove", "OPENAI_API_KEY"]],
    "tautrait new": [["new", "domain", "clinic", "--dir", "{tmp}/new"]],
    "tautrait plugins": [["plugins"]],
    "tautrait report": [["report", "{base}", "{mixed}"], ["report", "grid"]],
    "tautrait rescore": [["rescore", "{mixed}"]],
    "tautrait run": [
        [
            "run",
            "--domain",
            "toylib",
            "--agent",
            "oracle",
            "--num-trials",
            "2",
            "--traits",
            "impatience=high,confusion=low,skeptical=medium",
            "--name",
            "a-run-with-a-rather-long-name",
        ]
    ],
    "tautrait runs": [["runs", "--help"]],
    "tautrait runs list": [["runs", "list"], ["runs", "list", "--domain", "toylib"]],
    "tautrait runs delete": [["runs", "delete", "{doomed}", "--yes"]],
    "tautrait show": [["show", "{mixed}", "--task", "0"]],
    "tautrait sweep": [["sweep", "{tmp}/grid.toml", "--dry-run"], ["sweep", "{tmp}/grid.toml"]],
    "tautrait tasks": [
        ["tasks", "--domain", "toylib"],
        ["tasks", "--domain", "toylib", "--task-set", "test"],
    ],
    "tautrait traits": [["traits", "--help"]],
    "tautrait traits audit": [
        [
            "traits",
            "audit",
            "{base}",
            "{impatient}",
            "--judge-model",
            "openai/judge",
            "--judge-api-base",
            "{url}",
        ]
    ],
}
"""Each command, by its path, and its typical invocations; ``{name}`` fields are filled
in from the prepared runs and files."""

NOT_RUN = {
    "tautrait play": "waits for a person to type one side (its help is checked)",
    "tautrait serve-scripted": "serves until stopped (its help is checked)",
    "tautrait view": "waits for keys at a terminal (tests/test_view.py reads it in tmux)",
}
"""Commands whose output is not run here, with why."""


def command_paths(command: click.Command, ctx: click.Context) -> list[tuple[str, str]]:
    """``(command path, help text)`` of ``command`` and every visible command under it."""
    pages = [(ctx.command_path, command.get_help(ctx))]
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                sub_ctx = click.Context(sub, info_name=name, parent=ctx, **sub.context_settings)
                pages.extend(command_paths(sub, sub_ctx))
    return pages


def judge(request: dict[str, Any]) -> str:
    """The scripted judge: every trait rated 1, every failure blamed on the agent."""
    if "impatience" in json.dumps(request["messages"]):
        ratings = {trait: {"rating": 1, "reason": "some"} for trait in ("impatience", "confusion")}
        return json.dumps({**ratings, "skeptical": 0, "incoherence": 0})
    return '{"fault": "agent", "fault_type": "other", "explanation": "It went wrong."}'


def prepared_fields(site: Path, env: dict[str, str], tmp: Path, url: str) -> dict[str, str]:
    """Runs, a sweep and files for the typical invocations; the fields they fill in."""

    def new_run(*options: str) -> str:
        arguments = ["run", "--domain", "toylib", "--agent", "oracle", "--json", *options]
        done = run_tautrait(site, *arguments, **env)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)["run_id"]

    fields = {
        "base": new_run("--num-trials", "2"),
        "impatient": new_run("--num-trials", "2", "--traits", "impatience=high"),
        "mixed": new_run("--num-trials", "2", "--traits", "confusion=high,skeptical=low"),
        "doomed": new_run(),
        "tmp": str(tmp),
        "url": url,
    }
    (tmp / "grid.toml").write_text(
        "name = 'grid'\n[base]\ndomain = 'toylib'\nagent = 'oracle'\n"
        "[grid]\ntraits = ['', 'impatience=high', 'incoherence=low,confusion=medium']\n"
    )
    swept = run_tautrait(site, "sweep", str(tmp / "grid.toml"), **env)
    assert swept.returncode == 0, swept.stderr
    mock = tmp / "tau2" / "data" / "tau2" / "domains" / "mock"
    mock.mkdir(parents=True)
    task = {"id": "0", "user_scenario": {"instructions": "Hi."}, "evaluation_criteria": {}}
    (mock / "tasks.json").write_text(json.dumps([task]))
    (mock / "db.json").write_text("{}")
    return fields


def too_wide(text: str, tmp: Path) -> list[str]:
    """The lines of ``text`` wider than the terminal (a path under ``tmp`` counted as a
    short one; a line of one token, a URL or path, cannot be broken)."""
    lines = ANSI.sub("", text.replace(str(tmp), "/tmp/x")).replace("\r", "\n").splitlines()
    return [line for line in lines if len(line) > COLUMNS and len(line.split()) > 1]


@pytest.fixture
def core_cli(monkeypatch: pytest.MonkeyPatch) -> click.Group:
    monkeypatch.setenv("COLUMNS", str(COLUMNS))
    return cli


def test_every_command_fits_80_columns(core_cli: click.Group, tmp_path: Path) -> None:
    root = click.Context(core_cli, info_name="tautrait", **core_cli.context_settings)
    pages = command_paths(core_cli, root)
    problems = [
        f"{path} --help: {line!r}" for path, text in pages for line in too_wide(text, tmp_path)
    ]
    missing = {path for path, _ in pages} - set(TYPICAL) - set(NOT_RUN)
    assert not missing, f"add typical invocations of {sorted(missing)} to TYPICAL"

    site = toy_site(tmp_path / "site")
    env = {
        "TAUTRAIT_HOME": str(tmp_path / "home"),
        "TAUTRAIT_LOAD_PLUGINS": "toylib",
        "COLUMNS": str(COLUMNS),
    }
    with ScriptedModelServer(judge) as server:
        fields = prepared_fields(site, env, tmp_path, server.base_url)
        for path, invocations in TYPICAL.items():
            for invocation in invocations:
                arguments = [argument.format(**fields) for argument in invocation]
                done: subprocess.CompletedProcess[str] = run_tautrait(site, *arguments, **env)
                assert done.returncode == 0, f"{path}: {done.stderr}"
                problems += [
                    f"{' '.join(invocation)}: {line!r}"
                    for line in too_wide(done.stdout + done.stderr, tmp_path)
                ]
    assert not problems, "\n".join(problems)

"""Ctrl-C in any command (not only ``run`` and ``sweep``) ends it with one line,
``Interrupted.``, and exit status 130, never click's ``Aborted!`` and status 1."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import click
import pytest

from tests.distributions import run_tautrait, running_tautrait, toy_site


def interrupted(
    site: Path, home: dict[str, str], arguments: list[str], ready: Callable[[], bool]
) -> subprocess.CompletedProcess[str]:
    """Start ``tautrait ARGUMENTS``, send SIGINT once ``ready()`` holds, and wait for it."""
    with running_tautrait(site, home, arguments, ready) as process:
        time.sleep(0.5)  # the command is blocked where it waits
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    return subprocess.CompletedProcess(arguments, process.returncode, stdout, stderr)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return toy_site(tmp_path / "site")


@pytest.fixture
def home(tmp_path: Path) -> dict[str, str]:
    return {"TAUTRAIT_HOME": str(tmp_path / "home"), "TAUTRAIT_LOAD_PLUGINS": "toylib"}


@pytest.fixture
def silent_server() -> Iterator[tuple[str, list[socket.socket]]]:
    """A loopback server that accepts connections and never answers: its URL, and the
    connections accepted so far."""
    listener = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                accepted.append(listener.accept()[0])
            except OSError:  # closed
                return

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1", accepted
    finally:
        listener.close()
        for connection in accepted:
            connection.close()


def test_ctrl_c_while_a_command_reads_its_file(
    site: Path, home: dict[str, str], tmp_path: Path
) -> None:
    fifo = tmp_path / "results.json"
    os.mkfifo(fifo)  # reading it waits for data that never comes
    writer: list[int] = []

    def reading() -> bool:
        """Whether the command has opened the file (then it waits for its data)."""
        try:
            writer.append(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:  # no reader yet
            return False
        return True

    try:
        done = interrupted(site, home, ["import-results", str(fifo)], reading)
    finally:
        for descriptor in writer:
            os.close(descriptor)

    assert (done.returncode, done.stderr, done.stdout) == (130, "Interrupted.\n", "")


def test_ctrl_c_while_a_judge_model_is_asked(
    site: Path, home: dict[str, str], silent_server: tuple[str, list[socket.socket]]
) -> None:
    url, accepted = silent_server
    ran = run_tautrait(site, "run", "--domain", "toylib", "--agent", "oracle", **home)
    assert ran.returncode == 0, ran.stderr
    audit = ["traits", "audit", "latest", "--judge-model", "openai/judge"]

    done = interrupted(site, home, [*audit, "--judge-api-base", url], lambda: bool(accepted))

    assert (done.returncode, done.stderr, done.stdout) == (130, "Interrupted.\n", "")


def _ctrl_c_at_the_question(*args: object, **kwargs: object) -> bool:
    """``click.confirm`` when the person presses Ctrl-C: it raises ``Abort`` while
    handling the ``KeyboardInterrupt``, as click does."""
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt:
        raise click.exceptions.Abort() from None


def test_ctrl_c_at_a_question_is_interrupted_and_no_is_still_aborted(
    toy_plugin, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``runs delete`` asks first: Ctrl-C there ends with ``Interrupted.`` and 130 (was
    click's ``Aborted!`` and 1), while answering no keeps click's ``Aborted!``."""
    from click.testing import CliRunner

    from tautrait_core.cli import cli

    runner = CliRunner()
    assert runner.invoke(cli, ["run", "--domain", "toylib", "--agent", "oracle"]).exit_code == 0
    refused = runner.invoke(cli, ["runs", "delete", "latest"], input="n\n")
    assert refused.exit_code == 1 and refused.output.endswith("Aborted!\n")
    monkeypatch.setattr(click, "confirm", _ctrl_c_at_the_question)
    interrupted = runner.invoke(cli, ["runs", "delete", "latest"])
    assert interrupted.exit_code == 130, interrupted.output
    assert interrupted.output.endswith("Interrupted.\n") and "Aborted" not in interrupted.output

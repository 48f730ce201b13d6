"""``tautrait serve-scripted`` (the scripted model server for people) and ``tautrait cache``."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.scripted.loopback import JSONRequestHandler, LoopbackHTTPServer
from tautrait_core.scripted.scripts import StrategyScript
from tautrait_core.scripted.server import ScriptedModelServer

ROOT = Path(__file__).resolve().parents[1]
SERVE_TOY = (
    "from tautrait_core.plugins import get_plugin_manager\n"
    "from tests.plugins import toy_library\n"
    "get_plugin_manager().register(toy_library, name='toy_library')\n"
    "from tautrait_core.cli import main\n"
    "main(['serve-scripted', '--domain', 'toylib', '--port', '0'])\n"
)


def model_run(base_url: str, *extra: str) -> list[str]:
    return [
        "run",
        "--domain",
        "toylib",
        "--agent",
        "tool-calling",
        "--agent-model",
        "openai/scripted",
        "--agent-api-base",
        base_url,
        "--user",
        "llm",
        "--user-model",
        "openai/scripted",
        "--user-api-base",
        base_url,
        *extra,
    ]


@pytest.fixture
def served(isolated_home: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``tautrait serve-scripted --domain toylib`` in its own process, and its base URL."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE_TOY],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        found = re.search(r"(http://[\d.]+:\d+/v1)", first)
        assert found, first + process.stdout.read()
        yield process, found.group(1)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


def test_serve_scripted_plays_whole_episodes_on_loopback_and_stops_on_ctrl_c(
    toy_plugin, served: tuple[subprocess.Popen[str], str]
) -> None:
    process, base_url = served
    assert base_url.startswith("http://127.0.0.1:")
    result = CliRunner().invoke(cli, model_run(base_url, "--num-trials", "2"))
    assert result.exit_code == 0, result.output
    assert "Average reward: 1.000" in result.output
    process.send_signal(signal.SIGINT)
    remaining, _ = process.communicate(timeout=30)
    assert process.returncode == 0, remaining
    assert "Stopped after" in remaining and "Traceback" not in remaining


def test_serve_scripted_says_where_it_listens_in_80_columns(
    served: tuple[subprocess.Popen[str], str],
) -> None:
    """Its start-up lines break between fields, never inside the URL or the options to use
    (were 95 and 118 columns)."""
    process, base_url = served
    assert process.stdout is not None
    # read on the same buffered stream as the first line (communicate() would read the
    # pipe itself and miss what that stream already buffered)
    started = [process.stdout.readline().rstrip("\n") for _ in range(3)]
    process.send_signal(signal.SIGINT)
    stopped = process.stdout.read().splitlines()
    process.wait(timeout=30)
    lines = [f"Scripted model server on {base_url}", *started, *stopped]
    assert lines[:4] == [
        f"Scripted model server on {base_url}",
        "Playing toylib tasks. Stop it with Ctrl-C.",
        "Use it with any model name under openai/, e.g.",
        f"  --agent-model openai/scripted --agent-api-base {base_url}",
    ]
    assert max(len(line) for line in lines) <= 80


def test_the_scripted_server_queues_hundreds_of_clients_connecting_at_once() -> None:
    """A run at concurrency 256 opens its connections all at once. With the default listen
    queue of 5, the kernel dropped the connections beyond it and each client waited for its
    SYN retry (1, 3, 7, ... s): an episode now and then stalled for a minute or more."""
    server = LoopbackHTTPServer(("127.0.0.1", 0), JSONRequestHandler)  # listens, accepts none
    clients: list[socket.socket] = []
    try:
        for _ in range(300):
            clients.append(socket.create_connection(server.server_address[:2], timeout=0.5))
    finally:
        for client in clients:
            client.close()
        server.server_close()
    assert len(clients) == 300


def test_serve_scripted_help_says_how_to_use_it() -> None:
    text = CliRunner().invoke(cli, ["serve-scripted", "--help"]).output
    assert "127.0.0.1" in text and "Ctrl-C" in text and "--agent-api-base" in text


def test_the_episode_script_answers_a_diagnosis_request(toy_plugin) -> None:
    from tautrait_core.analysis.diagnose import SYSTEM_PROMPT, parse_diagnosis

    script = StrategyScript(toy_plugin.TASKS)
    reply = script({"messages": [{"role": "system", "content": SYSTEM_PROMPT}]})
    assert parse_diagnosis(reply.content).fault == "agent"


def test_the_episode_script_answers_a_trait_rating_request(toy_plugin) -> None:
    """So ``tautrait traits audit`` can be tried against ``tautrait serve-scripted``."""
    from tautrait_core.analysis.trait_rating import SYSTEM_PROMPT, parse_trait_ratings

    script = StrategyScript(toy_plugin.TASKS)
    reply = script({"messages": [{"role": "system", "content": SYSTEM_PROMPT}]})
    ratings = parse_trait_ratings(reply.content)
    assert {trait: rating.rating for trait, rating in ratings.items()} == {
        "impatience": 0,
        "confusion": 0,
        "skeptical": 0,
        "incoherence": 0,
    }


def test_cache_info_and_clear(toy_plugin, isolated_home: Path) -> None:
    from tautrait_core.scripted.scripts import GoldScript

    runner = CliRunner()
    empty = json.loads(runner.invoke(cli, ["cache", "info", "--json"]).output)
    assert empty == {"path": str(isolated_home / "response-cache.db"), "entries": 0}
    with ScriptedModelServer(GoldScript(toy_plugin.TASKS, ["transfer_to_librarian"])) as server:
        assert runner.invoke(cli, model_run(server.base_url, "--cache")).exit_code == 0
        calls = len(server.requests)
        info = json.loads(runner.invoke(cli, ["cache", "info", "--json"]).output)
        assert info["entries"] == calls > 0
        declined = runner.invoke(cli, ["cache", "clear"], input="n\n")
        assert declined.exit_code != 0
        assert json.loads(runner.invoke(cli, ["cache", "info", "--json"]).output) == info
        cleared = runner.invoke(cli, ["cache", "clear", "--yes"])
        assert cleared.exit_code == 0 and f"Deleted {calls} stored answers" in cleared.output
        assert json.loads(runner.invoke(cli, ["cache", "info", "--json"]).output)["entries"] == 0
        assert runner.invoke(cli, model_run(server.base_url, "--cache")).exit_code == 0
        assert len(server.requests) == 2 * calls  # the models were asked again


def test_cache_clear_deletes_a_file_that_is_not_a_cache(isolated_home: Path) -> None:
    path = isolated_home / "response-cache.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"junk" * 100)
    runner = CliRunner()
    info = runner.invoke(cli, ["cache", "info"])
    assert info.exit_code == 1 and info.output == (
        f"Error: {path} is not a tautrait response cache (file is not a database); "
        "delete it with: tautrait cache clear\n"
    )
    declined = runner.invoke(cli, ["cache", "clear"], input="n\n")
    assert declined.exit_code != 0 and f"{path} is damaged" in declined.output
    assert path.read_bytes() == b"junk" * 100
    cleared = runner.invoke(cli, ["cache", "clear", "--yes"])
    assert cleared.exit_code == 0
    assert cleared.output == f"Deleted the damaged response cache {path}.\n"
    assert not path.exists()
    assert json.loads(runner.invoke(cli, ["cache", "info", "--json"]).output)["entries"] == 0


def test_a_run_with_a_damaged_cache_stops_before_any_episode(
    toy_plugin, isolated_home: Path
) -> None:
    from tautrait_core.scripted.scripts import GoldScript

    path = isolated_home / "response-cache.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"junk" * 100)
    runner = CliRunner()
    with ScriptedModelServer(GoldScript(toy_plugin.TASKS, ["transfer_to_librarian"])) as server:
        result = runner.invoke(cli, model_run(server.base_url, "--cache"))
        assert server.requests == []
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {path} is not a tautrait response cache (file is not a database); "
        "delete it with: tautrait cache clear\n"
    )
    assert path.read_bytes() == b"junk" * 100
    assert json.loads(runner.invoke(cli, ["runs", "list", "--json"]).output) == []

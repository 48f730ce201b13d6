"""Keys go where the user meant them: a provider's key never goes to a server of the
user's own, which gets only the key bound to it (``keys set NAME --api-base URL``).

Both transports run against a server on loopback that records the key each request
carries."""

from __future__ import annotations

import asyncio

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.llm.client import ModelSpec, complete
from tautrait_core.testing.misbehaving_server import MisbehavingServer

PROVIDER_KEY = "sk-provider-key-for-openai-0123456789"
SERVER_KEY = "sk-key-of-my-own-server-0123456789"


@pytest.fixture(params=["direct", "litellm"])
def transport(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("TAUTRAIT_LLM_TRANSPORT", request.param)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("MY_SERVER_KEY", raising=False)
    return str(request.param)


def _sent_key(server: MisbehavingServer) -> str:
    spec = ModelSpec(model="openai/local", api_base=server.base_url, max_retries=0)
    asyncio.run(complete(spec, [{"role": "user", "content": "hi"}]))
    return server.authorizations[-1].removeprefix("Bearer ")


def test_a_stored_provider_key_never_goes_to_a_server_of_ones_own(toy_plugin, transport) -> None:
    runner = CliRunner()
    stored = runner.invoke(cli, ["keys", "set", "OPENAI_API_KEY", "--value", PROVIDER_KEY])
    assert stored.exit_code == 0, stored.output
    with MisbehavingServer() as server:
        run = [
            *["run", "--domain", "toylib", "--task-ids", "0", "--max-steps", "2"],
            *["--agent", "tool-calling", "--agent-model", "openai/local"],
            *["--agent-api-base", server.base_url, "--user", "llm"],
            *["--user-model", "openai/local", "--user-api-base", server.base_url],
        ]
        result = runner.invoke(cli, run)
        assert result.exit_code == 0, result.output
    assert server.authorizations
    assert set(server.authorizations) == {"Bearer sk-local-no-key"}


def test_a_server_gets_the_key_bound_to_it_and_the_variable_wins(transport, monkeypatch) -> None:
    runner = CliRunner()
    runner.invoke(cli, ["keys", "set", "OPENAI_API_KEY", "--value", PROVIDER_KEY])
    with MisbehavingServer() as server, MisbehavingServer() as other:
        bound = runner.invoke(
            cli,
            ["keys", "set", "MY_SERVER_KEY", "--value", SERVER_KEY, "--api-base", server.base_url],
        )
        assert bound.exit_code == 0, bound.output
        assert f"Stored MY_SERVER_KEY for {server.base_url}" in bound.output
        assert _sent_key(server) == SERVER_KEY
        assert _sent_key(other) == "sk-local-no-key"
        monkeypatch.setenv("MY_SERVER_KEY", "sk-from-the-environment-0123")
        assert _sent_key(server) == "sk-from-the-environment-0123"
        listing = runner.invoke(cli, ["keys", "list"]).output
        assert f"MY_SERVER_KEY  (for {server.base_url})" in listing

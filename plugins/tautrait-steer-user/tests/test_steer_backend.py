"""The steer trait backend: registration, configuration checks and whole runs."""

from __future__ import annotations

import json
import sqlite3
import sys
from typing import Any

import pytest
from click.testing import CliRunner
from tautrait_steer_user.backend import SteerTraitBackend
from tautrait_steer_user.fake_service import FakeSteerService, ServiceFailure

from tautrait_core import (
    STOP_TOKEN,
    ConfigError,
    Outcome,
    RunConfig,
    Termination,
    execute,
    get_plugin_manager,
    lookup,
    prepare,
    set_key,
)
from tautrait_core.testing import cli, main

KEY = "sk-steer-secret-0123456789"


def config(**options: Any) -> RunConfig:
    settings: dict[str, Any] = {"trait_backend": "steer", "retry_base_s": 0.0, "timeout_s": 5}
    settings.update(options)
    return RunConfig.model_validate(settings)


def customer(body: dict[str, Any]) -> str:
    """Opens with a complaint, then ends the conversation."""
    said = [m for m in body["messages"] if m["role"] == "assistant"]
    return STOP_TOKEN if said else "My parcel must be held. Now."


def test_registered_by_the_entry_point_without_the_user_model() -> None:
    assert lookup("trait_backend", "steer") is SteerTraitBackend
    assert SteerTraitBackend.uses_user_model is False
    source = get_plugin_manager().source("trait_backend", "steer")
    assert source.distribution == "tautrait-steer-user"


def test_plugin_import_is_light() -> None:
    # tautrait --help imports the plugin: it must not pull in HTTP clients or torch; the
    # steer client connects with the first request
    code = (
        "import sys, tautrait_steer_user, tautrait_steer_user.client; print(sorted(m for m in "
        "('aiohttp', 'httpx', 'litellm', 'torch', 'transformers') if m in sys.modules))"
    )
    import subprocess

    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert output.stdout.strip() == "[]", output.stderr


def test_upstream_flags_select_the_steer_backend() -> None:
    upstream = RunConfig.model_validate(
        {"user_model_provider": "steer", "endpoint": "http://127.0.0.1:8600/"}
    )
    assert upstream.user.trait_backend == "steer"
    assert upstream.plugin_options == {"steer_endpoint": "http://127.0.0.1:8600/"}


def test_no_endpoint_fails_before_the_run() -> None:
    with pytest.raises(ConfigError, match="--endpoint URL or set STEER_ENDPOINT"):
        SteerTraitBackend.check_config(config())


def test_endpoint_must_be_a_url() -> None:
    with pytest.raises(ConfigError, match="http"):
        SteerTraitBackend.check_config(config(steer_endpoint="steer.example.com"))


def test_remote_endpoint_needs_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    remote = config(steer_endpoint="https://steer.example.com/generate")
    with pytest.raises(ConfigError, match="STEER_API_KEY"):
        SteerTraitBackend.check_config(remote)
    monkeypatch.setenv("STEER_API_KEY", KEY)
    SteerTraitBackend.check_config(remote)


def test_stored_key_and_endpoint_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STEER_ENDPOINT", "https://steer.example.com/generate")
    set_key("STEER_API_KEY", KEY)
    SteerTraitBackend.check_config(config())


def test_loopback_endpoint_needs_no_key() -> None:
    SteerTraitBackend.check_config(config(steer_endpoint="http://localhost:8600/"))
    SteerTraitBackend.check_config(config(steer_endpoint="http://127.0.0.1:8600/"))


def test_prepare_refuses_a_run_without_endpoint(parcel_domain: str) -> None:
    with pytest.raises(ConfigError, match="STEER_ENDPOINT"):
        prepare(config(domain=parcel_domain, agent="oracle", user="llm"))


def test_run_with_steered_users(parcel_domain: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STEER_API_KEY", KEY)
    with FakeSteerService(customer, api_key=KEY) as service:
        report = execute(
            config(
                domain=parcel_domain,
                agent="oracle",
                user="llm",
                steer_endpoint=service.url,
                traits="impatience=high,confusion=0",
                user_temperature=0.3,
                concurrency=2,
            )
        )
        bodies = [request.body for request in service.requests]
    assert [r.outcome for r in report.results] == [Outcome.PASS, Outcome.PASS]
    assert {r.termination for r in report.results} == {Termination.USER_STOP}
    assert all(b["trait_dict"] == {"impatience": "high", "confusion": "low"} for b in bodies)
    assert {b["temperature"] for b in bodies} == {0.3}
    first = bodies[0]["messages"]
    assert first[0]["role"] == "system" and "parcel" in first[0]["content"]
    assert first[1:] == [{"role": "user", "content": "Hello, how can I help you today?"}]
    assert report.results[0].messages[1].content == "My parcel must be held. Now."
    calls = report.results[0].calls
    assert [c.role for c in calls] == ["user", "user"]
    assert all(c.model.startswith("steer:http://127.0.0.1:") for c in calls)
    assert report.results[0].user_usage.calls == 2


def test_failing_service_is_an_infrastructure_error_rerun_on_resume(
    parcel_domain: str,
) -> None:
    broken = {"on": True}

    def responder(body: dict[str, Any]) -> str | ServiceFailure:
        return ServiceFailure(503) if broken["on"] else customer(body)

    with FakeSteerService(responder) as service:
        options = {
            "domain": parcel_domain,
            "agent": "oracle",
            "user": "llm",
            "steer_endpoint": service.url,
            "max_retries": 1,
        }
        report = execute(config(**options))
        assert {r.outcome for r in report.results} == {Outcome.ERROR}
        assert {r.termination for r in report.results} == {Termination.PROVIDER_ERROR}
        assert "answered 503" in (report.results[0].error or "")
        assert report.metrics.errors == 2 and report.metrics.scored == 0

        broken["on"] = False
        resumed = execute(config(**options, resume=report.run.id))
    assert [r.outcome for r in resumed.results] == [Outcome.PASS, Outcome.PASS]


def steered_run(parcel_domain: str, traits: str) -> tuple[str, Any, str, dict[str, Any]]:
    """The oracle run from the command line with an llm user on the steer backend (a fake
    service) carrying ``traits``: the service's URL, its first request's body, the run's
    id and its JSON report."""
    with FakeSteerService(customer) as service:
        arguments = [
            "run", "--domain", parcel_domain, "--agent", "oracle", "--user", "llm",
            "--trait-backend", "steer", "--endpoint", service.url,
            "--traits", traits, "--json",
        ]  # fmt: skip
        result = CliRunner().invoke(cli, arguments)
        assert result.exit_code == 0, result.output
        url, first = service.url, service.requests[0].body
    run_id = json.loads(result.output)["run_id"]
    report = json.loads(CliRunner().invoke(cli, ["report", run_id, "--json"]).output)
    return url, first, run_id, report


def test_cli_run_with_the_steer_backend(parcel_domain: str) -> None:
    url, first, run_id, report = steered_run(parcel_domain, "skepticism=medium")
    assert first["trait_dict"] == {"skeptical": "medium"}
    assert report["config"]["plugin_options"] == {"steer_endpoint": url}
    assert "steer_endpoint" not in report["config"]
    shown = CliRunner().invoke(cli, ["report", run_id]).output
    assert f"Plugin options: steer_endpoint={url}" in shown


def test_endpoint_is_the_plugin_s_run_option_not_a_core_field(parcel_domain: str) -> None:
    assert "steer_endpoint" not in RunConfig().model_dump()
    help_text = CliRunner().invoke(cli, ["run", "--help"]).output
    assert "--steer-endpoint, --endpoint" in help_text
    assert "Steer service URL" in help_text
    for given in ({"endpoint": "http://h:1/"}, {"steer_endpoint": "http://h:1/"}):
        assert config(**given).plugin_options == {"steer_endpoint": "http://h:1/"}
    with pytest.raises(ConfigError, match=r"--steer-endpoint \(steer_endpoint\)"):
        prepare(config(domain=parcel_domain, agent="oracle", endpoint=["not", "a", "url"]))


def test_run_stored_before_the_option_moved_still_resumes(parcel_domain: str) -> None:
    broken = {"on": True}

    def responder(body: dict[str, Any]) -> str | ServiceFailure:
        return ServiceFailure(503) if broken["on"] else customer(body)

    with FakeSteerService(responder) as service:
        options = {"domain": parcel_domain, "agent": "oracle", "user": "llm", "max_retries": 0}
        report = execute(config(**options, endpoint=service.url))
        assert report.metrics.errors == 2
        # rewrite the stored config the way runs were stored while the core had the field
        stored = dict(report.run.config)
        stored["steer_endpoint"] = stored.pop("plugin_options")["steer_endpoint"]
        with sqlite3.connect(report.results_db) as db:
            db.execute(
                "UPDATE runs SET config = ? WHERE id = ?", (json.dumps(stored), report.run.id)
            )
        broken["on"] = False
        resumed = execute(
            RunConfig(resume=report.run.id, results_db=report.results_db, retry_base_s=0)
        )
    assert [r.outcome for r in resumed.results] == [Outcome.PASS, Outcome.PASS]


def test_cli_run_without_endpoint_names_the_fix(parcel_domain: str) -> None:
    arguments = [
        "run", "--domain", parcel_domain, "--agent", "oracle", "--user", "llm",
        "--trait-backend", "steer",
    ]  # fmt: skip
    result = CliRunner().invoke(cli, arguments)
    assert result.exit_code != 0
    assert "--endpoint URL or set STEER_ENDPOINT" in result.output


def test_steer_commands_are_added_to_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["steer", "--help"])
    assert exited.value.code == 0
    output = capsys.readouterr().out
    assert all(name in output for name in ("build", "serve", "probe"))


def test_a_steered_run_records_no_user_model_and_shows_its_backend(parcel_domain: str) -> None:
    _, _, run_id, report = steered_run(parcel_domain, "impatience=high")
    assert report["run"]["user_model"] is None
    shown = CliRunner().invoke(cli, ["report", run_id]).output
    assert "user llm" in shown and "user llm (" not in shown  # no model named
    assert "traits impatience=high (steer backend)" in shown
    listed = CliRunner().invoke(cli, ["runs", "list"]).output
    assert "traits impatience=high (steer" in listed and "gpt-4o" not in listed

"""The plugin guides work as written: their code, copied into files, is a working plugin."""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tautrait_core.cli import cli
from tautrait_core.plugins import get_plugin_manager, reset_plugin_manager
from tautrait_core.scripted.scripts import GoldScript
from tautrait_core.scripted.server import ScriptedModelServer

DOCS = Path(__file__).resolve().parents[1] / "docs"
FILE_BLOCK = re.compile(r"```(?:python|json)\n# (\S+\.py)[^\n]*\n(.*?)```", re.S)


def guide_files(guide: str) -> dict[str, str]:
    """``{relative path: source}`` of the guide's code blocks headed by a file name."""
    text = (DOCS / guide).read_text(encoding="utf-8")
    return {name: source for name, source in FILE_BLOCK.findall(text)}


@pytest.fixture
def plugin_from_guide(tmp_path: Path) -> Iterator[object]:
    """Writes a guide's files into a package, imports and registers it (removed afterwards)."""
    loaded: list[str] = []

    def load(guide: str, package: str, extra: dict[str, str]) -> object:
        files = guide_files(guide)
        assert f"{package}/__init__.py" in files, sorted(files)
        for name, source in {**files, **extra}.items():
            path = tmp_path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(source, encoding="utf-8")
        sys.path.insert(0, str(tmp_path))
        module = importlib.import_module(package)
        loaded.append(package)
        reset_plugin_manager()
        get_plugin_manager().register(module, name=package)
        return module

    yield load
    for package in loaded:
        for name in [m for m in sys.modules if m == package or m.startswith(f"{package}.")]:
            del sys.modules[name]
    if str(tmp_path) in sys.path:
        sys.path.remove(str(tmp_path))
    reset_plugin_manager()


def test_the_domain_guide_is_a_working_domain(plugin_from_guide) -> None:
    text = (DOCS / "writing-a-domain.md").read_text(encoding="utf-8")
    tasks_json = re.search(r"```json\n(\[.*?\])\n```", text, re.S)
    assert tasks_json, "the guide shows no tasks.json"
    plugin_from_guide(
        "writing-a-domain.md",
        "tautrait_clinic",
        {
            "tautrait_clinic/tasks.json": tasks_json.group(1),
            "tautrait_clinic/policy.md": "Help customers with their orders.",
        },
    )
    runner = CliRunner()
    ran = runner.invoke(
        cli, ["run", "--domain", "clinic", "--agent", "oracle", "--num-trials", "2"]
    )
    assert ran.exit_code == 0, ran.output
    assert "Average reward: 1.000" in ran.output
    checked = runner.invoke(cli, ["check", "--domain", "clinic"])
    assert checked.exit_code == 0, checked.output


def test_the_domain_guide_task_example_is_valid() -> None:
    from tautrait_core import Action, Task

    text = (DOCS / "writing-a-domain.md").read_text(encoding="utf-8")
    example = re.search(r"`(Task\(user_id=.*?\))`", text, re.S)
    assert example, "the guide shows no Task(...) example"
    task = eval(" ".join(example.group(1).split()), {"Task": Task, "Action": Action})
    assert task.actions[0].kwargs == {"order_id": "O1"}


def test_the_user_simulator_guide_is_a_working_simulator(toy_plugin, plugin_from_guide) -> None:
    plugin_from_guide("writing-a-user-simulator.md", "tautrait_brief_customer", {})
    get_plugin_manager().register(toy_plugin, name="toy_library")
    tasks = toy_plugin.TASKS
    with ScriptedModelServer(GoldScript(tasks, ["transfer_to_librarian"])) as server:
        ran = CliRunner().invoke(
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
                "brief-customer",
                "--user-model",
                "openai/scripted",
                "--user-api-base",
                server.base_url,
                "--traits",
                "impatience=high",
            ],
        )
    assert ran.exit_code == 0, ran.output
    assert "Average reward: 1.000" in ran.output
